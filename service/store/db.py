"""Engines and sessions: SQLite by default, Postgres (psycopg 3) through ``DATABASE_URL``."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session


def normalize_url(url: str) -> str:
    """Use psycopg 3 for plain ``postgres://`` / ``postgresql://`` URLs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _sqlite_immediate(engine: Engine) -> None:
    # pysqlite starts transactions lazily and cannot SAVEPOINT reliably; take control of BEGIN so every
    # transaction takes the write lock up front (no lock-upgrade deadlocks between concurrent writers).
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: sa.Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_engine(url: str, *, pool_size: int = 20) -> Engine:
    """An engine for ``url``; builds no connection until first use."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        _sqlite_immediate(engine)
        return engine
    # Pre-ping costs a round trip per checkout, but a restarted or failed-over database then costs nobody an
    # error: the API and the worker both reconnect transparently.
    return sa.create_engine(url, pool_size=pool_size, max_overflow=pool_size, pool_recycle=1800,
                            pool_use_lifo=True, pool_pre_ping=True)


def new_session(engine: Engine) -> Session:
    """A session whose objects stay readable after commit (the API serialises them afterwards)."""
    return Session(engine, expire_on_commit=False)


def ping(engine: Engine) -> None:
    """Raise unless the database answers."""
    with engine.connect() as conn:
        conn.execute(sa.text("SELECT 1"))
