"""The request state machine: the one place a request's status changes.

    (new) ──▶ needs_input ──▶ pending_approval | auto_approved | denied | estimate   (the questions answered: planned)
                         └──▶ cancelled
    (new) ──▶ pending_approval ──▶ approved ──▶ launching ──▶ running ──▶ succeeded | failed | stopped
          ├─▶ auto_approved ─────────────────▶ launching       ├──▶ failed (launch failed)
                                                               └──▶ dry_run (GPUOPS_LAUNCH=dry-run: nothing sent)
          ├─▶ denied
          └─▶ estimate   ("just a quote, don't launch": a plan to read; no approval, no launch, ever)
    pending_approval ──▶ rejected | expired | cancelled
    pending_approval ──▶ auto_approved | denied      (a revision re-ran the decision)
    approved | auto_approved ──▶ pending_approval    (prices or spend moved beyond tolerance, an approval was
                                                      withdrawn, or the requester edited it: approve again)
    approved | auto_approved ──▶ rejected            (an eligible approver vetoed it before launch)

Every transition writes an audit event (which is also the feed event) in the caller's transaction; entering
``approved`` or ``auto_approved`` also queues the ``launch_task`` outbox row, and going back to ``pending_approval``
after that makes the plan a new revision, so earlier approvals no longer count. An illegal transition raises
``Conflict`` carrying the current state (HTTP 409). The statuses themselves are on the wire, so ``RequestStatus`` lives
in ``contract.status``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, select

from contract.errors import Conflict
from contract.status import RequestStatus
from service.audit.chain import NewEvent, append_event, append_events
from service.store.tables import AuditEvent, LaunchTask, PlanRevision, RequestRecord

S = RequestStatus
INITIAL: frozenset[RequestStatus] = frozenset({S.NEEDS_INPUT, S.PENDING_APPROVAL, S.AUTO_APPROVED, S.DENIED,
                                               S.ESTIMATE})
TRANSITIONS: dict[RequestStatus, frozenset[RequestStatus]] = {
    S.NEEDS_INPUT: frozenset({S.PENDING_APPROVAL, S.AUTO_APPROVED, S.DENIED, S.ESTIMATE, S.CANCELLED}),
    S.PENDING_APPROVAL: frozenset({S.APPROVED, S.REJECTED, S.EXPIRED, S.CANCELLED, S.AUTO_APPROVED, S.DENIED}),
    S.AUTO_APPROVED: frozenset({S.LAUNCHING, S.PENDING_APPROVAL, S.REJECTED}),
    S.APPROVED: frozenset({S.LAUNCHING, S.PENDING_APPROVAL, S.REJECTED}),
    S.LAUNCHING: frozenset({S.RUNNING, S.FAILED, S.DRY_RUN}),
    S.RUNNING: frozenset({S.SUCCEEDED, S.FAILED, S.STOPPED}),
}
LAUNCHABLE: frozenset[RequestStatus] = frozenset({S.APPROVED, S.AUTO_APPROVED})
EVENT_TYPES: dict[RequestStatus, str] = {
    S.NEEDS_INPUT: "request.needs_input",
    S.PENDING_APPROVAL: "request.reapproval_required",
    S.AUTO_APPROVED: "request.auto_approved",
    S.APPROVED: "request.approved",
    S.LAUNCHING: "launch.started",
    S.RUNNING: "job.status_changed",
    S.SUCCEEDED: "job.completed",
    S.FAILED: "job.completed",
    S.STOPPED: "job.completed",
    S.REJECTED: "request.rejected",
    S.EXPIRED: "request.expired",
    S.CANCELLED: "request.cancelled",
    S.DENIED: "request.denied",
    S.DRY_RUN: "launch.dry_run",
    S.ESTIMATE: "request.estimate",
}


def can_transition(source: RequestStatus, target: RequestStatus) -> bool:
    return target in TRANSITIONS.get(source, frozenset())


def _fresh_revision(session: Session, record: RequestRecord, actor: str, now: datetime) -> None:
    """Going back for approval after launch was queued: the same plan as a new revision, so the approvals (and the
    launch task) of the old one stop counting. A caller that already wrote a new revision gets no second one."""
    queued = session.exec(select(LaunchTask.id).where(LaunchTask.request_id == record.id,
                                                      LaunchTask.revision == record.revision)).first()
    if queued is None:
        return
    current = session.exec(select(PlanRevision).where(PlanRevision.request_id == record.id,
                                                      PlanRevision.revision == record.revision)).one()
    record.revision += 1
    copy = current.model_dump(exclude={"id", "revision", "created_by", "created_at"})
    session.add(PlanRevision(**copy, revision=record.revision, created_by=actor, created_at=now))


def _queue_launch(session: Session, record: RequestRecord, now: datetime) -> None:
    """The launch of the revision in force, held until the start its plan was made for, if the request said one."""
    row = session.exec(select(PlanRevision).where(PlanRevision.request_id == record.id,
                                                  PlanRevision.revision == record.revision)).first()
    start = (row.decision.get("request") or {}).get("start_after") if row is not None else None
    session.add(LaunchTask(request_id=record.id, revision=record.revision, created_at=now, updated_at=now,
                           not_before=datetime.fromisoformat(start) if start else None))


def transition(
    *, session: Session, record: RequestRecord, to: RequestStatus, actor: str, now: datetime,
    data: dict[str, Any] | None = None, event_type: str | None = None,
    approval_window: timedelta | None = None,
) -> AuditEvent:
    """Move ``record`` to ``to`` (the caller holds its row lock) and record why; raise Conflict if illegal.

    Going back to ``pending_approval`` opens a fresh ``approval_window``: the policy's, which every such caller
    must pass (there is no default, so a caller cannot silently open a window the policy does not set).
    """
    source = RequestStatus(record.status)
    if not can_transition(source, to):
        raise Conflict(f"the request is {source.value} and cannot become {to.value}", current_state=source.value)
    if to is S.PENDING_APPROVAL:
        if approval_window is None:
            raise ValueError("going back to pending_approval needs the policy's approval window")
        _fresh_revision(session, record, actor, now)
        record.expires_at = now + approval_window
    record.status = to.value
    record.updated_at = now
    session.add(record)
    if to in LAUNCHABLE:
        _queue_launch(session, record, now)
    payload = {"from": source.value, "to": to.value, "revision": record.revision, **(data or {})}
    if event_type is None:
        launch_failed = source is S.LAUNCHING and to is S.FAILED
        event_type = "launch.failed" if launch_failed else EVENT_TYPES[to]
    return append_event(
        session=session, type=event_type, actor=actor, request_id=record.id, data=payload, now=now
    )


def enter_initial(
    *, session: Session, record: RequestRecord, status: RequestStatus, actor: str, now: datetime,
    data: dict[str, Any] | None = None,
) -> list[AuditEvent]:
    """Record a new request in its first state: ``request.created`` plus the outcome when it is not pending."""
    if status not in INITIAL:
        raise Conflict(f"a new request cannot start as {status.value}", current_state=None)
    record.status = status.value
    session.add(record)
    session.flush()
    if status in LAUNCHABLE:
        _queue_launch(session, record, now)
    payload = {"status": status.value, "revision": record.revision, **(data or {})}
    events = [NewEvent(type="request.created", actor=actor, request_id=record.id, data=payload)]
    if status is not S.PENDING_APPROVAL:
        events.append(NewEvent(type=EVENT_TYPES[status], actor=actor, request_id=record.id,
                               data={"to": status.value, "revision": record.revision}))
    return append_events(session=session, events=events, now=now)
