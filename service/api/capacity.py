"""Capacity actions: propose one of a plan's actions, approve it (then it is done, once), track it."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from sqlmodel import Session, col, select

from contract.capacity import CapacityActionApproval, CapacityActionCreate, CapacityActionList, CapacityActionPublic
from contract.errors import Conflict, Forbidden, NotFound, UpstreamError
from contract.text import Text
from service.api.deps import ActorDep, RequestId, SessionDep, StateDep, WriterDep, released
from service.api.openapi import raises
from service.api.requests import approver_for, person_for, vouched_person
from service.api.state import ServiceState
from service.capacity import actions
from service.clock import utcnow
from service.requests.records import get_request_or_raise
from service.store.tables import CapacityActionRow

router = APIRouter(tags=["capacity"])
ActionId = Annotated[Text, Path(min_length=1, max_length=64, description="cap_ and 16 hex digits")]


def _public(row: CapacityActionRow) -> CapacityActionPublic:
    return CapacityActionPublic.model_validate(row, from_attributes=True)


def _client_for(state: ServiceState) -> actions.ClientFor:
    return lambda service, region: state.aws.client(service, region=region)


@router.post("/v1/requests/{request_id}/capacity-actions", response_model=CapacityActionPublic, status_code=201,
             responses=raises(NotFound, Conflict, Forbidden))
def propose(request_id: RequestId, body: CapacityActionCreate, session: SessionDep,
            actor: WriterDep) -> CapacityActionPublic:
    """Propose the plan's capacity action at ``position`` for approval (proposing it again returns the same one)."""
    row = actions.propose_action(session=session, request_id=request_id, position=body.position,
                                 actor=person_for(actor, None), now=utcnow())
    return released(session, _public(row))


@router.get("/v1/requests/{request_id}/capacity-actions", response_model=CapacityActionList,
            responses=raises(NotFound))
def list_actions(request_id: RequestId, session: SessionDep, _actor: ActorDep) -> CapacityActionList:
    get_request_or_raise(session=session, request_id=request_id)
    rows = session.exec(select(CapacityActionRow).where(CapacityActionRow.request_id == request_id)
                        .order_by(col(CapacityActionRow.created_at), col(CapacityActionRow.id))).all()
    return released(session, CapacityActionList(items=[_public(r) for r in rows]))


@router.post("/v1/capacity-actions/{action_id}/approvals", response_model=CapacityActionPublic,
             responses=raises(NotFound, Conflict, Forbidden, UpstreamError))
def approve(action_id: ActionId, body: CapacityActionApproval, state: StateDep, session: SessionDep,
            actor: WriterDep) -> CapacityActionPublic:
    """Approve; once approved, live mode does the action (exactly once), dry-run leaves it approved."""
    approver = approver_for(actor, body.approver)
    person = vouched_person(actor, person=approver, email=body.approver_email, groups=body.approver_groups)
    row = actions.approve_action(session=session, policy=state.policy, action_id=action_id, approver=approver,
                                 now=utcnow(), person=person)
    if row.status == "approved" and state.settings.launch == "live":
        session.close()
        done = actions.execute_action(engine=state.engine, client_for=_client_for(state), action_id=action_id,
                                      worker_id=f"api:{actor.id}", now=utcnow())
        return _public(done) if done is not None else _reread(state, action_id)
    return released(session, _public(row))


@router.post("/v1/capacity-actions/{action_id}/track", response_model=CapacityActionPublic,
             responses=raises(NotFound, UpstreamError))
def track(action_id: ActionId, state: StateDep, actor: WriterDep) -> CapacityActionPublic:  # noqa: ARG001 - writers only
    """Read where a done action stands (quota request status, training plan status) and post a change."""
    return _public(actions.track_action(engine=state.engine, client_for=_client_for(state), action_id=action_id,
                                        now=utcnow()))


def _reread(state: ServiceState, action_id: str) -> CapacityActionPublic:
    with Session(state.engine) as session:
        return _public(actions.get_action_or_raise(session=session, action_id=action_id))
