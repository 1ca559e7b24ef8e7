"""Entry point of the ``gpuops`` command. Commands import their heavy dependencies lazily so that
``gpuops plan`` stays fast and never imports the service or Slack stacks."""

from __future__ import annotations

import typer

from gpuops import cli_audit, cli_aws, cli_bot, cli_capacity, cli_catalog, cli_plan, cli_service

app = typer.Typer(help="gpuops: GPU training compute decisions, approvals and launches.", no_args_is_help=True)
for area in (cli_plan, cli_catalog, cli_service, cli_audit, cli_aws, cli_bot, cli_capacity):
    area.register(app)


def main() -> None:
    app()
