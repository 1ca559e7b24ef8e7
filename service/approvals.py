"""Approvals that cannot be gamed.

- the requester never approves (or rejects) their own request;
- only members of the approver groups for the request's team and stage count;
- approvals bind to the current plan revision (an edit makes a new one, so earlier approvals stop counting);
- a second decision by the same person on the same revision is a no-op, not a second vote;
- the request row is locked ``FOR UPDATE`` while deciding, and ``uq_approval_request_revision_approver`` backs it,
  so concurrent approvals never double-count and never double-transition;
- one eligible rejection rejects; the decision's ``approvals_needed`` approvals approve (and queue the launch).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from contract.approvals import ApprovalDecision
from contract.errors import Conflict, Forbidden
from contract.status import RequestStatus
from policy.config import PolicyConfig
from policy.request import Stage
from service.audit import append_event
from service.records import expire_if_due, get_request_or_raise
from service.states import transition
from service.store.tables import Approval, RequestRecord
from service.views import counted_approvers, current_approvals


def check_may_decide(*, policy: PolicyConfig, record: RequestRecord, approver: str) -> None:
    """Raise Forbidden when this person may not decide (in any state), Conflict when nothing can be approved."""
    if approver == record.requester:
        raise Forbidden("you asked for this, so someone else has to approve it", code="own_request")
    stage = Stage(record.stage)
    if approver not in policy.approvers_for(record.team, stage):
        groups = ", ".join(policy.approver_groups(record.team, stage)) or "no group (none configured)"
        raise Forbidden(f"only members of {groups} can approve {stage.value} requests of {record.team}",
                        code="not_an_approver")
    if record.status == RequestStatus.DENIED:
        raise Conflict("policy denied this request; there is nothing to approve", current_state=record.status)
    if record.status != RequestStatus.PENDING_APPROVAL:
        raise Conflict(f"this request is {record.status}; it no longer takes approvals", current_state=record.status)


def _existing(session: Session, record: RequestRecord, approver: str) -> Approval | None:
    statement = select(Approval).where(
        Approval.request_id == record.id, Approval.revision == record.revision, Approval.approver == approver
    )
    return session.exec(statement).first()


def record_approval(
    *, session: Session, policy: PolicyConfig, request_id: str, approver: str, decision: ApprovalDecision,
    comment: str | None, now: datetime, revision: int | None = None,
) -> tuple[RequestRecord, bool]:
    """Record ``approver``'s decision on the current revision; (record, counted). Commits.

    ``revision`` is the revision the approver was shown: when the plan has been revised since, nothing is recorded
    (a Conflict with code ``revision_changed``), so nobody approves a plan they have not seen."""
    record = get_request_or_raise(session=session, request_id=request_id, lock=True)
    if expire_if_due(session=session, record=record, now=now):
        session.commit()
        raise Conflict("the approval window closed; ask for the request again", current_state=record.status)
    if revision is not None and revision != record.revision:
        check_may_decide(policy=policy, record=record, approver=approver)
        raise Conflict(f"the plan changed since you saw it (revision {revision}, now {record.revision}); "
                       "look at the current plan and decide again", current_state=record.status,
                       code="revision_changed")
    if _existing(session, record, approver) is not None:
        session.commit()
        return record, False
    check_may_decide(policy=policy, record=record, approver=approver)
    session.add(Approval(request_id=record.id, revision=record.revision, approver=approver,
                         decision=decision.value, comment=comment, created_at=now))
    try:
        session.flush()
    except IntegrityError:  # the row lock makes this unreachable; the unique constraint is the backstop
        session.rollback()
        return get_request_or_raise(session=session, request_id=request_id), False
    approvers = counted_approvers(policy=policy, record=record,
                                  approvals=current_approvals(session=session, record=record))
    append_event(session=session, type="request.approval_recorded", actor=approver, request_id=record.id, now=now,
                 data={"approver": approver, "decision": decision.value, "comment": comment,
                       "revision": record.revision, "approvals": len(approvers), "needed": record.approvals_needed})
    if decision is ApprovalDecision.REJECT:
        transition(session=session, record=record, to=RequestStatus.REJECTED, actor=approver, now=now,
                   data={"comment": comment})
    elif len(approvers) >= record.approvals_needed:
        transition(session=session, record=record, to=RequestStatus.APPROVED, actor=approver, now=now,
                   data={"approvers": approvers})
    session.commit()
    return record, True
