"""What a request's public form tells the bot beyond its own row: when it was planned, the revision before, whether
Approve asks for confirmation, and who rejected or cancelled it and why (on SQLite and Postgres)."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, select

from contract.approvals import ApprovalDecision
from service.requests.approvals import record_approval
from service.requests.filing import cancel_request
from service.requests.views import request_public
from service.store.tables import AuditEvent, PlanRevision, RequestRecord
from tests.service.factories import LEADS, NOW, REQUESTER, add_request, make_decision, make_policy

POLICY = make_policy()


def _revise(session: Session, record: RequestRecord, *, cost: float) -> None:
    """A second revision, an hour after the first, as an edit writes it."""
    decision = make_decision(cost=cost)
    record.revision = 2
    session.add(record)
    session.add(PlanRevision(
        request_id=record.id, revision=2, inputs={"text": "fine-tune 7B"}, decision=decision.model_dump(mode="json"),
        training_request=decision.request.model_dump(mode="json"), plan_hash="1" * 64, policy_version="test",
        price_snapshot="2026-11-09", spend={}, estimated_cost_usd=cost, judged_usd=cost * 1.3, approvals_needed=1,
        denied=False, created_by=REQUESTER, created_at=NOW + timedelta(hours=1),
    ))
    session.commit()


def test_a_revision_shows_the_one_before_and_when_it_was_planned(session: Session) -> None:
    record = add_request(session)
    neighbour = add_request(session)
    _revise(session, record, cost=1400.0)
    public = request_public(session=session, record=record, policy=POLICY)
    assert public.planned_at is not None and public.planned_at.replace(tzinfo=None) == \
        (NOW + timedelta(hours=1)).replace(tzinfo=None)
    assert public.previous is not None
    assert (public.previous.revision, public.previous.plan.estimated_cost_usd) == (1, 1000.0)
    assert public.decision.plan.estimated_cost_usd == 1400.0
    first = request_public(session=session, record=neighbour, policy=POLICY)
    assert first.previous is None and first.planned_at is not None


def test_approve_asks_for_confirmation_at_the_policys_amount(session: Session) -> None:
    record = add_request(session)
    _revise(session, record, cost=4000.0)  # judged at 5,200: what the launch may bill
    asking = make_policy(confirm_approval_above_usd=5000.0)
    assert request_public(session=session, record=record, policy=asking).approval_confirm_usd == 5200.0
    higher = make_policy(confirm_approval_above_usd=6000.0)
    assert request_public(session=session, record=record, policy=higher).approval_confirm_usd is None
    assert request_public(session=session, record=record, policy=POLICY).approval_confirm_usd is None


def _event(session: Session, request_id: str, kind: str) -> AuditEvent:
    return session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id, AuditEvent.type == kind)).one()


def test_a_rejection_records_who_and_why_in_its_event(session: Session) -> None:
    record = add_request(session)
    add_request(session)
    record_approval(session=session, policy=POLICY, request_id=record.id, approver=LEADS[0],
                    decision=ApprovalDecision.REJECT, comment="use the reservation next week", now=NOW)
    data = _event(session, record.id, "request.rejected").data
    assert (data["approver"], data["comment"]) == (LEADS[0], "use the reservation next week")


def test_a_cancel_records_who_cancelled_in_its_event(session: Session) -> None:
    record = add_request(session)
    cancel_request(session=session, request_id=record.id, actor=REQUESTER, is_admin=False, reason="not needed",
                   now=NOW)
    data = _event(session, record.id, "request.cancelled").data
    assert (data["by"], data["reason"], data["to"]) == (REQUESTER, "not needed", "cancelled")
