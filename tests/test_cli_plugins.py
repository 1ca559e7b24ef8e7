"""``gpuops plan`` validates the request and the spend with no pydantic plugin looking on (and spends no time
finding one); the long-running commands keep the environment's plugins, and an explicit setting always wins."""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import pytest

from gpuops.cli import main

SETTING = "PYDANTIC_DISABLE_PLUGINS"


def _run(monkeypatch: pytest.MonkeyPatch, *argv: str) -> None:
    monkeypatch.setattr("sys.argv", ["gpuops", *argv])
    try:
        main()
    except SystemExit:
        pass
    finally:
        gc.unfreeze()  # main() freezes what is alive for a process about to end; this one goes on


def test_a_plan_loads_no_pydantic_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SETTING, raising=False)
    _run(monkeypatch, "plan", "fine-tune 7B on 1B tokens by Friday", "--now", "2026-11-30T09:00")
    assert os.environ[SETTING] == "__all__"


# A plan in a process of its own, in which looking for pydantic plugins (their entry points) ends it with that message
_LOOKS_FOR_PLUGINS = """
import sys
import pydantic.plugin._loader as loader
def refuse(**_):
    raise SystemExit("plugins were looked for")
loader.entry_points = refuse
sys.argv = ["gpuops", "plan", "fine-tune 7B on 1B tokens by Friday", "--now", "2026-11-30T09:00"]
from gpuops.cli import main
main()
"""


def test_a_plan_never_looks_for_pydantic_plugins_from_its_first_argument_on() -> None:
    """Typer builds pydantic adapters as it parses the arguments, so the setting must be in place before that."""
    env = {k: v for k, v in os.environ.items() if k != SETTING}
    done = subprocess.run([sys.executable, "-c", _LOOKS_FOR_PLUGINS], capture_output=True, text=True, env=env,
                          timeout=120)
    assert "plugins were looked for" not in done.stderr
    assert done.returncode == 0 and "deadline Fri 17:00" in done.stdout  # the plan printed


def test_other_commands_keep_the_environments_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SETTING, raising=False)
    _run(monkeypatch, "--help")
    assert SETTING not in os.environ


def test_an_explicit_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SETTING, "")
    _run(monkeypatch, "plan", "fine-tune 7B on 1B tokens by Friday", "--now", "2026-11-30T09:00")
    assert os.environ[SETTING] == ""
