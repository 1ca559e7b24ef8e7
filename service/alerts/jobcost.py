"""A running job's live cost: refreshed on its row each tracker round, and told in its thread once it passes
50, 100 and 150% of the approved estimate and each level the requester asked for ("alert me at 80%", "ping me at
$500"): each level once, remembered in ``alert_mark``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session

from policy.decision import Plan
from policy.projection import JOB_COST_LEVELS, JobReading, LiveCost, live_cost, thresholds_crossed
from service.alerts.marks import mark_reported, reported_levels
from service.audit.chain import append_event
from service.launch.protocol import JobStatus
from service.store.tables import Job

ACTOR = "system:tracker"
KIND = "job_cost"
_USD = "usd:"  # a level in dollars, as ``alert_mark`` keeps it beside the percents ("usd:500.00")


@dataclass(frozen=True)
class CostAlerts:
    """The levels of cost a requester asked to hear about: percents of the approved estimate, and dollars."""

    percents: tuple[float, ...] = ()
    amounts_usd: tuple[float, ...] = ()


def job_live_cost(*, row: Job, plan: Plan, progress: list[JobStatus], billing_price: float,
                  now: datetime) -> LiveCost:
    """The launch's cost so far and to finish, from the platform's readings."""
    readings = [JobReading(instance_count=p.instance_count, started_at=p.started_at,
                           billable_seconds=p.billable_seconds) for p in progress]
    return live_cost(readings=readings, now=now, launched_at=row.created_at,
                     price_per_instance_hour=plan.price_per_instance_hour_usd,
                     billable_price_per_instance_hour=billing_price, estimated_hours=plan.estimated_hours,
                     ceiling_usd=plan.exposure_usd)


def refresh_job_cost(*, session: Session, row: Job, plan: Plan, progress: list[JobStatus], billing_price: float,
                     now: datetime, alerts: CostAlerts = CostAlerts()) -> LiveCost:
    """Store the live figures on the job row and report newly passed levels; call holding the request's lock."""
    cost = job_live_cost(row=row, plan=plan, progress=progress, billing_price=billing_price, now=now)
    row.cost_so_far_usd, row.projected_cost_usd, row.cost_as_of = cost.cost_so_far_usd, cost.projected_usd, now
    starts = [p.started_at for p in progress if p.started_at is not None]
    row.started_at = min(starts) if starts else row.started_at
    marked = reported_levels(session=session, kind=KIND, subject=row.request_id)
    done = {float(level) for level in marked if not level.startswith(_USD)}
    crossed = thresholds_crossed(levels=sorted({*JOB_COST_LEVELS, *alerts.percents}), value=cost.cost_so_far_usd,
                                 limit=row.estimated_cost_usd, already=done)
    amounts = sorted(usd for usd in set(alerts.amounts_usd)
                     if cost.cost_so_far_usd >= usd and _usd_level(usd) not in marked)
    if crossed or amounts:
        for level in [f"{level:g}" for level in crossed] + [_usd_level(usd) for usd in amounts]:
            mark_reported(session=session, kind=KIND, subject=row.request_id, level=level, now=now,
                          detail={"cost_so_far_usd": cost.cost_so_far_usd})
        asked = [level for level in crossed if level in alerts.percents]
        append_event(session=session, type="job.cost_threshold", actor=ACTOR, request_id=row.request_id, now=now,
                     data=_event_data(row, cost, crossed=crossed, asked=asked, amounts=amounts))
    return cost


def _usd_level(usd: float) -> str:
    return f"{_USD}{usd:.2f}"


def _event_data(row: Job, cost: LiveCost, *, crossed: list[float], asked: list[float],
                amounts: list[float]) -> dict[str, Any]:
    """The note's figures: ``level`` the highest share of the estimate passed (None when only an amount was),
    ``asked`` the shares and ``amounts_usd`` the dollars passed that the requester asked to hear about."""
    share = round(100.0 * cost.cost_so_far_usd / row.estimated_cost_usd) if row.estimated_cost_usd > 0 else None
    return {"job": row.name, "level": _whole(crossed[-1]) if crossed else None, "levels": [_whole(x) for x in crossed],
            "asked": [_whole(x) for x in asked], "amounts_usd": amounts, "share_percent": share,
            "cost_so_far_usd": cost.cost_so_far_usd, "projected_usd": cost.projected_usd,
            "estimated_cost_usd": row.estimated_cost_usd, "ceiling_usd": cost.ceiling_usd,
            "elapsed_hours": cost.elapsed_hours, "basis": cost.basis, "overrun": cost.overrun}


def _whole(level: float) -> float | int:
    """50.0 as 50, as the levels were always told; 12.5 as it is."""
    return int(level) if float(level).is_integer() else level
