"""Run every ``bench/*.py`` module's ``run()`` in turn, or only the ones named: ``python -m bench policy``.

A module that should only run when named (long or needing services) sets ``DEFAULT = False``.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable
from typing import cast

import bench


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(bench.__path__) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    names = argv or _modules()
    unknown = sorted(set(names) - set(_modules()))
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(_modules())}")
        return 2
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        run = getattr(module, "run", None)
        if run is None or (not argv and not getattr(module, "DEFAULT", True)):
            continue
        print(f"== bench.{name}", flush=True)
        cast(Callable[[], None], run)()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
