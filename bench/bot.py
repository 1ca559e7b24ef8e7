"""Slack bot figures: slash-command acknowledgement latency at 20 concurrent requests over loopback HTTP, time from
command to the plan message at the (fake) Slack Web API, and digest render time including the chart.

Requests are signed the way Slack signs them; Slack is the test suite's fake on 127.0.0.1. Two set-ups:
- in one process: the real Bolt app behind uvicorn, the test suite's fake service;
- as deployed: `gpuops service` (SQLite, sample spend) and `gpuops bot` each in its own process, so the figures are
  not distorted by three servers sharing one interpreter lock.
Prints figures; never fails on timing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import urlencode

import httpx

from bench.harness import free_port
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import SIGNING_SECRET, BotHarness, sign

CONCURRENCY = 20
ROUNDS = 10
BOT_TOKEN = "bench-bot-token-0123456789"
GPUOPS = shutil.which("gpuops", path=os.path.dirname(sys.executable)) or "gpuops"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def command_body(text: str, *, user: str, response_url: str, trigger: str) -> str:
    return urlencode({"team_id": "T0GPUOPS", "channel_id": "C0PLANS", "user_id": user, "command": "/gpu",
                      "text": text, "api_app_id": "A0GPUOPS", "response_url": response_url, "trigger_id": trigger})


def command_round(http: httpx.Client, events_url: str, slack: FakeSlack, round_no: int
                  ) -> tuple[list[float], list[float]]:
    """20 commands at once: (ack latencies, command-to-plan latencies) in seconds."""
    before = len(slack.of("chat.postMessage"))
    sent: dict[str, float] = {}
    acks: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(CONCURRENCY)

    def one(i: int) -> None:
        text = f"fine-tune 7B by Friday run{round_no}x{i}"
        body = command_body(text, user=f"U0BENCH{i}", response_url=slack.response_url(),
                            trigger=f"bench.{round_no}.{i}")
        headers = {"Content-Type": "application/x-www-form-urlencoded", **sign(body)}
        barrier.wait()
        started = time.perf_counter()
        http.post(events_url, content=body, headers=headers)
        with lock:
            acks.append(time.perf_counter() - started)
            sent[text] = started

    threads = [threading.Thread(target=one, args=(i,)) for i in range(CONCURRENCY)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    posts = slack.wait_for("chat.postMessage", count=before + CONCURRENCY, timeout=60)[before:]
    plans = [post.at - started for post in posts for text, started in sent.items()
             if post.blocks and f"_{text}_" in post.blocks[0]["text"]["text"]]
    return acks, plans


def measure(events_url: str, slack: FakeSlack, label: str) -> None:
    with httpx.Client(timeout=30, limits=httpx.Limits(max_connections=CONCURRENCY)) as http:
        command_round(http, events_url, slack, 0)  # warm-up: imports, connection pools, auth.test, zones
        acks: list[float] = []
        plans: list[float] = []
        for round_no in range(1, ROUNDS + 1):
            a, p = command_round(http, events_url, slack, round_no)
            acks += a
            plans += p
    print(f"  [{label}] {len(acks)} commands, {CONCURRENCY} at a time")
    print(f"    ack latency        p50 {pct(acks, 50) * 1000:7.1f} ms   p99 {pct(acks, 99) * 1000:7.1f} ms"
          f"   (target p99 <= 200 ms; Slack allows 3000 ms)")
    print(f"    command -> plan    p50 {pct(plans, 50) * 1000:7.1f} ms   p95 {pct(plans, 95) * 1000:7.1f} ms"
          f"   (target p95 <= 1500 ms)")


@contextlib.contextmanager
def in_one_process(slack: FakeSlack) -> Iterator[str]:
    service = FakeService().start()
    bot = BotHarness(slack_api_url=slack.api_url, service_url=service.url, service_token=TOKEN,
                     response_url=slack.response_url(), timeout=10).start()
    try:
        yield bot.events_url
    finally:
        bot.stop()
        service.stop()


@contextlib.contextmanager
def gpuops_process(argv: list[str], env: dict[str, str], health: str) -> Iterator[None]:
    """A ``gpuops`` subprocess, from when its /healthz answers until the block ends."""
    proc = subprocess.Popen([GPUOPS, *argv], env={**os.environ, **env}, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(health, timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"gpuops {argv[0]} did not start")
            time.sleep(0.1)
        yield
    finally:
        proc.terminate()
        proc.wait(10)


@contextlib.contextmanager
def as_deployed(slack: FakeSlack) -> Iterator[str]:
    """`gpuops service` and `gpuops bot` as separate processes; yields the bot's events URL."""
    with tempfile.TemporaryDirectory() as tmp:
        service_port, bot_port = free_port(), free_port()
        service_env = {"DATABASE_URL": f"sqlite:///{tmp}/bench.db", "GPUOPS_API_TOKENS": f"bot:{BOT_TOKEN}",
                       "GPUOPS_SPEND": "sample"}
        subprocess.run([GPUOPS, "db", "upgrade"], env={**os.environ, **service_env}, check=True,
                       stdout=subprocess.DEVNULL)
        bot_env = {"SLACK_BOT_TOKEN": "xoxb-bench", "SLACK_SIGNING_SECRET": SIGNING_SECRET,
                   "SLACK_API_URL": slack.api_url, "GPUOPS_SERVICE_URL": f"http://127.0.0.1:{service_port}",
                   "GPUOPS_SERVICE_TOKEN": BOT_TOKEN, "GPUOPS_BOT_FEED": "false", "GPUOPS_BOT_DIGEST": "false",
                   "GPUOPS_BOT_SERVICE_TIMEOUT": "10"}
        service = ["service", "--host", "127.0.0.1", "--port", str(service_port)]
        bot = ["bot", "--host", "127.0.0.1", "--port", str(bot_port)]
        with gpuops_process(service, service_env, f"http://127.0.0.1:{service_port}/healthz"), \
                gpuops_process(bot, bot_env, f"http://127.0.0.1:{bot_port}/healthz"):
            yield f"http://127.0.0.1:{bot_port}/slack/events"


def bench_commands() -> None:
    setups = [("bot + fake service, one process", in_one_process)]
    try:
        import service.api.app  # noqa: F401 - only to know whether the real service is there
    except ImportError:
        print("  (the service package is not importable; skipped the deployed set-up)")
    else:
        setups.append(("gpuops bot + gpuops service (SQLite, sample spend), separate processes", as_deployed))
    for label, setup in setups:
        slack = FakeSlack().start()
        try:
            with setup(slack) as events_url:
                measure(events_url, slack, label)
        finally:
            slack.stop()


def bench_digest() -> None:
    from bot.chart import render_spend_chart
    from bot.client import ServiceClient
    from bot.digest import build_digest
    from tests.bot.factories import make_job, make_request, make_spend

    fake = FakeService().start()
    for i in range(5):
        fake.requests[f"req_{i}"] = make_request(request_id=f"req_{i}", status="running",
                                                 job=make_job(name=f"job-{i}", status="InProgress",
                                                              training_seconds=3600 * i, billable_seconds=None,
                                                              actual_cost_usd=None))
    client = ServiceClient(base_url=fake.url, token=TOKEN, timeout=10)
    now = datetime(2026, 11, 30, 16, 0, tzinfo=UTC)
    try:
        build_digest(client, team="team-ml", now=now)  # warm-up: matplotlib's font cache
        totals, charts = [], []
        for _ in range(20):
            started = time.perf_counter()
            digest = build_digest(client, team="team-ml", now=now)
            totals.append(time.perf_counter() - started)
            started = time.perf_counter()
            render_spend_chart(make_spend(), now=now)
            charts.append(time.perf_counter() - started)
    finally:
        client.close()
        fake.stop()
    png_kib = len(digest.png or b"") // 1024
    print(f"  digest render (gather + blocks + chart) median {statistics.median(totals) * 1000:6.1f} ms"
          f"   p95 {pct(totals, 95) * 1000:6.1f} ms   ({len(digest.blocks)} blocks, PNG {png_kib} KiB)")
    print(f"  chart alone                             median {statistics.median(charts) * 1000:6.1f} ms")


def run() -> None:
    bench_commands()
    bench_digest()
