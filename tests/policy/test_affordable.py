"""The most tokens a budget pays for: searched over whole plans, rounded down as a person would ask for it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from policy.affordable import FEWEST_TOKENS, most_tokens
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision, Plan
from policy.parse import parse_request
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


def test_the_count_is_the_most_the_budget_pays_for_rounded_down_to_two_figures() -> None:
    # $10 of start-up, $1 per 100M tokens: $200 pays for 19B tokens
    assert most_tokens(200.0, linear(10.0, 1e-8)) == 19_000_000_000


def test_a_deadline_caps_the_count_below_what_the_money_would_buy() -> None:
    assert most_tokens(200.0, linear(10.0, 1e-8, late_above=3_000_000_000)) == 3_000_000_000


def test_a_budget_that_pays_for_no_run_finds_nothing() -> None:
    assert most_tokens(5.0, linear(10.0, 1e-8)) is None
    assert most_tokens(200.0, lambda tokens: None) is None
    assert FEWEST_TOKENS == 10**6


def decided(text: str) -> Decision:
    request = parse_request(text, now=NOW, tz="UTC")
    return decide(request, catalog=load_catalog(), policy=default_policy(),
                  spend=SpendSnapshot.unavailable(team=None, reason="test"), now=NOW)


def test_as_many_tokens_as_fit_plans_the_most_the_budget_pays_for() -> None:
    decision = decided("what can I train for $200? a 7B LoRA on as many tokens as fit")
    tokens = decision.request.tokens
    assert tokens is not None
    assert decision.plan.estimated_cost_usd <= 200.0
    more = decided(f"7B LoRA on {tokens * 1.15 / 1e6:.0f}M tokens")
    assert more.plan.estimated_cost_usd > 200.0
    assert any(a.startswith(f"tokens: {tokens / 1e9:.1f}B, the most the $200.00 budget pays for")
               for a in decision.assumptions)


def test_as_many_tokens_as_fit_without_a_budget_prices_the_default_and_says_so() -> None:
    decision = decided("7B LoRA on as many tokens as fit")
    assert decision.request.tokens == 1_000_000_000
    assert any("no budget is said to fit them in" in a for a in decision.assumptions)
