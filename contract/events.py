"""The events feed, its consumers' cursors, and a request's audit trail (the same events with their hashes)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from contract.base import InputModel, OutputModel

FEED_CURSOR_DIGITS = 18  # a seq fits a signed 64-bit column; 19 digits could overflow it
FEED_CURSOR_PATTERN = rf"^[0-9]{{1,{FEED_CURSOR_DIGITS}}}$"


class EventPublic(OutputModel):
    id: int
    cursor: str
    type: str
    request_id: str | None
    created_at: datetime
    data: dict[str, Any]


class EventPage(OutputModel):
    items: list[EventPublic]
    next_cursor: str


class CursorPublic(OutputModel):
    consumer: str
    cursor: str


class CursorUpdate(InputModel):
    cursor: str = Field(min_length=1, max_length=FEED_CURSOR_DIGITS, pattern=FEED_CURSOR_PATTERN)


class AuditEventPublic(OutputModel):
    seq: int
    request_id: str | None
    type: str
    actor: str
    data: dict[str, Any]
    created_at: datetime
    prev_hash: str
    hash: str
    key_id: str | None = None  # the audit key that signed ``hash``; None before the chain was keyed


class AuditList(OutputModel):
    items: list[AuditEventPublic]
