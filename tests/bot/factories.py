"""Decisions, requests and jobs as the service answers them: contract models built from the policy types."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from contract.jobs import JobPublic
from contract.requests import RequestPublic
from policy.decision import (
    Alternative,
    ApprovalRequirement,
    CatalogRef,
    CostItem,
    Decision,
    Plan,
    Platform,
    PurchaseModel,
    TraceStep,
)
from policy.request import Stage, Task, Tolerance, TrainingRequest
from policy.spend import CostDriver, DailySpend, SpendSnapshot, SpendStatus

NOW = datetime(2026, 11, 30, 16, 0, tzinfo=UTC)  # a Monday
TEAM_ID = "T0GPUOPS"
REQUESTER = "U0ASKER"
LEADS = ["U0LEAD1", "U0LEAD2"]


def actor(user: str) -> str:
    return f"slack:{TEAM_ID}:{user}"


def make_plan(**overrides: Any) -> dict[str, Any]:
    plan: dict[str, Any] = {
        "instance_type": "g6e.12xlarge", "instance_count": 4, "accelerator": "L40S", "accelerators": 16,
        "purchase_model": PurchaseModel.SPOT, "platform": Platform.SAGEMAKER, "region": "us-east-1",
        "price_per_instance_hour_usd": 4.9, "estimated_hours": 15.8,
        "estimated_finish": datetime(2026, 12, 3, 18, 0, tzinfo=UTC), "deadline_met": True,
        "deadline_margin_hours": 23.0, "estimated_cost_usd": 310.0, "cost_low_usd": 270.0, "cost_high_usd": 365.0,
        "cost_breakdown": [CostItem(item="compute", usd=310.0, basis="4 × 15.8 h × $4.90")],
        "checkpoint_interval_minutes": 38, "max_runtime_hours": 24.0,
        "cost_range_basis": "hours ÷/× 1.25 (±25% throughput); low: no interruptions at the lowest spot price "
                            "observed; high: expected interruptions at the highest spot price observed",
    }
    plan.update(overrides)
    return plan


def make_spend(**overrides: Any) -> SpendSnapshot:
    start = date(2026, 11, 16)
    pattern = [1210, 1380, 990, 1450, 1620, 700, 640, 1530, 1710, 1490, 1880, 820, 760, 3950]
    values: dict[str, Any] = {
        "status": SpendStatus.OK, "team": "team-ml", "month_to_date_usd": 38_420.0, "forecast_usd": 9_480.0,
        "budget_usd": 50_000.0, "as_of": NOW - timedelta(hours=3), "age_seconds": 10_800.0,
        "daily": [DailySpend(day=(start + timedelta(days=i)).isoformat(), usd=float(v)) for i, v in enumerate(pattern)],
        "drivers": [CostDriver(key="p4d.24xlarge", dimension="INSTANCE_TYPE", usd=21_300.0),
                    CostDriver(key="g6e.12xlarge", dimension="INSTANCE_TYPE", usd=9_800.0),
                    CostDriver(key="Amazon S3", dimension="SERVICE", usd=1_200.0)],
    }
    values.update(overrides)
    return SpendSnapshot(**values)


def make_decision(*, text: str = "fine-tune 7B by Friday", **overrides: Any) -> Decision:
    values: dict[str, Any] = {
        "request": TrainingRequest(text=text, task=Task.FINE_TUNE, params=7_000_000_000, tokens=1_000_000_000,
                                   deadline=datetime(2026, 12, 4, 17, 0, tzinfo=UTC), stage=Stage.EXPERIMENTAL,
                                   interruption_tolerance=Tolerance.HIGH),
        "plan": Plan(**make_plan()),
        "alternatives": [
            Alternative(label="fastest", **make_plan(instance_type="p4d.24xlarge", instance_count=2,
                                                      accelerator="A100", estimated_hours=6.0,
                                                      estimated_cost_usd=420.0,
                                                      estimated_finish=datetime(2026, 12, 1, 2, 0, tzinfo=UTC))),
            Alternative(label="no interruptions", **make_plan(purchase_model=PurchaseModel.ON_DEMAND,
                                                               estimated_cost_usd=680.0)),
        ],
        "trace": [
            TraceStep(node="stage", question="Experimental or production?", answer="experimental",
                      reason="the request does not say production", source="policy default"),
            TraceStep(node="memory", question="How much accelerator memory?", answer="112 GB",
                      reason="16 B/param × 7B, sharded", source="formula: 16 B/param (mixed-precision Adam)"),
        ],
        "assumptions": ["1B tokens (fine-tune default)", "sequence length 4096"],
        "warnings": [],
        "approval": ApprovalRequirement(required=True, approvals_needed=1, approver_groups=["ml-leads"],
                                        reasons=["experimental work above $200 needs 1 approval"], denied=False),
        "spend": make_spend(),
        "catalog": CatalogRef(snapshot="2026-11-09", source="skypilot catalog"),
        "savings_vs_naive_usd": 890.0,
        "naive_baseline": Plan(**make_plan(instance_type="p5.48xlarge", instance_count=1, accelerator="H100",
                                           accelerators=8, purchase_model=PurchaseModel.ON_DEMAND,
                                           estimated_cost_usd=1200.0)),
        "policy_version": "0123456789abcdef",
    }
    values.update(overrides)
    return Decision(**values)


def make_job(**overrides: Any) -> JobPublic:
    """A finished SageMaker job of ``make_request``'s plan."""
    values: dict[str, Any] = {
        "name": "gpuops-req-1-r1", "status": "Completed", "secondary_status": "Completed", "platform": "sagemaker",
        "estimated_cost_usd": 310.0, "actual_cost_usd": 254.4, "billable_seconds": 36_000,
        "training_seconds": 52_000, "spot_savings": 0.31, "interruptions": 2,
    }
    values.update(overrides)
    return JobPublic.model_validate(values)


def make_request(*, request_id: str = "req_1", status: str = "pending_approval", **overrides: Any) -> RequestPublic:
    """A request as ``GET /v1/requests/{id}`` answers it; ``overrides`` may be models or their JSON."""
    body: dict[str, Any] = {
        "id": request_id, "status": status, "team": "team-ml", "requester": actor(REQUESTER), "channel": "C0PLANS",
        "timezone": "America/Los_Angeles", "text": "fine-tune 7B by Friday", "revision": 1, "plan_hash": "abc",
        "decision": make_decision(), "approvals": [], "approvals_needed": 1,
        "approvals_remaining": 1, "eligible_approvers": [actor(u) for u in LEADS],
        "expires_at": NOW + timedelta(hours=24), "created_at": NOW, "updated_at": NOW, "slack_message": None,
        "job": None,
    }
    body.update(overrides)
    return RequestPublic.model_validate(body)
