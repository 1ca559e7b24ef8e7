"""Cost Explorer anomalies in the team's channel: one monitor per team by its cost-allocation tag, read once a day,
each new anomaly posted once (``anomaly.detected``) with the team's gpuops jobs of those days; a person's
"expected / not expected" goes back to Cost Explorer (ProvideAnomalyFeedback) and onto the feed
(``anomaly.feedback``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from contract.errors import Forbidden, NotFound
from policy.config import PolicyConfig
from policy.membership import Filer, approval_basis
from policy.request import Stage
from service.alerts.budget import team_channel
from service.alerts.marks import mark_reported, reported_levels
from service.audit.chain import append_event
from service.aws.anomalies import Anomaly, create_team_monitor, get_anomalies, provide_feedback
from service.spend.ledger import lock_ledger
from service.store.db import new_session
from service.store.tables import AlertMark, Job, RequestRecord

log = logging.getLogger("gpuops.alerts")
ACTOR = "system:alerts"
LOOKBACK_DAYS = 7
ClientFor = Callable[[], Any]


def _monitor(engine: Engine, client: Any, policy: PolicyConfig, team: str, now: datetime) -> str | None:
    """The team's monitor ARN; None on the day it is created (a new monitor has no anomalies to read yet, and
    the creation is that day's request)."""
    with new_session(engine) as session:
        known = sorted(reported_levels(session=session, kind="anomaly_monitor", subject=team))
    if known:
        return known[0]
    tag = policy.team(team).cost_allocation_tag
    arn = create_team_monitor(client=client, team=team, tag_key=tag.key, tag_value=tag.value or team)
    with new_session(engine) as session:
        mark_reported(session=session, kind="anomaly_monitor", subject=team, level=arn, now=now)
        mark_reported(session=session, kind="anomaly_poll", subject=team, period=now.date().isoformat(),
                      level="created", now=now)
        session.commit()
    return None


def _jobs_between(session: Session, team: str, start: datetime) -> list[dict[str, Any]]:
    rows = session.exec(select(Job, RequestRecord).join(RequestRecord, col(RequestRecord.id) == col(Job.request_id))
                        .where(col(RequestRecord.team) == team, col(Job.dry_run).is_(False),
                               col(Job.updated_at) >= start).order_by(col(Job.id).desc()).limit(5))
    return [{"request_id": job.request_id, "job": job.name, "status": job.status, "requester": record.requester,
             "cost_usd": job.actual_cost_usd if job.actual_cost_usd is not None else job.cost_so_far_usd}
            for job, record in rows]


def _event_data(team: str, policy: PolicyConfig, anomaly: Anomaly, jobs: list[dict[str, Any]]) -> dict[str, Any]:
    return {"team": team, "channel": team_channel(policy, team), "anomaly_id": anomaly.anomaly_id,
            "start": anomaly.start, "end": anomaly.end, "total_impact_usd": anomaly.total_impact_usd,
            "actual_usd": anomaly.actual_usd, "expected_usd": anomaly.expected_usd, "score": anomaly.score,
            "causes": anomaly.causes, "jobs": jobs}


def watch_team(*, engine: Engine, client: Any, policy: PolicyConfig, team: str, now: datetime) -> int:
    """Read the team's anomalies (once a day) and post the new ones; how many were new."""
    day = now.date().isoformat()
    with new_session(engine) as session:
        if reported_levels(session=session, kind="anomaly_poll", subject=team, period=day):
            return 0
    arn = _monitor(engine, client, policy, team, now)
    if arn is None:
        return 0
    found = get_anomalies(client=client, monitor_arn=arn, start=now.date() - timedelta(days=LOOKBACK_DAYS),
                          end=now.date())
    new = 0
    with new_session(engine) as session:
        lock_ledger(session=session)
        if reported_levels(session=session, kind="anomaly_poll", subject=team, period=day):
            session.rollback()
            return 0
        seen = reported_levels(session=session, kind="anomaly", subject=team)
        jobs = _jobs_between(session, team, now - timedelta(days=LOOKBACK_DAYS))
        for anomaly in found:
            if anomaly.anomaly_id in seen or anomaly.feedback is not None:
                continue
            mark_reported(session=session, kind="anomaly", subject=team, level=anomaly.anomaly_id, now=now)
            append_event(session=session, type="anomaly.detected", actor=ACTOR, now=now,
                         data=_event_data(team, policy, anomaly, jobs))
            new += 1
        mark_reported(session=session, kind="anomaly_poll", subject=team, period=day, level="read", now=now)
        session.commit()
    return new


def watch_anomalies(*, engine: Engine, client_for: ClientFor, policy: PolicyConfig, now: datetime) -> int:
    """Every team once a day; how many anomalies were new."""
    return sum(watch_team(engine=engine, client=client_for(), policy=policy, team=team, now=now)
               for team in sorted(policy.teams))


def _team_of(session: Session, anomaly_id: str) -> str:
    row = session.exec(select(AlertMark).where(col(AlertMark.kind) == "anomaly",
                                               col(AlertMark.level) == anomaly_id)).first()
    if row is None:
        raise NotFound(f"anomaly {anomaly_id!r} was not reported by gpuops")
    return row.subject


def record_feedback(*, engine: Engine, client_for: ClientFor, policy: PolicyConfig, anomaly_id: str, verdict: str,
                    person: Filer, is_admin: bool, now: datetime) -> str:
    """Send a person's verdict to Cost Explorer and record it; returns the anomaly's team.

    Only an approver of the team at any stage (by id, or through the Slack user group or e-mail the bot vouched for
    in ``person``) or an admin may answer for it. No transaction is held while AWS is called.
    """
    actor = person.actor
    with new_session(engine) as session:
        team = _team_of(session, anomaly_id)
    if not is_admin and all(approval_basis(policy, team=team, stage=stage, person=person) is None for stage in Stage):
        raise Forbidden(f"only an approver of {team} or an admin can say whether its spend was expected",
                        code="not_allowed_to_answer")
    provide_feedback(client=client_for(), anomaly_id=anomaly_id, verdict=verdict)
    with new_session(engine) as session:
        append_event(session=session, type="anomaly.feedback", actor=actor, now=now,
                     data={"team": team, "channel": team_channel(policy, team), "anomaly_id": anomaly_id,
                           "verdict": verdict, "by": actor})
        session.commit()
    return team
