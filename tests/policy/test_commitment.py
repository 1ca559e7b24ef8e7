"""Savings Plan arithmetic: the baseline, the seed commitment, coverage, utilisation and break-even."""

from __future__ import annotations

import pytest

from policy.commitment import evaluate_commitment, percentile, seed_commitment


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [([], 10, 0.0), ([5.0], 10, 5.0), ([0.0, 10.0], 10, 1.0), (list(range(11)), 10, 1.0), ([3, 1, 2], 50, 2.0)],
)
def test_percentile(values: list[float], q: float, expected: float) -> None:
    assert percentile(values, q) == pytest.approx(expected)


def test_an_idle_half_of_the_time_commitment_loses_money_below_break_even() -> None:
    # Half the hours at $20, half at $0 on demand: a plan covering $20/h at 40% off is used 50% < 60% break-even.
    usage = [20.0, 0.0] * 50
    outcome = evaluate_commitment(hourly_on_demand_usd=usage, commitment_per_hour_usd=12.0, discount=0.4)
    assert (outcome.covers_per_hour_usd, outcome.utilisation, outcome.break_even_utilisation) == (20.0, 0.5, 0.6)
    assert outcome.idle_hours_share == 0.5 and outcome.savings_usd == pytest.approx(1000.0 - 1200.0)
    assert seed_commitment(hourly_on_demand_usd=usage, discount=0.4) == 0.0  # the baseline is zero: commit nothing


def test_a_steady_baseline_saves_the_discount_on_what_it_covers() -> None:
    usage = [10.0] * 90 + [30.0] * 10
    commit = seed_commitment(hourly_on_demand_usd=usage, discount=0.3)
    outcome = evaluate_commitment(hourly_on_demand_usd=usage, commitment_per_hour_usd=commit, discount=0.3)
    assert (commit, outcome.coverage, outcome.utilisation) == (7.0, pytest.approx(1000 / 1200, abs=1e-4), 1.0)
    assert outcome.savings_usd == pytest.approx(300.0) and outcome.savings_per_month_usd == pytest.approx(2190.0)
    with pytest.raises(ValueError, match="discount"):
        evaluate_commitment(hourly_on_demand_usd=usage, commitment_per_hour_usd=1.0, discount=1.0)
