"""Small bounded, thread-safe memories: ids already handled, and what Slack said about people a moment ago."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class SeenIds:
    """Remembers the last ``capacity`` ids; ``first_time`` is True exactly once per remembered id."""

    def __init__(self, capacity: int = 10_000) -> None:
        self._capacity = capacity
        self._ids: OrderedDict[Hashable, None] = OrderedDict()
        self._lock = threading.Lock()

    def first_time(self, key: Hashable) -> bool:
        with self._lock:
            if key in self._ids:
                self._ids.move_to_end(key)
                return False
            self._ids[key] = None
            if len(self._ids) > self._capacity:
                self._ids.popitem(last=False)
            return True

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._ids

    def forget(self, key: Hashable) -> None:
        """Let a later delivery try again (the first attempt failed before doing anything)."""
        with self._lock:
            self._ids.pop(key, None)


class TtlCache(Generic[V]):
    """Values kept for ``ttl`` seconds, at most ``capacity`` of them (the least recently stored go first)."""

    def __init__(self, *, ttl: float = 3600.0, capacity: int = 5000) -> None:
        self._ttl = ttl
        self._capacity = capacity
        self._items: OrderedDict[str, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> V | None:
        with self._lock:
            item = self._items.get(key)
            if item is None or item[0] < time.monotonic():
                return None
            return item[1]

    def put(self, key: str, value: V) -> None:
        with self._lock:
            self._items[key] = (time.monotonic() + self._ttl, value)
            self._items.move_to_end(key)
            if len(self._items) > self._capacity:
                self._items.popitem(last=False)
