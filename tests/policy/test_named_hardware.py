"""Hardware a request names is what it gets, and the plan says what that costs: when gpuops would plan on another
family for at least a tenth less, a warning names that plan, its cost and its hours."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from policy.errors import RequestError
from tests.policy.test_hardware_limits import decided


def named_hardware_warnings(text: str, **updates: object) -> list[str]:
    return [w for w in decided(text, **updates).warnings if " as asked costs " in w]


def test_a100s_asked_for_are_planned_and_the_cheaper_open_plan_is_named() -> None:
    decision = decided("fine-tune 7B on 1B tokens on A100s")
    assert decision.plan.accelerator == "A100"
    [warning] = named_hardware_warnings("fine-tune 7B on 1B tokens on A100s")
    open_plan = decided("fine-tune 7B on 1B tokens").plan
    assert warning.startswith(f"A100 as asked costs ~${decision.plan.estimated_cost_usd:,.2f}; left open, the plan "
                              f"would be 1× {open_plan.instance_type} {open_plan.purchase_model.value} at "
                              f"~${open_plan.estimated_cost_usd:,.2f}")
    saving = 1 - open_plan.estimated_cost_usd / decision.plan.estimated_cost_usd
    assert f"{saving:.0%} less" in warning


def test_hardware_that_is_also_the_open_choice_says_nothing() -> None:
    assert decided("fine-tune 7B on 1B tokens").plan.instance_type == "p5.48xlarge"
    assert named_hardware_warnings("fine-tune 7B on 1B tokens on 8 H100s") == []
    assert named_hardware_warnings("fine-tune 7B on 1B tokens on p5.48xlarge") == []


def test_a_job_of_stated_length_on_named_hardware_is_not_compared() -> None:
    assert named_hardware_warnings("8 A100 for 6 hours") == []


def test_a_family_named_in_the_fields_is_compared_as_the_text_is() -> None:
    assert named_hardware_warnings("fine-tune 7B on 1B tokens", instance_type="p4d")[0].startswith("p4d as asked")


def test_a_preference_is_planned_as_asked_and_warned_of_as_an_ask_is() -> None:
    preferred = decided("fine-tune 7B on 1B tokens, prefer A100s")
    asked = decided("fine-tune 7B on 1B tokens on A100s")
    assert (preferred.plan, preferred.warnings) == (asked.plan, asked.warnings)
    assert any("'prefer A100s' as asking for that hardware, or for the hardware left open" in n
               for n in preferred.request.notes)


def test_a_count_asked_for_is_compared_with_the_open_plan() -> None:
    [warning] = named_hardware_warnings("fine-tune 7B on 1B tokens on 4x p5.48xlarge")
    assert warning.startswith("4× p5.48xlarge as asked costs")
    assert "left open, the plan would be 1× p5.48xlarge" in warning  # the same type, fewer of them
    [warning] = named_hardware_warnings("fine-tune 7B on 1B tokens on 16 GPUs")
    assert warning.startswith("16 GPUs as asked costs")


def test_instances_of_an_accelerator_are_named_as_instances_not_as_one_accelerator() -> None:
    [warning] = named_hardware_warnings("qlora 70B on a single A100 node")
    assert warning.startswith("1 A100 instance as asked costs")  # "1× A100" read as one accelerator
    [warning] = named_hardware_warnings("qlora 70B on 2 A100 nodes")
    assert warning.startswith("2 A100 instances as asked costs")


def test_preferred_hardware_that_cannot_run_the_job_is_left_open_and_the_reason_said() -> None:
    # the default team is not Neuron-ready: Trainium cannot run anything for it
    preferred = decided("fine-tune 40B on 100M tokens, trn1 if possible")
    open_plan = decided("fine-tune 40B on 100M tokens")
    assert preferred.plan == open_plan.plan
    assert preferred.request.instance_type is None
    [note] = [n for n in preferred.request.notes if n.startswith("the hardware preferred")]
    assert note.startswith("the hardware preferred, trn1, is left open: no trn1 configuration can run this job in "
                           "us-east-1: trn1.2xlarge, trn1.32xlarge: Trainium needs a Neuron-ready team")
    assert "Name another" not in note  # the refusal's advice, taken: not repeated to the person


def test_a_preferred_count_too_small_for_the_job_is_left_open() -> None:
    decision = decided("fine-tune 70B on 1B tokens, single gpu if possible")
    assert decision.plan.accelerators > 1
    assert any(n.startswith("the hardware preferred, 1 GPU, is left open: 1 accelerator (1× p5.4xlarge) cannot "
                            "hold this job")
               for n in decision.request.notes)


def test_hardware_asked_for_that_cannot_run_the_job_is_still_refused() -> None:
    with pytest.raises(RequestError) as refused:
        decided("fine-tune 40B on 100M tokens on trn1")
    assert refused.value.code == "no_matching_instance"


def test_named_hardware_too_small_for_the_job_says_why_it_and_not_others_cannot_run_it() -> None:
    with pytest.raises(RequestError) as refused:
        decided("fine-tune 3B on 400M tokens on a single g6e.xlarge")
    message = refused.value.message
    assert message.startswith("No allowed configuration in us-east-1 holds this job on 1× g6e.xlarge: its memory "
                              "needs more instances (g6e.xlarge needs 2)")
    assert "not what the request asked for" not in message and "other hardware" in message


# --- a region wished for: planned in, its cost against the cheapest region the team can launch in said ---

def preferred_region_warnings(text: str) -> list[str]:
    return [w for w in decided(text).warnings if ", the region preferred, costs " in w]


@pytest.mark.parametrize("text", ["fine-tune 7B on 1B tokens, prefer us-west-2",
                                  "fine-tune 7B on 1B tokens, preferably in us-west-2",
                                  "fine-tune 7B on 1B tokens in us-west-2 if possible",
                                  "fine-tune 7B on 1B tokens, prefer us-west-2 but anywhere in the US is fine"])
def test_a_preferred_region_is_planned_in_and_the_cheaper_region_is_named(text: str) -> None:
    decision = decided(text)
    anywhere = decided("fine-tune 7B on 1B tokens").plan
    assert (decision.plan.region, decision.request.region_preferred, decision.request.unread) == (
        "us-west-2", True, [])
    assert anywhere.region != "us-west-2" and anywhere.estimated_cost_usd < decision.plan.estimated_cost_usd
    [warning] = preferred_region_warnings(text)
    assert warning.startswith(f"us-west-2, the region preferred, costs ~${decision.plan.estimated_cost_usd:,.2f}; "
                              f"in {anywhere.region} the plan would be 1× {anywhere.instance_type}")


@pytest.mark.parametrize("text", ["fine-tune 7B on 1B tokens, prefer us-west-2, fall back to us-east-1",
                                  "fine-tune 7B on 1B tokens in us-west-2, otherwise us-east-1"])
def test_a_region_to_fall_back_on_is_searched_and_the_first_is_the_wish(text: str) -> None:
    """The preference was lost: both regions were searched alike and the plan went to the cheaper one."""
    decision = decided(text)
    assert (decision.plan.region, decision.request.region_preferred, decision.request.unread) == (
        "us-west-2", True, [])
    assert decision.request.regions == ["us-west-2", "us-east-1"]
    [warning] = preferred_region_warnings(text)
    assert "in us-east-1 the plan would be" in warning


def test_a_region_asked_for_is_not_compared_with_others() -> None:
    decision = decided("fine-tune 7B on 1B tokens in us-west-2")
    assert decision.plan.region == "us-west-2" and not decision.request.region_preferred
    assert preferred_region_warnings("fine-tune 7B on 1B tokens in us-west-2") == []


def test_a_preferred_region_that_cannot_run_the_job_is_left_open_and_the_reason_said() -> None:
    decision = decided("fine-tune 7B on 1B tokens on p5 in eu-west-1 if possible")
    assert decision.plan.instance_type.startswith("p5") and decision.plan.region != "eu-west-1"
    [note] = [n for n in decision.request.notes if n.startswith("the region preferred")]
    assert note.startswith("the region preferred, eu-west-1, is left open: no p5 configuration can run this job in "
                           "eu-west-1")


def test_data_said_to_live_elsewhere_is_priced_and_warned_of_as_the_requests_own() -> None:
    away = decided("fine-tune 7B on 1B tokens in us-east-1, our data lives in us-west-2")
    home = decided("fine-tune 7B on 1B tokens in us-east-1")
    assert away.plan.estimated_cost_usd > home.plan.estimated_cost_usd  # the transfer out of us-west-2
    assert any(w.startswith("runs in us-east-1, away from the data in us-west-2") for w in away.warnings)
    there = decided("fine-tune 7B on 1B tokens, the data is in us-west-2")
    assert there.plan.region == "us-west-2"
    assert not any("away from" in w for w in there.warnings)  # not "the team's data in us-east-1"
    assert any(w.startswith("the data is said to be in us-west-2, not in the team's data region, us-east-1")
               for w in there.warnings)  # what the approver takes on the requester's word
    assert not any(w.startswith("the data is said") for w in home.warnings)


def test_hardware_not_sold_in_the_region_is_refused_with_the_policys_regions_that_sell_it() -> None:
    with pytest.raises(RequestError) as refused:
        decided("fine-tune 7B on 1B tokens on p5en in eu-west-1")
    assert refused.value.code == "no_matching_instance"
    assert "(not offered there at a known price; of the policy's regions, us-east-1, us-east-2, us-west-2 have it)" \
        in refused.value.message
    with pytest.raises(RequestError) as unpriced:
        decided("fine-tune 7B on 1B tokens on p5e.48xlarge")  # spot prices only in the snapshot
    assert "the price snapshot has no on-demand price for it in any region" in unpriced.value.message


@pytest.mark.parametrize(("text", "families"), [
    ("eval run 7B on p5 or p4d for 2h", {"p5", "p4d"}),  # the open choice would be a g6
    ("fine-tune 7B on 1B tokens on p4d or g6e", {"p4d", "g6e"}),
    ("fine-tune 7B on 1B tokens on A100 or L40S", {"p4d", "p4de", "g6e"}),
])
def test_hardware_named_as_a_choice_keeps_every_option_among_it(text: str, families: set[str]) -> None:
    decision = decided(text)
    assert decision.request.hardware_choice and decision.request.unread == []
    assert {p.instance_type.split(".")[0] for p in [decision.plan, *decision.alternatives]} <= families


def test_a_choice_of_hardware_is_compared_with_the_open_plan_as_an_ask_is() -> None:
    [warning] = named_hardware_warnings("fine-tune 7B on 1B tokens on p4d or g6e")
    assert warning.startswith("p4d or g6e as asked costs ~$")
    assert "left open, the plan would be 1× p5.48xlarge" in warning


@pytest.mark.parametrize(("text", "other", "families"), [
    ("compare p5 vs p4d for fine-tuning 13B on 2B tokens", "p4d", {"p4d"}),
    ("fine-tune 13B on 2B tokens on H100 or A100, by Friday", "A100", {"p4d", "p4de"}),
])
def test_each_other_piece_of_hardware_named_as_a_choice_is_shown_at_its_best(text: str, other: str,
                                                                               families: set[str]) -> None:
    """The comparison asked for: the plan is on the best of them, the best of each other one is an alternative."""
    decision = decided(text)
    assert decision.request.unread == []
    label, alternative = next((a.label, a) for a in decision.alternatives if a.label.startswith(f"on {other}"))
    assert alternative.instance_type.split(".")[0] in families
    assert alternative.estimated_cost_usd >= decision.plan.estimated_cost_usd or alternative.deadline_met is False
    assert decision.plan.instance_type.split(".")[0] not in families
    assert label == f"on {other}"


@pytest.mark.parametrize(("text", "types"), [
    ("fine-tune 7B on 1B tokens with 8 A100 40GB", {"p4d.24xlarge"}),
    ("fine-tune 7B on 1B tokens on A100 80GB", {"p4de.24xlarge"}),
    ("fine-tune 7B on 1B tokens on A100s", {"p4d.24xlarge", "p4de.24xlarge"}),
])
def test_an_accelerator_named_with_its_memory_keeps_to_that_size(text: str, types: set[str]) -> None:
    """'A100 40GB' was planned on p4de, the 80 GB A100, with '40GB' left unread."""
    decision = decided(text)
    assert {p.instance_type for p in [decision.plan, *decision.alternatives]} <= types
    assert decision.request.unread == []


def test_a_single_machine_of_a_family_is_its_best_size_on_one_instance() -> None:
    """ "a single g5" keeps to one g5 of whichever size is cheapest, where "1 g5" is the family's full-size one."""
    single = decided("lora 7B on 20M tokens on a single g5").plan
    assert (single.instance_count, single.instance_type) == (1, "g5.xlarge")
    assert single == decided("lora 7B on 20M tokens on g5, at most 1 instance").plan
    assert decided("lora 7B on 20M tokens on 1 g5").plan.instance_type == "g5.48xlarge"


def test_accelerators_named_each_with_its_count_are_each_planned_and_the_best_chosen() -> None:
    decision = decided("fine-tune 13B on 1B tokens: 8 A100s or 16 A10Gs, by Friday")
    assert [str(o) for o in decision.request.hardware_options] == ["8× A100", "16× A10G"]
    assert (decision.plan.accelerator, decision.plan.accelerators) == ("A100", 8)
    [other] = [a for a in decision.alternatives if a.label == "on 16× A10G as asked"]
    assert (other.accelerator, other.accelerators) == ("A10G", 16)
    assert other.estimated_cost_usd > decision.plan.estimated_cost_usd  # the cheaper one is the plan
    assert any(n.startswith("compared the hardware named, planned on 8× A100 as the cheapest that meets the deadline")
               for n in decision.assumptions)


def test_urgent_picks_the_earliest_of_the_counted_choices_and_one_that_cannot_run_is_said() -> None:
    # the cheaper and the earlier differ: urgency picks the earlier, else the cheaper
    cheaper = decided("fine-tune 7B on 1B tokens with 8 A100s or 16 H100s")
    urgent = decided("fine-tune 7B on 1B tokens with 8 A100s or 16 H100s, asap")
    assert (cheaper.plan.accelerator, urgent.plan.accelerator) == ("A100", "H100")
    [slower] = [a for a in urgent.alternatives if a.label == "on 8× A100 as asked"]
    assert slower.estimated_hours > urgent.plan.estimated_hours
    # one A100 is no AWS shape, and 8 of them is too far past it to plan on unasked
    cannot = decided("fine-tune 7B on 1B tokens with 8 H100s or 1 A100, whichever is cheaper")
    assert cannot.plan.accelerator == "H100"
    assert any(n.startswith("1× A100 cannot run it: No allowed A100 configuration") for n in cannot.assumptions)
    assert any(n.startswith("planned on 8× H100, the only hardware named that can run it") for n in cannot.assumptions)


def test_a_family_and_an_accelerator_no_instance_has_together_are_refused_naming_what_it_carries() -> None:
    with pytest.raises(RequestError) as refused:
        decided("fine-tune 3B on 200M tokens on g5 with A100s")
    assert refused.value.code == "contradiction"
    assert refused.value.message == ('g5 instances carry A10G, not A100: name one of the two, or say "g5 or A100" to '
                                     "have the plan choose between them.")


def test_a_family_or_an_accelerator_asked_about_is_compared_with_the_plan() -> None:
    decision = decided("Is a g5 enough for a Llama 3.2 3B fine-tune on 200M tokens, or do we need A100s?")
    assert decision.plan.accelerator in ("A100", "A100-80GB")
    assert [a.label for a in decision.alternatives if a.label == "on g5"] == ["on g5"]


def test_two_counts_said_together_not_as_a_choice_are_refused() -> None:
    with pytest.raises(RequestError) as refused:
        decided("fine-tune 7B on 1B tokens with 8 A100s and 4 H100s")
    assert refused.value.code == "contradiction"


@pytest.mark.parametrize(("text", "field", "says"), [
    ("what's the biggest model we can fine-tune on 1B tokens for $1k with {}", "params",
     "as the one that fits the biggest model"),
    ("7B LoRA on as many tokens as fit in $200, {}", "tokens", "as the one that fits the most tokens"),
])
def test_a_budget_search_over_counted_choices_plans_the_one_that_fits_the_most(text: str, field: str,
                                                                              says: str) -> None:
    # for the biggest model, 4 L40S cost less than 8 A100s and fit a smaller one
    pair = ("8 A100s", "4 L40S") if field == "params" else ("8 A100s", "16 A10Gs")
    decision = decided(text.format(" or ".join(pair)))
    assert any(says in n for n in decision.assumptions)
    # each asked alone: the plan is the one that fits the most, not the cheaper
    alone = {hw: decided(text.format(hw)) for hw in pair}
    assert getattr(decision.request, field) == max(getattr(d.request, field) for d in alone.values())
    if field == "params":
        assert alone["4 L40S"].plan.estimated_cost_usd < decision.plan.estimated_cost_usd


@pytest.mark.parametrize(("text", "allowed"), [
    ("finetune 13B on 800M tokens, prefer A100 if not much more expensive", "20%"),
    ("finetune 13B on 800M tokens on A100s unless it's a lot pricier", "20%"),
    ("finetune 13B on 800M tokens, prefer H200 if within 10%", "10%"),
])
def test_preferred_hardware_dearer_than_the_premium_allowed_is_left_open_and_says_by_how_much(
        text: str, allowed: str) -> None:
    decision = decided(text)
    open_plan = decided("finetune 13B on 800M tokens").plan
    assert (decision.plan.instance_type, decision.plan.estimated_cost_usd) == (open_plan.instance_type,
                                                                               open_plan.estimated_cost_usd)
    [note] = [n for n in decision.request.notes if n.startswith("the hardware preferred, ")]
    assert note.endswith(f"more than ~${open_plan.estimated_cost_usd:,.2f} with it open, past the {allowed} allowed")
    assert decision.request.unread == []


def test_preferred_hardware_within_the_premium_allowed_is_kept_with_its_cost_named() -> None:
    decision = decided("finetune 13B on 800M tokens, prefer H200 if within 50%")
    open_plan = decided("finetune 13B on 800M tokens").plan
    assert decision.request.accelerator == "H200" and decision.request.hardware_premium_max == 0.5
    assert open_plan.estimated_cost_usd < decision.plan.estimated_cost_usd <= 1.5 * open_plan.estimated_cost_usd
    assert named_hardware_warnings("finetune 13B on 800M tokens, prefer H200 if within 50%")


@pytest.mark.parametrize(("text", "planned", "note"), [
    # A100s come 8 to an instance: "a 4xA100 box" is the 8-GPU one, said
    ("fine-tune 7B on 1B tokens on 4 A100s", 8,
     "planned on 8 A100s, the fewest past the 4 asked that A100 instances make: they come with 8 accelerators each"),
    ("our team needs a 4xA100 box for 3 days for debugging", 8, "planned on 8 A100s, the fewest past the 4 asked"),
    # single-H100 sizes never go multi-node: 12 is two 8-GPU instances
    ("fine-tune 7B on 1B tokens on 12 H100s", 16, "planned on 16 H100s, the fewest past the 12 asked that H100 "
                                                  "instances make: they come with 1 or 8"),
])
def test_a_count_no_instance_makes_is_planned_on_the_next_one_that_does_and_said(text: str, planned: int,
                                                                                   note: str) -> None:
    decision = decided(text)
    assert decision.plan.accelerators == planned and decision.request.gpus == planned
    assert any(n.startswith(note) for n in decision.assumptions), decision.assumptions


@pytest.mark.parametrize("text", [
    "eval 7B, 2 hours on a single A100",  # 8 is too far past 1 to plan on unasked
    "fine-tune 7B on 1B tokens on 3 A10Gs",  # 4 A10Gs do not hold the job: the count asked is refused as asked
])
def test_a_count_too_far_from_an_instance_or_whose_next_count_cannot_hold_the_job_is_refused(text: str) -> None:
    with pytest.raises(RequestError) as refused:
        decided(text)
    assert refused.value.code == "no_configuration" and "has exactly " in refused.value.message
    assert "has exactly 4 " not in refused.value.message


@pytest.mark.parametrize(("text", "message"), [
    ("fine-tune 7b on 1b tokens with deepspeed zero-3 on 4 a10gs",
     "4 A10Gs (1× g5.12xlarge) cannot hold this job: its weights, optimizer state and activations need at least 8 "
     "(2× g5.12xlarge). Ask for 8 A10Gs, or make the job smaller: LoRA/QLoRA or a shorter sequence."),
    ("fine-tune 70B on 1B tokens on 8 H100s",
     "8 H100s (1× p5.48xlarge) cannot hold this job: its weights, optimizer state and activations need at least 16 "
     "(2× p5.48xlarge). Ask for 16 H100s, or make the job smaller: LoRA/QLoRA or a shorter sequence."),
    ("fine-tune llama-3.1-8b on 200M tokens, one GPU",
     "1 accelerator (1× p5.4xlarge) cannot hold this job: its weights, optimizer state and activations need 2× "
     "p5.4xlarge, and sizes with fewer than 4 accelerators do not run multi-node. Ask for more accelerators, or make "
     "the job smaller: LoRA/QLoRA or a shorter sequence."),
])
def test_a_count_an_instance_makes_but_too_small_for_the_job_is_refused_for_its_memory(text: str,
                                                                                     message: str) -> None:
    """"on 4 A10Gs" answered that no configuration "has exactly 4 accelerators (A10G instances come with 1, 4, 8
    each …)", when g5.12xlarge has 4: the memory refuses, not the count, and the refusal now says so."""
    with pytest.raises(RequestError) as refused:
        decided(text)
    assert refused.value.code == "no_configuration" and refused.value.message == message


def _computes_in_fp8(instance_type: str) -> bool:
    from policy.catalog import load_catalog

    catalog = load_catalog()
    return catalog.accelerators[catalog.instances[instance_type].accelerator].fp8


def test_a_run_in_fp8_is_planned_only_on_parts_that_compute_in_fp8_at_their_bf16_speed() -> None:
    """ "13B in fp8" was planned on whatever was cheapest, A100s included, which have no FP8 arithmetic."""
    decision = decided("fine-tune 13B on 2B tokens in fp8")
    assert decision.request.fp8 is True
    assert all(_computes_in_fp8(o.instance_type) for o in [decision.plan, *decision.alternatives])
    assert any("p4d.24xlarge, p4de.24xlarge: A100 does not compute in FP8" in step.reason for step in decision.trace)
    # the same hardware runs as long and costs the same as in BF16: FP8's gain is not priced in
    in_bf16 = decided("fine-tune 13B on 2B tokens on p5.48xlarge")
    in_fp8 = decided("fine-tune 13B on 2B tokens on p5.48xlarge in fp8")
    assert (in_fp8.plan.estimated_hours, in_fp8.plan.estimated_cost_usd) == (
        in_bf16.plan.estimated_hours, in_bf16.plan.estimated_cost_usd)


def test_fp8_on_hardware_without_it_is_refused_naming_why() -> None:
    with pytest.raises(RequestError) as refused:
        decided("fine-tune 13B on 1B tokens in fp8 on A100s")
    assert refused.value.code == "no_matching_instance"
    assert "A100 does not compute in FP8, which the request trains in" in str(refused.value)


def test_a_snapshot_written_before_fp8_was_kept_takes_it_from_the_shipped_one(tmp_path: Path) -> None:
    from policy.catalog import load_catalog

    document = json.loads(resources.files("policy.data").joinpath("catalog.json").read_text())
    for spec in document["accelerators"].values():
        del spec["fp8"], spec["fp8_source"]
    path = tmp_path / "refreshed.json"
    path.write_text(json.dumps(document))
    assert load_catalog(str(path)).accelerators["H100"].fp8 is True
    assert load_catalog(str(path)).accelerators["A100"].fp8 is False


def test_a_plan_in_fp8_says_so_to_what_launches_it() -> None:
    decision = decided("fine-tune 13B on 2B tokens in fp8")
    assert decision.plan.precision == "fp8" and all(a.precision == "fp8" for a in decision.alternatives)
    assert decided("fine-tune 13B on 2B tokens").plan.precision == "bf16"
