"""The launcher: claims queued ``launch_task`` rows and launches each approved plan exactly once.

Claiming is ``SELECT … FOR UPDATE SKIP LOCKED`` on Postgres plus a compare-and-set on the row (which is all SQLite
needs, its writers being serialised). A claim is a lease: a task whose worker died is claimable again once the
lease runs out. Exactly once comes from our own guard, not AWS's: the claim's attempt number fences a worker that
lost its lease, and before creating anything the launcher looks the deterministic job name up, so a task re-claimed
after a crash reconciles with what AWS already has instead of creating it again.

Nothing launches unless, at claim time, the request is approved (or auto-approved) for the very revision the task
names, the stored plan still matches its hash, and the plan re-decided with the catalog, spend and policy in force
has not moved beyond the policy's ``reapproval_tolerance`` (``service.launch.reapproval``); otherwise the request goes
back for approval.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any

import sqlalchemy as sa
from prometheus_client import Counter
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from contract.status import RequestStatus
from policy.config import PolicyConfig
from policy.decision import Decision, Platform, PurchaseModel, plan_hash
from policy.errors import RequestError
from service.launch.protocol import LaunchOutcome, LaunchSpec
from service.launch.reapproval import check_before_launch
from service.planning import Planner
from service.requests.attachments import add_artifact
from service.requests.records import get_request_or_raise, get_revision
from service.requests.states import transition
from service.requests.views import approval_holds, groups_missing
from service.store.db import new_session
from service.store.tables import Approval, CapacityActionRow, Job, LaunchTask, PlanRevision, RequestRecord

log = logging.getLogger("gpuops.launch")
ACTOR = "system:launcher"
MAX_ATTEMPTS = 5
DEFAULT_LEASE_SECONDS = 300.0


@dataclass(frozen=True)
class ClaimedTask:
    task_id: int
    request_id: str
    revision: int
    attempt: int  # the fencing token: a later claim of the same task has a higher one


@dataclass(frozen=True)
class LaunchJob:
    """What the approved revision says to launch."""

    task: ClaimedTask
    team: str
    decision: Decision
    approvers: list[str]
    reservation: str | None = None  # reserved capacity bought for the request, which the launch runs in

    @property
    def platform(self) -> Platform:
        return self.decision.plan.platform

    @property
    def spec(self) -> LaunchSpec:
        return LaunchSpec(request_id=self.task.request_id, revision=self.task.revision, team=self.team,
                          plan=self.decision.plan, approvers=tuple(self.approvers), job=self.decision.job,
                          reservation=self.reservation, cost_center=self.decision.request.cost_center)


@cache
def launch_failures() -> Counter:
    """Launches that ended the request in ``failed``, by platform and reason (registered on first use)."""
    return Counter("gpuops_launch_failures", "Launches that ended the request in failed", ["platform", "reason"])


def _count_failure(decision: dict[str, Any] | Decision, reason: str) -> None:
    if isinstance(decision, Decision):
        platform = decision.plan.platform.value
    else:
        platform = str(decision.get("plan", {}).get("platform", "unknown"))
    launch_failures().labels(platform=platform, reason=reason).inc()


def _claimable(now: datetime, lease_seconds: float) -> Any:
    stale = now - timedelta(seconds=lease_seconds)
    due = sa.or_(col(LaunchTask.not_before).is_(None), col(LaunchTask.not_before) <= now)  # the plan's start reached
    return sa.and_(due, sa.or_(col(LaunchTask.status) == "queued",
                               sa.and_(col(LaunchTask.status) == "claimed", col(LaunchTask.claimed_at) <= stale)))


def claim_next_task(*, engine: Engine, worker_id: str, now: datetime,
                    lease_seconds: float = DEFAULT_LEASE_SECONDS) -> ClaimedTask | None:
    """Claim the oldest claimable task, or None when there is none (or another worker won it)."""
    with new_session(engine) as session:
        candidate = session.exec(
            select(LaunchTask).where(_claimable(now, lease_seconds)).order_by(col(LaunchTask.id)).limit(1)
            .with_for_update(skip_locked=True)
        ).first()
        if candidate is None or candidate.id is None:
            session.commit()
            return None
        claimed = session.connection().execute(
            sa.update(LaunchTask).where(col(LaunchTask.id) == candidate.id, _claimable(now, lease_seconds))
            .values(status="claimed", claimed_by=worker_id, claimed_at=now, attempts=LaunchTask.attempts + 1,
                    updated_at=now)
        )
        session.commit()
        if claimed.rowcount != 1:
            return None
        return ClaimedTask(task_id=candidate.id, request_id=candidate.request_id, revision=candidate.revision,
                           attempt=candidate.attempts + 1)


def renew_lease(*, engine: Engine, task: ClaimedTask, worker_id: str, now: datetime) -> bool:
    """Extend our claim just before an irreversible call; False when another worker has taken the task over."""
    with new_session(engine) as session:
        result = session.connection().execute(
            sa.update(LaunchTask).where(col(LaunchTask.id) == task.task_id, col(LaunchTask.status) == "claimed",
                                        col(LaunchTask.attempts) == task.attempt,
                                        col(LaunchTask.claimed_by) == worker_id)
            .values(claimed_at=now, updated_at=now)
        )
        session.commit()
        return bool(result.rowcount == 1)


def eligible_approvals(*, session: Session, record: RequestRecord, revision: int, policy: PolicyConfig,
                       decision: dict[str, Any] | None = None) -> list[str]:
    """Approvers of ``revision`` who may approve it under the policy in force (never the requester)."""
    rows = session.exec(select(Approval).where(Approval.request_id == record.id, Approval.revision == revision))
    decisions = {a.approver: a.decision for a in rows if approval_holds(policy, record, a, decision)}
    if "reject" in decisions.values():
        return []
    return sorted(a for a, d in decisions.items() if d == "approve")


def launch_blocker(*, session: Session, record: RequestRecord, row: PlanRevision, task: ClaimedTask,
                   policy: PolicyConfig) -> tuple[str, str] | None:
    """Why this task must not launch, as (kind, reason); None when the approvals on record cover it (whether the
    plan still holds under today's prices and spend is ``check_before_launch``'s question)."""
    if record.revision != task.revision:
        return "superseded", f"revision {task.revision} was replaced by revision {record.revision}"
    if record.status not in (RequestStatus.APPROVED, RequestStatus.AUTO_APPROVED, RequestStatus.LAUNCHING):
        return "not_launchable", f"the request is {record.status}"
    if record.team not in policy.teams:
        # Answered as a blocker, not PolicyConfig.team()'s RequestError: the task is stopped, not retried.
        return "unknown_team", (f"team {record.team!r} is not in the policy in force, so there is no launch profile "
                                "or approver group for it")
    if plan_hash(row.decision) != row.plan_hash:
        return "plan_changed", "the stored plan no longer matches the plan that was approved"
    if row.denied:
        return "not_approved", "policy denied this plan"
    if row.approvals_needed == 0 and record.status != RequestStatus.APPROVED:
        return None
    approvers = eligible_approvals(session=session, record=record, revision=task.revision, policy=policy,
                                   decision=row.decision)
    if len(approvers) < row.approvals_needed:
        return "not_approved", (f"{len(approvers)} of {row.approvals_needed} required approvals "
                                f"for revision {task.revision} are on record")
    if missing := groups_missing(policy, row.decision, approvers):
        return "not_approved", f"no approval from {', '.join(missing)} for revision {task.revision} is on record"
    return None


def _finish_task(session: Session, task: ClaimedTask, *, status: str, error: str | None, now: datetime) -> None:
    row = session.get(LaunchTask, task.task_id, with_for_update=True)
    if row is not None:
        row.status, row.last_error, row.updated_at = status, error, now
        session.add(row)


def _refuse(session: Session, record: RequestRecord, row: PlanRevision, task: ClaimedTask, blocker: tuple[str, str],
            *, policy: PolicyConfig, now: datetime) -> None:
    """Stop a task the approvals do not cover, and say so on the request's feed (an approved request goes back
    for approval with the policy's approval window, as a new request would get)."""
    kind, reason = blocker
    if kind in ("superseded", "not_launchable"):
        _finish_task(session, task, status="cancelled", error=reason, now=now)
        return
    _finish_task(session, task, status="failed", error=reason, now=now)
    status = RequestStatus(record.status)
    if status is RequestStatus.APPROVED:
        transition(session=session, record=record, to=RequestStatus.PENDING_APPROVAL, actor=ACTOR, now=now,
                   data={"reason": reason}, approval_window=timedelta(hours=policy.approval_window_hours))
        return
    if status is RequestStatus.AUTO_APPROVED:
        transition(session=session, record=record, to=RequestStatus.LAUNCHING, actor=ACTOR, now=now)
    transition(session=session, record=record, to=RequestStatus.FAILED, actor=ACTOR, now=now,
               event_type="launch.failed", data={"error": reason})
    _count_failure(row.decision, kind)


def _recheck(session: Session, planner: Planner, record: RequestRecord, task: ClaimedTask,
             now: datetime) -> tuple[str, str] | None:
    """Re-decide an approved plan with the catalog and spend in force: a plan that moved goes back for approval
    as a new revision and its task closes; (kind, reason) when it cannot be re-decided at all."""
    try:
        reason = check_before_launch(session=session, planner=planner, request_id=record.id, now=now)
    except RequestError as exc:
        return "not_replannable", f"the plan cannot be re-decided before launch: {exc}"
    if reason is not None:
        log.info("launch needs approving again", extra={"request_id": record.id, "reason": reason})
        _finish_task(session, task, status="cancelled", error=f"back for approval: {reason}", now=now)
    return None


def begin_launch(*, engine: Engine, task: ClaimedTask, planner: Planner, now: datetime) -> LaunchJob | None:
    """Check the approvals cover the task and the plan still holds, and move the request to ``launching``; None
    when it must not launch."""
    with new_session(engine) as session:
        record = get_request_or_raise(session=session, request_id=task.request_id, lock=True)
        row = get_revision(session=session, request_id=task.request_id, revision=task.revision)
        blocker = launch_blocker(session=session, record=record, row=row, task=task, policy=planner.policy)
        blocker = blocker or _recheck(session, planner, record, task, now)
        if blocker is None and record.revision == task.revision:  # the plan approved still stands
            blocker = _not_bought(session, record.id, row)
        if blocker is not None:
            log.warning("launch refused", extra={"request_id": record.id, "kind": blocker[0], "reason": blocker[1]})
            _refuse(session, record, row, task, blocker, policy=planner.policy, now=now)
        if blocker is not None or record.revision != task.revision:
            session.commit()
            return None
        approvers = eligible_approvals(session=session, record=record, revision=task.revision,
                                       policy=planner.policy, decision=row.decision)
        if record.status != RequestStatus.LAUNCHING:
            transition(session=session, record=record, to=RequestStatus.LAUNCHING, actor=ACTOR, now=now,
                       data={"task": task.task_id, "attempt": task.attempt})
        session.commit()
        decision = Decision.model_validate(row.decision)
        return LaunchJob(task=task, team=record.team, decision=decision, approvers=approvers,
                         reservation=_reservation(session, record.id, decision))


def _not_bought(session: Session, request_id: str, row: PlanRevision) -> tuple[str, str] | None:
    """A plan on an offering (``Plan.on_offering``) launches only once that offering is bought for the request:
    launched without it, the job would run on-demand, or in other capacity, which is not what was approved."""
    decision = Decision.model_validate(row.decision)
    if not decision.plan.on_offering or _reservation(session, request_id, decision) is not None:
        return None
    assert decision.plan.capacity is not None
    return ("reserved_capacity_not_bought",
            f"the plan runs in reserved capacity offered as {decision.plan.capacity.offering_id}, which has not been "
            "bought for this request: approve its purchase (the plan's capacity action), then approve the request "
            "again")


def _reservation(session: Session, request_id: str, decision: Decision) -> str | None:
    """Reserved capacity bought for this request (``service.capacity.actions``) matching the plan's type and region:
    a SageMaker training plan for a SageMaker launch, a capacity block for the others."""
    plan = decision.plan
    held = plan.capacity.offering_id if plan.capacity is not None else None
    if plan.purchase_model is PurchaseModel.CAPACITY_BLOCK and held is not None and held.startswith("cr-"):
        return held  # the team's own capacity block, which the plan chose to run in
    kind = "create-training-plan" if plan.platform is Platform.SAGEMAKER else "purchase-capacity-block"
    field = "training_plan_arn" if plan.platform is Platform.SAGEMAKER else "capacity_reservation_id"
    rows = session.exec(select(CapacityActionRow).where(
        CapacityActionRow.request_id == request_id, CapacityActionRow.status == "done",
        CapacityActionRow.kind == kind).order_by(col(CapacityActionRow.updated_at))).all()
    # a plan on an offering runs only in that offering, bought; any other plan in capacity of its type and region
    offering = plan.capacity.offering_id if plan.on_offering and plan.capacity is not None else None
    found = [str(r.result[field]) for r in rows if r.result.get(field)
             and r.action.get("instance_type") == plan.instance_type and r.action.get("region") == plan.region
             and (offering is None or r.action.get("offering_id") == offering)]
    return found[-1] if found else None


def _upsert_job(session: Session, job: LaunchJob, outcome: LaunchOutcome, now: datetime) -> None:
    row = session.exec(select(Job).where(Job.request_id == job.task.request_id)).first()
    if row is None:
        row = Job(request_id=job.task.request_id, revision=job.task.revision, name=outcome.job_name,
                  platform=job.platform.value, status=outcome.job_status, dry_run=outcome.dry_run,
                  estimated_cost_usd=job.decision.plan.estimated_cost_usd, created_at=now, updated_at=now)
    row.status, row.external_id, row.updated_at = outcome.job_status, outcome.external_id, now
    session.add(row)


def record_launch(*, engine: Engine, job: LaunchJob, outcome: LaunchOutcome, now: datetime) -> bool:
    """Store the outcome with the request's next state, if our claim still holds; False when it did not."""
    task = job.task
    with new_session(engine) as session:
        record = get_request_or_raise(session=session, request_id=task.request_id, lock=True)
        row = session.get(LaunchTask, task.task_id, with_for_update=True)
        if row is None or row.status != "claimed" or row.attempts != task.attempt:
            session.rollback()
            return False
        for artifact in outcome.artifacts:
            add_artifact(session=session, request_id=record.id, kind=artifact.kind, name=artifact.name,
                         content_type=artifact.content_type, content=artifact.content, now=now)
        if outcome.error is not None:
            _finish_task(session, task, status="failed", error=outcome.error, now=now)
            transition(session=session, record=record, to=RequestStatus.FAILED, actor=ACTOR, now=now,
                       event_type="launch.failed", data={"error": outcome.error, "job": outcome.job_name,
                                                         "reason": outcome.reason})
            _count_failure(job.decision, outcome.reason or "error")
        else:
            _upsert_job(session, job, outcome, now)
            _finish_task(session, task, status="done", error=None, now=now)
            _advance(session, record, outcome, now)
        session.commit()
        return True


def _advance(session: Session, record: RequestRecord, outcome: LaunchOutcome, now: datetime) -> None:
    """A live job runs until the tracker sees it end; a dry run ends here in its own state, never ``succeeded``."""
    data = {"job": outcome.job_name, "job_status": outcome.job_status, "dry_run": outcome.dry_run,
            "artifacts": [a.name for a in outcome.artifacts], "note": outcome.note}
    to = RequestStatus.DRY_RUN if outcome.dry_run else RequestStatus.RUNNING
    transition(session=session, record=record, to=to, actor=ACTOR, now=now, data=data)


def release_for_retry(*, engine: Engine, task: ClaimedTask, error: str, now: datetime) -> None:
    """A transient failure (throttling, network): leave the claim to lapse so the lease is the backoff;
    after ``MAX_ATTEMPTS`` the request fails with the last error."""
    with new_session(engine) as session:
        row = session.get(LaunchTask, task.task_id, with_for_update=True)
        if row is None or row.attempts != task.attempt or row.status != "claimed":
            session.rollback()
            return
        if task.attempt < MAX_ATTEMPTS:
            row.last_error, row.updated_at = error, now
            session.add(row)
            session.commit()
            return
        record = get_request_or_raise(session=session, request_id=task.request_id, lock=True)
        _finish_task(session, task, status="failed", error=error, now=now)
        transition(session=session, record=record, to=RequestStatus.FAILED, actor=ACTOR, now=now,
                   event_type="launch.failed", data={"error": f"gave up after {task.attempt} attempts: {error}"})
        session.commit()
        _count_failure(get_revision(session=session, request_id=task.request_id, revision=task.revision).decision,
                       "gave_up")
