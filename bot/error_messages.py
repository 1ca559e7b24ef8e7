"""The one place an error becomes words for a person: short, private, and saying what to do next."""

from __future__ import annotations

import logging
import re
import secrets

from slack_sdk.errors import SlackApiError

from bot.client import ServiceRefusedToken, ServiceUnavailable
from contract.errors import Conflict, Forbidden, NotFound, RateLimited, UpstreamError
from policy.errors import GpuopsError, RequestError

log = logging.getLogger("bot.error_messages")
_NOT_IN_CHANNEL = {"not_in_channel", "channel_not_found", "is_archived"}
# A refusal names whom to ask by actor id (slack:<workspace>:<user>); in Slack that reads better as a mention.
_ACTOR = re.compile(r"\bslack:[A-Za-z0-9_-]{1,64}:([A-Za-z0-9_.-]{1,64})\b")
TRY_AGAIN = "gpuops is not answering right now, so nothing was done. Please try again in a minute."


def correlation_id() -> str:
    return secrets.token_hex(4)


def user_message(error: BaseException, *, operation: str) -> str:
    """A private message for ``error``; unexpected errors get a correlation id that is also logged."""
    if isinstance(error, RequestError):
        return f"I couldn't use that: {error.message}\nType `/gpu help` for examples to copy."
    if isinstance(error, Forbidden):
        return "You can't do that: " + _ACTOR.sub(r"<@\1>", error.message)
    if isinstance(error, NotFound):
        return f"I can't find that: {error.message}"
    if isinstance(error, Conflict):
        state = f" (it is {error.current_state})" if error.current_state else ""
        return f"That can't be done any more{state}: {error.message}"
    if isinstance(error, RateLimited):
        return f"Too many requests; try again in {error.retry_after} s."
    if isinstance(error, ServiceRefusedToken):
        log.error("during %s: %s", operation, error.message)
        return ("gpuops is set up wrongly: the service does not accept this bot's token, so nothing was done. "
                "Ask whoever runs gpuops to set GPUOPS_SERVICE_TOKEN.")
    if isinstance(error, ServiceUnavailable):
        log.warning("service unavailable during %s: %s", operation, error.message)
        return TRY_AGAIN
    if isinstance(error, SlackApiError) and error.response.get("error") in _NOT_IN_CHANNEL:
        return "I can't post in this channel. Invite me with `/invite @gpuops` and try again."
    cid = correlation_id()
    if isinstance(error, UpstreamError | GpuopsError):
        log.error("upstream error during %s [cid=%s]: %s", operation, cid, error)
    else:
        log.exception("unexpected error during %s [cid=%s]", operation, cid, exc_info=error)
    return f"Something went wrong on our side (error id `{cid}`). Please try again; if it persists, share the id."
