"""SageMaker training plans: offerings for training jobs, creating one from an offering, and its status."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from policy.capacity import CapacityOffering, OfferingKind
from service.aws.calls import aws_errors

SOURCE = "SageMaker SearchTrainingPlanOfferings"
TARGET = "training-job"


def search_offerings(*, client: Any, region: str, instance_type: str, count: int, duration_hours: int,
                     start: datetime, end: datetime, now: datetime) -> list[CapacityOffering]:
    """Training-plan offerings for ``count`` × ``instance_type`` (without "ml.") for training jobs in the window."""
    with aws_errors("sagemaker", "SearchTrainingPlanOfferings"):
        answer = client.search_training_plan_offerings(
            InstanceType=f"ml.{instance_type}", InstanceCount=count, StartTimeAfter=start, EndTimeBefore=end,
            DurationHours=duration_hours, TargetResources=[TARGET])
    found: list[CapacityOffering] = []
    for row in answer.get("TrainingPlanOfferings", []):
        reserved = row.get("ReservedCapacityOfferings") or []
        if row.get("CurrencyCode", "USD") != "USD" or not reserved:
            continue
        first = reserved[0]
        found.append(CapacityOffering(
            kind=OfferingKind.TRAINING_PLAN, offering_id=str(row["TrainingPlanOfferingId"]),
            instance_type=str(first["InstanceType"]).removeprefix("ml."),
            count=sum(int(r.get("InstanceCount", 0)) for r in reserved), region=region,
            availability_zone=first.get("AvailabilityZone"), start=min(r["StartTime"] for r in reserved),
            end=max(r["EndTime"] for r in reserved), duration_hours=float(row["DurationHours"]),
            upfront_usd=float(row["UpfrontFee"]), source=SOURCE, as_of=now))
    return found


def create(*, client: Any, name: str, offering_id: str, tags: dict[str, str]) -> str:
    """CreateTrainingPlan; its ARN."""
    with aws_errors("sagemaker", "CreateTrainingPlan"):
        answer = client.create_training_plan(TrainingPlanName=name, TrainingPlanOfferingId=offering_id,
                                             Tags=[{"Key": k, "Value": v} for k, v in sorted(tags.items())])
    return str(answer["TrainingPlanArn"])


def describe(*, client: Any, name: str) -> dict[str, Any]:
    """DescribeTrainingPlan: status and instance counts (total, available, in use)."""
    with aws_errors("sagemaker", "DescribeTrainingPlan"):
        return dict(client.describe_training_plan(TrainingPlanName=name))
