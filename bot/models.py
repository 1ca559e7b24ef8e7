"""The service's wire shapes the bot reads (docs/api.md). Lenient on extra keys so a newer service still parses."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from policy.decision import Decision

# States from which nothing more happens to the approval part of a request.
PENDING = "pending_approval"
APPROVED_STATES = frozenset({"approved", "auto_approved", "launching", "running", "succeeded", "failed", "stopped",
                             "dry_run"})


class _Wire(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class ApprovalPublic(_Wire):
    approver: str
    decision: str
    comment: str | None = None
    revision: int = 0
    created_at: datetime | None = None


class SlackMessageRef(_Wire):
    channel: str
    ts: str


class JobPublic(_Wire):
    name: str
    status: str
    secondary_status: str | None = None
    platform: str | None = None
    estimated_cost_usd: float | None = None
    actual_cost_usd: float | None = None
    billable_seconds: float | None = None
    training_seconds: float | None = None
    spot_savings: float | None = None
    interruptions: int = 0


class RequestPublic(_Wire):
    id: str
    status: str
    team: str | None = None
    requester: str
    channel: str | None = None
    timezone: str = "UTC"
    text: str = ""
    revision: int = 1
    plan_hash: str = ""
    decision: Decision
    approvals: list[ApprovalPublic] = Field(default_factory=list)
    approvals_needed: int = 0
    approvals_remaining: int = 0
    eligible_approvers: list[str] = Field(default_factory=list)
    expires_at: datetime | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    slack_message: SlackMessageRef | None = None
    job: JobPublic | None = None


class RequestPage(_Wire):
    items: list[RequestPublic]
    next_cursor: str | None = None


class Event(_Wire):
    id: int
    cursor: str
    type: str
    request_id: str | None = None
    created_at: datetime | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class EventPage(_Wire):
    items: list[Event]
    next_cursor: str


class PolicyPublic(_Wire):
    version: str
    policy: dict[str, Any]


def slack_user(actor: str) -> str | None:
    """The Slack user id in an actor id ``slack:<team>:<user>``; None for other actors."""
    parts = actor.split(":")
    if len(parts) == 3 and parts[0] == "slack" and parts[2]:
        return parts[2]
    return None


def actor_id(team_id: str, user_id: str) -> str:
    return f"slack:{team_id}:{user_id}"
