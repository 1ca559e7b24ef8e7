"""Faults found by ``make chaos``, pinned as tests: a Slack delivery repeated while the first is still being
handled (on the same bot process or on another replica), and the worker losing its database connections."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.harness import (
    Processes,
    base_env,
    free_port,
    fresh_database,
    migrate,
    psycopg_dsn,
    wait_until,
    worker_argv,
    write_policy_file,
)
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

REQUEST = "fine-tune 13B on 5B tokens by next Friday"


@pytest.fixture
def bot_on_a_slow_service() -> Iterator[tuple[BotHarness, FakeSlack]]:
    slack, service = FakeSlack().start(), FakeService().start()
    service.delay = 0.3  # the first delivery is still waiting for its request when the repeat arrives
    bot = BotHarness(slack_api_url=slack.api_url, service_url=service.url, service_token=TOKEN,
                     response_url=slack.response_url(), timeout=5).start()
    try:
        yield bot, slack
    finally:
        bot.stop()
        service.stop()
        slack.stop()


def test_a_slash_command_delivered_twice_at_once_posts_one_plan(
    bot_on_a_slow_service: tuple[BotHarness, FakeSlack],
) -> None:
    bot, slack = bot_on_a_slow_service
    body = bot.command_body(REQUEST, user="U0ASKER", trigger_id="trigger.repeated")
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def deliver(retry: int | None) -> None:
        barrier.wait()
        headers = {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"} if retry else None
        statuses.append(bot.post(body, "application/x-www-form-urlencoded", headers=headers).status_code)

    threads = [threading.Thread(target=deliver, args=(retry,)) for retry in (None, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    slack.wait_for("chat.postMessage", timeout=10)
    bot.drain()  # both lazy listeners have had their answer from the service
    assert statuses == [200, 200]
    plans = [c for c in slack.of("chat.postMessage") if REQUEST in str(c.blocks)]
    assert len(plans) == 1, f"{len(plans)} plan messages for one command"


def test_an_event_retried_at_another_bot_replica_posts_one_plan() -> None:
    slack, service = FakeSlack().start(), FakeService().start()
    service.delay = 0.3
    replicas = [BotHarness(slack_api_url=slack.api_url, service_url=service.url, service_token=TOKEN,
                           response_url=slack.response_url(), timeout=5).start() for _ in range(2)]
    try:
        event = {"type": "app_mention", "user": "U0ASKER", "text": f"<@UBOT> {REQUEST}", "channel": "C0PLANS",
                 "ts": "1764518400.000100", "team": "T0GPUOPS"}
        assert replicas[0].event(event, event_id="Ev0REPEATED").status_code == 200
        # Slack's retry reaches the other replica while the first is still asking the service (delayed above).
        assert wait_until(lambda: ("POST", "/v1/requests") in service.arrived, timeout=5)
        assert replicas[1].event(event, event_id="Ev0REPEATED", retry=1).status_code == 200
        for bot in replicas:
            bot.drain()
        plans = [c for c in slack.of("chat.postMessage") if REQUEST in str(c.blocks)]
        assert len(plans) == 1, f"{len(plans)} plan messages for one event"
    finally:
        for bot in replicas:
            bot.stop()
        service.stop()
        slack.stop()


def test_the_worker_outlives_a_database_restart(postgres_url: str, tmp_path: Path) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    with fresh_database(postgres_url) as url, Processes(tmp_path) as procs:
        env = base_env(DATABASE_URL=url, GPUOPS_POLICY=write_policy_file(tmp_path), GPUOPS_LAUNCH="dry-run")
        migrate(procs, env)
        port = free_port()
        worker = procs.spawn("worker", worker_argv(port, poll=0.1), env,
                             health_url=f"http://127.0.0.1:{port}/healthz")
        database = make_url(url).database

        def backends() -> set[int]:
            with psycopg.connect(psycopg_dsn(postgres_url), autocommit=True) as admin:
                rows = admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s "
                                     "AND pid <> pg_backend_pid()", (database,)).fetchall()
            return {pid for (pid,) in rows}

        assert wait_until(lambda: bool(backends()), timeout=10), "the worker never connected"
        cut = backends()
        with psycopg.connect(psycopg_dsn(postgres_url), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                          "AND pid <> pg_backend_pid()", (database,))
        reconnected = wait_until(lambda: bool(backends() - cut), timeout=10)
        assert reconnected and worker.alive, f"the worker did not outlive the cut:\n{worker.log_tail(8)}"
