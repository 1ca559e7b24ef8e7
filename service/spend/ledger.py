"""The budget ledger: what gpuops itself has let loose on a team's month, read under the write lock.

Beside what AWS has billed (Cost Explorer or a file), a team's room holds what gpuops has approved:

- running: jobs launching or running, at what they may still bill (their approved exposure less what they have
  cost so far: the tracker's live figure, refreshed every round; what they have already billed is the spend
  provider's ``committed_usd`` until Cost Explorer reports it);
- reserved: plans approved or approved automatically and not launched yet, at their exposure, until they launch,
  are vetoed, withdrawn or cancelled;
- auto-approved today (UTC), per requester and per team, for the policy's daily caps.

``read_ledger`` runs while the transaction holds the chain-head row lock that every write takes (Postgres
``SELECT … FOR UPDATE``; SQLite's ``BEGIN IMMEDIATE`` serialises writers already), so two requests filed at the same
moment never both count the same room: the second reads the first's reservation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col

from contract.status import RequestStatus
from policy.spend import Ledger
from service.store.tables import AuditHead, Job, PlanRevision, RequestRecord

LIVE = (RequestStatus.LAUNCHING, RequestStatus.RUNNING)
RESERVED = (RequestStatus.APPROVED, RequestStatus.AUTO_APPROVED)


def judged_usd(decision: Mapping[str, Any]) -> float:
    """What an approval of this stored decision lets loose: the larger of its estimate and its exposure."""
    plan = decision.get("plan") or {}
    estimate = float(plan.get("estimated_cost_usd") or 0.0)
    return max(estimate, float(plan.get("exposure_usd") or 0.0))


def lock_ledger(*, session: Session) -> None:
    """Take the write lock the ledger is read under (the audit chain's head row, which every write takes anyway)."""
    session.execute(_statements().lock).one()


def read_ledger(*, session: Session, team: str, requester: str, now: datetime) -> Ledger:
    """The team's running and reserved exposure and today's automatic approvals; call under ``lock_ledger``.

    Sums in SQL over the stored ``judged_usd`` (the estimate for rows written before it). Both sums are found by
    index (``ix_training_request_status_team``, ``ix_plan_revision_automatic``): the team's requests in flight and
    the day's automatic approvals, never the team's finished history, so the time under the lock stays flat however
    many requests the team has filed.
    """
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    statements = _statements()
    row = session.execute(statements.exposure, {"team": team}).one()
    automatic = session.execute(statements.automatic, {"team": team, "requester": requester, "day": day}).one()
    return Ledger(running_usd=round(float(row[0]), 2), reserved_usd=round(float(row[1]), 2),
                  auto_approved_today_by_requester_usd=round(float(automatic[1]), 2),
                  auto_approved_today_by_team_usd=round(float(automatic[0]), 2))


@dataclass(frozen=True)
class _Statements:
    lock: sa.Select[int]
    exposure: sa.Select[float, float]  # running, reserved: of the team (bound: team)
    automatic: sa.Select[float, float]  # approved automatically since the day began: by the team, by the
    # requester (bound: team, requester, day)


@cache
def _statements() -> _Statements:
    """The ledger's statements, built once with their values bound at execution: building them costs more CPU than
    running them, and this runs under the write lock on every filing."""
    team: sa.BindParameter[str] = sa.bindparam("team")
    requester: sa.BindParameter[str] = sa.bindparam("requester")
    day: sa.BindParameter[datetime] = sa.bindparam("day")
    judged = sa.func.coalesce(col(PlanRevision.judged_usd), col(PlanRevision.estimated_cost_usd))
    remaining = judged - sa.func.coalesce(col(Job.actual_cost_usd), col(Job.cost_so_far_usd), 0.0)
    current = sa.and_(col(PlanRevision.request_id) == col(RequestRecord.id),
                      col(PlanRevision.revision) == col(RequestRecord.revision))
    live = [s.value for s in LIVE]
    exposure = (
        sa.select(
            sa.func.coalesce(sa.func.sum(sa.case((col(RequestRecord.status).in_(live),
                                                  sa.case((remaining > 0, remaining), else_=0.0)), else_=0.0)), 0.0),
            sa.func.coalesce(sa.func.sum(sa.case((col(RequestRecord.status).in_(live), 0.0), else_=judged)), 0.0),
        )
        .select_from(RequestRecord).join(PlanRevision, current)
        .outerjoin(Job, col(Job.request_id) == col(RequestRecord.id))
        .where(col(RequestRecord.team) == team, col(RequestRecord.status).in_([s.value for s in LIVE + RESERVED]))
    )
    automatic = (
        sa.select(
            sa.func.coalesce(sa.func.sum(judged), 0.0),
            sa.func.coalesce(sa.func.sum(sa.case((col(RequestRecord.requester) == requester, judged), else_=0.0)), 0.0),
        )
        .select_from(PlanRevision).join(RequestRecord, col(RequestRecord.id) == col(PlanRevision.request_id))
        .where(col(PlanRevision.approvals_needed) == 0, col(PlanRevision.created_at) >= day,
               col(PlanRevision.denied).is_(False), col(RequestRecord.team) == team)
    )
    lock = sa.select(col(AuditHead.seq)).where(col(AuditHead.id) == 1).with_for_update()
    return _Statements(lock=lock, exposure=exposure, automatic=automatic)
