"""The events feed: ordered, resumable from any cursor, cursors kept per consumer."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from contract.errors import NotFound
from policy.errors import RequestError
from service.audit.feed import get_cursor, list_events, put_cursor
from tests.service.factories import NOW, add_request


def test_pages_resume_where_the_last_one_ended(session: Session) -> None:
    start = list_events(session=session, after=None, limit=500).next_cursor
    for _ in range(3):
        add_request(session)  # one request.created each
    first = list_events(session=session, after=start, limit=2)
    second = list_events(session=session, after=first.next_cursor, limit=2)
    assert [e.type for e in first.items + second.items] == ["request.created"] * 3
    ids = [e.id for e in first.items + second.items]
    assert ids == sorted(ids) and len(set(ids)) == 3 and ids[0] == int(start) + 1
    assert list_events(session=session, after=second.next_cursor, limit=2).items == []
    assert list_events(session=session, after=second.next_cursor, limit=2).next_cursor == second.next_cursor


def test_a_bad_cursor_is_refused(session: Session) -> None:
    with pytest.raises(RequestError):
        list_events(session=session, after="abc", limit=10)


def test_consumers_keep_their_place(session: Session) -> None:
    with pytest.raises(NotFound):
        get_cursor(session=session, consumer="bot")
    put_cursor(session=session, consumer="bot", cursor="5", now=NOW)
    put_cursor(session=session, consumer="bot", cursor="9", now=NOW)
    assert get_cursor(session=session, consumer="bot").cursor == "9"
