"""A job given as accelerator-hours ("it takes about 300 A100-hours") is planned as the work those hours do, on any
hardware that holds what one of those accelerators held: the way to plan models gpuops cannot size (a diffusion
model, a detector)."""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision
from policy.errors import RequestError
from policy.estimate import GIB, measured_workload
from policy.parse import parse_request, read_request
from policy.request import TrainingRequest, measures_work
from policy.spend import SpendSnapshot
from policy.tree import decide

TZ = "America/Los_Angeles"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))


def _decide(text: str) -> Decision:
    return decide(parse_request(text, now=NOW, tz=TZ), catalog=load_catalog(), policy=default_policy(),
                  spend=SpendSnapshot.unavailable(team="team-ml", reason="none"), now=NOW)


@pytest.mark.parametrize(("text", "hours", "accelerator"), [
    ("it takes about 300 A100-hours to fine-tune our diffusion model, need it by Friday", 300.0, "A100"),
    ("fine-tune SDXL on our product images (~100 A100 hours)", 100.0, "A100"),
    ("train our detector, a 50 H100-hour job, spot ok", 50.0, "H100"),
    ("our segmentation model needs roughly 1.2k L40S GPU-hours", 1200.0, "L40S"),
    ("the job is about 300 A100-hours, fine-tune SDXL", 300.0, "A100"),
    ("fine-tune SDXL, about 100 A100-hours", 100.0, "A100"),  # the form the refusal of an image model offers
    ("10 ablations, 20 H100-hours each", 20.0, "H100"),  # each run's
    ("sweep of 6 seeds, ~50 A100-hours per run, by friday", 50.0, "A100"),
])
def test_hours_said_as_the_jobs_size_are_its_work(text: str, hours: float, accelerator: str) -> None:
    fields = read_request(text, now=NOW, tz=TZ).fields
    assert (fields["work_gpu_hours"], fields["work_accelerator"]) == (hours, accelerator)
    assert "max_gpu_hours" not in fields


@pytest.mark.parametrize("text", ["fine-tune 7B on 1B tokens, we have 200 H100-hours",
                                  "fine-tune 7B on 1B tokens, we have about 200 H100-hours",
                                  "fine-tune 7B on 1B tokens, within ~200 A100 hours",
                                  # "is" with a budget as its subject: what there is, a cap the plan keeps
                                  "fine-tune 7B on 1B tokens, our budget is 200 H100-hours",
                                  "fine-tune 7B on 1B tokens, the cap is 200 A100 hours"])
def test_hours_said_as_what_there_is_stay_an_allowance(text: str) -> None:
    fields = read_request(text, now=NOW, tz=TZ).fields
    assert fields["max_gpu_hours"] == 200 and "work_gpu_hours" not in fields


def test_the_work_is_what_the_hours_do_at_that_accelerators_peak_and_mfu() -> None:
    a100 = load_catalog().accelerators["A100"]
    assert a100.peak_bf16_tflops is not None and a100.mfu is not None and a100.memory_gib is not None
    work = measured_workload(accelerator="A100", gpu_hours=300, peak_tflops=a100.peak_bf16_tflops, mfu=a100.mfu,
                             memory_gib=a100.memory_gib, headroom=0.1)
    assert work.flops == pytest.approx(300 * 3600 * a100.peak_bf16_tflops * 1e12 * a100.mfu)
    assert work.sharded_bytes == 0 and work.activation_bytes == pytest.approx(a100.memory_gib * GIB * 0.9)
    assert (work.measured, work.measured_on) == ("300 A100-hours", "A100")


def test_a_job_given_as_hours_is_planned_without_a_size_tokens_or_sequence() -> None:
    decision = _decide("it takes about 300 A100-hours to fine-tune our diffusion model, need it by Friday")
    request = decision.request
    assert (request.params, request.tokens, request.seq_len, request.work_gpu_hours) == (None, None, None, 300.0)
    assert not any(a.startswith(("tokens:", "sequence length:")) for a in decision.assumptions)
    assert decision.plan.deadline_met
    steps = {step.node: step for step in decision.trace}
    assert "300 A100-hours" in steps["4 compute"].answer and "the accelerator-hours said" in steps["4 compute"].source
    assert "holds less than one A100" in steps["3 memory"].reason  # a 24 GiB A10G cannot hold what one A100 held


def test_more_of_a_faster_accelerator_finish_the_same_work_sooner() -> None:
    decision = _decide("the job takes 400 A100-hours, as fast as possible")
    plan = decision.plan
    assert plan.accelerator != "A100"
    assert plan.estimated_hours < 400 / plan.accelerators  # sooner than as many A100s could, even perfectly scaled


def test_a_model_size_said_beside_the_hours_is_what_the_plan_is_estimated_from() -> None:
    with_hours = _decide("fine-tune 7B on 1B tokens, takes about 60 A100-hours")
    without = _decide("fine-tune 7B on 1B tokens")
    assert with_hours.request.params == 7_000_000_000
    assert with_hours.plan.estimated_hours == without.plan.estimated_hours
    assert "the 60 accelerator-hours given are not the estimate: it follows the model's size" in with_hours.assumptions


@pytest.mark.parametrize(("text", "hours", "accelerator"), [
    ("fine-tune SDXL, takes about 6 hours on one A100", 6.0, "A100"),
    ("fine-tune our yolov8 detector, took 10 hours on 4 A10Gs last time", 40.0, "A10G"),
    ("retrain our ResNet-50 on new photos, last time it took 20 hours on 8 V100s", 160.0, "V100"),  # no task word
])
def test_training_of_no_size_described_by_its_length_on_hardware_is_that_much_work(text: str, hours: float,
                                                                                   accelerator: str) -> None:
    request = parse_request(text, now=NOW, tz=TZ)
    assert (request.work_gpu_hours, request.work_accelerator) == (hours, accelerator)
    assert (request.fixed_hours, request.gpus, request.accelerator) == (None, None, None)
    assert any(note.endswith("as the model those hours train") for note in request.notes)
    assert not any(said in request.unread for said in ("50", "ResNet", "took", "last time"))


@pytest.mark.parametrize("text", ["our nightly eval takes ~3h on 8 H100s", "8 H100 for 6 hours",
                                  "fine-tune 7B, it takes 6 hours on 8 A100s"])
def test_a_length_asked_for_said_of_an_eval_or_beside_a_size_stays_the_jobs_own(text: str) -> None:
    request = parse_request(text, now=NOW, tz=TZ)
    assert request.fixed_hours is not None and request.work_gpu_hours is None


def test_the_hours_are_each_runs_so_a_sweep_does_them_for_every_run() -> None:
    one = _decide("fine-tune our detector, takes about 6 hours on one A100")
    sweep = _decide("sweep 8 configs of our detector, each takes about 6 hours on one A100")
    assert sweep.request.trials == 8
    assert sweep.plan.estimated_cost_usd > 7 * one.plan.estimated_cost_usd


def test_hours_without_the_accelerator_they_are_on_are_no_work_to_plan() -> None:
    request = TrainingRequest(text="x", work_gpu_hours=300)  # as a caller of the policy API may build it
    with pytest.raises(RequestError) as raised:
        decide(request, catalog=load_catalog(), policy=default_policy(),
               spend=SpendSnapshot.unavailable(team="team-ml", reason="none"), now=NOW)
    assert raised.value.code == "missing_model_size"


@pytest.mark.parametrize("refused", ["fine-tune SDXL on 20k product images", "train yolov8 on our footage"])
def test_the_forms_an_image_models_refusal_offers_plan_it(refused: str) -> None:
    with pytest.raises(RequestError) as raised:
        parse_request(refused, now=NOW, tz=TZ)
    offered = re.findall(r'"([^"]+)"', raised.value.message)
    assert len(offered) == 2
    for text in offered:
        assert _decide(text).request.work_gpu_hours is not None, text


@pytest.mark.parametrize(("text", "said"), [
    # at the catalog's A100 figures the estimate's 1B tokens of a 7B are ~97 A100-hours: a run said to have taken 5 h
    # on 8 of them (40) did under half of it, one of 60 h (480) five times as much
    ("fine-tune 7B on 1B tokens; approx 5 hours on 8xA100 last time", "~96.6 A100-hours at 45% MFU, 2.4× that"),
    ("fine-tune 7B on 1B tokens; it took 60 hours on 8 A100s last time", "~96.6 A100-hours at 45% MFU, 20% of that"),
])
def test_an_earlier_run_far_from_the_estimate_is_said_beside_it(text: str, said: str) -> None:
    decision = _decide(text)
    assert decision.request.earlier_gpu_hours is not None and decision.request.fixed_hours is None
    [warning] = [w for w in decision.warnings if w.startswith("an earlier run is said to have taken")]
    assert said in warning


def test_an_earlier_run_near_the_estimate_adds_nothing() -> None:
    decision = _decide("fine-tune 7B on 1B tokens, last time it took 14 hours on 8 A100s")
    assert decision.request.earlier_gpu_hours == 112.0 and decision.request.earlier_accelerator == "A100"
    assert not [w for w in decision.warnings if w.startswith("an earlier run")]


def test_hours_given_for_runs_not_counted_are_all_of_them_together() -> None:
    """ "200 H100-hours for some ablations": the sweep's default runs share the hours, never each take them all."""
    shared = _decide("need ~200 H100-hours for some ablations this week")
    one = _decide("it takes about 20 H100-hours, fine-tune")
    assert shared.request.trials == 10 and shared.plan.jobs == 10
    assert "the 200 H100-hours given are all 10 runs' together, no count of runs being said: 20 each" in \
        shared.assumptions
    # ten runs of the one job's work, each with its own start-up: ten times its cost, give or take the start-ups
    assert shared.plan.estimated_cost_usd == pytest.approx(10 * one.plan.estimated_cost_usd, rel=0.25)


@pytest.mark.parametrize(("text", "hours", "accelerator"), [
    ("fine-tune mistral 7B, it takes about 12 A100-days", 288.0, "A100"),
    ("our detector took roughly 64 GPU-days on A100s", 1536.0, "A100"),
    ("it needs about 2 H100-weeks, fine-tune SDXL", 336.0, "H100"),
    ("fine-tune 7B, it took 300 GPU-hours on 8x A100s", 300.0, "A100"),
])
def test_accelerator_days_weeks_and_hours_on_a_named_part_are_the_work_in_hours(text: str, hours: float,
                                                                               accelerator: str) -> None:
    fields = read_request(text, now=NOW, tz=TZ).fields
    assert (fields["work_gpu_hours"], fields["work_accelerator"]) == (hours, accelerator)
    assert "gpus" not in fields and "accelerator" not in fields  # the time measures work; it asks for no hardware


@pytest.mark.parametrize(("text", "hours"), [("we have 100 GPU-days of budget for a 7B lora on 1B tokens", 2400),
                                             ("at most 2 GPU-weeks for a 7B lora on 1B tokens", 336)])
def test_an_allowance_in_accelerator_days_or_weeks_is_held_in_hours(text: str, hours: int) -> None:
    reading = read_request(text, now=NOW, tz=TZ)
    assert reading.fields["max_gpu_hours"] == hours and "gpus" not in reading.fields
    assert any(f"allowance of accelerator-hours ({hours:,})" in note for note in reading.notes)


def test_hours_said_beside_a_size_but_no_tokens_set_how_long_it_trains() -> None:
    """ "fine-tune 7B, it took about 300 A100-hours last time": the hours said measure the work, where a default count
    of tokens would only guess it; with the tokens said as well, the size and tokens make the estimate."""
    measured = _decide("fine-tune 7B, it took about 300 A100-hours")
    guessed = _decide("fine-tune 7B")
    assert measured.request.tokens is not None and guessed.request.tokens == 1_000_000_000
    a100 = load_catalog().accelerators["A100"]
    assert a100.peak_bf16_tflops is not None and a100.mfu is not None
    per_token = 6 * 7e9  # a full fine-tune's FLOPs a token, before attention
    assert measured.request.tokens == pytest.approx(300 * 3600 * a100.peak_bf16_tflops * 1e12 * a100.mfu / per_token,
                                                    rel=0.15)
    assert measured.plan.estimated_cost_usd > 2 * guessed.plan.estimated_cost_usd
    [said] = [a for a in measured.assumptions if a.startswith("tokens:")]
    assert "what the 300 A100-hours given compute for this model" in said
    assert not [a for a in measured.assumptions if "are not the estimate" in a]


def test_hours_said_beside_a_size_and_tokens_far_from_the_estimate_are_said_beside_it() -> None:
    decision = _decide("fine-tune 7B on 1B tokens, it took about 600 A100-hours")
    assert decision.request.tokens == 1_000_000_000
    [warning] = [w for w in decision.warnings if w.startswith("the work is said to take 600 A100-hours")]
    assert "~96.6 A100-hours at 45% MFU, 16% of that" in warning


@pytest.mark.parametrize(("text", "hours", "kind"), [
    ("it took about 20 node-hours on p4d, fine-tune 13B again", 20.0, "p4d"),
    ("the sdxl fine-tune took roughly 3 node-days on p4de", 72.0, "p4de"),
    ("fine-tune our detector, it takes about 10 p4d.24xlarge-hours", 10.0, "p4d.24xlarge"),
])
def test_hours_of_whole_instances_of_a_type_are_the_work_never_a_count_of_them(text: str, hours: float,
                                                                              kind: str) -> None:
    fields = read_request(text, now=NOW, tz=TZ).fields
    assert (fields["work_instance_hours"], fields["work_instance_type"]) == (hours, kind)
    assert not {"instances", "instance_type", "gpus"} & set(fields)


def test_instance_hours_are_the_accelerator_hours_the_type_holds() -> None:
    by_node = _decide("fine-tune our detector, it took about 20 node-hours on p4d")
    by_part = _decide("fine-tune our detector, it took about 160 A100-hours")
    assert (by_node.request.work_gpu_hours, by_node.request.work_accelerator) == (160.0, "A100")
    assert by_node.plan.estimated_cost_usd == by_part.plan.estimated_cost_usd
    assert "20 hours of p4d instances are 160 A100-hours of work (8 A100 an instance)" in by_node.assumptions


def test_instance_hours_on_a_family_whose_sizes_differ_ask_for_the_size() -> None:
    with pytest.raises(RequestError) as caught:
        _decide("fine-tune 7B, it takes about 40 g5 node-hours")
    assert caught.value.code == "ambiguous_instance_type"
    assert caught.value.message == ("g5 sizes hold 1 to 8 A10G each: say which size the 40 hours of g5 were on "
                                    "(e.g. g5.48xlarge, 8 a machine), or give them as accelerator-hours.")


def test_node_hours_on_no_type_are_left_for_a_person_never_read_as_instances() -> None:
    reading = read_request("we have 20 node-hours for a 7B lora on 1B tokens", now=NOW, tz=TZ)
    assert "instances" not in reading.fields and "20 node-hours" in reading.fields["unread"]


@pytest.mark.parametrize("text", ["fine-tune mistral 7B, it took about 300 A100-hours last time",
                                  "fine-tune mistral 7B, roughly 64 GPU-days on A100s last time, need it again",
                                  "it took about 20 node-hours on p4d the last time, fine-tune 13B again"])
def test_a_measure_said_of_the_last_run_of_the_work_is_read_with_it(text: str) -> None:
    fields = read_request(text, now=NOW, tz=TZ).fields
    assert "unread" not in fields and measures_work(fields)
