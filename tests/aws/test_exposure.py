"""What an approval lets a launch spend: the decision's exposure bounds the exact launch request."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.parse import parse_request
from policy.spend import SpendSnapshot, SpendStatus
from policy.tree import decide
from service.aws.sagemaker import build_create_training_jobs
from tests.aws.factories import make_team

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Los_Angeles"))
SPEND = SpendSnapshot(status=SpendStatus.OK, team="team-ml", month_to_date_usd=1_000, forecast_usd=500,
                      budget_usd=50_000, as_of=NOW)
REQUESTS = [
    "fine-tune 7B on 1K tokens with 128 H100",
    "fine-tune 7B by Friday",
    "LoRA 13B on 200M tokens, spot ok",
    "pretrain 1.3B on 50B tokens by next Wednesday, production",
    "sweep 12 trials of 350M on 500M tokens",
    "fine-tune 70B on 2B tokens on 4 p5.48xlarge, no interruptions",
]


def _decide(text: str):  # type: ignore[no-untyped-def]
    return decide(parse_request(text, now=NOW, tz="America/Los_Angeles", team="team-ml"), catalog=load_catalog(),
                  policy=default_policy(), spend=SPEND, now=NOW)


@pytest.mark.parametrize("text", REQUESTS)
def test_the_launch_request_can_never_bill_more_than_the_approved_exposure(text: str) -> None:
    plan = _decide(text).plan
    jobs = build_create_training_jobs(plan=plan, team="team-ml", team_policy=make_team(), request_id="req_1",
                                      revision=1, approvers=["U1"])
    most = sum(job["ResourceConfig"]["InstanceCount"] * plan.price_per_instance_hour_usd
               * job["StoppingCondition"]["MaxRuntimeInSeconds"] / 3600 for job in jobs)
    assert most <= plan.exposure_usd
    assert plan.exposure_usd - most < 0.01  # and the exposure is that figure, not a loose bound


def test_128_gpus_for_a_thousand_tokens_is_never_approved_automatically() -> None:
    decision = _decide("fine-tune 7B on 1K tokens with 128 H100")
    # the estimate pays 16 instances' start-up for seconds of training; the cap may bill more still
    assert decision.plan.estimated_cost_usd < decision.plan.exposure_usd
    assert decision.approval.required and decision.approval.approvals_needed >= 1
    assert any(r.startswith("judged on $") for r in decision.approval.reasons)
    assert any("hardware out of proportion to the work" in w for w in decision.warnings)


def test_a_tiny_job_on_hardware_that_fits_it_gets_a_runtime_cap_of_minutes_not_hours() -> None:
    plan = _decide("fine-tune 350M on 1M tokens").plan
    assert plan.max_runtime_hours * 60 <= 30  # start-up and seconds of training, × the runtime factor
    assert plan.exposure_usd < 3 * max(plan.estimated_cost_usd, 1)


def test_the_runtime_cap_is_the_estimate_with_its_margin_rounded_up_to_five_minutes() -> None:
    plan = _decide("fine-tune 7B by Friday").plan
    seconds = round(plan.max_runtime_hours * 3600)
    assert seconds % 300 == 0
    assert plan.estimated_hours * 1.5 * 3600 <= seconds < plan.estimated_hours * 1.5 * 3600 + 300 + 1
