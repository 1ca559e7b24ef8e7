"""scripts/gen_config_docs.py turns a settings class into the configuration reference table."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from types import ModuleType
from typing import ClassVar, Literal

import pytest
from pydantic import AliasChoices, Field, SecretStr

from contract.environment import EnvironmentSettings
from tests.deploy.conftest import ROOT

SCRIPT = ROOT / "scripts" / "gen_config_docs.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_config_docs", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


gen = _load()


class ExampleSettings(EnvironmentSettings):
    """A settings class shaped like the service's."""

    ENV_PREFIX: ClassVar[str] = "GPUOPS_"

    env: Literal["development", "production"] = "development"
    # Where state lives; SQLite when unset.
    database_url: str = Field(default="sqlite:///x.db", validation_alias=AliasChoices("DATABASE_URL", "db"))
    api_tokens: SecretStr = SecretStr("")
    ttl_seconds: float = Field(default=3600, description="Cache lifetime.")
    port: int = Field(default=3000, alias="GPUOPS_BOT_PORT")  # noqa: E501 - where the bot listens
    required_thing: str


def _table(text: str) -> dict[str, list[str]]:
    rows = [line.strip("|").split(" | ") for line in text.splitlines()[2:]]
    return {row[0].strip(): [cell.strip() for cell in row[1:]] for row in rows}


def test_settings_rows_name_the_environment_variables_read() -> None:
    table = _table(gen.render(ExampleSettings))
    assert table["`GPUOPS_ENV`"] == ['"development" \\| "production"', '`"development"`', ""]
    assert table["`DATABASE_URL`, `DB`"] == ["str", '`"sqlite:///x.db"`', "Where state lives; SQLite when unset."]
    assert table["`GPUOPS_API_TOKENS`"] == ["secret", "*(empty)*", ""]
    assert table["`GPUOPS_TTL_SECONDS`"] == ["float", "`3600`", "Cache lifetime."]
    assert table["`GPUOPS_BOT_PORT`"] == ["int", "`3000`", "where the bot listens"]
    assert table["`GPUOPS_REQUIRED_THING`"][1] == "*required*"


def test_policy_config_rows_are_key_paths_through_nested_models() -> None:
    table = _table(gen.render(gen.load_class("policy.config:PolicyConfig")))
    assert table["`default_team`"][:2] == ["str", "*required*"]
    assert table["`max_instances`"][:2] == ["int", "`16`"]
    assert table["`teams.<name>.launch.role_arn`"][:2] == ["str \\| None", "*(unset)*"]
    assert table["`teams.<name>.launch.vpc.subnets`"][0] == "list[str]"
    assert table["`approval_tiers[].min_usd`"][0] == "float"
    assert table["`groups`"][2].startswith('group -> its people: actor ids ("slack:T123:U456"), Slack user groups')
    assert "`teams.<name>.platforms.hyperpod`" in table


def test_command_line_prints_the_table() -> None:
    ran = subprocess.run(
        [sys.executable, str(SCRIPT), "policy.config:PolicyConfig"],
        capture_output=True, text=True, timeout=60, check=False, cwd=ROOT,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("| Key | Type | Default | Description |\n|---|---|---|---|\n")


@pytest.mark.parametrize("spec", ["policy.config", "policy.config:Nope", "policy.config:load_policy_file"])
def test_bad_targets_are_refused(spec: str) -> None:
    with pytest.raises(SystemExit):
        gen.load_class(spec)
