"""The state machine, table-driven: every (from, to) pair is either allowed and audited, or a 409."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from contract.errors import Conflict
from contract.status import RequestStatus
from service.audit.chain import verify_chain
from service.requests.states import INITIAL, TRANSITIONS, transition
from service.requests.views import current_approvals
from service.store.tables import Approval, AuditEvent, LaunchTask, PlanRevision, RequestRecord
from tests.service.factories import LEADS, NOW, add_request

LATER = NOW + timedelta(hours=2)

S = RequestStatus
ALLOWED = [
    (S.PENDING_APPROVAL, S.APPROVED, "request.approved"),
    (S.PENDING_APPROVAL, S.REJECTED, "request.rejected"),
    (S.PENDING_APPROVAL, S.EXPIRED, "request.expired"),
    (S.PENDING_APPROVAL, S.CANCELLED, "request.cancelled"),
    (S.AUTO_APPROVED, S.LAUNCHING, "launch.started"),
    (S.APPROVED, S.LAUNCHING, "launch.started"),
    (S.APPROVED, S.PENDING_APPROVAL, "request.reapproval_required"),
    (S.AUTO_APPROVED, S.PENDING_APPROVAL, "request.reapproval_required"),
    (S.LAUNCHING, S.DRY_RUN, "launch.dry_run"),
    (S.PENDING_APPROVAL, S.AUTO_APPROVED, "request.auto_approved"),  # a revision re-ran the decision
    (S.PENDING_APPROVAL, S.DENIED, "request.denied"),
    (S.APPROVED, S.REJECTED, "request.rejected"),  # a veto before launch
    (S.AUTO_APPROVED, S.REJECTED, "request.rejected"),
    (S.LAUNCHING, S.RUNNING, "job.status_changed"),
    (S.LAUNCHING, S.FAILED, "launch.failed"),  # failing before the job ran is the launch's failure, not the job's
    (S.RUNNING, S.SUCCEEDED, "job.completed"),
    (S.RUNNING, S.FAILED, "job.completed"),
    (S.RUNNING, S.STOPPED, "job.completed"),
]
ILLEGAL = [
    (S.PENDING_APPROVAL, S.RUNNING), (S.PENDING_APPROVAL, S.LAUNCHING), (S.APPROVED, S.APPROVED),
    (S.APPROVED, S.CANCELLED), (S.DENIED, S.APPROVED), (S.DENIED, S.PENDING_APPROVAL), (S.AUTO_APPROVED, S.APPROVED),
    (S.REJECTED, S.APPROVED), (S.EXPIRED, S.APPROVED), (S.CANCELLED, S.PENDING_APPROVAL),
    (S.DRY_RUN, S.SUCCEEDED), (S.DRY_RUN, S.RUNNING), (S.APPROVED, S.DRY_RUN),  # a dry run is final on its own
    (S.RUNNING, S.LAUNCHING), (S.SUCCEEDED, S.RUNNING), (S.FAILED, S.LAUNCHING), (S.STOPPED, S.RUNNING),
]


def _at(session: Session, status: RequestStatus) -> RequestRecord:
    """A request brought to ``status`` through legal transitions only."""
    path = {S.APPROVED: [S.APPROVED], S.REJECTED: [S.REJECTED], S.EXPIRED: [S.EXPIRED], S.CANCELLED: [S.CANCELLED],
            S.LAUNCHING: [S.APPROVED, S.LAUNCHING], S.DRY_RUN: [S.APPROVED, S.LAUNCHING, S.DRY_RUN],
            S.RUNNING: [S.APPROVED, S.LAUNCHING, S.RUNNING],
            **{end: [S.APPROVED, S.LAUNCHING, S.RUNNING, end] for end in (S.SUCCEEDED, S.FAILED, S.STOPPED)}}
    start = status if status in INITIAL else S.PENDING_APPROVAL
    record = add_request(session, status=start)
    for step in path.get(status, []):
        transition(session=session, record=record, to=step, actor="test", now=NOW)
    return record


@pytest.mark.parametrize(("source", "target", "event_type"), ALLOWED)
def test_allowed_transition_writes_its_audit_event(session: Session, source: S, target: S, event_type: str) -> None:
    record = _at(session, source)
    event = transition(session=session, record=record, to=target, actor="slack:T1:X", now=LATER,
                       approval_window=timedelta(hours=3), data={"reason": "because"})
    session.commit()
    assert (record.status, record.updated_at) == (target, LATER)
    if target is S.PENDING_APPROVAL:
        assert record.expires_at == LATER + timedelta(hours=3)
    revision = 2 if target is S.PENDING_APPROVAL else 1  # back for approval after launch was queued: a new revision
    assert (event.type, event.actor, event.request_id) == (event_type, "slack:T1:X", record.id)
    assert event.data == {"from": source.value, "to": target.value, "revision": revision, "reason": "because"}
    assert verify_chain(session=session).ok


@pytest.mark.parametrize(("source", "target"), ILLEGAL)
def test_illegal_transition_is_a_conflict_with_the_current_state(session: Session, source: S, target: S) -> None:
    record = _at(session, source)
    with pytest.raises(Conflict) as caught:
        transition(session=session, record=record, to=target, actor="test", now=NOW)
    assert caught.value.current_state == source.value


def test_every_state_has_a_row_in_the_table() -> None:
    reachable = set(INITIAL) | {t for targets in TRANSITIONS.values() for t in targets}
    assert reachable == set(RequestStatus)


@pytest.mark.parametrize("status", [S.AUTO_APPROVED])
def test_auto_approval_queues_the_launch_in_the_same_transaction(session: Session, status: S) -> None:
    record = add_request(session, status=status)
    tasks = session.exec(select(LaunchTask).where(LaunchTask.request_id == record.id)).all()
    assert [(t.status, t.revision) for t in tasks] == [("queued", 1)]
    types = session.exec(select(AuditEvent.type).where(AuditEvent.request_id == record.id)
                         .order_by(col(AuditEvent.seq))).all()
    assert list(types) == ["request.created", "request.auto_approved"]


def test_approval_transition_queues_exactly_one_launch(session: Session) -> None:
    record = add_request(session)
    transition(session=session, record=record, to=S.APPROVED, actor="test", now=NOW)
    session.commit()
    tasks = session.exec(select(LaunchTask).where(LaunchTask.request_id == record.id)).all()
    assert len(tasks) == 1


def test_going_back_for_approval_without_the_policys_window_is_refused(session: Session) -> None:
    record = _at(session, S.APPROVED)
    with pytest.raises(ValueError, match="approval window"):
        transition(session=session, record=record, to=S.PENDING_APPROVAL, actor="test", now=NOW)


def test_an_explicit_event_type_replaces_the_states_own(session: Session) -> None:
    record = _at(session, S.LAUNCHING)
    event = transition(session=session, record=record, to=S.FAILED, actor="system:launcher", now=NOW,
                       event_type="launch.failed", data={"error": "quota"})
    assert (event.type, event.data["error"]) == ("launch.failed", "quota")


def _revisions(session: Session, request_id: str) -> list[PlanRevision]:
    return list(session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)
                             .order_by(col(PlanRevision.revision))))


def _tasks(session: Session, request_id: str) -> list[tuple[int, str]]:
    return sorted((t.revision, t.status) for t in
                  session.exec(select(LaunchTask).where(LaunchTask.request_id == request_id)))


@pytest.mark.parametrize("status", [S.APPROVED, S.AUTO_APPROVED])
def test_back_for_approval_after_launch_was_queued_copies_the_plan_as_a_new_revision(session: Session,
                                                                                     status: S) -> None:
    record = add_request(session, status=S.PENDING_APPROVAL if status is S.APPROVED else status)
    if status is S.APPROVED:
        session.add(Approval(request_id=record.id, revision=1, approver=LEADS[0], decision="approve", created_at=NOW))
        transition(session=session, record=record, to=S.APPROVED, actor=LEADS[0], now=NOW)
    event = transition(session=session, record=record, to=S.PENDING_APPROVAL, actor="system:launcher", now=LATER,
                       approval_window=timedelta(hours=3), data={"reason": "prices moved"})
    session.commit()

    old, new = _revisions(session, record.id)
    assert (record.revision, old.revision, new.revision) == (2, 1, 2)
    same = ("inputs", "training_request", "decision", "plan_hash", "policy_version", "price_snapshot", "spend",
            "estimated_cost_usd", "approvals_needed", "denied")
    assert {f: getattr(new, f) for f in same} == {f: getattr(old, f) for f in same}
    assert (new.created_by, new.created_at.replace(tzinfo=LATER.tzinfo)) == ("system:launcher", LATER)
    assert current_approvals(session=session, record=record) == []  # approvals of revision 1 no longer count
    assert _tasks(session, record.id) == [(1, "queued")]  # the only task names revision 1: the launcher drops it
    assert event.data["revision"] == 2


def _relaunched(session: Session, request_id: str | None = None) -> RequestRecord:
    """A request approved again at revision 2, its launch for revision 2 queued."""
    record = add_request(session, status=S.AUTO_APPROVED, request_id=request_id)
    transition(session=session, record=record, to=S.PENDING_APPROVAL, actor="system:launcher", now=NOW,
               approval_window=timedelta(hours=3))
    transition(session=session, record=record, to=S.AUTO_APPROVED, actor="system:planner", now=NOW)
    session.commit()
    return record


def test_a_revision_the_caller_already_wrote_gets_no_second_copy(session: Session) -> None:
    # Another request has a launch queued for revision 2, and its id sorts first: it is not this one's.
    _relaunched(session, request_id="req_0000" + "0" * 12)
    record = _at(session, S.APPROVED)
    first = _revisions(session, record.id)[0]
    edited = first.model_dump(exclude={"id", "revision"}) | {"estimated_cost_usd": 2000.0}
    session.add(PlanRevision(**edited, revision=2))
    record.revision = 2
    transition(session=session, record=record, to=S.PENDING_APPROVAL, actor=LEADS[0], now=NOW,
               approval_window=timedelta(hours=3))
    session.commit()
    assert [(r.revision, r.estimated_cost_usd) for r in _revisions(session, record.id)] == [(1, 1000.0), (2, 2000.0)]
    assert record.revision == 2


def test_approving_the_new_revision_queues_its_own_launch(session: Session) -> None:
    record = _at(session, S.APPROVED)
    transition(session=session, record=record, to=S.PENDING_APPROVAL, actor="system:launcher", now=NOW,
               approval_window=timedelta(hours=3))
    transition(session=session, record=record, to=S.AUTO_APPROVED, actor="system:planner", now=LATER)
    session.commit()
    assert _tasks(session, record.id) == [(1, "queued"), (2, "queued")]
    task = session.exec(select(LaunchTask).where(LaunchTask.request_id == record.id, LaunchTask.revision == 2)).one()
    assert task.created_at.replace(tzinfo=LATER.tzinfo) == LATER


@pytest.mark.parametrize(("status", "types", "tasks"), [
    (S.PENDING_APPROVAL, ["request.created"], []),
    (S.AUTO_APPROVED, ["request.created", "request.auto_approved"], [(1, "queued")]),
    (S.DENIED, ["request.created", "request.denied"], []),
])
def test_a_new_request_records_its_first_state(session: Session, status: S, types: list[str],
                                                tasks: list[tuple[int, str]]) -> None:
    record = add_request(session, status=status)
    events = list(session.exec(select(AuditEvent).where(AuditEvent.request_id == record.id)
                               .order_by(col(AuditEvent.seq))))
    assert [e.type for e in events] == types
    assert events[0].data == {"status": status.value, "revision": 1}
    assert [e.data for e in events[1:]] == [{"to": status.value, "revision": 1} for _ in events[1:]]
    assert _tasks(session, record.id) == tasks


@pytest.mark.parametrize("status", [S.APPROVED, S.LAUNCHING, S.RUNNING, S.REJECTED])
def test_a_new_request_cannot_start_past_the_decision(session: Session, status: S) -> None:
    with pytest.raises(Conflict) as caught:
        add_request(session, status=status)
    assert caught.value.current_state is None
    session.rollback()


def test_going_back_a_second_time_copies_the_latest_revision(session: Session) -> None:
    record = _at(session, S.APPROVED)
    edited = _revisions(session, record.id)[0].model_dump(exclude={"id", "revision"}) | {"estimated_cost_usd": 2000.0}
    session.add(PlanRevision(**edited, revision=2))  # the requester edited the plan, which went back for approval
    record.revision = 2
    transition(session=session, record=record, to=S.PENDING_APPROVAL, actor=LEADS[0], now=NOW,
               approval_window=timedelta(hours=3))
    transition(session=session, record=record, to=S.AUTO_APPROVED, actor="system:planner", now=NOW)
    transition(session=session, record=record, to=S.PENDING_APPROVAL, actor="system:launcher", now=LATER,
               approval_window=timedelta(hours=3))
    session.commit()
    assert [(r.revision, r.estimated_cost_usd) for r in _revisions(session, record.id)] == [
        (1, 1000.0), (2, 2000.0), (3, 2000.0)]
    assert _tasks(session, record.id) == [(1, "queued"), (2, "queued")]
