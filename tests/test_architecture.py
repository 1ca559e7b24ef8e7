"""The house map of docs/design.md §House map holds: each package imports only what its row allows.

The table is read from the document itself, so a boundary that moves must move in the design first.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
import subprocess
import sys
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
NOT_PRODUCT = {"tests", "bench", "scripts"}  # house code no product package may import
NETWORK_STDLIB = {"socket", "urllib", "http", "ssl", "subprocess", "asyncio"}


@dataclass(frozen=True)
class Row:
    package: str
    house: frozenset[str]  # house packages it may import
    only: frozenset[str] | None  # libraries beyond stdlib it may import; None when any library but `never` is fine
    never: frozenset[str]


def _names(cell: str) -> frozenset[str]:
    return frozenset(re.findall(r"`([a-z0-9_]+)/?`", cell))


def house_map() -> list[Row]:
    """The rows of the house map table in docs/design.md."""
    text = DESIGN.read_text(encoding="utf-8")
    section = text.split("## House map", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        package, _job, house, libraries = cells
        only = _names(libraries) if libraries.endswith("only") else None
        never = _names(libraries) if libraries.startswith("any but") else frozenset()
        rows.append(Row(package.strip("`/"), _names(house), only, never))
    return rows


def imported_roots(package: str) -> dict[str, str]:
    """Top-level module of every absolute import in ``package`` -> one place that imports it."""
    roots: dict[str, str] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                roots.setdefault(name.split(".")[0], f"{path.relative_to(ROOT)}:{node.lineno}")
    return roots


ROWS = house_map()
HOUSE = {row.package for row in ROWS} | NOT_PRODUCT


def test_the_house_map_is_read_from_the_design() -> None:
    assert {"policy", "service", "bot", "gpuops", "contract"} <= {row.package for row in ROWS}
    assert next(row for row in ROWS if row.package == "bot").never >= {"boto3", "sqlalchemy"}


def test_every_package_in_the_repository_is_on_the_map() -> None:
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - NOT_PRODUCT
    assert packages <= {row.package for row in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.package)
def test_package_imports_only_what_the_house_map_allows(row: Row) -> None:
    assert (ROOT / row.package).is_dir(), f"the house map names {row.package}/, which does not exist"
    offenders = []
    for root, where in imported_roots(row.package).items():
        if root == row.package or root in sys.stdlib_module_names:
            continue
        if root in HOUSE:
            allowed = root in row.house
        elif row.only is not None:
            allowed = root in row.only
        else:
            allowed = root not in row.never
        if not allowed:
            offenders.append(f"{where}: imports {root}")
    assert offenders == []


def test_policy_reaches_no_network_even_through_the_standard_library() -> None:
    assert set(imported_roots("policy")) & NETWORK_STDLIB == set()


def test_the_contract_imports_only_the_stdlib_pydantic_and_policy() -> None:
    allowed = set(sys.stdlib_module_names) | {"__future__", "pydantic", "policy", "contract"}
    assert set(imported_roots("contract")) - allowed == set()


# What a server or a Slack bot loads, and a decision in the terminal must not (docs/design.md, `gpuops plan`).
SERVER_STACK = ("fastapi", "uvicorn", "slack_bolt", "boto3", "botocore", "sqlalchemy", "redis", "prometheus_client")


def _server_stack_loaded_by(code: str, env: dict[str, str] | None = None) -> list[str]:
    """The server-stack packages in ``sys.modules`` after ``code`` runs in a fresh interpreter."""
    code += f"\nimport sys\nprint(sorted({set(SERVER_STACK)!r} & {{m.split('.')[0] for m in sys.modules}}))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return list(ast.literal_eval(out.stdout.strip().splitlines()[-1]))


def test_importing_policy_the_contract_and_the_plan_command_loads_no_server_stack() -> None:
    assert _server_stack_loaded_by(
        "import policy, policy.tree, gpuops.cli, contract.requests, contract.errors") == []


def test_a_plan_in_the_terminal_loads_no_server_stack(tmp_path: pathlib.Path) -> None:
    """The whole ``gpuops plan`` command, run where no AWS credentials are configured: capacity is unknown without
    asking boto3 (service/aws/credentials.py), and nothing of the service's stack is imported."""
    from service.aws.credentials import CREDENTIAL_ENV

    env = {k: v for k, v in os.environ.items()
           if k not in CREDENTIAL_ENV and not k.startswith("GPUOPS_") and not k.startswith("AWS_")}
    env.update(HOME=str(tmp_path), AWS_EC2_METADATA_DISABLED="true")
    code = (
        "from gpuops.cli import app\n"
        "try:\n"
        "    app(['plan', 'fine-tune 7B by Friday', '--json', '--now', '2026-11-30T09:00', '--tz', 'UTC'])\n"
        "except SystemExit as done:\n"
        "    assert done.code in (0, None), done.code\n"
    )
    assert _server_stack_loaded_by(code, env) == []


# The feature packages that drive the adapters; the launcher protocol's value types are the one thing adapters use.
ORCHESTRATORS = {"service.launch", "service.jobs", "service.requests", "service.api", "service.alerts",
                 "service.capacity"}
ADAPTER_TYPES = {"service.launch.protocol"}


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
    driving = {m for m in imported if any(m == o or m.startswith(f"{o}.") for o in ORCHESTRATORS)}
    assert {m for m in driving if not any(m == t or m.startswith(f"{t}.") for t in ADAPTER_TYPES)} == set()
