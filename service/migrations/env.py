"""Alembic environment: runs on the connection handed in by ``service.store.migrate`` or on the configured URL."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import service.store.tables  # noqa: F401  (registers the tables on the metadata)
from service.store.db import make_engine

config = context.config
target_metadata = SQLModel.metadata


def _run(connection: object) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)  # type: ignore[arg-type]
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///./gpuops.db")
    try:
        with engine.connect() as conn:
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
