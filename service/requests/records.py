"""Reading and locking request rows, and expiring the ones whose approval window has closed."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

from sqlmodel import Session, col, select

from contract.errors import NotFound
from contract.status import RequestStatus
from policy.errors import RequestError
from service.requests.states import transition
from service.store.tables import PlanRevision, RequestRecord

EXPIRY_ACTOR = "system:expiry"


def get_request(*, session: Session, request_id: str) -> RequestRecord | None:
    return session.get(RequestRecord, request_id)


def get_request_or_raise(*, session: Session, request_id: str, lock: bool = False) -> RequestRecord:
    """The request row (locked ``FOR UPDATE`` when ``lock``); NotFound for an unknown id."""
    statement = select(RequestRecord).where(RequestRecord.id == request_id)
    if lock:
        statement = statement.with_for_update().execution_options(populate_existing=True)
    record = session.exec(statement).first()
    if record is None:
        raise NotFound(f"no request {request_id!r}")
    return record


def get_revision(*, session: Session, request_id: str, revision: int) -> PlanRevision:
    statement = select(PlanRevision).where(PlanRevision.request_id == request_id, PlanRevision.revision == revision)
    row = session.exec(statement).first()
    if row is None:
        raise NotFound(f"request {request_id!r} has no revision {revision}")
    return row


def is_overdue(record: RequestRecord, *, now: datetime) -> bool:
    return (record.status == RequestStatus.PENDING_APPROVAL and record.expires_at is not None
            and record.expires_at <= now)


def expire_if_due(*, session: Session, record: RequestRecord, now: datetime) -> bool:
    """Expire a locked pending request past its window; True when it did (the caller commits)."""
    if not is_overdue(record, now=now):
        return False
    transition(session=session, record=record, to=RequestStatus.EXPIRED, actor=EXPIRY_ACTOR, now=now,
               data={"expires_at": record.expires_at.isoformat() if record.expires_at else None})
    return True


def read_request(*, session: Session, request_id: str, now: datetime) -> RequestRecord:
    """The request as of ``now``: a pending one past its window is expired first (lazily, on read)."""
    record = get_request_or_raise(session=session, request_id=request_id)
    if is_overdue(record, now=now):
        record = get_request_or_raise(session=session, request_id=request_id, lock=True)
        if expire_if_due(session=session, record=record, now=now):
            session.commit()
    return record


def expire_overdue(*, session: Session, now: datetime, limit: int = 200) -> int:
    """Expire pending requests past their window (the periodic sweep; safe on every replica at once)."""
    statement = (
        select(RequestRecord)
        .where(RequestRecord.status == RequestStatus.PENDING_APPROVAL, col(RequestRecord.expires_at) <= now)
        .order_by(col(RequestRecord.expires_at))
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    expired = 0
    for record in session.exec(statement).all():
        expired += expire_if_due(session=session, record=record, now=now)
    session.commit()
    return expired


def encode_cursor(record: RequestRecord) -> str:
    raw = json.dumps([record.created_at.isoformat(), record.id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created, request_id = json.loads(raw)
        moment = datetime.fromisoformat(created)
        # A NUL would reach Postgres in the keyset query, which cannot compare text holding one.
        if moment.tzinfo is None or not isinstance(request_id, str) or "\x00" in request_id:
            raise ValueError("bad cursor")
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise RequestError("cursor is not one this service returned", code="invalid_cursor") from None
    return moment, request_id


def list_requests(
    *, session: Session, status: str | None = None, team: str | None = None, requester: str | None = None,
    limit: int = 50, cursor: str | None = None,
) -> tuple[list[RequestRecord], str | None]:
    """Newest first, keyset-paginated; returns the page and the cursor of the next one (None at the end)."""
    # A request never planned (waiting for answers) has no plan to list: it is read by id (GET /v1/requests/{id}).
    statement = select(RequestRecord).where(col(RequestRecord.revision) > 0)
    if status:
        statement = statement.where(RequestRecord.status == status)
    if team:
        statement = statement.where(RequestRecord.team == team)
    if requester:
        statement = statement.where(RequestRecord.requester == requester)
    if cursor:
        created, request_id = decode_cursor(cursor)
        statement = statement.where(
            (col(RequestRecord.created_at) < created)
            | ((col(RequestRecord.created_at) == created) & (col(RequestRecord.id) < request_id))
        )
    statement = statement.order_by(col(RequestRecord.created_at).desc(), col(RequestRecord.id).desc())
    rows = list(session.exec(statement.limit(limit + 1)))
    page = rows[:limit]
    return page, (encode_cursor(page[-1]) if len(rows) > limit else None)
