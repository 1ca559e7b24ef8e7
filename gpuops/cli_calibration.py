"""``gpuops calibration show``: how far finished jobs were from their estimates, and the corrections learnt."""

from __future__ import annotations

import json
from typing import Annotated

import typer

calibration_app = typer.Typer(help="Estimates that learn from finished jobs.", no_args_is_help=True)
COLUMNS = ("family", "task", "size", "jobs", "median actual/estimate", "correction")


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.add_typer(calibration_app, name="calibration")


@calibration_app.command("show")
def show(as_json: Annotated[bool, typer.Option("--json", help="Print JSON rows instead of a table.")] = False) -> None:
    """Show the correction of estimated hours per instance family, task and model size, from completed jobs."""
    from service.jobs.outcomes import current_calibration
    from service.settings import get_settings
    from service.store.db import make_engine

    settings = get_settings()
    engine = make_engine(settings.database_url)
    try:
        table = current_calibration(engine=engine, prior_jobs=settings.calibration_prior_jobs)
    finally:
        engine.dispose()
    rows = [(c.family, c.task, c.size_band, str(c.jobs), f"{c.median_ratio:.2f}", f"×{c.factor:.2f}")
            for c in table.corrections]
    if as_json:
        typer.echo(json.dumps([dict(zip(("family", "task", "size_band", "jobs", "median_ratio", "factor"),
                                        (c.family, c.task, c.size_band, c.jobs, c.median_ratio, c.factor),
                                        strict=True)) for c in table.corrections], indent=2))
        return
    if not rows:
        typer.echo("No completed jobs yet: estimates carry no correction.")
        return
    widths = [max(len(r[i]) for r in (COLUMNS, *rows)) for i in range(len(COLUMNS))]
    for row in (COLUMNS, *rows):
        typer.echo("  ".join(cell.ljust(w) if i < 3 else cell.rjust(w) for i, (cell, w) in
                             enumerate(zip(row, widths, strict=True))).rstrip())
    typer.echo(f"Each correction weighs its jobs against {settings.calibration_prior_jobs:g} jobs' worth of no "
               "correction; one unusual job cannot move it far.")
