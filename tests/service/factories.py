"""Rows and decisions for tests, built directly (no parser, no engine)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from contract.status import RequestStatus
from policy.config import PolicyConfig, default_policy
from policy.decision import ApprovalRequirement, CatalogRef, Decision, Plan, Platform, PurchaseModel
from policy.request import Stage, Task, TrainingRequest
from policy.spend import SpendSnapshot
from service.audit.chain import append_event
from service.requests.filing import new_request_id
from service.requests.states import enter_initial, transition
from service.store.tables import Approval, AuditEvent, Job, LaunchTask, PlanRevision, RequestRecord

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
REQUESTER = "slack:T1:REQ"
LEADS = ["slack:T1:LEAD1", "slack:T1:LEAD2", "slack:T1:LEAD3"]
FINANCE = ["slack:T1:FIN1"]


# The service runs on the real clock and the shipped price snapshot, whose prices grow older every day a test runs:
# tests of other rules trust them (tests/policy/test_guardrails.py pins the staleness rule itself).
TRUSTED_PRICES: dict[str, Any] = {"prices_stale_after_days": 36_500, "spot_prices_stale_after_days": 36_500}


def make_policy(**changes: Any) -> PolicyConfig:
    """The default policy with test approvers, trusting the shipped prices' age (and any other keys changed)."""
    base = default_policy()
    update: dict[str, Any] = {"groups": {"ml-leads": list(LEADS), "finance": list(FINANCE)}, **TRUSTED_PRICES,
                              **changes}
    return base.model_copy(update=update)


def make_plan(*, cost: float = 1000.0, now: datetime = NOW) -> Plan:
    return Plan(
        instance_type="p4d.24xlarge", instance_count=1, accelerator="A100", accelerators=8,
        purchase_model=PurchaseModel.ON_DEMAND, platform=Platform.SAGEMAKER, region="us-east-1",
        price_per_instance_hour_usd=32.77, estimated_hours=cost / 32.77, estimated_finish=now + timedelta(hours=5),
        deadline_met=None, deadline_margin_hours=None, estimated_cost_usd=cost, cost_low_usd=cost * 0.8,
        cost_high_usd=cost * 1.3, cost_breakdown=[], checkpoint_interval_minutes=None, max_runtime_hours=12,
    )


def make_decision(
    *, cost: float = 1000.0, approvals_needed: int = 1, required: bool = True, denied: bool = False,
    team: str = "team-ml", stage: Stage = Stage.EXPERIMENTAL,
) -> Decision:
    request = TrainingRequest(text="fine-tune 7B", task=Task.FINE_TUNE, params=7_000_000_000, team=team, stage=stage)
    return Decision(
        request=request, plan=make_plan(cost=cost),
        approval=ApprovalRequirement(required=required, approvals_needed=approvals_needed,
                                     approver_groups=["ml-leads"], reasons=[], denied=denied),
        spend=SpendSnapshot.unavailable(team=team, reason="test"),
        catalog=CatalogRef(snapshot="2026-11-09", source="test"), savings_vs_naive_usd=None, naive_baseline=None,
        policy_version="test",
    )


def add_request(
    session: Session, *, status: RequestStatus = RequestStatus.PENDING_APPROVAL, approvals_needed: int = 1,
    requester: str = REQUESTER, team: str = "team-ml", stage: Stage = Stage.EXPERIMENTAL, now: datetime = NOW,
    window_hours: float = 24, request_id: str | None = None,
) -> RequestRecord:
    """A request with revision 1, recorded the way ``create_request`` records one."""
    decision = make_decision(approvals_needed=approvals_needed, team=team, stage=stage,
                             required=status is not RequestStatus.AUTO_APPROVED,
                             denied=status is RequestStatus.DENIED)
    record = RequestRecord(
        id=request_id or new_request_id(), status=status.value, team=team, requester=requester, stage=stage.value,
        text="fine-tune 7B", approvals_needed=approvals_needed, created_at=now, updated_at=now,
        expires_at=now + timedelta(hours=window_hours) if status is RequestStatus.PENDING_APPROVAL else None,
    )
    session.add(record)
    session.flush()
    session.add(PlanRevision(
        request_id=record.id, revision=1, inputs={"text": "fine-tune 7B"}, decision=decision.model_dump(mode="json"),
        training_request=decision.request.model_dump(mode="json"), plan_hash="0" * 64, policy_version="test",
        price_snapshot="2026-11-09", spend={}, estimated_cost_usd=1000.0, approvals_needed=approvals_needed,
        denied=decision.approval.denied, created_by=requester, created_at=now,
    ))
    enter_initial(session=session, record=record, status=status, actor=requester, now=now)
    session.commit()
    return record


@dataclass(frozen=True)
class Neighbours:
    """Requests that share a database with the one under test, so a query that forgets its ``request_id``
    finds rows that are not its own. Their ids sort below and above any ``new_request_id()``."""

    launched: str  # approved at revision 1 by every approver, launched: its task done, its job running
    pending: str  # approved at revision 1 by every approver, and still waiting for one more

    @property
    def ids(self) -> tuple[str, str]:
        return self.launched, self.pending


def seed_neighbours(session: Session, *, approvers: Sequence[str], team: str = "team-ml",
                    now: datetime = NOW) -> Neighbours:
    """Two requests of ``team`` at revision 1, each approved by every one of ``approvers``; commits."""
    launched = add_request(session, approvals_needed=len(approvers), team=team, now=now,
                           request_id="req_0000" + secrets.token_hex(6))
    pending = add_request(session, approvals_needed=len(approvers) + 1, team=team, now=now,
                          request_id="req_ffff" + secrets.token_hex(6))
    for record in (launched, pending):
        for count, approver in enumerate(approvers, start=1):  # with its audit event, as the service records one
            session.add(Approval(request_id=record.id, revision=1, approver=approver, decision="approve",
                                 created_at=now))
            append_event(session=session, type="request.approval_recorded", actor=approver, request_id=record.id,
                         now=now, data={"approver": approver, "decision": "approve", "comment": None, "revision": 1,
                                        "approvals": count, "needed": record.approvals_needed})
    transition(session=session, record=launched, to=RequestStatus.APPROVED, actor=approvers[-1], now=now)
    transition(session=session, record=launched, to=RequestStatus.LAUNCHING, actor="system:launcher", now=now)
    session.flush()
    task = session.exec(select(LaunchTask).where(LaunchTask.request_id == launched.id)).one()
    task.status, task.attempts, task.claimed_by, task.claimed_at = "done", 1, "worker:earlier", now
    name = f"gpuops-{launched.id.replace('_', '-')}-r1"
    session.add_all([task, Job(request_id=launched.id, revision=1, name=name, platform="sagemaker",
                               status="InProgress", external_id=f"arn:earlier:job/{name}", dry_run=False,
                               estimated_cost_usd=1000.0, created_at=now, updated_at=now)])
    transition(session=session, record=launched, to=RequestStatus.RUNNING, actor="system:launcher", now=now,
               data={"job": name})
    session.commit()
    return Neighbours(launched=launched.id, pending=pending.id)


def neighbour_rows(session: Session, neighbours: Neighbours) -> dict[str, Any]:
    """Everything stored for the neighbours, to compare before and after the test's own work."""
    ids = neighbours.ids
    session.expire_all()

    def rows(table: Any, *columns: Any) -> list[tuple[Any, ...]]:
        found = session.exec(select(*columns).where(col(table.request_id).in_(ids))).all()
        return sorted(tuple(row) for row in found)

    return {
        "requests": sorted((r.id, r.status, r.revision, r.approvals_needed) for r in
                           session.exec(select(RequestRecord).where(col(RequestRecord.id).in_(ids)))),
        "approvals": rows(Approval, Approval.request_id, Approval.revision, Approval.approver, Approval.decision),
        "tasks": rows(LaunchTask, LaunchTask.request_id, LaunchTask.revision, LaunchTask.status,
                      LaunchTask.attempts, LaunchTask.claimed_by),
        "jobs": rows(Job, Job.request_id, Job.revision, Job.name, Job.status, Job.external_id),
        "revisions": rows(PlanRevision, PlanRevision.request_id, PlanRevision.revision, PlanRevision.plan_hash),
        "events": rows(AuditEvent, AuditEvent.request_id, AuditEvent.seq, AuditEvent.type),
    }
