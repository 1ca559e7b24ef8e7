"""The audit chain's head published to S3 under Object Lock, and ``gpuops audit verify --anchor`` reporting a
database cut short, re-signed or edited since (moto in server mode; SQLite and Postgres)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from botocore.exceptions import ClientError
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from gpuops.cli import app
from service.audit.anchors import AnchorLocation
from service.audit.keys import AuditKeyring
from service.aws.clients import ClientFactory
from service.launch.worker import build_worker_context, run_worker
from service.settings import Settings, get_settings
from service.spend.providers import UnavailableSpend
from service.store.db import new_session
from tests.aws.conftest import dummy_session
from tests.aws.launchkit import LEAD, launch_policy, migrated_engine, new_request
from tests.service.tampering import drop_last_event, rehash_chain

BUCKET = "gpuops-audit-anchors"
ANCHOR = f"s3://{BUCKET}/prod"


@pytest.fixture
def s3(moto: str) -> Any:
    client = dummy_session().client("s3", endpoint_url=moto)
    client.create_bucket(Bucket=BUCKET, ObjectLockEnabledForBucket=True)
    return client


@pytest.fixture
def audited(database_url: str, s3: Any, moto: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Engine, str]]:
    """Two approved requests (the one a test tampers with and its neighbour), commands pointed at moto."""
    engine = migrated_engine(database_url)
    policy = launch_policy()
    target = new_request(engine=engine, policy=policy)
    new_request(engine=engine, policy=policy)
    for name, value in {"DATABASE_URL": database_url, "AWS_ENDPOINT_URL": moto, "AWS_ACCESS_KEY_ID": "testing",
                        "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1"}.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    yield engine, target
    engine.dispose()


def gpuops(*args: str) -> tuple[int, str]:
    get_settings.cache_clear()
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_an_untouched_database_verifies_against_its_anchor(audited: tuple[Engine, str], s3: Any) -> None:
    code, out = gpuops("audit", "anchor", "--to", ANCHOR)
    assert code == 0 and f"to {ANCHOR}" in out
    (item,) = s3.list_objects_v2(Bucket=BUCKET, Prefix="prod/")["Contents"]
    head = s3.head_object(Bucket=BUCKET, Key=item["Key"])
    assert head["ObjectLockMode"] == "COMPLIANCE"
    with pytest.raises(ClientError, match="AccessDenied"):  # not even the account that wrote it may remove it
        s3.delete_object(Bucket=BUCKET, Key=item["Key"], VersionId=head["VersionId"])
    code, out = gpuops("audit", "verify", "--anchor", ANCHOR)
    assert code == 0, out
    assert "audit chain intact" in out and "tables agree" in out and "the chain extends the head published" in out


def test_the_last_event_deleted_and_the_head_moved_back_is_reported_as_truncation(
    audited: tuple[Engine, str]
) -> None:
    engine, _ = audited
    assert gpuops("audit", "anchor", "--to", ANCHOR)[0] == 0
    with new_session(engine) as session:
        removed = drop_last_event(session)
        session.commit()
    code, out = gpuops("audit", "verify")
    assert f"audit chain intact: {removed - 1} events" in out  # what is left of the chain is a valid chain
    code, out = gpuops("audit", "verify", "--anchor", ANCHOR)
    assert code == 1
    assert f"the chain ends at event {removed - 1} but the head published at" in out
    assert f"was event {removed}: 1 events were removed from the end" in out


def test_an_approval_event_rewritten_and_re_signed_with_another_key_is_reported(
    audited: tuple[Engine, str]
) -> None:
    engine, target = audited
    assert gpuops("audit", "anchor", "--to", ANCHOR)[0] == 0
    forger = AuditKeyring.from_secrets("forger-key-0123456789abcdef0123456789")
    with new_session(engine) as session:  # the approval names someone else, in the event and the table alike
        session.execute(sa.text("UPDATE approval SET approver = 'slack:T0GPUOPS:U0MALLORY' WHERE request_id = :r"),
                        {"r": target})
        (seq, data), = session.execute(sa.text("SELECT seq, data FROM audit_event WHERE request_id = :r AND "
                                              "type = 'request.approval_recorded'"), {"r": target}).all()
        event = data if isinstance(data, dict) else json.loads(data)
        session.execute(sa.text("UPDATE audit_event SET data = :d, actor = 'slack:T0GPUOPS:U0MALLORY' "
                                "WHERE seq = :s"),
                        {"d": json.dumps({**event, "approver": "slack:T0GPUOPS:U0MALLORY"}), "s": seq})
        rehash_chain(session, keyring=forger)
        session.commit()
    code, out = gpuops("audit", "verify", "--anchor", ANCHOR)
    assert code == 1
    assert "which is neither GPUOPS_AUDIT_KEY nor one of GPUOPS_AUDIT_PREVIOUS_KEYS" in out
    assert "the chain was rewritten since then" in out


def test_an_edited_approval_row_is_reported_with_its_request(audited: tuple[Engine, str]) -> None:
    engine, target = audited
    assert gpuops("audit", "anchor", "--to", ANCHOR)[0] == 0
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE approval SET decision = 'reject' WHERE request_id = :r"), {"r": target})
    code, out = gpuops("audit", "verify", "--anchor", ANCHOR)
    assert code == 1
    assert f"request {target}: the reject by {LEAD} of revision 1 differs from audit event" in out
    assert "audit chain intact" in out and "the chain extends the head published" in out


def test_the_worker_publishes_the_head_while_it_runs(audited: tuple[Engine, str], s3: Any, moto: str) -> None:
    engine, _ = audited
    settings = Settings(database_url=str(engine.url), audit_anchor=ANCHOR)
    factory = ClientFactory(session=dummy_session(), endpoint_urls={"s3": moto}, max_attempts=1)
    ctx = build_worker_context(settings=settings, engine=engine, factory=factory, spend=UnavailableSpend())
    assert ctx.anchor == AnchorLocation(bucket=BUCKET, prefix="prod")
    stop = threading.Event()
    worker = threading.Thread(target=run_worker, kwargs={"settings": settings, "stop_event": stop,
                                                         "poll_seconds": 0.05, "ctx": ctx})
    worker.start()
    try:
        deadline = time.monotonic() + 20
        while not s3.list_objects_v2(Bucket=BUCKET, Prefix="prod/").get("Contents"):
            assert time.monotonic() < deadline, "the worker published no head"
            stop.wait(0.05)
    finally:
        stop.set()
        worker.join(timeout=10)
    code, out = gpuops("audit", "verify", "--anchor", ANCHOR)
    assert code == 0, out
