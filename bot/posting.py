"""Putting a request's message in Slack and keeping it current; telling the requester the outcome."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from bot.blocks import fallback_text, outcome_text, request_blocks, requester_user
from contract.requests import RequestPublic
from contract.status import DECIDED_STATES

log = logging.getLogger(__name__)


def post_request(client: Any, req: RequestPublic, *, channel: str, now: datetime) -> str:
    """Post the plan in ``channel``; the message's ts."""
    response = client.chat_postMessage(channel=channel, text=fallback_text(req), blocks=request_blocks(req, now=now),
                                       unfurl_links=False, unfurl_media=False)
    return str(response["ts"])


def update_request(client: Any, req: RequestPublic, *, now: datetime, channel: str | None = None,
                   ts: str | None = None) -> bool:
    """Rewrite the request's message in place; False when the bot does not know where it is."""
    where = req.slack_message
    channel = channel or (where.channel if where else None)
    ts = ts or (where.ts if where else None)
    if not channel or not ts:
        return False
    client.chat_update(channel=channel, ts=ts, text=fallback_text(req), blocks=request_blocks(req, now=now))
    return True


def reply_in_thread(client: Any, req: RequestPublic, text: str) -> bool:
    where = req.slack_message
    if where is None:
        return False
    client.chat_postMessage(channel=where.channel, thread_ts=where.ts, text=text)
    return True


def tell_requester(client: Any, req: RequestPublic) -> bool:
    """A direct message with the outcome, once the request is decided."""
    user = requester_user(req)
    if user is None or req.status not in DECIDED_STATES:
        return False
    client.chat_postMessage(channel=user, text=outcome_text(req))
    return True
