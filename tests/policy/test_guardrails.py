"""Approval requirements from the policy: budget, auto-approval, tiers, deny ceiling, runtime, fail-safe spend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from policy.config import ApprovalTier, default_policy
from policy.decision import ApprovalRequirement
from policy.guardrails import approval_requirement, spend_status, stale_prices
from policy.request import Stage
from policy.spend import Ledger, SpendSnapshot, SpendStatus, aged

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
POLICY = default_policy()  # auto-approve below $200, tiers 1 / 2 from $50k, deny above $250k, team-ml budget $50k


def ok_spend(mtd: float = 1_000, forecast: float = 2_000, age_hours: float = 1, **extra: Any) -> SpendSnapshot:
    return SpendSnapshot(status=SpendStatus.OK, team="team-ml", month_to_date_usd=mtd, forecast_usd=forecast,
                         as_of=NOW - timedelta(hours=age_hours), **extra)


UNAVAILABLE = SpendSnapshot.unavailable(team="team-ml", reason="Cost Explorer not configured")


def check(cost: float, *, stage: Stage = Stage.EXPERIMENTAL, spend: SpendSnapshot | None = None,
          hours: float = 10, team: str = "team-ml") -> ApprovalRequirement:
    return approval_requirement(cost_usd=cost, hours=hours, stage=stage, team=team, policy=POLICY,
                                spend=spend or ok_spend(), now=NOW)


CASES: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ("cheap experimental with known spend", {"cost": 50}, {"required": False, "approvals_needed": 0},
     "approved automatically"),
    ("cheap production", {"cost": 50, "stage": Stage.PRODUCTION},
     {"required": True, "approvals_needed": 1, "approver_groups": ["ml-leads", "finance"]}, "never auto-approved"),
    ("at the threshold", {"cost": 200}, {"required": True, "approvals_needed": 1}, "not below auto_approve"),
    ("spend unavailable", {"cost": 50, "spend": UNAVAILABLE}, {"required": True, "approvals_needed": 1},
     "spend is unavailable (Cost Explorer not configured)"),
    ("spend stale", {"cost": 50, "spend": ok_spend(age_hours=30)}, {"required": True}, "spend is stale"),
    ("marked stale upstream", {"cost": 50, "spend": ok_spend().model_copy(
        update={"status": SpendStatus.STALE, "reason": "Cost Explorer failed; cached figure"})},
     {"required": True}, "Cost Explorer failed"),
    ("over budget", {"cost": 150, "spend": ok_spend(mtd=40_000, forecast=9_900)}, {"required": True},
     "over budget"),
    ("committed counts toward the budget", {"cost": 150, "spend": ok_spend(mtd=40_000, forecast=5_000,
                                                                           committed_usd=5_000)},
     {"required": True}, "$5,000 launched since the figure"),
    ("running and reserved exposure count toward the budget",
     {"cost": 150, "spend": ok_spend(mtd=40_000, forecast=5_000,
                                     ledger=Ledger(running_usd=3_000, reserved_usd=1_900))},
     {"required": True}, "$40,000 spent + $5,000 forecast + $3,000 running + $1,900 reserved + this $150 = $50,050"),
    ("the daily cap per requester", {"cost": 150, "spend": ok_spend(ledger=Ledger(
        auto_approved_today_by_requester_usd=900))}, {"required": True}, "$900 already approved automatically today"),
    ("the daily cap per team", {"cost": 150, "spend": ok_spend(ledger=Ledger(
        auto_approved_today_by_team_usd=4_900))}, {"required": True}, "for the team"),
    ("under the daily caps", {"cost": 150, "spend": ok_spend(ledger=Ledger(
        auto_approved_today_by_requester_usd=800, auto_approved_today_by_team_usd=4_800))}, {"required": False},
     "approved automatically"),
    ("second tier", {"cost": 60_000}, {"required": True, "approvals_needed": 2}, "needs 2 approval(s)"),
    ("deny ceiling", {"cost": 300_000}, {"denied": True}, "deny_above_usd"),
    ("longer than max runtime", {"cost": 100, "hours": 400}, {"denied": True}, "max_runtime_hours"),
]


@pytest.mark.parametrize(("name", "args", "expected", "reason"), CASES, ids=[c[0] for c in CASES])
def test_approval(name: str, args: dict[str, Any], expected: dict[str, Any], reason: str) -> None:
    result = check(**args)
    for key, value in expected.items():
        assert getattr(result, key) == value, (name, key, result)
    assert any(reason in r for r in result.reasons), result.reasons


def test_within_budget_reason_shows_the_arithmetic() -> None:
    result = check(100)
    assert any("$1,000 spent + $2,000 forecast + this $100 = $3,100" in r for r in result.reasons)


def test_team_without_budget_is_never_auto_approved() -> None:
    policy = POLICY.model_copy(update={"teams": {**POLICY.teams, "team-ml": POLICY.teams["team-ml"].model_copy(
        update={"monthly_budget_usd": None})}})
    result = approval_requirement(cost_usd=10, hours=1, stage=Stage.EXPERIMENTAL, team="team-ml", policy=policy,
                                  spend=ok_spend(), now=NOW)
    assert result.required and any("no monthly budget" in r for r in result.reasons)


@pytest.mark.parametrize(("age", "status"), [(1, SpendStatus.OK), (24, SpendStatus.OK), (25, SpendStatus.STALE)])
def test_spend_turns_stale_after_policy_hours(age: float, status: SpendStatus) -> None:
    assert spend_status(ok_spend(age_hours=age), policy=POLICY, now=NOW)[0] is status


def test_spend_dated_after_the_request_is_never_current() -> None:
    assert spend_status(ok_spend(age_hours=-0.5), policy=POLICY, now=NOW)[0] is SpendStatus.OK  # clock skew
    status, why = spend_status(ok_spend(age_hours=-48), policy=POLICY, now=NOW)
    assert status is SpendStatus.STALE and why is not None and "after the request time" in why
    assert check(50, spend=ok_spend(age_hours=-48)).required


def test_unknown_forecast_is_said_not_shown_as_zero() -> None:
    result = check(100, spend=ok_spend(forecast=None))  # type: ignore[arg-type]
    assert any("forecast unknown (counted as $0)" in r for r in result.reasons), result.reasons
    assert not any("forecast $0 " in r for r in result.reasons)


def test_unknown_forecast_never_auto_approves() -> None:
    result = check(50, spend=ok_spend(forecast=None))  # type: ignore[arg-type]
    assert result.required and result.approvals_needed == 1
    assert any("budget not confirmed" in r and "rest of the month is unknown" in r for r in result.reasons)


def test_unknown_forecast_still_says_over_budget_when_month_to_date_is_over() -> None:
    result = check(50, spend=ok_spend(mtd=49_990, forecast=None))  # type: ignore[arg-type]
    assert any(r.startswith("over budget") for r in result.reasons), result.reasons


@pytest.mark.parametrize("mtd", [float("nan"), float("inf")])
def test_non_finite_spend_never_reads_as_within_budget(mtd: float) -> None:
    result = check(50, spend=ok_spend(mtd=mtd))
    assert result.required and any("cannot be checked" in r for r in result.reasons), result.reasons


@pytest.mark.parametrize(("observed", "spot", "stale"), [
    ("2026-11-01", True, False),  # 29 days: within spot_prices_stale_after_days (30)
    ("2026-10-30", True, True),  # 31 days
    ("2026-10-30", False, False),  # a list price 31 days old is current (90)
    ("2026-08-31", False, True),  # 91 days
])
def test_a_price_older_than_the_policy_trusts_is_never_approved_automatically(observed: str, spot: bool,
                                                                              stale: bool) -> None:
    result = approval_requirement(cost_usd=50, hours=10, stage=Stage.EXPERIMENTAL, team="team-ml", policy=POLICY,
                                  spend=ok_spend(), now=NOW,
                                  old_prices=stale_prices((observed, spot), policy=POLICY, now=NOW))
    assert result.required is stale
    said = [r for r in result.reasons if "days old" in r]
    if stale:
        what = "spot price" if spot else "price"
        key = "spot_prices_stale_after_days: 30" if spot else "prices_stale_after_days: 90"
        assert said[0].startswith(f"the {what} is ") and f"(observed {observed}; policy {key})" in said[0]
        assert "`gpuops catalog refresh` reads current prices" in said[0]
    else:
        assert said == []


def test_a_plan_on_the_shipped_snapshot_says_its_spot_price_is_stale_once_it_is() -> None:
    """The decision passes the date of the price it used: a month and more after the snapshot's spot observations,
    a cheap experiment with current spend is held for a person, and says why."""
    from policy.catalog import load_catalog
    from policy.parse import parse_request
    from policy.tree import decide

    catalog = load_catalog()
    observed = max(p.spot_observed for p in catalog.prices if p.spot_observed)
    later = datetime.fromisoformat(observed).replace(tzinfo=UTC) + timedelta(days=45)
    spend = ok_spend().model_copy(update={"as_of": later - timedelta(hours=1)})
    decision = decide(parse_request("lora 1B on 10M tokens", now=later, tz="UTC"), catalog=catalog, policy=POLICY,
                      spend=spend, now=later)
    assert decision.plan.purchase_model.value == "spot" and decision.approval.required
    assert any(r.startswith("the spot price is ") and "days old" in r for r in decision.approval.reasons)
    # and among the warnings, which Slack and the terminal show without a click
    assert any(w.startswith("the spot price is ") and "the cost may be off" in w for w in decision.warnings)


def test_an_automatic_approval_is_never_a_denial() -> None:
    result = check(50)
    assert (result.required, result.denied, result.approvals_needed) == (False, False, 0)


@pytest.mark.parametrize(("exposure", "judged_on_exposure", "required"), [
    (250.0, True, True),  # the launch may bill more than the estimate: judged on that, above the $200 threshold
    (100.0, False, False),  # less than the estimate: the estimate is judged
    (150.0, False, False),  # equal: nothing to say
])
def test_exposure_above_the_estimate_is_what_gets_judged(exposure: float, judged_on_exposure: bool,
                                                         required: bool) -> None:
    result = approval_requirement(cost_usd=150, hours=10, stage=Stage.EXPERIMENTAL, team="team-ml", policy=POLICY,
                                  spend=ok_spend(), now=NOW, exposure_usd=exposure)
    assert result.required is required
    assert any(r.startswith(f"judged on ${exposure:,.2f}") for r in result.reasons) is judged_on_exposure


def test_unavailable_spend_with_a_figure_still_cannot_check_the_budget() -> None:
    spend = ok_spend().model_copy(update={"status": SpendStatus.UNAVAILABLE, "reason": "Cost Explorer failed"})
    result = check(50, spend=spend)
    assert result.required
    assert "budget $50,000 cannot be checked: month-to-date spend is unknown" in result.reasons
    assert not any("within budget" in r for r in result.reasons)


def test_unknown_forecast_counts_as_exactly_zero() -> None:
    result = check(100.5, spend=ok_spend(mtd=49_900, forecast=None))  # type: ignore[arg-type]
    assert any(r.startswith("over budget") for r in result.reasons), result.reasons  # $50,000.50 > $50,000


def test_cheap_but_blocked_plans_are_not_called_expensive() -> None:
    result = check(100, spend=UNAVAILABLE)
    assert result.required and not any("not below auto_approve_below_usd" in r for r in result.reasons)
    assert any("$200.00 is not below" in r for r in check(200).reasons)


def test_below_the_first_tier_needs_the_first_tiers_approvals() -> None:
    policy = POLICY.model_copy(update={"approval_tiers": [ApprovalTier(min_usd=100, approvals=1),
                                                          ApprovalTier(min_usd=50_000, approvals=3)]})
    needed = [approval_requirement(cost_usd=cost, hours=1, stage=Stage.PRODUCTION, team="team-ml", policy=policy,
                                   spend=ok_spend(), now=NOW).approvals_needed for cost in (50, 100, 49_999, 50_000)]
    assert needed == [1, 1, 1, 3]


@pytest.mark.parametrize("spend", [
    ok_spend(), ok_spend(age_hours=25), ok_spend(age_hours=-48), ok_spend().model_copy(update={"as_of": None}),
    ok_spend(mtd=None), ok_spend(age_hours=30, mtd=None), UNAVAILABLE,
    SpendSnapshot(status=SpendStatus.STALE, team="team-ml", reason="read a week ago", as_of=NOW),
], ids=["ok", "old", "future", "undated", "no-mtd", "old-no-mtd", "unavailable", "stale"])
def test_the_status_is_the_one_the_aged_snapshot_carries(spend: SpendSnapshot) -> None:
    current = aged(spend, now=NOW, stale_after_hours=POLICY.spend_stale_after_hours)
    assert spend_status(spend, policy=POLICY, now=NOW) == (current.status, current.reason)


def test_a_hard_stop_caps_what_the_launch_may_bill_and_says_when_the_run_would_not_finish() -> None:
    """ "stop it if it costs more than $150" set a budget only: the runtime cap let the launch bill $164."""
    from tests.policy.test_hardware_limits import decided

    stopped = decided("fine-tune 7B on 1B tokens, stop it if it costs more than $150")
    assert stopped.request.stop_at_usd == 150.0
    assert stopped.plan.exposure_usd <= 150.0 < decided("fine-tune 7B on 1B tokens").plan.exposure_usd
    assert stopped.plan.max_runtime_hours >= stopped.plan.estimated_hours  # the run itself fits under it
    short = decided("fine-tune 7B on 1B tokens, hard cap of $100")
    assert short.plan.exposure_usd <= 100.0 and short.plan.max_runtime_hours < short.plan.estimated_hours
    assert any(w.startswith("the run is estimated at $") and "before it finishes" in w for w in short.warnings)


def test_a_launch_said_only_below_an_amount_is_denied_above_it_and_stopped_at_it_below() -> None:
    """ "if it's over $100 don't launch it" read a budget, which never denies: approved, the $109 plan launched."""
    from tests.policy.test_hardware_limits import decided

    above = decided("fine-tune 7B on 1B tokens, if it's over $100 don't launch it")
    assert above.approval.denied and any("the request says not to launch over" in r for r in above.approval.reasons)
    below = decided("fine-tune 7B on 1B tokens, don't run it if it costs more than $150")
    assert not below.approval.denied and below.plan.exposure_usd <= 150.0


def test_a_plan_that_may_bill_more_than_the_budget_the_request_states_is_never_approved_automatically() -> None:
    """ "fine-tune 1B on 500M tokens, budget $3" was warned about and then approved automatically at $11.80: under the
    team's budget and the policy's threshold, but over the requester's own."""
    from policy.catalog import load_catalog
    from policy.parse import parse_request
    from policy.tree import decide

    def judged(budget: float | None) -> ApprovalRequirement:
        return approval_requirement(cost_usd=12, hours=1, stage=Stage.EXPERIMENTAL, team="team-ml", policy=POLICY,
                                    spend=ok_spend(), now=NOW, exposure_usd=18, budget_said=budget)

    over = judged(15)  # the estimate fits, what the launch may bill does not
    assert over.required and "over the $15.00 budget the request states: the launch may bill $18.00" in "".join(
        over.reasons)
    assert not judged(18).required and not judged(None).required
    for text, required in (("fine-tune 1B on 500M tokens, budget $3", True), ("fine-tune 1B on 500M tokens", False)):
        request = parse_request(text, now=NOW, tz="UTC")
        decision = decide(request, catalog=load_catalog(), policy=POLICY, spend=ok_spend(age_hours=0), now=NOW)
        assert decision.approval.required is required, decision.approval.reasons
    request = parse_request("fine-tune 1B on 500M tokens, budget $3", now=NOW, tz="UTC")
    decision = decide(request, catalog=load_catalog(), policy=POLICY, spend=ok_spend(age_hours=0), now=NOW)
    assert decision.approval.required and not decision.approval.denied
    assert any(r.startswith("over the $3.00 budget the request states") for r in decision.approval.reasons)


def test_finance_sign_off_asked_for_adds_the_finance_group_and_is_never_automatic() -> None:
    """"needs finance approval" on a $50 experiment: it was approved automatically, finance never asked."""
    asked = approval_requirement(cost_usd=50, hours=2, stage=Stage.EXPERIMENTAL, team="team-ml", policy=POLICY,
                                 spend=ok_spend(), now=NOW, finance_asked=True)
    assert asked.required and asked.required_groups == [POLICY.finance_group]
    assert POLICY.finance_group in asked.approver_groups
    assert f"{POLICY.finance_group} must approve: the request asks for finance's sign-off" in asked.reasons
    assert not check(50).required  # the same plan, not asked: approved automatically
