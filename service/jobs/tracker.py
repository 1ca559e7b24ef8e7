"""The job tracker: polls every live job through its platform's launcher, records status and secondary-status
transitions (spot interruptions, restarts, PyTorchJob conditions) on the events feed, and at the end the actual cost
(where the platform bills per job) and spot savings. Stopping a job goes through the same launcher."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from contract.errors import NotFound, UpstreamError
from contract.status import RequestStatus
from policy.catalog import Catalog, sagemaker_price
from policy.decision import Decision, Plan
from policy.projection import accrued_since
from service.alerts.jobcost import CostAlerts, refresh_job_cost
from service.audit.chain import append_event, events_for_request
from service.aws.clients import ClientFactory
from service.aws.jobstatus import actual_cost_usd, spot_savings
from service.aws.sagemaker import list_training_jobs
from service.launch.protocol import (
    INTERRUPTED,
    JobState,
    JobStatus,
    Launcher,
    LaunchRejected,
    LaunchSpec,
    LeaseLost,
    RenderedArtifact,
    Transition,
)
from service.launch.registry import LaunchEnvironment
from service.requests.attachments import list_artifacts
from service.requests.records import get_request_or_raise, get_revision
from service.requests.states import transition
from service.store.db import new_session
from service.store.tables import Job, RequestRecord

log = logging.getLogger("gpuops.tracker")
ACTOR = "system:tracker"
TRACK_PAGE = 100  # live jobs read per query in a round (a round polls every one)
TRACKED_STATUSES = (JobState.RUNNING.value, JobState.STOPPING.value)
FINAL_REQUEST_STATUS = {JobState.SUCCEEDED: RequestStatus.SUCCEEDED, JobState.FAILED: RequestStatus.FAILED,
                        JobState.STOPPED: RequestStatus.STOPPED}


@dataclass(frozen=True)
class TrackedJob:
    job_id: int
    request_id: str
    revision: int
    team: str
    plan: Plan
    status: str  # the last recorded one
    # a job of a stated length ("16 H100s Monday 9am to Friday 5pm"): its MaxRuntime is that length, so the platform
    # ending it there is the job ending as asked
    stated_length: bool = False
    # the levels of cost the requester asked to hear about ("alert me at 80%", "ping me at $500")
    alerts: CostAlerts = CostAlerts()

    @property
    def spec(self) -> LaunchSpec:
        return LaunchSpec(request_id=self.request_id, revision=self.revision, team=self.team, plan=self.plan)


def hourly_price(*, catalog: Catalog, plan: Plan) -> tuple[float, str]:
    """The ml.* on-demand price SageMaker bills billable seconds at (managed spot's discount is in the seconds)."""
    row = catalog.price(plan.instance_type, plan.region)
    if row is None:
        return plan.price_per_instance_hour_usd, "the plan's price (no catalog row for this type and region)"
    return sagemaker_price(row, catalog.sagemaker_premium)


def _tracked(session: Session, row: Job) -> TrackedJob:
    revision = get_revision(session=session, request_id=row.request_id, revision=row.revision)
    record = get_request_or_raise(session=session, request_id=row.request_id)
    decision = Decision.model_validate(revision.decision)
    asked = decision.request
    return TrackedJob(job_id=row.id or 0, request_id=row.request_id, revision=row.revision, team=record.team,
                      plan=decision.plan, status=row.status, stated_length=asked.fixed_hours is not None,
                      alerts=CostAlerts(percents=asked.alert_at_percent or (), amounts_usd=asked.alert_at_usd or ()))


def _live() -> SelectOfScalar[Job]:
    """Jobs gpuops created (on any platform) that have not ended yet."""
    return select(Job).where(col(Job.dry_run).is_(False), col(Job.status).in_(TRACKED_STATUSES))


def running_jobs(*, engine: Engine, limit: int = TRACK_PAGE, after: int = 0) -> list[TrackedJob]:
    """Up to ``limit`` live jobs whose id is above ``after``, in id order."""
    with new_session(engine) as session:
        rows = session.exec(_live().where(col(Job.id) > after).order_by(col(Job.id)).limit(limit))
        return [_tracked(session, row) for row in rows]


def every_running_job(*, engine: Engine) -> Iterator[TrackedJob]:
    """Every live job, read a page at a time (a page's session is closed before its jobs are handed out)."""
    after = 0
    while True:
        jobs = running_jobs(engine=engine, limit=TRACK_PAGE, after=after)
        yield from jobs
        if len(jobs) < TRACK_PAGE:
            return
        after = jobs[-1].job_id


def running_job_for(*, session: Session, request_id: str) -> TrackedJob | None:
    """The request's live job; None when it has none."""
    row = session.exec(_live().where(col(Job.request_id) == request_id)).first()
    return None if row is None else _tracked(session, row)


# What SageMaker says of a job it ended at its MaxRuntime (TrainingJobStatus Stopped)
RUNTIME_LIMIT_REACHED = "MaxRuntimeExceeded"


def ended_as_asked(reading: JobStatus, *, stated_length: bool) -> JobStatus:
    """``reading``, with a job of a stated length that the platform stopped at its runtime limit read as finished:
    the limit is the length asked for (plus start-up), so reaching it is the job done, not stopped short. Any other
    stop (a person's, or a limit reached by training of estimated length) stays a stop."""
    if stated_length and reading.state is JobState.STOPPED and reading.secondary_status == RUNTIME_LIMIT_REACHED:
        return reading.model_copy(update={"state": JobState.SUCCEEDED})
    return reading


def overall_status(progress: list[JobStatus]) -> JobState:
    states = {p.state for p in progress}
    if not all(p.final for p in progress):
        return JobState.STOPPING if JobState.STOPPING in states else JobState.RUNNING
    for state in (JobState.FAILED, JobState.STOPPED):
        if state in states:
            return state
    return JobState.SUCCEEDED


def _seen(session: Session, request_id: str) -> set[tuple[str, str, str]]:
    return {(e.data.get("job", ""), e.data.get("secondary_status", ""), e.data.get("transition_start", ""))
            for e in events_for_request(session=session, request_id=request_id)
            if e.type in ("job.status_changed", "job.interrupted") and "transition_start" in e.data}


def _record_transitions(session: Session, job: TrackedJob, progress: list[JobStatus], now: datetime) -> None:
    seen = _seen(session, job.request_id)
    for reading in progress:
        for step in reading.transitions:
            key = (reading.name, step.status, step.start_time.isoformat())
            if key in seen:
                continue
            append_event(session=session, type="job.interrupted" if step.status == INTERRUPTED else
                         "job.status_changed", actor=ACTOR, request_id=job.request_id, now=now,
                         data=_transition_data(reading.name, step))


def _transition_data(name: str, step: Transition) -> dict[str, str]:
    return {"job": name, "secondary_status": step.status, "transition_start": step.start_time.isoformat(),
            "message": step.message}


def _settle(*, row: Job, job: TrackedJob, progress: list[JobStatus], catalog: Catalog) -> dict[str, object]:
    """Final figures: actual cost from billable time, and spot savings."""
    price, basis = hourly_price(catalog=catalog, plan=job.plan)
    billable = [p.billable_seconds for p in progress]
    training = [p.training_seconds for p in progress]
    if all(b is not None for b in billable):
        row.billable_seconds = sum(b or 0 for b in billable)
        row.actual_cost_usd = round(sum(actual_cost_usd(billable_seconds=p.billable_seconds or 0,
                                                        instance_count=p.instance_count,
                                                        price_per_instance_hour=price) for p in progress), 2)
    if all(t is not None for t in training):
        row.training_seconds = sum(t or 0 for t in training)
    if any(p.spot for p in progress):
        row.spot_savings = spot_savings(billable_seconds=row.billable_seconds, training_seconds=row.training_seconds)
    return {"job": row.name, "actual_cost_usd": row.actual_cost_usd, "estimated_cost_usd": row.estimated_cost_usd,
            "billable_seconds": row.billable_seconds, "training_seconds": row.training_seconds,
            "spot_savings": row.spot_savings, "interruptions": row.interruptions, "price_basis": basis,
            "failure_reason": next((p.failure_reason for p in progress if p.failure_reason), None),
            # throughput and loss as the container printed them (docs/training-contract.md), per job
            "metrics": {p.name: p.metrics for p in progress if p.metrics}}


def record_progress(*, engine: Engine, job: TrackedJob, progress: list[JobStatus], catalog: Catalog,
                    now: datetime) -> JobState:
    """Store one reading: new transitions as events, the job row, and the request's end when every job ended."""
    status = overall_status(progress)
    with new_session(engine) as session:
        record = get_request_or_raise(session=session, request_id=job.request_id, lock=True)
        row = session.get(Job, job.job_id, with_for_update=True)
        if row is None:
            session.rollback()
            return status
        _record_transitions(session, job, progress, now)
        row.status, row.updated_at = status.value, now
        row.secondary_status = progress[-1].secondary_status
        row.interruptions = sum(p.interruptions for p in progress)
        final = FINAL_REQUEST_STATUS.get(status)
        if final is None:
            refresh_live_cost(session=session, row=row, job=job, progress=progress, catalog=catalog, now=now)
        if final is not None:
            data = _settle(row=row, job=job, progress=progress, catalog=catalog)
            if record.status == RequestStatus.RUNNING:
                transition(session=session, record=record, to=final, actor=ACTOR, now=now, data=data)
        session.add(row)
        session.commit()
    return status


# --- live cost: one step of the round, for jobs still running -------------------------------------------------
def refresh_live_cost(*, session: Session, row: Job, job: TrackedJob, progress: list[JobStatus], catalog: Catalog,
                      now: datetime) -> None:
    """Cost so far and to finish on the job row, and the notes in its thread at 50/100/150% of the estimate and at
    the levels the requester asked for (``service.alerts``)."""
    price, _ = hourly_price(catalog=catalog, plan=job.plan)
    refresh_job_cost(session=session, row=row, plan=job.plan, progress=progress, billing_price=price, now=now,
                     alerts=job.alerts)
# --- end of live cost ---------------------------------------------------------------------------------------


def _missing(job: TrackedJob, name: str) -> JobStatus:
    """A tracked job the platform no longer has: gone after we asked to stop it (EKS deletes to stop), or removed
    behind gpuops' back, which ends the request rather than leave it ``running`` for ever."""
    if job.status == JobState.STOPPING:
        return JobStatus(name=name, state=JobState.STOPPED, secondary_status="Deleted")
    log.warning("tracked job not found on its platform", extra={"job": name, "request_id": job.request_id})
    return JobStatus(name=name, state=JobState.FAILED, secondary_status="Missing",
                     failure_reason=f"the job {name} no longer exists on {job.plan.platform.value}")


def _unstarted(job: TrackedJob, name: str, readings: dict[str, JobStatus | None]) -> JobStatus:
    """A sweep's trial not started yet: waiting for its turn, or never to start once the sweep is being stopped or a
    trial failed (no more money goes to a sweep that is failing)."""
    per_job = job.plan.job_instances
    if job.status == JobState.STOPPING or any(r is not None and r.state is JobState.FAILED for r in readings.values()):
        return JobStatus(name=name, state=JobState.STOPPED, secondary_status="NotStarted", instance_count=per_job,
                         billable_seconds=0, training_seconds=0)  # never ran, never billed
    return JobStatus(name=name, state=JobState.RUNNING, secondary_status="Waiting", instance_count=per_job)


def _start_next_trials(*, engine: Engine, launcher: Launcher, job: TrackedJob,
                       readings: dict[str, JobStatus | None], now: datetime) -> None:
    """Start a sweep's waiting trials, in order, while fewer than the approved number run at once: each from the
    request rendered for it at launch (an artifact of the request), exactly once under its name. None once the
    sweep is being stopped or a trial failed. A job SageMaker does not know was never created: its jobs are never
    deleted."""
    waiting = [name for name, reading in readings.items() if reading is None]
    if not waiting or job.status == JobState.STOPPING:
        return
    if any(r is not None and r.state is JobState.FAILED for r in readings.values()):
        return
    running = sum(1 for r in readings.values() if r is not None and not r.final)
    for name in waiting[:max(0, job.plan.jobs_at_once - running)]:
        request = _rendered_for(engine, job.request_id, name)
        if request is None:
            log.error("no request rendered for a waiting trial", extra={"job": name, "request_id": job.request_id})
            return
        try:
            launcher.start(job.spec, request, guard=lambda: _may_start(engine, job))
        except LeaseLost:
            return  # a stop was asked, or the request ended, since this round read the job
        except LaunchRejected as exc:
            # refused (an account limit, a permission): failed this round, so no later trial starts; each round
            # asks again while trials still run, and once none does and it is still refused, the sweep ends failed
            log.warning("a waiting trial was refused", extra={"job": name, "request_id": job.request_id,
                                                              "error": exc.message})
            readings[name] = JobStatus(name=name, state=JobState.FAILED, secondary_status="Rejected",
                                       instance_count=job.plan.job_instances,
                                       billable_seconds=0, training_seconds=0, failure_reason=exc.message)
            return
        readings[name] = launcher.describe(job.spec, name)
        log.info("started a waiting trial", extra={"job": name, "request_id": job.request_id})
        with new_session(engine) as session:
            append_event(session=session, type="job.trial_started", actor=ACTOR, request_id=job.request_id, now=now,
                         data={"job": name, "trial": list(readings).index(name) + 1, "of": len(readings),
                               "at_once": job.plan.jobs_at_once})
            session.commit()


def _rendered_for(engine: Engine, request_id: str, name: str) -> RenderedArtifact | None:
    with new_session(engine) as session:
        for row in list_artifacts(session=session, request_id=request_id):
            if row.name.startswith(f"{name}."):
                return RenderedArtifact(row.kind, row.name, row.content_type, row.content)
    return None


def _may_start(engine: Engine, job: TrackedJob) -> bool:
    """Right before a waiting trial is created: the request still runs and nobody asked to stop it."""
    with new_session(engine) as session:
        row = session.get(Job, job.job_id)
        record = session.get(RequestRecord, job.request_id)
        return (row is not None and row.status == JobState.RUNNING.value and record is not None
                and record.status == RequestStatus.RUNNING)


def track_job(*, engine: Engine, env: LaunchEnvironment, catalog: Catalog, job: TrackedJob, now: datetime) -> JobState:
    launcher = env.launcher(job.plan.platform)
    names = launcher.job_names(job.spec)
    readings: dict[str, JobStatus | None] = {}
    created = True
    for name in names:  # trials are created in order: past the first the platform lacks, none exists yet
        readings[name] = launcher.describe(job.spec, name) if created else None
        created = readings[name] is not None
    if len(names) == 1:
        progress = [readings[names[0]] or _missing(job, names[0])]
    else:  # a sweep: trials start as earlier ones end
        _start_next_trials(engine=engine, launcher=launcher, job=job, readings=readings, now=now)
        progress = [readings[name] or _unstarted(job, name, readings) for name in names]
        if job.status == JobState.STOPPING:  # a trial started as the stop was asked is stopped too
            for reading in progress:
                if reading.state is JobState.RUNNING and reading.secondary_status != "Waiting":
                    launcher.stop(job.spec, reading.name)
    progress = [ended_as_asked(reading, stated_length=job.stated_length) for reading in progress]
    return record_progress(engine=engine, job=job, progress=progress, catalog=catalog, now=now)


def track_jobs(*, engine: Engine, env: LaunchEnvironment, catalog: Catalog, now: datetime) -> int:
    """Poll every live job once, whatever its platform, a page at a time; returns how many were polled."""
    polled = 0
    for job in every_running_job(engine=engine):
        track_job(engine=engine, env=env, catalog=catalog, job=job, now=now)
        polled += 1
    return polled


def list_jobs(*, engine: Engine, status: str | None = None, limit: int = 200) -> list[dict[str, object]]:
    """Launched jobs, newest first, as plain rows (``gpuops jobs``)."""
    with new_session(engine) as session:
        query = select(Job).order_by(col(Job.id).desc()).limit(limit)
        if status is not None:
            query = query.where(col(Job.status) == status)
        return [row.model_dump(mode="json") for row in session.exec(query)]


def committed_spend(*, engine: Engine) -> Callable[[str, datetime], float]:
    """For the spend provider: what a team's launches have billed since a figure's ``as_of`` and AWS has not
    reported yet.

    A job the tracker has costed counts at the part of its live (or final) cost that fell after ``as_of``; one not
    costed yet, launched since ``as_of``, at its estimate. What it may still bill is the budget ledger's.
    """

    def since(team: str, as_of: datetime) -> float:
        try:
            with new_session(engine) as session:
                query = (select(Job).join(RequestRecord, col(RequestRecord.id) == col(Job.request_id))
                         .where(col(RequestRecord.team) == team, col(Job.dry_run).is_(False),
                                (col(Job.created_at) >= as_of) | (col(Job.updated_at) >= as_of)
                                | col(Job.status).in_(TRACKED_STATUSES)))
                return sum(_billed_since(row, as_of) for row in session.exec(query))
        except DBAPIError as exc:
            raise UpstreamError("the database did not answer", service="database",
                                operation="committed_spend") from exc

    return since


def _billed_since(row: Job, as_of: datetime) -> float:
    cost = row.actual_cost_usd if row.actual_cost_usd is not None else row.cost_so_far_usd
    if cost is None:
        return row.estimated_cost_usd if row.created_at >= as_of else 0.0
    end = row.cost_as_of if row.actual_cost_usd is None and row.cost_as_of is not None else row.updated_at
    return accrued_since(cost_usd=cost, start=row.started_at or row.created_at, end=end, since=as_of)


def stop_job(*, engine: Engine, env: LaunchEnvironment, request_id: str, actor: str, now: datetime,
             reason: str | None = None) -> str:
    """Ask the platform to stop a running request's jobs; the tracker records ``stopped`` when the platform has.

    In dry-run mode nothing is sent: the stop that would have been is recorded on the feed. A job already stopping
    is not asked again. Returns the job name; ``NotFound`` when the request has no live job.
    """
    with new_session(engine) as session:
        job = running_job_for(session=session, request_id=request_id)
    if job is None:
        raise NotFound(f"request {request_id!r} has no running job to stop")
    launcher = env.launcher(job.plan.platform)
    names = launcher.job_names(job.spec)
    if job.status == JobState.STOPPING:
        return names[0]
    if env.live:
        for name in names:
            launcher.stop(job.spec, name)
    with new_session(engine) as session:
        row = session.get(Job, job.job_id, with_for_update=True)
        if row is not None and env.live and row.status in TRACKED_STATUSES:
            row.status, row.updated_at = JobState.STOPPING.value, now
            session.add(row)
        append_event(session=session, type="job.stop_requested", actor=actor, request_id=request_id, now=now,
                     data={"job": names[0], "jobs": names, "reason": reason, "dry_run": not env.live, "by": actor,
                           "platform": job.plan.platform.value,
                           "message": f"stop {'asked' if env.live else 'recorded (dry run, nothing sent)'} "
                                      f"by {actor}"})
        session.commit()
    return names[0]


def find_untracked_jobs(*, engine: Engine, factory: ClientFactory, region: str) -> list[dict[str, object]]:
    """gpuops-named training jobs SageMaker has in ``region`` that the database does not know (e.g. after a
    restore from backup): reconcile these before approving new work."""
    with new_session(engine) as session:
        known = set(session.exec(select(Job.name)).all())
    summaries = list_training_jobs(client=factory.client("sagemaker", region=region), name_prefix="gpuops-")
    return [s for s in summaries if not _belongs_to(str(s["TrainingJobName"]), known)]


def _belongs_to(name: str, known: set[str]) -> bool:
    return name in known or any(name.startswith(f"{k}-t") for k in known)
