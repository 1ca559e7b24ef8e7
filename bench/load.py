"""Load on loopback: ``POST /v1/plans`` to the service and signed ``/gpu`` slash commands to the bot, at rising
concurrency (1, 2, 4, 8, …) until p99 passes 200 ms; the knee of each endpoint, with one service process and with
two (uvicorn's ``--workers 2`` on the service's app factory: ``gpuops service`` runs one process only).

Also: cold start of every process (spawn → healthy) and resident memory of each after the load. The service runs on
a fresh Postgres database with the shared Redis, sample spend and dry-run launches; the fake Slack Web API runs in
its own process so its work does not share the load generator's interpreter. The whole run takes about three
minutes and prints figures; it never fails on timing. ``python -m bench.load``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.harness import (
    ADMIN_TOKEN,
    HOST,
    POSTGRES_URL,
    REDIS_HOST,
    REDIS_PORT,
    Proc,
    Processes,
    SlackRequests,
    base_env,
    bot_argv,
    bot_env,
    free_port,
    fresh_database,
    migrate,
    percentile,
    reachable,
    run_folder,
    service_argv,
    service_env,
    table,
    wait_until,
    worker_argv,
    write_policy_file,
)

DEFAULT = False  # three minutes and a Postgres: only ``make load`` runs it
P99_LIMIT = 0.200
LEVELS = (1, 2, 4, 8, 16, 32, 64, 128, 256)
WARMUP_SECONDS = 0.5
LEVEL_SECONDS = 3.0
PAUSE_SECONDS = 1.5
RAMP_BUDGET_SECONDS = 36.0  # per endpoint and configuration
REDIS_DB = 11
TEXTS = ("fine-tune 7B by Friday", "lora 13B on 2B tokens", "pretrain 1.5B on 30B tokens", "qlora 70B",
         "fine-tune 8B production spot ok", "sweep of 20 trials on 350M")

Request = tuple[str, bytes, dict[str, str]]  # path, body, headers


@dataclass
class Level:
    concurrency: int
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = LEVEL_SECONDS

    @property
    def p50(self) -> float:
        return percentile(self.latencies, 50)

    @property
    def p99(self) -> float:
        return percentile(self.latencies, 99)

    @property
    def rps(self) -> float:
        return len(self.latencies) / self.seconds

    @property
    def over(self) -> bool:
        return not self.latencies or self.p99 > P99_LIMIT or self.errors > 0.05 * max(1, len(self.latencies))


@dataclass
class Ramp:
    endpoint: str
    config: str
    levels: list[Level] = field(default_factory=list)

    @property
    def knee(self) -> Level | None:
        """The highest concurrency whose p99 stayed within the limit (levels run in rising order)."""
        within = [lv for lv in self.levels if not lv.over]
        return within[-1] if within else None

    def summary(self) -> str:
        knee = self.knee
        past = next((lv for lv in self.levels if lv.over), None)
        head = (f"{self.endpoint} [{self.config}]: knee at {knee.concurrency} concurrent, {knee.rps:.0f} req/s, "
                f"p50 {knee.p50 * 1000:.1f} ms, p99 {knee.p99 * 1000:.1f} ms" if knee else
                f"{self.endpoint} [{self.config}]: p99 over {P99_LIMIT * 1000:.0f} ms even at 1 concurrent")
        if past is not None:
            head += f"; at {past.concurrency}: p99 {past.p99 * 1000:.0f} ms, {past.rps:.0f} req/s, {past.errors} errors"
        else:
            head += f"; p99 never passed {P99_LIMIT * 1000:.0f} ms up to {self.levels[-1].concurrency}"
        return head


async def _level(base_url: str, make: Callable[[int], Request], concurrency: int) -> Level:
    """``concurrency`` clients in a closed loop for the level's duration; latencies counted after a warm-up."""
    level = Level(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    start = time.perf_counter()
    measure_from, stop_at = start + WARMUP_SECONDS, start + WARMUP_SECONDS + LEVEL_SECONDS

    async def client(index: int, http: httpx.AsyncClient) -> None:
        n = index
        while (sent := time.perf_counter()) < stop_at:
            path, body, headers = make(n)
            n += concurrency
            try:
                answer = await http.post(path, content=body, headers=headers)
                failed = answer.status_code >= 400
            except httpx.HTTPError:
                failed = True
            if sent >= measure_from:
                level.latencies.append(time.perf_counter() - sent)
                level.errors += failed

    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=10) as http:
        await asyncio.gather(*(client(i, http) for i in range(concurrency)))
    return level


def ramp(base_url: str, make: Callable[[int], Request], *, endpoint: str, config: str) -> Ramp:
    """Rising concurrency until p99 passes the limit (or the levels or the time budget run out)."""
    result = Ramp(endpoint, config)
    began = time.monotonic()
    for concurrency in LEVELS:
        level = asyncio.run(_level(base_url, make, concurrency))
        result.levels.append(level)
        if level.over or time.monotonic() - began > RAMP_BUDGET_SECONDS:
            break
        time.sleep(PAUSE_SECONDS)  # work queued behind the acks (lazy listeners) drains before the next level
    return result


def plan_request(n: int) -> Request:
    body = f'{{"text": "{TEXTS[n % len(TEXTS)]}", "team": "team-ml"}}'.encode()
    return "/v1/plans", body, {"Authorization": f"Bearer {ADMIN_TOKEN}", "Content-Type": "application/json"}


def command_request(signed: SlackRequests, tag: str) -> Callable[[int], Request]:
    def make(n: int) -> Request:
        body, headers = signed.command(f"{TEXTS[n % len(TEXTS)]} load{tag}{n}", user=f"U0LOAD{n % 50:02d}")
        return "/slack/events", body.encode(), headers

    return make


@contextlib.contextmanager
def fake_slack_process(procs: Processes) -> Iterator[str]:
    """The test suite's fake Slack Web API in a child process (at most 15 minutes); yields its API base URL."""
    script = ("import time\nfrom tests.bot.fake_slack import FakeSlack\n"
              "print(FakeSlack().start().api_url, flush=True)\ntime.sleep(900)\n")
    proc = procs.spawn("fake-slack", [sys.executable, "-c", script], base_env(), wait=False)
    try:
        found: list[str] = []

        def announced() -> bool:
            found[:] = [line for line in proc.log_tail(5).splitlines() if line.startswith("http://")]
            return bool(found)

        if not wait_until(announced, timeout=20, interval=0.05):
            raise RuntimeError(f"the fake Slack did not start:\n{proc.log_tail()}")
        yield found[0]
    finally:
        proc.stop()


@dataclass
class Figures:
    ramps: list[Ramp] = field(default_factory=list)
    cold: dict[str, float] = field(default_factory=dict)
    rss: dict[str, str] = field(default_factory=dict)


def _rss(proc: Proc) -> str:
    sizes = proc.rss_mb()
    if len(sizes) == 1:
        return f"{sizes[0]:.0f} MiB"
    return f"{sum(sizes):.0f} MiB in {len(sizes)} processes (" + " + ".join(f"{s:.0f}" for s in sizes) + ")"


def one_configuration(procs: Processes, figures: Figures, *, workers: int, env: dict[str, str],
                      slack_api_url: str) -> None:
    port, bot_port = free_port(), free_port()
    url = f"http://{HOST}:{port}"
    label = "gpuops service, 1 process" if workers == 1 else f"gpuops service --workers {workers}"
    argv = service_argv(port, workers)
    service = procs.spawn(f"service-{workers}w", argv, env, health_url=f"{url}/healthz")
    figures.cold[label] = service.cold_start or float("nan")
    bot = procs.spawn(f"bot-{workers}w", bot_argv(bot_port), bot_env(service_url=url, slack_api_url=slack_api_url,
                                                                      feed=False, digest=False),
                      health_url=f"http://{HOST}:{bot_port}/healthz")
    figures.cold[f"gpuops bot (service: {label})"] = bot.cold_start or float("nan")
    try:
        for _ in range(20):  # warm the service's caches and pools before the ramp
            httpx.post(f"{url}/v1/plans", content=plan_request(0)[1], headers=plan_request(0)[2], timeout=10)
        figures.ramps.append(ramp(url, plan_request, endpoint="POST /v1/plans", config=label))
        signed = SlackRequests(response_url=slack_api_url.replace("/api/", "/response/load"))
        figures.ramps.append(ramp(f"http://{HOST}:{bot_port}", command_request(signed, str(workers)),
                                  endpoint="/gpu slash command (ack)", config=f"bot → {label}"))
        time.sleep(1)  # the lazy listeners finish their plans before memory is read
        figures.rss[label] = _rss(service)
        figures.rss[f"gpuops bot (after {label})"] = _rss(bot)
    finally:
        bot.stop()
        service.stop()


def main() -> int:
    missing = [n for n, p in (("PostgreSQL", 5432), ("Redis", REDIS_PORT)) if not reachable(HOST, p)]
    if missing:
        print(f"load needs {' and '.join(missing)} on 127.0.0.1; not reachable")
        return 2
    started = time.perf_counter()
    figures = Figures()
    with run_folder("load") as folder, fresh_database(POSTGRES_URL) as database_url, Processes(folder) as procs:
        env = service_env(database_url=database_url, redis_url=f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}",
                          policy_file=write_policy_file(Path(folder)), aws={}, spend="sample", launch="dry-run")
        migrate(procs, env)
        worker_port = free_port()
        worker = procs.spawn("worker", worker_argv(worker_port, poll=1.0), env,
                             health_url=f"http://{HOST}:{worker_port}/healthz")
        figures.cold["gpuops worker"] = worker.cold_start or float("nan")
        with fake_slack_process(procs) as slack_api_url:
            for workers in (1, 2):
                one_configuration(procs, figures, workers=workers, env=env, slack_api_url=slack_api_url)
        figures.rss["gpuops worker (dry-run launches of every command's request)"] = _rss(worker)
    print_figures(figures, time.perf_counter() - started)
    return 0


def print_figures(figures: Figures, elapsed: float) -> None:
    rows = [(r.endpoint, r.config, lv.concurrency, f"{lv.rps:.0f}", f"{lv.p50 * 1000:.1f}", f"{lv.p99 * 1000:.1f}",
             lv.errors, "over" if lv.over else "") for r in figures.ramps for lv in r.levels]
    print(table(("endpoint", "configuration", "concurrency", "req/s", "p50 ms", "p99 ms", "errors",
                 f"p99 > {P99_LIMIT * 1000:.0f} ms"), rows))
    print()
    print("knees (highest concurrency with p99 ≤ 200 ms):")
    for r in figures.ramps:
        print(f"  {r.summary()}")
    print()
    print("cold start (spawn → healthy):")
    for name, seconds in figures.cold.items():
        print(f"  {name}: {seconds:.2f} s")
    print("resident memory after the load:")
    for name, rss in figures.rss.items():
        print(f"  {name}: {rss}")
    print(f"(load generator and servers share this machine's cores; run took {elapsed:.0f} s)")


def run() -> None:
    main()


if __name__ == "__main__":
    sys.exit(main())
