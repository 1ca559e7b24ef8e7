"""What finished jobs teach about the estimates: each one's actual hours and cost against its estimate, the
calibration of estimated hours learnt from them (``policy.calibration``), and the month's estimate accuracy.

The worker records outcomes after each tracking round; the planner reads the calibration through
``CachedCalibration``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from policy.calibration import Accuracy, Calibration, Outcome, accuracy, calibrate, size_band
from policy.catalog import Catalog
from policy.decision import Decision
from service.launch.protocol import JobState
from service.requests.records import get_request_or_raise, get_revision
from service.store.db import new_session
from service.store.tables import EstimateOutcome, Job

# The hours basis of a job that ran a length stated for it ("8 H100s for 6 hours"), not an estimate of the work's
STATED_LENGTH = "stated_length"
FINAL = (JobState.SUCCEEDED.value, JobState.FAILED.value, JobState.STOPPED.value)


def _unrecorded(session: Session, limit: int) -> list[Job]:
    recorded = select(EstimateOutcome.request_id)
    query = (select(Job).where(col(Job.dry_run).is_(False), col(Job.status).in_(FINAL),
                               col(Job.request_id).not_in(recorded)).order_by(col(Job.id)).limit(limit))
    return list(session.exec(query))


def _outcome(session: Session, job: Job, catalog: Catalog, now: datetime) -> EstimateOutcome:
    revision = get_revision(session=session, request_id=job.request_id, revision=job.revision)
    decision = Decision.model_validate(revision.decision)
    plan, req = decision.plan, decision.request
    spec = catalog.instances.get(plan.instance_type)
    if job.training_seconds:
        actual, basis = job.training_seconds / 3600.0, "training_seconds"
    else:  # EC2 and EKS report no training time: launch to the round that saw the job end
        actual, basis = (job.updated_at - job.created_at).total_seconds() / 3600.0, "wall_clock"
    if req.fixed_hours is not None:  # it ran the length asked for: its hours say nothing of how fast work trains
        basis = STATED_LENGTH
    params = float(req.params or 0)
    return EstimateOutcome(
        request_id=job.request_id, job_name=job.name, status=job.status,
        team=get_request_or_raise(session=session, request_id=job.request_id).team, platform=job.platform,
        instance_type=plan.instance_type, family=spec.family if spec else plan.instance_type.split(".")[0],
        accelerator=plan.accelerator, accelerators=plan.accelerators, instance_count=plan.instance_count,
        task=(req.task.value if req.task else "fine-tune"), params=params, size_band=size_band(params),
        tokens=float(req.tokens or 0), seq_len=req.seq_len or 0, recipe=None,
        estimated_hours=plan.estimated_hours, calibration_factor=revision.calibration_factor or 1.0,
        actual_hours=round(actual, 4), hours_basis=basis, estimated_cost_usd=job.estimated_cost_usd,
        actual_cost_usd=job.actual_cost_usd, finished_at=job.updated_at or now,
    )


def record_outcomes(*, engine: Engine, catalog: Catalog, now: datetime, limit: int = 100) -> int:
    """Store the outcome of every launched job that ended and has none yet; returns how many were stored."""
    with new_session(engine) as session:
        rows = [_outcome(session, job, catalog, now) for job in _unrecorded(session, limit)]
        for row in rows:
            session.add(row)
        session.commit()
    return len(rows)


def teaching(row: EstimateOutcome) -> Outcome | None:
    """What a stored outcome teaches: actual over the uncorrected estimate. Only completed jobs of estimated length
    teach: a stopped or failed job's hours say nothing about how long the work takes, nor do the hours of a job that
    ran a length stated for it."""
    if (row.status != JobState.SUCCEEDED.value or row.estimated_hours <= 0 or row.actual_hours <= 0
            or row.hours_basis == STATED_LENGTH):
        return None
    raw = row.estimated_hours / (row.calibration_factor or 1.0)
    return Outcome(family=row.family, task=row.task, size_band=row.size_band, ratio=row.actual_hours / raw)


def list_outcomes(*, engine: Engine, since: datetime | None = None, team: str | None = None,
                  limit: int = 10_000) -> list[EstimateOutcome]:
    with new_session(engine) as session:
        query = select(EstimateOutcome).order_by(col(EstimateOutcome.finished_at).desc()).limit(limit)
        if since is not None:
            query = query.where(col(EstimateOutcome.finished_at) >= since)
        if team is not None:
            query = query.where(col(EstimateOutcome.team) == team)
        rows = list(session.exec(query))
        for row in rows:
            session.expunge(row)
        return rows


def current_calibration(*, engine: Engine, prior_jobs: float = 3.0) -> Calibration:
    """The corrections learnt from every completed job (the most recent 10,000)."""
    taught = (teaching(row) for row in list_outcomes(engine=engine))
    return calibrate((o for o in taught if o is not None), prior_jobs=prior_jobs)


def estimate_accuracy(*, engine: Engine, since: datetime, team: str | None = None) -> Accuracy | None:
    """Median and P90 of |actual − estimate| / estimate of jobs finished since ``since``: cost where the platform
    billed one, else hours."""
    pairs = []
    for row in list_outcomes(engine=engine, since=since, team=team):
        if row.actual_cost_usd is not None and row.estimated_cost_usd > 0:
            pairs.append((row.actual_cost_usd, row.estimated_cost_usd))
        elif row.estimated_hours > 0:
            pairs.append((row.actual_hours, row.estimated_hours))
    return accuracy(pairs)


@dataclass
class CachedCalibration:
    """The calibration in force, read from the database at most once per ``ttl_seconds`` (the planner's source)."""

    engine: Engine
    prior_jobs: float = 3.0
    ttl_seconds: float = 300.0
    _value: Calibration | None = None
    _read_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def due(self) -> bool:
        """Whether the next call reads the database."""
        return self._value is None or time.monotonic() - self._read_at >= self.ttl_seconds

    def __call__(self) -> Calibration:
        with self._lock:
            if self._value is None or time.monotonic() - self._read_at >= self.ttl_seconds:
                self._value = current_calibration(engine=self.engine, prior_jobs=self.prior_jobs)
                self._read_at = time.monotonic()
            return self._value

    def forget(self) -> None:
        """Read again on the next call (after new outcomes were stored)."""
        with self._lock:
            self._value = None
