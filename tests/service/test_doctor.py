"""``gpuops doctor``'s service-side checks (settings, database schema, Redis) and what an unmigrated database
answers: each check with a passing and a failing case, on SQLite and Postgres where a database is involved."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from contract.checks import CheckStatus
from policy.catalog import load_catalog
from policy.config import default_policy
from service.doctor.local import check_database, check_prices, check_redis, check_settings
from service.settings import Settings
from service.store.migrate import current_heads
from tests.service.apiclient import live_service
from tests.service.conftest import drop_postgres_schema, postgres_schema_url

BACKENDS = pytest.mark.parametrize("empty_database_url", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def empty_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database that answers and has never been migrated."""
    if getattr(request, "param", "sqlite") == "sqlite":
        yield f"sqlite:///{tmp_path / 'empty.db'}"
        return
    base = request.getfixturevalue("postgres_url")
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    yield postgres_schema_url(base, schema)
    drop_postgres_schema(base, schema)


@pytest.mark.parametrize("fresh_database_url", ["sqlite", "postgres"], indirect=True)
def test_a_migrated_database_is_at_the_head_revision(fresh_database_url: str) -> None:
    result = check_database(Settings(database_url=fresh_database_url))
    assert result.status is CheckStatus.OK
    assert result.detail.endswith(f"at revision {', '.join(current_heads())} (head)")


@BACKENDS
def test_an_unmigrated_database_fails_with_the_command_that_fixes_it(empty_database_url: str) -> None:
    result = check_database(Settings(database_url=empty_database_url))
    assert result.status is CheckStatus.FAILED
    assert "at no gpuops tables, this version needs" in result.detail
    assert result.fix == "run `gpuops db upgrade`"


def test_a_database_that_does_not_answer_fails_without_its_password() -> None:
    result = check_database(Settings(database_url="postgresql+psycopg://gpuops:s3cret@127.0.0.1:9/gpuops"))
    assert result.status is CheckStatus.FAILED
    assert "does not answer (OperationalError)" in result.detail and "s3cret" not in result.detail


def test_redis_is_checked_when_configured(redis_url: str) -> None:
    assert check_redis(Settings(redis_url=redis_url)).status is CheckStatus.OK
    down = check_redis(Settings(redis_url="redis://127.0.0.1:9/0"))
    assert down.status is CheckStatus.FAILED and down.fix == "check REDIS_URL and that Redis is running"
    skipped = check_redis(Settings(redis_url=None))
    assert skipped.status is CheckStatus.SKIPPED and skipped.detail.startswith("not configured")


def test_prices_older_than_the_policy_trusts_fail_with_the_refresh_that_fixes_them(tmp_path: Path) -> None:
    settings = Settings(catalog_dir=str(tmp_path))  # no refreshed snapshot there: the shipped one is in force
    observed = date.fromisoformat(max(p.spot_observed for p in load_catalog().prices if p.spot_observed)[:10])
    young = check_prices(settings, default_policy(), today=observed + timedelta(days=10))
    assert young.status is CheckStatus.OK and young.detail.startswith(
        f"the shipped snapshot: spot prices from {observed} (10 days old, trusted 30)")
    old = check_prices(settings, default_policy(), today=observed + timedelta(days=31))
    assert old.status is CheckStatus.FAILED and "(31 days old, trusted 30)" in old.detail
    assert old.detail.endswith("plans priced on them are never approved automatically")
    assert old.fix == "run `gpuops catalog refresh` (reads current prices from AWS)"


def test_settings_and_the_policy_are_validated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("GPUOPS_POLICY", raising=False)
    good, settings, policy = check_settings()
    assert good.status is CheckStatus.OK and settings is not None and policy == default_policy()
    monkeypatch.setenv("GPUOPS_SPEND", "bogus")
    bad, settings, _ = check_settings()
    assert bad.status is CheckStatus.FAILED and bad.detail.startswith("spend: ") and settings is None
    monkeypatch.delenv("GPUOPS_SPEND")
    broken = tmp_path / "policy.yaml"
    broken.write_text("teams: {team-ml: {monthly_budget_usd: -5}}\n")
    monkeypatch.setenv("GPUOPS_POLICY", str(broken))
    result, _, policy = check_settings()
    assert result.status is CheckStatus.FAILED and policy is None
    assert result.detail == f"policy {broken}: default_team: Field required (and 4 more)"
    assert result.fix == f"`gpuops policy check {broken}` lists every error"


@BACKENDS
def test_an_unmigrated_database_answers_schema_not_migrated(empty_database_url: str) -> None:
    with live_service(empty_database_url, default_policy()) as live:
        filed = live.post("/v1/requests", {"text": "fine-tune 7B by Friday"}, role="bot",
                          actor="slack:T0GPUOPS:U0ASKER")
        ready = live.client.get("/readyz")
    assert filed.status_code == 503
    assert filed.json()["error"]["code"] == "schema_not_migrated"
    assert "run `gpuops db upgrade`" in filed.json()["error"]["message"]
    assert ready.status_code == 503 and ready.json()["database"] == "not migrated"
    assert ready.json()["code"] == "schema_not_migrated"
