"""The audit log: append-only and hash-chained, so that editing or deleting a row shows.

Each event's hash is sha256 over the canonical JSON of its fields and the previous event's hash. Appends lock the
single ``audit_head`` row (``SELECT … FOR UPDATE``; SQLite transactions are already serialised), so concurrent
transactions never fork the chain and ``seq`` is assigned in commit order — which is what lets the events feed use
``seq`` as a gap-free cursor.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from policy.decision import canonical_json as canonical_json
from service.clock import utcnow
from service.store.tables import AuditEvent, AuditHead

GENESIS_HASH = "0" * 64


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_hash(
    *, seq: int, request_id: str | None, type: str, actor: str, data: dict[str, Any], created_at: datetime,
    prev_hash: str,
) -> str:
    """The hash an event row must carry."""
    fields = {
        "seq": seq, "request_id": request_id, "type": type, "actor": actor, "data": data,
        "created_at": _iso(created_at), "prev_hash": prev_hash,
    }
    return hashlib.sha256(canonical_json(fields).encode("utf-8")).hexdigest()


def row_hash(event: AuditEvent) -> str:
    return event_hash(
        seq=event.seq, request_id=event.request_id, type=event.type, actor=event.actor, data=event.data,
        created_at=event.created_at, prev_hash=event.prev_hash,
    )


def _tables() -> tuple[sa.Table, sa.Table]:
    events: sa.Table = AuditEvent.__table__  # type: ignore[attr-defined]
    head: sa.Table = AuditHead.__table__  # type: ignore[attr-defined]
    return events, head


@dataclass(frozen=True)
class NewEvent:
    """An event to append: what happened, to which request, by whom."""

    type: str
    actor: str
    request_id: str | None = None
    data: dict[str, Any] | None = None


def append_events(*, session: Session, events: list[NewEvent], now: datetime | None = None) -> list[AuditEvent]:
    """Append events to the chain, in order, inside the caller's transaction.

    Plain statements rather than the unit of work, one of each kind however many events: this runs while the chain
    head is locked, so it stays short.
    """
    session.flush()  # the caller's pending rows first: the events may refer to them
    table, head = _tables()
    seq, prev = session.execute(sa.select(head.c.seq, head.c.hash).where(head.c.id == 1).with_for_update()).one()
    created_at = (now or utcnow()).astimezone(UTC)
    rows: list[AuditEvent] = []
    for new in events:
        seq += 1
        plain = json.loads(canonical_json(new.data or {}))  # what the database will give back
        event = AuditEvent(seq=seq, request_id=new.request_id, type=new.type, actor=new.actor, data=plain,
                           created_at=created_at, prev_hash=prev, hash="")
        event.hash = prev = row_hash(event)
        rows.append(event)
    session.execute(sa.insert(table), [
        {"seq": e.seq, "request_id": e.request_id, "type": e.type, "actor": e.actor, "data": e.data,
         "created_at": e.created_at, "prev_hash": e.prev_hash, "hash": e.hash} for e in rows
    ])
    session.execute(sa.update(head).where(head.c.id == 1).values(seq=seq, hash=prev))
    return rows


def append_event(
    *, session: Session, type: str, actor: str, request_id: str | None = None, data: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> AuditEvent:
    """Append one event to the chain inside the caller's transaction."""
    new = NewEvent(type=type, actor=actor, request_id=request_id, data=data)
    return append_events(session=session, events=[new], now=now)[0]


def events_for_request(*, session: Session, request_id: str) -> list[AuditEvent]:
    statement = select(AuditEvent).where(AuditEvent.request_id == request_id).order_by(col(AuditEvent.seq))
    return list(session.exec(statement))


@dataclass(frozen=True)
class ChainReport:
    """The outcome of walking the chain: ``broken_seq`` is the first bad link, None when intact."""

    checked: int
    head_seq: int
    broken_seq: int | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.broken_seq is None


def _check_row(event: AuditEvent, *, expected_seq: int, expected_prev: str) -> str | None:
    if event.seq != expected_seq:
        return f"expected event {expected_seq} next but found {event.seq}: events are missing"
    if event.prev_hash != expected_prev:
        return "prev_hash does not match the hash of the event before it"
    if row_hash(event) != event.hash:
        return "the row's contents do not match its hash: it was altered"
    return None


def verify_chain(*, session: Session, batch: int = 1000) -> ChainReport:
    """Walk the whole chain in order and report the first broken link."""
    fresh = {"populate_existing": True}  # compare what is stored, not what this session remembers
    head = session.exec(select(AuditHead).where(AuditHead.id == 1).execution_options(**fresh)).one()
    expected_seq, expected_prev, checked = 1, GENESIS_HASH, 0
    while True:
        statement = (
            select(AuditEvent).where(AuditEvent.seq >= expected_seq).order_by(col(AuditEvent.seq)).limit(batch)
            .execution_options(**fresh)
        )
        rows = list(session.exec(statement))
        for event in rows:
            reason = _check_row(event, expected_seq=expected_seq, expected_prev=expected_prev)
            if reason:
                return ChainReport(checked=checked, head_seq=head.seq, broken_seq=event.seq, reason=reason)
            expected_seq, expected_prev, checked = event.seq + 1, event.hash, checked + 1
        if len(rows) < batch:
            break
    if head.seq != expected_seq - 1 or head.hash != expected_prev:
        return ChainReport(
            checked=checked, head_seq=head.seq, broken_seq=expected_seq,
            reason=f"the chain head says {head.seq} events but {expected_seq - 1} were found: events were removed",
        )
    return ChainReport(checked=checked, head_seq=head.seq)
