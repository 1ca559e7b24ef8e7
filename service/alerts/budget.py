"""Early budget warnings: where each team's month is heading, said in its channel as soon as the projection passes
50, 75, 90 and 100% of the budget (each level once a month, remembered in ``alert_mark``).

The projection is spent (the spend source's month to date, plus what gpuops' launches billed since that figure)
+ what running jobs still expect to bill to finish (the tracker's live figure) + plans approved and not launched
(at what their approval lets loose) + the forecast for the rest of the month (Cost Explorer's; a run-rate from the
daily series where it has none). It counts gpuops' own jobs as soon as they move, hours before AWS billing shows
them; it may count a running job twice where Cost Explorer's forecast already extends it, which errs early.
"""

from __future__ import annotations

import logging
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from policy.config import PolicyConfig
from policy.projection import BUDGET_LEVELS, MonthProjection, project_month, run_rate_forecast, thresholds_crossed
from policy.spend import SpendSnapshot, SpendStatus
from service.alerts.marks import mark_reported, reported_levels
from service.audit.chain import append_event
from service.spend.ledger import LIVE, RESERVED, lock_ledger, read_ledger
from service.spend.providers import SpendProvider
from service.store.db import new_session
from service.store.tables import Job, PlanRevision, RequestRecord

log = logging.getLogger("gpuops.alerts")
ACTOR = "system:alerts"
KIND = "budget"
TOP_JOBS = 5


def team_channel(policy: PolicyConfig, team: str) -> str | None:
    """Where a team hears about its money: its digest channel, else its first request channel."""
    team_policy = policy.team(team)
    if team_policy.digest is not None:
        return team_policy.digest.channel
    return team_policy.slack_channels[0] if team_policy.slack_channels else None


def _forecast(spend: SpendSnapshot, today: date) -> tuple[float | None, str]:
    if spend.forecast_usd is not None:
        return spend.forecast_usd, "forecast for the rest of the month"
    daily = [(date.fromisoformat(d.day), d.usd) for d in spend.daily]
    rate = run_rate_forecast(daily=daily, today=today)
    return rate, "run-rate of the last 7 days for the rest of the month (no forecast to hand)"


def _drivers(session: Session, team: str) -> list[dict[str, Any]]:
    """The team's running and reserved requests, largest amount still to come first."""
    judged = sa.func.coalesce(col(PlanRevision.judged_usd), col(PlanRevision.estimated_cost_usd))
    current = sa.and_(col(PlanRevision.request_id) == col(RequestRecord.id),
                      col(PlanRevision.revision) == col(RequestRecord.revision))
    rows = session.execute(
        sa.select(col(RequestRecord.id), col(RequestRecord.status), col(RequestRecord.requester), judged,
                  col(Job.name), col(Job.cost_so_far_usd), col(Job.projected_cost_usd))
        .select_from(RequestRecord).join(PlanRevision, current)
        .outerjoin(Job, col(Job.request_id) == col(RequestRecord.id))
        .where(col(RequestRecord.team) == team, col(RequestRecord.status).in_([s.value for s in LIVE + RESERVED]))
    ).all()
    found = []
    for request_id, status, requester, judged_usd, job, so_far, projected in rows:
        to_come = (projected - so_far) if projected is not None and so_far is not None else float(judged_usd)
        found.append({"request_id": request_id, "status": status, "requester": requester, "job": job,
                      "cost_so_far_usd": so_far, "to_come_usd": round(max(0.0, to_come), 2)})
    found.sort(key=lambda d: (-d["to_come_usd"], d["request_id"]))
    return found[:TOP_JOBS]


def _running_to_finish(session: Session, team: str) -> float:
    """What the team's live jobs still expect to bill: projected less so far, or their whole approval before the
    tracker has costed them."""
    judged = sa.func.coalesce(col(PlanRevision.judged_usd), col(PlanRevision.estimated_cost_usd))
    current = sa.and_(col(PlanRevision.request_id) == col(RequestRecord.id),
                      col(PlanRevision.revision) == col(RequestRecord.revision))
    remaining = sa.case((col(Job.projected_cost_usd).is_(None), judged),
                        else_=col(Job.projected_cost_usd) - sa.func.coalesce(col(Job.cost_so_far_usd), 0.0))
    total = session.execute(
        sa.select(sa.func.coalesce(sa.func.sum(remaining), 0.0)).select_from(RequestRecord).join(PlanRevision, current)
        .outerjoin(Job, col(Job.request_id) == col(RequestRecord.id))
        .where(col(RequestRecord.team) == team, col(RequestRecord.status).in_([s.value for s in LIVE]))
    ).one()[0]
    return max(0.0, float(total))


def check_team_budget(*, engine: Engine, spend: SpendProvider, policy: PolicyConfig, team: str,
                      now: datetime) -> dict[str, Any] | None:
    """Project ``team``'s month and report levels newly passed; the event's data, or None when nothing new."""
    budget = policy.team(team).monthly_budget_usd
    snapshot = spend.get_spend(team=team, policy=policy)
    if budget is None or snapshot.status is SpendStatus.UNAVAILABLE or snapshot.month_to_date_usd is None:
        return None
    forecast, forecast_basis = _forecast(snapshot, now.date())
    period = now.strftime("%Y-%m")
    with new_session(engine) as session:
        lock_ledger(session=session)  # orders replicas: the level is checked and marked under one lock
        ledger = read_ledger(session=session, team=team, requester="", now=now)
        projection = project_month(spent_usd=snapshot.month_to_date_usd + snapshot.committed_usd,
                                   running_usd=_running_to_finish(session, team), reserved_usd=ledger.reserved_usd,
                                   forecast_usd=forecast, budget_usd=budget)
        done = {int(level) for level in reported_levels(session=session, kind=KIND, subject=team, period=period)}
        crossed = thresholds_crossed(levels=BUDGET_LEVELS, value=projection.total_usd, limit=budget, already=done)
        if not crossed:
            session.rollback()
            return None
        data = _event_data(team, projection, crossed=crossed, policy=policy, snapshot=snapshot,
                           forecast_basis=forecast_basis, drivers=_drivers(session, team), period=period)
        for level in crossed:
            mark_reported(session=session, kind=KIND, subject=team, period=period, level=str(level), now=now,
                          detail={"projected_usd": projection.total_usd})
        append_event(session=session, type="budget.threshold", actor=ACTOR, now=now, data=data)
        session.commit()
    return data


def _event_data(team: str, projection: MonthProjection, *, crossed: list[int], policy: PolicyConfig,
                snapshot: SpendSnapshot, forecast_basis: str, drivers: list[dict[str, Any]],
                period: str) -> dict[str, Any]:
    return {"team": team, "channel": team_channel(policy, team), "month": period, "level": crossed[-1],
            "levels": crossed, "projected_usd": projection.total_usd, "budget_usd": projection.budget_usd,
            "share": round(projection.share, 4), "spent_usd": projection.spent_usd,
            "running_usd": projection.running_usd, "reserved_usd": projection.reserved_usd,
            "forecast_usd": projection.forecast_usd, "forecast_basis": forecast_basis,
            "explain": projection.explain(), "spend_status": snapshot.status.value, "spend_reason": snapshot.reason,
            "jobs": drivers}


def check_budgets(*, engine: Engine, spend: SpendProvider, policy: PolicyConfig, now: datetime) -> int:
    """Every team with a budget once (its spend figure comes from the shared cache); how many warnings were new."""
    said = 0
    for team in sorted(policy.teams):
        if check_team_budget(engine=engine, spend=spend, policy=policy, team=team, now=now) is not None:
            said += 1
    return said
