"""Rows → the public wire models."""

from __future__ import annotations

from sqlmodel import Session, col, select

from policy.config import PolicyConfig
from policy.decision import Decision
from policy.request import Stage
from service.records import get_revision
from service.schemas import ApprovalDecision, ApprovalPublic, JobPublic, RequestPublic, SlackMessageRef
from service.states import RequestStatus
from service.store.tables import Approval, Job, PlanRevision, RequestRecord, SlackMessage


def eligible_approvers(policy: PolicyConfig, record: RequestRecord) -> list[str]:
    """Who may approve this request: the approver groups of its team and stage, never its requester."""
    return sorted(policy.approvers_for(record.team, Stage(record.stage)) - {record.requester})


def current_approvals(*, session: Session, record: RequestRecord) -> list[Approval]:
    statement = (
        select(Approval)
        .where(Approval.request_id == record.id, Approval.revision == record.revision)
        .order_by(col(Approval.created_at), col(Approval.id))
    )
    return list(session.exec(statement))


def counted_approvers(*, policy: PolicyConfig, record: RequestRecord, approvals: list[Approval]) -> list[str]:
    """Who approved the current revision and may still approve it under the policy in force."""
    eligible = set(eligible_approvers(policy, record))
    return [a.approver for a in approvals if a.decision == ApprovalDecision.APPROVE and a.approver in eligible]


def _job(job: Job | None) -> JobPublic | None:
    if job is None:
        return None
    return JobPublic(
        name=job.name, status=job.status, secondary_status=job.secondary_status, platform=job.platform,
        estimated_cost_usd=job.estimated_cost_usd, actual_cost_usd=job.actual_cost_usd,
        billable_seconds=job.billable_seconds, training_seconds=job.training_seconds, spot_savings=job.spot_savings,
        interruptions=job.interruptions,
    )


def request_public(
    *, session: Session, record: RequestRecord, policy: PolicyConfig, new: PlanRevision | None = None,
) -> RequestPublic:
    """The request as the API shows it: current revision, its approvals, where it was posted, its job.

    ``new``: the revision just written for a new request, which has no approvals, message or job to look up.
    """
    revision = new or get_revision(session=session, request_id=record.id, revision=record.revision)
    approvals = [] if new else current_approvals(session=session, record=record)
    approves = len(counted_approvers(policy=policy, record=record, approvals=approvals))
    remaining = max(0, record.approvals_needed - approves)
    if record.status != RequestStatus.PENDING_APPROVAL:
        remaining = 0
    message = None if new else session.get(SlackMessage, record.id)
    job = None if new else session.exec(select(Job).where(Job.request_id == record.id)).first()
    return RequestPublic(
        id=record.id, status=record.status, team=record.team, requester=record.requester, channel=record.channel,
        timezone=record.timezone, text=record.text, revision=record.revision, plan_hash=revision.plan_hash,
        decision=Decision.model_validate(revision.decision),
        approvals=[
            ApprovalPublic(approver=a.approver, decision=ApprovalDecision(a.decision), comment=a.comment,
                           revision=a.revision, created_at=a.created_at)
            for a in approvals
        ],
        approvals_needed=record.approvals_needed, approvals_remaining=remaining,
        eligible_approvers=eligible_approvers(policy, record), expires_at=record.expires_at,
        created_at=record.created_at, updated_at=record.updated_at,
        slack_message=SlackMessageRef(channel=message.channel, ts=message.ts) if message else None,
        job=_job(job),
    )
