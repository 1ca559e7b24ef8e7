"""The money arithmetic of live cost, the month's projection and the levels crossed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from policy.projection import (
    JobReading,
    accrued_since,
    live_cost,
    project_month,
    run_rate_forecast,
    thresholds_crossed,
)

T0 = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
H = timedelta(hours=1)


@pytest.mark.parametrize(
    ("readings", "now", "so_far", "projected", "overrun"),
    [
        # 2 instances at $10/h for 3 h of an estimated 10 h: $60 so far, 7 h × $20 more.
        ([JobReading(instance_count=2, started_at=T0)], T0 + 3 * H, 60.0, 200.0, False),
        # Not started yet: time since the launch bounds what starting instances bill.
        ([JobReading(instance_count=2)], T0 + H, 20.0, 200.0, False),
        # Billable seconds win (managed spot: 1 h billed in 3 h), billed at the billing price ($12).
        ([JobReading(instance_count=2, started_at=T0, billable_seconds=3600)], T0 + 3 * H, 24.0, 164.0, False),
        # Past the estimate: the projection is what it has cost, capped by the ceiling.
        ([JobReading(instance_count=2, started_at=T0)], T0 + 12 * H, 240.0, 240.0, True),
        ([JobReading(instance_count=2, started_at=T0)], T0 + 40 * H, 300.0, 300.0, True),
        # A sweep's two jobs: rates add, the longest-running sets the hours left.
        ([JobReading(instance_count=1, started_at=T0), JobReading(instance_count=1, started_at=T0 + H)],
         T0 + 2 * H, 30.0, 190.0, False),
    ],
)
def test_live_cost(readings: list[JobReading], now: datetime, so_far: float, projected: float,
                   overrun: bool) -> None:
    cost = live_cost(readings=readings, now=now, launched_at=T0, price_per_instance_hour=10.0,
                     billable_price_per_instance_hour=12.0, estimated_hours=10.0, ceiling_usd=300.0)
    assert (cost.cost_so_far_usd, cost.projected_usd, cost.overrun) == (so_far, projected, overrun)


@pytest.mark.parametrize(
    ("value", "limit", "already", "expected"),
    [
        (49.0, 100.0, [], []),
        (50.0, 100.0, [], [50]),
        (160.0, 100.0, [50], [100, 150]),
        (160.0, 100.0, [50, 100, 150], []),
        (10.0, 0.0, [], []),
    ],
)
def test_thresholds_crossed(value: float, limit: float, already: list[int], expected: list[int]) -> None:
    assert thresholds_crossed(levels=(50, 100, 150), value=value, limit=limit, already=already) == expected


def test_the_month_adds_up_term_by_term() -> None:
    month = project_month(spent_usd=30_000, running_usd=2_000, reserved_usd=1_000, forecast_usd=12_000,
                          budget_usd=50_000)
    assert (month.total_usd, month.share) == (45_000, 0.9)
    assert month.explain() == ("$30,000 spent + $2,000 running to finish + $1,000 approved, not launched + $12,000 "
                               "forecast = $45,000 of $50,000 (90%)")
    unknown = project_month(spent_usd=1, running_usd=0, reserved_usd=0, forecast_usd=None, budget_usd=10)
    assert unknown.total_usd == 1 and "no forecast (counted as $0)" in unknown.explain()


def test_run_rate_and_accrual() -> None:
    daily = [(date(2026, 11, d), 100.0 * d) for d in range(1, 29)]
    # The last 7 complete days before the 28th average $2,400; three days are left with the 28th.
    assert run_rate_forecast(daily=daily, today=date(2026, 11, 28)) == pytest.approx(2_400 * 3)
    assert run_rate_forecast(daily=[], today=date(2026, 11, 28)) is None
    assert accrued_since(cost_usd=100, start=T0, end=T0 + 4 * H, since=T0 + H) == 75
    assert accrued_since(cost_usd=100, start=T0, end=T0 + 4 * H, since=T0 - H) == 100
    assert accrued_since(cost_usd=100, start=T0, end=T0 + 4 * H, since=T0 + 5 * H) == 0
