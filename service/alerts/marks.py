"""Which alert levels were already reported, so that each is said once, across restarts and replicas.

Callers check and mark while holding a lock that orders them (the request row for a job's levels, the audit chain's
head for a team's), so two workers never both report the same level; the unique constraint backs that up.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from service.store.tables import AlertMark


def reported_levels(*, session: Session, kind: str, subject: str, period: str = "") -> set[str]:
    """The levels of ``kind`` already reported for ``subject`` in ``period``."""
    query = select(AlertMark.level).where(col(AlertMark.kind) == kind, col(AlertMark.subject) == subject,
                                          col(AlertMark.period) == period)
    return set(session.exec(query).all())


def mark_reported(*, session: Session, kind: str, subject: str, level: str, now: datetime, period: str = "",
                  detail: dict[str, Any] | None = None) -> None:
    """Record that ``level`` was reported (in the caller's transaction, with the event that reports it)."""
    session.add(AlertMark(kind=kind, subject=subject, period=period, level=level, detail=detail or {},
                          created_at=now))
