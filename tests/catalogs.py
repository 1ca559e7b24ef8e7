"""The shipped price snapshot as a refresh would leave it today: for checks that judge the prices' age on the real
clock (``gpuops doctor``), which the shipped snapshot's dates would fail a month after it was taken."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from policy.catalog import load_catalog
from service.aws.snapshots import write_snapshot


def refreshed_today(directory: Path) -> str:
    """Write the shipped snapshot, every price re-dated to today, as ``directory``'s snapshot in force
    (``current.json``, where ``gpuops catalog refresh`` stores one); the directory, for ``GPUOPS_CATALOG_DIR``."""
    today = date.today().isoformat()
    shipped = load_catalog()
    prices = [p.model_copy(update={"as_of": today, "spot_observed": today if p.spot_observed else None})
              for p in shipped.prices]
    write_snapshot(catalog=shipped.model_copy(update={"prices": prices, "snapshot": f"{today}+refresh-test"}),
                   directory=directory)
    return str(directory)
