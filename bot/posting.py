"""Putting a request's message in Slack and keeping it current; telling the requester the outcome."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any

from slack_sdk.errors import SlackApiError

from bot.blocks import fallback_text, outcome_text, request_blocks, requester_user
from bot.limits import Block
from contract.requests import RequestPublic
from contract.status import DECIDED_STATES

log = logging.getLogger(__name__)
# The bot cannot write in this conversation itself: a private channel it was not invited to, or a direct message
# between two people. A slash command's or a click's response_url still can.
NOT_A_MEMBER = frozenset({"channel_not_found", "not_in_channel"})
INVITE_HINT = ("I posted the plan through this command's reply, as I'm not in this conversation: clicks on it still "
               "work, but launch news can't reach its thread. Invite me with `/invite @gpuops` for that.")


class SentMessages:
    """What this process last put in each message it posted or updated (a digest of text and blocks), for the
    last ``capacity`` messages. Several events and clicks often leave a request looking the same; rewriting it
    with the same content makes Slack redraw it and spends the channel's rate limit for nothing."""

    def __init__(self, capacity: int = 10_000) -> None:
        self._capacity = capacity
        self._digests: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def digest(text: str, blocks: list[Any]) -> str:
        return hashlib.sha256(json.dumps([text, blocks], sort_keys=True).encode()).hexdigest()

    def shows(self, channel: str, ts: str, digest: str) -> bool:
        with self._lock:
            return self._digests.get((channel, ts)) == digest

    def record(self, channel: str, ts: str, digest: str) -> None:
        with self._lock:
            self._digests[(channel, ts)] = digest
            self._digests.move_to_end((channel, ts))
            if len(self._digests) > self._capacity:
                self._digests.popitem(last=False)


def _slack_error(error: SlackApiError) -> str:
    return str(error.response.get("error") or "")


def post_request(client: Any, req: RequestPublic, *, channel: str, now: datetime,
                 sent: SentMessages | None = None, respond: Any = None) -> str | None:
    """Post the plan in ``channel``; the message's ts. Where the bot may not post (``NOT_A_MEMBER``) and the person
    gave a ``respond`` (a slash command's response_url), the plan goes there, visible to the channel, and the ts is
    None: Slack does not say it, so later changes reach it only through a click's response_url."""
    text, blocks = fallback_text(req), request_blocks(req, now=now)
    try:
        response = client.chat_postMessage(channel=channel, text=text, blocks=blocks, unfurl_links=False,
                                           unfurl_media=False)
    except SlackApiError as error:
        if respond is None or _slack_error(error) not in NOT_A_MEMBER:
            raise
        log.info("cannot post %s in %s (%s); answering through the command's response_url", req.id, channel,
                 _slack_error(error))
        respond(response_type="in_channel", text=text, blocks=blocks)
        respond(response_type="ephemeral", replace_original=False, text=INVITE_HINT)
        return None
    ts = str(response["ts"])
    if sent is not None:
        sent.record(channel, ts, SentMessages.digest(text, blocks))
    return ts


def update_request(client: Any, req: RequestPublic, *, now: datetime, channel: str | None = None,
                   ts: str | None = None, sent: SentMessages | None = None, respond: Any = None) -> bool:
    """Rewrite the request's message in place, unless this process last wrote it with the same content; False
    when the bot does not know where it is. A message the bot cannot update itself (posted through a response_url
    where it is no member) is replaced through the click's ``respond``, when there is one."""
    where = req.slack_message
    channel = channel or (where.channel if where else None)
    ts = ts or (where.ts if where else None)
    if not channel or not ts:
        return False
    text, blocks = fallback_text(req), request_blocks(req, now=now)
    digest = SentMessages.digest(text, blocks)
    if sent is not None and sent.shows(channel, ts, digest):
        return True
    try:
        client.chat_update(channel=channel, ts=ts, text=text, blocks=blocks)
    except SlackApiError as error:
        if respond is None or _slack_error(error) not in NOT_A_MEMBER | {"message_not_found", "cant_update_message"}:
            raise
        respond(replace_original=True, text=text, blocks=blocks)
    if sent is not None:  # recorded only once Slack took it, so a failed update is sent again next time
        sent.record(channel, ts, digest)
    return True


def reply_in_thread(client: Any, req: RequestPublic, text: str, *, blocks: list[Block] | None = None) -> bool:
    """A reply in the request's thread (``text`` is the notification and fallback when ``blocks`` are given); False
    when the request has no Slack message."""
    where = req.slack_message
    if where is None:
        return False
    if blocks is None:
        client.chat_postMessage(channel=where.channel, thread_ts=where.ts, text=text)
    else:
        client.chat_postMessage(channel=where.channel, thread_ts=where.ts, text=text, blocks=blocks)
    return True


def tell_requester(client: Any, req: RequestPublic) -> bool:
    """A direct message with the outcome, once the request is decided."""
    user = requester_user(req)
    if user is None or req.status not in DECIDED_STATES:
        return False
    client.chat_postMessage(channel=user, text=outcome_text(req))
    return True
