"""A typed client for the service HTTP API (docs/api.md), the only way the bot reaches state.

Bodies are the ``contract`` models; errors come back as the one error hierarchy (``contract.errors``) so handlers
map them to a message in one place. Timeouts are short: a Slack handler has 3 s in total, and a slow service must
turn into a "try again" message, not silence.
"""

from __future__ import annotations

import logging
from typing import Any

import httpx
from pydantic import ValidationError

from contract.actors import ACTOR_HEADER
from contract.alerts import AnomalyFeedback, AnomalyFeedbackRecorded
from contract.approvals import ApprovalCreate
from contract.base import InputModel
from contract.capacity import (
    CapacityActionApproval,
    CapacityActionCreate,
    CapacityActionList,
    CapacityActionPublic,
)
from contract.digests import DigestClaim, DigestDone
from contract.errors import (
    Conflict,
    ErrorBody,
    ErrorDetail,
    Forbidden,
    NotFound,
    RateLimited,
    UpstreamError,
    describe_validation_errors,
)
from contract.estimates import EstimateAccuracy, IdleExpectedBody
from contract.events import CursorPublic, CursorUpdate, EventPage
from contract.info import PolicyPublic
from contract.requests import (
    CancelBody,
    JobList,
    RequestCreate,
    RequestPage,
    RequestPatch,
    RequestPublic,
    RequestQuestionsPublic,
    SlackMessageRef,
    StopBody,
)
from policy.errors import GpuopsError, RequestError
from policy.spend import SpendSnapshot

log = logging.getLogger(__name__)


class ServiceUnavailable(UpstreamError):
    """The service did not answer in time or refused the connection."""

    code = "service_unavailable"


class ServiceRefusedToken(UpstreamError):
    """The service does not know the bot's token: a setting to fix, not an outage to wait out."""

    code = "service_refused_token"


def _error_detail(response: httpx.Response) -> ErrorDetail | None:
    """The answer's ``ErrorBody``; None when the body is not one (e.g. a proxy's HTML page)."""
    try:
        return ErrorBody.model_validate_json(response.content).error
    except ValidationError:
        return None


def _error_from_response(response: httpx.Response, operation: str) -> GpuopsError:
    detail = _error_detail(response)
    message = detail.message if detail else (response.reason_phrase or "error")
    code = detail.code if detail else None
    status = response.status_code
    if status == 401:
        return ServiceRefusedToken(f"the gpuops service refused the bot's token ({message}): set "
                                   "GPUOPS_SERVICE_TOKEN to the bot: entry of the service's GPUOPS_API_TOKENS",
                                   service="gpuops", operation=operation, code=code)
    if status == 403:
        return Forbidden(message, code=code)
    if status == 404:
        return NotFound(message, code=code)
    if status == 409:
        return Conflict(message, current_state=detail.current_state if detail else None, code=code)
    if status in (400, 413, 422):
        return RequestError(message, code=code)
    if status == 429:
        return RateLimited(message, retry_after=int(response.headers.get("Retry-After", "1") or 1))
    correlation = detail.correlation_id if detail else None
    said = f"{message} (correlation id {correlation})" if correlation else message
    return UpstreamError(f"service answered {status}: {said}", service="gpuops", operation=operation, code=code)


def _body(model: type[InputModel], fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` as the contract's input ``model`` sends them; what the service would refuse is refused here, with
    the service's words (``body.<field>: ...``), before anything is sent."""
    try:
        sent = model.model_validate(fields)
    except ValidationError as exc:
        raise RequestError(describe_validation_errors(exc.errors()), code="invalid_body") from exc
    return sent.model_dump(mode="json", exclude_unset=True)


class ServiceClient:
    """Synchronous and thread-safe: Bolt runs listeners on a thread pool."""

    def __init__(
        self,
        *,
        base_url: str,
        token: str,
        timeout: float = 2.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        headers = {"User-Agent": "gpuops-bot"}
        if token:  # "Bearer " alone is not a valid header: httpx refuses it as if the service were unreachable
            headers["Authorization"] = f"Bearer {token}"
        self._http = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(timeout, 0.5)),
            transport=transport,
        )

    def close(self) -> None:
        self._http.close()

    def _call(
        self,
        method: str,
        path: str,
        *,
        operation: str,
        actor: str | None = None,
        json: Any = None,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent = dict(headers or {})
        if actor is not None:
            sent[ACTOR_HEADER] = actor
        query = {k: v for k, v in (params or {}).items() if v is not None}
        try:
            response = self._http.request(method, path, json=json, params=query, headers=sent)
        except httpx.TimeoutException as exc:
            raise ServiceUnavailable("the gpuops service is slow to answer", service="gpuops",
                                     operation=operation) from exc
        except httpx.TransportError as exc:
            raise ServiceUnavailable("the gpuops service is unreachable", service="gpuops",
                                     operation=operation) from exc
        if response.is_error:
            raise _error_from_response(response, operation)
        return response

    # Requests -------------------------------------------------------------------------------------------------

    def create_request(self, *, actor: str, body: dict[str, Any], idempotency_key: str
                       ) -> tuple[RequestPublic | RequestQuestionsPublic, bool]:
        """The request (or its questions, when it needs answers before a plan), and whether this call created it
        (201) rather than replayed an earlier one (200)."""
        response = self._call("POST", "/v1/requests", operation="create_request", actor=actor,
                              json=_body(RequestCreate, body),
                              headers={"Idempotency-Key": idempotency_key})
        return _planned_or_questions(response.json()), response.status_code == 201

    def get_request_or_questions(self, *, request_id: str) -> RequestPublic | RequestQuestionsPublic:
        response = self._call("GET", f"/v1/requests/{request_id}", operation="get_request")
        return _planned_or_questions(response.json())

    def answer_questions(self, *, request_id: str, actor: str, changes: dict[str, Any]
                         ) -> RequestPublic | RequestQuestionsPublic:
        """Answer a request's questions as ``actor``: its remaining questions, or the request planned."""
        response = self._call("PATCH", f"/v1/requests/{request_id}", operation="answer_questions", actor=actor,
                              json=_body(RequestPatch, changes))
        return _planned_or_questions(response.json())

    def get_request(self, *, request_id: str, actor: str | None = None) -> RequestPublic:
        response = self._call("GET", f"/v1/requests/{request_id}", operation="get_request", actor=actor)
        return RequestPublic.model_validate(response.json())

    def list_requests(
        self,
        *,
        status: str | None = None,
        team: str | None = None,
        requester: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> RequestPage:
        params = {"status": status, "team": team, "requester": requester, "limit": limit, "cursor": cursor}
        response = self._call("GET", "/v1/requests", operation="list_requests", params=params)
        return RequestPage.model_validate(response.json())

    def record_approval(
        self, *, request_id: str, actor: str, decision: str, comment: str | None = None, revision: int | None = None,
        facts: dict[str, Any] | None = None,
    ) -> RequestPublic:
        """``revision`` is the one the person was shown; the service refuses the decision if the plan changed.
        ``facts``: ``approver_email`` and ``approver_groups`` as Slack says, for approver groups listing those."""
        fields: dict[str, Any] = {"decision": decision, **(facts or {})}
        if comment:
            fields["comment"] = comment
        if revision is not None:
            fields["revision"] = revision
        response = self._call("POST", f"/v1/requests/{request_id}/approvals", operation="record_approval",
                              actor=actor, json=_body(ApprovalCreate, fields))
        return RequestPublic.model_validate(response.json())

    def patch_request(self, *, request_id: str, actor: str, changes: dict[str, Any]) -> RequestPublic:
        response = self._call("PATCH", f"/v1/requests/{request_id}", operation="patch_request", actor=actor,
                              json=_body(RequestPatch, changes))
        return RequestPublic.model_validate(response.json())

    def cancel_request(self, *, request_id: str, actor: str, reason: str | None = None) -> RequestPublic:
        body = _body(CancelBody, {"reason": reason} if reason else {})
        response = self._call("POST", f"/v1/requests/{request_id}/cancel", operation="cancel_request",
                              actor=actor, json=body)
        return RequestPublic.model_validate(response.json())

    def stop_request(self, *, request_id: str, actor: str, reason: str | None = None,
                     facts: dict[str, Any] | None = None) -> RequestPublic:
        """Ask the service to stop the request's job, as ``actor``; ``facts`` as for an approval (``approver_email``,
        ``approver_groups``), so approvers admitted through a user group or e-mail may stop it too."""
        body = _body(StopBody, {**({"reason": reason} if reason else {}), **(facts or {})})
        response = self._call("POST", f"/v1/requests/{request_id}/stop", operation="stop_request", actor=actor,
                              json=body)
        return RequestPublic.model_validate(response.json())

    def propose_capacity_action(self, *, request_id: str, position: int, actor: str) -> CapacityActionPublic:
        """Propose the plan's capacity action at ``position`` for approval, as ``actor`` (again: the same one)."""
        response = self._call("POST", f"/v1/requests/{request_id}/capacity-actions",
                              operation="propose_capacity_action", actor=actor,
                              json=_body(CapacityActionCreate, {"position": position}))
        return CapacityActionPublic.model_validate(response.json())

    def list_capacity_actions(self, *, request_id: str) -> list[CapacityActionPublic]:
        response = self._call("GET", f"/v1/requests/{request_id}/capacity-actions", operation="list_capacity_actions")
        return CapacityActionList.model_validate(response.json()).items

    def approve_capacity_action(self, *, action_id: str, actor: str,
                                facts: dict[str, Any] | None = None) -> CapacityActionPublic:
        """Approve a proposed capacity action as ``actor``; the service does it once it has enough approvals.
        ``facts`` as for a request's approval (``approver_email``, ``approver_groups``)."""
        response = self._call("POST", f"/v1/capacity-actions/{action_id}/approvals",
                              operation="approve_capacity_action", actor=actor,
                              json=_body(CapacityActionApproval, facts or {}))
        return CapacityActionPublic.model_validate(response.json())

    def anomaly_feedback(self, *, anomaly_id: str, actor: str, verdict: str,
                         facts: dict[str, Any] | None = None) -> AnomalyFeedbackRecorded:
        """Say whether a Cost Explorer anomaly was expected, as ``actor`` (the service sends it to AWS); ``facts`` as
        for an approval, so approvers admitted through a user group or e-mail may answer too."""
        response = self._call("POST", f"/v1/anomalies/{anomaly_id}/feedback", operation="anomaly_feedback",
                              actor=actor, json=_body(AnomalyFeedback, {"verdict": verdict, **(facts or {})}))
        return AnomalyFeedbackRecorded.model_validate(response.json())
    def mark_idle_expected(self, *, request_id: str, actor: str, reason: str | None = None) -> RequestPublic:
        body = _body(IdleExpectedBody, {"reason": reason} if reason else {})
        response = self._call("POST", f"/v1/requests/{request_id}/idle-expected", operation="mark_idle_expected",
                              actor=actor, json=body)
        return RequestPublic.model_validate(response.json())

    def get_estimate_accuracy(self, *, team: str | None = None) -> EstimateAccuracy:
        response = self._call("GET", "/v1/estimates/accuracy", operation="get_estimate_accuracy",
                              params={"team": team})
        return EstimateAccuracy.model_validate(response.json())

    def put_slack_message(self, *, request_id: str, channel: str, ts: str) -> None:
        self._call("PUT", f"/v1/requests/{request_id}/slack-message", operation="put_slack_message",
                   json=_body(SlackMessageRef, {"channel": channel, "ts": ts}))

    # Feed -----------------------------------------------------------------------------------------------------

    def list_events(self, *, after: str | None, limit: int = 50) -> EventPage:
        response = self._call("GET", "/v1/events", operation="list_events", params={"after": after, "limit": limit})
        return EventPage.model_validate(response.json())

    def get_cursor(self, consumer: str) -> str | None:
        try:
            response = self._call("GET", f"/v1/cursors/{consumer}", operation="get_cursor")
        except NotFound:
            return None
        return CursorPublic.model_validate(response.json()).cursor

    def put_cursor(self, consumer: str, cursor: str) -> None:
        self._call("PUT", f"/v1/cursors/{consumer}", operation="put_cursor",
                   json=_body(CursorUpdate, {"cursor": cursor}))

    # Spend, jobs, policy, digests -------------------------------------------------------------------------------

    def get_spend(self, *, team: str | None = None) -> SpendSnapshot:
        response = self._call("GET", "/v1/spend", operation="get_spend", params={"team": team})
        return SpendSnapshot.model_validate(response.json())

    def list_jobs(self, *, status: str | None = None) -> list[RequestPublic]:
        response = self._call("GET", "/v1/jobs", operation="list_jobs", params={"status": status})
        return JobList.model_validate(response.json()).items

    def get_policy(self) -> PolicyPublic:
        response = self._call("GET", "/v1/policy", operation="get_policy")
        return PolicyPublic.model_validate(response.json())

    def claim_digest(self, *, channel: str, date: str, team: str) -> bool:
        """True when this replica owns the digest of ``channel`` for ``date``; False when another one has it."""
        try:
            self._call("POST", "/v1/digests/claim", operation="claim_digest",
                       json=_body(DigestClaim, {"channel": channel, "date": date, "team": team}))
        except Conflict:
            return False
        return True

    def finish_digest(self, *, channel: str, date: str, ok: bool, detail: str | None = None) -> None:
        fields: dict[str, Any] = {"ok": ok}
        if detail:
            fields["detail"] = detail
        self._call("POST", f"/v1/digests/{channel}/{date}/done", operation="finish_digest",
                   json=_body(DigestDone, fields))


def _planned_or_questions(document: Any) -> RequestPublic | RequestQuestionsPublic:
    """A request with its plan, or one that has none yet (it asks questions first)."""
    if isinstance(document, dict) and "decision" not in document and "questions" in document:
        return RequestQuestionsPublic.model_validate(document)
    return RequestPublic.model_validate(document)
