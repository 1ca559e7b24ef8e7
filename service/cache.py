"""Cache, counters and short locks: Redis when ``REDIS_URL`` is set, in-process otherwise.

``Cache`` is the protocol every caller uses. ``FallbackCache`` wraps Redis: when Redis fails at run time it logs once,
serves from the in-process cache (one replica's view, degraded) and tries Redis again after a pause, so a Redis
outage never turns into a 500.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:  # redis is loaded by the first RedisCache built, so the in-process cache never pays for it
    import redis

    from service.settings import Settings

log = logging.getLogger("gpuops.cache")
T = TypeVar("T")

_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"
_INCR = "local n = redis.call('incr', KEYS[1]) if n == 1 then redis.call('pexpire', KEYS[1], ARGV[1]) end " \
        "return {n, redis.call('pttl', KEYS[1])}"


class Cache(Protocol):
    """What the service needs from a cache; ``ttl`` is in seconds."""

    @property
    def backend(self) -> str: ...
    @property
    def blocks(self) -> bool:
        """Whether a call may wait on the network (so an async caller should run it in a worker thread)."""
        ...
    def get(self, key: str) -> bytes | None: ...
    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None: ...
    def add(self, key: str, value: bytes, *, ttl_seconds: float) -> bool: ...
    def delete(self, key: str) -> None: ...
    def incr(self, key: str, *, ttl_seconds: float) -> tuple[int, float]: ...
    def release(self, key: str, token: bytes) -> bool: ...
    def ping(self) -> bool: ...
    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> AbstractContextManager[bool]: ...


class MemoryCache:
    """In-process cache for one replica: a dict with expiry times, thread-safe."""

    backend = "memory"
    blocks = False

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._data: dict[str, tuple[bytes, float]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def _live(self, key: str) -> tuple[bytes, float] | None:
        item = self._data.get(key)
        if item is not None and item[1] <= self._clock():
            del self._data[key]
            return None
        return item

    def get(self, key: str) -> bytes | None:
        with self._lock:
            item = self._live(key)
            return None if item is None else item[0]

    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None:
        with self._lock:
            self._data[key] = (value, self._clock() + ttl_seconds)
            if len(self._data) > 10_000:
                self._evict()

    def add(self, key: str, value: bytes, *, ttl_seconds: float) -> bool:
        with self._lock:
            if self._live(key) is not None:
                return False
            self._data[key] = (value, self._clock() + ttl_seconds)
            return True

    def delete(self, key: str) -> None:
        with self._lock:
            self._data.pop(key, None)

    def incr(self, key: str, *, ttl_seconds: float) -> tuple[int, float]:
        with self._lock:
            item = self._live(key)
            expires = item[1] if item else self._clock() + ttl_seconds
            count = (int(item[0]) if item else 0) + 1
            self._data[key] = (str(count).encode(), expires)
            return count, max(0.0, expires - self._clock())

    def release(self, key: str, token: bytes) -> bool:
        with self._lock:
            item = self._live(key)
            if item is None or item[0] != token:
                return False
            del self._data[key]
            return True

    def ping(self) -> bool:
        return True

    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> AbstractContextManager[bool]:
        """Hold ``key`` exclusively; yields False when it could not be had within ``wait_seconds``."""
        return hold_lock(self, key, ttl_seconds=ttl_seconds, wait_seconds=wait_seconds)

    def _evict(self) -> None:
        now = self._clock()
        for key in [k for k, (_, exp) in self._data.items() if exp <= now]:
            del self._data[key]


class RedisCache:
    """Shared cache on Redis; every key carries a prefix so tests and tenants stay apart."""

    backend = "redis"
    blocks = True

    def __init__(self, client: redis.Redis, *, prefix: str = "gpuops:") -> None:
        self._r = client
        self._prefix = prefix

    @classmethod
    def from_url(cls, url: str, *, prefix: str = "gpuops:") -> RedisCache:
        import redis

        client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5, health_check_interval=30)
        return cls(client, prefix=prefix)

    def get(self, key: str) -> bytes | None:
        value = self._r.get(self._prefix + key)
        return value if isinstance(value, bytes) else None

    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None:
        self._r.set(self._prefix + key, value, px=max(1, int(ttl_seconds * 1000)))

    def add(self, key: str, value: bytes, *, ttl_seconds: float) -> bool:
        return bool(self._r.set(self._prefix + key, value, px=max(1, int(ttl_seconds * 1000)), nx=True))

    def delete(self, key: str) -> None:
        self._r.delete(self._prefix + key)

    def incr(self, key: str, *, ttl_seconds: float) -> tuple[int, float]:
        count, pttl = self._r.eval(_INCR, 1, self._prefix + key, max(1, int(ttl_seconds * 1000)))
        return int(count), max(0.0, int(pttl) / 1000)

    def release(self, key: str, token: bytes) -> bool:
        return bool(self._r.eval(_RELEASE, 1, self._prefix + key, token))

    def ping(self) -> bool:
        return bool(self._r.ping())

    def close(self) -> None:
        self._r.close()

    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> AbstractContextManager[bool]:
        """Hold ``key`` exclusively; yields False when it could not be had within ``wait_seconds``."""
        return hold_lock(self, key, ttl_seconds=ttl_seconds, wait_seconds=wait_seconds)


class FallbackCache:
    """Redis first; on a Redis error, the in-process cache until Redis answers again."""

    blocks = True

    def __init__(self, primary: RedisCache, *, retry_after: float = 10.0, on_degraded: Callable[[bool], None]
                 | None = None) -> None:
        import redis

        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError)
        self._primary = primary
        self._memory = MemoryCache()
        self._retry_after = retry_after
        self._down_until = 0.0
        self._on_degraded = on_degraded
        self._lock = threading.Lock()

    def watch(self, on_degraded: Callable[[bool], None]) -> None:
        """Call ``on_degraded(True)`` when Redis is lost and ``(False)`` when it is back."""
        self._on_degraded = on_degraded

    @property
    def backend(self) -> str:
        return "memory (redis unavailable)" if self.degraded else "redis"

    @property
    def degraded(self) -> bool:
        return self._down_until > time.monotonic()

    def _fail(self, exc: Exception) -> None:
        with self._lock:
            first = self._down_until == 0.0
            self._down_until = time.monotonic() + self._retry_after
        if first:
            log.warning("redis unavailable, serving from the in-process cache", extra={"error": repr(exc)})
            if self._on_degraded:
                self._on_degraded(True)

    def _recovered(self) -> None:
        if self._down_until:
            with self._lock:
                self._down_until = 0.0
            log.warning("redis reachable again")
            if self._on_degraded:
                self._on_degraded(False)

    def _call(self, primary: Callable[[RedisCache], T], fallback: Callable[[MemoryCache], T]) -> T:
        if self.degraded:
            return fallback(self._memory)
        try:
            result = primary(self._primary)
        except self._errors as exc:
            self._fail(exc)
            return fallback(self._memory)
        self._recovered()
        return result

    def get(self, key: str) -> bytes | None:
        return self._call(lambda c: c.get(key), lambda m: m.get(key))

    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None:
        self._call(lambda c: c.set(key, value, ttl_seconds=ttl_seconds),
                   lambda m: m.set(key, value, ttl_seconds=ttl_seconds))

    def add(self, key: str, value: bytes, *, ttl_seconds: float) -> bool:
        return self._call(lambda c: c.add(key, value, ttl_seconds=ttl_seconds),
                          lambda m: m.add(key, value, ttl_seconds=ttl_seconds))

    def delete(self, key: str) -> None:
        self._call(lambda c: c.delete(key), lambda m: m.delete(key))

    def incr(self, key: str, *, ttl_seconds: float) -> tuple[int, float]:
        return self._call(lambda c: c.incr(key, ttl_seconds=ttl_seconds),
                          lambda m: m.incr(key, ttl_seconds=ttl_seconds))

    def release(self, key: str, token: bytes) -> bool:
        return self._call(lambda c: c.release(key, token), lambda m: m.release(key, token))

    def ping(self) -> bool:
        try:
            ok = self._primary.ping()
        except self._errors as exc:
            self._fail(exc)
            return False
        self._recovered()
        return ok

    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> AbstractContextManager[bool]:
        """Hold ``key`` exclusively; yields False when it could not be had within ``wait_seconds``."""
        return hold_lock(self, key, ttl_seconds=ttl_seconds, wait_seconds=wait_seconds)


class CountingCache:
    """Counts lookups (hit or miss, by the key's first segment) and otherwise passes everything through."""

    def __init__(self, inner: Cache, count: Callable[[str, bool], None]) -> None:
        self.inner = inner
        self._count = count

    @property
    def backend(self) -> str:
        return self.inner.backend

    @property
    def blocks(self) -> bool:
        return self.inner.blocks

    def get(self, key: str) -> bytes | None:
        value = self.inner.get(key)
        self._count(key.split(":", 1)[0], value is not None)
        return value

    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None:
        self.inner.set(key, value, ttl_seconds=ttl_seconds)

    def add(self, key: str, value: bytes, *, ttl_seconds: float) -> bool:
        return self.inner.add(key, value, ttl_seconds=ttl_seconds)

    def delete(self, key: str) -> None:
        self.inner.delete(key)

    def incr(self, key: str, *, ttl_seconds: float) -> tuple[int, float]:
        return self.inner.incr(key, ttl_seconds=ttl_seconds)

    def release(self, key: str, token: bytes) -> bool:
        return self.inner.release(key, token)

    def ping(self) -> bool:
        return self.inner.ping()

    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> AbstractContextManager[bool]:
        return self.inner.lock(key, ttl_seconds=ttl_seconds, wait_seconds=wait_seconds)


class _Lockable(Protocol):
    def add(self, key: str, value: bytes, *, ttl_seconds: float) -> bool: ...
    def release(self, key: str, token: bytes) -> bool: ...


@contextmanager
def hold_lock(cache: _Lockable, name: str, *, ttl_seconds: float, wait_seconds: float,
              poll: float = 0.02) -> Iterator[bool]:
    """Hold the lock ``name`` for the block; yields whether it was had within ``wait_seconds``."""
    token = secrets.token_hex(16).encode()
    deadline = time.monotonic() + wait_seconds
    held = cache.add(f"lock:{name}", token, ttl_seconds=ttl_seconds)
    while not held and time.monotonic() < deadline:
        time.sleep(poll)
        held = cache.add(f"lock:{name}", token, ttl_seconds=ttl_seconds)
    try:
        yield held
    finally:
        if held:
            cache.release(f"lock:{name}", token)


def make_cache(settings: Settings) -> Cache:
    """The service's and the worker's cache: Redis (its keys starting ``GPUOPS_REDIS_PREFIX``) with in-process
    fallback when ``REDIS_URL`` is set, else the in-process cache."""
    if not settings.redis_url:
        return MemoryCache()
    return FallbackCache(RedisCache.from_url(settings.redis_url, prefix=settings.redis_prefix),
                         retry_after=settings.redis_retry_seconds)
