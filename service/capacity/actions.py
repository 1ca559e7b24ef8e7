"""Actions that add capacity for a plan — a quota increase, a capacity block, a SageMaker training plan — proposed
from a plan, approved by the people policy names, then done exactly once (docs/design.md §Capacity).

Planning never does any of them: a plan only lists them (``Decision.capacity_actions``). A person proposes one
(``propose_action``); approvers decide (``approve_action``: the team's approvers for a quota increase, the policy's
``capacity_purchase_approvers`` — finance by default — for anything bought); the proposer never approves their own.
``execute_action`` then claims the row with a compare-and-set from ``approved`` to ``executing`` — only one caller
wins, however many approvals race — and makes the AWS call. A row left ``executing`` by a crash is never retried
automatically: money was perhaps spent, so ``reconcile`` looks for what the call created (by its tag) and a person
decides otherwise. Every step is an audit event on the request, so the request's Slack thread hears of it through the
events feed.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from contract.errors import Conflict, Forbidden, NotFound, UpstreamError
from contract.status import OPEN_STATES
from policy.capacity import ActionKind, CapacityAction
from policy.config import PolicyConfig
from policy.decision import Decision
from policy.membership import Filer, admitting_entry
from policy.request import Stage
from service.audit.chain import append_event
from service.aws import capacity_blocks, quotas, training_plans
from service.requests.records import get_request_or_raise, get_revision
from service.store.db import new_session
from service.store.tables import CapacityActionRow, RequestRecord

log = logging.getLogger("gpuops.capacity")
ACTOR = "system:capacity"
TAG_KEY = "gpuops:capacity-action"
TEAM_TAG = capacity_blocks.TEAM_TAG  # whose reserved capacity it is: only that team's plans may use it
PURCHASES = frozenset({ActionKind.PURCHASE_CAPACITY_BLOCK, ActionKind.CREATE_TRAINING_PLAN})

ClientFor = Callable[[str, str], Any]  # (service, region) -> boto3 client


def new_action_id() -> str:
    return "cap_" + secrets.token_hex(8)


def approver_groups(*, policy: PolicyConfig, action: CapacityAction, team: str, stage: Stage) -> list[str]:
    """Who approves this action: finance (the policy's purchase approvers) for a purchase, else the team's."""
    if action.kind in PURCHASES:
        return list(policy.capacity_purchase_approvers)
    return policy.approver_groups(team, stage)


def _eligible(policy: PolicyConfig, groups: list[str]) -> set[str]:
    return {member for group in groups for member in policy.groups.get(group, [])}


def get_action_or_raise(*, session: Session, action_id: str, lock: bool = False) -> CapacityActionRow:
    statement = select(CapacityActionRow).where(CapacityActionRow.id == action_id)
    if lock:
        statement = statement.with_for_update()
    row = session.exec(statement).first()
    if row is None:
        raise NotFound(f"no capacity action {action_id!r}")
    return row




def _stale(record: RequestRecord, row: CapacityActionRow | None = None) -> str | None:
    """Why the request no longer wants this action (closed, or its plan revised since), or None."""
    if record.status not in OPEN_STATES:
        return f"the request is {record.status}"
    if row is not None and row.revision != record.revision:
        return f"the plan was revised since (revision {row.revision}, now {record.revision})"
    return None


def propose_action(*, session: Session, request_id: str, position: int, actor: str, now: datetime,
                   ) -> CapacityActionRow:
    """The action at ``position`` of the request's current plan, recorded for approval (once: proposing it again
    returns the same row). Commits."""
    record = get_request_or_raise(session=session, request_id=request_id, lock=True)
    if (why := _stale(record)) is not None:
        raise Conflict(f"{why}; nothing is bought or requested for it", current_state=record.status)
    existing = session.exec(select(CapacityActionRow).where(
        CapacityActionRow.request_id == record.id, CapacityActionRow.revision == record.revision,
        CapacityActionRow.position == position)).first()
    if existing is not None:
        return existing
    decision = Decision.model_validate(get_revision(session=session, request_id=record.id,
                                                    revision=record.revision).decision)
    if not 0 <= position < len(decision.capacity_actions):
        raise NotFound(f"revision {record.revision} of {record.id} has no capacity action {position} (it lists "
                       f"{len(decision.capacity_actions)})")
    action = decision.capacity_actions[position]
    row = CapacityActionRow(id=new_action_id(), request_id=record.id, revision=record.revision, position=position,
                            kind=action.kind.value, action=action.model_dump(mode="json"), proposed_by=actor,
                            created_at=now, updated_at=now)
    session.add(row)
    append_event(session=session, type="capacity.action_proposed", actor=actor, request_id=record.id, now=now,
                 data={"action_id": row.id, "kind": row.kind, "summary": action.summary})
    try:
        session.commit()
    except IntegrityError:  # proposed at the same moment by someone else: theirs stands
        session.rollback()
        return propose_action(session=session, request_id=request_id, position=position, actor=actor, now=now)
    return row


def approve_action(*, session: Session, policy: PolicyConfig, action_id: str, approver: str,
                   now: datetime, person: Filer | None = None) -> CapacityActionRow:
    """Record ``approver``'s approval; the row becomes ``approved`` with enough of them. Commits.

    ``person``: what the bot vouched for about the approver (e-mail, Slack user groups), for approver groups that list
    those. A second approval by the same person, or one after the action is approved, changes nothing."""
    row = get_action_or_raise(session=session, action_id=action_id, lock=True)
    record = get_request_or_raise(session=session, request_id=row.request_id)
    if (why := _stale(record, row)) is not None:
        raise Conflict(f"{why}; this capacity action no longer applies", current_state=record.status)
    action = CapacityAction.model_validate(row.action)
    groups = approver_groups(policy=policy, action=action, team=record.team, stage=Stage(record.stage))
    if approver == row.proposed_by or approver == record.requester:
        raise Forbidden("you proposed this capacity action (or filed its request); someone else approves it")
    known = person if person is not None and person.actor == approver else Filer(actor=approver)
    if admitting_entry(_eligible(policy, groups), known) is None:
        raise Forbidden(f"only members of {', '.join(groups) or '(no group)'} approve this capacity action")
    if row.status != "pending_approval" or approver in row.approvers:
        if row.status in ("rejected", "failed"):
            raise Conflict(f"this capacity action is {row.status}", current_state=row.status)
        return row
    row.approvers = [*row.approvers, approver]
    approved = len(row.approvers) >= row.approvals_needed
    if approved:
        row.status = "approved"
    row.updated_at = now
    session.add(row)
    append_event(session=session, type="capacity.action_approved", actor=approver, request_id=row.request_id,
                 now=now, data={"action_id": row.id, "kind": row.kind, "approved": approved,
                                "summary": action.summary})
    session.commit()
    return row


def claim_action(*, engine: Engine, action_id: str, worker_id: str, now: datetime) -> int | None:
    """Take an approved action to do it: the attempt number when this caller won, None when another did (or it is
    not approved). Only ever from ``approved``: an action once claimed is never claimed again."""
    with new_session(engine) as session:
        result = session.connection().execute(
            sa.update(CapacityActionRow)
            .where(col(CapacityActionRow.id) == action_id, col(CapacityActionRow.status) == "approved")
            .values(status="executing", claimed_by=worker_id, claimed_at=now,
                    attempts=CapacityActionRow.attempts + 1, updated_at=now))
        session.commit()
        if result.rowcount != 1:
            return None
        row = get_action_or_raise(session=session, action_id=action_id)
        return row.attempts


def execute_action(*, engine: Engine, client_for: ClientFor, action_id: str, worker_id: str,
                   now: datetime) -> CapacityActionRow | None:
    """Do an approved action once; the finished row, or None when another caller has it."""
    if claim_action(engine=engine, action_id=action_id, worker_id=worker_id, now=now) is None:
        return None
    with new_session(engine) as session:
        row = get_action_or_raise(session=session, action_id=action_id)
        action = CapacityAction.model_validate(row.action)
        record = get_request_or_raise(session=session, request_id=row.request_id)
        team, why = record.team, _stale(record, row)
    if why is not None:  # approved, then the request closed or changed: nothing is bought
        return _finish(engine, action_id, status="failed", result={}, error=f"not done: {why}", now=now)
    try:
        result = _call(action, client_for=client_for, action_id=action_id, request_id=row.request_id, team=team)
    except UpstreamError as exc:
        return _finish(engine, action_id, status="failed", result={}, error=str(exc), now=now)
    return _finish(engine, action_id, status="done", result=result, error=None, now=now)


def _call(action: CapacityAction, *, client_for: ClientFor, action_id: str, request_id: str,
          team: str) -> dict[str, Any]:
    tags = {TAG_KEY: action_id, "gpuops:request": request_id, TEAM_TAG: team}
    if action.kind is ActionKind.QUOTA_INCREASE:
        assert action.quota_service is not None and action.desired_value is not None
        code = action.quota_code or _quota_code(client_for("service-quotas", action.region), action)
        asked = quotas.request_increase(client=client_for("service-quotas", action.region),
                                        service_code=action.quota_service, quota_code=code,
                                        desired_value=action.desired_value)
        return {"quota_request_id": asked.get("Id"), "quota_request_status": asked.get("Status"),
                "quota_code": code}
    assert action.offering_id is not None
    if action.kind is ActionKind.PURCHASE_CAPACITY_BLOCK:
        reservation = capacity_blocks.purchase(client=client_for("ec2", action.region),
                                               offering_id=action.offering_id, tags=tags)
        return {"capacity_reservation_id": reservation.get("CapacityReservationId"),
                "state": reservation.get("State")}
    name = f"gpuops-{request_id}-{action_id}".replace("_", "-")[:63]
    arn = training_plans.create(client=client_for("sagemaker", action.region), name=name,
                                offering_id=action.offering_id, tags=tags)
    return {"training_plan_arn": arn, "training_plan_name": name}


def _quota_code(client: Any, action: CapacityAction) -> str:
    """A SageMaker quota's code, looked up by its name."""
    assert action.quota_service is not None
    found = quotas.list_quotas(client=client, service_code=action.quota_service).get(action.quota_name or "")
    if found is None:
        raise UpstreamError(f"no quota named {action.quota_name!r} in {action.region}", service="service-quotas",
                            operation="ListServiceQuotas", code="aws_error")
    return str(found["QuotaCode"])


def _finish(engine: Engine, action_id: str, *, status: str, result: dict[str, Any], error: str | None,
            now: datetime) -> CapacityActionRow:
    with new_session(engine) as session:
        row = get_action_or_raise(session=session, action_id=action_id, lock=True)
        row.status, row.result, row.last_error, row.updated_at = status, result, error, now
        session.add(row)
        append_event(session=session, type=f"capacity.action_{status}", actor=ACTOR, request_id=row.request_id,
                     now=now, data={"action_id": row.id, "kind": row.kind, "result": result, "error": error})
        session.commit()
        session.refresh(row)
        return row


def track_action(*, engine: Engine, client_for: ClientFor, action_id: str, now: datetime) -> CapacityActionRow:
    """Read where a done action stands — a quota request's status, a training plan's status and free instances —
    and post a change as an audit event (the request's thread hears of it)."""
    with new_session(engine) as session:
        row = get_action_or_raise(session=session, action_id=action_id)
        action = CapacityAction.model_validate(row.action)
        result = dict(row.result)
    if row.status != "done":
        return row
    if action.kind is ActionKind.QUOTA_INCREASE:
        change = quotas.requested_change(client=client_for("service-quotas", action.region),
                                         request_id=str(result["quota_request_id"]))
        update = {"quota_request_status": change.get("Status")}
    elif action.kind is ActionKind.CREATE_TRAINING_PLAN:
        plan = training_plans.describe(client=client_for("sagemaker", action.region),
                                       name=str(result["training_plan_name"]))
        update = {"training_plan_status": plan.get("Status"),
                  "available_instances": plan.get("AvailableInstanceCount"),
                  "in_use_instances": plan.get("InUseInstanceCount")}
    else:
        return row
    if all(result.get(k) == v for k, v in update.items()):
        return row
    with new_session(engine) as session:
        row = get_action_or_raise(session=session, action_id=action_id, lock=True)
        row.result = {**row.result, **update}
        row.updated_at = now
        session.add(row)
        append_event(session=session, type="capacity.action_status", actor=ACTOR, request_id=row.request_id, now=now,
                     data={"action_id": row.id, "kind": row.kind, **update})
        session.commit()
        session.refresh(row)
        return row


# Where a tracked action stops changing: quota requests and training plans in these states are not read again.
TRAINING_PLAN_FINAL = frozenset({"Expired", "Failed"})


def track_open_actions(*, engine: Engine, client_for: ClientFor, now: datetime) -> int:
    """Track every done quota increase and training plan still on the move; how many were read."""
    with new_session(engine) as session:
        rows = session.exec(select(CapacityActionRow).where(
            CapacityActionRow.status == "done",
            col(CapacityActionRow.kind).in_([ActionKind.QUOTA_INCREASE.value,
                                             ActionKind.CREATE_TRAINING_PLAN.value]))).all()
        open_ids = [r.id for r in rows
                    if r.result.get("quota_request_status") not in quotas.FINAL_STATES
                    and r.result.get("training_plan_status") not in TRAINING_PLAN_FINAL]
    read = 0
    for action_id in open_ids:
        try:
            track_action(engine=engine, client_for=client_for, action_id=action_id, now=now)
            read += 1
        except UpstreamError as exc:  # the next round reads it again
            log.warning("capacity action %s not tracked this round: %s", action_id, exc)
    return read
