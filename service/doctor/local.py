"""Checks of what the service runs on: its settings and policy, the database schema and Redis."""

from __future__ import annotations

from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from contract.checks import CheckResult
from policy.config import PolicyConfig
from policy.errors import PolicyFileError
from service.settings import Settings


def check_settings() -> tuple[CheckResult, Settings | None, PolicyConfig | None]:
    """The service settings from the environment and the policy they name, each validated as the service would."""
    from service.planning import load_policy

    name = "settings"
    try:
        settings = Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "settings"
        return CheckResult.failed(name, f"{where}: {first.get('msg')}", fix="correct that variable in the "
                                  "environment (docs/operations.md lists every setting)"), None, None
    try:
        policy = load_policy(settings)
    except PolicyFileError as exc:
        path, message = exc.errors[0] if exc.errors else ("", exc.message)
        more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
        return CheckResult.failed(name, f"policy {exc.source}: {path}: {message}{more}",
                                  fix=f"`gpuops policy check {exc.source}` lists every error"), settings, None
    source = settings.policy_file or "the embedded default policy"
    return (CheckResult.ok(name, f"{source}, {len(policy.teams)} team(s); spend source {settings.spend}, "
                                 f"launches {settings.launch}"), settings, policy)


def check_database(settings: Settings) -> CheckResult:
    """The database answers and its schema revision is the head this version needs."""
    from service.store.db import make_engine, ping
    from service.store.migrate import applied_revisions, current_heads

    name = "database"
    engine = make_engine(settings.database_url, pool_size=1)
    where = _redacted(settings.database_url)
    try:
        ping(engine)
        applied = applied_revisions(engine)
    except SQLAlchemyError as exc:
        return CheckResult.failed(name, f"{where} does not answer ({type(exc).__name__})",
                                  fix="check DATABASE_URL and that the database is running")
    finally:
        engine.dispose()
    heads = current_heads()
    if set(applied) == set(heads):
        return CheckResult.ok(name, f"{where} at revision {', '.join(heads)} (head)")
    at = ", ".join(applied) or "no gpuops tables"
    return CheckResult.failed(name, f"{where} at {at}, this version needs {', '.join(heads)}",
                              fix="run `gpuops db upgrade`")


def check_redis(settings: Settings) -> CheckResult:
    """Redis answers when it is configured (without it each process keeps its own cache and limits)."""
    import redis

    name = "redis"
    if not settings.redis_url:
        return CheckResult.skipped(name, "not configured: an in-process cache (set REDIS_URL to share cache, "
                                         "locks and rate limits between replicas)")
    client = redis.Redis.from_url(settings.redis_url, socket_timeout=1.0, socket_connect_timeout=1.0)
    try:
        client.ping()
    except redis.RedisError as exc:
        return CheckResult.failed(name, f"{_redacted(settings.redis_url)} does not answer ({type(exc).__name__})",
                                  fix="check REDIS_URL and that Redis is running")
    finally:
        client.close()
    return CheckResult.ok(name, f"{_redacted(settings.redis_url)} answers")


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:  # not a URL SQLAlchemy reads: show only its scheme rather than risk a password
        return url.split("://", 1)[0] + "://…"



