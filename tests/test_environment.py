"""Settings read from the environment (contract/environment.py): each field from its variable, whatever its case;
what the constructor is given wins; errors name the field and never show the value."""

from __future__ import annotations

from typing import ClassVar, Literal

import pytest
from pydantic import AliasChoices, Field, SecretStr, ValidationError

from contract.environment import EnvironmentSettings, env_names


class Example(EnvironmentSettings):
    ENV_PREFIX: ClassVar[str] = "APP_"

    mode: Literal["a", "b"] = "a"
    url: str = Field(default="sqlite://", validation_alias=AliasChoices("DATABASE_URL", "APP_DATABASE_URL"))
    token: SecretStr = Field(default=SecretStr(""), alias="SERVICE_TOKEN")
    seconds: float = Field(default=5, gt=0)
    enabled: bool = True
    note: str | None = None


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("APP_MODE", "DATABASE_URL", "APP_DATABASE_URL", "SERVICE_TOKEN", "APP_SECONDS", "APP_ENABLED",
                 "APP_NOTE"):
        monkeypatch.delenv(name, raising=False)


def test_a_field_is_read_from_its_prefixed_name_or_its_aliases_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_MODE", "b")
    monkeypatch.setenv("APP_DATABASE_URL", "postgresql://second")
    monkeypatch.setenv("SERVICE_TOKEN", "secret-value")
    settings = Example()
    assert (settings.mode, settings.url, settings.token.get_secret_value()) == ("b", "postgresql://second",
                                                                                 "secret-value")
    monkeypatch.setenv("DATABASE_URL", "postgresql://first")
    assert Example().url == "postgresql://first"


def test_text_is_read_as_the_fields_type_and_case_does_not_matter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("app_seconds", "2.5")
    monkeypatch.setenv("App_Enabled", "false")
    monkeypatch.setenv("APP_NOTE", "")
    settings = Example()
    assert (settings.seconds, settings.enabled, settings.note) == (2.5, False, "")


def test_what_the_constructor_is_given_wins_by_name_or_by_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_MODE", "b")
    monkeypatch.setenv("SERVICE_TOKEN", "from-env")
    assert Example(mode="a").mode == "a"
    assert Example(SERVICE_TOKEN="given").token.get_secret_value() == "given"
    assert Example(token=SecretStr("named")).token.get_secret_value() == "named"
    assert Example(unknown="ignored").mode == "b"


def test_an_error_names_the_field_and_never_shows_the_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("APP_SECONDS", "-1-secret-looking")
    with pytest.raises(ValidationError) as raised:
        Example()
    assert "seconds" in str(raised.value) and "secret-looking" not in str(raised.value)


def test_the_names_read_are_the_ones_the_configuration_reference_lists() -> None:
    fields = Example.model_fields
    assert env_names(Example, "mode", fields["mode"]) == ["APP_MODE"]
    assert env_names(Example, "url", fields["url"]) == ["DATABASE_URL", "APP_DATABASE_URL"]
    assert env_names(Example, "token", fields["token"]) == ["SERVICE_TOKEN"]
