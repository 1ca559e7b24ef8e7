"""Service figures: ``POST /v1/plans`` throughput and latency at 16 concurrent clients against one uvicorn worker on
loopback (SQLite, in-process cache), ``POST /v1/requests`` on Postgres, and the service's resident memory after.

Targets on the 2-core reference machine: plans ≥ 1,000 requests/s with p99 ≤ 20 ms at 16 connections; requests on
Postgres ≥ 150/s; resident memory ≤ 250 MB. The load generator shares the machine with the service, so figures are
conservative.
With 16 clients in a closed loop, mean latency is 16 / throughput (Little's law): a p99 of 20 ms there needs well over
800 requests/s, so p99 is also measured with PACED_RATE requests/s offered at a steady pace. Printed, never asserted.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import yaml

from bench.harness import free_port
from policy.config import default_policy

DEFAULT = True
CLIENTS = 16
DURATION_SECONDS = 8.0
WARMUP_SECONDS = 1.5
TOKEN = "bench-admin-token-0123456789"
BOT_TOKEN = "bench-bot-token-0123456789"
POSTGRES_URL = os.environ.get("GPUOPS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
PLANS_RPS_TARGET = 1000.0
PLANS_P99_TARGET_MS = 20.0
PACED_RATE = 300.0
ROOT = Path(__file__).resolve().parents[1]
TEXTS = ["fine-tune 7B by Friday", "lora 13B on 2B tokens", "pretrain 1.5B on 30B tokens", "qlora 70B",
         "fine-tune 8B production spot ok", "sweep of 20 trials on 350M"]


def _policy_file(folder: str) -> str:
    """The default policy with the per-requester rate limit out of the way (the bench is one requester)."""
    policy = default_policy().model_copy(update={"rate_limit_per_minute": 10_000_000})
    path = os.path.join(folder, "bench-policy.yaml")
    with open(path, "w", encoding="utf-8") as handle:
        yaml.safe_dump(policy.model_dump(mode="json"), handle)
    return path


@contextmanager
def _service(database_url: str, folder: str) -> Iterator[tuple[str, int]]:
    """``gpuops service`` in a subprocess (one uvicorn worker); yields (base URL, pid)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "GPUOPS_API_TOKENS": f"admin:{TOKEN},bot:{BOT_TOKEN}",
           "GPUOPS_POLICY": _policy_file(folder), "GPUOPS_SPEND": "sample", "GPUOPS_LOG_LEVEL": "WARNING",
           # this checkout's code, not whatever copy of gpuops is installed in the environment
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "-c", "from gpuops.cli import main; main()", "db", "upgrade"], env=env,
                   cwd=ROOT, check=True, capture_output=True)
    log = open(os.path.join(folder, f"service-{port}.log"), "wb")  # closed when the service stops
    process = subprocess.Popen(
        [sys.executable, "-c", "from gpuops.cli import main; main()", "service", "--port", str(port)],
        env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, process)
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(timeout=15)
        log.close()


def _wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the service exited during start-up")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the service did not become healthy")


async def _load(url: str, path: str, body_for: list[dict[str, object]], headers: dict[str, str]) -> dict[str, float]:
    """Drive ``path`` from CLIENTS concurrent clients; latencies counted after the warm-up."""
    latencies: list[float] = []
    errors = 0
    start = time.perf_counter()
    stop_at = start + WARMUP_SECONDS + DURATION_SECONDS
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)

    async def client(index: int, http: httpx.AsyncClient) -> None:
        nonlocal errors
        n = index
        while (now := time.perf_counter()) < stop_at:
            response = await http.post(path, json=body_for[n % len(body_for)], headers=headers)
            n += CLIENTS
            if now - start >= WARMUP_SECONDS:
                latencies.append(time.perf_counter() - now)
                errors += response.status_code >= 400

    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        await asyncio.gather(*(client(i, http) for i in range(CLIENTS)))
    latencies.sort()
    return {"rps": len(latencies) / DURATION_SECONDS, "p50_ms": latencies[len(latencies) // 2] * 1000,
            "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000, "n": len(latencies), "errors": errors}


async def _paced(url: str, path: str, body_for: list[dict[str, object]], headers: dict[str, str], *,
                 rate: float) -> dict[str, float]:
    """Offer ``rate`` requests/s from up to CLIENTS connections; latency counts from each request's scheduled
    start, so a stalled server is not excused by requests that were never sent (no coordinated omission)."""
    total = int(rate * DURATION_SECONDS)
    latencies: list[float] = []
    next_index = 0
    start = time.perf_counter() + 0.2
    limits = httpx.Limits(max_connections=CLIENTS, max_keepalive_connections=CLIENTS)

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal next_index
        while next_index < total:
            index, next_index = next_index, next_index + 1
            scheduled = start + index / rate
            await asyncio.sleep(max(0.0, scheduled - time.perf_counter()))
            await http.post(path, json=body_for[index % len(body_for)], headers=headers)
            latencies.append(time.perf_counter() - scheduled)

    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        await asyncio.gather(*(client(http) for _ in range(CLIENTS)))
    latencies.sort()
    return {"p50_ms": latencies[len(latencies) // 2] * 1000, "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000}


def _cpu_seconds(pid: int) -> float:
    """User + system CPU the process has used (so the service's own cost shows apart from the load generator)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _ratio(value: float, target: float, *, lower_is_better: bool = False) -> str:
    ratio = target / value if lower_is_better else value / target
    return f"{ratio:.2f}× target ({'≤' if lower_is_better else '≥'} {target:g})"


def _bench_plans(folder: str) -> None:
    with _service(f"sqlite:///{folder}/bench.db", folder) as (url, pid):
        bodies: list[dict[str, object]] = [{"text": t} for t in TEXTS]
        cpu = _cpu_seconds(pid)
        figures = asyncio.run(_load(url, "/v1/plans", bodies, {"Authorization": f"Bearer {TOKEN}"}))
        cpu_ms = (_cpu_seconds(pid) - cpu) * 1000 / (figures["rps"] * (DURATION_SECONDS + WARMUP_SECONDS))
        print(f"POST /v1/plans (SQLite, 1 worker, {CLIENTS} clients): {figures['rps']:.0f} req/s "
              f"[{_ratio(figures['rps'], PLANS_RPS_TARGET)}], p50 {figures['p50_ms']:.1f} ms, "
              f"p99 {figures['p99_ms']:.1f} ms "
              f"[{_ratio(figures['p99_ms'], PLANS_P99_TARGET_MS, lower_is_better=True)}], "
              f"{figures['n']:.0f} requests, "
              f"{figures['errors']:.0f} errors; service CPU {cpu_ms:.2f} ms/request "
              f"(one core's ceiling ≈ {1000 / cpu_ms:.0f} req/s)")
        _wrk_plans(url, folder)
        paced = asyncio.run(_paced(url, "/v1/plans", bodies, {"Authorization": f"Bearer {TOKEN}"}, rate=PACED_RATE))
        print(f"POST /v1/plans offered at {PACED_RATE:g} req/s (open loop, ≤ {CLIENTS} in flight): "
              f"p50 {paced['p50_ms']:.1f} ms, "
              f"p99 {paced['p99_ms']:.1f} ms [{_ratio(paced['p99_ms'], PLANS_P99_TARGET_MS, lower_is_better=True)}]")
        rss = _rss_mb(pid)
        print(f"service resident memory after the plans runs: {rss:.0f} MB [{_ratio(rss, 250, lower_is_better=True)}]")


WRK_SCRIPT = """wrk.method = "POST"
wrk.body = '{"text": "fine-tune 7B by Friday"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer %s"
"""


def _wrk_plans(url: str, folder: str) -> None:
    """The same 16 connections from wrk, when installed: a C client whose own scheduling adds no tail, so p99 shows
    the service's (the asyncio client above costs about as much CPU per request as the service does)."""
    wrk = shutil.which("wrk")
    if wrk is None:
        print("POST /v1/plans with wrk: skipped, wrk is not installed (apt-get install wrk)")
        return
    script = os.path.join(folder, "plans.lua")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(WRK_SCRIPT % TOKEN)
    out = subprocess.run([wrk, "-t1", f"-c{CLIENTS}", f"-d{DURATION_SECONDS:g}s", "--latency", "-s", script,
                          f"{url}/v1/plans"], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50, p99 = (_wrk_ms(re.search(rf"^\s*{q}%\s+(\S+)", out, re.MULTILINE).group(1)) for q in (50, 99))  # type: ignore[union-attr]
    print(f"POST /v1/plans with wrk ({CLIENTS} connections, 1 thread): {rps:.0f} req/s "
          f"[{_ratio(rps, PLANS_RPS_TARGET)}], p50 {p50:.1f} ms, p99 {p99:.1f} ms "
          f"[{_ratio(p99, PLANS_P99_TARGET_MS, lower_is_better=True)}]")


def _wrk_ms(figure: str) -> float:
    """wrk's '812.00us', '3.41ms' or '1.20s' in milliseconds."""
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", figure).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def _bench_requests(folder: str) -> None:
    import sqlalchemy as sa

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    except sa.exc.OperationalError as exc:
        print(f"POST /v1/requests on Postgres: skipped, Postgres not reachable ({type(exc).__name__})")
        return
    try:
        with _service(f"{POSTGRES_URL}?options=-csearch_path%3D{schema}", folder) as (url, pid):
            bodies: list[dict[str, object]] = [{"text": t, "requester": f"slack:TB:U{i}"} for i, t in
                                               enumerate(TEXTS)]
            cpu = _cpu_seconds(pid)
            figures = asyncio.run(_load(url, "/v1/requests", bodies, {"Authorization": f"Bearer {TOKEN}"}))
            cpu_ms = (_cpu_seconds(pid) - cpu) * 1000 / (figures["rps"] * (DURATION_SECONDS + WARMUP_SECONDS))
            print(f"POST /v1/requests (Postgres, 1 worker, {CLIENTS} clients): {figures['rps']:.0f} req/s "
                  f"[{_ratio(figures['rps'], 150)}], p50 {figures['p50_ms']:.1f} ms, p99 "
                  f"{figures['p99_ms']:.1f} ms, {figures['n']:.0f} requests, {figures['errors']:.0f} errors; "
                  f"service CPU {cpu_ms:.2f} ms/request")
            rss = _rss_mb(pid)
            print(f"service resident memory after the requests run: {rss:.0f} MB "
                  f"[{_ratio(rss, 250, lower_is_better=True)}]")
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        admin.dispose()


def run() -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (the load generator runs here too)")
    with tempfile.TemporaryDirectory(prefix="gpuops-bench-") as folder:
        _bench_plans(folder)
        _bench_requests(folder)


if __name__ == "__main__":
    run()
