"""50 simultaneous approvals over real HTTP: exactly the allowed approvals, one transition, an intact chain."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from policy.config import ApprovalTier
from service.audit.chain import verify_chain
from service.store.db import new_session
from tests.service.apiclient import Live, auth, live_service
from tests.service.conftest import create_postgres_schema, create_sqlite_db, drop_postgres_schema
from tests.service.factories import make_policy

APPROVERS = [f"slack:T1:LEAD{i:02d}" for i in range(10)]
OUTSIDERS = [f"slack:T1:OUT{i:02d}" for i in range(25)]
REQUESTER = "slack:T1:REQUESTER"
NEEDED = 5
POLICY = make_policy(
    groups={"ml-leads": APPROVERS, "finance": ["slack:T1:FIN1"]}, auto_approve_below_usd=0,
    approval_tiers=[ApprovalTier(min_usd=0, approvals=NEEDED)],
)


@pytest.fixture(params=["postgres", "sqlite"])
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Live]:
    schema = None
    if request.param == "sqlite":
        url = create_sqlite_db(tmp_path)
    else:
        base = request.getfixturevalue("postgres_url")
        url, schema = create_postgres_schema(base)
    with live_service(url, POLICY, db_pool_size=20) as service:
        yield service
    if schema:
        drop_postgres_schema(request.getfixturevalue("postgres_url"), schema)


def test_fifty_simultaneous_approvals(live: Live) -> None:
    created = live.post("/v1/requests", {"text": "fine-tune 7B"}, role="bot", actor=REQUESTER).json()
    assert created["status"] == "pending_approval" and created["approvals_needed"] == NEEDED
    # every approver twice, the requester five times, 25 people who may not approve: 50 clicks at once
    voters = APPROVERS * 2 + [REQUESTER] * 5 + OUTSIDERS
    assert len(voters) == 50
    barrier = threading.Barrier(len(voters))

    def click(voter: str) -> tuple[str, int]:
        with httpx.Client(base_url=live.url, timeout=60) as client:
            barrier.wait()
            response = client.post(f"/v1/requests/{created['id']}/approvals", json={"decision": "approve"},
                                   headers=auth("bot", voter))
        return voter, response.status_code

    with ThreadPoolExecutor(max_workers=len(voters)) as pool:
        results = list(pool.map(click, voters))

    codes = Counter(code for _, code in results)
    assert codes[403] == 30 and codes[500] == 0
    assert all(code == 403 for voter, code in results if voter not in APPROVERS)
    assert all(code in (200, 409) for voter, code in results if voter in APPROVERS)
    final = live.get(f"/v1/requests/{created['id']}").json()
    assert final["status"] == "approved"
    assert len(final["approvals"]) == NEEDED and len({a["approver"] for a in final["approvals"]}) == NEEDED
    assert {a["approver"] for a in final["approvals"]} <= set(APPROVERS)
    with live.engine.connect() as conn:
        def count(sql: str) -> int:
            return int(conn.execute(sa.text(sql), {"r": created["id"]}).scalar_one())

        assert count("SELECT count(*) FROM approval WHERE request_id = :r") == NEEDED
        assert count("SELECT count(*) FROM audit_event WHERE request_id = :r AND type = 'request.approved'") == 1
        assert count("SELECT count(*) FROM audit_event WHERE request_id = :r "
                     "AND type = 'request.approval_recorded'") == NEEDED
        assert count("SELECT count(*) FROM launch_task WHERE request_id = :r") == 1
    with new_session(live.engine) as session:
        assert verify_chain(session=session).ok


def test_simultaneous_retries_with_one_idempotency_key_make_one_request(live: Live) -> None:
    key, actor = uuid.uuid4().hex, "slack:T1:RETRIER"
    barrier = threading.Barrier(10)

    def send(_: int) -> tuple[int, str]:
        with httpx.Client(base_url=live.url, timeout=60) as client:
            barrier.wait()
            response = client.post("/v1/requests", json={"text": "fine-tune 7B"},
                                   headers={**auth("bot", actor), "Idempotency-Key": key})
        return response.status_code, response.json()["id"]

    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(send, range(10)))
    assert {code for code, _ in results} <= {200, 201} and [c for c, _ in results].count(201) == 1
    assert len({request_id for _, request_id in results}) == 1
    with live.engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT count(*) FROM training_request WHERE requester = :a"), {"a": actor})
        assert rows.scalar_one() == 1
