"""Approvals that cannot be gamed (service level, on SQLite and Postgres)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlmodel import Session, select

from contract.approvals import ApprovalDecision
from contract.errors import Conflict, Forbidden
from contract.status import RequestStatus
from policy.membership import Filer
from policy.request import Stage
from service.audit.chain import verify_chain
from service.launch.outbox import eligible_approvals
from service.requests.approvals import record_approval
from service.requests.records import expire_overdue, read_request
from service.requests.states import transition
from service.requests.views import counted_approvers, current_approvals
from service.store.tables import Approval, AuditEvent, LaunchTask, RequestRecord
from tests.service.factories import FINANCE, LEADS, NOW, add_request, make_policy

POLICY = make_policy()
APPROVE, REJECT = ApprovalDecision.APPROVE, ApprovalDecision.REJECT


def _decide(session: Session, request_id: str, approver: str, decision: ApprovalDecision = APPROVE,
            now: datetime = NOW) -> tuple[RequestRecord, bool]:
    return record_approval(session=session, policy=POLICY, request_id=request_id, approver=approver,
                           decision=decision, comment=None, now=now)


def _launch_tasks(session: Session, request_id: str) -> int:
    return len(session.exec(select(LaunchTask).where(LaunchTask.request_id == request_id)).all())


def test_requester_never_approves_their_own_request(session: Session) -> None:
    record = add_request(session, requester=LEADS[0])
    with pytest.raises(Forbidden) as caught:
        _decide(session, record.id, LEADS[0])
    assert caught.value.code == "own_request"


def test_only_the_team_and_stage_approver_groups_count(session: Session) -> None:
    record = add_request(session, stage=Stage.EXPERIMENTAL)
    with pytest.raises(Forbidden) as caught:
        _decide(session, record.id, FINANCE[0])  # finance approves production work only
    assert "ml-leads" in caught.value.message and caught.value.code == "not_an_approver"
    production = add_request(session, stage=Stage.PRODUCTION)
    updated, counted = _decide(session, production.id, FINANCE[0])
    assert counted and updated.status == RequestStatus.APPROVED


def test_needed_approvals_then_one_transition_and_one_launch(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    first, _ = _decide(session, record.id, LEADS[0])
    assert first.status == RequestStatus.PENDING_APPROVAL
    second, _ = _decide(session, record.id, LEADS[1])
    assert second.status == RequestStatus.APPROVED
    assert _launch_tasks(session, record.id) == 1
    with pytest.raises(Conflict) as caught:
        _decide(session, record.id, LEADS[2])
    assert caught.value.current_state == "approved"


def test_a_second_approval_by_the_same_person_is_a_no_op(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    _decide(session, record.id, LEADS[0])
    again, counted = _decide(session, record.id, LEADS[0])
    assert not counted and again.status == RequestStatus.PENDING_APPROVAL
    rows = session.exec(select(Approval).where(Approval.request_id == record.id)).all()
    assert len(rows) == 1


def test_reject_by_an_eligible_approver_rejects(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    updated, _ = _decide(session, record.id, LEADS[0], REJECT)
    assert updated.status == RequestStatus.REJECTED
    assert _launch_tasks(session, record.id) == 0


def test_denied_requests_take_no_approvals(session: Session) -> None:
    record = add_request(session, status=RequestStatus.DENIED)
    with pytest.raises(Conflict) as caught:
        _decide(session, record.id, LEADS[0])
    assert caught.value.current_state == "denied"


def test_past_the_window_the_request_expires_on_write_on_read_and_in_the_sweep(session: Session) -> None:
    on_write = add_request(session, window_hours=1)
    with pytest.raises(Conflict) as caught:
        _decide(session, on_write.id, LEADS[0], now=NOW + timedelta(hours=2))
    assert caught.value.current_state == "expired"
    on_read = add_request(session, window_hours=1)
    assert read_request(session=session, request_id=on_read.id, now=NOW + timedelta(hours=2)).status == "expired"
    swept = [add_request(session, window_hours=1) for _ in range(3)]
    assert expire_overdue(session=session, now=NOW + timedelta(hours=2)) == 3
    assert {read_request(session=session, request_id=r.id, now=NOW).status for r in swept} == {"expired"}
    expired_events = session.exec(select(AuditEvent).where(AuditEvent.type == "request.expired")).all()
    assert len(expired_events) == 5
    assert verify_chain(session=session).ok


def test_an_approver_who_left_the_group_no_longer_counts(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    _decide(session, record.id, LEADS[0])
    shrunk = make_policy(groups={"ml-leads": LEADS[1:], "finance": FINANCE})
    updated, counted = record_approval(session=session, policy=shrunk, request_id=record.id, approver=LEADS[1],
                                       decision=APPROVE, comment=None, now=NOW)
    assert counted and updated.status == RequestStatus.PENDING_APPROVAL


def test_back_to_pending_opens_a_fresh_window(session: Session) -> None:
    record = add_request(session, window_hours=1)
    _decide(session, record.id, LEADS[0])
    later = NOW + timedelta(hours=5)
    transition(session=session, record=record, to=RequestStatus.PENDING_APPROVAL, actor="system:launcher",
               now=later, approval_window=timedelta(hours=24))
    session.commit()
    assert read_request(session=session, request_id=record.id, now=later + timedelta(hours=1)).status == \
        "pending_approval"


def test_back_for_approval_after_launch_was_queued_needs_new_approvals(session: Session) -> None:
    record = add_request(session, approvals_needed=1)
    _decide(session, record.id, LEADS[0])
    later = NOW + timedelta(hours=1)
    locked = read_request(session=session, request_id=record.id, now=later)
    transition(session=session, record=locked, to=RequestStatus.PENDING_APPROVAL, actor="system:launcher", now=later,
               approval_window=timedelta(hours=24))
    session.commit()
    assert (locked.revision, current_approvals(session=session, record=locked)) == (2, [])
    again, counted = _decide(session, record.id, LEADS[0], now=later)
    assert counted and again.status == RequestStatus.APPROVED
    tasks = session.exec(select(LaunchTask.revision).where(LaunchTask.request_id == record.id)).all()
    assert sorted(tasks) == [1, 2]


def test_approvals_count_whichever_approver_comes_first(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    first, counted_first = _decide(session, record.id, LEADS[2])
    second, counted_second = _decide(session, record.id, LEADS[0])  # sorts before the first approver
    assert (counted_first, counted_second) == (True, True)
    assert second.status == RequestStatus.APPROVED
    events = session.exec(select(AuditEvent).where(AuditEvent.request_id == record.id,
                                                   AuditEvent.type == "request.approval_recorded")).all()
    assert [(e.data["approver"], e.data["approvals"], e.data["needed"]) for e in events] == [
        (LEADS[2], 1, 2), (LEADS[0], 2, 2)]


@pytest.mark.parametrize("shown", [1, 3])
def test_a_decision_on_a_revision_other_than_the_current_one_records_nothing(session: Session, shown: int) -> None:
    record = add_request(session, approvals_needed=1)
    record.revision = 2  # the plan was edited since revision 1 was shown
    session.add(record)
    session.commit()
    with pytest.raises(Conflict) as caught:
        record_approval(session=session, policy=POLICY, request_id=record.id, approver=LEADS[0], decision=APPROVE,
                        comment=None, now=NOW, revision=shown)
    assert (caught.value.code, caught.value.current_state) == ("revision_changed", "pending_approval")
    assert current_approvals(session=session, record=record) == []
    updated, counted = record_approval(session=session, policy=POLICY, request_id=record.id, approver=LEADS[0],
                                       decision=APPROVE, comment=None, now=NOW, revision=2)
    assert counted and updated.status == RequestStatus.APPROVED


GROUP_POLICY = make_policy(groups={"ml-leads": ["usergroup:S0LEADS", "email:lead@example.com"],
                                   "finance": list(FINANCE)})


def test_an_approver_through_a_user_group_or_e_mail_counts_while_the_policy_lists_it(session: Session) -> None:
    record = add_request(session, approvals_needed=2)
    add_request(session, approvals_needed=2)  # a neighbour: nothing of it may count here
    grouped = Filer(actor=LEADS[0], groups=frozenset({"S0LEADS"}))
    mailed = Filer(actor=LEADS[1], email="Lead@Example.com")
    for person in (grouped, mailed):
        record_approval(session=session, policy=GROUP_POLICY, request_id=record.id, approver=person.actor,
                        decision=APPROVE, comment=None, now=NOW, person=person)
    assert read_request(session=session, request_id=record.id, now=NOW).status == RequestStatus.APPROVED
    rows = current_approvals(session=session, record=record)
    assert [(a.approver, a.eligible_via) for a in rows] == [(LEADS[0], "usergroup:S0LEADS"),
                                                          (LEADS[1], "email:lead@example.com")]
    assert eligible_approvals(session=session, record=record, revision=1, policy=GROUP_POLICY) == sorted(LEADS[:2])
    # The user group leaves the policy: its member's approval no longer covers a launch.
    narrower = make_policy(groups={"ml-leads": ["email:lead@example.com"], "finance": list(FINANCE)})
    assert eligible_approvals(session=session, record=record, revision=1, policy=narrower) == [LEADS[1]]
    assert counted_approvers(policy=narrower, record=record, approvals=rows) == [LEADS[1]]


def test_a_group_entry_admits_nobody_the_bot_did_not_vouch_for(session: Session) -> None:
    record = add_request(session)
    with pytest.raises(Forbidden) as caught:  # no facts: the same person, unknown to the service
        record_approval(session=session, policy=GROUP_POLICY, request_id=record.id, approver=LEADS[0],
                        decision=APPROVE, comment=None, now=NOW)
    assert caught.value.code == "not_an_approver"
    with pytest.raises(Forbidden):  # facts about someone else do not carry over
        record_approval(session=session, policy=GROUP_POLICY, request_id=record.id, approver=LEADS[0],
                        decision=APPROVE, comment=None, now=NOW,
                        person=Filer(actor=LEADS[1], groups=frozenset({"S0LEADS"})))
    assert current_approvals(session=session, record=record) == []
