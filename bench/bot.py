"""Slack bot figures: slash-command acknowledgement latency at 20 concurrent requests over loopback HTTP, time from
command to the plan message at the (fake) Slack Web API, and digest render time including the chart.

The bot is the real Bolt app behind uvicorn with signed requests; Slack is the test suite's fake on 127.0.0.1.
The service is the real one on SQLite with the sample spend when it is importable, else the test suite's fake.
Prints figures; never fails on timing.
"""

from __future__ import annotations

import contextlib
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime

from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

CONCURRENCY = 20
ROUNDS = 10
BOT_TOKEN = "bench-bot-token-0123456789"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


@contextlib.contextmanager
def fake_service() -> Iterator[tuple[str, str, str]]:
    fake = FakeService().start()
    try:
        yield fake.url, TOKEN, "fake service"
    finally:
        fake.stop()


@contextlib.contextmanager
def real_service() -> Iterator[tuple[str, str, str]]:
    from service.api.app import create_app
    from service.api.state import build_state
    from service.settings import Settings
    from service.store.migrate import upgrade
    from tests.service.live import serve

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        upgrade(url)
        state = build_state(Settings(database_url=url, api_tokens=f"bot:{BOT_TOKEN}", spend="sample"))
        try:
            with serve(create_app(state=state)) as base:
                yield base, BOT_TOKEN, "real service (SQLite, sample spend)"
        finally:
            state.engine.dispose()


def command_round(bot: BotHarness, slack: FakeSlack, round_no: int) -> tuple[list[float], list[float]]:
    """20 commands at once: (ack latencies, command-to-plan latencies) in seconds."""
    before = len(slack.of("chat.postMessage"))
    sent: dict[str, float] = {}
    acks: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(CONCURRENCY)

    def one(i: int) -> None:
        text = f"fine-tune 7B by Friday run{round_no}x{i}"
        body = bot.command_body(text, user=f"U0BENCH{i}")
        barrier.wait()
        started = time.perf_counter()
        bot.post(body, "application/x-www-form-urlencoded")
        with lock:
            acks.append(time.perf_counter() - started)
            sent[text] = started

    threads = [threading.Thread(target=one, args=(i,)) for i in range(CONCURRENCY)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    posts = slack.wait_for("chat.postMessage", count=before + CONCURRENCY, timeout=60)
    plans = []
    for post in posts:
        head = post.blocks[0]["text"]["text"] if post.blocks else ""
        for text, started in sent.items():
            if f"_{text}_" in head:
                plans.append(post.at - started)
    return acks, plans


def bench_commands(service: contextlib.AbstractContextManager[tuple[str, str, str]]) -> None:
    slack = FakeSlack().start()
    try:
        with service as (url, token, label):
            bot = BotHarness(slack_api_url=slack.api_url, service_url=url, service_token=token,
                             response_url=slack.response_url(), timeout=10).start()
            try:
                command_round(bot, slack, 0)  # warm-up: imports, connection pools, auth.test
                acks: list[float] = []
                plans: list[float] = []
                for round_no in range(1, ROUNDS + 1):
                    a, p = command_round(bot, slack, round_no)
                    acks += a
                    plans += p
            finally:
                bot.stop()
    finally:
        slack.stop()
    print(f"  [{label}] {len(acks)} commands, {CONCURRENCY} at a time")
    print(f"    ack latency        p50 {pct(acks, 50) * 1000:7.1f} ms   p99 {pct(acks, 99) * 1000:7.1f} ms"
          f"   (target p99 <= 200 ms; Slack allows 3000 ms)")
    print(f"    command -> plan    p50 {pct(plans, 50) * 1000:7.1f} ms   p95 {pct(plans, 95) * 1000:7.1f} ms"
          f"   (target p95 <= 1500 ms)")


def bench_digest() -> None:
    from bot.chart import render_spend_chart
    from bot.client import ServiceClient
    from bot.digest import build_digest
    from tests.bot.factories import make_request, make_spend

    fake = FakeService().start()
    for i in range(5):
        fake.requests[f"req_{i}"] = make_request(request_id=f"req_{i}", status="running",
                                                 job={"name": f"job-{i}", "status": "InProgress",
                                                      "training_seconds": 3600.0 * i})
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
    print(f"  digest render (gather + blocks + chart) median {statistics.median(totals) * 1000:6.1f} ms"
          f"   p95 {pct(totals, 95) * 1000:6.1f} ms   ({len(digest.blocks)} blocks, PNG {len(digest.png) // 1024} KiB)")
    print(f"  chart alone                             median {statistics.median(charts) * 1000:6.1f} ms")


def run() -> None:
    bench_commands(fake_service())
    try:
        import service.api.app  # noqa: F401 - only to know whether the real service is there
    except ImportError:
        print("  (the service package is not importable; skipped the real-service run)")
    else:
        bench_commands(real_service())
    bench_digest()
