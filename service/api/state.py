"""What one running service holds: settings, the database engine, the cache and the planner in force."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.engine import Engine

from policy.catalog import load_catalog
from policy.config import PolicyConfig, default_policy, load_policy_file
from service.cache import Cache, CountingCache, FallbackCache, make_cache
from service.metrics import Metrics, get_metrics
from service.planning import Planner
from service.settings import Settings
from service.spend import SpendProvider, make_spend_provider
from service.store.db import make_engine


@dataclass
class ServiceState:
    settings: Settings
    engine: Engine
    cache: Cache
    planner: Planner
    metrics: Metrics
    tokens: dict[str, str] = field(default_factory=dict)
    catalog_json: bytes = b""

    @property
    def policy(self) -> PolicyConfig:
        return self.planner.policy


def load_policy(settings: Settings) -> PolicyConfig:
    return load_policy_file(settings.policy_file) if settings.policy_file else default_policy()


def build_state(
    settings: Settings, *, engine: Engine | None = None, cache: Cache | None = None, planner: Planner | None = None,
    spend: SpendProvider | None = None,
) -> ServiceState:
    """Everything the app needs, built from settings (pieces may be passed in, e.g. by tests and benches)."""
    metrics = get_metrics()
    if cache is None:
        cache = make_cache(settings.redis_url, retry_after=settings.redis_retry_seconds)
    if isinstance(cache, FallbackCache):
        cache.watch(lambda down: metrics.cache_degraded.set(1 if down else 0))
    if not isinstance(cache, CountingCache):
        cache = CountingCache(cache, lambda name, hit: metrics.cache.labels(name=name, result="hit" if hit else
                                                                            "miss").inc())
    engine = engine or make_engine(settings.database_url, pool_size=settings.db_pool_size)
    if planner is None:
        catalog = load_catalog(settings.catalog_file)
        provider = spend or make_spend_provider(settings, cache=cache, engine=engine)
        planner = Planner(catalog=catalog, policy=load_policy(settings), spend=provider)
    return ServiceState(
        settings=settings, engine=engine,
        cache=cache, planner=planner, metrics=metrics, tokens=settings.token_roles(),
        catalog_json=planner.catalog.model_dump_json().encode(),
    )
