"""Requests: create, read, list, edit, approve, cancel, and what hangs off one (audit, artifacts, Slack message)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Response

from contract.approvals import ApprovalCreate
from contract.errors import Conflict, Forbidden, NotFound, RateLimited, UpstreamError
from contract.events import AuditEventPublic, AuditList
from contract.requests import (
    ArtifactList,
    ArtifactPublic,
    CancelBody,
    RequestCreate,
    RequesterFacts,
    RequestPage,
    RequestPatch,
    RequestPublic,
    RequestQuestionsPublic,
    SlackMessageRef,
    StopBody,
)
from contract.status import RequestStatus
from contract.text import Text
from policy.access import slack_refusal, workspace_of
from policy.errors import RequestError
from policy.membership import Filer
from service.api.deps import (
    Actor,
    ActorDep,
    RequestId,
    SessionDep,
    StateDep,
    WriterDep,
    check_rate_limit,
    json_response,
    released,
)
from service.api.openapi import raises
from service.audit.chain import events_for_request
from service.clock import utcnow
from service.jobs import stopping
from service.requests import approvals, attachments, filing, records
from service.requests.views import request_public, requests_public

router = APIRouter(tags=["requests"])


def person_for(actor: Actor, named: str | None) -> str:
    """Whom a write is for: the person a bot token acts for (X-Gpuops-Actor), else the person an admin names in the
    body, else the caller itself. Only an admin may name someone in the body: a bot token without X-Gpuops-Actor
    would otherwise approve or ask as anyone it likes."""
    if actor.on_behalf or named is None:
        return actor.id
    if not actor.is_admin:
        raise Forbidden("only an admin token may name a person in the body; a bot token names the person it acts "
                        "for in X-Gpuops-Actor", code="actor_required")
    return named


def vouched_person(actor: Actor, *, person: str, email: str | None, groups: list[str] | None,
                   channel: str | None = None, is_admin: bool = False) -> Filer:
    """``person`` with the e-mail and user groups the bot looked up in Slack about the person it acts for; from any
    other caller they could be anything, so they count from that bot only."""
    vouched = actor.role == "bot" and actor.on_behalf
    return Filer(actor=person, channel=channel, email=email if vouched else None,
                 groups=frozenset(groups or ()) if vouched else frozenset(), is_admin=is_admin)


def filer_for(actor: Actor, *, person: str, channel: str | None, facts: RequesterFacts) -> Filer:
    """Who files, for the team membership check."""
    return vouched_person(actor, person=person, email=facts.requester_email, groups=facts.requester_groups,
                          channel=channel, is_admin=actor.is_admin)


def approver_for(actor: Actor, named: str | None) -> str:
    """Who is approving: only ever the person the bot acts for. No token may name an approver in the body, an admin's
    included, so the audit log's "who approved" is always the person who clicked."""
    if actor.on_behalf or named is None:
        return actor.id
    raise Forbidden("an approval comes from the approving person: through the bot, which names them in "
                    "X-Gpuops-Actor; no token may approve in someone else's name", code="actor_required")


@router.post("/v1/requests", response_model=RequestPublic | RequestQuestionsPublic, status_code=201,
             responses=raises(Forbidden, Conflict, RateLimited, RequestError))
def create_request(
    body: RequestCreate, state: StateDep, session: SessionDep, actor: WriterDep,
    idempotency_key: Annotated[Text | None, Header(max_length=255)] = None,
) -> Response:
    """Plan and store a request (status from the guardrails); a repeated Idempotency-Key returns the first one.
    A request the planner must ask about first is stored as ``needs_input`` with its questions."""
    requester = person_for(actor, body.requester)
    refusal = slack_refusal(state.policy, workspace=workspace_of(requester), channel=body.channel)
    if refusal is not None:
        raise Forbidden(refusal.message(), code=refusal.code)
    check_rate_limit(state, requester)
    record, revision = filing.create_request(
        session=session, planner=state.planner.settled(), body=body, actor=actor.id, requester=requester,
        filer=filer_for(actor, person=requester, channel=body.channel, facts=body),
        idempotency_key=idempotency_key, now=(now := utcnow()),
    )
    created = revision is not None or record.created_at == now  # else an Idempotency-Key replay
    if created:
        state.metrics.decisions.labels(outcome=record.status).inc()
    public = request_public(session=session, record=record, policy=state.policy, new=revision)
    return json_response(session, public, status_code=201 if created else 200)


@router.get("/v1/requests", response_model=RequestPage)
def list_requests(
    state: StateDep, session: SessionDep, _actor: ActorDep, status: RequestStatus | None = None,
    team: Annotated[Text | None, Query(max_length=128)] = None,
    requester: Annotated[Text | None, Query(max_length=256)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: Annotated[str | None, Query(max_length=512, pattern=r"^[A-Za-z0-9_-]*={0,2}$")] = None,
) -> RequestPage:
    """Newest first; pass ``next_cursor`` back as ``cursor`` for the next page."""
    records.expire_overdue(session=session, now=utcnow(), limit=100)
    page, next_cursor = records.list_requests(session=session, status=status.value if status else None, team=team,
                                              requester=requester, limit=limit, cursor=cursor)
    items = requests_public(session=session, records=page, policy=state.policy)
    return released(session, RequestPage(items=items, next_cursor=next_cursor))


@router.get("/v1/requests/{request_id}", response_model=RequestPublic | RequestQuestionsPublic,
            responses=raises(NotFound))
def get_request(request_id: RequestId, state: StateDep, session: SessionDep, _actor: ActorDep) -> Response:
    record = records.read_request(session=session, request_id=request_id, now=utcnow())
    return json_response(session, request_public(session=session, record=record, policy=state.policy))


@router.patch("/v1/requests/{request_id}", response_model=RequestPublic | RequestQuestionsPublic,
              responses=raises(NotFound, Conflict, Forbidden, RequestError))
def patch_request(
    request_id: RequestId, body: RequestPatch, state: StateDep, session: SessionDep, actor: WriterDep,
) -> RequestPublic | RequestQuestionsPublic:
    """Edit fields: a new plan revision, earlier approvals void, the decision re-run. For a request in
    ``needs_input`` the fields answer its questions: planned as usual once nothing is left to ask."""
    waiting = records.get_request_or_raise(session=session, request_id=request_id).status == RequestStatus.NEEDS_INPUT
    revise = filing.answer_questions if waiting else filing.revise_request
    record = revise(session=session, planner=state.planner.settled(), request_id=request_id, patch=body,
                    actor=actor.id, is_admin=actor.is_admin, now=utcnow(),
                    filer=filer_for(actor, person=actor.id, channel=None, facts=body))
    return released(session, request_public(session=session, record=record, policy=state.policy))


@router.post("/v1/requests/{request_id}/approvals", response_model=RequestPublic,
             responses=raises(NotFound, Conflict, Forbidden))
def post_approval(
    request_id: RequestId, body: ApprovalCreate, state: StateDep, session: SessionDep, actor: WriterDep,
) -> Response:
    """Approve or reject the current revision (for a bot actor the clicking person is the approver)."""
    approver = approver_for(actor, body.approver)
    person = vouched_person(actor, person=approver, email=body.approver_email, groups=body.approver_groups)
    try:
        record, counted = approvals.record_approval(
            session=session, policy=state.policy, request_id=request_id, approver=approver, decision=body.decision,
            comment=body.comment, now=utcnow(), revision=body.revision, person=person,
        )
    except Exception as exc:
        state.metrics.approvals.labels(decision=body.decision.value, result=type(exc).__name__.lower()).inc()
        raise
    state.metrics.approvals.labels(decision=body.decision.value, result="recorded" if counted else "duplicate").inc()
    return json_response(session, request_public(session=session, record=record, policy=state.policy))


@router.post("/v1/requests/{request_id}/cancel", response_model=RequestPublic | RequestQuestionsPublic,
             responses=raises(NotFound, Conflict, Forbidden))
def cancel_request(
    request_id: RequestId, state: StateDep, session: SessionDep, actor: WriterDep, body: CancelBody | None = None,
) -> RequestPublic | RequestQuestionsPublic:
    record = filing.cancel_request(session=session, request_id=request_id, actor=actor.id,
                                     is_admin=actor.is_admin, reason=body.reason if body else None, now=utcnow())
    return released(session, request_public(session=session, record=record, policy=state.policy))


@router.post("/v1/requests/{request_id}/stop", response_model=RequestPublic, status_code=202,
             responses=raises(NotFound, Conflict, Forbidden, RequestError, UpstreamError))
def stop_request(
    request_id: RequestId, state: StateDep, session: SessionDep, actor: WriterDep, body: StopBody | None = None,
) -> Response:
    """Ask for a running job to stop; the request becomes ``stopped`` when the tracker sees the job stopped."""
    session.close()  # no transaction is held while the platform is called
    person = vouched_person(actor, person=actor.id, email=body.approver_email if body else None,
                            groups=body.approver_groups if body else None)
    stopping.stop_request(engine=state.engine, env=state.launchers, request_id=request_id, actor=actor.id,
                          is_admin=actor.is_admin, reason=body.reason if body else None, now=utcnow(), person=person)
    record = records.get_request_or_raise(session=session, request_id=request_id)
    return json_response(session, request_public(session=session, record=record, policy=state.policy),
                         status_code=202)


@router.get("/v1/requests/{request_id}/audit", response_model=AuditList, responses=raises(NotFound))
def get_audit(request_id: RequestId, session: SessionDep, _actor: ActorDep) -> AuditList:
    """The request's audit events, each with its hash and the previous event's hash."""
    records.get_request_or_raise(session=session, request_id=request_id)
    events = events_for_request(session=session, request_id=request_id)
    return released(session, AuditList(items=[AuditEventPublic.model_validate(e, from_attributes=True)
                                              for e in events]))


@router.get("/v1/requests/{request_id}/artifacts", response_model=ArtifactList, responses=raises(NotFound))
def get_artifacts(request_id: RequestId, session: SessionDep, _actor: ActorDep) -> ArtifactList:
    rows = attachments.list_artifacts(session=session, request_id=request_id)
    return released(session, ArtifactList(items=[ArtifactPublic.model_validate(a, from_attributes=True)
                                                 for a in rows]))


@router.put("/v1/requests/{request_id}/slack-message", status_code=204, responses=raises(NotFound))
def put_slack_message(request_id: RequestId, body: SlackMessageRef, session: SessionDep, _actor: WriterDep) -> Response:
    """Where the bot posted the request, so later updates edit that message."""
    attachments.put_slack_message(session=session, request_id=request_id, channel=body.channel, ts=body.ts,
                                  now=utcnow())
    return Response(status_code=204)
