"""Commitment advice, monthly per team: the steady baseline of its on-demand SageMaker job hours over three months
(from gpuops' own jobs), the seed rule's Savings Plan against Cost Explorer's SAGEMAKER_SP recommendation, the
break-even and the risk, posted to the team's channel as a recommendation (``commitment.advice``). Never bought.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, col

from contract.errors import UpstreamError
from policy.commitment import BASELINE_PERCENTILE, evaluate_commitment, percentile, seed_commitment
from policy.config import PolicyConfig
from policy.decision import Plan, Platform, PurchaseModel
from policy.rules import SAVINGS_PLAN_BASELINE
from service.alerts.budget import team_channel
from service.alerts.marks import mark_reported, reported_levels
from service.audit.chain import append_event
from service.aws.savingsplans import SavingsPlanRecommendation
from service.launch.protocol import JobState
from service.spend.ledger import lock_ledger
from service.store.db import new_session
from service.store.tables import Job, PlanRevision, RequestRecord

log = logging.getLogger("gpuops.alerts")
ACTOR = "system:alerts"
KIND = "commitment"
HISTORY_DAYS = 90
# Savings Plans for SageMaker cover on-demand ml.* usage; spot, capacity blocks, EKS and EC2 jobs are not eligible.
ELIGIBLE_PLATFORMS = (Platform.SAGEMAKER, Platform.HYPERPOD)
Recommend = Callable[[], SavingsPlanRecommendation | None]


def hourly_on_demand_usage(*, session: Session, team: str, start: datetime, end: datetime) -> list[float]:
    """The team's eligible on-demand spend per hour from ``start`` to ``end`` (each job spread over its hours)."""
    hours = int((end - start).total_seconds() // 3600)
    usage = [0.0] * hours
    rows = session.execute(
        sa.select(Job, col(PlanRevision.decision))
        .join(RequestRecord, col(RequestRecord.id) == col(Job.request_id))
        .join(PlanRevision, sa.and_(col(PlanRevision.request_id) == col(Job.request_id),
                                    col(PlanRevision.revision) == col(Job.revision)))
        .where(col(RequestRecord.team) == team, col(Job.dry_run).is_(False), col(Job.updated_at) >= start)
    ).all()
    for job, decision in rows:
        plan = Plan.model_validate(decision["plan"])
        if plan.purchase_model is not PurchaseModel.ON_DEMAND or plan.platform not in ELIGIBLE_PLATFORMS:
            continue
        began = max(job.started_at or job.created_at, start)
        ended = min(end, job.updated_at if job.status not in (JobState.RUNNING, JobState.STOPPING) else end)
        rate = plan.instance_count * plan.price_per_instance_hour_usd
        _spread(usage, start=start, began=began, ended=ended, rate=rate)
    return usage


def _spread(usage: list[float], *, start: datetime, began: datetime, ended: datetime, rate: float) -> None:
    moment = began
    while moment < ended:
        index = int((moment - start).total_seconds() // 3600)
        if index >= len(usage):
            return
        boundary = start + timedelta(hours=index + 1)
        step = min(boundary, ended)
        usage[index] += rate * (step - moment).total_seconds() / 3600.0
        moment = step


def commitment_advice(*, usage: list[float], recommendation: SavingsPlanRecommendation | None) -> dict[str, Any]:
    """The advice's figures: the baseline, the seed rule's plan and Cost Explorer's, with break-even and risk."""
    baseline = percentile(usage, BASELINE_PERCENTILE)
    advice: dict[str, Any] = {
        "hours": len(usage), "baseline_per_hour_usd": round(baseline, 2),
        "average_per_hour_usd": round(sum(usage) / len(usage), 2) if usage else 0.0,
        "percentile": BASELINE_PERCENTILE, "seed": None, "aws": None, "rule": SAVINGS_PLAN_BASELINE,
    }
    if recommendation is not None:
        advice["aws"] = {"term": recommendation.term, "payment": recommendation.payment,
                         "lookback_days": recommendation.lookback_days,
                         "hourly_commitment_usd": recommendation.hourly_commitment_usd,
                         "estimated_savings_percent": recommendation.estimated_savings_percent,
                         "estimated_monthly_savings_usd": recommendation.estimated_monthly_savings_usd,
                         "estimated_utilisation_percent": recommendation.estimated_utilisation_percent}
    discount = recommendation.discount if recommendation is not None else None
    if discount is not None and baseline > 0:
        commit = seed_commitment(hourly_on_demand_usd=usage, discount=discount)
        outcome = evaluate_commitment(hourly_on_demand_usd=usage, commitment_per_hour_usd=commit, discount=discount)
        advice["seed"] = {**outcome.model_dump(), "savings_usd": outcome.savings_usd,
                          "savings_per_month_usd": outcome.savings_per_month_usd,
                          "yearly_commitment_usd": round(commit * 8760, 2)}
    advice["discount"] = discount
    return advice


def advise_commitments(*, engine: Engine, policy: PolicyConfig, recommend: Recommend, now: datetime) -> int:
    """Once a month per team: post the advice; how many teams were advised. Cost Explorer is asked only when some
    team has not had this month's advice yet."""
    period = now.astimezone(UTC).strftime("%Y-%m")
    with new_session(engine) as session:
        due = [t for t in sorted(policy.teams)
               if not reported_levels(session=session, kind=KIND, subject=t, period=period)]
    if not due:
        return 0
    try:
        recommendation, aws_error = recommend(), None
    except UpstreamError as exc:  # advise on gpuops' own hours, say why AWS's figure is missing; no retry loop
        recommendation, aws_error = None, exc.message
    end = now.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    start = end - timedelta(days=HISTORY_DAYS)
    advised = 0
    with new_session(engine) as session:
        lock_ledger(session=session)
        for team in due:
            if reported_levels(session=session, kind=KIND, subject=team, period=period):
                continue
            usage = hourly_on_demand_usage(session=session, team=team, start=start, end=end)
            if not any(usage):  # no eligible hours: nothing to advise this month, and nothing said
                mark_reported(session=session, kind=KIND, subject=team, period=period, level="none", now=now)
                continue
            data = {"team": team, "channel": team_channel(policy, team), "month": period, "aws_error": aws_error,
                    **commitment_advice(usage=usage, recommendation=recommendation)}
            mark_reported(session=session, kind=KIND, subject=team, period=period, level="advice", now=now)
            append_event(session=session, type="commitment.advice", actor=ACTOR, now=now, data=data)
            advised += 1
        session.commit()
    return advised
