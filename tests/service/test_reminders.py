"""Approval reminders with back-off and the escalation before expiry, on a fake clock, on SQLite and Postgres; what
was sent is stored, so a restarted worker (a new session) neither repeats nor skips a reminder.

The sweep covers every pending request by design, so these tests seed their own neighbours (``bare_session``)
instead of the shared ones, which must stay untouched."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from contract.approvals import ApprovalDecision
from policy.config import ApprovalReminders
from service.requests.approvals import record_approval
from service.requests.reminders import send_due_reminders
from service.store.tables import AuditEvent
from tests.service.factories import FINANCE, LEADS, NOW, add_request, make_policy

RULES = ApprovalReminders(after_hours=[2, 6, 12], escalation_group="finance", escalate_before_expiry_hours=4)
POLICY = make_policy(approval_reminders=RULES)  # a 24 h window: escalation at 20 h


def _events(session: Session, request_id: str) -> list[AuditEvent]:
    statement = select(AuditEvent).where(AuditEvent.request_id == request_id,
                                         col(AuditEvent.type).in_(["request.reminder", "request.escalated"]))
    return list(session.exec(statement.order_by(col(AuditEvent.seq))))


def test_reminders_back_off_and_escalate_before_expiry(bare_session: Session) -> None:
    session = bare_session
    record = add_request(session)
    neighbour = add_request(session, now=NOW + timedelta(hours=5))  # waits from 5 h: its schedule is its own
    written = []
    for hours in (1.9, 2.0, 3.0, 5.9, 6.0, 11.0, 12.0, 19.9, 20.0, 23.0):
        session.expire_all()  # each round reads what earlier rounds stored, as a restarted worker would
        written.append(send_due_reminders(session=session, policy=POLICY, now=NOW + timedelta(hours=hours)))
    events = _events(session, record.id)
    kinds = [(e.type, e.data.get("reminder"), e.created_at.replace(tzinfo=None)) for e in events]
    assert kinds == [
        ("request.reminder", 1, (NOW + timedelta(hours=2)).replace(tzinfo=None)),
        ("request.reminder", 2, (NOW + timedelta(hours=6)).replace(tzinfo=None)),
        ("request.reminder", 3, (NOW + timedelta(hours=12)).replace(tzinfo=None)),
        ("request.escalated", None, (NOW + timedelta(hours=20)).replace(tzinfo=None)),
    ]
    assert events[0].data["approvers"] == sorted(LEADS) and events[0].data["of"] == 3
    assert events[-1].data["to"] == list(FINANCE) and events[-1].data["group"] == "finance"
    # The neighbour waits from 5 h: its schedule is its own (due at 7, 11 and 17 h, seen by the rounds at 11 h,
    # which covers two at once, and 19.9 h); its escalation (25 h) is not due yet.
    theirs = [(e.data["reminder"], e.created_at.replace(tzinfo=None)) for e in _events(session, neighbour.id)]
    assert theirs == [(2, (NOW + timedelta(hours=11)).replace(tzinfo=None)),
                      (3, (NOW + timedelta(hours=19.9)).replace(tzinfo=None))]
    assert written == [0, 1, 0, 0, 1, 1, 1, 1, 1, 0]


def test_a_reminder_names_only_approvers_still_to_decide(bare_session: Session) -> None:
    session = bare_session
    record = add_request(session, approvals_needed=2)
    record_approval(session=session, policy=POLICY, request_id=record.id, approver=LEADS[0],
                    decision=ApprovalDecision.APPROVE, comment=None, now=NOW + timedelta(minutes=5))
    send_due_reminders(session=session, policy=POLICY, now=NOW + timedelta(hours=2))
    [reminder] = _events(session, record.id)
    assert reminder.data["approvers"] == sorted(LEADS[1:])


def test_after_downtime_one_reminder_covers_all_that_fell_due(bare_session: Session) -> None:
    session = bare_session
    record = add_request(session)
    send_due_reminders(session=session, policy=POLICY, now=NOW + timedelta(hours=13))
    [reminder] = _events(session, record.id)
    assert reminder.data["reminder"] == 3
    assert send_due_reminders(session=session, policy=POLICY, now=NOW + timedelta(hours=14)) == 0


def test_no_reminders_once_decided_or_without_a_schedule(bare_session: Session) -> None:
    session = bare_session
    record = add_request(session)
    record_approval(session=session, policy=POLICY, request_id=record.id, approver=LEADS[0],
                    decision=ApprovalDecision.APPROVE, comment=None, now=NOW)
    assert send_due_reminders(session=session, policy=POLICY, now=NOW + timedelta(hours=21)) == 0
    other = add_request(session)
    assert send_due_reminders(session=session, policy=make_policy(), now=NOW + timedelta(hours=21)) == 0
    assert _events(session, record.id) == [] and _events(session, other.id) == []
