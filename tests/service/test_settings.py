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

from service.logs import JsonFormatter, request_id_var
from service.settings import Settings, get_settings
from service.store.migrate import current_heads


def test_defaults_run_on_a_bare_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "REDIS_URL", "GPUOPS_API_TOKENS", "GPUOPS_ENV", "GPUOPS_SPEND"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert (settings.database_url, settings.redis_url, settings.launch) == ("sqlite:///./gpuops.db", None, "dry-run")


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
