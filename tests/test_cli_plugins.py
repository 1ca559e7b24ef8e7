"""``gpuops plan`` validates the request and the spend with no pydantic plugin looking on (and spends no time
finding one); the long-running commands keep the environment's plugins, and an explicit setting always wins."""

from __future__ import annotations

import gc
import os

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


def test_other_commands_keep_the_environments_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SETTING, raising=False)
    _run(monkeypatch, "--help")
    assert SETTING not in os.environ


def test_an_explicit_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SETTING, "")
    _run(monkeypatch, "plan", "fine-tune 7B on 1B tokens by Friday", "--now", "2026-11-30T09:00")
    assert os.environ[SETTING] == ""
