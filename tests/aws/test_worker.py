"""The worker process: its /healthz and /metrics endpoint, the launch-failure metric, and the run loop."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
from prometheus_client import REGISTRY
from sqlalchemy.engine import Engine
from sqlmodel import select

from service.aws.clients import get_metrics
from service.aws.health import serve_health
from service.launch.outbox import MAX_ATTEMPTS
from service.launch.worker import run_worker
from service.settings import Settings
from service.store.db import new_session
from service.store.tables import AuditEvent
from tests.aws.fakeaws import AwsFault, FakeAws
from tests.aws.launchkit import FakeSageMaker, launch_policy, migrated_engine, new_request
from tests.aws.test_launch import _ctx, _state


def test_health_and_metrics_are_served(sqlite_url: str) -> None:
    engine = migrated_engine(sqlite_url)
    server = serve_health(host="127.0.0.1", port=0, engine=engine)
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        assert httpx.get(f"{base}/healthz").json() == {"status": "ok"}
        get_metrics()
        assert "# TYPE gpuops_costexplorer_dollars_total counter" in httpx.get(f"{base}/metrics").text
        assert httpx.get(f"{base}/nope").status_code == 404
    finally:
        server.shutdown()
        server.server_close()


def test_a_rejected_launch_is_counted_by_platform_and_reason(sqlite_url: str, fake_aws: FakeAws) -> None:
    def refuse(body: dict[str, object]) -> dict[str, object]:
        raise AwsFault("ResourceLimitExceeded", "limit is 0")

    engine: Engine = migrated_engine(sqlite_url)
    FakeSageMaker(fake_aws).install()
    fake_aws.on("CreateTrainingJob", refuse)
    policy = launch_policy()
    new_request(engine=engine, policy=policy)
    labels = {"platform": "sagemaker", "reason": "rejected"}
    before = REGISTRY.get_sample_value("gpuops_launch_failures_total", labels) or 0.0
    from service.launch.worker import drain

    drain(ctx=_ctx(engine, policy, url=fake_aws.url))
    assert REGISTRY.get_sample_value("gpuops_launch_failures_total", labels) == before + 1


def test_run_worker_launches_until_stopped(sqlite_url: str, fake_aws: FakeAws) -> None:
    engine = migrated_engine(sqlite_url)
    sagemaker = FakeSageMaker(fake_aws).install()
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    stop = threading.Event()
    ctx = _ctx(engine, policy, url=fake_aws.url)
    worker = threading.Thread(target=run_worker, kwargs={"settings": Settings(), "stop_event": stop,
                                                         "poll_seconds": 0.05, "ctx": ctx})
    worker.start()
    try:
        for _ in range(200):
            if _state(engine, request_id)[0] == "running":
                break
            stop.wait(0.05)
    finally:
        stop.set()
        worker.join(10)
    assert not worker.is_alive()
    assert _state(engine, request_id)[0] == "running" and sagemaker.creates() == 1


def test_a_long_running_worker_plans_with_a_snapshot_refreshed_after_it_started(tmp_path: Path) -> None:
    from policy.catalog import load_catalog
    from service.launch.worker import _with_newer_catalog, build_worker_context
    from service.planning import catalog_stamp

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'w.db'}", catalog_dir=str(tmp_path / "catalog"))
    ctx = build_worker_context(settings=settings)
    seen = catalog_stamp(settings)
    assert _with_newer_catalog(ctx, settings=settings, seen=seen) == (ctx, seen)
    (tmp_path / "catalog").mkdir()
    refreshed = load_catalog().model_copy(update={"snapshot": "2026-12-01+refresh"})
    (tmp_path / "catalog" / "current.json").write_text(refreshed.model_dump_json())
    newer, stamp = _with_newer_catalog(ctx, settings=settings, seen=seen)
    assert newer.catalog.snapshot == "2026-12-01+refresh" and ctx.catalog.snapshot != "2026-12-01+refresh"
    assert _with_newer_catalog(newer, settings=settings, seen=stamp)[0] is newer
    ctx.engine.dispose()


def test_an_unexpected_answer_fails_the_launch_after_its_attempts_and_the_worker_keeps_running(
        sqlite_url: str, fake_aws: FakeAws) -> None:
    engine = migrated_engine(sqlite_url)
    FakeSageMaker(fake_aws).install()
    fake_aws.on("CreateTrainingJob", lambda body: {})  # no TrainingJobArn
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    stop = threading.Event()
    ctx = _ctx(engine, policy, url=fake_aws.url, lease=0)
    worker = threading.Thread(target=run_worker, kwargs={"settings": Settings(), "stop_event": stop,
                                                         "poll_seconds": 0.05, "ctx": ctx})
    worker.start()
    try:
        for _ in range(200):
            if _state(engine, request_id)[0] == "failed":
                break
            stop.wait(0.05)
        assert worker.is_alive()
    finally:
        stop.set()
        worker.join(10)
    status, events, tasks = _state(engine, request_id)
    assert (status, events[-1], tasks[0].status) == ("failed", "launch.failed", "failed")
    assert len(fake_aws.calls("CreateTrainingJob")) == MAX_ATTEMPTS
    with new_session(engine) as session:
        failed = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id,
                                                       AuditEvent.type == "launch.failed")).one()
    assert failed.data["error"] == (f"gave up after {MAX_ATTEMPTS} attempts: unexpected KeyError while launching "
                                    "(details in the worker log)")


def test_the_worker_reminds_once_per_due_reminder_across_a_restart(sqlite_url: str) -> None:
    """Reminders are the worker's scheduled work: a worker started again after one has reminded (a new context, a
    new session, the same migrated database) sends the next one only when it falls due."""
    from dataclasses import replace
    from datetime import timedelta

    from policy.config import ApprovalReminders
    from service.launch.worker import remind_once
    from tests.service.factories import NOW, add_request

    engine = migrated_engine(sqlite_url)
    base = launch_policy()
    policy = base.model_copy(update={"approval_reminders": ApprovalReminders(after_hours=[2, 6])})
    with new_session(engine) as session:
        request_id = add_request(session, now=NOW).id

    def worker_at(hours: float) -> int:
        ctx = replace(_ctx(engine, policy), clock=lambda: NOW + timedelta(hours=hours))
        return remind_once(ctx=ctx)

    assert [worker_at(h) for h in (1, 2, 2.5, 2.5, 6, 7)] == [0, 1, 0, 0, 1, 0]
    with new_session(engine) as session:
        sent = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id,
                                                     AuditEvent.type == "request.reminder")).all()
    assert [e.data["reminder"] for e in sent] == [1, 2]
