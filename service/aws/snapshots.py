"""Catalog snapshots on disk: each refresh is kept under its name and ``current.json`` is the one in force.

Writes go to a temporary file in the same directory and are renamed into place, so a reader sees the old file or
the new one, never half of one, and a refresh that fails leaves ``current.json`` untouched.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from policy.catalog import Catalog, RegionPrice

CURRENT = "current.json"


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_snapshot(*, catalog: Catalog, directory: str | Path) -> Path:
    """Keep ``catalog`` under its snapshot name and make it the one in force; returns the kept file."""
    folder = Path(directory)
    data = catalog.model_dump_json(indent=1).encode()
    kept = folder / f"catalog-{re.sub(r'[^A-Za-z0-9.+-]', '_', catalog.snapshot)}.json"
    _atomic_write(kept, data)
    _atomic_write(folder / CURRENT, data)
    return kept


def read_current_snapshot(*, directory: str | Path) -> Catalog | None:
    """The snapshot in force under ``directory``; None when no refresh has been stored there."""
    path = Path(directory) / CURRENT
    if not path.exists():
        return None
    return Catalog.model_validate_json(path.read_bytes())


def _fmt(value: float | None) -> str:
    return "none" if value is None else f"{value:g}"


def _row_changes(old: RegionPrice, new: RegionPrice) -> list[str]:
    where = f"{new.instance_type} {new.region}"
    pairs = [("on-demand", old.on_demand_usd, new.on_demand_usd), ("spot", old.spot_usd, new.spot_usd),
             ("SageMaker", old.sagemaker_usd, new.sagemaker_usd)]
    return [f"{where} {label} {_fmt(a)} → {_fmt(b)}" for label, a, b in pairs if a != b]


def diff_catalogs(*, old: Catalog, new: Catalog) -> list[str]:
    """One line per changed price, e.g. ``p5.48xlarge us-east-1 on-demand 98.32 → 55.04``, sorted."""
    before = {(p.instance_type, p.region): p for p in old.prices}
    after = {(p.instance_type, p.region): p for p in new.prices}
    lines: list[str] = []
    for key in sorted(before.keys() | after.keys()):
        if key not in after:
            lines.append(f"{key[0]} {key[1]} removed")
        elif key not in before:
            lines.append(f"{key[0]} {key[1]} new: on-demand {_fmt(after[key].on_demand_usd)}")
        else:
            lines.extend(_row_changes(before[key], after[key]))
    return lines
