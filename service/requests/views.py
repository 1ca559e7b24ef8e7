"""Rows → the public wire models."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from contract.approvals import ApprovalDecision, ApprovalPublic
from contract.jobs import JobPublic
from contract.requests import PreviousRevision, RequestPublic, RequestQuestionsPublic, SlackMessageRef
from contract.status import RequestStatus
from policy.config import PolicyConfig
from policy.decision import Decision
from policy.membership import basis_holds
from policy.questions import Question
from policy.request import Stage, TrainingRequest
from service.store.tables import Approval, Job, PlanRevision, RequestQuestions, RequestRecord, SlackMessage


def routed_members(policy: PolicyConfig, decision: dict[str, Any] | None) -> set[str]:
    """Members of the groups the plan's money routed it to beyond its stage's approvers (``decision``'s
    ``approval.approver_groups``, e.g. finance for a plan over budget)."""
    groups = (decision or {}).get("approval", {}).get("approver_groups", [])
    return {member for group in groups for member in policy.groups.get(group, [])}


def eligible_approvers(policy: PolicyConfig, record: RequestRecord,
                       decision: dict[str, Any] | None = None) -> list[str]:
    """Who may approve this request: the approver groups' entries for its team and stage (actor ids, Slack user
    groups, e-mails) and the groups its plan's money routed it to, never its requester."""
    entries = policy.approver_entries(record.team, Stage(record.stage)) | routed_members(policy, decision)
    return sorted(entries - {record.requester})


def approval_holds(policy: PolicyConfig, record: RequestRecord, approval: Approval,
                   decision: dict[str, Any] | None = None) -> bool:
    """Whether an approval still counts under the policy in force: on the entry that admitted it, or as a member
    of a group the plan was routed to; never the requester's own."""
    if approval.approver == record.requester:
        return False
    return basis_holds(policy, team=record.team, stage=Stage(record.stage), approver=approval.approver,
                       basis=approval.eligible_via) or approval.approver in routed_members(policy, decision)


def groups_missing(policy: PolicyConfig, decision: dict[str, Any], approvers: list[str]) -> list[str]:
    """The plan's required groups (``approval.required_groups``) none of whose members is among ``approvers``."""
    required = decision.get("approval", {}).get("required_groups", [])
    return [g for g in required if not set(policy.groups.get(g, [])) & set(approvers)]


def current_approvals(*, session: Session, record: RequestRecord) -> list[Approval]:
    statement = (
        select(Approval)
        .where(Approval.request_id == record.id, Approval.revision == record.revision)
        .order_by(col(Approval.created_at), col(Approval.id))
    )
    return list(session.exec(statement))


def counted_approvers(*, policy: PolicyConfig, record: RequestRecord, approvals: list[Approval],
                      decision: dict[str, Any] | None = None) -> list[str]:
    """Who approved the current revision and may still approve it under the policy in force."""
    return [a.approver for a in approvals
            if a.decision == ApprovalDecision.APPROVE and approval_holds(policy, record, a, decision)]


def _job(job: Job | None) -> JobPublic | None:
    if job is None:
        return None
    return JobPublic(
        name=job.name, status=job.status, secondary_status=job.secondary_status, platform=job.platform,
        estimated_cost_usd=job.estimated_cost_usd, actual_cost_usd=job.actual_cost_usd,
        billable_seconds=job.billable_seconds, training_seconds=job.training_seconds, spot_savings=job.spot_savings,
        interruptions=job.interruptions, cost_so_far_usd=job.cost_so_far_usd,
        projected_cost_usd=job.projected_cost_usd, cost_as_of=job.cost_as_of,
    )


@dataclass(frozen=True)
class _Related:
    """What a request's public form needs besides its own row."""

    revision: PlanRevision
    approvals: list[Approval]
    message: SlackMessage | None
    job: Job | None
    previous: PlanRevision | None = None


def _related(session: Session, records: list[RequestRecord]) -> dict[str, _Related]:
    """Everything the public form of ``records`` needs, in four queries however many records there are."""
    ids = [r.id for r in records]
    current = {(r.id, r.revision) for r in records}
    wanted = current | {(r.id, r.revision - 1) for r in records if r.revision > 1}
    in_wanted = sa.tuple_(col(PlanRevision.request_id), col(PlanRevision.revision)).in_(sorted(wanted))
    revisions = {(v.request_id, v.revision): v for v in session.exec(select(PlanRevision).where(in_wanted))}
    approvals: dict[str, list[Approval]] = {i: [] for i in ids}
    current_approvals_only = sa.tuple_(col(Approval.request_id), col(Approval.revision)).in_(sorted(current))
    for a in session.exec(select(Approval).where(current_approvals_only)
                          .order_by(col(Approval.created_at), col(Approval.id))):
        approvals[a.request_id].append(a)
    message_rows = session.exec(select(SlackMessage).where(col(SlackMessage.request_id).in_(ids)))
    messages = {m.request_id: m for m in message_rows}
    jobs = {j.request_id: j for j in session.exec(select(Job).where(col(Job.request_id).in_(ids)))}
    return {r.id: _Related(revisions[(r.id, r.revision)], approvals[r.id], messages.get(r.id), jobs.get(r.id),
                           revisions.get((r.id, r.revision - 1)))
            for r in records}


def _confirm_usd(policy: PolicyConfig, revision: PlanRevision) -> float | None:
    """What an approver confirms before approving: the judged amount, when the policy asks at or above it."""
    judged = revision.judged_usd if revision.judged_usd is not None else revision.estimated_cost_usd
    threshold = policy.confirm_approval_above_usd
    return judged if threshold is not None and judged >= threshold else None


def _previous(row: PlanRevision | None) -> PreviousRevision | None:
    if row is None:
        return None
    decision = Decision.model_validate(row.decision)
    return PreviousRevision(revision=row.revision, plan=decision.plan, alternatives=decision.alternatives)


def _public(record: RequestRecord, related: _Related, policy: PolicyConfig) -> RequestPublic:
    decision = related.revision.decision
    counted = counted_approvers(policy=policy, record=record, approvals=related.approvals, decision=decision)
    remaining = (max(0, record.approvals_needed - len(counted), len(groups_missing(policy, decision, counted)))
                 if record.status == RequestStatus.PENDING_APPROVAL else 0)
    message = related.message
    return RequestPublic(
        id=record.id, status=record.status, team=record.team, requester=record.requester, channel=record.channel,
        timezone=record.timezone, text=record.text, revision=record.revision, plan_hash=related.revision.plan_hash,
        decision=Decision.model_validate(related.revision.decision),
        approvals=[
            ApprovalPublic(approver=a.approver, decision=ApprovalDecision(a.decision), comment=a.comment,
                           revision=a.revision, created_at=a.created_at)
            for a in related.approvals
        ],
        approvals_needed=record.approvals_needed, approvals_remaining=remaining,
        eligible_approvers=eligible_approvers(policy, record, decision), expires_at=record.expires_at,
        created_at=record.created_at, updated_at=record.updated_at,
        slack_message=SlackMessageRef(channel=message.channel, ts=message.ts) if message else None,
        job=_job(related.job), approval_confirm_usd=_confirm_usd(policy, related.revision),
        planned_at=related.revision.created_at, previous=_previous(related.previous),
    )


def request_public(
    *, session: Session, record: RequestRecord, policy: PolicyConfig, new: PlanRevision | None = None,
) -> RequestPublic | RequestQuestionsPublic:
    """The request as the API shows it: current revision, its approvals, where it was posted, its job; or, while it
    waits for answers, its questions.

    ``new``: the revision just written for a new request, which has no approvals, message or job to look up.
    """
    if record.revision == 0:  # never planned: waiting for answers, or cancelled while it waited
        return questions_public(session=session, record=record)
    related = _Related(new, [], None, None) if new else _related(session, [record])[record.id]
    return _public(record, related, policy)


def questions_public(*, session: Session, record: RequestRecord) -> RequestQuestionsPublic:
    """A request never planned (``needs_input``, or cancelled while waiting) as the API shows it."""
    row = session.get(RequestQuestions, record.id)
    assert row is not None  # written with the record, removed only when it leaves needs_input
    message = session.get(SlackMessage, record.id)
    return RequestQuestionsPublic(
        id=record.id, status=record.status, team=record.team, requester=record.requester, channel=record.channel,
        timezone=record.timezone, text=record.text, questions=[Question.model_validate(q) for q in row.questions],
        request=TrainingRequest.model_validate(row.training_request), created_at=record.created_at,
        updated_at=record.updated_at,
        slack_message=SlackMessageRef(channel=message.channel, ts=message.ts) if message else None,
    )


def requests_public(*, session: Session, records: list[RequestRecord], policy: PolicyConfig) -> list[RequestPublic]:
    """Many requests as the API shows them, without a query per request."""
    if not records:
        return []
    related = _related(session, records)
    return [_public(r, related[r.id], policy) for r in records]
