"""Answers to alerts: a person's word on a Cost Explorer anomaly, sent through the service."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from contract.approvals import MAX_EMAIL_CHARS, MAX_USERGROUPS, UsergroupId
from contract.base import InputModel, OutputModel
from contract.text import Text

ANOMALY_ID_PATTERN = r"^[A-Za-z0-9-]{1,128}$"


class AnomalyFeedback(InputModel):
    """``expected`` (planned activity) or ``not_expected`` (a real anomaly), as Cost Explorer records it."""

    verdict: Literal["expected", "not_expected"]
    approver_email: Text | None = Field(default=None, max_length=MAX_EMAIL_CHARS, description=(
        "bot only: the e-mail (Slack users.info) of the person answering, for approver groups that list e-mails"))
    approver_groups: list[UsergroupId] | None = Field(default=None, max_length=MAX_USERGROUPS, description=(
        "bot only: the approver groups' Slack user groups (S…) the person answering belongs to"))


class AnomalyFeedbackRecorded(OutputModel):
    anomaly_id: str
    team: str
    verdict: str
    by: str
