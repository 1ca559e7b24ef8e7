"""Reminders to approvers of a request that waits, and the escalation before its approval window closes.

The worker runs ``send_due_reminders`` every round. What it sends is an audit event the bot follows
(``request.reminder`` names the approvers still to decide; ``request.escalated`` names the escalation group's people),
written in the same transaction that counts it on the request row (``reminders_sent`` for the window ending
``reminded_for``, ``escalated_for``), so a restarted worker neither repeats nor skips one, and replicas sweeping at
once lock different rows (``SKIP LOCKED``). After downtime that let several reminders fall due, one reminder goes out
for all of them: approvers are nudged, not flooded.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session, col, select

from contract.approvals import ApprovalDecision
from contract.status import RequestStatus
from policy.config import ApprovalReminders, PolicyConfig
from service.audit.chain import append_event
from service.requests.views import current_approvals, eligible_approvers
from service.store.tables import RequestRecord

REMINDER_ACTOR = "system:reminders"


def _window_start(record: RequestRecord, policy: PolicyConfig) -> datetime:
    assert record.expires_at is not None
    return record.expires_at - timedelta(hours=policy.approval_window_hours)


def _reminders_due(record: RequestRecord, rules: ApprovalReminders, policy: PolicyConfig, now: datetime) -> int:
    """How many of the schedule's reminders have fallen due in the current window."""
    elapsed = (now - _window_start(record, policy)).total_seconds() / 3600
    return sum(1 for hours in rules.after_hours if elapsed >= hours)


def _waiting_for(session: Session, record: RequestRecord, policy: PolicyConfig) -> list[str]:
    decided = {a.approver for a in current_approvals(session=session, record=record)
               if a.decision != ApprovalDecision.WITHDRAW}
    return [entry for entry in eligible_approvers(policy, record) if entry not in decided]


def _remind(session: Session, record: RequestRecord, policy: PolicyConfig, rules: ApprovalReminders,
            now: datetime) -> int:
    """Write what is due for one locked pending request; how many events."""
    sent = 0
    window = record.expires_at
    assert window is not None
    count = record.reminders_sent if record.reminded_for == window else 0
    due = _reminders_due(record, rules, policy, now)
    if due > count:
        append_event(session=session, type="request.reminder", actor=REMINDER_ACTOR, request_id=record.id, now=now,
                     data={"reminder": due, "of": len(rules.after_hours), "revision": record.revision,
                           "approvers": _waiting_for(session, record, policy),
                           "expires_at": window.isoformat()})
        record.reminders_sent, record.reminded_for = due, window
        sent += 1
    group = rules.escalation_group
    escalate_at = window - timedelta(hours=rules.escalate_before_expiry_hours)
    if group is not None and now >= escalate_at and record.escalated_for != window:
        append_event(session=session, type="request.escalated", actor=REMINDER_ACTOR, request_id=record.id, now=now,
                     data={"group": group, "to": list(policy.groups.get(group, [])), "revision": record.revision,
                           "approvers": _waiting_for(session, record, policy), "expires_at": window.isoformat()})
        record.escalated_for = window
        sent += 1
    if sent:
        session.add(record)
    return sent


def send_due_reminders(*, session: Session, policy: PolicyConfig, now: datetime, limit: int = 200) -> int:
    """Remind and escalate for pending requests whose time has come; how many events were written. Commits."""
    rules = policy.approval_reminders
    if rules is None:
        return 0
    statement = (
        select(RequestRecord)
        .where(RequestRecord.status == RequestStatus.PENDING_APPROVAL, col(RequestRecord.expires_at) > now)
        .order_by(col(RequestRecord.expires_at))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    written = sum(_remind(session, record, policy, rules, now) for record in session.exec(statement).all())
    session.commit()
    return written
