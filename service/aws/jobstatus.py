"""What a DescribeTrainingJob answer means: status, spot interruptions and restarts, actual cost and savings.

Pure functions over the answer, so the tracker's arithmetic is tested without AWS.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

FINAL_STATUSES = frozenset({"Completed", "Failed", "Stopped"})
INTERRUPTED = "Interrupted"
RESTARTING = "Restarting"


class Transition(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: str
    start_time: datetime
    end_time: datetime | None = None
    message: str = ""


class JobProgress(BaseModel):
    """One reading of a training job."""

    model_config = ConfigDict(frozen=True)

    name: str
    status: str
    secondary_status: str | None = None
    instance_count: int = 1
    spot: bool = False
    billable_seconds: int | None = None
    training_seconds: int | None = None
    failure_reason: str | None = None
    transitions: list[Transition] = Field(default_factory=list)

    @property
    def final(self) -> bool:
        return self.status in FINAL_STATUSES

    @property
    def interruptions(self) -> int:
        return sum(1 for t in self.transitions if t.status == INTERRUPTED)

    @property
    def restarts(self) -> int:
        return sum(1 for t in self.transitions if t.status == RESTARTING)


def read_progress(described: Mapping[str, Any]) -> JobProgress:
    """A ``JobProgress`` from a DescribeTrainingJob answer."""
    transitions = [
        Transition(status=t["Status"], start_time=t["StartTime"], end_time=t.get("EndTime"),
                   message=t.get("StatusMessage", ""))
        for t in described.get("SecondaryStatusTransitions", [])
    ]
    return JobProgress(
        name=described["TrainingJobName"],
        status=described["TrainingJobStatus"],
        secondary_status=described.get("SecondaryStatus"),
        instance_count=int(described.get("ResourceConfig", {}).get("InstanceCount", 1)),
        spot=bool(described.get("EnableManagedSpotTraining", False)),
        billable_seconds=described.get("BillableTimeInSeconds"),
        training_seconds=described.get("TrainingTimeInSeconds"),
        failure_reason=described.get("FailureReason"),
        transitions=transitions,
    )


def new_transitions(*, before: Sequence[Transition], after: Sequence[Transition]) -> list[Transition]:
    """Transitions in ``after`` not seen in ``before`` (matched on status and start time), in order."""
    seen = {(t.status, t.start_time) for t in before}
    return [t for t in after if (t.status, t.start_time) not in seen]


def actual_cost_usd(*, billable_seconds: int, instance_count: int, price_per_instance_hour: float) -> float:
    """What SageMaker bills: billable seconds (per instance) × instances × the ml.* on-demand hourly price.

    For managed spot the discount is already in the billable time, so the price is the on-demand one.
    """
    return round(billable_seconds * instance_count * price_per_instance_hour / 3600.0, 2)


def spot_savings(*, billable_seconds: int | None, training_seconds: int | None) -> float | None:
    """1 − billable/training (SageMaker's own formula); None when either is unknown or training is zero."""
    if billable_seconds is None or not training_seconds:
        return None
    return round(1.0 - billable_seconds / training_seconds, 4)
