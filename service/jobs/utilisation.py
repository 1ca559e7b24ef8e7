"""Idle GPUs: a live job whose GPU utilisation stays below the threshold for the whole window is posted once per
idle episode in its request's thread (a ``job.idle`` event) with what the idle share costs per hour; a person may
stop it (the ordinary stop) or mark it expected, which silences the job's alerts (``job.idle_expected``).

State lives in ``idle_watch`` rows, so a restart neither re-alerts an episode already alerted nor forgets a silence.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from contract.errors import Conflict, UpstreamError
from contract.status import RequestStatus
from policy.catalog import Catalog
from policy.decision import Platform
from service.audit.chain import append_event
from service.aws.cloudwatch import GpuSeries, read_utilisation, sagemaker_series
from service.jobs.stopping import check_may_stop
from service.jobs.tracker import TrackedJob, every_running_job, running_job_for
from service.launch.protocol import JobState
from service.launch.registry import LaunchEnvironment
from service.requests.records import get_request_or_raise
from service.settings import Settings
from service.store.db import new_session
from service.store.tables import IdleWatch

log = logging.getLogger("gpuops.idle")
ACTOR = "system:idle-watch"
PERIOD_SECONDS = 60
COVERAGE = 0.8  # share of the window's minutes that must have a reading before a job is called idle


@dataclass(frozen=True, slots=True)
class IdleRule:
    """Below ``threshold_percent`` for ``minutes``; EC2 and EKS read ``namespace``/``metric`` by ``dimension``."""

    threshold_percent: float = 60.0
    minutes: int = 10
    namespace: str = "CWAgent"
    metric: str = "DCGM_FI_DEV_GPU_UTIL"
    dimension: str = "gpuops_job"

    @classmethod
    def from_settings(cls, settings: Settings) -> IdleRule:
        return cls(threshold_percent=settings.idle_gpu_threshold_percent, minutes=settings.idle_gpu_minutes,
                   namespace=settings.idle_gpu_namespace, metric=settings.idle_gpu_metric,
                   dimension=settings.idle_gpu_dimension)


@dataclass(frozen=True, slots=True)
class Reading:
    """The window's readings: idle (True), busy again (False) or not enough to say (None)."""

    idle: bool | None
    mean_percent: float | None
    readings: int


def judge(readings: dict[datetime, float], rule: IdleRule) -> Reading:
    """Idle when enough of the window has readings and every one is below the threshold; busy when the latest is at
    or above it."""
    if not readings:
        return Reading(None, None, 0)
    values = list(readings.values())
    mean = sum(values) / len(values)
    if values[-1] >= rule.threshold_percent:
        return Reading(False, mean, len(values))
    enough = len(values) >= COVERAGE * rule.minutes * 60 / PERIOD_SECONDS
    idle = enough and max(values) < rule.threshold_percent
    return Reading(True if idle else None, mean, len(values))


def _series(job: TrackedJob, names: list[str], catalog: Catalog, rule: IdleRule) -> list[GpuSeries]:
    plan = job.plan
    if plan.platform in (Platform.SAGEMAKER, Platform.HYPERPOD):
        spec = catalog.instances.get(plan.instance_type)
        gpus = spec.accelerator_count if spec else max(plan.accelerators // max(plan.instance_count, 1), 1)
        hosts = plan.job_instances
        return [s for name in names for s in sagemaker_series(job_name=name, hosts=hosts, gpus_per_host=gpus)]
    return [GpuSeries(rule.namespace, rule.metric, ((rule.dimension, name),)) for name in names]


def idle_cost_per_hour(job: TrackedJob, mean_percent: float) -> tuple[float, float]:
    """(idle share, USD per hour): instances busy × the plan's price × the share of GPU time left idle."""
    share = max(0.0, min(1.0, 1.0 - mean_percent / 100.0))
    return share, round(job.plan.instance_count * job.plan.price_per_instance_hour_usd * share, 2)


def _watch(session: Session, job: TrackedJob, name: str, now: datetime) -> IdleWatch:
    row = session.exec(select(IdleWatch).where(IdleWatch.request_id == job.request_id).with_for_update()).first()
    return row or IdleWatch(request_id=job.request_id, job_name=name, updated_at=now)


def _alert(session: Session, job: TrackedJob, name: str, reading: Reading, rule: IdleRule, now: datetime) -> None:
    assert reading.mean_percent is not None
    share, cost = idle_cost_per_hour(job, reading.mean_percent)
    plan = job.plan
    append_event(session=session, type="job.idle", actor=ACTOR, request_id=job.request_id, now=now, data={
        "job": name, "utilisation_percent": round(reading.mean_percent, 1), "threshold_percent":
        rule.threshold_percent, "minutes": rule.minutes, "readings": reading.readings,
        "instances": plan.instance_count, "instance_type": plan.instance_type,
        "price_per_instance_hour_usd": plan.price_per_instance_hour_usd, "idle_share": round(share, 3),
        "idle_cost_per_hour_usd": cost,
        "message": f"GPU utilisation {reading.mean_percent:.0f}% for {rule.minutes} min, below "
                   f"{rule.threshold_percent:g}%: idle time costs ${cost:,.2f}/h"})


def record_reading(*, engine: Engine, job: TrackedJob, name: str, reading: Reading, rule: IdleRule,
                   now: datetime) -> bool:
    """Store one reading; True when it opened an idle episode that was alerted."""
    alerted = False
    with new_session(engine) as session:
        row = _watch(session, job, name, now)
        if reading.mean_percent is not None:
            row.last_utilisation = round(reading.mean_percent, 2)
        if reading.idle is True and not row.idle:
            row.idle, row.idle_since = True, now - timedelta(minutes=rule.minutes)
            if row.silenced_at is None:
                row.alerted_at, row.episodes = now, row.episodes + 1
                _alert(session, job, name, reading, rule, now)
                alerted = True
        elif reading.idle is False and row.idle:
            row.idle, row.idle_since = False, None  # the episode is over: the next one alerts again
        row.updated_at = now
        session.add(row)
        try:
            session.commit()
        except IntegrityError:  # another worker created the row first; its reading stands
            session.rollback()
            return False
    return alerted


def check_utilisation(*, engine: Engine, env: LaunchEnvironment, catalog: Catalog, rule: IdleRule,
                      now: datetime) -> int:
    """Read every running job's GPU utilisation once; returns how many idle episodes were alerted."""
    alerted = 0
    for job in every_running_job(engine=engine):  # all of them, not the first page
        if job.status != JobState.RUNNING:
            continue
        names = env.launcher(job.plan.platform).job_names(job.spec)
        try:
            client = env.factory.client("cloudwatch", region=job.plan.region)
            readings = read_utilisation(client=client, series=_series(job, names, catalog, rule),
                                        start=now - timedelta(minutes=rule.minutes), end=now,
                                        period=PERIOD_SECONDS)
        except UpstreamError as exc:
            log.warning("GPU utilisation not read this round", extra={"request_id": job.request_id,
                                                                       "error": str(exc)})
            continue
        alerted += record_reading(engine=engine, job=job, name=names[0], reading=judge(readings, rule), rule=rule,
                                  now=now)
    return alerted


def expect_idle(*, engine: Engine, env: LaunchEnvironment, request_id: str, actor: str, is_admin: bool,
                reason: str | None, now: datetime) -> bool:
    """Mark a running job's idle GPUs as expected: no more idle alerts for it. False when it already was."""
    with new_session(engine) as session:
        record = get_request_or_raise(session=session, request_id=request_id, lock=True)
        check_may_stop(policy=env.policy, record=record, actor=actor, is_admin=is_admin)
        job = running_job_for(session=session, request_id=request_id)
        if record.status != RequestStatus.RUNNING or job is None:
            raise Conflict(f"the request is {record.status} and has no running job", current_state=record.status,
                           code="not_running")
        name = env.launcher(job.plan.platform).job_names(job.spec)[0]
        row = _watch(session, job, name, now)
        if row.silenced_at is not None:
            return False
        row.silenced_by, row.silenced_at, row.updated_at = actor, now, now
        session.add(row)
        append_event(session=session, type="job.idle_expected", actor=actor, request_id=request_id, now=now,
                     data={"job": name, "by": actor, "reason": reason,
                           "message": f"idle GPUs marked expected by {actor}; no more idle alerts for this job"})
        session.commit()
    return True
