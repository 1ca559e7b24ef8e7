"""Plans and team policies for AWS tests."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from policy.config import LaunchProfile, TeamPolicy, VpcConfig
from policy.decision import Plan, Platform, PurchaseModel


def make_plan(**overrides: Any) -> Plan:
    fields: dict[str, Any] = {
        "instance_type": "p5.48xlarge", "instance_count": 2, "accelerator": "H100", "accelerators": 16,
        "purchase_model": PurchaseModel.SPOT, "platform": Platform.SAGEMAKER, "region": "us-east-1",
        "price_per_instance_hour_usd": 19.0, "estimated_hours": 10.0,
        "estimated_finish": datetime(2026, 12, 1, 12, tzinfo=UTC), "deadline_met": True,
        "deadline_margin_hours": 20.0, "estimated_cost_usd": 380.0, "cost_low_usd": 300.0, "cost_high_usd": 450.0,
        "cost_breakdown": [], "checkpoint_interval_minutes": 27, "max_runtime_hours": 15.0,
    }
    fields.update(overrides)
    return Plan.model_validate(fields)


def make_profile(**overrides: Any) -> LaunchProfile:
    fields: dict[str, Any] = {
        "role_arn": "arn:aws:iam::123456789012:role/gpuops-training-team-ml",
        "image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1.0",
        "s3_input": "s3://team-ml-data/corpus/", "s3_output": "s3://team-ml-artifacts/output/",
        "s3_checkpoints": "s3://team-ml-artifacts/checkpoints/",
        "vpc": VpcConfig(subnets=["subnet-0abc"], security_group_ids=["sg-0abc"]),
        "tags": {"cost-center": "ml-research"},
    }
    fields.update(overrides)
    return LaunchProfile.model_validate(fields)


def make_team(**profile_overrides: Any) -> TeamPolicy:
    return TeamPolicy(monthly_budget_usd=50_000, launch=make_profile(**profile_overrides))
