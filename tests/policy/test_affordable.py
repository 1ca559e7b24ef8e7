"""The most a budget pays for, tokens or the model's size: searched over whole plans, rounded down as a person would
ask for it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from policy.affordable import FEWEST_PARAMS, FEWEST_TOKENS, MOST_TOKENS, most_that_fits
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision, Plan
from policy.defaults import format_count
from policy.errors import RequestError
from policy.intake import request_from
from policy.models import family_members
from policy.parse import parse_request, read_request
from policy.spend import SpendSnapshot
from policy.tree import decide
from tests.bot.factories import make_decision

NOW = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
PLAN = make_decision().plan


def linear(start_usd: float, usd_per_token: float, *, late_above: int | None = None) -> Callable[[int], Plan]:
    def plan_for(tokens: int) -> Plan:
        late = late_above is not None and tokens > late_above
        return PLAN.model_copy(update={"estimated_cost_usd": start_usd + tokens * usd_per_token,
                                       "deadline_met": not late})
    return plan_for


def most_tokens(budget_usd: float | None, plan_for: Callable[[int], Plan | None]) -> int | None:
    return most_that_fits(plan_for, budget_usd=budget_usd, fewest=FEWEST_TOKENS, most=MOST_TOKENS)


def test_the_count_is_the_most_the_budget_pays_for_rounded_down_to_two_figures() -> None:
    # $10 of start-up, $1 per 100M tokens: $200 pays for 19B tokens
    assert most_tokens(200.0, linear(10.0, 1e-8)) == 19_000_000_000


def test_a_deadline_caps_the_count_below_what_the_money_would_buy() -> None:
    assert most_tokens(200.0, linear(10.0, 1e-8, late_above=3_000_000_000)) == 3_000_000_000


def test_a_budget_that_pays_for_no_run_finds_nothing() -> None:
    assert most_tokens(5.0, linear(10.0, 1e-8)) is None
    assert most_tokens(200.0, lambda tokens: None) is None
    assert FEWEST_TOKENS == 10**6


def test_without_a_budget_the_count_is_the_most_that_can_be_planned_at_all() -> None:
    """Hardware that holds no more than 70B parameters: the biggest model on it, whatever it costs."""
    def held(params: int) -> Plan | None:
        return PLAN if params <= 70_000_000_000 else None
    assert most_that_fits(held, budget_usd=None, fewest=FEWEST_PARAMS, most=10**13) == 70_000_000_000


def decided(text: str) -> Decision:
    request = parse_request(text, now=NOW, tz="UTC")
    return decide(request, catalog=load_catalog(), policy=default_policy(),
                  spend=SpendSnapshot.unavailable(team=None, reason="test"), now=NOW)


@pytest.mark.parametrize(("text", "field", "budget", "more", "note"), [
    ("what can I train for $200? a 7B LoRA on as many tokens as fit", "tokens", 200.0,
     "7B LoRA on {:.0f}M tokens", "tokens: {:.1f}B, the most the $200.00 budget pays for"),
    ("what's the largest model we can fine-tune on 1B tokens for $5k, experimental", "params", 5000.0,
     "fine-tune a {:.1f}B model on 1B tokens, experimental", "params: {:g}B, the largest model that fits the "
                                                              "$5,000.00 budget"),
])
def test_the_most_a_budget_pays_for_is_planned_and_a_little_more_is_over_it(
        text: str, field: str, budget: float, more: str, note: str) -> None:
    """The tokens of "as many tokens as fit", the size of "the biggest model": the plan found costs at most the budget,
    15% more costs more than it, and the count is two significant figures, as a person would ask for it."""
    decision = decided(text)
    found = getattr(decision.request, field)
    assert found is not None and decision.plan.estimated_cost_usd <= budget
    assert len(str(found).rstrip("0")) <= 2
    scale = 1e6 if field == "tokens" else 1e9
    assert decided(more.format(found * 1.15 / scale)).plan.estimated_cost_usd > budget
    assert any(a.startswith(note.format(found / 1e9)) for a in decision.assumptions)


def test_as_many_tokens_as_fit_without_a_budget_prices_the_default_and_says_so() -> None:
    decision = decided("7B LoRA on as many tokens as fit")
    assert decision.request.tokens == 1_000_000_000
    assert any("no budget is said to fit them in" in a for a in decision.assumptions)


def test_the_biggest_model_on_named_hardware_is_the_largest_it_holds() -> None:
    decision = decided("what's the biggest model we can LoRA on a single 8xH100 node")
    params = decision.request.params
    assert params is not None and (decision.plan.instance_count, decision.plan.accelerator) == (1, "H100")
    with pytest.raises(RequestError):  # a fifth larger does not fit in its memory
        decided(f"LoRA a {params * 1.2 / 1e9:.0f}B model on a single 8xH100 node")


def test_the_biggest_model_with_nothing_to_fit_in_or_nothing_that_fits_says_what_to_give() -> None:
    with pytest.raises(RequestError) as unbounded:
        parse_request("what's the biggest model we could fine-tune?", now=NOW, tz="UTC")
    assert unbounded.value.code == "missing_limit"
    with pytest.raises(RequestError) as tiny:
        decided("what's the biggest model we can pretrain on 100B tokens for $1")
    assert tiny.value.code == "nothing_fits"
    assert "No model of 10M parameters or more fits the $1.00 budget" in str(tiny.value)


def test_pretraining_far_below_compute_optimal_says_what_the_same_compute_trains_better() -> None:
    """The biggest model a budget pays for is an under-trained one: an expert says so and gives the better split."""
    [warning] = [w for w in decided("pretrain 70B on 10B tokens, experimental").warnings if "compute-optimal" in w]
    assert warning == ("70B parameters pretrained on 10B tokens is 0.14 tokens per parameter, far below the ~20 of "
                       "compute-optimal pretraining (Hoffmann et al. 2022): the same compute trains a ~5.9B model on "
                       "~118B tokens to a lower loss")
    for enough in ("pretrain 1.3B on 26B tokens", "pretrain 7B on 14B tokens", "fine-tune 70B on 10M tokens"):
        assert not [w for w in decided(enough).warnings if "compute-optimal" in w], enough


def test_the_biggest_model_by_a_deadline_alone_says_only_the_policy_bounds_it() -> None:
    """With no budget or hardware, the size found is whatever the policy's ceilings allow: said, not implied."""
    decision = decided("what's the biggest model we can LoRA on 1B tokens by Friday, experimental")
    assert decision.plan.deadline_met is True
    assert any(a.startswith("params: ") and ", with no budget or hardware said bounded only by the policy's "
               "deny_above_usd $250,000 and max_instances 16 (" in a for a in decision.assumptions)


def test_what_bounds_a_budget_search_is_said_before_the_aside_slack_cuts_off() -> None:
    """Slack's Read as shows a note up to its first bracket: "by the deadline" was said after it, and never shown."""
    decision = decided("how many tokens can $500 buy for a 7B fine-tune by Friday")
    assert any(a.startswith("tokens: ") and "the most the $500.00 budget pays for by the deadline (" in a
               for a in decision.assumptions)


@pytest.mark.parametrize("text", [
    "how many 13B LoRA runs on 200M tokens fit in $2k?",
    "how many times can we fine-tune 7B on 1B tokens for $1000",
    "how many runs of 1.3B pretraining on 26B tokens fit in the budget of $10k?",
])
def test_how_many_runs_a_budget_pays_for_is_said_beside_the_plan_of_one(text: str) -> None:
    decision = decided(text)
    request, plan = decision.request, decision.plan
    assert request.runs_fit_budget and request.trials == 1 and request.unread == []
    assert request.budget_usd is not None
    runs, high = int(request.budget_usd // plan.estimated_cost_usd), int(request.budget_usd // plan.cost_high_usd)
    [note] = [n for n in decision.assumptions if n.startswith("runs: ")]
    assert note.startswith(f"runs: {runs:,} like this one fit the ${request.budget_usd:,.2f} budget at "
                           f"~${plan.estimated_cost_usd:,.2f} each")
    assert f", {high:,} at the top of its cost range (" in note  # before the bracket: Slack shows up to it
    assert note in request.notes


def test_runs_none_of_which_fit_say_so_and_the_count_needs_a_budget() -> None:
    decision = decided("how many 70B pretraining runs on 1T tokens fit in $5k?")
    assert any(n.startswith("runs: none fit the $5,000.00 budget, one costs ~$") for n in decision.assumptions)
    text = "fine-tune 7B on 1B tokens"  # asked through the API's field, with no budget to count them in
    with pytest.raises(RequestError) as refused:
        request_from(text=text, reading=read_request(text, now=NOW, tz="UTC"), fields={"runs_fit_budget": True},
                     now=NOW, default_team="team-ml")
    assert refused.value.code == "missing_budget" and "fit in $2k" in refused.value.message
    # a count of something else is no question of runs
    assert parse_request("how many GPUs for a 7B fine-tune on 1B tokens under $500", now=NOW, tz="UTC",
                         team="team-ml").runs_fit_budget is None


def test_the_biggest_of_a_family_named_is_its_largest_size_that_fits() -> None:
    """ "the biggest llama you can for $500" asked which Llama; the family's sizes are now searched, largest first."""
    decision = decided("I have $500, fine-tune the biggest llama you can on 1B tokens, experimental")
    chosen = decision.request.params
    assert decision.request.model is not None and decision.request.model.startswith("llama")
    assert decision.plan.estimated_cost_usd <= 500
    larger = [m for m in family_members("llama") if chosen is not None and m.params > chosen]
    assert larger and all(decided(f"fine-tune {m.name} on 1B tokens, experimental").plan.estimated_cost_usd > 500
                          for m in larger)
    assert any(a.startswith(f"params: {format_count(chosen or 0)}, {decision.request.model}, the largest 'llama' model "
                            "that fits the $500.00 budget") for a in decision.assumptions)
    with pytest.raises(RequestError) as tiny:
        decided("fine-tune the biggest llama you can on 1B tokens for $5")
    assert tiny.value.code == "nothing_fits" and "the smallest is llama-3.2-1b" in str(tiny.value)
    # a word that names no family is no such ask
    assert parse_request("fine-tune the biggest one you can on 1B tokens, 7B, $500", now=NOW, tz="UTC").params_family \
        is None


def test_a_family_given_as_a_field_that_names_none_is_refused_naming_families() -> None:
    request = parse_request("fine-tune 7B on 1B tokens for $100", now=NOW, tz="UTC").model_copy(
        update={"params_fit_budget": True, "params_family": "zorblax", "params": None})
    with pytest.raises(RequestError) as refused:
        decide(request, catalog=load_catalog(), policy=default_policy(),
               spend=SpendSnapshot.unavailable(team=None, reason="test"), now=NOW)
    assert refused.value.code == "unknown_model_family" and "llama" in refused.value.message


def test_the_biggest_model_is_one_the_policy_lets_launch_and_the_note_names_what_bounds_it() -> None:
    """ "$0.5M, the largest model we can pretrain on 100B tokens" found a 66B model whose launch could bill $296k
    before its runtime cap, over the $250k deny ceiling (so denied), and said the $500k budget bounded it."""
    decision = decided("we have $0.5M, what's the largest model we can pretrain on 100B tokens? experimental")
    assert not decision.approval.denied
    assert max(decision.plan.estimated_cost_usd, decision.plan.exposure_usd) <= 250_000
    assert any("the largest model that fits the $500,000.00 budget, bounded by the policy's deny_above_usd "
               "($250,000)" in a for a in decision.assumptions)
