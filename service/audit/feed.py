"""The events feed: the audit chain read in ``seq`` order, and the cursors its consumers keep here.

``seq`` is assigned under the chain-head lock, so it grows in commit order: a consumer that resumes after the last
``seq`` it handled misses nothing (at-least-once: it may see an event again if it stopped before saving its cursor).
"""

from __future__ import annotations

import re
from datetime import datetime

from sqlmodel import Session, col, select

from contract.errors import NotFound
from contract.events import FEED_CURSOR_PATTERN, EventPage, EventPublic
from policy.errors import RequestError
from service.store.tables import AuditEvent, ConsumerCursor

FEED_CURSOR = re.compile(FEED_CURSOR_PATTERN)


def parse_feed_cursor(cursor: str | None) -> int:
    if cursor is None or cursor == "":
        return 0
    if not FEED_CURSOR.match(cursor):  # str.isdigit() also takes "²", which int() refuses
        raise RequestError("cursor must be a next_cursor this feed returned", code="invalid_cursor")
    return int(cursor)


def list_events(*, session: Session, after: str | None, limit: int) -> EventPage:
    """Events after ``after``, oldest first; ``next_cursor`` is where to resume (unchanged when nothing is new)."""
    start = parse_feed_cursor(after)
    statement = select(AuditEvent).where(AuditEvent.seq > start).order_by(col(AuditEvent.seq)).limit(limit)
    rows = list(session.exec(statement))
    items = [
        EventPublic(id=e.seq, cursor=str(e.seq), type=e.type, request_id=e.request_id, created_at=e.created_at,
                    data=e.data)
        for e in rows
    ]
    return EventPage(items=items, next_cursor=str(rows[-1].seq if rows else start))


def get_cursor(*, session: Session, consumer: str) -> ConsumerCursor:
    row = session.get(ConsumerCursor, consumer)
    if row is None:
        raise NotFound(f"consumer {consumer!r} has not saved a cursor yet")
    return row


def put_cursor(*, session: Session, consumer: str, cursor: str, now: datetime) -> None:
    """Save where ``consumer`` is in the feed (last write wins)."""
    parse_feed_cursor(cursor)
    row = session.exec(select(ConsumerCursor).where(ConsumerCursor.consumer == consumer).with_for_update()).first()
    if row is None:
        row = ConsumerCursor(consumer=consumer, cursor=cursor, updated_at=now)
    else:
        row.cursor, row.updated_at = cursor, now
    session.add(row)
    session.commit()
