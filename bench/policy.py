"""decide() latency over a mix of requests, cold import times, and `gpuops plan` whole-process wall time."""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from policy.catalog import Catalog, load_catalog
from policy.config import PolicyConfig, default_policy
from policy.errors import RequestError
from policy.request import Stage, Task, Tolerance, TrainingRequest
from policy.spend import SpendSnapshot
from policy.tree import decide

DECIDE_P99_TARGET_MS = 1.0
PLAN_WALL_TARGET_S = 0.25
IMPORT_POLICY_TARGET_MS = 80.0
IMPORT_RUNS = 7
# A fresh interpreter per run: a module imported once is cached, so only a new process shows the cold cost.
_IMPORT_TIMER = "import time; t = time.perf_counter(); import {module}; print((time.perf_counter() - t) * 1000)"
REQUESTS = 1000
CLI_RUNS = 5
ROOT = Path(__file__).resolve().parents[1]  # the checkout whose `gpuops plan` is timed
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
CLI_ARGS = ["plan", "fine-tune 7B by Friday", "--json", "--now", "2026-11-30T09:00", "--tz", "America/Los_Angeles"]


def request_mix(count: int, seed: int = 7) -> list[TrainingRequest]:
    """A reproducible mix: every task, 125M-405B parameters, every team, with and without deadlines, regions, hints
    and budgets."""
    rng = random.Random(seed)
    policy = default_policy()
    sizes = [125e6, 350e6, 1.5e9, 3e9, 7e9, 8e9, 13e9, 34e9, 70e9, 180e9, 405e9]
    out = []
    for _ in range(count):
        task = rng.choice(list(Task))
        params = int(rng.choice(sizes))
        hint = rng.random()
        out.append(TrainingRequest(
            task=task, params=params,
            tokens=int(params * rng.choice([0.05, 0.5, 2, 20])) if rng.random() < 0.7 else None,
            trials=rng.choice([5, 20]) if task is Task.SWEEP else None,
            deadline=NOW + timedelta(hours=rng.choice([8, 24, 96, 400])) if rng.random() < 0.6 else None,
            stage=rng.choice([None, Stage.EXPERIMENTAL, Stage.PRODUCTION]),
            interruption_tolerance=rng.choice([None, None, Tolerance.LOW, Tolerance.HIGH]),
            # half name no region, so every region the team can launch in is searched
            region=rng.choice(policy.regions) if rng.random() < 0.5 else None,
            team=rng.choice(sorted(policy.teams)),
            budget_usd=rng.choice([None, None, 300.0, 5000.0]),
            accelerator="H100" if hint < 0.05 else None,
            instance_type="p4d" if 0.05 <= hint < 0.1 else None,
        ))
    return out


def _decide(request: TrainingRequest, catalog: Catalog, policy: PolicyConfig, spend: SpendSnapshot) -> None:
    try:
        decide(request, catalog=catalog, policy=policy, spend=spend, now=NOW)
    except RequestError:
        pass  # a refusal ("no H100 in eu-west-1") is a decision too, and is timed like one


def _percentiles(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.99) - 1]


def bench_decide() -> tuple[tuple[float, float], tuple[float, float]]:
    """(p50, p99) of decide() in milliseconds, wall clock and this thread's CPU time.

    CPU time leaves out the time the scheduler gave other processes, which dominates the tail on a busy machine.
    """
    catalog, policy = load_catalog(), default_policy()
    spend = SpendSnapshot.unavailable(team=None, reason="bench")
    mix = request_mix(REQUESTS)
    for request in mix[:50]:
        _decide(request, catalog, policy, spend)
    wall, cpu = [], []
    for request in mix:
        start, start_cpu = time.perf_counter_ns(), time.thread_time_ns()
        _decide(request, catalog, policy, spend)
        cpu.append((time.thread_time_ns() - start_cpu) / 1e6)
        wall.append((time.perf_counter_ns() - start) / 1e6)
    return _percentiles(wall), _percentiles(cpu)


def bench_cli() -> float:
    """Median wall seconds of a whole `gpuops plan` process, run from this checkout (``cli_runs``)."""
    return statistics.median(cli_runs()[0])


def cli_runs(*, patterns_kept: bool = True) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of ``CLI_RUNS`` whole `gpuops plan` processes run from this checkout.

    Timed as an installed command runs after its first use: with its bytecode cached, and (``patterns_kept``) the
    parser's compiled patterns too (``gpuops.pattern_cache``). ``PYTHONDONTWRITEBYTECODE`` is removed from the
    processes' environment; the bytecode and the patterns go to directories of their own (``PYTHONPYCACHEPREFIX``,
    ``GPUOPS_CACHE_DIR``, so neither the checkout, the virtualenv nor the home directory is written); one untimed
    run first fills them. Without ``patterns_kept`` each run starts with none, as the first run on a machine does.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gpuops-bench-pycache")
    command = [sys.executable, "-m", "gpuops.cli", *CLI_ARGS]
    walls, cpus = [], []
    with tempfile.TemporaryDirectory(prefix="gpuops-bench-cache-") as kept:
        for run in range(CLI_RUNS + 1):
            env["GPUOPS_CACHE_DIR"] = kept if patterns_kept else tempfile.mkdtemp(dir=kept)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, check=True, capture_output=True, cwd=ROOT, env=env)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if run:  # the first run fills the caches
                walls.append(wall)
                cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def bench_import(module: str) -> float:
    """Median milliseconds to import ``module`` in a fresh interpreter (interpreter start-up not counted)."""
    walls = []
    for _ in range(IMPORT_RUNS):
        out = subprocess.run([sys.executable, "-c", _IMPORT_TIMER.format(module=module)], check=True,
                             capture_output=True, text=True)
        walls.append(float(out.stdout))
    return statistics.median(walls)


def run() -> None:
    """Print the figures and their ratio to target; never fail on timing."""
    (p50, p99), (cpu50, cpu99) = bench_decide()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"decide() over {REQUESTS} mixed requests: p50 {p50:.2f} ms, p99 {p99:.2f} ms "
          f"(target p99 ≤ {DECIDE_P99_TARGET_MS:g} ms: {p99 / DECIDE_P99_TARGET_MS:.2f}× of target); "
          f"CPU time p50 {cpu50:.2f} ms, p99 {cpu99:.2f} ms ({cpu99 / DECIDE_P99_TARGET_MS:.2f}× of target); "
          f"load average {load:.2f} on {os.cpu_count()} CPUs")
    package, engine = bench_import("policy"), bench_import("policy.tree")
    print(f"import policy, cold, median of {IMPORT_RUNS}: {package:.1f} ms "
          f"(target ≤ {IMPORT_POLICY_TARGET_MS:g} ms: {package / IMPORT_POLICY_TARGET_MS:.2f}× of target); "
          f"import policy.tree (the whole engine, pydantic included): {engine:.1f} ms")
    walls, cpus = cli_runs()
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(f"gpuops plan whole process, bytecode and patterns cached, median of {CLI_RUNS} after a warm-up run: "
          f"{wall:.3f} s (target ≤ {PLAN_WALL_TARGET_S:g} s: {wall / PLAN_WALL_TARGET_S:.2f}× of target); "
          f"CPU time {cpu:.3f} s ({cpu / PLAN_WALL_TARGET_S:.2f}× of target)")
    first = statistics.median(cli_runs(patterns_kept=False)[0])
    print(f"gpuops plan with no compiled patterns kept yet (a machine's first run, bytecode cached): {first:.3f} s")
