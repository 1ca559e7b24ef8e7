"""Settings, logs and migrations: the pieces that make the service safe to operate."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from pydantic import ValidationError
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

from service.audit.keys import key_id, keyring_from_settings
from service.logs import JsonFormatter, request_id_var
from service.settings import DEVELOPMENT_AUDIT_KEY, Settings, get_settings
from service.store.migrate import current_heads


def test_defaults_run_on_a_bare_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "REDIS_URL", "GPUOPS_API_TOKENS", "GPUOPS_ENV", "GPUOPS_SPEND"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert (settings.database_url, settings.redis_url, settings.launch) == ("sqlite:///./gpuops.db", None, "dry-run")


def test_defaults_spare_cost_explorer_and_bound_aws_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GPUOPS_SPEND_TTL_SECONDS", "GPUOPS_AWS_MAX_ATTEMPTS", "GPUOPS_AWS_CONNECT_TIMEOUT",
                 "GPUOPS_AWS_READ_TIMEOUT", "GPUOPS_LAUNCH_LEASE_SECONDS", "GPUOPS_KUBECONFIG", "AWS_REGION",
                 "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert settings.spend_ttl_seconds == 12 * 3600  # Cost Explorer lands 12-24 h late, at $0.01 a call
    assert (settings.aws_max_attempts, settings.aws_connect_timeout, settings.aws_read_timeout) == (5, 5, 30)
    assert (settings.launch_lease_seconds, settings.kubeconfig, settings.aws_region) == (300, None, None)


@pytest.mark.parametrize(("name", "value", "field", "expected"), [
    ("GPUOPS_AWS_MAX_ATTEMPTS", "3", "aws_max_attempts", 3),
    ("GPUOPS_AWS_CONNECT_TIMEOUT", "2.5", "aws_connect_timeout", 2.5),
    ("GPUOPS_AWS_READ_TIMEOUT", "60", "aws_read_timeout", 60),
    ("GPUOPS_CATALOG_DIR", "/var/lib/gpuops/catalog", "catalog_dir", "/var/lib/gpuops/catalog"),
    ("GPUOPS_LAUNCH_LEASE_SECONDS", "120", "launch_lease_seconds", 120),
    ("GPUOPS_KUBECONFIG", "/etc/kube/config", "kubeconfig", "/etc/kube/config"),
    ("GPUOPS_SPEND_TTL_SECONDS", "3600", "spend_ttl_seconds", 3600),
    ("AWS_REGION", "eu-central-1", "aws_region", "eu-central-1"),
    ("AWS_DEFAULT_REGION", "us-west-2", "aws_region", "us-west-2"),
])
def test_each_setting_is_read_from_its_environment_variable(
    name: str, value: str, field: str, expected: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv(name, value)
    assert getattr(Settings(), field) == expected


@pytest.mark.parametrize(("name", "value"), [("GPUOPS_AWS_MAX_ATTEMPTS", "0"), ("GPUOPS_AWS_READ_TIMEOUT", "-1"),
                                             ("GPUOPS_LAUNCH_LEASE_SECONDS", "0")])
def test_out_of_range_aws_and_lease_settings_are_refused(name: str, value: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=name.removeprefix("GPUOPS_").lower()):
        Settings()


def test_unprefixed_urls_and_token_roles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://db/gpuops")
    monkeypatch.setenv("REDIS_URL", "redis://cache:6379/0")
    monkeypatch.setenv("GPUOPS_API_TOKENS", "bot:b-0123456789abcdef,viewer:v-0123456789abcdef")
    get_settings.cache_clear()
    try:
        settings = get_settings()
        assert settings.database_url.endswith("/gpuops") and settings.redis_url == "redis://cache:6379/0"
        assert settings.token_roles() == {"b-0123456789abcdef": "bot", "v-0123456789abcdef": "viewer"}
        assert "0123456789abcdef" not in repr(settings)
    finally:
        get_settings.cache_clear()


@pytest.mark.parametrize("tokens", ["admin:change-me", "bot:short", "", "admin:secret"])
def test_placeholder_secrets_are_refused_outside_development(tokens: str) -> None:
    with pytest.raises(ValidationError):
        Settings(env="production", api_tokens=tokens)
    Settings(env="development", api_tokens=tokens)


def test_malformed_token_pairs_are_refused() -> None:
    with pytest.raises(ValidationError, match="role:token"):
        Settings(api_tokens="root:abcdefghijklmnopqrstu")


def test_a_settings_error_never_shows_the_secrets_it_was_given() -> None:
    secret, password = "admin-0123456789abcdefSECRET", "pw-SECRET-0123"
    url = f"postgresql+psycopg://gpuops:{password}@db.internal/gpuops"
    for tokens in (f"admin:{secret},bogus", f"admin:{secret},bot:tiny"):
        with pytest.raises(ValidationError) as raised:
            Settings(env="production", api_tokens=tokens, database_url=url)
        assert secret[-12:] not in str(raised.value) and password not in str(raised.value)


def test_json_log_lines_carry_the_request_id_and_only_named_fields() -> None:
    record = logging.LogRecord("gpuops", logging.INFO, __file__, 1, "served %s", ("x",), None)
    record.__dict__.update({"status": 200, "authorization": "Bearer secret-token"})
    token = request_id_var.set("req-123")
    try:
        line = json.loads(JsonFormatter().format(record))
    finally:
        request_id_var.reset(token)
    assert line["msg"] == "served x" and line["request_id"] == "req-123" and line["status"] == 200
    assert "secret-token" not in json.dumps(line)


def test_the_migrations_build_exactly_the_tables_the_models_describe(engine: Engine) -> None:
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": False})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_one_migration_head() -> None:
    assert len(current_heads()) == 1
    assert (Path(__file__).resolve().parents[2] / "service" / "migrations" / "versions").is_dir()


def test_a_refreshed_catalog_snapshot_is_picked_up(tmp_path: Path) -> None:
    from policy.catalog import load_catalog
    from service.api.state import build_state, refresh_catalog

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'c.db'}", catalog_dir=str(tmp_path / "catalog"))
    state = build_state(settings)
    shipped = state.planner.catalog.snapshot
    assert not refresh_catalog(state)
    (tmp_path / "catalog").mkdir()
    refreshed = load_catalog().model_copy(update={"snapshot": "2026-12-01+refresh"})
    (tmp_path / "catalog" / "current.json").write_text(refreshed.model_dump_json())
    assert refresh_catalog(state) and state.planner.catalog.snapshot == "2026-12-01+refresh" != shipped
    assert b"2026-12-01+refresh" in state.catalog_json and not refresh_catalog(state)
    state.engine.dispose()


PRODUCTION_TOKENS = "admin:a-0123456789abcdef0123"
AUDIT_KEY = "audit-0123456789abcdef0123456789abcdefSECRET"


@pytest.mark.parametrize("key", ["", "change-me", "too-short-0123456789", DEVELOPMENT_AUDIT_KEY])
def test_a_missing_or_placeholder_audit_key_is_refused_outside_development(key: str) -> None:
    with pytest.raises(ValidationError, match="GPUOPS_AUDIT_KEY"):
        Settings(env="production", api_tokens=PRODUCTION_TOKENS, audit_key=key)
    assert Settings(env="development", audit_key=key).audit_signing_key() == (key or DEVELOPMENT_AUDIT_KEY)


def test_previous_audit_keys_verify_but_never_sign_and_never_show() -> None:
    old = "old-0123456789abcdef0123456789abcdef"
    settings = Settings(env="production", api_tokens=PRODUCTION_TOKENS, audit_key=AUDIT_KEY,
                        audit_previous_keys=f" {old} ,")
    keyring = keyring_from_settings(settings)
    assert keyring.current_id == key_id(AUDIT_KEY) and set(keyring.keys) == {key_id(AUDIT_KEY), key_id(old)}
    assert "SECRET" not in repr(settings) and "SECRET" not in repr(keyring)
    with pytest.raises(ValidationError, match="a key in GPUOPS_AUDIT_PREVIOUS_KEYS") as raised:
        Settings(env="production", api_tokens=PRODUCTION_TOKENS, audit_key=AUDIT_KEY,
                 audit_previous_keys=f"{old},changeme")
    assert old not in str(raised.value) and "SECRET" not in str(raised.value)


def test_the_audit_anchor_must_be_an_s3_location() -> None:
    assert Settings(audit_anchor="s3://bucket/prod").audit_anchor == "s3://bucket/prod"
    assert Settings(audit_anchor="").audit_anchor is None
    with pytest.raises(ValidationError, match="s3://bucket/prefix"):
        Settings(audit_anchor="https://bucket.s3.amazonaws.com/prod")
