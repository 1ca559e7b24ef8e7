"""The audit log: append-only and chained with a keyed hash, so that editing, forging or deleting a row shows.

Each event's hash is HMAC-SHA256, under the key whose id the event records, over the canonical JSON of its fields
and the previous event's hash: without the key nobody can re-hash an altered chain. Events written before the
chain was keyed carry no key id and a plain sha256 of the same fields; they verify as unkeyed, and an unkeyed event
after a keyed one is a forgery. A chain cut short at its end is caught against a published head
(``service.audit.anchors``). Appends lock the
single ``audit_head`` row (``SELECT … FOR UPDATE``; SQLite transactions are already serialised), so concurrent
transactions never fork the chain and ``seq`` is assigned in commit order — which is what lets the events feed use
``seq`` as a gap-free cursor.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from policy.decision import canonical_json
from service.audit.keys import AuditKeyring, keyring_for
from service.clock import utcnow
from service.store.tables import AuditEvent, AuditHead

GENESIS_HASH = "0" * 64


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_hash(
    *, seq: int, request_id: str | None, type: str, actor: str, data: dict[str, Any], created_at: datetime,
    prev_hash: str, key_id: str | None = None, keyring: AuditKeyring | None = None,
) -> str:
    """The hash an event row must carry: keyed under ``key_id`` from ``keyring``, plain sha256 without a key id.

    The key id is part of what is signed, so relabelling an event with another key breaks it.
    """
    fields: dict[str, Any] = {
        "seq": seq, "request_id": request_id, "type": type, "actor": actor, "data": data,
        "created_at": _iso(created_at), "prev_hash": prev_hash,
    }
    if key_id is None:
        return hashlib.sha256(canonical_json(fields).encode("utf-8")).hexdigest()
    if keyring is None:
        raise ValueError("a keyed event needs the keyring to hash it")
    return keyring.sign(canonical_json({**fields, "key_id": key_id}).encode("utf-8"), with_key=key_id)


def row_hash(event: AuditEvent, *, keyring: AuditKeyring | None) -> str:
    return event_hash(
        seq=event.seq, request_id=event.request_id, type=event.type, actor=event.actor, data=event.data,
        created_at=event.created_at, prev_hash=event.prev_hash, key_id=event.key_id, keyring=keyring,
    )


def _tables() -> tuple[sa.Table, sa.Table]:
    events: sa.Table = AuditEvent.__table__  # type: ignore[attr-defined]
    head: sa.Table = AuditHead.__table__  # type: ignore[attr-defined]
    return events, head


@dataclass(frozen=True)
class _Statements:
    head: sa.Select[int, str]  # the chain head, locked
    insert: sa.Insert
    advance: sa.Update  # the head moved on (bound: new_seq, new_hash)


@cache
def _statements() -> _Statements:
    """An append's statements, built once: this runs under the chain-head lock on every write."""
    table, head = _tables()
    return _Statements(
        head=sa.select(head.c.seq, head.c.hash).where(head.c.id == 1).with_for_update(),
        insert=sa.insert(table),
        advance=sa.update(head).where(head.c.id == 1).values(seq=sa.bindparam("new_seq"),
                                                             hash=sa.bindparam("new_hash")),
    )


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
    keyring = keyring_for(session)
    statements = _statements()
    seq, prev = session.execute(statements.head).one()
    created_at = (now or utcnow()).astimezone(UTC)
    rows: list[AuditEvent] = []
    for new in events:
        seq += 1
        plain = json.loads(canonical_json(new.data or {}))  # what the database will give back
        event = AuditEvent(seq=seq, request_id=new.request_id, type=new.type, actor=new.actor, data=plain,
                           created_at=created_at, prev_hash=prev, hash="", key_id=keyring.current_id)
        event.hash = prev = row_hash(event, keyring=keyring)
        rows.append(event)
    session.execute(statements.insert, [
        {"seq": e.seq, "request_id": e.request_id, "type": e.type, "actor": e.actor, "data": e.data,
         "created_at": e.created_at, "prev_hash": e.prev_hash, "hash": e.hash, "key_id": e.key_id} for e in rows
    ])
    session.execute(statements.advance, {"new_seq": seq, "new_hash": prev})
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
    """The outcome of walking the chain: ``broken_seq`` is the first bad link, None when intact.

    ``unkeyed`` counts the events from before the chain was keyed; ``unkeyed_until`` is when the last was written.
    """

    checked: int
    head_seq: int
    head_hash: str = GENESIS_HASH
    broken_seq: int | None = None
    reason: str | None = None
    unkeyed: int = 0
    unkeyed_until: datetime | None = None

    @property
    def ok(self) -> bool:
        return self.broken_seq is None


@dataclass
class _Walk:
    """Where the walk has got to: the next link it expects and what it has seen so far."""

    keyring: AuditKeyring
    seq: int = 1
    prev: str = GENESIS_HASH
    checked: int = 0
    unkeyed: int = 0
    unkeyed_until: datetime | None = None

    def check(self, event: AuditEvent) -> str | None:
        if event.seq != self.seq:
            return f"expected event {self.seq} next but found {event.seq}: events are missing"
        if event.prev_hash != self.prev:
            return "prev_hash does not match the hash of the event before it"
        if event.key_id is None and self.checked > self.unkeyed:
            return "an unkeyed event after keyed ones: it was written without the audit key"
        if event.key_id is not None and not self.keyring.knows(event.key_id):
            return (f"signed with key id {event.key_id}, which is neither GPUOPS_AUDIT_KEY nor one of "
                    "GPUOPS_AUDIT_PREVIOUS_KEYS")
        if row_hash(event, keyring=self.keyring) != event.hash:
            return "the row's contents do not match its hash: it was altered"
        return None

    def advance(self, event: AuditEvent) -> None:
        if event.key_id is None:
            self.unkeyed, self.unkeyed_until = self.unkeyed + 1, event.created_at
        self.seq, self.prev, self.checked = event.seq + 1, event.hash, self.checked + 1

    def report(self, head: AuditHead, *, broken_seq: int | None = None, reason: str | None = None) -> ChainReport:
        return ChainReport(checked=self.checked, head_seq=head.seq, head_hash=head.hash, broken_seq=broken_seq,
                           reason=reason, unkeyed=self.unkeyed, unkeyed_until=self.unkeyed_until)


def verify_chain(*, session: Session, keyring: AuditKeyring | None = None, batch: int = 1000) -> ChainReport:
    """Walk the whole chain in order and report the first broken link (keys: the session's engine's by default)."""
    fresh = {"populate_existing": True}  # compare what is stored, not what this session remembers
    head = session.exec(select(AuditHead).where(AuditHead.id == 1).execution_options(**fresh)).one()
    walk = _Walk(keyring=keyring or keyring_for(session))
    while True:
        statement = (
            select(AuditEvent).where(AuditEvent.seq >= walk.seq).order_by(col(AuditEvent.seq)).limit(batch)
            .execution_options(**fresh)
        )
        rows = list(session.exec(statement))
        for event in rows:
            reason = walk.check(event)
            if reason:
                return walk.report(head, broken_seq=event.seq, reason=reason)
            walk.advance(event)
        if len(rows) < batch:
            break
    if head.seq != walk.seq - 1 or head.hash != walk.prev:
        return walk.report(head, broken_seq=walk.seq, reason=f"the chain head says {head.seq} events but "
                                                              f"{walk.seq - 1} were found: events were removed")
    return walk.report(head)
