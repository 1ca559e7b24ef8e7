"""The state machine, table-driven: every (from, to) pair is either allowed and audited, or a 409."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, col, select

from contract.errors import Conflict
from contract.status import RequestStatus
from service.audit.chain import verify_chain
from service.requests.states import INITIAL, TRANSITIONS, transition
from service.store.tables import AuditEvent, LaunchTask, RequestRecord
from tests.service.factories import NOW, add_request

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
]
ILLEGAL = [
    (S.PENDING_APPROVAL, S.RUNNING), (S.PENDING_APPROVAL, S.LAUNCHING), (S.APPROVED, S.APPROVED),
    (S.APPROVED, S.CANCELLED), (S.DENIED, S.APPROVED), (S.DENIED, S.PENDING_APPROVAL), (S.AUTO_APPROVED, S.APPROVED),
    (S.REJECTED, S.APPROVED), (S.EXPIRED, S.APPROVED), (S.CANCELLED, S.PENDING_APPROVAL),
    (S.DRY_RUN, S.SUCCEEDED), (S.DRY_RUN, S.RUNNING), (S.APPROVED, S.DRY_RUN),  # a dry run is final on its own
]


def _at(session: Session, status: RequestStatus) -> RequestRecord:
    """A request brought to ``status`` through legal transitions only."""
    path = {S.APPROVED: [S.APPROVED], S.REJECTED: [S.REJECTED], S.EXPIRED: [S.EXPIRED], S.CANCELLED: [S.CANCELLED],
            S.LAUNCHING: [S.APPROVED, S.LAUNCHING], S.DRY_RUN: [S.APPROVED, S.LAUNCHING, S.DRY_RUN]}
    start = status if status in INITIAL else S.PENDING_APPROVAL
    record = add_request(session, status=start)
    for step in path.get(status, []):
        transition(session=session, record=record, to=step, actor="test", now=NOW)
    return record


@pytest.mark.parametrize(("source", "target", "event_type"), ALLOWED)
def test_allowed_transition_writes_its_audit_event(session: Session, source: S, target: S, event_type: str) -> None:
    record = _at(session, source)
    event = transition(session=session, record=record, to=target, actor="slack:T1:X", now=NOW,
                       approval_window=timedelta(hours=3))
    session.commit()
    assert record.status == target
    if target is S.PENDING_APPROVAL:
        assert record.expires_at == NOW + timedelta(hours=3)
    assert (event.type, event.data["from"], event.data["to"]) == (event_type, source.value, target.value)
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
