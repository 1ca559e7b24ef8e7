"""AWS-facing commands: ``gpuops catalog refresh``, ``gpuops worker`` and ``gpuops jobs``.

Heavy imports (boto3, the service store) happen inside the commands so ``gpuops plan`` stays light.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

DEFAULT_CATALOG_DIR = "var/catalog"


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``; ``refresh`` joins the ``catalog`` group when it exists."""
    from gpuops import cli_catalog

    catalog_app = getattr(cli_catalog, "catalog_app", None)
    if isinstance(catalog_app, typer.Typer):
        catalog_app.command("refresh")(refresh_command)
    else:
        app.command("catalog-refresh")(refresh_command)


def refresh_command(
    directory: Annotated[str, typer.Option("--dir", help="Where snapshots are kept (GPUOPS_CATALOG_DIR).")] = "",
    region: Annotated[list[str] | None, typer.Option(help="Only these regions (repeatable).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the diff without storing.")] = False,
) -> None:
    """Refresh prices from the AWS Price List API and EC2 spot history into a new catalog snapshot."""
    from datetime import UTC, datetime

    from policy.errors import UpstreamError
    from service.aws.clients import ClientFactory
    from service.aws.refresh import refresh_catalog_snapshot

    folder = directory or os.environ.get("GPUOPS_CATALOG_DIR", DEFAULT_CATALOG_DIR)
    try:
        result = refresh_catalog_snapshot(
            factory=ClientFactory.from_env(), directory=folder, now=datetime.now(UTC), regions=region or None,
            store=not dry_run, base_file=os.environ.get("GPUOPS_CATALOG"),
        )
    except UpstreamError as exc:
        typer.echo(f"Refresh failed, the previous snapshot stays in force: {exc}", err=True)
        raise typer.Exit(code=1) from None
    typer.echo(f"Snapshot {result.previous.snapshot} → {result.catalog.snapshot}: {len(result.changes)} price changes")
    for line in result.changes:
        typer.echo(f"  {line}")
    if result.stored is not None:
        typer.echo(f"Stored {result.stored} (in force: {result.stored.parent / 'current.json'})")
