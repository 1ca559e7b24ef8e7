"""The ``gpuops`` command line: one Typer app whose commands live in modules named for their area."""
