"""Approvals that cannot be gamed.

- the requester never approves (or rejects) their own request;
- only members of the approver groups for the request's team and stage count: named by actor id, or through a Slack
  user group or e-mail the group lists, as the bot vouches (the admitting entry is stored with the approval and
  counts while the policy still lists it);
- approvals bind to the current plan revision (an edit makes a new one, so earlier approvals stop counting);
- a second decision by the same person on the same revision is a no-op, not a second vote; a different one changes
  theirs: an approval can be withdrawn or turned into a reject while the request has not launched;
- a reject by an eligible approver after the plan was approved (or auto-approved), before it launches, vetoes it
  (policy ``approval_veto``); once launching, only a stop ends it;
- the request row is locked ``FOR UPDATE`` while deciding, and ``uq_approval_request_revision_approver`` backs it,
  so concurrent approvals never double-count and never double-transition;
- one eligible rejection rejects; the decision's ``approvals_needed`` approvals approve (and queue the launch), with
  at least one from each of its ``required_groups`` (money routed to finance);
- every change is an audit event (``request.approval_recorded`` / ``request.approval_changed``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from contract.approvals import ApprovalDecision
from contract.errors import Conflict, Forbidden
from contract.status import RequestStatus
from policy.config import PolicyConfig
from policy.membership import Filer, approval_basis
from policy.request import Stage
from service.audit.chain import append_event
from service.requests.records import expire_if_due, get_request_or_raise
from service.requests.states import transition
from service.requests.views import (
    counted_approvers,
    current_approvals,
    groups_missing,
    routed_members,
)
from service.store.tables import Approval, PlanRevision, RequestRecord


def _decision(session: Session, record: RequestRecord) -> dict[str, Any]:
    """The current revision's decision document (its approval groups route money to finance)."""
    row = session.exec(select(PlanRevision.decision).where(PlanRevision.request_id == record.id,
                                                          PlanRevision.revision == record.revision)).first()
    return dict(row) if row else {}


def _approves(policy: PolicyConfig, record: RequestRecord, decision: dict[str, Any], approvers: list[str]) -> bool:
    """Enough eligible approvals, and one from each group the plan requires."""
    return len(approvers) >= record.approvals_needed and not groups_missing(policy, decision, approvers)


def check_may_decide(*, policy: PolicyConfig, record: RequestRecord, approver: str,
                     decision: dict[str, Any] | None = None, person: Filer | None = None) -> None:
    """Raise Forbidden when this person may not decide (in any state), Conflict when nothing can be approved."""
    _check_eligible(policy=policy, record=record, approver=approver, decision=decision, person=person)
    if record.status == RequestStatus.DENIED:
        raise Conflict("policy denied this request; there is nothing to approve", current_state=record.status)
    if record.status == RequestStatus.ESTIMATE:
        raise Conflict("this request asked for an estimate only, so nothing launches from it; to run the job, ask "
                       "again without asking for an estimate only", current_state=record.status)
    if record.status != RequestStatus.PENDING_APPROVAL:
        raise Conflict(f"this request is {record.status}; it no longer takes approvals", current_state=record.status)


def _existing(session: Session, record: RequestRecord, approver: str) -> Approval | None:
    statement = select(Approval).where(
        Approval.request_id == record.id, Approval.revision == record.revision, Approval.approver == approver
    )
    return session.exec(statement).first()


def record_approval(
    *, session: Session, policy: PolicyConfig, request_id: str, approver: str, decision: ApprovalDecision,
    comment: str | None, now: datetime, revision: int | None = None, person: Filer | None = None,
) -> tuple[RequestRecord, bool]:
    """Record ``approver``'s decision on the current revision; (record, counted). Commits.

    ``revision`` is the revision the approver was shown: when the plan has been revised since, nothing is recorded
    (a Conflict with code ``revision_changed``), so nobody approves a plan they have not seen. ``person``: what the bot
    vouched for about the approver (e-mail, Slack user groups), for groups that list those."""
    record = get_request_or_raise(session=session, request_id=request_id, lock=True)
    if expire_if_due(session=session, record=record, now=now):
        session.commit()
        raise Conflict("the approval window closed; ask for the request again", current_state=record.status)
    decided = _decision(session, record)
    if revision is not None and revision != record.revision:
        check_may_decide(policy=policy, record=record, approver=approver, decision=decided, person=person)
        raise Conflict(f"the plan changed since you saw it (revision {revision}, now {record.revision}); "
                       "look at the current plan and decide again", current_state=record.status,
                       code="revision_changed")
    existing = _existing(session, record, approver)
    if existing is not None and existing.decision == decision.value:
        session.commit()
        return record, False
    vetoing = decision is ApprovalDecision.REJECT and RequestStatus(record.status) in VETOABLE
    if existing is not None or vetoing:
        counted = _change(session=session, policy=policy, record=record, approver=approver, decision=decision,
                          comment=comment, existing=existing, now=now, decided=decided, person=person)
        session.commit()
        return record, counted
    if decision is ApprovalDecision.WITHDRAW:
        check_may_decide(policy=policy, record=record, approver=approver, decision=decided, person=person)
        raise Conflict("you have no approval on this plan to withdraw", current_state=record.status,
                       code="nothing_to_withdraw")
    check_may_decide(policy=policy, record=record, approver=approver, decision=decided, person=person)
    session.add(Approval(request_id=record.id, revision=record.revision, approver=approver,
                         decision=decision.value, comment=comment, created_at=now,
                         eligible_via=_via(policy, record, approver, person)))
    try:
        session.flush()
    except IntegrityError:  # the row lock makes this unreachable; the unique constraint is the backstop
        session.rollback()
        return get_request_or_raise(session=session, request_id=request_id), False
    approvers = counted_approvers(policy=policy, record=record,
                                  approvals=current_approvals(session=session, record=record), decision=decided)
    append_event(session=session, type="request.approval_recorded", actor=approver, request_id=record.id, now=now,
                 data={"approver": approver, "decision": decision.value, "comment": comment,
                       "revision": record.revision, "approvals": len(approvers), "needed": record.approvals_needed})
    if decision is ApprovalDecision.REJECT:  # the feed event says who and why: the thread shows it
        transition(session=session, record=record, to=RequestStatus.REJECTED, actor=approver, now=now,
                   data={"comment": comment, "approver": approver})
    elif _approves(policy, record, decided, approvers):
        transition(session=session, record=record, to=RequestStatus.APPROVED, actor=approver, now=now,
                   data={"approvers": approvers})
    session.commit()
    return record, True


# Approved (or auto-approved) but not yet launching: a veto or a withdrawal still stops the launch.
VETOABLE = frozenset({RequestStatus.APPROVED, RequestStatus.AUTO_APPROVED})


def _change(
    *, session: Session, policy: PolicyConfig, record: RequestRecord, approver: str, decision: ApprovalDecision,
    comment: str | None, existing: Approval | None, now: datetime, decided: dict[str, Any],
    person: Filer | None = None,
) -> bool:
    """A decision that changes one already made: a withdrawal, approve ↔ reject, or a veto after approval.
    The approval row keeps the latest decision; the audit log keeps every one."""
    status = RequestStatus(record.status)
    if status is not RequestStatus.PENDING_APPROVAL and status not in VETOABLE:
        check_may_decide(policy=policy, record=record, approver=approver,
                         decision=decided, person=person)  # raises Conflict naming the state
    _check_eligible(policy=policy, record=record, approver=approver, decision=decided, person=person)
    if decision is ApprovalDecision.WITHDRAW and (existing is None or existing.decision != "approve"):
        raise Conflict("you have no approval on this plan to withdraw", current_state=record.status,
                       code="nothing_to_withdraw")
    if status in VETOABLE and decision is ApprovalDecision.REJECT and not policy.approval_veto and existing is None:
        raise Conflict("the plan is already approved and the policy lets approvals stand (approval_veto: false); "
                       "ask the requester to cancel it", current_state=record.status, code="veto_not_allowed")
    previous = existing.decision if existing is not None else None
    if existing is None:
        existing = Approval(request_id=record.id, revision=record.revision, approver=approver,
                            decision=decision.value, comment=comment, created_at=now)
    existing.decision, existing.comment, existing.created_at = decision.value, comment, now
    existing.eligible_via = _via(policy, record, approver, person)
    session.add(existing)
    session.flush()
    approvers = counted_approvers(policy=policy, record=record,
                                  approvals=current_approvals(session=session, record=record), decision=decided)
    append_event(session=session, type="request.approval_changed", actor=approver, request_id=record.id, now=now,
                 data={"approver": approver, "decision": decision.value, "previous": previous, "comment": comment,
                       "revision": record.revision, "approvals": len(approvers), "needed": record.approvals_needed})
    if decision is ApprovalDecision.REJECT:
        transition(session=session, record=record, to=RequestStatus.REJECTED, actor=approver, now=now,
                   data={"comment": comment, "approver": approver, "veto": status in VETOABLE})
    elif status is RequestStatus.PENDING_APPROVAL and _approves(policy, record, decided, approvers):
        transition(session=session, record=record, to=RequestStatus.APPROVED, actor=approver, now=now,
                   data={"approvers": approvers})
    elif status in VETOABLE and record.approvals_needed and not _approves(policy, record, decided, approvers):
        # The plan goes back for approval as a new revision (its queued launch is superseded), so everyone
        # decides again on the same footing.
        transition(session=session, record=record, to=RequestStatus.PENDING_APPROVAL, actor=approver, now=now,
                   data={"reason": f"{approver} withdrew their approval"},
                   approval_window=timedelta(hours=policy.approval_window_hours))
    return True


def _person(approver: str, person: Filer | None) -> Filer:
    return person if person is not None and person.actor == approver else Filer(actor=approver)


def _via(policy: PolicyConfig, record: RequestRecord, approver: str, person: Filer | None) -> str | None:
    """The entry that admits the approver when it is not their own actor id (stored with the approval)."""
    basis = approval_basis(policy, team=record.team, stage=Stage(record.stage), person=_person(approver, person))
    return None if basis in (None, approver) else basis


def _check_eligible(*, policy: PolicyConfig, record: RequestRecord, approver: str,
                    decision: dict[str, Any] | None = None, person: Filer | None = None) -> None:
    if approver == record.requester:
        raise Forbidden("you asked for this, so someone else has to approve it", code="own_request")
    stage = Stage(record.stage)
    admitted = approval_basis(policy, team=record.team, stage=stage, person=_person(approver, person)) is not None
    if not admitted and approver not in routed_members(policy, decision):
        named = (decision or {}).get("approval", {}).get("approver_groups") or policy.approver_groups(record.team,
                                                                                                       stage)
        groups = ", ".join(named) or "no group (none configured)"
        raise Forbidden(f"only members of {groups} can approve {stage.value} requests of {record.team}",
                        code="not_an_approver")
