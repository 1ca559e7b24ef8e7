"""What a decision works out about hardware that does not depend on the request at hand, kept beside the catalog.

What a type brings to a model (FLOP/s, fewest instances), a region's screened types, which types beat others
outright, a type's layouts with their speed and what spot does to them, and its rates follow from the catalog, the
policy's estimate settings and the model alone, not from how long the run is or when it is asked. The service
decides the same few models again and again, and a request with no region searches every region, so they are
worked out once; each request then only scales the layouts by its FLOPs and prices them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from policy.catalog import Catalog
    from policy.config import EstimateSettings

__all__ = ["MAX_ENTRIES", "RECENT_ENTRIES", "recent_work", "RecentWork", "remembered"]

# Work comes from what people type, so the keys are unbounded; past this many the memo starts again (a few MB).
MAX_ENTRIES = 20_000
_ATTRIBUTE = "_hardware_memo"

T = TypeVar("T")


@dataclass(slots=True)
class _Memo:
    catalog: Catalog  # the catalog it was filled from: a model_copy shares the __dict__ entry, not the identity
    settings: EstimateSettings
    entries: dict[Hashable, Any] = field(default_factory=dict)
    recent: RecentWork = field(default_factory=lambda: RecentWork())  # ``recent_work``


def remembered(catalog: Catalog, settings: EstimateSettings, key: Hashable, work_out: Callable[[], T]) -> T:
    """``work_out()`` for ``key`` under this catalog and these settings, worked out once."""
    memo = catalog.__dict__.get(_ATTRIBUTE)
    if not isinstance(memo, _Memo) or memo.catalog is not catalog or memo.settings is not settings:
        memo = _memo(catalog, settings)  # looked up inline above: this is called dozens of times a decision
    entries = memo.entries
    try:
        return entries[key]  # type: ignore[no-any-return]
    except KeyError:
        pass
    if len(entries) >= MAX_ENTRIES:
        entries.clear()
    value = entries[key] = work_out()
    return value


# Decisions whose own work is kept (``recent_work``), a few hundred options at most each (``screened_options``).
RECENT_ENTRIES = 32


class RecentWork:
    """What the last decisions worked out from their own work, for the decisions soon after with the same work:
    the capacity rounds of one decision, a preview, its filing and a re-approval's plan, and the many requests that
    leave the tokens to their default. Bounded; the oldest goes first, so a stream of new work never empties it at
    once. The service decides in several threads at once: the keys hold dataclasses whose hashing and comparing run
    Python code, during which another thread may run, and an OrderedDict changed by another thread in the middle of
    an insert corrupts its list of keys (the interpreter crashed with a segmentation fault in a test that decides in
    five threads). Changes are made under a lock; a look-up only reads."""

    __slots__ = ("_entries", "_lock")

    def __init__(self) -> None:
        self._entries: OrderedDict[Hashable, Any] = OrderedDict()  # oldest first
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        """What was kept for ``key``, or None."""
        return self._entries.get(key)

    def keep(self, key: Hashable, value: object) -> None:
        entries = self._entries
        with self._lock:
            if len(entries) >= RECENT_ENTRIES:
                entries.popitem(last=False)
            entries[key] = value


def recent_work(catalog: Catalog, settings: EstimateSettings) -> RecentWork:
    """The recent decisions' own work under this catalog and these settings."""
    return _memo(catalog, settings).recent


def _memo(catalog: Catalog, settings: EstimateSettings) -> _Memo:
    memo = catalog.__dict__.get(_ATTRIBUTE)
    if not isinstance(memo, _Memo) or memo.catalog is not catalog or memo.settings is not settings:
        # One memo per catalog, for the settings last used: a service runs one policy at a time.
        memo = _Memo(catalog, settings)
        catalog.__dict__[_ATTRIBUTE] = memo  # a cache beside the fields; frozen guards the fields only
    return memo
