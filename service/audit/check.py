"""The tables checked against the audit chain: an intact chain proves nothing if the rows beside it were edited.

Every approval row has its ``request.approval_recorded`` event with the same request, revision, approver and
decision, and every request's status is the one its last status event (``request.created`` or a transition)
moved it to. Run after ``verify_chain`` says the chain is intact: then the events are the truth and a difference
means a row was edited, added or deleted behind the service's back.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from service.store.tables import Approval, AuditEvent, RequestRecord

APPROVAL_EVENT = "request.approval_recorded"
BATCH = 1000


@dataclass(frozen=True)
class Finding:
    """One row that disagrees with the audit chain."""

    request_id: str | None
    problem: str


def check_tables(*, session: Session) -> list[Finding]:
    """Every disagreement between the approval and request tables and the audit events, by request."""
    return [*_check_approvals(session), *_check_statuses(session)]


def _events(session: Session, *, of_type: str | None = None) -> Iterator[tuple[int, str, str, dict[str, Any]]]:
    """(seq, request_id, type, data) of the events about requests, in chain order."""
    table: sa.Table = AuditEvent.__table__  # type: ignore[attr-defined]
    statement = sa.select(table.c.seq, table.c.request_id, table.c.type, table.c.data).where(
        table.c.request_id.is_not(None), *([table.c.type == of_type] if of_type else []))
    rows = session.execute(statement.order_by(table.c.seq).execution_options(yield_per=BATCH))
    yield from ((seq, request_id, event_type, data) for seq, request_id, event_type, data in rows)


ApprovalKey = tuple[str, int, str]  # request, revision, approver: unique in the approval table


def _check_approvals(session: Session) -> Iterator[Finding]:
    recorded: dict[ApprovalKey, tuple[int, str]] = {}
    for seq, request_id, _type, data in _events(session, of_type=APPROVAL_EVENT):
        key = (request_id, int(data.get("revision", 0)), str(data.get("approver")))
        recorded[key] = (seq, str(data.get("decision")))
    rows = session.exec(select(Approval).order_by(col(Approval.id)).execution_options(yield_per=BATCH))
    for row in rows:
        seen = recorded.pop((row.request_id, row.revision, row.approver), None)
        what = f"the {row.decision} by {row.approver} of revision {row.revision}"
        if seen is None:
            yield Finding(row.request_id, f"{what} has no audit event: the approval row was added or edited")
        elif seen[1] != row.decision:
            yield Finding(row.request_id, f"{what} differs from audit event {seen[0]}, which recorded "
                                          f"{seen[1]}: the approval row was edited")
    for (request_id, revision, approver), (seq, decision) in recorded.items():
        yield Finding(request_id, f"audit event {seq} records the {decision} by {approver} of revision {revision} "
                                  "but the approval table has no such row: it was deleted or edited")


def _status_of(event_type: str, data: dict[str, Any]) -> str | None:
    """The status an event moved its request to, None when it changed no status."""
    if event_type == "request.created":
        return str(data.get("status"))
    return str(data["to"]) if "to" in data else None


def _check_statuses(session: Session) -> Iterator[Finding]:
    last: dict[str, tuple[int, str]] = {}
    for seq, request_id, event_type, data in _events(session):
        status = _status_of(event_type, data)
        if status is not None:
            last[request_id] = (seq, status)
    statement = select(RequestRecord.id, RequestRecord.status).order_by(col(RequestRecord.id))
    for request_id, status in session.execute(statement.execution_options(yield_per=BATCH)):
        seen = last.pop(request_id, None)
        if seen is None:
            yield Finding(request_id, f"the request is {status} but has no status event: the row was added")
        elif seen[1] != status:
            yield Finding(request_id, f"the request is {status} but its last status event ({seen[0]}) moved it "
                                      f"to {seen[1]}: the request row was edited")
    for request_id, (seq, status) in last.items():
        yield Finding(request_id, f"audit event {seq} moved the request to {status} but the request table has no "
                                  "such request: it was deleted")
