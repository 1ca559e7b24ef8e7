"""Checks of what the service runs on: its settings and policy, the database schema and Redis."""

from __future__ import annotations

from datetime import date

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


def check_prices(settings: Settings, policy: PolicyConfig, *, today: date) -> CheckResult:
    """The price snapshot in force is young enough for the policy to trust: its oldest spot observation and list
    price, against ``spot_prices_stale_after_days`` and ``prices_stale_after_days`` (an older one is never
    approved automatically)."""
    from policy.catalog import load_catalog
    from service.planning import catalog_source

    name = "prices"
    source = catalog_source(settings)
    catalog = load_catalog(source)
    where = source or "the shipped snapshot"
    spot = min((p.spot_observed for p in catalog.prices if p.spot_observed), default=None)
    listed = min(p.as_of for p in catalog.prices)
    ages = [(what, said, (today - date.fromisoformat(said[:10])).days, limit)
            for what, said, limit in (("spot", spot, policy.spot_prices_stale_after_days),
                                      ("list", listed, policy.prices_stale_after_days)) if said is not None]
    said = "; ".join(f"{what} prices from {when[:10]} ({age} days old, trusted {limit:g})"
                     for what, when, age, limit in ages)
    if any(age > limit for _, _, age, limit in ages):
        return CheckResult.failed(name, f"{where}: {said}: plans priced on them are never approved automatically",
                                  fix="run `gpuops catalog refresh` (reads current prices from AWS)")
    return CheckResult.ok(name, f"{where}: {said}")


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



