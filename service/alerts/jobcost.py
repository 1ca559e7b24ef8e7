"""A running job's live cost: refreshed on its row each tracker round, and told in its thread once it passes
50, 100 and 150% of the approved estimate (each level once, remembered in ``alert_mark``)."""

from __future__ import annotations

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
                     now: datetime) -> LiveCost:
    """Store the live figures on the job row and report newly passed levels; call holding the request's lock."""
    cost = job_live_cost(row=row, plan=plan, progress=progress, billing_price=billing_price, now=now)
    row.cost_so_far_usd, row.projected_cost_usd, row.cost_as_of = cost.cost_so_far_usd, cost.projected_usd, now
    starts = [p.started_at for p in progress if p.started_at is not None]
    row.started_at = min(starts) if starts else row.started_at
    done = {int(level) for level in reported_levels(session=session, kind=KIND, subject=row.request_id)}
    crossed = thresholds_crossed(levels=JOB_COST_LEVELS, value=cost.cost_so_far_usd, limit=row.estimated_cost_usd,
                                 already=done)
    if crossed:
        for level in crossed:
            mark_reported(session=session, kind=KIND, subject=row.request_id, level=str(level), now=now,
                          detail={"cost_so_far_usd": cost.cost_so_far_usd})
        append_event(session=session, type="job.cost_threshold", actor=ACTOR, request_id=row.request_id, now=now,
                     data=_event_data(row, cost, level=crossed[-1], crossed=crossed))
    return cost


def _event_data(row: Job, cost: LiveCost, *, level: int, crossed: list[int]) -> dict[str, Any]:
    return {"job": row.name, "level": level, "levels": crossed, "cost_so_far_usd": cost.cost_so_far_usd,
            "projected_usd": cost.projected_usd, "estimated_cost_usd": row.estimated_cost_usd,
            "ceiling_usd": cost.ceiling_usd, "elapsed_hours": cost.elapsed_hours, "basis": cost.basis,
            "overrun": cost.overrun}
