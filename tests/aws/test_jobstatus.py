"""The tracker's arithmetic: interruptions and restarts from secondary transitions, actual cost, spot savings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from service.aws.jobstatus import actual_cost_usd, new_transitions, read_progress, spot_savings

T0 = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def _described(statuses: list[str], **extra: Any) -> dict[str, Any]:
    transitions = [{"Status": s, "StartTime": T0 + timedelta(minutes=10 * i), "StatusMessage": s.lower()}
                   for i, s in enumerate(statuses)]
    return {"TrainingJobName": "gpuops-req-1-r1", "TrainingJobStatus": "InProgress",
            "SecondaryStatus": statuses[-1], "SecondaryStatusTransitions": transitions,
            "ResourceConfig": {"InstanceType": "ml.p5.48xlarge", "InstanceCount": 2, "VolumeSizeInGB": 200},
            "EnableManagedSpotTraining": True, **extra}


def test_interruptions_and_restarts_are_counted_from_secondary_transitions() -> None:
    progress = read_progress(_described(["Starting", "Downloading", "Training", "Interrupted", "Restarting",
                                         "Training", "Interrupted", "Restarting", "Training"]))
    assert (progress.interruptions, progress.restarts) == (2, 2)
    assert progress.secondary_status == "Training" and not progress.final


def test_only_unseen_transitions_are_new() -> None:
    before = read_progress(_described(["Starting", "Training"]))
    after = read_progress(_described(["Starting", "Training", "Interrupted", "Restarting"]))
    assert [t.status for t in new_transitions(before=before.transitions, after=after.transitions)] == [
        "Interrupted", "Restarting"]


@pytest.mark.parametrize(
    ("billable", "count", "price", "cost"),
    [(3600, 1, 10.0, 10.0), (36_000, 2, 113.07, 2261.4), (0, 4, 50.0, 0.0), (1800, 16, 3.0, 24.0)],
)
def test_actual_cost_is_billable_seconds_times_instances_times_price(billable: int, count: int, price: float,
                                                                     cost: float) -> None:
    assert actual_cost_usd(billable_seconds=billable, instance_count=count, price_per_instance_hour=price) == cost


@pytest.mark.parametrize(
    ("billable", "training", "savings"),
    [(3000, 10_000, 0.7), (10_000, 10_000, 0.0), (None, 100, None), (100, 0, None), (100, None, None)],
)
def test_spot_savings_is_one_minus_billable_over_training(billable: int | None, training: int | None,
                                                          savings: float | None) -> None:
    assert spot_savings(billable_seconds=billable, training_seconds=training) == savings


def test_a_completed_job_reads_as_final_with_its_times() -> None:
    progress = read_progress(_described(["Training", "Completed"], TrainingJobStatus="Completed",
                                        BillableTimeInSeconds=3000, TrainingTimeInSeconds=10_000))
    assert progress.final and progress.instance_count == 2 and progress.spot
    assert (progress.billable_seconds, progress.training_seconds) == (3000, 10_000)


def test_the_metrics_the_recipe_defines_are_read_from_the_final_metric_data() -> None:
    progress = read_progress(_described(["Training"], FinalMetricDataList=[
        {"MetricName": "tokens_per_second", "Value": 51234.5, "Timestamp": T0},
        {"MetricName": "train_loss", "Value": 1.75, "Timestamp": T0}]))
    assert progress.metrics == {"tokens_per_second": 51234.5, "train_loss": 1.75}
    assert read_progress(_described(["Training"])).metrics == {}
