"""What one running service holds: settings, the database engine, the cache and the planner in force."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from sqlalchemy.engine import Engine

from policy.config import PolicyConfig
from service.audit.keys import bind_keyring, keyring_from_settings
from service.aws.clients import ClientFactory
from service.cache import Cache, CountingCache, FallbackCache, make_cache
from service.jobs.outcomes import CachedCalibration
from service.launch.registry import LaunchEnvironment
from service.metrics import Metrics, get_metrics
from service.planning import Planner, catalog_stamp, make_planner, newer_catalog
from service.settings import Settings
from service.spend.providers import SpendProvider, make_spend_provider
from service.store.db import make_engine

log = logging.getLogger("gpuops.service")


@dataclass
class ServiceState:
    settings: Settings
    engine: Engine
    cache: Cache
    planner: Planner
    metrics: Metrics
    aws: ClientFactory  # AWS clients for what the API asks of AWS itself (stopping a job)
    tokens: dict[str, str] = field(default_factory=dict)
    catalog_json: bytes = b""
    catalog_stamp: tuple[str | None, float] = (None, 0.0)

    @property
    def policy(self) -> PolicyConfig:
        return self.planner.policy

    @property
    def launchers(self) -> LaunchEnvironment:
        """The platforms' launchers, for what the API asks of a running job (stopping it)."""
        return LaunchEnvironment(mode=self.settings.launch, factory=self.aws, policy=self.policy,
                                 kubeconfig=self.settings.kubeconfig)


def refresh_catalog(state: ServiceState) -> bool:
    """Swap in a newer refreshed snapshot when one was stored since the last look; True when it did."""
    found = newer_catalog(state.settings, seen=state.catalog_stamp)
    if found is None:
        return False
    catalog, state.catalog_stamp = found
    state.planner = replace(state.planner, catalog=catalog)
    state.catalog_json = catalog.model_dump_json().encode()
    log.info("catalog snapshot in force: %s", catalog.snapshot)
    return True


def build_state(
    settings: Settings, *, engine: Engine | None = None, cache: Cache | None = None, planner: Planner | None = None,
    spend: SpendProvider | None = None, aws: ClientFactory | None = None,
) -> ServiceState:
    """Everything the app needs, built from settings (pieces may be passed in, e.g. by tests and benches)."""
    metrics = get_metrics()
    if cache is None:
        cache = make_cache(settings)
    if isinstance(cache, FallbackCache):
        cache.watch(lambda down: metrics.cache_degraded.set(1 if down else 0))
    if not isinstance(cache, CountingCache):
        cache = CountingCache(cache, lambda name, hit: metrics.cache.labels(name=name, result="hit" if hit else
                                                                            "miss").inc())
    engine = bind_keyring(engine or make_engine(settings.database_url, pool_size=settings.db_pool_size),
                          keyring_from_settings(settings))
    stamp: tuple[str | None, float] = (None, 0.0)
    if planner is None:
        stamp = catalog_stamp(settings)
        planner = make_planner(settings, spend=spend or make_spend_provider(settings, cache=cache, engine=engine),
                               calibration=CachedCalibration(engine=engine, prior_jobs=settings.calibration_prior_jobs,
                                                             ttl_seconds=settings.calibration_cache_seconds),
                               cache=cache)
    return ServiceState(
        settings=settings, engine=engine,
        cache=cache, planner=planner, metrics=metrics, aws=aws or ClientFactory.from_settings(settings),
        tokens=settings.token_roles(),
        catalog_json=planner.catalog.model_dump_json().encode(), catalog_stamp=stamp,
    )
