"""Commands of this area (filled in by its module)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:  # noqa: ARG001
    """Add this area's commands to ``app``."""
