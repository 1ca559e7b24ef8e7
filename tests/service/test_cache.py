"""Cache, counters, locks and single-flight on a real Redis (db 15, own key prefix) and in-process; a Redis that
goes away degrades to the in-process cache and the service keeps answering."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from bench.harness import wait_until
from service.cache import Cache, FallbackCache, MemoryCache, RedisCache, make_cache
from service.settings import Settings
from tests.service.apiclient import live_service
from tests.service.conftest import create_sqlite_db
from tests.service.factories import make_policy
from tests.service.live import free_port


@pytest.fixture(params=["memory", "redis"])
def cache(request: pytest.FixtureRequest) -> Iterator[Cache]:
    if request.param == "memory":
        yield MemoryCache()
        return
    url = request.getfixturevalue("redis_url")
    prefix = f"gpuops-test:{uuid.uuid4().hex[:8]}:"
    client = redis.Redis.from_url(url)
    yield RedisCache(client, prefix=prefix)
    keys = list(client.scan_iter(match=prefix + "*"))
    if keys:
        client.delete(*keys)
    client.close()


def test_get_set_with_expiry(cache: Cache) -> None:
    cache.set("k", b"v", ttl_seconds=0.2)
    assert cache.get("k") == b"v"
    assert wait_until(lambda: cache.get("k") is None, timeout=5)  # gone once the TTL ran out, not kept


def test_incr_counts_within_the_window_and_reports_the_time_left(cache: Cache) -> None:
    counts = [cache.incr("window", ttl_seconds=60) for _ in range(3)]
    assert [c for c, _ in counts] == [1, 2, 3]
    assert all(0 < left <= 60 for _, left in counts)


def test_a_lock_is_exclusive_and_released_only_by_its_holder(cache: Cache) -> None:
    assert cache.add("lock:job", b"mine", ttl_seconds=5)
    assert not cache.add("lock:job", b"theirs", ttl_seconds=5)
    assert not cache.release("lock:job", b"theirs")
    assert cache.release("lock:job", b"mine")
    assert cache.add("lock:job", b"theirs", ttl_seconds=5)


def test_lock_context_manager_waits_then_gives_up(cache: Cache) -> None:
    with cache.lock("busy", ttl_seconds=5, wait_seconds=0.5) as held:
        assert held
        with cache.lock("busy", ttl_seconds=5, wait_seconds=0.1) as second:
            assert not second


def test_fallback_serves_from_memory_while_redis_is_down_and_says_so() -> None:
    dead = RedisCache.from_url(f"redis://127.0.0.1:{free_port()}/15")
    flips: list[bool] = []
    cache = FallbackCache(dead, retry_after=60, on_degraded=flips.append)
    cache.set("k", b"v", ttl_seconds=10)
    assert cache.get("k") == b"v" and cache.incr("n", ttl_seconds=60)[0] == 1
    assert cache.degraded and flips == [True] and not cache.ping()
    assert cache.backend == "memory (redis unavailable)"


def test_fallback_uses_redis_when_it_answers(redis_url: str) -> None:
    cache = FallbackCache(RedisCache.from_url(redis_url, prefix=f"gpuops-test:{uuid.uuid4().hex[:8]}:"))
    assert cache.ping() and not cache.degraded and cache.backend == "redis"
    assert cache.add("once", b"1", ttl_seconds=5) and not cache.add("once", b"1", ttl_seconds=5)
    cache.delete("once")


def test_service_keeps_answering_when_redis_goes_away(tmp_path: Path) -> None:
    dead = FallbackCache(RedisCache.from_url(f"redis://127.0.0.1:{free_port()}/15"), retry_after=60)
    with live_service(create_sqlite_db(tmp_path), make_policy(), cache=dead) as service:
        assert service.post("/v1/plans", {"text": "fine-tune 1B"}).status_code == 200
        ready = service.client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "degraded"
        assert "gpuops_cache_degraded 1.0" in service.client.get("/metrics").text


def test_without_a_database_readiness_fails_and_requests_get_503(tmp_path: Path) -> None:
    unreachable = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/nowhere"
    with live_service(unreachable, make_policy()) as service:
        ready = service.client.get("/readyz")
        assert (ready.status_code, ready.json()["database"]) == (503, "unavailable")
        answer = service.get("/v1/requests")
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "database_unavailable"
        assert service.post("/v1/plans", {"text": "fine-tune 1B"}).status_code == 200  # no database needed


def test_rate_limit_is_shared_through_redis(tmp_path: Path, redis_url: str) -> None:
    prefix = f"gpuops-test:{uuid.uuid4().hex[:8]}:"
    url = create_sqlite_db(tmp_path)
    actor = f"slack:T1:U{uuid.uuid4().hex[:8].upper()}"
    try:
        with live_service(url, make_policy(rate_limit_per_minute=3),
                          cache=FallbackCache(RedisCache.from_url(redis_url, prefix=prefix))) as one, \
                live_service(url, make_policy(rate_limit_per_minute=3),
                             cache=FallbackCache(RedisCache.from_url(redis_url, prefix=prefix))) as two:
            codes = [replica.post("/v1/plans", {"text": "fine-tune 1B"}, role="bot", actor=actor).status_code
                     for replica in (one, two, one, two)]
            assert codes == [200, 200, 200, 429]
            assert "gpuops_rate_limited_total" in one.client.get("/metrics").text
    finally:
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


def test_the_service_keeps_its_redis_keys_under_the_configured_prefix(redis_url: str) -> None:
    prefix = f"gpuops-test:{uuid.uuid4().hex[:8]}:"
    cache = make_cache(Settings(redis_url=redis_url, redis_prefix=prefix))
    client = redis.Redis.from_url(redis_url)
    try:
        cache.incr("rl:slack:T1:U1:0", ttl_seconds=60)
        assert [k.decode() for k in client.scan_iter(match=prefix + "*")] == [f"{prefix}rl:slack:T1:U1:0"]
        assert make_cache(Settings(redis_url=redis_url, redis_prefix=f"other-{prefix}")).get("rl:slack:T1:U1:0") is None
    finally:
        client.delete(*client.scan_iter(match=prefix + "*"))
        client.close()
