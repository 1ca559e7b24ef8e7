"""Limits on hardware a request states: a ceiling ("at most 16 GPUs", "up to 2 nodes") leaves out what is above it
and nothing else; an exact instance count ("on 4 nodes") fixes the layout; a count and a ceiling that disagree are
refused."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Alternative, Decision, Plan
from policy.errors import RequestError
from policy.parse import parse_request
from policy.request import Task, TrainingRequest
from policy.spend import SpendSnapshot
from policy.tree import decide

TZ = "America/Los_Angeles"
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=ZoneInfo(TZ))  # a Tuesday


def decided(request: TrainingRequest | str, **updates: Any) -> Decision:
    if isinstance(request, str):
        request = parse_request(request, now=NOW, tz=TZ)
    request = request.model_copy(update=updates)
    spend = SpendSnapshot.unavailable(team=None, reason="no spend source")
    return decide(request, catalog=load_catalog(), policy=default_policy(), spend=spend, now=NOW)


def accelerators(plan: Plan | Alternative) -> int:
    return plan.instance_count * load_catalog().instances[plan.instance_type].accelerator_count


def layout(plan: Plan) -> tuple[str, int, str, str, float]:
    return (plan.instance_type, plan.instance_count, plan.purchase_model, plan.platform, plan.estimated_cost_usd)


def candidates_reason(decision: Decision) -> str:
    return next(step.reason for step in decision.trace if step.node == "5 candidates")


@pytest.mark.parametrize("text", ["fine-tune 7B using at most 16 GPUs", "fine-tune 7B, up to 16 GPUs",
                                  "fine-tune 7B, at most 2 instances", "fine-tune 7B, max 8 GPUs"])
def test_a_ceiling_the_cheapest_plan_fits_under_plans_as_no_limit_does(text: str) -> None:
    limited, free = decided(text), decided("fine-tune 7B")
    assert layout(limited.plan) == layout(free.plan)
    assert accelerators(limited.plan) <= 16
    assert "the request allows at most" in candidates_reason(limited)
    assert "ceiling" not in candidates_reason(free)


@pytest.mark.parametrize(("text", "ceiling"), [("fine-tune 7B", 4), ("sweep of 20 trials on 350M", 4),
                                               ("fine-tune 7B by 1pm", 16),
                                               ("pretrain 1.5B on 30B tokens by tomorrow 9am", 16)])
def test_a_ceiling_below_the_cheapest_plan_moves_it_to_a_smaller_layout(text: str, ceiling: int) -> None:
    free = decided(text)
    assert accelerators(free.plan) > ceiling  # the row is a ceiling below what the plan uses without it
    limited = decided(text, max_gpus=ceiling)
    assert accelerators(limited.plan) <= ceiling
    assert all(accelerators(a) <= ceiling for a in limited.alternatives)
    if free.request.deadline is None:
        assert limited.plan.estimated_cost_usd >= free.plan.estimated_cost_usd  # fewer choices never cost less
    assert f"at most {ceiling} accelerators" in candidates_reason(limited)


@pytest.mark.parametrize("text", ["fine-tune 7B on 1B tokens with 4 p4d nodes max",
                                  "fine-tune 7B on 1B tokens, at most 4 p4d nodes",
                                  "fine-tune 7B on 1B tokens, 4 p4d max"])
def test_a_ceiling_said_after_an_instance_count_and_its_noun_is_a_ceiling(text: str) -> None:
    """'4 p4d nodes max' was planned on exactly 4 instances on-demand, at more than twice the cost of one on spot."""
    decision = decided(text)
    assert (decision.request.instances, decision.request.max_instances) == (None, 4)
    assert layout(decision.plan) == layout(decided("fine-tune 7B on 1B tokens on p4d").plan)


def test_an_instance_ceiling_caps_every_option_and_the_policys_own_cap_still_holds() -> None:
    two = decided("fine-tune 7B", max_instances=2)
    assert all(p.instance_count <= 2 for p in [two.plan, *two.alternatives])
    beyond = decided("fine-tune 7B", max_instances=500)  # above the policy's max_instances (16)
    assert max(a.instance_count for a in beyond.alternatives) == default_policy().max_instances
    assert "the policy's max_instances, 16, is lower and holds" in candidates_reason(beyond)


def test_a_ceiling_below_what_the_job_needs_in_memory_is_refused_naming_what_holds_it() -> None:
    with pytest.raises(RequestError) as caught:
        decided("fine-tune 70B at most 4 GPUs")
    assert caught.value.code == "no_configuration"
    assert "with at most 4 accelerators: the smallest that holds it is 1× p6-b200.48xlarge" in caught.value.message
    assert "Raise the ceiling" in caught.value.message


@pytest.mark.parametrize(("text", "updates", "says"), [
    ("fine-tune 7B on 32 GPUs, at most 16 GPUs", {}, "names 32 GPUs and at most 16 GPUs"),
    ("fine-tune 7B on 4x p5.48xlarge, at most 16 GPUs", {}, "names 32 GPUs and at most 16 GPUs"),
    ("fine-tune 7B on 4 nodes, at most 2 nodes", {}, "names 4 instances and at most 2 instances"),
    ("fine-tune 7B on 16 GPUs", {"max_gpus": 8}, "names 16 GPUs and at most 8 GPUs"),  # a field against the text
    ("fine-tune 7B on 16 GPUs on 3 nodes", {}, "16 GPUs do not split evenly over 3 instances"),
])
def test_an_exact_count_above_a_ceiling_is_refused_naming_both(text: str, updates: dict[str, int], says: str) -> None:
    with pytest.raises(RequestError) as caught:
        decided(text, **updates)
    assert caught.value.code == "contradiction"
    assert says in caught.value.message


@pytest.mark.parametrize(("text", "says"), [
    ("eval 7B, 2 hours on a single A100", "(A100 instances come with 8 each, multi-node only on sizes with 4 or more). "
                                          "Ask for 8 A100s, or leave the hardware open"),
    ("fine-tune 7B on 1B tokens on 3 H100s", "Ask for 8 H100s"),  # never 4 single-H100 instances: no multi-node
    ("fine-tune 7B on 1B tokens on 6 GPUs", "Ask for 8 GPUs, or leave the count open."),
])
def test_a_gpu_count_no_instance_makes_is_refused_with_the_next_count_that_does(text: str, says: str) -> None:
    with pytest.raises(RequestError) as caught:
        decided(text)
    assert caught.value.code == "no_configuration" and says in caught.value.message


@pytest.mark.parametrize(("text", "says"), [
    ("pretraining 7B on 2T tokens with 256 H100s", "256 H100s is 32× p5.48xlarge (8 each), more instances than the "
                                                    "policy's max_instances allows (16); ask for at most 128 H100s"),
    ("pretrain 7B on 200B tokens on 64 GPUs, at most 4 nodes", "more instances than the request's ceiling allows (4); "
                                                                "ask for at most 32 accelerators"),
    # a count only small sizes divide: the most allowed is on the largest multi-node size, not on those
    ("fine-tune 7B on 1B tokens, 500 GPUs", "500 accelerators is 125× p3.8xlarge (4 each), more instances than the "
                                            "policy's max_instances allows (16); ask for at most 128 accelerators (16 "
                                            "instances of 8)"),
    # an instance count past the cap was answered with the smallest configuration that holds the job
    ("fine-tune 7B on 1B tokens on 1000 p5 instances", "1000× p5 is more instances than the policy's max_instances "
                                                       "allows (16); ask for at most 16"),
])
def test_a_gpu_count_only_more_instances_than_allowed_make_says_the_cap(text: str, says: str) -> None:
    with pytest.raises(RequestError) as caught:
        decided(text)
    assert caught.value.code == "no_configuration" and says in caught.value.message


def test_an_exact_count_at_the_ceiling_agrees_with_it() -> None:
    assert accelerators(decided("fine-tune 7B on 16 GPUs, at most 16 GPUs").plan) == 16
    plan = decided("fine-tune 7B on 16 GPUs on 2 nodes").plan
    assert (accelerators(plan), plan.instance_count) == (16, 2)


def test_an_instance_count_with_a_type_is_that_many_of_the_type() -> None:
    plan = decided("fine-tune 7B on p4d with 4 nodes").plan
    assert (plan.instance_count, plan.instance_type) == (4, "p4d.24xlarge")
    assert decided("fine-tune 7B on p4d with 4 nodes").request.unread == []


def test_an_instance_count_without_a_type_fixes_the_count_of_every_option() -> None:
    decision = decided("fine-tune 7B on 4 nodes")
    assert {p.instance_count for p in [decision.plan, *decision.alternatives]} == {4}
    assert "the request allows exactly 4 instances: no other counts tried" in candidates_reason(decision)


def test_an_instance_count_nothing_holds_the_job_on_is_refused_with_the_smallest_that_does() -> None:
    with pytest.raises(RequestError) as caught:
        decided("fine-tune 70B on 2 nodes of p4d")
    assert caught.value.code == "no_configuration"
    assert "on 2× p4d: the smallest that holds it is 5× p4d.24xlarge" in caught.value.message


def test_repeated_seeds_price_every_run() -> None:
    once, thrice = decided("fine-tune 7B on 1B tokens"), decided("fine-tune 7B on 1B tokens x3 seeds")
    assert thrice.request.trials == 3 and thrice.request.unread == []
    assert thrice.plan.estimated_cost_usd > 2.5 * once.plan.estimated_cost_usd


def test_a_ceiling_never_leaks_into_the_next_decision_of_the_same_work() -> None:
    """Layouts are remembered per type and model: a ceiling is part of what they are remembered by."""
    for text in ("fine-tune 7B", "sweep of 20 trials on 350M"):
        free = layout(decided(text).plan)
        assert accelerators(decided(text, max_gpus=4).plan) <= 4
        assert layout(decided(text).plan) == free
        assert accelerators(decided(text, max_gpus=4).plan) <= 4


# --- an allowance of accelerator-hours, a ceiling on the hourly rate and on one accelerator's price an hour ---

def _accelerator_hours(plan: Plan | Alternative) -> float:
    return plan.accelerators * plan.estimated_hours / 1.01  # hours as shown are rounded


def _hourly(plan: Plan | Alternative) -> float:
    return plan.instance_count * plan.price_per_instance_hour_usd


def _per_accelerator(plan: Plan | Alternative) -> float:
    return _hourly(plan) / plan.accelerators


@pytest.mark.parametrize(("text", "field", "limit", "measure", "traced"), [
    ("I have 500 GPU-hours of budget, fine-tune 13B on 3B tokens", "max_gpu_hours", 500, _accelerator_hours,
     "at most 500 accelerator-hours"),
    ("fine-tune 7B on 1B tokens using at most 100 GPU hours", "max_gpu_hours", 100, _accelerator_hours,
     "at most 100 accelerator-hours"),
    ("fine-tune 7B on 1B tokens, 60 gpu-hrs max", "max_gpu_hours", 60, _accelerator_hours,
     "at most 60 accelerator-hours"),
    ("fine-tune 7B on 1B tokens, max $20 per hour", "max_hourly_usd", 20.0, _hourly, "at most $20.00 an hour"),
    ("fine-tune 7B on 1B tokens, under $30/hr", "max_hourly_usd", 30.0, _hourly, "at most $30.00 an hour"),
    ("fine-tune 13B on 2B tokens, at most $10 an hour", "max_hourly_usd", 10.0, _hourly, "at most $10.00 an hour"),
    ("fine-tune 7B on 1B tokens, at most $3 per GPU hour", "max_usd_per_gpu_hour", 3.0, _per_accelerator,
     "at most $3.00 per accelerator-hour"),
    ("fine-tune 7B on 1B tokens, under $1.50/GPU-hr", "max_usd_per_gpu_hour", 1.5, _per_accelerator,
     "at most $1.50 per accelerator-hour"),
    ("fine-tune 13B on 1B tokens, max $2 per GPU-hour", "max_usd_per_gpu_hour", 2.0, _per_accelerator,
     "at most $2.00 per accelerator-hour"),
])
def test_a_limit_said_keeps_every_option_within_it_and_is_traced(
        text: str, field: str, limit: float, measure: Callable[[Plan | Alternative], float], traced: str) -> None:
    decision = decided(text)
    request = decision.request
    assert getattr(request, field) == limit and request.unread == []
    assert (request.gpus, request.max_gpus, request.budget_usd) == (None, None, None)  # none read as another field
    assert {f for f in ("max_gpu_hours", "max_hourly_usd", "max_usd_per_gpu_hour") if getattr(request, f)} == {field}
    for plan in [decision.plan, *decision.alternatives]:
        assert measure(plan) <= limit
    assert traced in candidates_reason(decision)


def test_an_allowance_nothing_fits_is_refused_with_the_fewest_it_takes() -> None:
    with pytest.raises(RequestError) as caught:
        decided("fine-tune 70B on 10B tokens, 200 gpu-hours max")
    assert caught.value.code == "no_configuration"
    assert caught.value.message.startswith("No allowed configuration runs this job within 200 accelerator-hours: the "
                                           "fewest it takes is ~")


def test_an_allowance_short_of_a_job_whose_tokens_were_assumed_says_so() -> None:
    with pytest.raises(RequestError) as caught:
        decided("we have ~100 GPU hours of A100 for a 3B pretrain experiment")
    assert caught.value.message.startswith("No allowed configuration runs this job (60B tokens assumed: say how many "
                                           "it trains on) within 100 accelerator-hours")


@pytest.mark.parametrize(("text", "field", "rate"), [
    ("fine-tune 7B on 1B tokens, $50/hour", "max_hourly_usd", "$50/hour"),
    ("fine-tune 7B on 1B tokens, $2 per GPU-hour", "max_usd_per_gpu_hour", "$2 per GPU-hour"),
])
def test_a_rate_said_without_a_ceiling_is_left_for_a_person(text: str, field: str, rate: str) -> None:
    decision = decided(text)
    assert getattr(decision.request, field) is None and decision.request.unread == [rate]


@pytest.mark.parametrize(("text", "refusal"), [
    ("fine-tune 7B on 1B tokens, max $1 per hour",
     "No allowed configuration runs this job for at most $1.00 an hour: the lowest rate is $"),
    ("fine-tune 7B on 1B tokens, max $0.10 per GPU-hour",
     "No allowed configuration runs this job for at most $0.10 per accelerator-hour: the lowest is $"),
])
def test_a_rate_ceiling_nothing_meets_is_refused_with_the_lowest_rate(text: str, refusal: str) -> None:
    with pytest.raises(RequestError) as caught:
        decided(text)
    assert caught.value.code == "no_configuration"
    assert caught.value.message.startswith(refusal)


def test_a_rate_ceiling_that_makes_the_run_dearer_in_all_says_what_it_costs() -> None:
    """A cheaper accelerator-hour on slower hardware can cost more for the whole run: the approver sees by how much."""
    decision = decided("fine-tune 7B on 1B tokens, under $1.50/GPU-hr")
    uncapped = decided("fine-tune 7B on 1B tokens")

    assert uncapped.plan.estimated_cost_usd < decision.plan.estimated_cost_usd
    assert (f"keeping under $1.50 per accelerator-hour costs ~${decision.plan.estimated_cost_usd:,.2f}; without it "
            f"the plan would be {uncapped.plan.instance_count}× {uncapped.plan.instance_type} "
            f"{uncapped.plan.purchase_model.value} at ~${uncapped.plan.estimated_cost_usd:,.2f}") in " ".join(
        decision.warnings)


def test_a_rate_ceiling_the_open_plan_already_meets_adds_no_warning() -> None:
    decision = decided("fine-tune 7B on 1B tokens, at most $3 per GPU hour")
    assert not any("keeping under" in w for w in decision.warnings)



def test_a_plan_outside_the_size_class_says_what_ruled_the_class_out_and_no_deadline_it_did_not_have() -> None:
    """An allowance of accelerator-hours left nothing of the small class; there was no deadline to meet."""
    decision = decided("fine-tune 7B on 1B tokens, but keep it under 100 GPU hours")
    [warning] = [w for w in decision.warnings if w.startswith("nothing in the small size class")]
    assert warning == ("nothing in the small size class (g5, g6, g6e, p4d, p4de, trn1) fits the runtime cap and stays "
                       f"within the request's limits; {decision.plan.instance_type} is outside it")


def test_hardware_named_for_a_length_is_one_job_whatever_runs_on_it() -> None:
    """ "for an ablation" made it a sweep of the default 10 trials, which 16 A100s for 3 days could not hold."""
    held = decided("need 2 nodes of 8xA100 for 3 days for an ablation, us-east-1")
    plain = decided("need 2 nodes of 8xA100 for 3 days, us-east-1")
    assert (held.plan.instance_count, held.plan.instance_type) == (2, "p4d.24xlarge")
    assert held.plan.estimated_cost_usd == plain.plan.estimated_cost_usd


@pytest.mark.parametrize("said", ["Teacher outputs are precomputed.", "No teacher forward passes needed.",
                                  "from cached logits", "teacher logits computed offline",
                                  "teacher logits were generated", "we already have the teacher outputs generated",
                                  "using the teacher outputs we already generated",
                                  "with teacher logits that we already computed",
                                  "teacher outputs (already generated)"])
def test_a_teacher_whose_outputs_are_made_already_costs_no_forward_pass(said: str) -> None:
    """The student trains on them: priced as the student's training alone, not with a 70B forward per token."""
    made = decided(f"distill a 70B teacher into an 8B student on 500M tokens. {said}")
    plain = decided("distill a 70B teacher into an 8B student on 500M tokens")
    assert made.request.teacher_params is None and made.request.unread == []
    assert made.plan.estimated_cost_usd < plain.plan.estimated_cost_usd / 2


@pytest.mark.parametrize("text", ["distill gpt-4 outputs into a 1B student, 3B tokens of synthetic data",
                                  "distill Claude 3.5 Sonnet responses into our 1B model, 3B tokens"])
def test_outputs_of_a_model_behind_an_api_are_data_made_already(text: str) -> None:
    """No job runs GPT-4: the student trains on its outputs as on any data, and nothing is left unread."""
    decision = decided(text)
    assert decision.request.teacher_params is None and decision.request.unread == []
    assert any("as the teacher's outputs made already" in a for a in decision.assumptions)


@pytest.mark.parametrize("said", ["teacher logits computed on the fly", "soft labels generated online",
                                  "teacher logits computed as we go", "teacher logits computed per batch",
                                  "teacher logits computed while the student trains",
                                  "the teacher's completions are generated each step",
                                  "logits are cached between epochs", "teacher outputs we generate on the fly"])
def test_a_teacher_whose_outputs_are_made_while_the_student_trains_costs_its_forward_pass(said: str) -> None:
    """ "computed on the fly" was read as made already: a 70B teacher's forward passes left out, a quarter of the
    cost priced; "as we go" still was, the words waiting for "goes". A bare "computed" says nothing of when, so
    "per batch" or "while the student trains" after it was read as made already too."""
    live = decided(f"distill a 70B teacher into an 8B student on 500M tokens, {said}")
    plain = decided("distill a 70B teacher into an 8B student on 500M tokens")
    assert live.request.teacher_params == 70_000_000_000 and live.request.unread == []
    assert live.plan.estimated_cost_usd == plain.plan.estimated_cost_usd


@pytest.mark.parametrize(("text", "planned", "other"), [
    ("trying to decide between LoRA and full FT for a 13B on 400M tokens - can you price both?", "lora", "fine-tune"),
    ("full FT vs LoRA on a 7B model, 1B tokens", "fine-tune", "lora"),
])
def test_ways_of_training_named_to_compare_plan_the_first_and_price_the_other_beside_it(
        text: str, planned: str, other: str) -> None:
    """Both were refused as a contradiction; "LoRA 7B, full parameter" still is (test_parse)."""
    decision = decided(text)
    assert decision.request.task.value == planned and decision.request.unread == []  # type: ignore[union-attr]
    alone = decided(text, task=Task(other), task_choice=[])  # the same words, asking for the other alone
    [said] = [w for w in decision.warnings if w.startswith("compared: ")]
    assert said.startswith(f"compared: as {other} the plan would be {alone.plan.instance_count}× "
                           f"{alone.plan.instance_type} {alone.plan.purchase_model.value} at "
                           f"~${alone.plan.estimated_cost_usd:,.2f}")


def test_a_count_ceiling_that_leaves_only_a_slow_size_says_what_it_costs() -> None:
    """"with 4 H100s max" left one p5.4xlarge (single-GPU sizes never go multi-node): ten days on one H100, with
    nothing to say that one 8-GPU node does it in a day and a half for a third of the cost."""
    decision = decided("pretrain a 1.3B on 26B tokens with 4 H100s max")
    assert decision.plan.instance_type == "p5.4xlarge" and decision.plan.estimated_hours > 200
    [kept] = [w for w in decision.warnings if w.startswith("keeping to at most 4 H100s costs ")]
    assert "without it the plan would be 1× p5.48xlarge" in kept
    # a ceiling that costs nothing says nothing
    assert not any(w.startswith("keeping to") for w in decided("fine-tune 7B on 1B tokens, max 2 nodes").warnings)
