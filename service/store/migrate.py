"""Apply the Alembic migrations in ``service/migrations`` (``gpuops db upgrade``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

from service.store.db import normalize_url

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return config


def upgrade(url: str, *, engine: Engine | None = None, revision: str = "head") -> None:
    """Bring the database at ``url`` (or behind ``engine``) to ``revision``."""
    config = alembic_config(url)
    if engine is None:
        command.upgrade(config, revision)
        return
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


@cache
def current_heads() -> list[str]:
    from alembic.script import ScriptDirectory

    return list(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def applied_revisions(engine: Engine) -> list[str]:
    """The Alembic revisions applied to the database behind ``engine`` (empty before the first upgrade)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return sorted(MigrationContext.configure(connection).get_current_heads())


def schema_behind(engine: Engine) -> str | None:
    """What is wrong with the schema behind ``engine`` in words, with the command that fixes it; None when it is
    at the head revision. Without this check an unmigrated database looks healthy and fails every write."""
    applied = set(applied_revisions(engine))
    if applied == set(current_heads()):
        return None
    if not applied:
        return "the database has no gpuops tables yet: run `gpuops db upgrade`"
    return (f"the database schema is at {', '.join(sorted(applied))}, this version needs "
            f"{', '.join(current_heads())}: run `gpuops db upgrade`")
