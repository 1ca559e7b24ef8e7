"""Daily digest claims: exactly one bot replica posts each channel's digest for a date.

A claim is a ``digest_run`` row (unique per channel and date). A failed run, or a claim left unfinished longer than
``STALE_CLAIM`` (its replica died), can be claimed again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from contract.errors import Conflict, NotFound
from service.store.tables import DigestRun

STALE_CLAIM = timedelta(minutes=15)


def _run(session: Session, channel: str, date: str, *, lock: bool = False) -> DigestRun | None:
    statement = select(DigestRun).where(DigestRun.channel == channel, DigestRun.date == date)
    return session.exec(statement.with_for_update() if lock else statement).first()


def claim_digest(*, session: Session, channel: str, date: str, team: str, actor: str, now: datetime) -> DigestRun:
    """Claim the digest of ``channel`` for ``date``; Conflict when another replica has or had it."""
    run = _run(session, channel, date, lock=True)
    if run is None:
        run = DigestRun(channel=channel, date=date, team=team, claimed_by=actor, claimed_at=now)
        session.add(run)
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            raise Conflict("another replica claimed this digest", current_state="claimed") from None
    elif run.status == "failed" or (run.status == "claimed" and now - run.claimed_at > STALE_CLAIM):
        run.status, run.claimed_by, run.claimed_at, run.finished_at, run.detail = "claimed", actor, now, None, None
        session.add(run)
    else:
        raise Conflict(f"the digest for {channel} on {date} is {run.status}", current_state=run.status)
    session.commit()
    return run


def finish_digest(*, session: Session, channel: str, date: str, ok: bool, detail: str | None, now: datetime) -> None:
    """Record how a claimed digest run ended."""
    run = _run(session, channel, date, lock=True)
    if run is None:
        raise NotFound(f"no digest claim for {channel} on {date}")
    run.status, run.detail, run.finished_at = ("done" if ok else "failed"), detail, now
    session.add(run)
    session.commit()
