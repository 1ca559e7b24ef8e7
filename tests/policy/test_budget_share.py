"""A budget said as a share of the team's ("under 10% of our monthly budget") is priced in the team's dollars."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from policy.catalog import load_catalog
from policy.config import PolicyConfig, default_policy
from policy.decision import Decision
from policy.parse import parse_request
from policy.spend import Ledger, SpendSnapshot, SpendStatus
from policy.tree import decide

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
POLICY = default_policy()  # team-ml's monthly budget is $50,000
UNKNOWN = SpendSnapshot.unavailable(team=None, reason="no spend source")


def spend(mtd: float, **extra: object) -> SpendSnapshot:
    return SpendSnapshot(status=SpendStatus.OK, team="team-ml", month_to_date_usd=mtd, forecast_usd=1_000,
                         as_of=NOW - timedelta(hours=1), **extra)  # type: ignore[arg-type]


def decided(text: str, *, spent: SpendSnapshot = UNKNOWN, policy: PolicyConfig = POLICY) -> Decision:
    return decide(parse_request(text, now=NOW, tz="UTC"), catalog=load_catalog(), policy=policy, spend=spent, now=NOW)


def test_a_share_of_the_monthly_budget_is_that_share_of_the_teams_budget_in_the_policy() -> None:
    decision = decided("pretrain 3B on 60B tokens, keep it under 1% of our monthly budget")
    assert decision.request.budget_usd == 500.0
    assert "read 'keep it under 1% of our monthly budget' as a budget of $500.00, 1% of team-ml's monthly budget " \
        "($50,000.00)" in decision.request.notes
    # and it is the budget every check uses: the plan, at about $2,900, is over it
    assert any(w.startswith("nothing the policy allows fits the $500 budget") for w in decision.warnings)
    assert any(r.startswith("over the $500.00 budget the request states") for r in decision.approval.reasons)


def test_a_share_said_as_what_not_to_exceed_is_the_budget_with_nothing_left_unread() -> None:
    for text, budget in (("fine-tune 7B on 1B tokens, must not go over a quarter of our monthly budget", 12_500.0),
                         ("fine-tune 7B on 1B tokens, don't exceed 10% of our monthly budget", 5_000.0)):
        decision = decided(text)
        assert (decision.request.budget_usd, decision.request.unread) == (budget, [])


def test_a_share_of_what_is_left_counts_the_months_spend_and_gpuops_own_exposure() -> None:
    held = spend(20_000, committed_usd=1_000, ledger=Ledger(running_usd=2_000, reserved_usd=1_000))
    decision = decided("fine-tune 7B on 1B tokens using at most half of what's left of our budget", spent=held)
    assert decision.request.budget_usd == 13_000.0  # ($50,000 − $20,000 − $1,000 − $3,000) / 2


def test_a_share_nothing_turns_into_dollars_is_for_a_person_to_check() -> None:
    left = decided("fine-tune 7B on 1B tokens using at most half of what's left of our budget")  # spend unknown
    assert left.request.budget_usd is None
    assert left.request.unread == ["50% of what is left of team-ml's monthly budget"]
    assert left.approval.required and any("not read: '50% of what is left" in r for r in left.approval.reasons)
    none = POLICY.model_copy(update={"teams": {**POLICY.teams, "team-ml": POLICY.teams["team-ml"].model_copy(
        update={"monthly_budget_usd": None})}})
    unbudgeted = decided("fine-tune 7B on 1B tokens, under 10% of our monthly budget", spent=spend(0), policy=none)
    assert unbudgeted.request.budget_usd is None and unbudgeted.approval.required
    assert any("which cannot be turned into dollars: team-ml has no monthly budget in the policy" in n
               for n in unbudgeted.request.notes)
    spent = decided("fine-tune 7B on 1B tokens, at most 10% of our remaining budget", spent=spend(50_000))
    assert spent.request.unread and spent.approval.required  # nothing left: $0 is no budget to plan in
    assert any("nothing is left of the $50,000.00" in n for n in spent.request.notes)


def test_a_budget_said_below_the_share_stays_the_budget() -> None:
    decision = decided("fine-tune 7B on 1B tokens, budget $300, and at most 10% of our remaining budget",
                       spent=spend(10_000))
    assert decision.request.budget_usd == 300.0
    assert any("the $300.00 said is less, and is the budget" in n for n in decision.request.notes)


def test_the_share_is_turned_once_however_often_the_request_is_decided_again() -> None:
    first = decided("pretrain 3B on 60B tokens, keep it under 10% of our monthly budget")
    assert first.request.budget_percent is None  # now in dollars
    again = decide(first.request, catalog=load_catalog(), policy=POLICY, spend=UNKNOWN, now=NOW)
    assert again.request.budget_usd == first.request.budget_usd == 5_000.0
    assert again.request.notes == first.request.notes
    unread = decided("fine-tune 7B on 1B tokens, at most half of what's left of our budget")
    assert decide(unread.request, catalog=load_catalog(), policy=POLICY, spend=UNKNOWN, now=NOW).request.unread == \
        unread.request.unread == ["50% of what is left of team-ml's monthly budget"]


def test_a_share_given_as_a_field_is_noted_as_the_texts_is() -> None:
    request = parse_request("pretrain 3B on 60B tokens", now=NOW, tz="UTC").model_copy(update={"budget_percent": 2.5})
    decision = decide(request, catalog=load_catalog(), policy=POLICY, spend=UNKNOWN, now=NOW)
    assert decision.request.budget_usd == 1_250.0
    assert "budget share: $1,250.00, 2.5% of team-ml's monthly budget ($50,000.00)" in decision.request.notes


def test_a_share_of_a_named_teams_budget_is_of_that_teams_budget_and_names_the_team() -> None:
    """ "5% of team-ml's remaining budget" left '5%' unread; the team's name said with it is still the team."""
    decision = decided("SFT 8B on 1B tokens, keep it under 10% of team-nlp's budget")
    assert (decision.request.team, decision.request.budget_usd, decision.request.unread) == ("team-nlp", 12_000.0, [])
    left = decided("SFT 8B on 1B tokens, can we do it for less than 5% of team-ml's remaining budget?",
                   spent=spend(20_000))
    assert (left.request.budget_usd, left.request.unread) == (1_500.0, [])  # 5% of ($50,000 − $20,000)
