"""Rows and decisions for tests, built directly (no parser, no engine)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session

from contract.status import RequestStatus
from policy.config import PolicyConfig, default_policy
from policy.decision import ApprovalRequirement, CatalogRef, Decision, Plan, Platform, PurchaseModel
from policy.request import Stage, Task, TrainingRequest
from policy.spend import SpendSnapshot
from service.requests.filing import new_request_id
from service.requests.states import enter_initial
from service.store.tables import PlanRevision, RequestRecord

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
REQUESTER = "slack:T1:REQ"
LEADS = ["slack:T1:LEAD1", "slack:T1:LEAD2", "slack:T1:LEAD3"]
FINANCE = ["slack:T1:FIN1"]


def make_policy(**changes: Any) -> PolicyConfig:
    """The default policy with test approvers (and any other keys changed)."""
    base = default_policy()
    update: dict[str, Any] = {"groups": {"ml-leads": list(LEADS), "finance": list(FINANCE)}, **changes}
    return base.model_copy(update=update)


def make_plan(*, cost: float = 1000.0, now: datetime = NOW) -> Plan:
    return Plan(
        instance_type="p4d.24xlarge", instance_count=1, accelerator="A100", accelerators=8,
        purchase_model=PurchaseModel.ON_DEMAND, platform=Platform.SAGEMAKER, region="us-east-1",
        price_per_instance_hour_usd=32.77, estimated_hours=cost / 32.77, estimated_finish=now + timedelta(hours=5),
        deadline_met=None, deadline_margin_hours=None, estimated_cost_usd=cost, cost_low_usd=cost * 0.8,
        cost_high_usd=cost * 1.3, cost_breakdown=[], checkpoint_interval_minutes=None, max_runtime_hours=12,
    )


def make_decision(
    *, cost: float = 1000.0, approvals_needed: int = 1, required: bool = True, denied: bool = False,
    team: str = "team-ml", stage: Stage = Stage.EXPERIMENTAL,
) -> Decision:
    request = TrainingRequest(text="fine-tune 7B", task=Task.FINE_TUNE, params=7_000_000_000, team=team, stage=stage)
    return Decision(
        request=request, plan=make_plan(cost=cost),
        approval=ApprovalRequirement(required=required, approvals_needed=approvals_needed,
                                     approver_groups=["ml-leads"], reasons=[], denied=denied),
        spend=SpendSnapshot.unavailable(team=team, reason="test"),
        catalog=CatalogRef(snapshot="2026-11-09", source="test"), savings_vs_naive_usd=None, naive_baseline=None,
        policy_version="test",
    )


def add_request(
    session: Session, *, status: RequestStatus = RequestStatus.PENDING_APPROVAL, approvals_needed: int = 1,
    requester: str = REQUESTER, team: str = "team-ml", stage: Stage = Stage.EXPERIMENTAL, now: datetime = NOW,
    window_hours: float = 24,
) -> RequestRecord:
    """A request with revision 1, recorded the way ``create_request`` records one."""
    decision = make_decision(approvals_needed=approvals_needed, team=team, stage=stage,
                             required=status is not RequestStatus.AUTO_APPROVED,
                             denied=status is RequestStatus.DENIED)
    record = RequestRecord(
        id=new_request_id(), status=status.value, team=team, requester=requester, stage=stage.value,
        text="fine-tune 7B", approvals_needed=approvals_needed, created_at=now, updated_at=now,
        expires_at=now + timedelta(hours=window_hours) if status is RequestStatus.PENDING_APPROVAL else None,
    )
    session.add(record)
    session.flush()
    session.add(PlanRevision(
        request_id=record.id, revision=1, inputs={"text": "fine-tune 7B"}, decision=decision.model_dump(mode="json"),
        training_request=decision.request.model_dump(mode="json"), plan_hash="0" * 64, policy_version="test",
        price_snapshot="2026-11-09", spend={}, estimated_cost_usd=1000.0, approvals_needed=approvals_needed,
        denied=decision.approval.denied, created_by=requester, created_at=now,
    ))
    enter_initial(session=session, record=record, status=status, actor=requester, now=now)
    session.commit()
    return record
