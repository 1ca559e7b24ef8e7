"""The commands the image, compose file and manifests run are commands the ``gpuops`` CLI has.

A command that its area has not registered yet is skipped with its name; once registered, its path and the
``--host``/``--port`` options the deployment passes must match.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
import typer.main
import yaml

from gpuops.cli import app
from tests.deploy.conftest import DEPLOY, ROOT, by_kind


def _deployed_commands() -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    cmd = next(line for line in dockerfile.splitlines() if line.startswith("CMD "))
    found.append(("Dockerfile CMD", json.loads(cmd.removeprefix("CMD "))))
    compose: dict[str, Any] = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))
    for name, service in compose["services"].items():
        if str(service.get("image", "")).startswith("gpuops"):
            found.append((f"compose {name}", service["command"]))
    for kind in ("Deployment", "Job"):
        for name, obj in by_kind(kind).items():
            for container in obj["spec"]["template"]["spec"]["containers"]:
                found.append((f"{kind} {name}", container["args"]))
    return found


COMMANDS = _deployed_commands()


@pytest.mark.parametrize(("where", "argv"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_deployed_command_exists(where: str, argv: list[str]) -> None:
    # Typer vendors its own click: walk the command tree by its attributes, not by click's classes.
    command: Any = typer.main.get_command(app)
    words = list(itertools.takewhile(lambda word: not word.startswith("-"), argv))
    path: list[str] = []
    for word in words:
        subcommands = getattr(command, "commands", None)
        if subcommands is None:
            break
        sub = subcommands.get(word)
        if sub is None:
            pytest.fail(f"{where}: `gpuops {' '.join(path)}` has no subcommand {word!r}", pytrace=False)
        path.append(word)
        command = sub
    options = {opt for param in command.params for opt in param.opts}
    passed = {word for word in argv if word.startswith("--")}
    assert passed <= options, f"{where}: gpuops {' '.join(path)} has no {sorted(passed - options)}"
