"""A person's decision on a request: what the bot sends, and how the request shows it."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import Field

from contract.base import InputModel, OutputModel
from contract.text import Text

MAX_NAME_CHARS = 256
MAX_COMMENT_CHARS = 4000


class ApprovalDecision(StrEnum):
    APPROVE = "approve"
    REJECT = "reject"
    WITHDRAW = "withdraw"  # take back one's own approval while the request has not launched


class ApprovalCreate(InputModel):
    """``POST /v1/requests/{id}/approvals``."""

    approver: Text | None = Field(default=None, max_length=MAX_NAME_CHARS)
    decision: ApprovalDecision
    comment: Text | None = Field(default=None, max_length=MAX_COMMENT_CHARS)
    revision: int | None = Field(default=None, ge=1, description=(
        "the plan revision the approver was shown; 409 revision_changed when the request has a newer one"))


class ApprovalPublic(OutputModel):
    approver: str
    decision: ApprovalDecision
    comment: str | None
    revision: int
    created_at: datetime
