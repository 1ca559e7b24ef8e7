"""The audit chain's head published outside the database, where whoever controls the database cannot reach it.

A keyed chain shows any edit, but not a cut: delete the last events, move the head back, and what remains is
intact. So the head (sequence, hash, key id, time) is written to S3 with Object Lock in compliance mode, which no
one, the account root included, can delete or overwrite before its retention date; ``gpuops audit verify --anchor``
then reports a database whose chain is shorter than, or differs from, the latest published head.

Objects are named ``<prefix>/<seq, 20 digits>-<UTC time>.json``, so the greatest name is the longest chain
published, latest first among equals.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError
from sqlmodel import Session, select

from contract.errors import UpstreamError
from policy.errors import RequestError
from service.aws.clients import ClientFactory
from service.store.tables import AuditEvent, AuditHead


@dataclass(frozen=True)
class AnchorLocation:
    """Where heads are published: a bucket with Object Lock enabled and a key prefix in it."""

    bucket: str
    prefix: str

    @classmethod
    def parse(cls, url: str) -> AnchorLocation:
        """``s3://bucket/prefix`` (the prefix may be empty)."""
        bucket, _, prefix = url.removeprefix("s3://").partition("/")
        if not url.startswith("s3://") or not bucket:
            raise RequestError(f"an anchor location looks like s3://bucket/prefix, not {url!r}",
                               code="bad_anchor_location")
        return cls(bucket=bucket, prefix=prefix.strip("/"))

    def key_for(self, anchor: Anchor) -> str:
        name = f"{anchor.seq:020d}-{anchor.published_at.astimezone(UTC):%Y%m%dT%H%M%S%fZ}.json"
        return f"{self.prefix}/{name}" if self.prefix else name

    @property
    def list_prefix(self) -> str:
        return f"{self.prefix}/" if self.prefix else ""


@dataclass(frozen=True)
class Anchor:
    """The chain's head as it was at ``published_at``."""

    seq: int
    hash: str
    key_id: str | None
    published_at: datetime

    def to_json(self) -> str:
        return json.dumps({"seq": self.seq, "hash": self.hash, "key_id": self.key_id,
                           "published_at": self.published_at.astimezone(UTC).isoformat()}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | bytes) -> Anchor:
        raw = json.loads(text)
        return cls(seq=int(raw["seq"]), hash=str(raw["hash"]), key_id=raw.get("key_id"),
                   published_at=datetime.fromisoformat(raw["published_at"]))


def current_head(*, session: Session, now: datetime) -> Anchor:
    """The chain's head now, with the id of the key that signed its last event."""
    head = session.exec(select(AuditHead).where(AuditHead.id == 1)).one()
    last = session.get(AuditEvent, head.seq) if head.seq else None
    return Anchor(seq=head.seq, hash=head.hash, key_id=last.key_id if last else None, published_at=now)


def _upstream(exc: ClientError | BotoCoreError, operation: str) -> UpstreamError:
    return UpstreamError(f"S3 {operation} failed: {exc}", service="s3", operation=operation, code="aws_error")


def publish_anchor(*, session: Session, factory: ClientFactory, location: AnchorLocation, retain_days: int,
                   now: datetime) -> Anchor:
    """Write the current head to S3, locked in compliance mode for ``retain_days``."""
    anchor = current_head(session=session, now=now)
    s3_client = factory.client("s3")
    try:
        s3_client.put_object(
            Bucket=location.bucket, Key=location.key_for(anchor), Body=anchor.to_json().encode("utf-8"),
            ContentType="application/json", ObjectLockMode="COMPLIANCE",
            ObjectLockRetainUntilDate=now + timedelta(days=retain_days),
        )
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "PutObject") from exc
    return anchor


def latest_anchor(*, factory: ClientFactory, location: AnchorLocation) -> Anchor | None:
    """The longest chain ever published at ``location`` (the latest such), None when nothing was."""
    s3_client = factory.client("s3")
    try:
        pages = s3_client.get_paginator("list_objects_v2").paginate(Bucket=location.bucket,
                                                                  Prefix=location.list_prefix)
        newest = max((item["Key"] for page in pages for item in page.get("Contents", [])
                      if item["Key"].endswith(".json")), default=None)
        if newest is None:
            return None
        body: Any = s3_client.get_object(Bucket=location.bucket, Key=newest)["Body"]
        return Anchor.from_json(body.read())
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "GetObject") from exc


def check_anchor(*, session: Session, anchor: Anchor) -> str | None:
    """Why the database's chain does not extend the published head, None when it does."""
    when = anchor.published_at.astimezone(UTC).isoformat(timespec="seconds")
    head = session.exec(select(AuditHead).where(AuditHead.id == 1).execution_options(populate_existing=True)).one()
    if head.seq < anchor.seq:
        return (f"the chain ends at event {head.seq} but the head published at {when} was event {anchor.seq}: "
                f"{anchor.seq - head.seq} events were removed from the end")
    if anchor.seq == 0:  # published before the first event: every chain extends it
        return None
    event = session.get(AuditEvent, anchor.seq, populate_existing=True)
    if event is None or (event.hash, event.key_id) != (anchor.hash, anchor.key_id):
        return (f"event {anchor.seq} differs from the head published at {when}: the chain was rewritten "
                "since then")
    return None
