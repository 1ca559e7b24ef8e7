"""What a DescribeTrainingJob answer means: status, spot interruptions and restarts, actual cost and savings.

Pure functions over the answer, so the tracker's arithmetic is tested without AWS.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from service.launch.protocol import JobState, JobStatus, Transition

SAGEMAKER_STATES = {"InProgress": JobState.RUNNING, "Stopping": JobState.STOPPING, "Completed": JobState.SUCCEEDED,
                    "Failed": JobState.FAILED, "Stopped": JobState.STOPPED}


def read_progress(described: Mapping[str, Any]) -> JobStatus:
    """A ``JobStatus`` from a DescribeTrainingJob answer."""
    transitions = [
        Transition(status=t["Status"], start_time=t["StartTime"], end_time=t.get("EndTime"),
                   message=t.get("StatusMessage", ""))
        for t in described.get("SecondaryStatusTransitions", [])
    ]
    return JobStatus(
        name=described["TrainingJobName"],
        state=SAGEMAKER_STATES[described["TrainingJobStatus"]],
        secondary_status=described.get("SecondaryStatus"),
        instance_count=int(described.get("ResourceConfig", {}).get("InstanceCount", 1)),
        spot=bool(described.get("EnableManagedSpotTraining", False)),
        billable_seconds=described.get("BillableTimeInSeconds"),
        training_seconds=described.get("TrainingTimeInSeconds"),
        started_at=described.get("TrainingStartTime"),
        failure_reason=described.get("FailureReason"),
        transitions=transitions,
        metrics={str(m["MetricName"]): float(m["Value"]) for m in described.get("FinalMetricDataList", [])
                 if "MetricName" in m and "Value" in m},
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
