"""Money properties over generated requests and spend: what lets a plan through without a person, and what it may bill.

Bounded example counts keep this file to a few seconds; ``--hypothesis-seed`` reproduces a failure.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import ApprovalRequirement, PurchaseModel
from policy.guardrails import approval_requirement
from policy.request import Stage, Task, TrainingRequest
from policy.spend import Ledger, SpendSnapshot, SpendStatus
from tests.policy.test_invariants import requests, run  # the same generated requests, the same instant

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
POLICY = default_policy()  # auto-approve below $200, spend stale after 24 h, team-ml budget $50k, tiers at $50k
CATALOG = load_catalog()
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Weighted toward the auto-approval corner (cheap, OK and fresh, figures known) so that its boundaries are reached.
money = st.one_of(st.floats(min_value=0, max_value=250), st.floats(min_value=0, max_value=400_000))
maybe_money = st.one_of(st.floats(min_value=0, max_value=30_000), st.floats(min_value=0, max_value=60_000), st.none())
ledgers = st.one_of(st.none(), st.builds(
    Ledger, running_usd=st.floats(min_value=0, max_value=5_000), reserved_usd=st.floats(min_value=0, max_value=5_000),
    auto_approved_today_by_requester_usd=st.floats(min_value=0, max_value=1_200),
    auto_approved_today_by_team_usd=st.floats(min_value=0, max_value=6_000)))
spends = st.builds(
    SpendSnapshot, status=st.sampled_from([SpendStatus.OK] * 3 + list(SpendStatus)), team=st.just("team-ml"),
    month_to_date_usd=maybe_money,
    forecast_usd=maybe_money, committed_usd=st.floats(min_value=0, max_value=5_000), ledger=ledgers,
    as_of=st.one_of(st.floats(min_value=-3, max_value=48).map(lambda h: NOW - timedelta(hours=h)), st.none()))
stages = st.sampled_from(list(Stage))
hours = st.one_of(st.floats(min_value=0.01, max_value=340), st.floats(min_value=0.01, max_value=400))


def judge(cost: float, *, stage: Stage, spend: SpendSnapshot, hours: float,
          exposure: float | None = None, budget_said: float | None = None) -> ApprovalRequirement:
    return approval_requirement(cost_usd=cost, hours=hours, stage=stage, team="team-ml", policy=POLICY, spend=spend,
                                now=NOW, exposure_usd=exposure, budget_said=budget_said)


def _fresh(spend: SpendSnapshot) -> bool:
    if spend.status is not SpendStatus.OK or spend.as_of is None or spend.month_to_date_usd is None:
        return False
    age = (NOW - spend.as_of).total_seconds() / 3600
    return -1 <= age <= POLICY.spend_stale_after_hours


def _within_budget(spend: SpendSnapshot, cost: float) -> bool:
    budget = POLICY.team("team-ml").monthly_budget_usd
    if budget is None or spend.month_to_date_usd is None or spend.forecast_usd is None:
        return False
    ledger = spend.ledger or Ledger()
    return (spend.month_to_date_usd + spend.forecast_usd + spend.committed_usd + ledger.running_usd
            + ledger.reserved_usd + cost) <= budget


@FAST
@given(money, stages, spends, hours, st.one_of(st.none(), money), st.one_of(st.none(), money))
def test_no_person_needed_only_when_experimental_cheap_fresh_and_within_budget(
        cost: float, stage: Stage, spend: SpendSnapshot, hours: float, exposure: float | None,
        budget_said: float | None) -> None:
    result = judge(cost, stage=stage, spend=spend, hours=hours, exposure=exposure, budget_said=budget_said)
    judged = max(cost, exposure or 0.0)
    if not result.required:
        assert result.approvals_needed == 0 and not result.denied
        assert stage is Stage.EXPERIMENTAL
        assert judged < POLICY.auto_approve_below_usd
        assert _fresh(spend)
        assert _within_budget(spend, judged)
        assert budget_said is None or judged <= budget_said + 0.01  # the requester's own budget, to the cent
        assert hours <= POLICY.max_runtime_hours
    else:
        assert result.approvals_needed >= 1
    event("auto-approved" if not result.required else "needs a person")


@FAST
@given(money, money, stages, spends, hours)
def test_approvals_needed_never_decrease_as_cost_rises(a: float, b: float, stage: Stage, spend: SpendSnapshot,
                                                       hours: float) -> None:
    low, high = sorted((a, b))
    cheap, dear = (judge(c, stage=stage, spend=spend, hours=hours) for c in (low, high))
    assert cheap.approvals_needed <= dear.approvals_needed
    assert dear.required or not cheap.required  # a dearer plan is never auto-approved where a cheaper one was not
    assert dear.denied or not cheap.denied


@SLOW
@given(requests)
def test_exposure_covers_the_estimate_unless_the_runtime_cap_denies_it(request: TrainingRequest) -> None:
    decision = run(request)
    for plan in [decision.plan, *decision.alternatives]:
        assert plan.estimated_cost_usd >= 0
        if plan.purchase_model is PurchaseModel.CAPACITY_BLOCK:
            # Its whole reserved days are paid up front, whatever the runtime cap: exposure is at least its price.
            assert plan.exposure_usd >= plan.estimated_cost_usd
            continue
        if plan.exposure_usd < plan.estimated_cost_usd:
            # Only a job the runtime cap would stop before it finishes, and such a plan is denied.
            assert plan.max_runtime_hours == POLICY.max_runtime_hours, plan
            assert plan is not decision.plan or decision.approval.denied


def test_exposure_counts_the_data_transfer_billed_whatever_the_runtime() -> None:
    """A plan that moves the data into its region bills that once, however soon the runtime cap stops the job: what
    approvals judge never leaves it out (a run near the cap had its exposure a cent under its estimate)."""
    decision = run(TrainingRequest(task=Task.LORA, params=453_052_640, tokens=48_181_901_678, trials=1,
                                   region="us-east-2", seq_len=2048))
    plan = decision.plan
    moved = sum(item.usd for item in plan.cost_breakdown if item.item.startswith("data transfer"))
    compute = plan.jobs * plan.job_instances * plan.price_per_instance_hour_usd * plan.max_runtime_hours
    assert moved > 0 and plan.exposure_usd >= round(compute + moved, 2) >= plan.estimated_cost_usd
