"""policy's public surface is declared: each module's ``__all__`` is sorted, names only what the module holds, and
covers every name the other packages import from it (the way httpx guards its ``__all__``)."""

from __future__ import annotations

import ast
import importlib
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODULES = sorted(
    "policy" if path.stem == "__init__" else f"policy.{path.stem}" for path in (ROOT / "policy").glob("*.py")
)
CONSUMERS = ("bot", "service", "gpuops")


def _imports_from_policy() -> list[tuple[str, str, str]]:
    """(module, name, where) for every ``from policy.x import name`` in the consuming packages."""
    found: list[tuple[str, str, str]] = []
    for package in CONSUMERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("policy"):
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.extend((str(node.module), alias.name, where) for alias in node.names)
    return found


@pytest.mark.parametrize("name", MODULES)
def test_every_module_declares_a_sorted_all_of_names_it_holds(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__dict__.get("__all__")
    assert isinstance(exported, list), f"{name} has no __all__"
    assert exported == sorted(exported, key=str.casefold), f"{name}.__all__ is not sorted"
    assert len(set(exported)) == len(exported)
    assert [item for item in exported if not hasattr(module, item)] == []


def test_every_name_used_from_policy_is_in_the_all_of_its_module() -> None:
    outside = [
        f"{where}: {name} is not in {module}.__all__"
        for module, name, where in _imports_from_policy()
        if name not in importlib.import_module(module).__dict__.get("__all__", [])
    ]
    assert outside == []


def test_the_scan_sees_the_imports_it_guards() -> None:
    assert ("policy.errors", "RequestError") in {(module, name) for module, name, _ in _imports_from_policy()}


def test_importing_the_package_or_its_errors_loads_no_engine_and_no_pydantic() -> None:
    code = ("import sys, policy, policy.errors\n"
            "print(sorted(m for m in sys.modules if m.startswith(('policy.', 'pydantic', 'yaml'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "['policy.errors']"
