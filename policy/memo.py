"""What a decision works out about hardware that does not depend on the request at hand, kept beside the catalog.

What a type brings to a model (FLOP/s, fewest instances), a region's screened types, which types beat others
outright, a type's layouts with their speed and what spot does to them, and its rates follow from the catalog, the
policy's estimate settings and the model alone, not from how long the run is or when it is asked. The service
decides the same few models again and again, and a request with no region searches every region, so they are
worked out once; each request then only scales the layouts by its FLOPs and prices them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from policy.catalog import Catalog
    from policy.config import EstimateSettings

__all__ = ["MAX_ENTRIES", "remembered"]

# Work comes from what people type, so the keys are unbounded; past this many the memo starts again (a few MB).
MAX_ENTRIES = 20_000
_ATTRIBUTE = "_hardware_memo"

T = TypeVar("T")


@dataclass(slots=True)
class _Memo:
    catalog: Catalog  # the catalog it was filled from: a model_copy shares the __dict__ entry, not the identity
    settings: EstimateSettings
    entries: dict[Hashable, Any] = field(default_factory=dict)


def remembered(catalog: Catalog, settings: EstimateSettings, key: Hashable, work_out: Callable[[], T]) -> T:
    """``work_out()`` for ``key`` under this catalog and these settings, worked out once."""
    memo = catalog.__dict__.get(_ATTRIBUTE)
    if not isinstance(memo, _Memo) or memo.catalog is not catalog or memo.settings is not settings:
        # One memo per catalog, for the settings last used: a service runs one policy at a time.
        memo = _Memo(catalog, settings)
        catalog.__dict__[_ATTRIBUTE] = memo  # a cache beside the fields; frozen guards the fields only
    entries = memo.entries
    try:
        return entries[key]  # type: ignore[no-any-return]
    except KeyError:
        pass
    if len(entries) >= MAX_ENTRIES:
        entries.clear()
    value = entries[key] = work_out()
    return value
