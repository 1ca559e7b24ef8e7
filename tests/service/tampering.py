"""What someone with write access to the database (and without the audit key) can do to the audit log."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col, select

from service.audit.chain import GENESIS_HASH, row_hash
from service.audit.keys import AuditKeyring
from service.store.tables import AuditEvent, AuditHead


def rehash_chain(session: Session, *, keyring: AuditKeyring | None) -> None:
    """Re-hash every event from the first, under ``keyring``'s current key (None: plain sha256, no key id), and move
    the head to match: what a forger does after editing a row, and what the chain looked like before keying."""
    prev = GENESIS_HASH
    events = session.exec(select(AuditEvent).order_by(col(AuditEvent.seq))
                          .execution_options(populate_existing=True)).all()
    for stored in events:
        event = AuditEvent(**{**stored.model_dump(), "prev_hash": prev,
                              "key_id": keyring.current_id if keyring else None})
        prev = row_hash(event, keyring=keyring)
        session.execute(sa.text("UPDATE audit_event SET prev_hash = :p, hash = :h, key_id = :k WHERE seq = :s"),
                        {"p": event.prev_hash, "h": prev, "k": event.key_id, "s": event.seq})
    session.execute(sa.text("UPDATE audit_head SET hash = :h WHERE id = 1"), {"h": prev})
    session.expire_all()


def drop_last_event(session: Session) -> int:
    """Delete the newest event and move the head back onto the one before it; the seq of the deleted event."""
    last = session.exec(select(AuditHead).execution_options(populate_existing=True)).one().seq
    before = session.get(AuditEvent, last - 1)
    session.execute(sa.text("DELETE FROM audit_event WHERE seq = :s"), {"s": last})
    session.execute(sa.text("UPDATE audit_head SET seq = :s, hash = :h WHERE id = 1"),
                    {"s": last - 1, "h": before.hash if before else GENESIS_HASH})
    session.expire_all()
    return last
