"""AWS test fixtures: moto in server mode on 127.0.0.1 and a fake JSON-protocol server for what moto lacks.

Nothing here reaches AWS: every client comes from a ``ClientFactory`` whose session has dummy credentials and whose
endpoints point at 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import boto3
import httpx
import pytest
from moto.server import ThreadedMotoServer
from sqlalchemy.engine import Engine

from policy.config import PolicyConfig, TeamPolicy, default_policy
from service.aws.clients import ClientFactory
from service.settings import get_settings
from tests.aws.fakeaws import FakeAws, start_fake_aws


@pytest.fixture(autouse=True)
def _no_real_aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever a test forgets, the environment points nowhere real and holds no real credentials (and the
    commands' cached settings are read again from it)."""
    for name in ("AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                 "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                 "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def moto_url() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def moto(moto_url: str) -> Iterator[str]:
    httpx.post(f"{moto_url}/moto-api/reset").raise_for_status()
    yield moto_url


@pytest.fixture(scope="session")
def _fake_server() -> Iterator[FakeAws]:
    fake, server = start_fake_aws()
    yield fake
    server.shutdown()
    server.server_close()


@pytest.fixture
def fake_aws(_fake_server: FakeAws) -> FakeAws:
    _fake_server.handlers.clear()
    _fake_server.requests.clear()
    _fake_server.fallback_url = None
    return _fake_server


def dummy_session() -> Any:
    return boto3.Session(aws_access_key_id="testing", aws_secret_access_key="testing", region_name="us-east-1")


def seed_cost_and_usage(moto_url: str, results: list[dict[str, Any]]) -> None:
    """Queue GetCostAndUsage answers in moto; each distinct request body takes the next one."""
    httpx.post(f"{moto_url}/moto-api/static/ce/cost-and-usage-results", json={"results": results}).raise_for_status()


@pytest.fixture
def make_factory() -> Any:
    def _make(endpoints: dict[str, str], *, max_attempts: int = 3) -> ClientFactory:
        return ClientFactory(session=dummy_session(), endpoint_urls=endpoints, max_attempts=max_attempts)

    return _make


class SimClock:
    """A settable clock for both the provider (aware datetimes) and the in-process cache (seconds)."""

    def __init__(self, start: datetime) -> None:
        self.now = start
        self._origin = start

    def __call__(self) -> datetime:
        return self.now

    def seconds(self) -> float:
        return (self.now - self._origin).total_seconds()

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def five_team_policy() -> PolicyConfig:
    base = default_policy()
    teams = {f"team-{i}": TeamPolicy(monthly_budget_usd=10_000 * (i + 1)) for i in range(5)}
    return base.model_copy(update={"teams": teams, "default_team": "team-0"})


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/gpuops.db"


@pytest.fixture
def fresh_postgres_url(postgres_url: str) -> Iterator[str]:
    """A new, empty Postgres database for one test, dropped afterwards."""
    from bench.harness import fresh_database

    with fresh_database(postgres_url) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, sqlite_url: str) -> str:
    """Each test that takes it runs on SQLite and on a fresh Postgres database."""
    return sqlite_url if request.param == "sqlite" else str(request.getfixturevalue("fresh_postgres_url"))


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on ``database_url`` with every migration applied."""
    from tests.aws.launchkit import migrated_engine

    engine = migrated_engine(database_url)
    yield engine
    engine.dispose()
