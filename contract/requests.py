"""A request for compute: the bodies that create, change, cancel and stop one, and the request as the API shows it."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from contract.approvals import (
    MAX_COMMENT_CHARS,
    MAX_EMAIL_CHARS,
    MAX_NAME_CHARS,
    MAX_USERGROUPS,
    ApprovalPublic,
    UsergroupId,
)
from contract.base import InputModel, OutputModel
from contract.jobs import JobPublic
from contract.plans import MAX_TEXT_CHARS, PlanFields, PlanInput
from contract.text import Text
from policy.decision import Alternative, Decision, Plan
from policy.questions import Question
from policy.request import TrainingRequest


class RequesterFacts(InputModel):
    """What the bot looked up in Slack about the person it acts for, for teams that list members by e-mail or user
    group. Believed from a bot token acting for a person (``X-Gpuops-Actor``) only; ignored from any other caller."""

    requester_email: Text | None = Field(default=None, max_length=MAX_EMAIL_CHARS,
                                         description="bot only: the person's e-mail (Slack users.info)")
    requester_groups: list[UsergroupId] | None = Field(
        default=None, max_length=MAX_USERGROUPS,
        description="bot only: the policy's Slack user groups (S…) the person belongs to")


class RequestCreate(PlanInput, RequesterFacts):
    """``POST /v1/requests``: a plan input plus who asked and where."""

    requester: Text | None = Field(default=None, max_length=MAX_NAME_CHARS)
    channel: Text | None = Field(default=None, max_length=MAX_NAME_CHARS)


class RequestPatch(PlanFields, RequesterFacts):
    """``PATCH /v1/requests/{id}``: the fields to change (``text`` replaces the text and is parsed again); the
    requester facts count when the edit names another team."""

    text: Text | None = Field(default=None, max_length=MAX_TEXT_CHARS)
    timezone: Text | None = Field(default=None, max_length=64)


class CancelBody(InputModel):
    reason: Text | None = Field(default=None, max_length=MAX_COMMENT_CHARS)


class StopBody(InputModel):
    reason: Text | None = Field(default=None, max_length=MAX_COMMENT_CHARS)
    approver_email: Text | None = Field(default=None, max_length=MAX_EMAIL_CHARS, description=(
        "bot only: the e-mail (Slack users.info) of the person asking, for approver groups that list e-mails"))
    approver_groups: list[UsergroupId] | None = Field(default=None, max_length=MAX_USERGROUPS, description=(
        "bot only: the approver groups' Slack user groups (S…) the person asking belongs to"))


class SlackMessageRef(InputModel):
    """Where the bot posted a request (``PUT /v1/requests/{id}/slack-message``, and ``slack_message`` in answers)."""

    channel: Text = Field(min_length=1, max_length=MAX_NAME_CHARS)
    ts: Text = Field(min_length=1, max_length=64)


class PreviousRevision(OutputModel):
    """The revision before the current one: what a new revision changed, and the choices it offered (a message keeps
    offering them after "Use this" narrowed the plan to one configuration)."""

    revision: int
    plan: Plan
    alternatives: list[Alternative]


class RequestPublic(OutputModel):
    id: str
    # A RequestStatus value, kept a plain string so a client still parses a status newer than itself.
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
    # When the current revision was planned: its finish time assumes a start then, so an approval later than that
    # moves the finish by as much (the plan message's "approve by").
    planned_at: datetime | None = None
    previous: PreviousRevision | None = None
    # The amount an approver confirms before their approval counts, when the policy asks for confirmation at or
    # above ``confirm_approval_above_usd``; None: Approve needs no confirmation.
    approval_confirm_usd: float | None = None


class RequestQuestionsPublic(OutputModel):
    """A request in ``needs_input``: no plan yet, the questions to answer (``PATCH /v1/requests/{id}`` with the
    answered fields) and what was read so far."""

    id: str
    status: str  # "needs_input"
    team: str
    requester: str
    channel: str | None
    timezone: str
    text: str
    questions: list[Question]
    request: TrainingRequest
    created_at: datetime
    updated_at: datetime
    slack_message: SlackMessageRef | None


class RequestPage(OutputModel):
    items: list[RequestPublic]
    next_cursor: str | None


class JobList(OutputModel):
    """``GET /v1/jobs``: the requests that have a job."""

    items: list[RequestPublic]


class ArtifactPublic(OutputModel):
    kind: str
    name: str
    content_type: str
    content: str
    created_at: datetime


class ArtifactList(OutputModel):
    items: list[ArtifactPublic]
