"""Who a call is for: the actor id the bot names in ``X-Gpuops-Actor`` (``slack:<workspace>:<user>``)."""

from __future__ import annotations

import re

ACTOR_HEADER = "X-Gpuops-Actor"
ACTOR_PATTERN = re.compile(r"^slack:[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_.-]{1,64}$")


def actor_id(team_id: str, user_id: str) -> str:
    return f"slack:{team_id}:{user_id}"


def slack_user(actor: str) -> str | None:
    """The Slack user id in an actor id ``slack:<team>:<user>``; None for other actors."""
    parts = actor.split(":")
    if len(parts) == 3 and parts[0] == "slack" and parts[2]:
        return parts[2]
    return None
