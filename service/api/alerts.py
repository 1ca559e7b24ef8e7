"""Alerts: a person's word on a Cost Explorer anomaly gpuops posted."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from contract.alerts import ANOMALY_ID_PATTERN, AnomalyFeedback, AnomalyFeedbackRecorded
from contract.errors import Forbidden, NotFound, UpstreamError
from policy.errors import RequestError
from service.alerts.anomalies import record_feedback
from service.api.deps import SessionDep, StateDep, WriterDep
from service.api.openapi import raises
from service.api.requests import vouched_person
from service.clock import utcnow

router = APIRouter(tags=["alerts"])
AnomalyId = Annotated[str, Path(pattern=ANOMALY_ID_PATTERN, description="Cost Explorer's AnomalyId")]


@router.post("/v1/anomalies/{anomaly_id}/feedback", response_model=AnomalyFeedbackRecorded,
             responses=raises(NotFound, Forbidden, RequestError, UpstreamError))
def post_anomaly_feedback(anomaly_id: AnomalyId, body: AnomalyFeedback, state: StateDep, session: SessionDep,
                          actor: WriterDep) -> AnomalyFeedbackRecorded:
    """Tell Cost Explorer whether the anomaly was expected (ProvideAnomalyFeedback) and record who said so."""
    session.close()  # no transaction is held while AWS is called
    person = vouched_person(actor, person=actor.id, email=body.approver_email, groups=body.approver_groups)
    team = record_feedback(engine=state.engine, client_for=lambda: state.aws.client("ce"), policy=state.policy,
                           anomaly_id=anomaly_id, verdict=body.verdict, person=person, is_admin=actor.is_admin,
                           now=utcnow())
    return AnomalyFeedbackRecorded(anomaly_id=anomaly_id, team=team, verdict=body.verdict, by=actor.id)
