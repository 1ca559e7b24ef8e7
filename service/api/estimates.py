"""Estimates that learn: the month's accuracy and the calibration in force; marking idle GPUs as expected."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import APIRouter, Query, Response

from contract.errors import Conflict, Forbidden, NotFound
from contract.estimates import CalibrationTable, CorrectionPublic, EstimateAccuracy, IdleExpectedBody
from contract.requests import RequestPublic
from contract.text import Text
from policy.errors import RequestError
from service.api.deps import ActorDep, RequestId, SessionDep, StateDep, WriterDep, json_response
from service.api.openapi import raises
from service.clock import utcnow
from service.jobs.outcomes import current_calibration, estimate_accuracy
from service.jobs.utilisation import expect_idle
from service.requests import records
from service.requests.views import request_public

router = APIRouter(tags=["estimates"])


@router.get("/v1/estimates/accuracy", response_model=EstimateAccuracy, responses=raises(RequestError))
def get_accuracy(
    state: StateDep, _actor: ActorDep, team: Annotated[Text | None, Query(max_length=128)] = None,
    since: date | None = None,
) -> EstimateAccuracy:
    """How far jobs finished since ``since`` (default: the first of this month, UTC) were from their estimates, for
    one team or all."""
    state.planner.check_team(team)
    day = since or utcnow().date().replace(day=1)
    start = datetime(day.year, day.month, day.day, tzinfo=UTC)
    found = estimate_accuracy(engine=state.engine, since=start, team=team)
    return EstimateAccuracy(team=team, since=start.date().isoformat(), jobs=found.jobs if found else 0,
                            median=found.median if found else None, p90=found.p90 if found else None)


@router.get("/v1/estimates/calibration", response_model=CalibrationTable)
def get_calibration(state: StateDep, _actor: ActorDep) -> CalibrationTable:
    """The corrections of estimated hours learnt from finished jobs, per (family, task, size band)."""
    prior = state.settings.calibration_prior_jobs
    table = current_calibration(engine=state.engine, prior_jobs=prior)
    return CalibrationTable(prior_jobs=prior, items=[CorrectionPublic(
        family=c.family, task=c.task, size_band=c.size_band, factor=c.factor, jobs=c.jobs,
        median_ratio=c.median_ratio) for c in table.corrections])


@router.post("/v1/requests/{request_id}/idle-expected", response_model=RequestPublic,
             responses=raises(NotFound, Conflict, Forbidden, RequestError))
def mark_idle_expected(
    request_id: RequestId, state: StateDep, session: SessionDep, actor: WriterDep,
    body: IdleExpectedBody | None = None,
) -> Response:
    """The running job's idle GPUs are expected (data loading, evaluation): no more idle alerts for it."""
    session.close()
    expect_idle(engine=state.engine, env=state.launchers, request_id=request_id, actor=actor.id,
                is_admin=actor.is_admin, reason=body.reason if body else None, now=utcnow())
    record = records.get_request_or_raise(session=session, request_id=request_id)
    return json_response(session, request_public(session=session, record=record, policy=state.policy))
