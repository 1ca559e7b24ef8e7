"""Nothing under deploy/ carries a real secret, and the shipped placeholders cannot run in production."""

from __future__ import annotations

import pathlib
import re

import pytest
import yaml

from bot.settings import BotSettings
from service.settings import Settings
from tests.deploy.conftest import DEPLOY, ROOT, read_env_file

SECRET_NAMES = re.compile(r"TOKEN|SECRET|PASSWORD|ACCESS_KEY")
# Shapes of real credentials: AWS access keys, Slack tokens with ids, private keys, URLs with a real password.
REAL_LOOKING = [
    re.compile(r"\bA(KIA|SIA)[0-9A-Z]{16}\b"),
    re.compile(r"\bxox[abposr]-[0-9]{6,}"),
    re.compile(r"\bxapp-[0-9]-"),
    re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    re.compile(r"://[^:/\s]+:(?!change-me@|PASSWORD@|\$\{)[^@\s]{6,}@"),
]
FILES = sorted(p for p in [*DEPLOY.rglob("*"), ROOT / "Dockerfile"] if p.is_file() and p.name != ".env")


def test_every_yaml_under_deploy_parses() -> None:
    paths = sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")])
    assert len(paths) >= 5
    for path in paths:
        docs = [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]
        assert docs, f"{path.relative_to(ROOT)} is empty"


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_no_real_looking_secret(path: pathlib.Path) -> None:
    text = path.read_text(encoding="utf-8")
    for pattern in REAL_LOOKING:
        assert not pattern.search(text), f"{pattern.pattern} matches"


def test_env_example_secrets_are_placeholders() -> None:
    values = read_env_file(DEPLOY / "env.example")
    secrets = {k: v for k, v in values.items() if SECRET_NAMES.search(k)}
    assert {"GPUOPS_API_TOKENS", "GPUOPS_SERVICE_TOKEN", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET"} <= secrets.keys()
    for key, value in secrets.items():
        if key == "SLACK_APP_TOKEN":
            assert value == "", "empty means HTTP mode"
            continue
        tokens = [pair.partition(":")[2] for pair in value.split(",")] if key == "GPUOPS_API_TOKENS" else [value]
        assert tokens and all(token == "change-me" for token in tokens), key
    assert values["GPUOPS_ENV"] == "production"


def _env_example_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in read_env_file(DEPLOY / "env.example").items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("GPUOPS_ENV", "production")


def test_service_refuses_the_example_placeholders_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    _env_example_in_production(monkeypatch)
    with pytest.raises(ValueError, match="GPUOPS_API_TOKENS"):
        Settings()


def test_bot_refuses_the_example_placeholders_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    _env_example_in_production(monkeypatch)
    with pytest.raises(ValueError, match="must be set outside development"):
        BotSettings()
