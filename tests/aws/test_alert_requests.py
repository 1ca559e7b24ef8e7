"""Cost Explorer requests stay at most 5 per team per day at 1,000 plans a day with every alert on: the spend cache
is shared, the month's projection reads no more, anomalies are read once a day and Savings Plans advice once a
month for the whole account (counted on a simulated clock against the loopback stand-in)."""

from __future__ import annotations

from bench.alerts import cost_explorer_requests


def test_at_most_five_cost_explorer_requests_per_team_per_day() -> None:
    counted, account = cost_explorer_requests(days=2, plans_per_day=1000, teams=5, round_minutes=30)
    assert {team for team, _ in counted} == {f"team-{i}" for i in range(5)}
    assert len(counted) == 5 * 2  # every team read spend every day
    assert max(counted.values()) <= 5
    assert account == 1  # the month's Savings Plans recommendation
