"""The package boundaries of DESIGN §1 hold: policy is pure, the contract is plain models, the bot never reaches into
the service."""

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
        ("contract", {"service", "bot", "gpuops", "fastapi", "starlette", "sqlalchemy", "sqlmodel", "slack_bolt",
                      "slack_sdk", "boto3", "botocore", "redis", "httpx"}),
        ("service", {"bot", "slack_bolt", "slack_sdk"}),
    ],
)
def test_package_never_imports_what_design_forbids(package: str, forbidden: set[str]) -> None:
    assert _imported_roots(package) & forbidden == set()


def test_the_contract_imports_only_the_stdlib_pydantic_and_policy() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__", "pydantic", "policy", "contract"}
    assert _imported_roots("contract") - allowed == set()


def test_importing_policy_the_contract_and_the_plan_command_loads_no_server_stack() -> None:
    code = (
        "import sys, policy, policy.tree, gpuops.cli, contract.requests, contract.errors\n"
        "heavy = {'fastapi', 'slack_bolt', 'boto3', 'sqlalchemy', 'redis', 'uvicorn'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"
