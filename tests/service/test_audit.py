"""The audit chain: intact after real work, and any edit or removal is reported at the first broken link."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session

from service.audit import append_event, event_hash, verify_chain
from service.auditkeys import keyring_for
from service.store.db import make_engine, new_session
from tests.service.conftest import create_sqlite_db
from tests.service.factories import NOW, add_request

ROOT = Path(__file__).resolve().parents[2]


def test_each_event_links_to_the_one_before(session: Session) -> None:
    first = append_event(session=session, type="t.one", actor="a", data={"x": 1.5}, now=NOW)
    second = append_event(session=session, type="t.two", actor="a", request_id=None, data={"y": [1, "z"]}, now=NOW)
    session.commit()
    assert second.prev_hash == first.hash and second.seq == first.seq + 1
    keyring = keyring_for(session)
    fields = {"seq": first.seq, "request_id": None, "type": "t.one", "actor": "a", "data": {"x": 1.5},
              "created_at": NOW, "prev_hash": first.prev_hash}
    assert first.key_id == keyring.current_id
    assert first.hash == event_hash(**fields, key_id=first.key_id, keyring=keyring)
    assert first.hash != event_hash(**fields)  # keyed: the plain sha256 of the same fields is not enough
    report = verify_chain(session=session)
    assert report.ok and report.checked == report.head_seq


def test_an_altered_row_is_reported(session: Session) -> None:
    add_request(session)
    target = append_event(session=session, type="t.victim", actor="a", data={"usd": 10}, now=NOW)
    append_event(session=session, type="t.after", actor="a", now=NOW)
    session.commit()
    session.execute(sa.text("UPDATE audit_event SET data = :d WHERE seq = :s"), {"d": '{"usd": 1}', "s": target.seq})
    report = verify_chain(session=session)
    assert report.broken_seq == target.seq
    assert report.reason == "the row's contents do not match its hash: it was altered"


def test_a_removed_row_and_a_truncated_tail_are_reported(session: Session) -> None:
    events = [append_event(session=session, type=f"t.{i}", actor="a", now=NOW) for i in range(4)]
    session.commit()
    session.execute(sa.text("DELETE FROM audit_event WHERE seq = :s"), {"s": events[1].seq})
    assert verify_chain(session=session).broken_seq == events[2].seq
    session.rollback()
    session.execute(sa.text("DELETE FROM audit_event WHERE seq = :s"), {"s": events[3].seq})
    report = verify_chain(session=session)
    assert report.broken_seq == events[3].seq and "removed" in (report.reason or "")


def test_gpuops_audit_verify_reports_the_tampered_row(tmp_path: Path) -> None:
    url = create_sqlite_db(tmp_path)
    engine = make_engine(url)
    with new_session(engine) as session:
        record = add_request(session)
        seq = session.execute(sa.text("SELECT min(seq) FROM audit_event WHERE request_id = :r"),
                              {"r": record.id}).scalar_one()
    env = {**os.environ, "DATABASE_URL": url}
    command = [sys.executable, "-c", "from gpuops.cli import main; main()", "audit", "verify"]
    intact = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert intact.returncode == 0 and "intact" in intact.stdout
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE audit_event SET actor = 'slack:T1:SOMEONE_ELSE' WHERE seq = :s"), {"s": seq})
    engine.dispose()
    broken = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert broken.returncode == 1
    assert f"broken at event {seq}" in broken.stderr and "altered" in broken.stderr
