"""CI runs the same entry point a developer does."""

from __future__ import annotations

from tests.deploy.conftest import ROOT


def test_ci_runs_make_test() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line.strip() for line in script.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert "make test" in commands
    assert "set -euo pipefail" in commands, "a failing step must fail CI"


def test_make_test_runs_lint_typecheck_and_pytest() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = next(line for line in makefile.splitlines() if line.startswith("test:"))
    assert {"lint", "typecheck", "pytest"} <= set(target.split())
