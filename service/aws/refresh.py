"""``gpuops catalog refresh``: read prices from AWS, store a new snapshot, report what changed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from policy.catalog import Catalog, load_catalog
from service.aws.clients import ClientFactory
from service.aws.pricing import refresh_prices
from service.aws.snapshots import diff_catalogs, read_current_snapshot, write_snapshot


@dataclass(frozen=True)
class RefreshResult:
    previous: Catalog
    catalog: Catalog
    changes: list[str]
    stored: Path | None


def refresh_catalog_snapshot(
    *, factory: ClientFactory, directory: str | Path, now: datetime, regions: list[str] | None = None,
    store: bool = True, base_file: str | None = None,
) -> RefreshResult:
    """Refresh from the snapshot in force (stored, else ``base_file``, else shipped); store it unless told not to.

    Raises ``UpstreamError`` when AWS fails, before anything is written.
    """
    previous = read_current_snapshot(directory=directory) or load_catalog(base_file)
    catalog = refresh_prices(factory=factory, base=previous, now=now, regions=regions)
    stored = write_snapshot(catalog=catalog, directory=directory) if store else None
    return RefreshResult(previous=previous, catalog=catalog, changes=diff_catalogs(old=previous, new=catalog),
                         stored=stored)
