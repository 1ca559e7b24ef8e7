"""Spend context passed into the decision: month to date, forecast and budget for one team."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CostDriver", "DailySpend", "SpendSnapshot", "SpendStatus"]


class SpendStatus(StrEnum):
    OK = "ok"
    STALE = "stale"
    UNAVAILABLE = "unavailable"


class CostDriver(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: str  # instance type or service name
    dimension: str  # "INSTANCE_TYPE" or "SERVICE"
    usd: float


class DailySpend(BaseModel):
    model_config = ConfigDict(frozen=True)

    day: str  # ISO date
    usd: float


class SpendSnapshot(BaseModel):
    """Spend for one team as the service knew it. Money figures are None when unknown."""

    model_config = ConfigDict(frozen=True)

    status: SpendStatus = SpendStatus.UNAVAILABLE
    team: str | None = None
    month_to_date_usd: float | None = None
    # Expected spend from today to the end of the month (Cost Explorer GetCostForecast's window), not the month's
    # total: the month is expected to close at month_to_date_usd + forecast_usd (see projected_month_usd).
    forecast_usd: float | None = None
    budget_usd: float | None = None
    committed_usd: float = 0.0  # estimated cost of jobs launched since the figure was read
    as_of: datetime | None = None
    age_seconds: float | None = None
    reason: str | None = None  # why stale/unavailable
    daily: list[DailySpend] = Field(default_factory=list)
    drivers: list[CostDriver] = Field(default_factory=list)

    @property
    def projected_month_usd(self) -> float | None:
        """Where the month is expected to close: month to date plus the forecast for the rest of it."""
        if self.month_to_date_usd is None or self.forecast_usd is None:
            return None
        return self.month_to_date_usd + self.forecast_usd

    @classmethod
    def unavailable(cls, *, team: str | None, reason: str, budget_usd: float | None = None) -> SpendSnapshot:
        return cls(status=SpendStatus.UNAVAILABLE, team=team, reason=reason, budget_usd=budget_usd)
