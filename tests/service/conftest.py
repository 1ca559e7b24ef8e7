"""Database fixtures: every database test runs on SQLite and on Postgres.

Each engine gets a schema of its own, built by the Alembic migrations (a temporary SQLite file; a uniquely named
Postgres schema, dropped afterwards, so parallel runs never collide). Each test runs inside a transaction that is
rolled back at the end; the code under test commits to savepoints.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

from policy.config import PolicyConfig
from service.store.db import make_engine
from service.store.migrate import upgrade


def postgres_schema_url(base_url: str, schema: str) -> str:
    return f"{base_url}?options=-csearch_path%3D{schema}"


def create_postgres_schema(base_url: str) -> tuple[str, str]:
    """A fresh schema with the migrations applied: (url, schema)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    admin.dispose()
    url = postgres_schema_url(base_url, schema)
    upgrade(url)
    return url, schema


def drop_postgres_schema(base_url: str, schema: str) -> None:
    admin = sa.create_engine(base_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    admin.dispose()


def create_sqlite_db(directory: Path) -> str:
    url = f"sqlite:///{directory / f'{uuid.uuid4().hex[:8]}.db'}"
    upgrade(url)
    return url


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database URL, once per backend."""
    if request.param == "sqlite":
        yield create_sqlite_db(tmp_path_factory.mktemp("db"))
        return
    base = request.getfixturevalue("postgres_url")
    url, schema = create_postgres_schema(base)
    yield url
    drop_postgres_schema(base, schema)


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


@pytest.fixture
def bare_session(engine: Engine) -> Iterator[Session]:
    """A session inside a transaction that is rolled back when the test ends, on an empty database."""
    connection = engine.connect()
    outer = connection.begin()
    session = Session(bind=connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    try:
        yield session
    finally:
        session.close()
        outer.rollback()
        connection.close()


@pytest.fixture
def session(bare_session: Session) -> Iterator[Session]:
    """``bare_session`` in a database that already holds other requests of the same team, approved at revision 1
    by the same approvers, one of them launched: a query that forgets its ``request_id`` finds their rows, and
    whatever the test does to its own request must leave them as they were."""
    from tests.service.factories import FINANCE, LEADS, neighbour_rows, seed_neighbours

    neighbours = seed_neighbours(bare_session, approvers=[*LEADS, *FINANCE])
    before = neighbour_rows(bare_session, neighbours)
    yield bare_session
    assert neighbour_rows(bare_session, neighbours) == before


@pytest.fixture
def fresh_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of its own (for tests that commit for real, e.g. over HTTP), on the backend being tested."""
    backend = getattr(request, "param", "sqlite")
    if backend == "sqlite":
        yield create_sqlite_db(tmp_path)
        return
    base = request.getfixturevalue("postgres_url")
    url, schema = create_postgres_schema(base)
    yield url
    drop_postgres_schema(base, schema)


def live_on(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, policy: PolicyConfig, *,
            name: str) -> Iterator[Any]:
    """The service over real HTTP (a ``tests.service.apiclient.Live``) on the database ``request.param`` names
    ("sqlite" or "postgres"), dropped after: the body of a module's parametrised ``live`` fixture."""
    from tests.service.apiclient import live_service  # imports the app: loaded only when a test needs it

    schema = None
    if request.param == "sqlite":
        url = create_sqlite_db(tmp_path_factory.mktemp(name))
    else:
        url, schema = create_postgres_schema(request.getfixturevalue("postgres_url"))
    with live_service(url, policy) as service:
        yield service
    if schema:
        drop_postgres_schema(request.getfixturevalue("postgres_url"), schema)
