"""Re-approval before launch: a plan whose prices or spend moved beyond the policy's tolerance since it was
approved must be approved again (docs/design.md §State).

The launcher calls ``check_before_launch`` when it claims a task for an approved or auto-approved request. When the
plan re-decided with the catalog and spend in force costs more than ``reapproval_tolerance`` away from the approved
estimate, needs more approvals than it has, or policy would now decide differently (deny, no longer approve
automatically, or no longer let the team run on the plan's platform), the request gets a new revision — which
voids the earlier approvals, since they bind to a revision — and goes back to ``pending_approval`` with a fresh
approval window (then on to ``auto_approved`` or ``denied`` at once when that is what policy now decides). The
launch task of the old revision is then superseded; approving the new revision queues a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from contract.status import RequestStatus
from policy.decision import Platform
from policy.platform import allowed_platforms
from policy.request import TrainingRequest
from service.audit.chain import append_event
from service.planning import PlanContext, Planner
from service.requests.filing import initial_status, revision_row, stage_of
from service.requests.records import get_request_or_raise, get_revision
from service.requests.states import transition
from service.store.tables import PlanRevision, RequestRecord

ACTOR = "system:reapproval"


@dataclass(frozen=True)
class Drift:
    """How the plan re-decided now differs from the approved one; ``reason`` is None when it may launch."""

    context: PlanContext
    cost_change: float  # fraction of the approved estimate
    reason: str | None


def measure_drift(*, planner: Planner, revision: PlanRevision, now: datetime) -> Drift:
    """Re-decide the approved request with today's catalog and spend and compare."""
    request = TrainingRequest.model_validate(revision.training_request)
    context = planner.plan(request, now=now)
    old, new = revision.estimated_cost_usd, context.decision.plan.estimated_cost_usd
    change = abs(new - old) / old if old else 0.0
    status = initial_status(context)
    reason = None
    approved_job, job_now = revision.decision.get("job"), context.decision.model_dump(mode="json").get("job")
    if (closed := _platform_closed(planner, request, revision)) is not None:
        reason = closed
    elif approved_job != job_now:
        reason = "what the job runs changed since it was approved: " + _job_change(approved_job, job_now)
    elif status is RequestStatus.DENIED:
        reason = "policy now denies this plan: " + "; ".join(context.decision.approval.reasons)
    elif change > planner.policy.reapproval_tolerance:
        reason = (f"the estimate moved {change:.0%} (${old:,.2f} → ${new:,.2f}), more than the policy's "
                  f"{planner.policy.reapproval_tolerance:.0%} tolerance")
    elif revision.approvals_needed == 0 and status is not RequestStatus.AUTO_APPROVED:
        reason = "it would no longer be approved automatically: " + "; ".join(context.decision.approval.reasons)
    elif context.decision.approval.approvals_needed > revision.approvals_needed:
        reason = (f"it now needs {context.decision.approval.approvals_needed} approvals, not "
                  f"{revision.approvals_needed}: " + "; ".join(context.decision.approval.reasons))
    elif added := _new_groups(revision.decision, context.decision.approval.required_groups):
        reason = (f"it now needs approval from {', '.join(added)} (e.g. the team's budget was crossed since): "
                  + "; ".join(context.decision.approval.reasons))
    return Drift(context=context, cost_change=change, reason=reason)


def _platform_closed(planner: Planner, request: TrainingRequest, revision: PlanRevision) -> str | None:
    """Why the approved plan's platform is no longer one the team may run on, or None. A plan made while the policy
    enabled EKS, HyperPod or EC2 must not launch there once the policy has turned it off, however little its cost
    moved: the re-decided plan, on a platform the team may use, goes back for approval instead."""
    platform = Platform(revision.decision["plan"]["platform"])
    team_name, team = planner.policy.team_or_default(request.team)
    if platform in allowed_platforms(team):
        return None
    return (f"{team_name} may no longer run on {platform.value}: teams.{team_name}.platforms.{platform.value} is off "
            "in the policy in force")


def _new_groups(approved: dict[str, Any], required_now: list[str]) -> list[str]:
    """Groups the plan needs approval from now that its approved revision did not (finance, once money routes there)."""
    before = set(approved.get("approval", {}).get("required_groups", []))
    return sorted(set(required_now) - before)


def _job_change(before: dict[str, object] | None, after: dict[str, object] | None) -> str:
    """Which parts of the job differ, by name (image digest, dataset, hyperparameters…)."""
    if before is None or after is None:
        return "the team's recipes changed"
    return ", ".join(k for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k))


def _reopen(*, session: Session, planner: Planner, record: RequestRecord, revision: PlanRevision, drift: Drift,
            now: datetime) -> None:
    record.revision += 1
    record.stage = stage_of(drift.context)
    record.approvals_needed = drift.context.decision.approval.approvals_needed
    session.add(record)
    session.add(revision_row(record=record, context=drift.context, inputs=revision.inputs, actor=ACTOR, now=now))
    append_event(session=session, type="request.revised", actor=ACTOR, request_id=record.id, now=now,
                 data={"revision": record.revision, "previous_revision": revision.revision, "approvals_voided": True,
                       "reason": drift.reason, "estimated_cost_usd": drift.context.decision.plan.estimated_cost_usd})
    # The new revision was written above, so this transition makes no second one.
    transition(session=session, record=record, to=RequestStatus.PENDING_APPROVAL, actor=ACTOR, now=now,
               data={"reason": drift.reason}, approval_window=timedelta(hours=planner.policy.approval_window_hours))
    decided = initial_status(drift.context)
    if decided is not RequestStatus.PENDING_APPROVAL:  # policy settles the new revision itself
        record.expires_at = None
        transition(session=session, record=record, to=decided, actor=ACTOR, now=now, data={"reason": drift.reason})


def check_before_launch(*, session: Session, planner: Planner, request_id: str, now: datetime) -> str | None:
    """Re-check an approved request before launch; the reason it went back for approval, or None to launch.

    The caller holds the request's row lock (or gets it here) and commits.
    """
    record = get_request_or_raise(session=session, request_id=request_id, lock=True)
    if record.status not in (RequestStatus.APPROVED, RequestStatus.AUTO_APPROVED):
        return None
    revision = get_revision(session=session, request_id=record.id, revision=record.revision)
    drift = measure_drift(planner=planner, revision=revision, now=now)
    if drift.reason is None:
        return None
    _reopen(session=session, planner=planner, record=record, revision=revision, drift=drift, now=now)
    return drift.reason
