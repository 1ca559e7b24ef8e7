"""The shipped sample spend (GPUOPS_SPEND=sample) is dated relative to today: this month up to yesterday, never
stale, with month to date, forecast and drivers that follow from its days."""

from __future__ import annotations

import calendar
from datetime import UTC, date, datetime, timedelta

import pytest

from policy.config import default_policy
from policy.spend import SpendStatus
from service.spend.providers import SampleSpend, sample_spend_path

POLICY = default_policy()



@pytest.mark.parametrize("now", [datetime(2027, 2, 17, 8, tzinfo=UTC), datetime(2026, 12, 1, 8, tzinfo=UTC),
                                 datetime(2028, 2, 29, 23, tzinfo=UTC)])
def test_the_sample_ends_yesterday_whatever_today_is(now: datetime) -> None:
    spend = SampleSpend(sample_spend_path(), clock=lambda: now).get_spend(team="team-ml", policy=POLICY)
    today = now.date()
    days = [date.fromisoformat(d.day) for d in spend.daily]
    assert spend.status is SpendStatus.OK and spend.as_of == now
    assert days[-1] == today - timedelta(days=1)
    assert days == [days[0] + timedelta(days=i) for i in range(len(days))]  # no gaps
    assert days[0] == (today.replace(day=1) - timedelta(days=1)).replace(day=1)  # and all of last month
    this_month = sum(d.usd for d in spend.daily if d.day >= today.replace(day=1).isoformat())
    assert spend.month_to_date_usd == pytest.approx(this_month, abs=0.01)
    left = calendar.monthrange(today.year, today.month)[1] - today.day + 1
    assert spend.forecast_usd == pytest.approx(749.87 * left, abs=0.01)  # the sample's forecast per day left
    services = sum(d.usd for d in spend.drivers if d.dimension == "SERVICE")
    assert services == pytest.approx(this_month, rel=1e-3)  # the split by service covers the month


def test_on_the_samples_own_date_it_is_the_sample() -> None:
    spend = SampleSpend(sample_spend_path(), clock=lambda: datetime(2026, 11, 30, 16, tzinfo=UTC)).get_spend(
        team="team-ml", policy=POLICY)
    assert (spend.month_to_date_usd, spend.forecast_usd) == (21746.34, 749.87)
    november = [d for d in spend.daily if d.day >= "2026-11-01"]
    assert november[0].day == "2026-11-01" and len(november) == 29 and november[-1].usd == 852.34
