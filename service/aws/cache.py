"""The small cache the AWS adapters need: bytes with a TTL and a lock per key for single-flight.

Two implementations: in-process (the embedded default) and Redis (shared by every replica). The service's own
cache can stand in for either as long as it offers these three methods.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol


class KeyValueCache(Protocol):
    def get(self, key: str) -> bytes | None: ...

    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None: ...

    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> AbstractContextManager[bool]:
        """Hold ``key`` exclusively; yields False when it could not be had within ``wait_seconds``."""
        ...


class MemoryCache:
    """In-process cache; ``clock`` is injectable so tests and benches can move time."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._items: dict[str, tuple[bytes, float]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._guard:
            item = self._items.get(key)
            if item is None or item[1] <= self._clock():
                return None
            return item[0]

    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None:
        with self._guard:
            self._items[key] = (value, self._clock() + ttl_seconds)

    @contextmanager
    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> Iterator[bool]:  # noqa: ARG002
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        acquired = lock.acquire(timeout=wait_seconds)
        try:
            yield acquired
        finally:
            if acquired:
                lock.release()


class RedisCache:
    """Redis-backed cache; the lock is Redis's own (a token with an expiry), so a dead holder frees it."""

    def __init__(self, *, client: Any, prefix: str = "gpuops:") -> None:
        self._client = client
        self._prefix = prefix

    def get(self, key: str) -> bytes | None:
        value = self._client.get(self._prefix + key)
        return None if value is None else bytes(value)

    def set(self, key: str, value: bytes, *, ttl_seconds: float) -> None:
        self._client.set(self._prefix + key, value, px=max(1, int(ttl_seconds * 1000)))

    @contextmanager
    def lock(self, key: str, *, ttl_seconds: float, wait_seconds: float) -> Iterator[bool]:
        lock = self._client.lock(self._prefix + "lock:" + key, timeout=ttl_seconds, blocking_timeout=wait_seconds)
        acquired = bool(lock.acquire())
        try:
            yield acquired
        finally:
            if acquired:
                lock.release()
