"""The budget ledger: what gpuops itself has let loose on a team's month, read under the write lock.

Beside what AWS has billed (Cost Explorer or a file), a team's room holds what gpuops has approved:

- running: jobs launching or running, at what they may still bill (their approved exposure less what they have
  cost so far);
- reserved: plans approved or approved automatically and not launched yet, at their exposure, until they launch,
  are vetoed, withdrawn or cancelled;
- auto-approved today (UTC), per requester and per team, for the policy's daily caps.

``read_ledger`` runs while the transaction holds the chain-head row lock that every write takes (Postgres
``SELECT … FOR UPDATE``; SQLite's ``BEGIN IMMEDIATE`` serialises writers already), so two requests filed at the same
moment never both count the same room: the second reads the first's reservation.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

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
    session.execute(sa.select(col(AuditHead.seq)).where(col(AuditHead.id) == 1).with_for_update()).one()


def read_ledger(*, session: Session, team: str, requester: str, now: datetime) -> Ledger:
    """The team's running and reserved exposure and today's automatic approvals; call under ``lock_ledger``."""
    current = (
        select(RequestRecord.status, PlanRevision.decision, Job.actual_cost_usd)
        .join(PlanRevision, sa.and_(col(PlanRevision.request_id) == col(RequestRecord.id),
                                    col(PlanRevision.revision) == col(RequestRecord.revision)))
        .outerjoin(Job, col(Job.request_id) == col(RequestRecord.id))
        .where(col(RequestRecord.team) == team, col(RequestRecord.status).in_([s.value for s in LIVE + RESERVED]))
    )
    running = reserved = 0.0
    for status, decision, actual in session.exec(current):
        if status in RESERVED:
            reserved += judged_usd(decision)
        else:
            running += max(0.0, judged_usd(decision) - (actual or 0.0))
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    automatic = (
        select(RequestRecord.requester, PlanRevision.decision)
        .join(PlanRevision, col(PlanRevision.request_id) == col(RequestRecord.id))
        .where(col(RequestRecord.team) == team, col(PlanRevision.approvals_needed) == 0,
               col(PlanRevision.denied).is_(False), col(PlanRevision.created_at) >= day)
    )
    by_team = by_requester = 0.0
    for who, decision in session.exec(automatic):
        amount = judged_usd(decision)
        by_team += amount
        by_requester += amount if who == requester else 0.0
    return Ledger(running_usd=round(running, 2), reserved_usd=round(reserved, 2),
                  auto_approved_today_by_requester_usd=round(by_requester, 2),
                  auto_approved_today_by_team_usd=round(by_team, 2))
