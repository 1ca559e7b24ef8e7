"""Spend context passed into the decision: month to date, forecast and budget for one team."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from policy.errors import RequestError

__all__ = [
    "aged",
    "CostDriver",
    "DailySpend",
    "FUTURE_AS_OF_HOURS",
    "Ledger",
    "spend_from_document",
    "SpendSnapshot",
    "SpendStatus",
    "status_as_of",
]


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


class Ledger(BaseModel):
    """What gpuops itself has let loose on a team's budget this month, beside what AWS has billed: read from its own
    records under a lock when a request is filed, so that concurrent approvals cannot spend the same room twice."""

    model_config = ConfigDict(frozen=True)

    running_usd: float = 0.0  # exposure of jobs launching or running (what they may still bill, at most)
    reserved_usd: float = 0.0  # exposure of plans approved or auto-approved and not launched yet
    # Auto-approved today (UTC), for the policy's daily caps.
    auto_approved_today_by_requester_usd: float = 0.0
    auto_approved_today_by_team_usd: float = 0.0


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
    ledger: Ledger | None = None  # gpuops' own running and reserved exposure; None when not read (previews)
    as_of: datetime | None = None
    age_seconds: float | None = None
    reason: str | None = None  # why stale/unavailable
    daily: list[DailySpend] = Field(default_factory=list[DailySpend])
    drivers: list[CostDriver] = Field(default_factory=list[CostDriver])

    @property
    def projected_month_usd(self) -> float | None:
        """Where the month is expected to close: month to date plus the forecast for the rest of it."""
        if self.month_to_date_usd is None or self.forecast_usd is None:
            return None
        return self.month_to_date_usd + self.forecast_usd

    @classmethod
    def unavailable(cls, *, team: str | None, reason: str, budget_usd: float | None = None) -> SpendSnapshot:
        return cls(status=SpendStatus.UNAVAILABLE, team=team, reason=reason, budget_usd=budget_usd)


# Clock skew tolerated between whoever read the spend and whoever decides.
FUTURE_AS_OF_HOURS = 1.0
# Accepted names for each figure in a spend file: the service's and the short ones people type.
_FILE_KEYS = {"month_to_date_usd": ("month_to_date_usd", "month_to_date"),
              "forecast_usd": ("forecast_usd", "forecast"), "budget_usd": ("budget_usd", "budget")}


def aged(spend: SpendSnapshot, *, now: datetime, stale_after_hours: float) -> SpendSnapshot:
    """``spend`` as of ``now``: the one staleness rule.

    An 'ok' figure without a date, older than ``stale_after_hours`` or dated more than an hour after ``now`` (a
    wrong clock or a wrong file) counts as stale, with the reason; an 'ok' snapshot without a month-to-date figure is
    unavailable. Anything else is returned as it is, with its age filled in.
    """
    change = _ageing(spend, now=now, stale_after_hours=stale_after_hours)
    return spend if change is None else spend.model_copy(update=change)


def status_as_of(spend: SpendSnapshot, *, now: datetime, stale_after_hours: float) -> tuple[SpendStatus, str | None]:
    """The status and reason ``aged`` gives ``spend`` as of ``now``, without copying the snapshot for them."""
    change = _ageing(spend, now=now, stale_after_hours=stale_after_hours) or {}
    return change.get("status", spend.status), change.get("reason", spend.reason)


def _ageing(spend: SpendSnapshot, *, now: datetime, stale_after_hours: float) -> dict[str, Any] | None:
    """What ``aged`` changes in ``spend`` (None: nothing)."""
    if spend.status is not SpendStatus.OK:
        return None
    if spend.as_of is None:
        return {"status": SpendStatus.STALE, "reason": "the figures carry no date: their age is unknown"}
    age_hours = (now - spend.as_of).total_seconds() / 3600
    if age_hours < -FUTURE_AS_OF_HOURS:
        return {"status": SpendStatus.STALE, "reason": (
            f"spend figure is dated {-age_hours:.0f} h after the request time; its age is unknown")}
    age = {"age_seconds": max(0.0, age_hours * 3600)}
    if age_hours > stale_after_hours:
        return {**age, "status": SpendStatus.STALE, "reason": (
            f"spend figure is {age_hours:.0f} h old (policy spend_stale_after_hours: {stale_after_hours:g})")}
    if spend.month_to_date_usd is None:
        return {**age, "status": SpendStatus.UNAVAILABLE, "reason": "spend snapshot has no month-to-date figure"}
    return age


def spend_from_document(document: object, *, source: str) -> dict[str, SpendSnapshot]:
    """The one reading of a spend file, by team: ``{"as_of", "teams": {team: {...}}}`` or ``{team: {...}}``.

    Each team holds ``month_to_date_usd``, ``forecast_usd`` (the rest of the month), optionally ``budget_usd``,
    ``as_of`` (else the file's), ``daily`` and ``drivers``. Figures must be finite, non-negative numbers. Raises
    ``RequestError`` (``invalid_spend_file``) naming the key to fix.
    """
    if not isinstance(document, dict):
        raise RequestError(f"spend file {source} must be a JSON object of teams", code="invalid_spend_file")
    teams = document.get("teams", document)
    if not isinstance(teams, dict):
        raise RequestError(f"{source}: teams must be an object of team name to figures", code="invalid_spend_file")
    default_as_of = document.get("as_of")
    snapshots: dict[str, SpendSnapshot] = {}
    for team, entry in teams.items():
        if team == "as_of" and "teams" not in document:
            continue
        if not isinstance(entry, dict):
            raise RequestError(f"{source}: {team} must be an object of figures", code="invalid_spend_file")
        snapshots[team] = _team_spend(team, entry, default_as_of=default_as_of, source=source)
    return snapshots


def _team_spend(team: str, entry: dict[str, object], *, default_as_of: object, source: str) -> SpendSnapshot:
    fields: dict[str, object] = {"status": SpendStatus.OK, "team": team}
    for field, names in _FILE_KEYS.items():
        for name in names:
            if name in entry:
                fields[field] = _usd(entry[name], where=f"{source}: {team}.{name}")
    as_of = entry.get("as_of", default_as_of)
    if as_of is not None:
        try:
            moment = datetime.fromisoformat(str(as_of))
            fields["as_of"] = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
        except ValueError:
            raise RequestError(f"{source}: {team}.as_of must be an ISO 8601 time, e.g. 2026-11-30T06:00:00Z",
                               code="invalid_spend_file") from None
    try:
        return SpendSnapshot.model_validate({**fields, "daily": entry.get("daily", []),
                                             "drivers": entry.get("drivers", [])})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RequestError(f"{source}: {team}.{where}: {first['msg']}", code="invalid_spend_file") from None


def _usd(value: object, *, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise RequestError(f"{where} must be a non-negative number of USD", code="invalid_spend_file")
    return float(value)
