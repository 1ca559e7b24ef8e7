"""The audit chain: intact after real work, and any edit, forgery or removal is reported at the first broken link;
the approval and request tables are checked against its events."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session

from contract.approvals import ApprovalDecision
from service.audit.chain import GENESIS_HASH, append_event, event_hash, verify_chain
from service.audit.check import check_tables
from service.audit.keys import AuditKeyring, bind_keyring, key_id, keyring_for, keyring_from_settings
from service.requests.approvals import record_approval
from service.settings import get_settings
from service.store.db import make_engine, new_session
from service.store.migrate import upgrade
from service.store.types import UTCDateTime
from tests.service.conftest import create_sqlite_db
from tests.service.factories import LEADS, NOW, add_request, make_policy
from tests.service.tampering import rehash_chain

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


OLD_KEY = "old-audit-key-0123456789abcdef0123456789"
NEW_KEY = "new-audit-key-fedcba9876543210fedcba9876"


@pytest.fixture
def sign_with(engine: Engine) -> Iterator[Callable[[AuditKeyring], None]]:
    """Sign what the test appends with a keyring of its choosing; the settings' keys again afterwards."""
    def sign(keyring: AuditKeyring) -> None:
        bind_keyring(engine, keyring)

    yield sign
    bind_keyring(engine, keyring_from_settings(get_settings()))


def test_events_signed_before_and_after_a_key_rotation_verify(
    bare_session: Session, sign_with: Callable[[AuditKeyring], None]
) -> None:
    sign_with(AuditKeyring.from_secrets(OLD_KEY))
    before = append_event(session=bare_session, type="t.before", actor="a", now=NOW)
    rotated = AuditKeyring.from_secrets(NEW_KEY, [OLD_KEY])
    sign_with(rotated)
    after = append_event(session=bare_session, type="t.after", actor="a", now=NOW)
    bare_session.commit()
    assert (before.key_id, after.key_id) == (key_id(OLD_KEY), key_id(NEW_KEY))
    assert verify_chain(session=bare_session, keyring=rotated).ok
    forgotten = verify_chain(session=bare_session, keyring=AuditKeyring.from_secrets(NEW_KEY))
    assert forgotten.broken_seq == before.seq
    assert f"key id {key_id(OLD_KEY)}, which is neither GPUOPS_AUDIT_KEY" in (forgotten.reason or "")


def test_a_chain_re_hashed_under_another_key_is_reported(session: Session) -> None:
    add_request(session)
    rehash_chain(session, keyring=AuditKeyring.from_secrets("forger-key-0123456789abcdef0123456789"))
    report = verify_chain(session=session)
    assert report.broken_seq == 1 and "which is neither GPUOPS_AUDIT_KEY" in (report.reason or "")


def test_events_from_before_keying_verify_as_unkeyed_until_a_keyed_one_follows(bare_session: Session) -> None:
    for i in range(3):
        append_event(session=bare_session, type=f"t.legacy{i}", actor="a", now=NOW)
    bare_session.commit()
    rehash_chain(bare_session, keyring=None)  # what the chain looked like before it was keyed
    keyed = append_event(session=bare_session, type="t.keyed", actor="a", now=NOW)
    bare_session.commit()
    report = verify_chain(session=bare_session)
    assert (report.ok, report.checked, report.unkeyed, report.unkeyed_until) == (True, 4, 3, NOW)
    assert keyed.key_id == keyring_for(bare_session).current_id

    forged = append_event(session=bare_session, type="t.forged", actor="a", now=NOW)
    plain = event_hash(seq=forged.seq, request_id=None, type="t.forged", actor="a", data={}, created_at=NOW,
                       prev_hash=keyed.hash)
    bare_session.execute(sa.text("UPDATE audit_event SET key_id = NULL, hash = :h WHERE seq = :s"),
                    {"h": plain, "s": forged.seq})
    bare_session.execute(sa.text("UPDATE audit_head SET hash = :h WHERE id = 1"), {"h": plain})
    report = verify_chain(session=bare_session)
    assert report.broken_seq == forged.seq and "unkeyed event after keyed ones" in (report.reason or "")


def _approved_once(session: Session) -> tuple[str, str]:
    """Two requests needing two approvals, each approved once: the one the test edits and its neighbour."""
    ids = []
    for _ in range(2):
        record = add_request(session, approvals_needed=2)
        record_approval(session=session, policy=make_policy(), request_id=record.id, approver=LEADS[0],
                        decision=ApprovalDecision.APPROVE, comment=None, now=NOW)
        ids.append(record.id)
    return ids[0], ids[1]


def test_tables_that_match_their_events_have_no_findings(session: Session) -> None:
    _approved_once(session)
    assert verify_chain(session=session).ok
    assert check_tables(session=session) == []


@pytest.mark.parametrize(("edit", "expected"), [
    ("UPDATE approval SET decision = 'reject' WHERE request_id = :r",
     "differs from audit event"),
    ("UPDATE approval SET approver = 'slack:T1:MALLORY' WHERE request_id = :r",
     "the approve by slack:T1:MALLORY of revision 1 has no audit event"),
    ("UPDATE approval SET revision = 2 WHERE request_id = :r",
     "the approval table has no such row"),
    ("DELETE FROM approval WHERE request_id = :r",
     f"records the approve by {LEADS[0]} of revision 1 but the approval table has no such row"),
    ("INSERT INTO approval (request_id, revision, approver, decision, created_at) "
     "VALUES (:r, 1, 'slack:T1:MALLORY', 'approve', :now)",
     "the approve by slack:T1:MALLORY of revision 1 has no audit event"),
    ("UPDATE training_request SET status = 'approved' WHERE id = :r",
     "the request is approved but its last status event"),
], ids=["decision", "approver", "revision", "deleted", "added", "status"])
def test_a_row_edited_behind_the_chain_is_reported_with_its_request(
    session: Session, edit: str, expected: str
) -> None:
    target, neighbour = _approved_once(session)
    session.execute(sa.text(edit), {"r": target, "now": NOW.replace(tzinfo=None)})
    findings = check_tables(session=session)
    assert findings and {f.request_id for f in findings} == {target}
    assert any(expected in f.problem for f in findings), findings
    assert verify_chain(session=session).ok  # the chain itself is untouched: only the tables tell


def test_events_written_before_the_upgrade_that_keyed_the_chain_verify_as_unkeyed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'before-keying.db'}"
    upgrade(url, revision="0001")
    events = sa.table("audit_event", *(sa.column(c) for c in ("seq", "type", "actor", "data", "prev_hash", "hash")),
                      sa.column("created_at", UTCDateTime()), sa.column("request_id"))
    engine = make_engine(url)
    prev = GENESIS_HASH
    with engine.begin() as conn:  # as the release before keying wrote them: plain sha256, no key id
        for seq in (1, 2):
            plain = event_hash(seq=seq, request_id=None, type="t.old", actor="a", data={}, created_at=NOW,
                               prev_hash=prev)
            conn.execute(sa.insert(events).values(seq=seq, request_id=None, type="t.old", actor="a", data="{}",
                                                  created_at=NOW, prev_hash=prev, hash=plain))
            prev = plain
        conn.execute(sa.text("UPDATE audit_head SET seq = 2, hash = :h"), {"h": prev})
    upgrade(url)
    with new_session(engine) as session:
        append_event(session=session, type="t.new", actor="a", now=NOW)
        session.commit()
        report = verify_chain(session=session)
    engine.dispose()
    assert (report.ok, report.checked, report.unkeyed, report.unkeyed_until) == (True, 3, 2, NOW)
