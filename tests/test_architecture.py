"""The package boundaries of DESIGN §1 hold: policy is pure, the bot never reaches into the service."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _imported_roots(package: str) -> set[str]:
    roots: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("policy", {"fastapi", "slack_bolt", "slack_sdk", "boto3", "botocore", "redis", "sqlalchemy", "sqlmodel",
                    "httpx", "requests", "service", "bot", "socket", "urllib"}),
        ("bot", {"service", "boto3", "botocore", "sqlalchemy", "sqlmodel"}),
        ("service", {"bot", "slack_bolt", "slack_sdk"}),
    ],
)
def test_package_never_imports_what_design_forbids(package: str, forbidden: set[str]) -> None:
    assert _imported_roots(package) & forbidden == set()


def test_importing_policy_and_the_plan_command_loads_no_server_stack() -> None:
    code = (
        "import sys, policy, policy.tree, gpuops.cli\n"
        "heavy = {'fastapi', 'slack_bolt', 'boto3', 'sqlalchemy', 'redis', 'uvicorn'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


ORCHESTRATORS = {"service.launch", "service.worker", "service.tracker", "service.stopping", "service.manifests",
                 "service.launchers.registry"}


def _imported_modules(path: pathlib.Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


@pytest.mark.parametrize("path", sorted((ROOT / "service" / "aws").rglob("*.py")), ids=lambda p: p.name)
def test_the_aws_adapters_never_import_the_code_that_drives_them(path: pathlib.Path) -> None:
    """Adapters return the launcher protocol's value types; importing the orchestrator would point the wrong way."""
    imported = _imported_modules(path)
    assert {m for m in imported if any(m == o or m.startswith(f"{o}.") for o in ORCHESTRATORS)} == set()
