"""Words people type in Slack are read, not dropped: epochs, instance counts, plurals, urgency, and work that is
not a training run."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.errors import RequestError
from policy.parse import parse_request
from policy.request import Platform, Stage, Tolerance
from policy.spend import SpendSnapshot
from policy.tree import decide

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("UTC"))


def plan_for(text: str):  # type: ignore[no-untyped-def]
    return decide(parse_request(text, now=NOW, tz="UTC"), catalog=load_catalog(), policy=default_policy(),
                  spend=SpendSnapshot.unavailable(team="team-ml", reason="none"), now=NOW)


def read_whole(text: str, note: str) -> None:
    """``text`` leaves nothing unread, and one of its notes starts with ``note``."""
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.unread == [] and any(n.startswith(note) for n in request.notes), request.notes


@pytest.mark.parametrize(("text", "tokens"), [
    ("fine-tune 7B, 2 epochs over 500M tokens", 1_000_000_000),
    ("fine-tune 7B on 300M tokens for 3 epochs", 900_000_000),
    ("fine-tune 7B on 2B tokens, 1 epoch", 2_000_000_000),
    ("fine-tune 7B, 2 epochs over 50GB of text", 25_000_000_000),  # ~4 bytes of text per token
])
def test_epochs_multiply_the_tokens(text: str, tokens: int) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.tokens == tokens
    assert any("tokens of training" in n for n in request.notes), request.notes


def test_epochs_without_a_dataset_size_are_said_not_dropped() -> None:
    request = parse_request("fine-tune 7B for 3 epochs", now=NOW, tz="UTC")
    assert request.tokens is None and any("needs the dataset's size" in n for n in request.notes)


@pytest.mark.parametrize(("text", "count", "accelerators"), [
    ("fine-tune 7B on 4x p5.48xlarge", 4, 32),
    ("fine-tune 7B using 4 p5s", 4, 32),
    ("fine-tune 13B on 2 p4d.24xlarge", 2, 16),
])
def test_an_instance_count_fixes_the_hardware(text: str, count: int, accelerators: int) -> None:
    plan = plan_for(text).plan
    assert (plan.instance_count, plan.accelerators) == (count, accelerators)


def test_asap_takes_the_earliest_finish_at_the_lowest_cost_near_it() -> None:
    relaxed, urgent = plan_for("fine-tune 13B on 5B tokens"), plan_for("fine-tune 13B on 5B tokens asap")
    assert urgent.request.urgent is True
    assert urgent.plan.estimated_finish < relaxed.plan.estimated_finish
    assert any("earliest finish" in n for n in urgent.request.notes)


@pytest.mark.parametrize("text", [
    "serve llama 70b for inference, 100 qps",
    "batch inference 7B on 10M prompts",
    "deploy a 13B endpoint",
])
def test_work_that_is_not_training_is_refused_not_priced_as_a_fine_tune(text: str) -> None:
    with pytest.raises(RequestError) as caught:
        parse_request(text, now=NOW, tz="UTC")
    assert caught.value.code == "out_of_scope" and "gpuops plans training runs" in caught.value.message


def test_a_training_job_that_mentions_evaluation_is_still_a_training_job() -> None:
    request = parse_request("fine-tune 7B on 1B tokens with eval every 1000 steps", now=NOW, tz="UTC")
    assert request.task is not None and request.task.value == "fine-tune"


@pytest.mark.parametrize(("text", "said", "assumed"), [
    ("fine-tune 7B on 1B tokens with bf16", "bf16", "compute at the accelerator's BF16 peak FLOP/s"),
    ("fine-tune 7B on 1B tokens in mixed precision", "mixed precision", "memory as mixed-precision Adam"),
    ("fine-tune 7B on 1B tokens with flash attention", "flash attention",
     "a layer's activation memory is counted as with flash attention"),
])
def test_settings_the_estimate_already_assumes_are_read_as_assumed(text: str, said: str, assumed: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.unread == []
    assert any(n.startswith(f"read '{said}' as what the estimate already assumes") and assumed in n
               for n in request.notes), request.notes
    assert plan_for(text).plan.estimated_cost_usd == plan_for("fine-tune 7B on 1B tokens").plan.estimated_cost_usd


@pytest.mark.parametrize(("text", "unread"), [
    ("hey can you spin up something to fine-tune 7B on 1B tokens", []),
    ("kindly fine-tune 7B on 1B tokens", []),
    ("ablation study: 4 variants of a 1B model, each 20B tokens, want all done by Dec 31", []),
    ("SFT 13B with the new data mix (about 3B tokens)", []),
    # a budget is the whole request's unless said of each run
    ("fine-tune 7B on 1B tokens, 5 seeds, total budget $400", []),
    # the plan gives its finish, which is what an ETA asks
    ("fine-tune 7B on 1B tokens (ETA needed for planning)", []),
    ("fine-tune 7B on 1B tokens. oh and btw spot is fine", []),
    # data held out of training is priced whole: its percent is no budget
    ("fine-tune 7B on 1B tokens with 10% held out for validation", []),
    ("fine-tune 7B on 1B tokens, 5% val split", []),
    ("fine-tune 7B on 1B tokens, keep 10% for eval", []),
    # where to hear of the job: the request's thread, where it was asked
    ("fine-tune 7B on 1B tokens, post updates in <#C0123ABCD|ml-runs>", []),
    ("fine-tune 7B on 1B tokens, send progress to #ml-runs", []),
    # "a DPO pass" is a run of it; passes counted over the data are epochs, read as ever
    ("a DPO pass on our 7B with 40M tokens", []),
])
def test_conversational_filler_is_read_as_nothing(text: str, unread: list[str]) -> None:
    assert parse_request(text, now=NOW, tz="UTC").unread == unread


@pytest.mark.parametrize(("text", "tolerance"), [
    ("LoRA 14B on 20M tokens, happy with spot", "high"),
    ("LoRA 14B on 20M tokens, fine using spot instances", "high"),
    ("LoRA 14B on 20M tokens, not happy with spot", "low"),
    ("LoRA 14B on 20M tokens, we aren't ok with spot", "low"),
])
def test_being_fine_with_spot_or_not_is_the_interruption_tolerance(text: str, tolerance: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.interruption_tolerance.value, request.unread) == (tolerance, [])  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "hours"), [
    ("run inference eval of llama 3 70B on MMLU, should take a couple hours", 2.0),
    ("eval 7B on 8 H100 for a few hours", 3.0),
    ("benchmark our 13B, it will take about two days", 48.0),
])
def test_an_evaluation_of_said_length_is_a_job_of_that_length(text: str, hours: float) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.fixed_hours, request.unread) == (hours, [])
    assert plan_for(text).plan.estimated_hours >= hours


@pytest.mark.parametrize("text", [
    "batch inference over 10M documents with a 7B model, about two days",
    "inference eval then deploy an endpoint for 13B",
])
def test_inference_beside_an_eval_does_not_let_serving_through(text: str) -> None:
    with pytest.raises(RequestError) as caught:
        parse_request(text, now=NOW, tz="UTC")
    assert caught.value.code == "out_of_scope"


@pytest.mark.parametrize("text", [
    "our team (nlp) needs to fine-tune a 2.7B model on 1B tokens",
    "we are on the nlp team, fine-tune 7B on 1B tokens",
    "fine-tune 7B on 1B tokens for the nlp team",
])
def test_the_team_is_read_however_it_is_named(text: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.team, request.unread) == ("team-nlp", [])


def test_the_whole_team_is_no_team_name() -> None:
    assert parse_request("fine-tune 7B on 1B tokens for the whole team", now=NOW, tz="UTC").team is None


def test_a_customer_demo_is_production_and_its_day_the_deadline() -> None:
    request = parse_request("finetune 7b model, about 500M tokens, it's for a customer demo on the 10th", now=NOW,
                            tz="UTC")
    assert (request.stage.value, request.deadline.day, request.unread) == ("production", 9, [])  # type: ignore[union-attr]


def test_data_named_after_for_is_what_the_data_is() -> None:
    request = parse_request("fine-tune 7B on 1B tokens for customer support chats", now=NOW, tz="UTC")
    assert (request.stage, request.unread) == (None, [])
    assert any(n.startswith("read 'customer support chats' as what the data is") for n in request.notes)


@pytest.mark.parametrize(("text", "trials", "said"), [
    ("sweep lr over {1e-5, 3e-5, 1e-4} for a 1B fine-tune on 200M tokens", 3,
     "read 'lr over {1e-5, 3e-5, 1e-4}' as 3 trials, one for each value"),
    ("sweep lr in [1e-5, 3e-5, 1e-4] x bs {16, 32} on a 1B fine-tune, 200M tokens", 6,
     "read 'lr in [1e-5, 3e-5, 1e-4]', 'bs {16, 32}' as 3 × 2 = 6 trials, one for each combination of the values"),
    ("fine-tune 1B on 200M tokens with lr 1e-5 or 3e-5", 2, "read 'lr 1e-5 or 3e-5' as 2 trials"),
    ("hp search on 1B: learning rates 1e-5, 3e-5 and 1e-4, seeds 1,2; 100M tokens", 6, "3 × 2 = 6 trials"),
])
def test_the_values_a_sweep_tries_are_its_trials(text: str, trials: int, said: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.task.value, request.trials, request.unread) == ("sweep", trials, [])  # type: ignore[union-attr]
    assert any(said in n for n in request.notes), request.notes


def test_a_range_to_search_leaves_the_trial_count_to_the_sweep() -> None:
    request = parse_request("sweep 20 trials of a 350M pretrain on 1B tokens, lr in [1e-5, 1e-3]", now=NOW, tz="UTC")
    assert (request.trials, request.unread) == (20, [])
    assert any("'lr in [1e-5, 1e-3]' as a range to search" in n for n in request.notes)


def test_one_value_of_a_setting_is_a_setting_of_one_run() -> None:
    request = parse_request("fine-tune 7B on 500M tokens, lr 1e-4, 2 epochs", now=NOW, tz="UTC")
    assert (request.trials, request.tokens, request.unread) == (None, 1_000_000_000, [])


@pytest.mark.parametrize(("text", "task", "adapter"), [
    ("fine-tune 7B with LoRA rank 16 on 100M tokens", "lora", None),
    ("lora rank 8/16/32 on 7B, 50M tokens each", "sweep", "lora"),  # a sweep of LoRA runs, not of full fine-tunes
])
def test_a_lora_rank_leaves_lora_as_the_task(text: str, task: str, adapter: str | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.task.value, request.adapter and request.adapter.value) == (task, adapter)  # type: ignore[union-attr]


@pytest.mark.parametrize("text", [
    "lora 70B on 300M tokens, 8xh100 if avail",
    "lora 70B on 300M tokens, 8xH100 if available",
])
def test_counted_hardware_if_available_is_a_preference(text: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.accelerator, request.gpus, request.hardware_preferred, request.unread) == ("H100", 8, True, [])


@pytest.mark.parametrize(("text", "family"), [
    ("LoRA on llama 70b, ~40M tokens, ideally trn1 if it works, otherwise whatever is cheapest", "trn1"),
    ("LoRA 8B on 40M tokens on g6e if it fits", "g6e"),
    ("LoRA 8B on 40M tokens, p4d if that works", "p4d"),
])
def test_hardware_wanted_if_it_can_run_the_job_is_a_preference(text: str, family: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.instance_type, request.hardware_preferred, request.unread) == (family, True, [])


def test_counted_hardware_after_no_is_kept_out_not_asked_for() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, no 8xA100", now=NOW, tz="UTC")
    assert (request.accelerator, request.gpus, request.exclude, request.unread) == (None, None, ["A100"], [])


@pytest.mark.parametrize(("text", "days"), [
    ("pretrain 13B, 260B tokens, prod, 64 H100s, 3 week deadline", 21),
    ("fine-tune 7B on 1B tokens, 48-hour turnaround", 2),
])
def test_a_span_named_as_the_deadline_is_the_time_to_finish_in_not_the_job_length(text: str, days: int) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.fixed_hours is None and request.unread == []
    assert request.deadline is not None and (request.deadline - NOW).days == days


def test_a_polite_ask_with_a_target_date_and_a_budget_ceiling_is_read_whole() -> None:
    request = parse_request("Could we get budget approval to fine-tune 8B on 45M tokens, target is end of next week, "
                            "budget ceiling 8k. Spot is totally fine.", now=NOW, tz="UTC")
    assert (request.budget_usd, request.interruption_tolerance.value, request.unread) == (8000.0, "high", [])  # type: ignore[union-attr]
    assert request.deadline is not None and any("as a wish" in n for n in request.notes)


@pytest.mark.parametrize("text", [
    "fine-tune 7B on 1B tokens by Friday :pray:",
    "fine-tune 7B on 1B tokens :rocket: :+1:, spot ok",
])
def test_slack_emoji_said_in_words_are_read_as_nothing(text: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.unread, request.trials, request.gpus) == ([], None, None)


@pytest.mark.parametrize(("text", "unread"), [
    ("*fine-tune* `llama-3.1-8b` on _1B tokens_ by Friday", []),  # emphasis is only formatting
    ("fine-tune 7B on 1B tokens, data: <https://s3.console.aws.amazon.com/s3/buckets/ml-data|ml-data>", ["ml-data"]),
    ("fine-tune 7B on 1B tokens cc <@U012ABCDEF> <!subteam^S0123ABC|@ml-leads>", []),
    ("fine-tune 7B on 1B tokens, approved by <@U012ABCDEF>", ["approved"]),  # named is not approved
    ("fine-tune 7B on 1B tokens with max_steps=2000", []),  # an underscore inside a word is no emphasis
])
def test_slack_links_mentions_and_emphasis_are_read_as_slack_writes_them(text: str, unread: list[str]) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.tokens, request.unread) == (10**9, unread)


@pytest.mark.parametrize(("text", "day", "noted"), [
    ("fine-tune 7B on 1B tokens by fri 12/4", 4, None),
    ("fine-tune 7B on 1B tokens by Thu 12/4", 3,
     "read 'by Thu 12/4' as Thu 2026-12-03 17:00 UTC (Dec 04 is a Friday, not a Thursday: the earlier of the two)"),
])
def test_a_weekday_said_with_its_date_reads_both(text: str, day: int, noted: str | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.deadline is not None and (request.deadline.day, request.unread) == (day, [])
    assert noted is None or noted in request.notes


def test_within_a_budget_and_a_span_reads_both_and_no_job_length() -> None:
    request = parse_request("fine-tune 7B on 1B tokens within $150 and 10 hours", now=NOW, tz="UTC")
    assert (request.budget_usd, request.fixed_hours, request.unread) == (150.0, None, [])
    assert request.deadline is not None and (request.deadline - NOW).total_seconds() == 10 * 3600


@pytest.mark.parametrize(("text", "task", "adapter"), [
    ("LoRA on 70B with 4-bit quantization, 50M tokens", "qlora", None),
    ("QLoRA of a 33B model on 20M tokens with 4-bit quantization", "qlora", None),
    ("DPO with lora on 8B in nf4, 20M tokens", "dpo", "qlora"),
])
def test_lora_over_a_4_bit_base_is_qlora(text: str, task: str, adapter: str | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.task.value, request.adapter and request.adapter.value) == (task, adapter)  # type: ignore[union-attr]
    assert request.unread == []


def test_a_full_fine_tune_in_4_bits_is_left_for_a_person() -> None:
    request = parse_request("fine-tune 7B in 4-bit on 10M tokens", now=NOW, tz="UTC")
    assert (request.task.value, request.unread) == ("fine-tune", ["in 4-bit"])  # type: ignore[union-attr]


def test_what_a_job_of_stated_length_is_for_is_read_whole() -> None:
    request = parse_request("8 H100 for 2 hours to profile the data loader", now=NOW, tz="UTC")
    assert (request.fixed_hours, request.unread) == (2.0, [])


@pytest.mark.parametrize(("text", "budget", "noted"), [
    ("fine-tune 7B on 1B tokens for ~$150-200", 150.0, "read '$150-200' as $150, the low end of the range"),
    ("fine-tune 7B on 1B tokens, $100-$150 per run, 3 runs", 300.0, "read '$100-$150' as $100 a run: $300"),
    ("pretrain 1B on 20B tokens, budget: USD 4,000", 4000.0, None),
    ("fine-tune 7B on 1B tokens, we have about $1.2k left this month", 1200.0, None),
    ("fine-tune 7B on 1B tokens, budget is $500 total for all runs, 3 runs", 500.0, None),
    # the month is the money's, never a deadline
    ("fine-tune 7B on 1B tokens, we have about $3k left in our budget this month", 3000.0, None),
    ("fine-tune 7B on 1B tokens, spend no more than $0.5k", 500.0, None),
    ("fine-tune 7B on 1B tokens, total cost must be below 1000 USD", 1000.0, None),
    ("fine-tune 7B on 1B tokens. Cost ceiling $400, hard.", 400.0, None),
    ("fine-tune 7B on 1B tokens, ~$100-200 is fine", 100.0, "the low end of the range"),
    ("fine-tune 7B on 1B tokens, budget $5k but would rather stay under $2k", 2000.0, "took the smallest, '$2k'"),
])
def test_budgets_said_as_ranges_totals_or_in_words_are_read_whole(text: str, budget: float, noted: str | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.budget_usd, request.unread) == (budget, [])
    assert noted is None or any(noted in n for n in request.notes), request.notes


def test_a_range_of_daily_amounts_is_a_rate_and_no_budget() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, $50-100/day", now=NOW, tz="UTC")
    assert (request.budget_usd, request.unread) == (None, ["$50-100/day"])
    assert not any("low end" in n for n in request.notes)


@pytest.mark.parametrize(("text", "model"), [
    ("fine-tune mistral-7b-instruct-v0.3 on 80M tokens", "mistral-7b"),
    ("fine-tune Meta-Llama-3.1-8B-Instruct on 50M tokens", "llama-3.1-8b"),
    ("fine-tune llama-2-13b-chat-hf on 50M tokens", "llama-2-13b"),
])
def test_a_model_named_with_its_org_and_variant_leaves_nothing_unread(text: str, model: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.model, request.unread) == (model, [])


@pytest.mark.parametrize(("text", "params", "tokens"), [
    ("fine-tune 7B\n- 1B tokens\n- by Friday\n- spot ok", 7 * 10**9, 10**9),
    ("task=lora model=13B tokens=100M deadline=friday", 13 * 10**9, 10**8),
    ("Need GPUs for fine-tuning.\nModel size: 13B. Tokens: 100M.\nWhen: Friday.", 13 * 10**9, 10**8),
    ("Model: 13B\nMethod: QLoRA\nData: 100M tokens\nDue: Dec 12\nBudget: $1,000", 13 * 10**9, 10**8),
    # a count's unit is no label of the next field: "budget:500" is the budget
    ("finetune 13b 100M tokens budget:500 deadline:2026-12-10 region:us-west-2 spot:no", 13 * 10**9, 10**8),
])
def test_a_request_written_as_a_list_or_as_labelled_fields_is_read_whole(text: str, params: int, tokens: int) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.params, request.tokens, request.unread) == (params, tokens, [])
    assert request.deadline is not None


@pytest.mark.parametrize(("text", "params", "tokens"), [
    # labels without a colon, each field after a comma
    ("Model size 3B, Tokens 5B, Task pretrain, Stage experimental, Deadline none", 3 * 10**9, 5 * 10**9),
    ("Params 13B, Tokens 100M, fine-tune", 13 * 10**9, 10**8),
    # a scale said in the plural, as some write it
    ("Hi team, I would like to make the fine tuning of a 13 billion parameters model on 100 millions tokens",
     13 * 10**9, 10**8),
])
def test_fields_named_without_a_colon_and_plural_scales_are_read(text: str, params: int, tokens: int) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.params, request.tokens, request.unread) == (params, tokens, [])


def test_a_minus_written_onto_a_number_is_still_refused() -> None:
    with pytest.raises(RequestError) as refused:
        parse_request("fine-tune -7B", now=NOW, tz="UTC")
    assert refused.value.code == "invalid_size"


@pytest.mark.parametrize(("text", "gpus", "instances"), [
    ("fine-tune 7B on 1B tokens on an 8-GPU node", 8, None),
    ("fine-tune 7B on 1B tokens on two 8-GPU nodes", 16, 2),
    ("fine-tune 13B on 1B tokens on 2x 8-GPU boxes", 16, 2),
])
def test_nodes_said_with_their_gpus_are_counted_whole(text: str, gpus: int, instances: int | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.gpus, request.instances, request.unread) == (gpus, instances, [])


_NOT_AN_ACCELERATOR = "is not an accelerator gpuops plans on; name one it has ("
_NOT_ON_AWS = "is not where gpuops runs jobs: it plans and launches on AWS only"


@pytest.mark.parametrize(("text", "code", "says"), [
    # hardware AWS has no training instance of, asked for by name
    ("fine-tune 7B on 1B tokens on MI300X", "unknown_accelerator", f"'MI300X' {_NOT_AN_ACCELERATOR}"),
    ("fine-tune 7B on 1B tokens using TPU v5e", "unknown_accelerator", f"'TPU v5e' {_NOT_AN_ACCELERATOR}"),
    ("fine-tune 7B on 1B tokens on 8x RTX 4090", "unknown_accelerator", f"'RTX 4090' {_NOT_AN_ACCELERATOR}"),
    ("fine-tune 7B on 1B tokens on GB200", "unknown_accelerator", f"'GB200' {_NOT_AN_ACCELERATOR}"),
    # a place gpuops does not launch on, asked for as where the job runs ("our own GPUs": every word of it glue)
    ("LoRA 7B on 100M tokens on our own GPUs", "not_aws", f'"on our own GPUs" {_NOT_ON_AWS}'),
    ("LoRA 7B on 100M tokens on-prem", "not_aws", f'"on-prem" {_NOT_ON_AWS}'),
    ("LoRA 7B on 100M tokens on our slurm cluster", "not_aws", f'"on our slurm cluster" {_NOT_ON_AWS}'),
    ("fine-tune 8B on 1B tokens on GCP", "not_aws", f'"on GCP" {_NOT_ON_AWS}'),
])
def test_hardware_or_a_place_gpuops_cannot_plan_on_is_refused_by_name(text: str, code: str, says: str) -> None:
    with pytest.raises(RequestError) as refused:
        parse_request(text, now=NOW, tz="UTC")
    assert refused.value.code == code
    assert refused.value.message.startswith(says)
    if code == "unknown_accelerator":  # with the ones there are
        assert "H100" in refused.value.message


def test_epochs_said_as_a_setting_that_is_no_number_are_refused_naming_it() -> None:
    """A recipe refused "epochs=two" as a hyperparameter of the wrong type; the epochs are the request's now, read in
    words too ("epochs=two" is 2), and what is neither is refused as clearly."""
    assert parse_request("fine-tune 7B on 500M tokens, epochs=two", now=NOW, tz="UTC").tokens == 1_000_000_000
    with pytest.raises(RequestError) as refused:
        parse_request("fine-tune 7B on 500M tokens, epochs=lots", now=NOW, tz="UTC")
    assert (refused.value.code, refused.value.message) == (
        "invalid_epochs", '"epochs=lots": give the epochs as a number, e.g. "epochs=2".')


def test_another_cloud_said_in_passing_is_left_unread() -> None:
    assert parse_request("we moved off GCP last year; LoRA 7B on 100M tokens", now=NOW, tz="UTC").unread == [
        "moved off GCP last year"]


def test_another_vendors_accelerator_said_in_passing_is_left_unread() -> None:
    assert parse_request("fine-tune 7B on 1B tokens, we moved off TPUs", now=NOW, tz="UTC").unread == [
        "moved off TPUs"]


def test_between_two_dates_is_the_start_and_the_deadline() -> None:
    request = parse_request("fine-tune 7B on 1B tokens between Dec 10 and Dec 12", now=NOW, tz="UTC")
    assert request.start_after is not None and request.deadline is not None
    assert (request.start_after.day, request.deadline.day, request.unread) == (10, 12, [])


def test_an_absence_next_week_is_no_start() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, I'm OOO next week so results by Friday", now=NOW, tz="UTC")
    assert request.start_after is None and request.deadline is not None and request.deadline.day == 4
    assert request.unread == ["OOO next week"]  # said, and left for the person who approves


@pytest.mark.parametrize("text", [
    "continued pretraining of 8B on 20B tokens in 2 weeks, spot is ok if checkpointed",
    "fine-tune 7B on 1B tokens, spot fine as long as we checkpoint",
])
def test_spot_allowed_on_the_condition_the_plan_keeps_is_read_whole(text: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.interruption_tolerance.value, request.unread) == ("high", [])  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "said"), [
    ("fine-tune 7B on 1B tokens with deepspeed", "ZeRO-1 and 2 keep more on each accelerator"),
    ("pretrain 1B on 20B tokens with sequence packing", "the tokens trained are counted as said"),
    ("fine-tune 7B on 1B tokens with torchrun", "the tokens trained are counted as said"),
    ("fine-tune 7B on 1B tokens using FSDP across 2 nodes", "already assumed: weights, gradients"),
])
def test_how_a_job_shards_packs_or_starts_is_noted_not_held(text: str, said: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.unread == [] and any(said in n for n in request.notes), request.notes


def test_a_reward_model_then_ppo_is_two_jobs() -> None:
    with pytest.raises(RequestError) as refused:
        parse_request("need to train a 7b reward model and then PPO, 100M tokens", now=NOW, tz="UTC")
    assert refused.value.code == "contradiction" and "separate jobs" in refused.value.message


@pytest.mark.parametrize("text", [
    "fine-tune 7B on 1B tokens, on-demand vs spot",
    "fine-tune 7B on 1B tokens, compare spot and on-demand",
    "can you price a 7B fine-tune, 1B tokens, both on-demand and spot?",
])
def test_spot_weighed_against_on_demand_allows_spot_and_shows_the_other(text: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.interruption_tolerance.value, request.unread) == ("high", [])  # type: ignore[union-attr]
    assert any(alt.label == "no interruptions" for alt in plan_for(text).alternatives)


@pytest.mark.parametrize("text", [
    "fine-tune 7B, 1B tokens, bf16, flash attn 2, zero3, cosine lr 2e-5, warmup 3%",
    "hey gpuops, can you set up a 7B full fine-tune w/ 1B toks? needs to be done by thurs",
])
def test_an_engineers_shorthand_of_settings_and_asks_is_read_whole(text: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.params, request.tokens, request.trials, request.unread) == (7 * 10**9, 10**9, None, [])


def test_a_sanity_check_run_is_an_experiment() -> None:
    request = parse_request("quick sanity check run: 125M model, 100M tokens, cheapest GPU", now=NOW, tz="UTC")
    assert (request.stage.value, request.unread) == ("experimental", [])  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "most"), [
    ("fine-tune 34B on 1B tokens, we can't do multi-node", 1),
    ("fine-tune 7B on 1B tokens, multi-node isn't an option", 1),
    ("fine-tune 7B on 1B tokens, multi-node is fine", None),
])
def test_what_is_said_of_multi_node_training_is_read(text: str, most: int | None) -> None:
    """One machine at most, of whatever size holds the job."""
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.max_instances, request.instances, request.unread) == (most, None, [])


def test_a_mixture_of_experts_said_with_its_expert_count_between_is_one_model() -> None:
    request = parse_request("pretrain a 2B MoE with 8 experts (500M active) on 40B tokens", now=NOW, tz="UTC")
    assert (request.params, request.active_params, request.unread) == (2 * 10**9, 5 * 10**8, [])


def test_a_model_named_by_what_it_is_for_is_described() -> None:
    request = parse_request("fine-tune our 7B chatbot on 1B tokens, must not be interrupted", now=NOW, tz="UTC")
    assert (request.params, request.unread) == (7 * 10**9, [])
    assert any(n.startswith("read 'chatbot' as what the model is for") for n in request.notes)


@pytest.mark.parametrize(("text", "unread"), [
    ("train a small 50M param transformer from scratch on 2B tokens for ablations, 5 variants", []),
    ("our nightly eval takes ~3h on 8 H100s", ["nightly"]),  # recurring work stays for a person, on purpose
])
def test_architecture_words_and_takes_are_glue(text: str, unread: list[str]) -> None:
    assert parse_request(text, now=NOW, tz="UTC").unread == unread


def test_runs_with_different_seeds_are_read_whole() -> None:
    request = parse_request("fine-tune 7B on 1B tokens — 2 runs with different seeds", now=NOW, tz="UTC")
    assert (request.trials, request.unread) == (2, [])


@pytest.mark.parametrize(("text", "note"), [
    ("finetune 8b for our support bot on ~120k convos (avg 350 tok), spot ok",
     "read 'support bot' as what the model is for"),
    ("fine-tune 7B for code completion on 1B tokens", "read 'code completion' as what the model is for"),
    ("need 2 g5 for a day to profile the data loader", "read 'profile the data loader' as why the work is wanted"),
    ("I want to reproduce the llama 2 7B pretraining (2T tokens)", "read 'reproduce' as why the work is wanted"),
])
def test_what_a_model_is_for_is_told_apart_from_what_its_data_is(text: str, note: str) -> None:
    read_whole(text, note)


@pytest.mark.parametrize(("text", "note"), [
    ("train a 125M GPT-2 style model on openwebtext (9B tokens) for a research baseline",
     "read 'research baseline' as what the model is for"),
    ("lora 8B on 20M tokens for the paper", "read 'paper' as what the model is for"),
    ("rerun last week's 7B fine-tune on 500M tokens, but in us-west-2 this time", "read 'this time' as said against"),
    ("rlhf on our 8B policy model, 30M tokens", "read 'policy model' as the model RL trains"),
])
def test_what_a_run_is_for_and_how_it_is_asked_for_is_read(text: str, note: str) -> None:
    read_whole(text, note)


def test_a_box_is_an_instance_as_any_plan_gives() -> None:
    assert parse_request("can I get a box to fine-tune 7B on 20M tokens", now=NOW, tz="UTC").unread == []


def test_a_policy_model_is_only_the_rl_role_in_rl_work() -> None:
    """Outside RL, "policy" may mean something a plan should answer to: it stays for a person."""
    assert parse_request("fine-tune our 7B policy model on 10M tokens", now=NOW, tz="UTC").unread == ["policy"]


def test_prompts_their_rollouts_and_then_their_length_multiply_out() -> None:
    request = parse_request("rlhf ppo on a 7B policy model, 20k prompts, 4 rollouts each, prompts ~512 tokens",
                            now=NOW, tz="UTC")
    assert (request.tokens, request.unread) == (20_000 * 4 * 512, [])
    assert any("a prompt's length, which its answer adds to" in n for n in request.notes), request.notes


@pytest.mark.parametrize(("text", "note"), [
    ("could you estimate how much a 30B model fine-tuned on 2B tokens would cost on p5 vs p4d?",
     "read 'how much … would cost' as asking for the plan"),
    ("fine-tune a 13B model on 800M tokens. we prefer us-west-2 but any US region works",
     "read 'US' as: only the policy's regions in the US"),
    ("full fine-tune 8B on 3B tokens, no spot please, we got burned last time",
     "read 'we got burned last time' as why the request names what it does"),
])
def test_questions_places_and_reasons_said_around_the_work_are_read(text: str, note: str) -> None:
    read_whole(text, note)


def test_any_region_of_an_area_keeps_the_preferred_one_and_the_area() -> None:
    request = parse_request("fine-tune 13B on 800M tokens, prefer us-west-2 but any US region works", now=NOW,
                            tz="UTC")
    assert (request.region, request.region_preferred, request.area) == ("us-west-2", True, "us")


@pytest.mark.parametrize("text", [
    "pretrain ViT-B (86M) on 20B tokens",  # a vision transformer with its patches said as tokens
    "fine-tune a 7B LLM to write stable diffusion prompts, 100M tokens",  # the size is the LLM's
])
def test_an_image_model_with_its_work_said_or_a_size_not_its_own_plans(text: str) -> None:
    assert plan_for(text).plan.estimated_cost_usd > 0


@pytest.mark.parametrize(("text", "note"), [
    ("fine-tune llama 3 8b on 1B tokens, is H100 or A100 better value?", "read 'better value' as asking for the plan"),
    ("fine-tune 7B on 1B tokens in us-east-1 because that's where the data lives",
     "read 'because that's where the data lives' with us-east-1 as the data being in us-east-1"),
    ("can someone spin up training for our 1.5B reranker? ~800M tokens", "read 'reranker' as what the model is for"),
    ("finance here: what's the cost difference between spot and on-demand for a 13B fine-tune on 1B tokens?",
     "read 'what's the cost difference between' as asking for the plan"),
    ("platform lead: fine-tune 13B on 1B tokens", "read 'platform lead' as who is asking"),
])
def test_value_questions_reasons_and_who_asks_are_read(text: str, note: str) -> None:
    read_whole(text, note)


def test_several_runs_counted_in_brackets_are_that_many_runs() -> None:
    request = parse_request("lora 8B on 80M tokens, multiple seeds (3), by Friday", now=NOW, tz="UTC")
    assert (request.trials, request.unread) == (3, [])


@pytest.mark.parametrize(("text", "trials", "adapter"), [
    ("sweep: 3 learning rates x 2 batch sizes on 1.3B, 2B tokens each", 6, None),
    ("sweep 4 lora ranks on 7B, 50M tokens each", 4, "lora"),  # a LoRA run per rank
])
def test_the_values_of_a_setting_tried_are_a_run_each(text: str, trials: int, adapter: str | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.trials, request.adapter, request.unread) == (trials, adapter, [])


def test_a_text_dataset_said_by_its_language_is_counted_by_its_size() -> None:
    request = parse_request("continue pretraining mistral 7B on 50GB of German text", now=NOW, tz="UTC")
    assert (request.tokens, request.dataset_bytes, request.unread) == (12_500_000_000, 50 * 10**9, [])


def test_a_month_said_of_the_budget_is_no_deadline() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, $3k left in our budget this month", now=NOW, tz="UTC")
    assert request.deadline is None


def test_wanting_it_cheaper_than_last_time_puts_cost_first() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, we spent $800 on the last run, want it cheaper this time",
                            now=NOW, tz="UTC")
    assert (request.budget_usd, request.unread) == (None, [])
    assert any(n.startswith("read 'want it cheaper' as cost first") for n in request.notes), request.notes


def test_packing_said_alone_is_how_the_tokens_are_laid_out() -> None:
    request = parse_request("fine-tune 8B on 1B tokens with max seq len 8192 and packing", now=NOW, tz="UTC")
    assert (request.seq_len, request.unread) == (8192, [])


@pytest.mark.parametrize("said", ["start after the 10th", "starting the 10th", "launch after the 10th"])
def test_a_day_of_the_month_said_as_the_start_is_the_start(said: str) -> None:
    request = parse_request(f"fine-tune 7B on 1B tokens, {said}, finish by the 18th", now=NOW, tz="UTC")
    assert (request.start_after, request.deadline) == (datetime(2026, 12, 10, 9, 0, tzinfo=ZoneInfo("UTC")),
                                                       datetime(2026, 12, 18, 17, 0, tzinfo=ZoneInfo("UTC")))
    assert request.unread == []


def test_spot_on_condition_of_the_deadline_is_spot_allowed_with_the_deadline_kept() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, use spot if it can finish by Friday, otherwise on-demand",
                            now=NOW, tz="UTC")
    assert (request.interruption_tolerance, request.unread) == (Tolerance.HIGH, [])
    assert request.deadline == datetime(2026, 12, 4, 17, 0, tzinfo=ZoneInfo("UTC"))
    assert any("'use spot if it can finish by Friday, otherwise on-demand' as spot allowed" in n
               for n in request.notes), request.notes


def test_an_amount_past_which_to_ask_first_is_the_budget() -> None:
    request = parse_request("fine-tune 7B on 1B tokens; if it costs more than $300 ping me first", now=NOW, tz="UTC")
    assert (request.budget_usd, request.unread) == (300.0, [])


def test_a_preference_beside_hardware_allowed_if_cheaper_is_a_choice_the_plan_makes_by_cost() -> None:
    decision = plan_for("fine-tune 7B on 1B tokens, prefer p4d but p5 ok if cheaper")
    assert decision.request.hardware_choice == ["p4d", "p5"] and decision.request.hardware_preferred is None
    cheaper = plan_for("fine-tune 7B on 1B tokens, on p5 or p4d").plan
    assert decision.plan.instance_type == cheaper.instance_type
    assert decision.request.unread == []


def test_production_said_of_where_the_work_is_headed_leaves_this_run_experimental() -> None:
    request = parse_request("fine-tune 8B on 72M tokens. This will eventually go to production but right now it's an "
                            "experiment.", now=NOW, tz="UTC")
    assert (request.stage, request.unread) == (Stage.EXPERIMENTAL, [])


def test_production_headed_for_alone_stays_production_for_a_person_to_check() -> None:
    """The run may be the one that makes the production model: with no stage said for it, the stricter reading."""
    request = parse_request("fine-tune 8B on 72M tokens, it will eventually go to production", now=NOW, tz="UTC")
    assert (request.stage, request.unread) == (Stage.PRODUCTION, ["eventually"])


@pytest.mark.parametrize(("text", "note"), [
    ("pretrain 1.3B on 26B tokens. No hard deadline but ideally within 2 weeks.", "as a wish"),
    ("fine-tune 7B on 1B tokens, no firm deadline", "read 'no firm deadline' as no hurry"),
    ("sweep 12 configs of a 350M model, ~1B tokens each. Cheapest possible, whenever.", "read 'whenever' as no hurry"),
    ("We need to train a 2.7B model on 55B tokens. Budget is $8k total. Timeline flexible.",
     "read 'Timeline flexible' as no hurry"),
    ("fine-tune 7B on 1B tokens, we're flexible on timing", "read 'we're flexible on timing' as no hurry"),
    ("fine-tune 7B on 1B tokens, schedule is flexible", "read 'schedule is flexible' as no hurry"),
    ("fine-tune 7B on 1B tokens by Friday, though the deadline is soft", "read 'deadline is soft' as no hurry"),
    ("For the Q1 roadmap, finance wants a number: fine-tune a 70B model on 2B tokens",
     "read 'For the Q1 roadmap' as what the estimate is for"),
])
def test_how_soon_and_what_for_said_loosely_are_read(text: str, note: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.unread == [] and any(note in n for n in request.notes), request.notes


@pytest.mark.parametrize(("text", "tokens"), [
    ("how much to DPO a 7B on 50k pairs? pairs avg 1k tokens. no rush.", 50_000_000),
    ("fine-tune 8B on 120k conversations. The conversations are about 600 tokens each.", 72_000_000),
])
def test_the_items_length_said_after_them_multiplies_their_count(text: str, tokens: int) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.tokens, request.unread) == (tokens, [])


def test_asking_whether_reserving_is_worth_it_prices_an_offering_that_fits() -> None:
    request = parse_request("is it worth reserving capacity for a 70B pretraining run on 1T tokens?", now=NOW,
                            tz="UTC")
    assert (request.reserve_capacity, request.unread) == (True, [])


def test_a_field_label_first_is_no_role_asking() -> None:
    request = parse_request("Model: Llama 3.1 8B | Data: 300M tokens", now=NOW, tz="UTC")
    assert not any("who is asking" in n for n in request.notes)


def test_a_whole_slack_message_about_an_experiment_headed_for_production_plans_the_experiment() -> None:
    request = parse_request(
        "Hey team, we're planning to fine-tune Llama 3.1 8B Instruct for our customer support bot. Dataset is about "
        "120k conversations averaging 600 tokens. We'd like it done by next Friday. This will eventually go to "
        "production but right now it's an experiment. Budget around $500.", now=NOW, tz="UTC")
    assert (request.stage, request.tokens, request.budget_usd, request.unread) == (
        Stage.EXPERIMENTAL, 72_000_000, 500.0, [])
    assert any(n.startswith("read 'We'd like it done by next Friday' as") for n in request.notes), request.notes


def test_extending_the_context_trains_at_the_length_said_and_its_long_documents_describe_the_data() -> None:
    request = parse_request("extend llama 3.1 8B context to 128k with 2B tokens of long documents", now=NOW, tz="UTC")
    assert (request.seq_len, request.tokens, request.unread) == (131_072, 2_000_000_000, [])


def test_long_documents_without_a_long_context_said_stay_for_a_person() -> None:
    """How long is long: the context it asks for changes the compute, so it is never guessed."""
    assert parse_request("fine-tune 8B on 1B tokens of long documents", now=NOW, tz="UTC").unread == [
        "long documents"]


@pytest.mark.parametrize(("text", "stage"), [
    ("fine-tune 7B on 1B tokens, SLA-bound, customer facing", Stage.PRODUCTION),
    ("fine-tune 7B on 1B tokens, this is for an internal hackathon", Stage.EXPERIMENTAL),
    ("fine-tune 7B on 1B tokens for the NeurIPS deadline (May 15)", None),  # a deadline's name says no stage
    ("fine-tune 7B on 1B tokens by Friday, then deploy to production", Stage.PRODUCTION),
    ("fine-tune 7B on 1B tokens, then ship it to prod", Stage.PRODUCTION),
])
def test_what_the_work_is_for_says_its_stage_or_nothing_and_is_read(text: str, stage: Stage | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.stage, request.unread) == (stage, [])


@pytest.mark.parametrize(("text", "tolerance", "stage"), [
    ("Fine-tune: 8B. Tokens: 300M. When: next Tuesday. Spot: yes.", Tolerance.HIGH, None),
    ("Fine-tune: 8B. Tokens: 300M. Spot: no.", Tolerance.LOW, None),
    ("[urgent] fine-tune 8B on 100M tokens ASAP, prod hotfix", None, Stage.PRODUCTION),
])
def test_fields_said_as_labels_and_a_hotfix_are_read(text: str, tolerance: Tolerance | None,
                                                     stage: Stage | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.unread == []
    assert tolerance is None or request.interruption_tolerance is tolerance
    assert stage is None or request.stage is stage


def test_the_day_the_requester_is_away_from_is_no_start_but_the_deadline_before_it() -> None:
    request = parse_request("fine-tune 7B on 500M tokens, I'm OOO from Dec 20 so must finish before", now=NOW,
                            tz="UTC")
    assert (request.start_after, request.deadline, request.unread) == (
        None, datetime(2026, 12, 19, 17, 0, tzinfo=ZoneInfo("UTC")), [])


@pytest.mark.parametrize(("text", "note"), [
    ("fine-tune 7B on 1B tokens with early stopping", "read 'with early stopping' as how the job may end"),
    ("fine-tune 7B on 1B tokens and push to the model registry when done",
     "read 'and push to the model registry when done' as what happens to the model once trained"),
])
def test_how_a_run_ends_and_what_follows_it_are_read(text: str, note: str) -> None:
    read_whole(text, note)


def test_why_hardware_is_kept_out_is_read_with_it() -> None:
    read_whole("fine-tune 7B on 1B tokens, avoid B200s (not approved by security yet)",
               "read '(not approved by security yet)' as why the request keeps it out")


def test_the_data_hint_is_given_only_when_no_tokens_are_said() -> None:
    with pytest.raises(RequestError) as refused:
        parse_request("fine-tune 7B on 1B tokens and also a 13B on the same data", now=NOW, tz="UTC")
    assert "If one of them is the data" not in refused.value.message


@pytest.mark.parametrize(("text", "hours"), [
    ("8 H100 for 30 minutes", 0.5),
    ("Run a 2-node smoke test of our training stack for 30 minutes on p5", 0.5),
])
def test_a_length_in_minutes_is_a_job_of_that_length(text: str, hours: float) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.fixed_hours, request.unread) == (hours, [])


def test_within_the_hour_is_an_hour_from_now() -> None:
    request = parse_request("fine-tune 8B on 40M tokens within the hour", now=NOW, tz="UTC")
    assert (request.deadline, request.unread) == (datetime(2026, 11, 30, 10, 0, tzinfo=ZoneInfo("UTC")), [])


def test_what_a_test_run_tests_is_read_with_it() -> None:
    request = parse_request("pretrain a tiny 50M model on 1B tokens for a unit test of the pipeline", now=NOW, tz="UTC")
    assert (request.stage, request.unread) == (Stage.EXPERIMENTAL, [])


def test_a_diy_platform_asked_for_if_cheaper_is_asked_for() -> None:
    request = parse_request("for team-nlp, fine-tune 7B on 1B tokens on EKS if it's cheaper", now=NOW, tz="UTC")
    assert (request.platform, request.unread) == (Platform.EKS, [])


def test_sagemaker_managed_spot_is_spot_on_sagemaker() -> None:
    request = parse_request("fine-tune 7B on 1B tokens with sagemaker managed spot", now=NOW, tz="UTC")
    assert (request.platform, request.interruption_tolerance, request.unread) == (Platform.SAGEMAKER, Tolerance.HIGH,
                                                                                    [])


def test_a_run_resumed_with_its_steps_and_batch_said_trains_the_steps_left() -> None:
    request = parse_request("resume the 13B run from step 30k of 50k, 4M tokens per step", now=NOW, tz="UTC")
    assert (request.tokens, request.unread) == (20_000 * 4_000_000, [])


def test_counts_listed_with_the_unit_said_once_are_all_tokens() -> None:
    with pytest.raises(RequestError) as refused:
        parse_request("run the same 7B fine-tune on 3 different datasets (200M, 300M, 500M tokens)", now=NOW, tz="UTC")
    assert "3 token counts (200M, 300M, 500M)" in refused.value.message


def test_what_tells_runs_apart_is_read_and_a_model_beside_its_tokens_stays_a_model() -> None:
    request = parse_request("train 4 LoRA adapters (one per language) on llama 8b, 20M tokens each", now=NOW, tz="UTC")
    assert (request.trials, request.params, request.tokens, request.unread) == (4, 8 * 10**9, 20_000_000, [])


def test_no_spot_quota_runs_on_demand() -> None:
    request = parse_request("fine-tune 7B on 1B tokens but our spot quota is zero", now=NOW, tz="UTC")
    assert (request.interruption_tolerance, request.unread) == (Tolerance.LOW, [])


def test_needing_it_yesterday_is_urgent_not_a_deadline_past() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, need it yesterday", now=NOW, tz="UTC")
    assert (request.urgent, request.deadline, request.unread) == (True, None, [])


@pytest.mark.parametrize(("text", "budget"), [
    ("pretrain 3B on 60B tokens, budget is whatever fits in our remaining $4k", 4000.0),
    ("fine-tune 7B on 1B tokens, don't care about cost, need it by 5pm", None),
])
def test_what_money_there_is_or_is_not_said_loosely(text: str, budget: float | None) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.budget_usd, request.unread) == (budget, [])


def test_runs_told_apart_by_a_setting_after_their_count_and_a_colon_are_each_priced() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, 2 runs: one with lr 1e-5, one with 2e-5", now=NOW, tz="UTC")
    assert (request.trials, request.unread) == (2, [])


def test_a_multiple_of_earlier_data_with_no_tokens_said_stays_for_a_person() -> None:
    assert "4x" in " ".join(parse_request("fine-tune the 7B again with 4x the data", now=NOW, tz="UTC").unread)


@pytest.mark.parametrize(("text", "field", "value"), [
    ("fine-tune 7B on 1B tokens; please do not use p6", "exclude", ["p6-b200"]),
    ("fine-tune 7B on 1B tokens on p6", "instance_type", "p6-b200"),
])
def test_a_family_said_by_its_first_part_is_the_only_family_it_can_be(text: str, field: str, value: object) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (getattr(request, field), request.unread) == (value, [])


def test_a_student_named_after_its_role_is_read_whole() -> None:
    request = parse_request("run distillation: teacher qwen2.5 72b, student qwen2.5 7b, 1B tokens", now=NOW, tz="UTC")
    assert (request.model, request.unread) == ("qwen2.5-7b", [])


@pytest.mark.parametrize("text", [
    "fine-tune mistral 7b on our 80M token support corpus, max 4 hours wall clock",
    "continued pretraining llama 3 8b on 50B tokens, target 2 weeks, production, on-demand only",
])
def test_a_corpus_said_after_its_tokens_and_a_target_span_are_read(text: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert request.unread == [] and request.deadline is not None and request.fixed_hours is None


# Requests as people type them in Slack, each read whole: nothing is left for a person to check.
READ_WHOLE = [
    "team-nlp wants to LoRA-tune Qwen2.5-14B on ~300M tokens, we're fine with spot",
    "we're retraining our 350M ranker on ~5B tokens; what's the per-run cost?",
    "train a small GPT (124M) from scratch on 10B tokens just to learn, use the cheapest GPU available",
    "can I get 1 A10G for 4 hours for debugging?",
    "fine-tune 8B on 1.2M rows in a parquet file, about 900 tokens per row",
    "hey! can u spin up a lora run on llama-3.1-8b w/ ~25M tokens of our support data, nothing fancy, today if "
    "possible",
    "fine-tune 7B on 1B tokens starting now",
    "we need a 7B fine-tuned (1B tokens) before the quarter closes",
    "fine-tune 7B on 1B tokens, and we need it back by the 3rd",
    "fine-tune 7B on 1B tokens in time for the Jan 5 offsite",
    "fine-tune 7B on 1B tokens; latest finish Thu 6pm PT",
    "fine-tune the 7B again but with 4x the data (4B tokens)",
    "fine-tune 7B on 1B tokens; rough numbers are fine",
    "fine-tune 7B on 1B tokens, ballpark is ok",
    "fine-tune 7B on 1B tokens (approx)",
]


@pytest.mark.parametrize("text", READ_WHOLE)
def test_requests_as_people_type_them_are_read_whole(text: str) -> None:
    assert parse_request(text, now=NOW, tz="UTC").unread == []


@pytest.mark.parametrize(("text", "tokens"), [
    ("fine-tune 13b for our chatbot, data is 500MB of chat logs, no spot, must be done Thursday", 125_000_000),
    ("pretrain a 1B llama-style model on 25B tokens from fineweb", 25_000_000_000),
])
def test_where_the_text_comes_from_is_read_with_its_size(text: str, tokens: int) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.tokens, request.unread) == (tokens, [])


@pytest.mark.parametrize(("text", "urgent", "note"), [
    ("fine-tune 7B on 1B tokens, optimize for time", True, "read 'optimize for time'"),
    ("fine-tune 7B on 1B tokens, time is money, go fast", True, "read 'time is money'"),
    ("fine-tune 7B on 1B tokens, balance cost and speed", None, "read 'balance cost and speed' as asking for both"),
    ("fine-tune 7B on 1B tokens, somewhere between cheapest and fastest", None,
     "read 'somewhere between cheapest and fastest' as asking for both"),
])
def test_how_cost_is_weighed_against_time_is_read(text: str, urgent: bool | None, note: str) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert (request.urgent, request.unread) == (urgent, [])
    assert any(n.startswith(note) for n in request.notes), request.notes


def test_not_minding_a_few_days_is_the_time_the_work_has() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, don't mind if it takes a few days", now=NOW, tz="UTC")
    assert (request.deadline is not None, request.fixed_hours, request.unread) == (True, None, [])
