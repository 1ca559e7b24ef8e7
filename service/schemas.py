"""Wire models of the service API (docs/api.md): what goes over HTTP, never the table rows."""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from policy.decision import Decision
from policy.request import MAX_PARAMS, Stage, Task, Tolerance

MAX_FIELD_CHARS = 256


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True)


class PlanFields(_In):
    """Structured fields of a request; each one wins over what the text says."""

    task: Task | None = None
    params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    tokens: int | None = Field(default=None, gt=0, le=10**16)
    trials: int | None = Field(default=None, ge=1, le=10_000)
    deadline: datetime | None = None
    stage: Stage | None = None
    interruption_tolerance: Tolerance | None = None
    seq_len: int | None = Field(default=None, ge=128, le=1_048_576)
    budget_usd: float | None = Field(default=None, gt=0, le=1e12)
    region: str | None = Field(default=None, max_length=32)
    team: str | None = Field(default=None, max_length=128)
    accelerator: str | None = Field(default=None, max_length=64)
    instance_type: str | None = Field(default=None, max_length=64)
    gpus: int | None = Field(default=None, ge=1, le=100_000)


class PlanInput(PlanFields):
    """Free text, structured fields, or both; ``timezone`` reads the text's dates, ``now`` is for previews."""

    text: str | None = Field(default=None, max_length=20_000)
    timezone: str | None = Field(default=None, max_length=64, description="IANA zone; default UTC")
    now: datetime | None = Field(default=None, description="previews only: plan as if it were this time")


class RequestCreate(PlanInput):
    """``POST /v1/requests``: a plan input plus who asked and where."""

    requester: str | None = Field(default=None, max_length=MAX_FIELD_CHARS)
    channel: str | None = Field(default=None, max_length=MAX_FIELD_CHARS)


class RequestPatch(PlanFields):
    """``PATCH /v1/requests/{id}``: the fields to change (``text`` replaces the text and is parsed again)."""

    text: str | None = Field(default=None, max_length=20_000)
    timezone: str | None = Field(default=None, max_length=64)


class ApprovalDecision(StrEnum):
    APPROVE = "approve"
    REJECT = "reject"


class ApprovalBase(BaseModel):
    approver: str | None = Field(default=None, max_length=MAX_FIELD_CHARS)
    decision: ApprovalDecision
    comment: str | None = Field(default=None, max_length=4000)
    revision: int | None = Field(default=None, ge=1, description=(
        "the plan revision the approver was shown; 409 revision_changed when the request has a newer one"))


class ApprovalCreate(ApprovalBase):
    model_config = ConfigDict(extra="forbid")


class ApprovalPublic(_Out):
    approver: str
    decision: ApprovalDecision
    comment: str | None
    revision: int
    created_at: datetime


class CancelBody(_In):
    reason: str | None = Field(default=None, max_length=4000)


class StopBody(_In):
    reason: str | None = Field(default=None, max_length=4000)


class SlackMessageRef(_In):
    channel: str = Field(min_length=1, max_length=MAX_FIELD_CHARS)
    ts: str = Field(min_length=1, max_length=64)


class JobPublic(_Out):
    name: str
    status: str
    secondary_status: str | None
    platform: str
    estimated_cost_usd: float
    actual_cost_usd: float | None
    billable_seconds: int | None
    training_seconds: int | None
    spot_savings: float | None
    interruptions: int


class RequestPublic(_Out):
    id: str
    status: str
    team: str
    requester: str
    channel: str | None
    timezone: str
    text: str
    revision: int
    plan_hash: str
    decision: Decision
    approvals: list[ApprovalPublic]
    approvals_needed: int
    approvals_remaining: int
    eligible_approvers: list[str]
    expires_at: datetime | None
    created_at: datetime
    updated_at: datetime
    slack_message: SlackMessageRef | None
    job: JobPublic | None


class RequestPage(_Out):
    items: list[RequestPublic]
    next_cursor: str | None


class JobList(_Out):
    items: list[RequestPublic]


class AuditEventPublic(_Out):
    seq: int
    request_id: str | None
    type: str
    actor: str
    data: dict[str, Any]
    created_at: datetime
    prev_hash: str
    hash: str
    key_id: str | None = None  # the audit key that signed ``hash``; None before the chain was keyed


class AuditList(_Out):
    items: list[AuditEventPublic]


class EventPublic(_Out):
    id: int
    cursor: str
    type: str
    request_id: str | None
    created_at: datetime
    data: dict[str, Any]


class EventPage(_Out):
    items: list[EventPublic]
    next_cursor: str


class CursorPublic(_Out):
    consumer: str
    cursor: str


class CursorUpdate(_In):
    cursor: str = Field(min_length=1, max_length=64, pattern=r"^\d+$")


class ArtifactPublic(_Out):
    kind: str
    name: str
    content_type: str
    content: str
    created_at: datetime


class ArtifactList(_Out):
    items: list[ArtifactPublic]


class PolicyPublic(_Out):
    version: str
    policy: dict[str, Any]


class DigestClaim(_In):
    channel: str = Field(min_length=1, max_length=MAX_FIELD_CHARS)
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    team: str = Field(min_length=1, max_length=128)

    @field_validator("date")
    @classmethod
    def _a_real_day(cls, value: str) -> str:
        date.fromisoformat(value)  # 2026-13-45 matches the pattern but is no day: a ValueError is a 422
        return value


class DigestClaimed(_Out):
    claimed: bool


class DigestDone(_In):
    ok: bool
    detail: str | None = Field(default=None, max_length=4000)


class Health(_Out):
    status: str
    database: str | None = None
    cache: str | None = None
