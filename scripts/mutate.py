"""Mutation testing of the money-critical modules, each against its own test files only.

    python scripts/mutate.py                     # every module, at most 60 mutants each
    python scripts/mutate.py guardrails choice   # the ones named
    python scripts/mutate.py --max 20 estimate

Mutants come from cosmic-ray's operators. A module's mutants are sampled deterministically (a seeded shuffle of its
mutation points), so two runs over the same source try the same mutants and a new test shows up as a changed count.
The tree is copied to a scratch directory and mutated there, never in place: an interrupted run leaves no mutant in
the worktree. Each mutant's tests run in a process forked from one that has already imported the third-party
libraries, which takes most of the start-up time out of every run. Database tests run on SQLite only (``-k "not
postgres"``): the code under mutation is the same on both backends, and Postgres doubles the time.

Prints, per module: mutants found, tried, killed (timeouts count as killed), survived and equivalent, and the kill
rate over the non-equivalent mutants tried; each survivor's diff goes to ``out/mutate/<module>.txt``. Never part of
``make test``: it takes minutes, and a survivor is a question for a person, not a failed build.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import importlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Target:
    source: str
    tests: tuple[str, ...]
    cap: int = 60  # most mutants tried; lower where the tests take long


TARGETS = {
    "guardrails": Target("policy/guardrails.py",
                         ("tests/policy/test_guardrails.py", "tests/policy/test_money_properties.py")),
    "approvals": Target("service/requests/approvals.py",
                        ("tests/service/test_approvals.py", "tests/service/test_withdrawal.py")),
    "states": Target("service/requests/states.py", ("tests/service/test_states.py",)),
    "launcher": Target("service/launch/outbox.py",
                       ("tests/service/test_launch_guards.py", "tests/aws/test_launch.py"), cap=20),  # 30 s a run
    "choice": Target("policy/choose.py", ("tests/policy/test_choose.py",)),
    "estimate": Target("policy/estimate.py",
                       ("tests/policy/test_estimate.py", "tests/policy/test_money_properties.py")),
}

# Operators left out. Bitwise and shift operators: the modules do no bit arithmetic, so every such mutant is either
# in an annotation (``Option | None``, never evaluated under ``from __future__ import annotations``) or a type
# error that any test kills. ``is`` -> ``==`` and ``is not`` -> ``!=``: every ``is`` in these modules compares with
# None, True, False or an enum member, where identity and equality agree, so each such mutant is equivalent. The
# variable operators draw random numbers, which would break the deterministic sample.
_BITWISE = ("BitOr", "BitAnd", "BitXor", "LShift", "RShift")
_LEFT_OUT = ("core/VariableReplacer", "core/VariableInserter", "core/ReplaceComparisonOperator_Is_Eq",
             "core/ReplaceComparisonOperator_IsNot_NotEq")

# Mutants that no test can kill because the program behaves the same: (module, operator, source line) -> why.
EQUIVALENT: dict[tuple[str, str, str], str] = {
    ("estimate", "core/ReplaceBinaryOperator_Add_Sub", "return round(usd + 0.0, 2)"):
        "usd - 0.0 equals usd + 0.0 for every float but -0.0, which compares equal to 0.0",
    ("choice", "core/ReplaceTrueWithFalse", "@dataclass(slots=True)"):
        "slots only save memory: no code sets an attribute the class does not declare",
    ("choice", "core/ReplaceComparisonOperator_Eq_Is", "if len(found) == MAX_ALTERNATIVES:"):
        "CPython caches small ints: len(found) is 3 whenever it equals 3",
    ("choice", "core/ReplaceComparisonOperator_Is_LtE",
     "return _pick(choice.pool, lambda o: o.purchase is PurchaseModel.ON_DEMAND and o.meets is not False, by_cost)"):
        "'spot' > 'on-demand' >= 'capacity-block', and a pool never holds capacity blocks (only alternatives are)",
    ("states", "core/ReplaceComparisonOperator_Eq_GtE", "PlanRevision.revision == record.revision)).one()"):
        "a request's revision is its newest plan revision: no plan row is ever above it",
    ("states", "core/ReplaceComparisonOperator_IsNot_Lt", "if status is not S.PENDING_APPROVAL:"):
        "the other first states, auto_approved and denied, sort before pending_approval; the rest are refused above",
    ("approvals", "core/ExceptionReplacer",
     "except IntegrityError:  # the row lock makes this unreachable; the unique constraint is the backstop"):
        "unreachable: the request row lock (SQLite: its single writer) serialises deciders, so a second decision by "
        "the same person finds the first in _existing",
    ("approvals", "core/ReplaceFalseWithTrue",
     "return get_request_or_raise(session=session, request_id=request_id), False"):
        "the same unreachable IntegrityError branch",
    ("approvals", "core/ReplaceComparisonOperator_Is_GtE",
     'if decision is ApprovalDecision.WITHDRAW and (existing is None or existing.decision != "approve"):'):
        "'withdraw' sorts after 'approve' and 'reject', the only other decisions",
    ("approvals", "core/ReplaceComparisonOperator_NotEq_Lt",
     'if decision is ApprovalDecision.WITHDRAW and (existing is None or existing.decision != "approve"):'):
        "a withdrawal reaches _change only with its author's approval on record: a reject always ends the request, "
        "and withdrawing twice is a no-op before this line",
    ("approvals", "core/ReplaceOrWithAnd",
     'if decision is ApprovalDecision.WITHDRAW and (existing is None or existing.decision != "approve"):'):
        "as above: a withdrawal without an approval on record is refused before _change is called",
    ("launcher", "core/ReplaceTrueWithFalse", "@dataclass(frozen=True)"):
        "frozen only forbids assignment, and no code assigns to a ClaimedTask or a LaunchJob",
    ("launcher", "core/ReplaceComparisonOperator_Eq_LtE",
     "sa.update(LaunchTask).where(col(LaunchTask.id) == candidate.id, _claimable(now, lease_seconds))"):
        "the candidate is the lowest-id claimable task at the same 'now': no lower id matches the claim condition",
    ("launcher", "core/ReplaceComparisonOperator_NotEq_Is",
     "if row.approvals_needed == 0 and record.status != RequestStatus.APPROVED:"):
        "with no approvals needed the count check below (fewer than 0 approvers) never blocks either",
    ("launcher", "core/ReplaceComparisonOperator_Eq_Is",
     "row = session.exec(select(Job).where(Job.request_id == job.task.request_id)).first()"):
        "a request's launch is recorded once (the task is then done), so no job row exists yet to update",
}

# Where one operator mutates two places on a line and only one of them is equivalent: (module, mutated line) -> why.
EQUIVALENT_RESULTS: dict[tuple[str, str], str] = {
    ("states", "launch_failed = source <= S.LAUNCHING and to is S.FAILED"):
        "only launching and running can become failed, and 'running' sorts after 'launching'",
}

# Imported once in the parent so that each forked test run starts with them loaded; never the project's own code.
_PRELOAD = ("pytest", "hypothesis", "pydantic", "sqlalchemy", "sqlmodel", "fastapi", "httpx",
            "boto3", "botocore.session", "moto", "yaml", "dateutil", "redis",
            "psycopg", "alembic", "jsonschema", "slack_sdk", "slack_bolt", "kubernetes")


@dataclass
class Mutant:
    operator: str
    occurrence: int
    line: int
    code: str
    original_line: str
    equivalent: str = ""
    outcome: str = ""  # killed | survived | timeout | equivalent
    seconds: float = 0.0


@dataclass
class Tally:
    name: str
    found: int = 0
    annotation_only: int = 0
    mutants: list[Mutant] = field(default_factory=list)

    def count(self, outcome: str) -> int:
        return sum(m.outcome == outcome for m in self.mutants)

    def row(self) -> str:
        killed = self.count("killed") + self.count("timeout")
        survived, equivalent = self.count("survived"), self.count("equivalent")
        judged = killed + survived
        rate = f"{killed / judged:.0%}" if judged else "-"
        return (f"{self.name:<11} {self.found:>5} {len(self.mutants):>5} {killed:>6} {survived:>8} {equivalent:>10}"
                f" {rate:>6}")


def _operators() -> list[tuple[str, Any]]:
    import cosmic_ray.plugins

    chosen = []
    for name in sorted(cosmic_ray.plugins.operator_names()):
        if name in _LEFT_OUT or any(op in name for op in _BITWISE):
            continue
        cls = cosmic_ray.plugins.get_operator(name)
        if cls.arguments():
            continue
        chosen.append((name, cls()))
    return chosen


def _behaviour(code: str) -> str:
    """The module's AST with annotations and docstrings removed: equal for mutants that change neither."""
    tree = ast.parse(code)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            node.annotation = None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node.returns = None
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                node.body[0] = ast.Pass()
    return ast.dump(tree)


def enumerate_mutants(name: str, source: str, limit: int) -> Tally:
    """Up to ``limit`` mutants that change behaviour, in a deterministic sample of every mutation point."""
    from cosmic_ray.ast import ast_nodes, get_ast
    from cosmic_ray.mutating import mutate_code

    tally = Tally(name)
    points = [(op_name, operator, occurrence, start[0])
              for op_name, operator in _operators()
              for occurrence, (start, _) in enumerate(
                  p for node in ast_nodes(get_ast(source)) for p in operator.mutation_positions(node))]
    tally.found = len(points)
    random.Random(f"gpuops-mutate:{name}").shuffle(points)
    baseline = _behaviour(source)
    lines = source.splitlines()
    for op_name, operator, occurrence, line in points:
        if len(tally.mutants) == limit:
            break
        code = mutate_code(source, operator, occurrence)
        if code is None or code == source:
            continue
        try:
            if _behaviour(code) == baseline:
                tally.annotation_only += 1
                continue
        except SyntaxError:
            continue  # not a program: no test could run it
        original = lines[line - 1].strip()
        mutated = code.splitlines()[line - 1].strip() if len(code.splitlines()) >= line else ""
        why = EQUIVALENT.get((name, op_name, original)) or EQUIVALENT_RESULTS.get((name, mutated), "")
        in_signature = "*," in original and "def " in source_context(lines, line)
        if op_name == "core/ReplaceBinaryOperator_Mul_Div" and in_signature:
            why = "the keyword-only marker * becomes the positional-only marker /: every caller passes by keyword"
        tally.mutants.append(Mutant(op_name, occurrence, line, code, original, why))
    tally.mutants.sort(key=lambda m: (m.line, m.operator, m.occurrence))
    return tally


def source_context(lines: list[str], line: int) -> str:
    """The line and the two above it: enough to see whether a ``*,`` sits in a function's signature."""
    return "\n".join(lines[max(0, line - 3):line])


def _copy_tree(into: Path) -> None:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            dest = into / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)


def _run_tests(tree: Path, tests: list[str], log: Path, timeout: float) -> tuple[str, float]:
    """Fork, run pytest on ``tests`` in ``tree``; 'passed', 'failed' or 'timeout'."""
    started = time.monotonic()
    shutil.rmtree(tree / ".hypothesis", ignore_errors=True)  # examples a previous mutant failed must not carry over
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            import traceback
            os.setpgid(0, 0)
            os.chdir(tree)
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            import pytest

            # The preloaded libraries include pytest plugins (anyio), which can no longer be assertion-rewritten.
            code = int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-k", "not postgres", "--hypothesis-seed=0",
                                    "-W", "ignore::pytest.PytestAssertRewriteWarning", *tests]))
        except BaseException:  # noqa: BLE001 - the child must reach os._exit; the log shows what went wrong
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() - started > timeout:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout", time.monotonic() - started
        time.sleep(0.05)
    seconds = time.monotonic() - started
    return ("passed" if os.waitstatus_to_exitcode(status) == 0 else "failed"), seconds


def run_module(tally: Tally, target: Target, tree: Path, out: Path) -> None:
    tests = [t for t in target.tests if (tree / t).is_file()]
    path = tree / target.source
    original = path.read_text()
    log = out / f"{tally.name}.log"
    if not tests:
        for m in tally.mutants:
            m.outcome = m.outcome or ("equivalent" if m.equivalent else "survived")
        print(f"{tally.name}: no test file among {', '.join(target.tests)}: every mutant survives", flush=True)
        return
    clean, seconds = _run_tests(tree, tests, log, timeout=600)
    if clean != "passed":
        raise SystemExit(f"{tally.name}: the tests fail without any mutant; see {log}")
    timeout = max(3 * seconds, seconds + 10)
    print(f"{tally.name}: {len(tally.mutants)} of {tally.found} mutants, tests take {seconds:.1f} s", flush=True)
    try:
        for m in tally.mutants:
            if m.equivalent:
                m.outcome = "equivalent"
                continue
            path.write_text(m.code)
            result, m.seconds = _run_tests(tree, tests, log, timeout)
            m.outcome = {"passed": "survived", "failed": "killed"}.get(result, "timeout")
            print(f"  {m.outcome:<9} {m.seconds:5.1f} s  line {m.line:<4} {m.operator.removeprefix('core/')}",
                  flush=True)
    finally:
        path.write_text(original)


def write_report(tally: Tally, target: Target, original: str, out: Path) -> None:
    parts = []
    for m in tally.mutants:
        if m.outcome not in ("survived", "equivalent"):
            continue
        diff = difflib.unified_diff(original.splitlines(), m.code.splitlines(), f"a/{target.source}",
                                    f"b/{target.source}", n=1, lineterm="")
        head = f"## {m.outcome}: line {m.line} {m.operator} #{m.occurrence}"
        parts.append("\n".join([head + (f" ({m.equivalent})" if m.equivalent else ""), *diff]))
    (out / f"{tally.name}.txt").write_text("\n\n".join(parts) + "\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE", help=f"any of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("--max", type=int, default=60,
                        help="most mutants tried per module (default 60; 20 for the launcher, whose tests take 30 s)")
    args = parser.parse_args(argv)
    names = args.modules or list(TARGETS)
    unknown = sorted(set(names) - set(TARGETS))
    if unknown:
        parser.error(f"unknown module(s): {', '.join(unknown)}; known: {', '.join(TARGETS)}")

    sys.dont_write_bytecode = True  # a mutant the same size as the source, written in the same second, could hit
    for name in _PRELOAD:  # a stale .pyc; and nothing of the project is imported here, so every child sees the mutant
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    out = ROOT / "out" / "mutate"
    out.mkdir(parents=True, exist_ok=True)
    tallies = []
    with tempfile.TemporaryDirectory(prefix="gpuops-mutate-") as scratch:
        tree = Path(scratch)
        _copy_tree(tree)
        sys.path[:] = [str(tree), *(p for p in sys.path if p not in ("", str(ROOT), str(ROOT / "scripts")))]
        for name in names:
            target = TARGETS[name]
            source = (tree / target.source).read_text()
            tally = enumerate_mutants(name, source, min(args.max, target.cap))
            run_module(tally, target, tree, out)
            write_report(tally, target, source, out)
            tallies.append(tally)
    print(f"\n{'module':<11} {'found':>5} {'tried':>5} {'killed':>6} {'survived':>8} {'equivalent':>10} {'rate':>6}")
    for tally in tallies:
        print(tally.row())
    print(f"(annotation-only mutants dropped before sampling: "
          f"{', '.join(f'{t.name} {t.annotation_only}' for t in tallies)}; survivors' diffs in {out})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
