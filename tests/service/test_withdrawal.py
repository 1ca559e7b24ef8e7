"""An approval can be taken back, and a reject after approval vetoes the launch (SQLite and Postgres).

Every database here holds neighbours: other requests approved by the same people, so a rule that forgets which
request it is about shows.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import Session, select

from contract.approvals import ApprovalDecision
from contract.errors import Conflict
from service.requests.approvals import record_approval
from service.requests.states import RequestStatus, transition
from service.store.tables import Approval, AuditEvent, LaunchTask, RequestRecord
from tests.service.factories import LEADS, NOW, add_request, make_policy

POLICY = make_policy(approval_window_hours=6)
APPROVE, REJECT, WITHDRAW = ApprovalDecision.APPROVE, ApprovalDecision.REJECT, ApprovalDecision.WITHDRAW


def _decide(session: Session, request_id: str, approver: str, decision: ApprovalDecision,
            policy: object = POLICY) -> tuple[RequestRecord, bool]:
    return record_approval(session=session, policy=policy, request_id=request_id, approver=approver,  # type: ignore[arg-type]
                           decision=decision, comment="changed my mind", now=NOW)


@pytest.fixture
def neighbours(session: Session) -> list[str]:
    """Two other requests the same leads approved, one of them fully."""
    first = add_request(session, approvals_needed=2)
    _decide(session, first.id, LEADS[0], APPROVE)
    second = add_request(session, approvals_needed=1)
    _decide(session, second.id, LEADS[0], APPROVE)
    return [first.id, second.id]


def _statuses(session: Session, ids: list[str]) -> list[str]:
    return [session.get(RequestRecord, i).status for i in ids]  # type: ignore[union-attr]


def _events(session: Session, request_id: str) -> list[str]:
    rows = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id).order_by(AuditEvent.seq))
    return [e.type for e in rows]


def test_approve_then_reject_by_the_same_approver_rejects(session: Session, neighbours: list[str]) -> None:
    before = _statuses(session, neighbours)
    record = add_request(session, approvals_needed=2)
    _decide(session, record.id, LEADS[0], APPROVE)
    updated, counted = _decide(session, record.id, LEADS[0], REJECT)
    assert counted and updated.status == RequestStatus.REJECTED
    with pytest.raises(Conflict):  # a second approver can no longer approve it on the strength of the first
        _decide(session, record.id, LEADS[1], APPROVE)
    assert _events(session, record.id)[-2:] == ["request.approval_changed", "request.rejected"]
    assert _statuses(session, neighbours) == before


def test_a_withdrawn_approval_no_longer_counts(session: Session, neighbours: list[str]) -> None:
    record = add_request(session, approvals_needed=2)
    _decide(session, record.id, LEADS[0], APPROVE)
    withdrawn, counted = _decide(session, record.id, LEADS[0], WITHDRAW)
    assert counted and withdrawn.status == RequestStatus.PENDING_APPROVAL
    still_pending, _ = _decide(session, record.id, LEADS[1], APPROVE)
    assert still_pending.status == RequestStatus.PENDING_APPROVAL  # one approval of two, not two
    rows = session.exec(select(Approval).where(Approval.request_id == record.id)).all()
    assert sorted((r.approver, r.decision) for r in rows) == [(LEADS[0], "withdraw"), (LEADS[1], "approve")]
    assert _statuses(session, neighbours) == ["pending_approval", "approved"]


def test_withdrawing_after_approval_sends_the_plan_back_and_cancels_its_launch(session: Session,
                                                                            neighbours: list[str]) -> None:
    record = add_request(session, approvals_needed=1)
    approved, _ = _decide(session, record.id, LEADS[1], APPROVE)
    assert approved.status == RequestStatus.APPROVED
    back, _ = _decide(session, record.id, LEADS[1], WITHDRAW)
    assert back.status == RequestStatus.PENDING_APPROVAL and back.revision == 2
    assert back.expires_at is not None
    assert back.expires_at.replace(tzinfo=NOW.tzinfo) == NOW + timedelta(hours=6)  # the policy's window
    tasks = session.exec(select(LaunchTask).where(LaunchTask.request_id == record.id)).all()
    assert [t.revision for t in tasks] == [1]  # the queued launch belongs to a revision nobody approves now
    neighbour_tasks = session.exec(select(LaunchTask).where(LaunchTask.request_id == neighbours[1])).all()
    assert len(neighbour_tasks) == 1


def test_a_reject_after_someone_elses_approval_vetoes_the_launch(session: Session, neighbours: list[str]) -> None:
    record = add_request(session, approvals_needed=1)
    _decide(session, record.id, LEADS[0], APPROVE)
    vetoed, counted = _decide(session, record.id, LEADS[1], REJECT)
    assert counted and vetoed.status == RequestStatus.REJECTED
    assert _events(session, record.id)[-1] == "request.rejected"
    assert _statuses(session, neighbours) == ["pending_approval", "approved"]


def test_an_auto_approved_plan_can_be_vetoed_before_it_launches(session: Session) -> None:
    record = add_request(session, status=RequestStatus.AUTO_APPROVED, approvals_needed=0)
    vetoed, _ = _decide(session, record.id, LEADS[2], REJECT)
    assert vetoed.status == RequestStatus.REJECTED


def test_the_policy_can_let_approvals_stand(session: Session) -> None:
    record = add_request(session, approvals_needed=1)
    _decide(session, record.id, LEADS[0], APPROVE)
    with pytest.raises(Conflict) as caught:
        _decide(session, record.id, LEADS[1], REJECT, policy=make_policy(approval_veto=False))
    assert caught.value.code == "veto_not_allowed"
    assert session.get(RequestRecord, record.id).status == RequestStatus.APPROVED  # type: ignore[union-attr]


def test_once_launching_a_change_of_mind_is_refused_with_the_state(session: Session) -> None:
    record = add_request(session, approvals_needed=1)
    approved, _ = _decide(session, record.id, LEADS[0], APPROVE)
    transition(session=session, record=approved, to=RequestStatus.LAUNCHING, actor="worker", now=NOW)
    session.commit()
    with pytest.raises(Conflict) as caught:
        _decide(session, record.id, LEADS[0], WITHDRAW)
    assert caught.value.current_state == "launching"


def test_withdrawing_without_an_approval_says_so(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    with pytest.raises(Conflict) as caught:
        _decide(session, record.id, LEADS[0], WITHDRAW)
    assert caught.value.code == "nothing_to_withdraw"


def test_an_approval_withdrawn_and_given_again_approves(session: Session, neighbours: list[str]) -> None:
    pending = add_request(session, approvals_needed=2)
    _decide(session, pending.id, LEADS[0], APPROVE)
    _decide(session, pending.id, LEADS[0], WITHDRAW)
    _decide(session, pending.id, LEADS[1], APPROVE)
    again, counted = _decide(session, pending.id, LEADS[0], APPROVE)  # a change of mind, not a first approval
    assert counted and again.status == RequestStatus.APPROVED
    assert _events(session, pending.id)[-2:] == ["request.approval_changed", "request.approved"]
    tasks = session.exec(select(LaunchTask.revision).where(LaunchTask.request_id == pending.id)).all()
    assert list(tasks) == [1]


def test_a_withdrawal_that_leaves_enough_approvals_keeps_the_plan_approved(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    _decide(session, record.id, LEADS[0], APPROVE)
    _decide(session, record.id, LEADS[0], WITHDRAW)
    _decide(session, record.id, LEADS[1], APPROVE)
    approved, _ = _decide(session, record.id, LEADS[2], APPROVE)
    assert approved.status == RequestStatus.APPROVED
    third, counted = _decide(session, record.id, LEADS[0], APPROVE)  # approves again after the plan was approved
    assert counted and (third.status, third.revision) == (RequestStatus.APPROVED, 1)
    kept, counted = _decide(session, record.id, LEADS[0], WITHDRAW)  # two of the three approvals still stand
    assert counted and (kept.status, kept.revision) == (RequestStatus.APPROVED, 1)
    assert _events(session, record.id)[-1] == "request.approval_changed"
    tasks = session.exec(select(LaunchTask).where(LaunchTask.request_id == record.id)).all()
    assert [(t.revision, t.status) for t in tasks] == [(1, "queued")]


@pytest.mark.parametrize("end", [RequestStatus.REJECTED, RequestStatus.RUNNING, RequestStatus.SUCCEEDED])
def test_after_the_request_ended_or_ran_a_change_of_mind_is_refused_with_the_state(session: Session,
                                                                                   end: RequestStatus) -> None:
    record = add_request(session, approvals_needed=2)
    _decide(session, record.id, LEADS[0], APPROVE)
    if end is RequestStatus.REJECTED:
        _decide(session, record.id, LEADS[1], REJECT)
    else:
        approved, _ = _decide(session, record.id, LEADS[1], APPROVE)
        path = [RequestStatus.LAUNCHING, RequestStatus.RUNNING, RequestStatus.SUCCEEDED]
        for step in path[:path.index(end) + 1]:
            transition(session=session, record=approved, to=step, actor="system:launcher", now=NOW)
        session.commit()
    for decision in (WITHDRAW, REJECT):
        with pytest.raises(Conflict) as caught:
            _decide(session, record.id, LEADS[0], decision)
        assert caught.value.current_state == end.value
    assert session.get(RequestRecord, record.id).status == end  # type: ignore[union-attr]
