"""The worker: launches queued tasks and tracks running jobs until told to stop.

``gpuops worker`` runs it alone; ``gpuops dev`` (and any in-process host) calls ``run_worker`` in a thread with a
``threading.Event`` to stop it.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

from contract.errors import UpstreamError
from policy.catalog import Catalog
from policy.config import PolicyConfig
from service.alerts.rounds import run_alerts
from service.audit.anchors import AnchorLocation, publish_anchor
from service.audit.keys import bind_keyring, keyring_from_settings
from service.aws.clients import ClientFactory
from service.aws.savingsplans import SavingsPlanRecommendation, fetch_sagemaker_recommendation
from service.cache import make_cache
from service.capacity.actions import track_open_actions
from service.clock import utcnow
from service.jobs.outcomes import CachedCalibration, record_outcomes
from service.jobs.tracker import track_jobs
from service.jobs.utilisation import IdleRule, check_utilisation
from service.launch.outbox import (
    DEFAULT_LEASE_SECONDS,
    begin_launch,
    claim_next_task,
    record_launch,
    release_for_retry,
    renew_lease,
)
from service.launch.protocol import LeaseLost
from service.launch.registry import LaunchEnvironment, execute_launch
from service.planning import Planner, catalog_stamp, make_planner, newer_catalog
from service.requests.reminders import send_due_reminders
from service.settings import Settings
from service.spend.providers import SpendProvider, make_spend_provider, spend_mode
from service.store.db import make_engine, new_session

log = logging.getLogger("gpuops.worker")
MAX_DB_BACKOFF_SECONDS = 30.0


@dataclass(frozen=True)
class WorkerContext:
    engine: Engine
    planner: Planner  # the catalog, spend and policy a plan is re-decided with before launch
    env: LaunchEnvironment
    worker_id: str
    lease_seconds: float = DEFAULT_LEASE_SECONDS
    clock: Callable[[], datetime] = utcnow
    anchor: AnchorLocation | None = None  # where the audit chain's head is published (GPUOPS_AUDIT_ANCHOR)
    anchor_retain_days: int = 365
    cost_explorer: bool = False  # spend comes from Cost Explorer: the worker also asks it for commitment advice
    idle: IdleRule | None = None  # when to call a live job's GPUs idle; None: utilisation is not read
    calibration: CachedCalibration | None = None  # the planner's calibration, read again after jobs finish

    @property
    def policy(self) -> PolicyConfig:
        return self.planner.policy

    @property
    def catalog(self) -> Catalog:
        return self.planner.catalog


def new_worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


def build_worker_context(*, settings: Settings, engine: Engine | None = None, factory: ClientFactory | None = None,
                         lease_seconds: float | None = None, spend: SpendProvider | None = None) -> WorkerContext:
    """Everything the worker needs, from the service settings (pieces may be passed in by tests).

    The planner is built as the API builds its own (same policy, catalog snapshot and spend source), so the plan
    re-decided before launch is the plan the API would decide now.
    """
    engine = bind_keyring(engine or make_engine(settings.database_url), keyring_from_settings(settings))
    cache = make_cache(settings)
    if spend is None:
        spend = make_spend_provider(settings, cache=cache, engine=engine)
    calibration = CachedCalibration(engine=engine, prior_jobs=settings.calibration_prior_jobs,
                                    ttl_seconds=settings.calibration_cache_seconds)
    planner = make_planner(settings, spend=spend, calibration=calibration, cache=cache)
    env = LaunchEnvironment(mode=settings.launch, factory=factory or ClientFactory.from_settings(settings),
                            policy=planner.policy, kubeconfig=settings.kubeconfig)
    lease = settings.launch_lease_seconds if lease_seconds is None else lease_seconds
    anchor = AnchorLocation.parse(settings.audit_anchor) if settings.audit_anchor else None
    return WorkerContext(engine=engine, planner=planner, env=env, worker_id=new_worker_id(), lease_seconds=lease,
                         anchor=anchor, anchor_retain_days=settings.audit_anchor_retain_days,
                         cost_explorer=spend_mode(settings) == "costexplorer",
                         idle=IdleRule.from_settings(settings), calibration=calibration)


def launch_once(*, ctx: WorkerContext) -> bool:
    """Claim and run one launch task; False when none was waiting."""
    task = claim_next_task(engine=ctx.engine, worker_id=ctx.worker_id, now=ctx.clock(),
                           lease_seconds=ctx.lease_seconds)
    if task is None:
        return False
    job = begin_launch(engine=ctx.engine, task=task, planner=ctx.planner.settled(), now=ctx.clock())
    if job is None:
        return True
    try:
        outcome = execute_launch(spec=job.spec, env=ctx.env, guard=lambda: renew_lease(
            engine=ctx.engine, task=task, worker_id=ctx.worker_id, now=ctx.clock()))
    except LeaseLost:
        log.warning("claim lost to another worker; leaving the task to it", extra={"task": task.task_id})
        return True
    except UpstreamError as exc:
        log.warning("launch hit a transient AWS error; will retry", extra={"task": task.task_id, "error": str(exc)})
        release_for_retry(engine=ctx.engine, task=task, error=str(exc), now=ctx.clock())
        return True
    except Exception as exc:  # an answer or a state nobody expected: retried as above, so it fails after a few tries
        log.exception("launch failed unexpectedly; will retry", extra={"task": task.task_id})
        release_for_retry(engine=ctx.engine, task=task, now=ctx.clock(),
                          error=f"unexpected {type(exc).__name__} while launching (details in the worker log)")
        return True
    if not record_launch(engine=ctx.engine, job=job, outcome=outcome, now=ctx.clock()):
        log.warning("claim lost before the launch was recorded", extra={"task": task.task_id})
    return True


def drain(*, ctx: WorkerContext, stop_event: threading.Event | None = None) -> int:
    """Run launch tasks until none is waiting; returns how many were handled."""
    handled = 0
    while (stop_event is None or not stop_event.is_set()) and launch_once(ctx=ctx):
        handled += 1
    return handled


def track_once(*, ctx: WorkerContext) -> int:
    if ctx.env.live:  # quota requests and training plans bought for requests, their status posted as it changes
        factory = ctx.env.factory
        track_open_actions(engine=ctx.engine, client_for=lambda service, region: factory.client(service, region=region),
                           now=ctx.clock())
    try:
        polled = track_jobs(engine=ctx.engine, env=ctx.env, catalog=ctx.catalog, now=ctx.clock())
    except UpstreamError as exc:
        log.warning("job tracking skipped this round", extra={"error": str(exc)})
        return 0
    watch_once(ctx=ctx)
    return polled


def watch_once(*, ctx: WorkerContext) -> None:
    """After tracking: learn from jobs that ended, and read live jobs' GPU utilisation for idle alerts."""
    if record_outcomes(engine=ctx.engine, catalog=ctx.catalog, now=ctx.clock()) and ctx.calibration is not None:
        ctx.calibration.forget()
    if ctx.idle is not None:
        check_utilisation(engine=ctx.engine, env=ctx.env, catalog=ctx.catalog, rule=ctx.idle, now=ctx.clock())


def alerts_once(*, ctx: WorkerContext) -> int:
    """Budget warnings (and the other team alerts) after a tracking round; how many were new."""
    if not ctx.cost_explorer:
        return run_alerts(engine=ctx.engine, spend=ctx.planner.spend, policy=ctx.policy, now=ctx.clock())

    def cost_explorer() -> Any:
        return ctx.env.factory.client("ce")

    def recommend() -> SavingsPlanRecommendation:
        return fetch_sagemaker_recommendation(client=cost_explorer())

    return run_alerts(engine=ctx.engine, spend=ctx.planner.spend, policy=ctx.policy, now=ctx.clock(),
                      recommend=recommend, cost_explorer=cost_explorer)


def remind_once(*, ctx: WorkerContext) -> int:
    """Approval reminders and escalations that have fallen due (events the bot turns into direct messages)."""
    with new_session(ctx.engine) as session:
        return send_due_reminders(session=session, policy=ctx.policy, now=ctx.clock())


def anchor_once(*, ctx: WorkerContext) -> bool:
    """Publish the audit chain's head where the database cannot reach it; False when S3 did not take it."""
    if ctx.anchor is None:
        return False
    try:
        with new_session(ctx.engine) as session:
            anchor = publish_anchor(session=session, factory=ctx.env.factory, location=ctx.anchor,
                                    retain_days=ctx.anchor_retain_days, now=ctx.clock())
    except UpstreamError as exc:  # the next round tries again; verify --anchor compares with the last one stored
        log.warning("audit head not published this round", extra={"error": str(exc)})
        return False
    log.info("audit head published: event %d", anchor.seq, extra={"url": f"s3://{ctx.anchor.bucket}"})
    return True


def _with_newer_catalog(ctx: WorkerContext, *, settings: Settings,
                        seen: tuple[str | None, float]) -> tuple[WorkerContext, tuple[str | None, float]]:
    """Re-decide and price with a snapshot that ``gpuops catalog refresh`` stored since the worker started."""
    found = newer_catalog(settings, seen=seen)
    if found is None:
        return ctx, seen
    catalog, stamp = found
    log.info("catalog snapshot in force", extra={"snapshot": catalog.snapshot})
    return replace(ctx, planner=replace(ctx.planner, catalog=catalog)), stamp


def run_worker(*, settings: Settings, stop_event: threading.Event, poll_seconds: float = 2.0,
               track_every_seconds: float = 60.0, ctx: WorkerContext | None = None) -> None:
    """Launch and track (and publish the audit head) until ``stop_event`` is set."""
    ctx = ctx or build_worker_context(settings=settings)
    seen = catalog_stamp(settings)
    log.info("worker started", extra={"worker": ctx.worker_id, "launch": ctx.env.mode})
    next_track = next_anchor = 0.0
    elapsed = 0.0
    backoff = 0.0
    while not stop_event.is_set():
        try:
            drain(ctx=ctx, stop_event=stop_event)
            remind_once(ctx=ctx)
            if elapsed >= next_track:
                ctx, seen = _with_newer_catalog(ctx, settings=settings, seen=seen)
                track_once(ctx=ctx)
                alerts_once(ctx=ctx)
                next_track = elapsed + track_every_seconds
            if ctx.anchor is not None and elapsed >= next_anchor:
                anchor_once(ctx=ctx)
                next_anchor = elapsed + settings.audit_anchor_interval_seconds
            backoff = 0.0
        except DBAPIError as exc:
            # A restarted or failed-over database: claims are leases, so nothing is lost by waiting and retrying.
            backoff = min(max(poll_seconds, backoff * 2 or 0.5), MAX_DB_BACKOFF_SECONDS)
            log.warning("database unavailable; retrying", extra={"error": type(exc.orig).__name__,
                                                                 "retry_in_seconds": backoff})
        except Exception:  # the loop must outlive any one round: a dead worker launches and tracks nothing more
            backoff = min(max(poll_seconds, backoff * 2 or 0.5), MAX_DB_BACKOFF_SECONDS)
            log.exception("worker round failed; retrying")
        wait = max(poll_seconds, backoff)
        stop_event.wait(wait)
        elapsed += wait
    log.info("worker stopped", extra={"worker": ctx.worker_id})
