"""Things attached to a request: where the bot posted it, and launch artifacts."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from service.requests.records import get_request_or_raise
from service.store.tables import Artifact, SlackMessage


def put_slack_message(*, session: Session, request_id: str, channel: str, ts: str, now: datetime) -> None:
    """Remember where the bot posted the request (the latest post wins)."""
    get_request_or_raise(session=session, request_id=request_id)
    row = session.get(SlackMessage, request_id, with_for_update=True)
    if row is None:
        row = SlackMessage(request_id=request_id, channel=channel, ts=ts, updated_at=now)
    else:
        row.channel, row.ts, row.updated_at = channel, ts, now
    session.add(row)
    session.commit()


def add_artifact(
    *, session: Session, request_id: str, kind: str, name: str, content_type: str, content: str, now: datetime,
) -> Artifact:
    """Attach an artifact in the caller's transaction (the launcher commits it with the launch)."""
    artifact = Artifact(request_id=request_id, kind=kind, name=name, content_type=content_type, content=content,
                        created_at=now)
    session.add(artifact)
    session.flush()
    return artifact


def list_artifacts(*, session: Session, request_id: str) -> list[Artifact]:
    get_request_or_raise(session=session, request_id=request_id)
    statement = select(Artifact).where(Artifact.request_id == request_id).order_by(col(Artifact.id))
    return list(session.exec(statement))
