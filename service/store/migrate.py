"""Apply the Alembic migrations in ``service/migrations`` (``gpuops db upgrade``)."""

from __future__ import annotations

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


def current_heads() -> list[str]:
    from alembic.script import ScriptDirectory

    return list(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())
