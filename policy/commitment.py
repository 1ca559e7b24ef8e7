"""Commitment advice: how much steady GPU usage a SageMaker Savings Plan could cover, what it saves, where it breaks
even and what it risks. Advice only: nothing here buys anything.

A Savings Plan commits to a fixed spend per hour (in discounted dollars) for one or three years; every hour's
eligible on-demand usage up to ``commitment / (1 − discount)`` is billed at the discount, and an hour that uses
less still pays the whole commitment. The seed rule covers about 90% of the steady baseline: the 10th-percentile
hourly on-demand spend over the last three months (usage is above it nine hours in ten).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from policy.timespan import HOURS_PER_MONTH

__all__ = [
    "BASELINE_PERCENTILE",
    "CommitmentOutcome",
    "evaluate_commitment",
    "percentile",
    "seed_commitment",
]

BASELINE_PERCENTILE = 10.0


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by linear interpolation between closest ranks; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low, high = math.floor(rank), math.ceil(rank)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


class CommitmentOutcome(BaseModel):
    """What an hourly commitment would have done over a usage history."""

    model_config = ConfigDict(frozen=True)

    commitment_per_hour_usd: float  # what the plan bills every hour, used or not
    covers_per_hour_usd: float  # on-demand spend per hour it covers
    discount: float
    hours: int
    on_demand_usd: float  # the history's eligible spend at on-demand prices
    with_plan_usd: float  # the same usage with the plan: every hour's commitment + the uncovered rest on demand
    coverage: float  # share of the on-demand spend the plan covers
    utilisation: float  # share of the commitment that usage used
    idle_hours_share: float  # hours in which usage fell below what the plan covers (part of it paid for nothing)
    break_even_utilisation: float  # below this average use of the commitment, the plan costs more than on demand

    @property
    def savings_usd(self) -> float:
        return round(self.on_demand_usd - self.with_plan_usd, 2)

    @property
    def savings_per_month_usd(self) -> float:
        return round(self.savings_usd / self.hours * HOURS_PER_MONTH, 2) if self.hours else 0.0


def seed_commitment(*, hourly_on_demand_usd: Sequence[float], discount: float) -> float:
    """The seed rule's hourly commitment: the baseline (10th-percentile hourly on-demand spend) at the discount."""
    return round(percentile(hourly_on_demand_usd, BASELINE_PERCENTILE) * (1.0 - discount), 2)


def evaluate_commitment(*, hourly_on_demand_usd: Sequence[float], commitment_per_hour_usd: float,
                        discount: float) -> CommitmentOutcome:
    """Replay the history with the commitment: cost, coverage, utilisation and the break-even point.

    The break-even utilisation is ``1 − discount``: a plan used that much on average bills exactly what on-demand
    would have; each hour it sits idle costs the commitment.
    """
    if not 0.0 <= discount < 1.0:
        raise ValueError("discount must be at least 0 and below 1")
    covers = commitment_per_hour_usd / (1.0 - discount)
    on_demand = sum(hourly_on_demand_usd)
    covered = sum(min(usage, covers) for usage in hourly_on_demand_usd)
    hours = len(hourly_on_demand_usd)
    with_plan = commitment_per_hour_usd * hours + (on_demand - covered)
    idle = sum(1 for usage in hourly_on_demand_usd if usage < covers)
    return CommitmentOutcome(
        commitment_per_hour_usd=round(commitment_per_hour_usd, 2), covers_per_hour_usd=round(covers, 2),
        discount=discount, hours=hours, on_demand_usd=round(on_demand, 2), with_plan_usd=round(with_plan, 2),
        coverage=round(covered / on_demand, 4) if on_demand else 0.0,
        utilisation=round(covered / (covers * hours), 4) if covers and hours else 0.0,
        idle_hours_share=round(idle / hours, 4) if hours and covers else 0.0,
        break_even_utilisation=round(1.0 - discount, 4),
    )
