"""A command named first runs in an app that holds it alone: its parameters, help and errors are those of the
whole app, and no other command's signature is worked out on the way."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gpuops.cli import app, app_for

runner = CliRunner()


def _names(typer_app: object) -> list[str | None]:
    return [c.name for c in typer_app.registered_commands] + [g.name for g in typer_app.registered_groups]  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", ["plan", "policy", "db", "worker", "catalog"])
def test_a_command_named_first_is_the_only_one_registered(command: str) -> None:
    assert _names(app_for([command, "--help"])) == [command]


@pytest.mark.parametrize("argv", [[], ["--help"], ["--debug", "plan", "x"], ["no-such-command"]])
def test_anything_else_gets_every_command(argv: list[str]) -> None:
    assert app_for(argv) is app


@pytest.mark.parametrize("argv", [["plan", "--help"], ["policy", "check", "--help"], ["db", "--help"], ["plan"],
                                  ["plan", "7B", "--tz", "Mars/Olympus"]])
def test_the_command_alone_answers_as_the_whole_app_does(argv: list[str]) -> None:
    whole = runner.invoke(app, argv)
    alone = runner.invoke(app_for(argv), argv)
    assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)
    assert alone.output  # help, or the error naming what to fix
