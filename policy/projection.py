"""Money moving now: a running job's cost so far and to finish, the month's projection, and thresholds crossed.

Pure arithmetic: the caller passes the readings, prices and ``now``. A job's cost so far comes from the time the
platform bills (SageMaker's ``BillableTimeInSeconds`` at the ml.* on-demand price, managed spot's discount being in
the seconds) when the platform reports it, else from the time since training started at the launch's own price.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime, timedelta
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = [
    "accrued_since",
    "BUDGET_LEVELS",
    "JOB_COST_LEVELS",
    "JobReading",
    "live_cost",
    "LiveCost",
    "month_end",
    "MonthProjection",
    "project_month",
    "run_rate_forecast",
    "thresholds_crossed",
]

# Percent of a job's approved estimate at which its thread hears about it.
JOB_COST_LEVELS = (50, 100, 150)
_Level = TypeVar("_Level", int, float)  # a percent level, whole or not
# Percent of a team's monthly budget at which its channel hears that the month is heading there.
BUDGET_LEVELS = (50, 75, 90, 100)


class JobReading(BaseModel):
    """One job of a launch as the platform described it."""

    model_config = ConfigDict(frozen=True)

    instance_count: int
    started_at: datetime | None = None  # when training (and billing) began; None while still starting
    billable_seconds: int | None = None  # per instance, as the platform bills them; None when not reported


class LiveCost(BaseModel):
    """What a running launch has cost and is expected to cost when it finishes."""

    model_config = ConfigDict(frozen=True)

    cost_so_far_usd: float
    projected_usd: float  # cost so far plus the rest of the estimated hours at the launch's rate
    ceiling_usd: float  # the most it can bill (its max runtime): what an approval let loose
    elapsed_hours: float
    basis: str  # how the cost so far was read, for people
    overrun: bool  # past its estimated hours: the projection is a floor, the ceiling the bound


def live_cost(*, readings: Sequence[JobReading], now: datetime, launched_at: datetime, price_per_instance_hour: float,
              billable_price_per_instance_hour: float, estimated_hours: float, ceiling_usd: float) -> LiveCost:
    """Cost so far and projected to finish for a launch's jobs.

    Per job: billable seconds × instances × the billing price when reported, else hours since ``started_at`` (or
    ``launched_at`` when the platform has not said) × instances × the launch's price, which bounds what starting
    instances can bill. The rest of the estimate is the longest-running job's remaining estimated hours at the
    launch's hourly rate; the projection never exceeds ``ceiling_usd`` (the max runtime stops the job there).
    """
    so_far, elapsed, rate, billed = 0.0, 0.0, 0.0, False
    for reading in readings:
        hours = max(0.0, (now - (reading.started_at or launched_at)).total_seconds() / 3600.0)
        elapsed = max(elapsed, hours)
        rate += reading.instance_count * price_per_instance_hour
        if reading.billable_seconds is not None:
            billed = True
            so_far += reading.billable_seconds / 3600.0 * reading.instance_count * billable_price_per_instance_hour
        else:
            so_far += hours * reading.instance_count * price_per_instance_hour
    so_far = min(so_far, ceiling_usd) if ceiling_usd > 0 else so_far
    remaining_hours = max(0.0, estimated_hours - elapsed)
    projected = so_far + remaining_hours * rate
    if ceiling_usd > 0:
        projected = min(projected, ceiling_usd)
    basis = "billable time reported by the platform" if billed else "time since training started × the launch's price"
    return LiveCost(cost_so_far_usd=round(so_far, 2), projected_usd=round(max(projected, so_far), 2),
                    ceiling_usd=round(ceiling_usd, 2), elapsed_hours=round(elapsed, 3), basis=basis,
                    overrun=elapsed > estimated_hours)


def accrued_since(*, cost_usd: float, start: datetime, end: datetime, since: datetime) -> float:
    """The part of ``cost_usd``, spent evenly from ``start`` to ``end``, that fell after ``since``."""
    if start >= since:
        return cost_usd
    if end <= since or end <= start:
        return 0.0
    return cost_usd * (end - since).total_seconds() / (end - start).total_seconds()


def thresholds_crossed(*, levels: Iterable[_Level], value: float, limit: float,
                       already: Iterable[float]) -> list[_Level]:
    """The percent levels of ``limit`` that ``value`` has reached and that were not reported before, ascending."""
    if limit <= 0:
        return []
    done = set(already)
    return sorted(level for level in levels if level not in done and value >= limit * level / 100.0)


class MonthProjection(BaseModel):
    """Where a team's month is heading, and from what."""

    model_config = ConfigDict(frozen=True)

    spent_usd: float  # billed so far this month (Cost Explorer month to date)
    running_usd: float  # what running jobs are still expected to bill to finish
    reserved_usd: float  # plans approved and not launched yet, at what their approval lets loose
    forecast_usd: float | None  # Cost Explorer's forecast for the rest of the month; None when it has none
    budget_usd: float

    @property
    def total_usd(self) -> float:
        return round(self.spent_usd + self.running_usd + self.reserved_usd + (self.forecast_usd or 0.0), 2)

    @property
    def share(self) -> float:
        return self.total_usd / self.budget_usd if self.budget_usd > 0 else 0.0

    def explain(self) -> str:
        """The sum, term by term, as a person reads it."""
        forecast = "no forecast (counted as $0)" if self.forecast_usd is None else f"${self.forecast_usd:,.0f} forecast"
        return (f"${self.spent_usd:,.0f} spent + ${self.running_usd:,.0f} running to finish + "
                f"${self.reserved_usd:,.0f} approved, not launched + {forecast} = ${self.total_usd:,.0f} "
                f"of ${self.budget_usd:,.0f} ({self.share:.0%})")


def project_month(*, spent_usd: float, running_usd: float, reserved_usd: float, forecast_usd: float | None,
                  budget_usd: float) -> MonthProjection:
    """The month's projection: spent + running to finish + reserved + the forecast for the rest."""
    return MonthProjection(spent_usd=round(spent_usd, 2), running_usd=round(running_usd, 2),
                           reserved_usd=round(reserved_usd, 2),
                           forecast_usd=None if forecast_usd is None else round(forecast_usd, 2),
                           budget_usd=budget_usd)


def month_end(today: date) -> date:
    """The first day of the next month."""
    return (today.replace(day=1) + timedelta(days=32)).replace(day=1)


def run_rate_forecast(*, daily: Sequence[tuple[date, float]], today: date, window_days: int = 7) -> float | None:
    """The rest of the month at the mean daily spend of the last ``window_days`` complete days before ``today``.

    A stand-in where Cost Explorer has no forecast (a replayed month, too little history); None with no days.
    """
    recent = [usd for day, usd in daily if today - timedelta(days=window_days) <= day < today]
    if not recent:
        return None
    return sum(recent) / len(recent) * (month_end(today) - today).days
