"""Creating, revising and cancelling requests. Each function is one transaction and commits it."""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from contract.errors import Conflict, Forbidden
from contract.requests import RequestCreate, RequesterFacts, RequestPatch
from contract.status import RequestStatus
from policy.config import PolicyConfig
from policy.decision import canonical_json
from policy.errors import RequestError
from policy.intake import zone_or_raise
from policy.membership import Filer, membership_refusal
from policy.questions import NeedsInput
from policy.request import Stage
from policy.spend import Ledger
from service.audit.chain import append_event
from service.planning import PlanContext, Planner, plan_fields
from service.requests.records import expire_if_due, get_request_or_raise, get_revision
from service.requests.states import enter_initial, transition
from service.spend.ledger import lock_ledger, read_ledger
from service.store.tables import IdempotencyKey, PlanRevision, RequestQuestions, RequestRecord


def new_request_id() -> str:
    return "req_" + secrets.token_hex(8)


def body_hash(body: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def initial_status(context: PlanContext) -> RequestStatus:
    approval = context.decision.approval
    if approval.denied:
        return RequestStatus.DENIED
    if context.request.estimate_only:
        return RequestStatus.ESTIMATE
    return RequestStatus.PENDING_APPROVAL if approval.required else RequestStatus.AUTO_APPROVED


def _expiry(policy: PolicyConfig, status: RequestStatus, now: datetime) -> datetime | None:
    if status is not RequestStatus.PENDING_APPROVAL:
        return None
    return now + timedelta(hours=policy.approval_window_hours)


def revision_row(
    *, record: RequestRecord, context: PlanContext, inputs: dict[str, Any], actor: str, now: datetime,
) -> PlanRevision:
    document = context.document
    return PlanRevision(
        request_id=record.id, revision=record.revision, inputs=inputs,
        training_request=context.request.model_dump(mode="json"), decision=document,
        plan_hash=context.plan_hash,
        policy_version=context.decision.policy_version, price_snapshot=context.decision.catalog.snapshot,
        spend=context.spend.model_dump(mode="json"), estimated_cost_usd=context.decision.plan.estimated_cost_usd,
        judged_usd=max(context.decision.plan.estimated_cost_usd, context.decision.plan.exposure_usd),
        calibration_factor=context.calibration_factor,
        approvals_needed=context.decision.approval.approvals_needed, denied=context.decision.approval.denied,
        created_by=actor, created_at=now,
    )


def stage_of(context: PlanContext) -> str:
    return (context.decision.request.stage or context.request.stage or Stage.EXPERIMENTAL).value


def _replay(*, session: Session, scope: str, key: str, digest: str) -> RequestRecord | None:
    row = session.exec(select(IdempotencyKey).where(IdempotencyKey.scope == scope, IdempotencyKey.key == key)).first()
    if row is None:
        return None
    if row.body_hash != digest:
        raise Conflict("this Idempotency-Key was already used with a different body; use a new key",
                       code="idempotency_key_reused")
    return get_request_or_raise(session=session, request_id=row.request_id)


FACTS = set(RequesterFacts.model_fields)  # looked up per delivery: never part of what a request is


def check_member(*, policy: PolicyConfig, team: str, filer: Filer) -> None:
    """Refuse a filer who does not belong to ``team``: the request would spend its budget under its launch profile."""
    refusal = membership_refusal(policy, team=team, filer=filer)
    if refusal is not None:
        raise Forbidden(refusal.message(), code=refusal.code)


def plan_inputs(body: RequestCreate | RequestPatch, *, timezone: str) -> dict[str, Any]:
    """What a person gave, kept with the revision so an edit can re-run it."""
    return {**body.model_dump(mode="json", include=set(plan_fields(body))), "text": body.text or "",
            "timezone": timezone}


def _plan_new(
    *, session: Session, planner: Planner, body: RequestCreate, requester: str, now: datetime,
) -> tuple[RequestRecord, PlanContext | NeedsInput]:
    """Parse and decide a new request (or find what to ask first); the row it would be stored as, and what it was
    decided from."""
    if body.now is not None:
        raise RequestError("'now' is for previews (POST /v1/plans); requests are planned as of now",
                           code="now_not_allowed")
    context = planner.ask_or_plan(text=body.text, fields=plan_fields(body), timezone=body.timezone, now=now,
                                  channel=body.channel, ledger=_locked_ledger(session, requester=requester, now=now))
    if isinstance(context, NeedsInput):
        team = context.request.team or (body.channel and planner.policy.team_for_channel(body.channel))
        planner.check_team(team or None)
        record = RequestRecord(
            id=new_request_id(), status=RequestStatus.NEEDS_INPUT.value, team=team or planner.policy.default_team,
            requester=requester, channel=body.channel, timezone=zone_or_raise(body.timezone),
            stage=(context.request.stage or Stage.EXPERIMENTAL).value, text=body.text or "", revision=0,
            approvals_needed=0, expires_at=None, created_at=now, updated_at=now,
        )
        return record, context
    request, timezone = context.request, context.timezone
    status = initial_status(context)
    record = RequestRecord(
        id=new_request_id(), status=status.value, team=request.team or planner.policy.default_team,
        requester=requester, channel=body.channel, timezone=timezone, stage=stage_of(context), text=body.text or "",
        revision=1, approvals_needed=context.decision.approval.approvals_needed,
        expires_at=_expiry(planner.policy, status, now), created_at=now, updated_at=now,
    )
    return record, context


def _locked_ledger(session: Session, *, requester: str, now: datetime) -> Callable[[str], Ledger]:
    """The team's ledger, read under the write lock this transaction then holds until it commits: concurrent
    filings are decided one after another, each seeing the reservations of those before it."""

    def read(team: str) -> Ledger:
        lock_ledger(session=session)
        return read_ledger(session=session, team=team, requester=requester, now=now)

    return read


def create_request(
    *, session: Session, planner: Planner, body: RequestCreate, actor: str, requester: str, filer: Filer,
    idempotency_key: str | None, now: datetime,
) -> tuple[RequestRecord, PlanRevision | None]:
    """Store a new request with plan revision 1: (record, its revision), or (the first request, None) when the
    Idempotency-Key was seen before with the same body. ``filer`` must belong to the team the request is for."""
    digest = body_hash({"requester": requester, **body.model_dump(mode="json", exclude_none=True, exclude=FACTS)})
    if idempotency_key and (found := _replay(session=session, scope=actor, key=idempotency_key, digest=digest)):
        return found, None
    record, context = _plan_new(session=session, planner=planner, body=body, requester=requester, now=now)
    check_member(policy=planner.policy, team=record.team, filer=filer)
    session.add(record)
    session.flush()  # the row first: the tables below reference it
    inputs = plan_inputs(body, timezone=record.timezone)
    revision: PlanRevision | None = None
    if isinstance(context, NeedsInput):
        session.add(_questions_row(record, context, inputs, now))
    else:
        revision = revision_row(record=record, context=context, inputs=inputs, actor=actor, now=now)
        session.add(revision)
    if idempotency_key:
        session.add(IdempotencyKey(scope=actor, key=idempotency_key, body_hash=digest, request_id=record.id,
                                   created_at=now))
    try:
        session.flush()
    except IntegrityError:
        session.rollback()  # a concurrent request with the same key won; answer with its request
        if idempotency_key and (found := _replay(session=session, scope=actor, key=idempotency_key, digest=digest)):
            return found, None
        raise
    data = (_asked(context, requester=requester) if isinstance(context, NeedsInput)
            else _summary(context, requester=requester))
    enter_initial(session=session, record=record, status=RequestStatus(record.status), actor=actor, now=now,
                  data=data)
    session.commit()
    return record, revision


def _questions_row(record: RequestRecord, needs: NeedsInput, inputs: dict[str, Any],
                   now: datetime) -> RequestQuestions:
    return RequestQuestions(request_id=record.id, inputs=inputs,
                            questions=[q.model_dump(mode="json") for q in needs.questions],
                            training_request=needs.request.model_dump(mode="json"), updated_at=now)


def _asked(needs: NeedsInput, **extra: Any) -> dict[str, Any]:
    return {"questions": [q.model_dump(mode="json") for q in needs.questions], **extra}


def answer_questions(
    *, session: Session, planner: Planner, request_id: str, patch: RequestPatch, actor: str, is_admin: bool,
    filer: Filer, now: datetime,
) -> RequestRecord:
    """Answers to a request in ``needs_input``: planned as usual once nothing is left to ask (revision 1, pending
    approval, auto-approved or denied), else the remaining questions asked. Every answer is audited."""
    record = get_request_or_raise(session=session, request_id=request_id, lock=True)
    _may_change(record, actor=actor, is_admin=is_admin, verb="answer for")
    if record.status != RequestStatus.NEEDS_INPUT:
        raise Conflict(f"the request is {record.status}, not waiting for answers", current_state=record.status)
    row = session.get(RequestQuestions, record.id)
    assert row is not None  # written with the record
    changes = patch.model_dump(mode="json", exclude_unset=True, exclude_none=True, exclude=FACTS)
    if not changes:
        raise RequestError("answer a question: send its field, e.g. {\"stage\": \"production\"}",
                           code="nothing_to_change")
    inputs = {**row.inputs, **changes}
    fields = {k: v for k, v in inputs.items() if k not in ("text", "timezone")}
    context = planner.ask_or_plan(text=inputs.get("text"), fields=fields, timezone=inputs.get("timezone"), now=now,
                                  channel=record.channel,
                                  ledger=_locked_ledger(session, requester=record.requester, now=now))
    answered = {"answers": changes, "revision": record.revision}
    if isinstance(context, NeedsInput):
        updated = _questions_row(record, context, inputs, now)
        row.inputs, row.questions, row.training_request = updated.inputs, updated.questions, updated.training_request
        row.updated_at, record.updated_at = now, now
        session.add_all([row, record])
        append_event(session=session, type="request.questions_answered", actor=actor, request_id=record.id,
                     now=now, data={**answered, **_asked(context)})
        session.commit()
        return record
    team = context.request.team or record.team
    if team != record.team:
        check_member(policy=planner.policy, team=team, filer=dataclasses.replace(filer, channel=record.channel))
    append_event(session=session, type="request.questions_answered", actor=actor, request_id=record.id, now=now,
                 data=answered)
    record.revision, record.team, record.stage = 1, team, stage_of(context)
    record.text = inputs.get("text") or ""
    record.approvals_needed = context.decision.approval.approvals_needed
    session.add(record)
    session.add(revision_row(record=record, context=context, inputs=inputs, actor=actor, now=now))
    session.delete(row)
    status = initial_status(context)
    transition(session=session, record=record, to=status, actor=actor, now=now, event_type="request.planned",
               data=_summary(context), approval_window=timedelta(hours=planner.policy.approval_window_hours))
    session.commit()
    return record


def _summary(context: PlanContext, **extra: Any) -> dict[str, Any]:
    plan = context.decision.plan
    denied = {"outcome": "denied"} if context.decision.approval.denied else {}  # said first, never as a saving
    return {
        **denied, "estimated_cost_usd": plan.estimated_cost_usd, "instance_type": plan.instance_type,
        "instance_count": plan.instance_count, "purchase_model": plan.purchase_model.value,
        "platform": plan.platform.value, "approvals_needed": context.decision.approval.approvals_needed, **extra,
    }


def _may_change(record: RequestRecord, *, actor: str, is_admin: bool, verb: str) -> None:
    if not is_admin and actor != record.requester:
        raise Forbidden(f"only the requester ({record.requester}) or an admin can {verb} this request",
                        code="not_the_requester")


def _replan(
    *, session: Session, planner: Planner, record: RequestRecord, patch: RequestPatch, now: datetime,
) -> tuple[dict[str, Any], PlanContext, int]:
    """The edited inputs and their new decision: (inputs, context, previous revision number)."""
    changes = patch.model_dump(mode="json", exclude_unset=True, exclude_none=True, exclude=FACTS)
    if not changes:
        raise RequestError("say what to change, e.g. {\"deadline\": ...} or new text", code="nothing_to_change")
    previous = get_revision(session=session, request_id=record.id, revision=record.revision)
    inputs = {**previous.inputs, **changes}
    fields = {k: v for k, v in inputs.items() if k not in ("text", "timezone")}
    context = planner.ask_or_plan(text=inputs.get("text"), fields=fields, timezone=inputs.get("timezone"), now=now,
                                  channel=record.channel,
                                  ledger=_locked_ledger(session, requester=record.requester, now=now))
    if isinstance(context, NeedsInput):  # never planned on a guess: the revision in force stays until it is answered
        raise _edit_needs_input(context)
    return {**inputs, "timezone": context.timezone}, context, previous.revision


def _edit_needs_input(needs: NeedsInput) -> RequestError:
    """An edit that leaves something only the person can settle ("fine-tune 7B on 40k conversations": how many
    tokens?): refused with the questions, each with its field, to send with the edit."""
    asked = "; ".join(f"{q.field}: {q.question}" + (f" (e.g. {', '.join(repr(c.value) for c in q.choices[:3])})"
                                                     if q.choices else "") for q in needs.questions)
    return RequestError(f"{asked} Send the answer with the edit; the request keeps its current plan until then.",
                        code="needs_input")


# A request can be edited until it launches; an edit after approval sends it back for approval.
EDITABLE = frozenset({RequestStatus.PENDING_APPROVAL, RequestStatus.APPROVED, RequestStatus.AUTO_APPROVED})


def revise_request(
    *, session: Session, planner: Planner, request_id: str, patch: RequestPatch, actor: str, is_admin: bool,
    filer: Filer, now: datetime,
) -> RequestRecord:
    """Apply an edit: a new plan revision, earlier approvals void, the decision re-run; an approved request not yet
    launching goes back for approval. An edit that moves the request to another team needs ``filer`` (filing from
    the request's channel) to belong to it."""
    record = get_request_or_raise(session=session, request_id=request_id, lock=True)
    if expire_if_due(session=session, record=record, now=now):
        session.commit()
        raise Conflict("the approval window closed before this edit", current_state=record.status)
    _may_change(record, actor=actor, is_admin=is_admin, verb="edit")
    if record.status not in EDITABLE:
        raise Conflict(f"the request is {record.status} and can no longer be edited", current_state=record.status)
    was = RequestStatus(record.status)
    inputs, context, previous = _replan(session=session, planner=planner, record=record, patch=patch, now=now)
    team = context.request.team or record.team
    if team != record.team:
        check_member(policy=planner.policy, team=team, filer=dataclasses.replace(filer, channel=record.channel))
    record.revision += 1
    record.team, record.stage = team, stage_of(context)
    record.timezone, record.text = inputs["timezone"], inputs.get("text") or ""
    record.approvals_needed = context.decision.approval.approvals_needed
    record.expires_at, record.updated_at = _expiry(planner.policy, RequestStatus.PENDING_APPROVAL, now), now
    session.add(record)
    session.add(revision_row(record=record, context=context, inputs=inputs, actor=actor, now=now))
    append_event(session=session, type="request.revised", actor=actor, request_id=record.id, now=now,
                 data=_summary(context, revision=record.revision, previous_revision=previous, approvals_voided=True))
    if was is not RequestStatus.PENDING_APPROVAL:
        # Approved but not launched: what was approved is no longer what would run (another recipe, data, model,
        # hyperparameters…), so the approvals and the queued launch stop counting until someone approves again.
        transition(session=session, record=record, to=RequestStatus.PENDING_APPROVAL, actor=actor, now=now,
                   data={"reason": f"edited after approval by {actor}"},
                   approval_window=timedelta(hours=planner.policy.approval_window_hours))
    status = initial_status(context)
    if status is not RequestStatus.PENDING_APPROVAL:
        transition(session=session, record=record, to=status, actor=actor, now=now)
    session.commit()
    return record


def cancel_request(
    *, session: Session, request_id: str, actor: str, is_admin: bool, reason: str | None, now: datetime,
) -> RequestRecord:
    """Withdraw a request that is still waiting for approval."""
    record = get_request_or_raise(session=session, request_id=request_id, lock=True)
    if expire_if_due(session=session, record=record, now=now):
        session.commit()
        raise Conflict("the approval window closed before the cancel", current_state=record.status)
    _may_change(record, actor=actor, is_admin=is_admin, verb="cancel")
    transition(session=session, record=record, to=RequestStatus.CANCELLED, actor=actor, now=now,
               data={"reason": reason, "by": actor})
    session.commit()
    return record
