"""Before launch, a plan whose prices or spend moved beyond the policy's tolerance goes back for approval."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session, col, select

from contract.approvals import ApprovalDecision
from contract.requests import RequestCreate
from contract.status import RequestStatus
from policy.catalog import Catalog, load_catalog
from policy.config import PolicyConfig
from policy.membership import Filer
from service.launch.reapproval import check_before_launch
from service.planning import PlanContext, Planner
from service.requests.approvals import record_approval
from service.requests.filing import create_request
from service.requests.records import read_request
from service.requests.views import current_approvals
from service.spend.providers import SampleSpend, sample_spend_path
from service.store.tables import AuditEvent, LaunchTask
from tests.service.factories import LEADS, NOW, REQUESTER, make_policy

POLICY = make_policy(auto_approve_below_usd=0)


def _planner(catalog: Catalog) -> Planner:
    return Planner(catalog=catalog, policy=POLICY, spend=SampleSpend(sample_spend_path(), clock=lambda: NOW))


def _scaled(catalog: Catalog, factor: float) -> Catalog:
    def scale(value: float | None) -> float | None:
        return None if value is None else value * factor

    prices = [p.model_copy(update={"on_demand_usd": p.on_demand_usd * factor, "spot_usd": scale(p.spot_usd),
                                   "sagemaker_usd": scale(p.sagemaker_usd)}) for p in catalog.prices]
    return catalog.model_copy(update={"prices": prices})


def _approved(session: Session, planner: Planner) -> str:
    record, _ = create_request(session=session, planner=planner, body=RequestCreate(text="fine-tune 7B"),
                               actor=REQUESTER, requester=REQUESTER, filer=Filer(actor=REQUESTER),
                               idempotency_key=None, now=NOW)
    approved, _ = record_approval(session=session, policy=POLICY, request_id=record.id, approver=LEADS[0],
                                  decision=ApprovalDecision.APPROVE, comment=None, now=NOW)
    assert approved.status == RequestStatus.APPROVED
    return record.id


def test_unchanged_prices_launch_as_approved(session: Session) -> None:
    planner = _planner(load_catalog())
    request_id = _approved(session, planner)
    assert check_before_launch(session=session, planner=planner, request_id=request_id,
                               now=NOW + timedelta(minutes=5)) is None
    assert read_request(session=session, request_id=request_id, now=NOW).status == "approved"


def test_prices_beyond_tolerance_need_approving_again(session: Session) -> None:
    catalog = load_catalog()
    request_id = _approved(session, _planner(catalog))
    later = NOW + timedelta(minutes=5)
    reason = check_before_launch(session=session, planner=_planner(_scaled(catalog, 1.5)), request_id=request_id,
                                 now=later)
    assert reason is not None and "tolerance" in reason
    record = read_request(session=session, request_id=request_id, now=later)
    assert (record.status, record.revision) == ("pending_approval", 2)
    assert current_approvals(session=session, record=record) == []
    assert record.expires_at is not None and record.expires_at > later
    types = session.exec(select(AuditEvent.type).where(AuditEvent.request_id == request_id)
                         .order_by(col(AuditEvent.seq))).all()
    assert list(types)[-2:] == ["request.revised", "request.reapproval_required"]


def _created(session: Session, planner: Planner) -> str:
    record, _ = create_request(session=session, planner=planner, body=RequestCreate(text="fine-tune 7B"),
                               actor=REQUESTER, requester=REQUESTER, filer=Filer(actor=REQUESTER),
                               idempotency_key=None, now=NOW)
    return record.id


def test_a_small_price_move_across_an_approval_tier_needs_the_extra_approval(session: Session) -> None:
    catalog = load_catalog()
    context = _planner(catalog).ask_or_plan(text="fine-tune 7B", fields={}, timezone="UTC", now=NOW)
    assert isinstance(context, PlanContext)
    estimate = context.decision.plan
    judged = max(estimate.estimated_cost_usd, estimate.exposure_usd)  # tiers judge what the launch may bill
    tiers = [{"min_usd": 0, "approvals": 1}, {"min_usd": judged * 1.02, "approvals": 2}]
    policy = POLICY.model_validate({**POLICY.model_dump(), "approval_tiers": tiers})
    planner = Planner(catalog=catalog, policy=policy, spend=SampleSpend(sample_spend_path(), clock=lambda: NOW))
    request_id = _created(session, planner)
    record_approval(session=session, policy=policy, request_id=request_id, approver=LEADS[0],
                    decision=ApprovalDecision.APPROVE, comment=None, now=NOW)

    moved = Planner(catalog=_scaled(catalog, 1.05), policy=policy, spend=planner.spend)  # within the 10% tolerance
    reason = check_before_launch(session=session, planner=moved, request_id=request_id, now=NOW)
    assert reason is not None and reason.startswith("it now needs 2 approvals, not 1")
    record = read_request(session=session, request_id=request_id, now=NOW)
    assert (record.status, record.revision, record.approvals_needed) == ("pending_approval", 2, 2)


def test_an_auto_approved_plan_that_moved_but_still_qualifies_is_approved_again_by_policy(session: Session) -> None:
    policy = make_policy(auto_approve_below_usd=50_000)
    catalog = load_catalog()
    spend = SampleSpend(sample_spend_path(), clock=lambda: NOW)
    request_id = _created(session, Planner(catalog=catalog, policy=policy, spend=spend))
    assert read_request(session=session, request_id=request_id, now=NOW).status == "auto_approved"

    reason = check_before_launch(session=session, planner=Planner(catalog=_scaled(catalog, 1.5), policy=policy,
                                                                   spend=spend), request_id=request_id, now=NOW)
    assert reason is not None and "tolerance" in reason
    record = read_request(session=session, request_id=request_id, now=NOW)
    assert (record.status, record.revision, record.expires_at) == ("auto_approved", 2, None)
    tasks = session.exec(select(LaunchTask.revision).where(LaunchTask.request_id == request_id)).all()
    assert sorted(tasks) == [1, 2]  # the new revision has its own launch task
    types = session.exec(select(AuditEvent.type).where(AuditEvent.request_id == request_id)
                         .order_by(col(AuditEvent.seq))).all()
    assert list(types)[-3:] == ["request.revised", "request.reapproval_required", "request.auto_approved"]


def test_a_plan_that_now_needs_finance_goes_back_for_approval(session: Session) -> None:
    catalog = load_catalog()
    request_id = _approved(session, _planner(catalog))
    # The same plan, but the policy now sends plans this size to finance (or the team's budget was crossed).
    routed = POLICY.model_copy(update={"finance_above_usd": 1.0})
    planner = Planner(catalog=catalog, policy=routed, spend=SampleSpend(sample_spend_path(), clock=lambda: NOW))
    reason = check_before_launch(session=session, planner=planner, request_id=request_id, now=NOW)
    assert reason is not None and reason.startswith(f"it now needs approval from {routed.finance_group}")
    record = read_request(session=session, request_id=request_id, now=NOW)
    assert (record.status, record.revision) == ("pending_approval", 2)


def _with_hyperpod(enabled: bool) -> PolicyConfig:
    team = POLICY.teams["team-ml"]
    platforms = team.platforms.model_copy(update={"hyperpod": enabled})
    return POLICY.model_copy(update={"teams": {**POLICY.teams,
                                               "team-ml": team.model_copy(update={"platforms": platforms})}})


def test_a_plan_on_a_platform_the_policy_has_since_turned_off_goes_back_for_approval(session: Session) -> None:
    catalog = load_catalog()
    spend = SampleSpend(sample_spend_path(), clock=lambda: NOW)
    before = Planner(catalog=catalog, policy=_with_hyperpod(True), spend=spend)
    record, _ = create_request(session=session, planner=before, body=RequestCreate(text="fine-tune 7B"),
                               actor=REQUESTER, requester=REQUESTER, filer=Filer(actor=REQUESTER),
                               idempotency_key=None, now=NOW)
    approved, _ = record_approval(session=session, policy=before.policy, request_id=record.id, approver=LEADS[0],
                                  decision=ApprovalDecision.APPROVE, comment=None, now=NOW)
    assert approved.status == RequestStatus.APPROVED
    # a tolerance so wide that the cost of the plan re-decided on SageMaker alone would never send it back
    after = Planner(catalog=catalog, spend=spend,
                    policy=_with_hyperpod(False).model_copy(update={"reapproval_tolerance": 100.0}))
    reason = check_before_launch(session=session, planner=after, request_id=record.id, now=NOW)
    assert reason is not None and "teams.team-ml.platforms.hyperpod is off" in reason
    revised = read_request(session=session, request_id=record.id, now=NOW)
    assert (revised.status, revised.revision) == ("pending_approval", 2)
