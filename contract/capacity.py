"""Capacity actions on the wire: proposing one of a plan's actions, approving it, and how it stands."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from contract.approvals import MAX_EMAIL_CHARS, MAX_USERGROUPS, UsergroupId
from contract.base import InputModel, OutputModel
from contract.text import Text
from policy.capacity import CapacityAction

MAX_NAME_CHARS = 256
MAX_ACTIONS = 100  # a plan lists a handful


class CapacityActionCreate(InputModel):
    """``POST /v1/requests/{id}/capacity-actions``: propose the plan's action at ``position``."""

    position: int = Field(ge=0, le=MAX_ACTIONS,
                          description="index into the current revision's decision.capacity_actions")


class CapacityActionApproval(InputModel):
    """``POST /v1/capacity-actions/{id}/approvals``."""

    approver: Text | None = Field(default=None, max_length=MAX_NAME_CHARS)
    approver_email: Text | None = Field(default=None, max_length=MAX_EMAIL_CHARS, description=(
        "bot only: the approving person's e-mail (Slack users.info), for approver groups that list e-mails"))
    approver_groups: list[UsergroupId] | None = Field(default=None, max_length=MAX_USERGROUPS, description=(
        "bot only: the approver groups' Slack user groups (S…) the approving person belongs to"))


class CapacityActionPublic(OutputModel):
    id: str
    request_id: str
    revision: int
    position: int
    action: CapacityAction
    status: str  # pending_approval | approved | executing | done | failed | rejected
    proposed_by: str
    approvals_needed: int
    approvers: list[str]
    result: dict[str, Any]
    last_error: str | None
    created_at: datetime
    updated_at: datetime


class CapacityActionList(OutputModel):
    items: list[CapacityActionPublic]
