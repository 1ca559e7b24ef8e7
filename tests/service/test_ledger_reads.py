"""The budget ledger is read under the write lock on every filing, so what it reads must not grow with a team's
history: only the team's requests in flight and the day's automatic approvals (SQLite and Postgres)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session

from contract.status import RequestStatus
from service.spend.ledger import lock_ledger, read_ledger
from service.store.tables import PlanRevision, RequestRecord
from tests.service.factories import NOW, REQUESTER, add_request

HISTORY = 400  # finished requests of the team, each approved automatically on an earlier day
TEAM = "team-ml"


def _history(session: Session, *, first: int = 0) -> None:
    """``HISTORY`` requests the team filed before today, all finished, written in bulk (no audit trail needed)."""
    finished = [RequestStatus.SUCCEEDED, RequestStatus.REJECTED, RequestStatus.EXPIRED, RequestStatus.CANCELLED]
    days = [NOW - timedelta(days=1 + n % 20) for n in range(HISTORY)]
    ids = [f"req_hist{first + n:06d}" for n in range(HISTORY)]
    session.add_all(RequestRecord(id=request_id, status=finished[n % len(finished)].value, team=TEAM,
                                  requester=REQUESTER, stage="experimental", text="fine-tune 7B", approvals_needed=0,
                                  created_at=when, updated_at=when)
                    for n, (request_id, when) in enumerate(zip(ids, days, strict=True)))
    session.flush()
    session.add_all(PlanRevision(request_id=request_id, revision=1, inputs={}, decision={}, training_request={},
                                 plan_hash="0" * 64, policy_version="test", price_snapshot="test", spend={},
                                 estimated_cost_usd=50.0, judged_usd=50.0, approvals_needed=0, denied=False,
                                 created_by=REQUESTER, created_at=when)
                    for request_id, when in zip(ids, days, strict=True))
    session.flush()


@contextmanager
def _statements(session: Session) -> Iterator[list[tuple[str, Any]]]:
    """Every statement the session's connection sends meanwhile, as the driver receives it."""
    sent: list[tuple[str, Any]] = []
    engine = session.connection().engine

    def note(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        sent.append((statement, parameters))

    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)


def _rows_visited_postgres(session: Session, statement: str, parameters: Any) -> int:
    """Rows the executed plan produced or filtered out, over all its nodes and loops."""
    raw = session.connection().exec_driver_sql("EXPLAIN (ANALYZE, FORMAT JSON) " + statement, parameters)
    document = raw.scalar_one()
    plan = (json.loads(document) if isinstance(document, str) else document)[0]["Plan"]

    def visited(node: dict[str, Any]) -> int:
        own = (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)) * node.get("Actual Loops", 1)
        return int(own) + sum(visited(child) for child in node.get("Plans", []))

    return visited(plan)


def _sqlite_plan(session: Session, statement: str, parameters: Any) -> list[str]:
    raw = session.connection().exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)
    return [str(row[-1]) for row in raw]


def _ledger_reads(session: Session) -> list[tuple[str, Any]]:
    """The ledger's two sums as sent to the database, read as a filing reads them."""
    with _statements(session) as sent:
        lock_ledger(session=session)
        read_ledger(session=session, team=TEAM, requester=REQUESTER, now=NOW)
    reads = [(s, p) for s, p in sent if "sum(" in s.lower()]
    assert len(reads) == 2
    return reads


def _rows_read(session: Session) -> list[int]:
    """Rows each of the ledger's sums visits on Postgres, with the statistics a database in use has (autovacuum
    keeps them). A few hundred rows fit in a few pages, where reading them all beats any index and a team's years do
    not: with sequential scans priced out, a sum no index serves still reads every row, which is what is looked for."""
    session.execute(sa.text("ANALYZE"))
    session.execute(sa.text("SET LOCAL enable_seqscan = off"))
    return [_rows_visited_postgres(session, statement, parameters) for statement, parameters in _ledger_reads(session)]


def test_reading_the_ledger_passes_none_of_the_teams_finished_history(bare_session: Session) -> None:
    session = bare_session
    _history(session)
    reserved = add_request(session, status=RequestStatus.AUTO_APPROVED, approvals_needed=0, team=TEAM, now=NOW)
    add_request(session, status=RequestStatus.PENDING_APPROVAL, team=TEAM, now=NOW)  # approves nothing yet
    ledger = read_ledger(session=session, team=TEAM, requester=REQUESTER, now=NOW)
    # what it reads: today's automatic approval, reserved and counted for the daily caps; no finished request
    assert reserved.id
    assert (ledger.running_usd, ledger.reserved_usd) == (0.0, 1000.0)
    assert ledger.auto_approved_today_by_team_usd == ledger.auto_approved_today_by_requester_usd == 1000.0

    if session.connection().dialect.name == "postgresql":
        before = _rows_read(session)
        _history(session, first=HISTORY)  # as many finished requests again
        # what each sum visits stays about what it was (the planner may order a join otherwise): the in-flight and
        # today's rows, none of the HISTORY more finished ones
        after = _rows_read(session)
        assert all(now <= then + 10 for now, then in zip(after, before, strict=True)), (before, after)
        return
    for statement, parameters in _ledger_reads(session):  # SQLite keeps no statistics unless asked
        plan = _sqlite_plan(session, statement, parameters)
        assert not [step for step in plan if step.startswith("SCAN")], plan
        assert any("ix_training_request_status_team (status=? AND team=?)" in step or
                   "ix_plan_revision_automatic (approvals_needed=? AND created_at>?)" in step
                   for step in plan), plan
