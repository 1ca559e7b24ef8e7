"""Entry point of the ``gpuops`` command. Commands import their heavy dependencies lazily so that
``gpuops plan`` stays fast and never imports the service or Slack stacks.

Any failure is one line on stderr with what to do (``gpuops.cli_errors``); ``--debug`` (or ``GPUOPS_DEBUG=1``)
shows the traceback instead.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Annotated, Any

import typer

from gpuops import (
    cli_approve,
    cli_audit,
    cli_aws,
    cli_bot,
    cli_calibration,
    cli_capacity,
    cli_catalog,
    cli_doctor,
    cli_plan,
    cli_service,
)
from gpuops.cli_errors import OneLineErrorsGroup

_APP_OPTIONS: dict[str, Any] = {
    "help": "gpuops: GPU training compute decisions, approvals and launches.", "no_args_is_help": True,
    "cls": OneLineErrorsGroup, "pretty_exceptions_enable": False}
app = typer.Typer(**_APP_OPTIONS)
for area in (cli_plan, cli_catalog, cli_service, cli_audit, cli_aws, cli_bot, cli_doctor, cli_calibration, cli_approve,
             cli_capacity):
    area.register(app)


@app.callback()
def options(
    debug: Annotated[bool, typer.Option("--debug", envvar="GPUOPS_DEBUG",
                                        help="Show the traceback of a failure instead of one line.")] = False,
) -> None:
    """gpuops: GPU training compute decisions, approvals and launches."""
    del debug  # read by OneLineErrorsGroup from the context


def app_for(argv: list[str]) -> typer.Typer:
    """The app that runs ``argv``: when its first word names a command, an app holding that command alone (and the
    global options), else every command. Click works out each command's parameters from its signature before it
    runs any; for the seventeen other commands that is a twentieth of a `gpuops plan` process, spent on commands
    that will not run. The command, its help and its errors are the same either way."""
    name = argv[0] if argv else None
    commands = [c for c in app.registered_commands if c.name == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    alone = typer.Typer(**_APP_OPTIONS)
    alone.registered_callback = app.registered_callback
    alone.registered_commands, alone.registered_groups = commands, groups
    return alone


def main() -> None:
    if sys.argv[1:2] == ["plan"]:
        # No pydantic plugin sees the request or the spend a plan validates, and none is looked for: finding them
        # reads the metadata of every installed package before the first argument is parsed, ~2% of the command's
        # work. Long-running commands (the service, the bot) keep whatever plugins the environment installs; an
        # explicit PYDANTIC_DISABLE_PLUGINS wins.
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        app_for(sys.argv[1:])()
    finally:
        # The process ends here. On its way out the interpreter would walk every object still alive (~50,000 after a
        # `gpuops plan`) for reference cycles to free, ~4% of the command's time spent handing back memory the
        # operating system is about to take whole; frozen objects are not walked.
        gc.freeze()


if __name__ == "__main__":
    main()
