"""A person's decision on a request: what the bot sends, and how the request shows it."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated

from pydantic import Field

from contract.base import InputModel, OutputModel
from contract.text import Text

MAX_NAME_CHARS = 256
MAX_COMMENT_CHARS = 4000
MAX_EMAIL_CHARS = 254  # RFC 5321's limit on a forward path
MAX_USERGROUPS = 100
UsergroupId = Annotated[str, Field(pattern=r"^S[A-Z0-9]{1,63}$")]  # the pattern excludes NUL already


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
    approver_email: Text | None = Field(default=None, max_length=MAX_EMAIL_CHARS, description=(
        "bot only: the approving person's e-mail (Slack users.info), for approver groups that list e-mails"))
    approver_groups: list[UsergroupId] | None = Field(default=None, max_length=MAX_USERGROUPS, description=(
        "bot only: the approver groups' Slack user groups (S…) the approving person belongs to"))


class ApprovalPublic(OutputModel):
    approver: str
    decision: ApprovalDecision
    comment: str | None
    revision: int
    created_at: datetime
