"""Spend, catalog, policy and jobs: what the bot shows besides requests."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response
from sqlmodel import col, select

from contract.info import PolicyPublic
from contract.requests import JobList
from contract.status import RequestStatus
from contract.text import Text
from policy.catalog import Catalog
from policy.errors import RequestError
from policy.spend import SpendSnapshot, SpendStatus
from service.api.deps import ActorDep, SessionDep, StateDep, released
from service.api.openapi import raises
from service.requests.views import requests_public
from service.store.tables import Job, RequestRecord

router = APIRouter(tags=["info"])


@router.get("/v1/spend", response_model=SpendSnapshot, responses=raises(RequestError))
def get_spend(
    state: StateDep, _actor: ActorDep, team: Annotated[Text | None, Query(max_length=128)] = None,
) -> SpendSnapshot:
    """The team's spend (status ok, stale or unavailable); the default team when none is named."""
    state.planner.check_team(team)
    name = team or state.policy.default_team
    snapshot = state.planner.spend.get_spend(team=name, policy=state.policy)
    for status in SpendStatus:
        state.metrics.spend_status.labels(team=name, status=status.value).set(int(snapshot.status is status))
    return snapshot


@router.get("/v1/catalog", response_model=Catalog)
def get_catalog(state: StateDep, _actor: ActorDep) -> Response:
    """The price and instance snapshot in force."""
    return Response(content=state.catalog_json, media_type="application/json")


@router.get("/v1/policy", response_model=PolicyPublic)
def get_policy(state: StateDep, _actor: ActorDep) -> PolicyPublic:
    return PolicyPublic(version=state.policy.version_hash, policy=state.policy.model_dump(mode="json"))


@router.get("/v1/jobs", response_model=JobList)
def list_jobs(
    state: StateDep, session: SessionDep, _actor: ActorDep, status: RequestStatus | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 200,
) -> JobList:
    """Requests that have a job, newest first, optionally by request status."""
    statement = select(RequestRecord).join(Job, col(Job.request_id) == col(RequestRecord.id))
    if status:
        statement = statement.where(RequestRecord.status == status.value)
    statement = statement.order_by(col(RequestRecord.created_at).desc()).limit(limit)
    items = requests_public(session=session, records=list(session.exec(statement)), policy=state.policy)
    return released(session, JobList(items=items))
