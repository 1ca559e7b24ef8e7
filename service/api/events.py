"""The events feed and its consumers' cursors."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from contract.errors import NotFound
from contract.events import FEED_CURSOR_DIGITS, CursorPublic, CursorUpdate, EventPage
from policy.errors import RequestError
from service.api.deps import ActorDep, SessionDep, WriterDep, released
from service.api.openapi import raises
from service.audit import feed
from service.clock import utcnow

router = APIRouter(tags=["events"])
Consumer = Annotated[str, Path(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9._:-]+$")]


@router.get("/v1/events", response_model=EventPage, responses=raises(RequestError))
def list_events(
    session: SessionDep, _actor: ActorDep,
    after: Annotated[str | None, Query(max_length=FEED_CURSOR_DIGITS, pattern=r"^[0-9]*$")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> EventPage:
    """What happened, oldest first; resume with ``after=<next_cursor>`` (at-least-once)."""
    return released(session, feed.list_events(session=session, after=after, limit=limit))


@router.get("/v1/cursors/{consumer}", response_model=CursorPublic, responses=raises(NotFound))
def get_cursor(consumer: Consumer, session: SessionDep, _actor: ActorDep) -> CursorPublic:
    row = feed.get_cursor(session=session, consumer=consumer)
    return released(session, CursorPublic(consumer=row.consumer, cursor=row.cursor))


@router.put("/v1/cursors/{consumer}", status_code=204)
def put_cursor(consumer: Consumer, body: CursorUpdate, session: SessionDep, _actor: WriterDep) -> Response:
    feed.put_cursor(session=session, consumer=consumer, cursor=body.cursor, now=utcnow())
    return Response(status_code=204)
