"""A stand-in for the gpuops service on 127.0.0.1, typed by the contract the real one answers in.

Every body it is sent is parsed with the contract's input model (a body the service would refuse is a 422 here too)
and every answer is a contract model, so a bot that drifts from the contract fails its own tests. Just enough
behaviour for them: idempotent creation, the service's approval checks (same codes, same order), one approval per
person and revision, revisions that void approvals, an events feed with cursors, and digest claims unique per
channel and date.
"""

from __future__ import annotations

import json
import re
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel, ValidationError

from contract.approvals import ApprovalCreate, ApprovalDecision, ApprovalPublic
from contract.digests import DigestClaim, DigestClaimed, DigestDone
from contract.errors import ErrorBody, describe_validation_errors
from contract.estimates import EstimateAccuracy, IdleExpectedBody
from contract.events import CursorPublic, CursorUpdate, EventPage, EventPublic
from contract.info import PolicyPublic
from contract.requests import (
    CancelBody,
    JobList,
    PreviousRevision,
    RequestCreate,
    RequestPage,
    RequestPatch,
    RequestPublic,
    SlackMessageRef,
    StopBody,
)
from contract.status import RequestStatus
from policy.config import default_policy
from policy.decision import Plan
from policy.spend import SpendSnapshot
from tests.bot.factories import NOW, make_request, make_spend
from tests.loopback import LoopbackServer

TOKEN = "test-bot-token"
REFUSED = "REFUSE"  # text containing this is refused like the parser would

Answer = tuple[int, BaseModel | None]


def error(status: int, code: str, message: str, *, current_state: str | None = None) -> Answer:
    return status, ErrorBody.of(code, message, current_state=current_state)


def admitted(actor: str, req: RequestPublic, body: ApprovalCreate | None) -> bool:
    """``policy.membership.approval_basis``: named, or vouched for by the bot through a listed group or e-mail."""
    if actor in req.eligible_approvers:
        return True
    if body is None:
        return False
    groups = {f"usergroup:{g}" for g in body.approver_groups or []}
    email = {f"email:{body.approver_email}"} if body.approver_email else set()
    return bool((groups | email) & set(req.eligible_approvers))


def refusal(actor: str, req: RequestPublic, body: ApprovalCreate | None = None) -> Answer | None:
    """``service.requests.approvals.check_may_decide``: who may not decide, then what cannot be decided, in that
    order."""
    if actor == req.requester:
        return error(403, "own_request", "you asked for this, so someone else has to approve it")
    if not admitted(actor, req, body):
        groups = ", ".join(req.decision.approval.approver_groups) or "no group (none configured)"
        stage = req.decision.request.stage.value if req.decision.request.stage else "any"
        return error(403, "not_an_approver", f"only members of {groups} can approve {stage} requests of {req.team}")
    if req.status == RequestStatus.DENIED:
        return error(409, "conflict", "policy denied this request; there is nothing to approve",
                     current_state=req.status)
    if req.status != RequestStatus.PENDING_APPROVAL:
        return error(409, "conflict", f"this request is {req.status}; it no longer takes approvals",
                     current_state=req.status)
    return None


class FakeService(LoopbackServer):
    def __init__(self) -> None:
        self.requests: dict[str, RequestPublic] = {}
        self.patches: dict[str, list[dict[str, Any]]] = {}
        self.idempotency: dict[str, str] = {}
        self.events: list[EventPublic] = []
        self.cursors: dict[str, str] = {}
        self.claims: dict[tuple[str, str], str] = {}
        self.done: list[dict[str, Any]] = []
        self.stops: list[dict[str, Any]] = []
        self.idle_expected: list[dict[str, Any]] = []
        self.accuracy = EstimateAccuracy(team=None, since="2026-11-01", jobs=0, median=None, p90=None)
        self.calls: list[tuple[str, str, dict[str, str]]] = []
        self.arrived: list[tuple[str, str]] = []  # (method, path) as each request comes in, before ``delay``
        self.delay = 0.0
        self.slack_lists: dict[str, Any] = {}  # the policy's slack: key (workspaces, channels, contacts)
        self.members: dict[str, list[str]] = {}  # team -> the policy's members: key
        self.groups: dict[str, list[str]] = {}  # the policy's groups: key, over the default policy's
        self.created: list[RequestCreate] = []  # every POST /v1/requests body, replays included
        self.spend: SpendSnapshot | None = None  # GET /v1/spend answers this when set, else make_spend()
        self.approval_bodies: list[dict[str, Any]] = []  # every POST …/approvals body, as sent
        self.lock = threading.RLock()
        super().__init__()

    # State changes the tests drive ---------------------------------------------------------------------------

    def emit(self, kind: str, request_id: str | None, /, *, at: Any = NOW, **data: Any) -> None:
        with self.lock:
            number = len(self.events) + 1
            self.events.append(EventPublic(id=number, cursor=str(number), type=kind, request_id=request_id,
                                           created_at=at, data=data))

    def set_request(self, request_id: str, **changes: Any) -> None:
        """Change a stored request; the result must still be a valid ``RequestPublic``."""
        with self.lock:
            self.requests[request_id] = RequestPublic.model_validate({**dict(self.requests[request_id]), **changes})

    # Routes ------------------------------------------------------------------------------------------------------

    def create(self, actor: str, body: RequestCreate, key: str | None) -> Answer:
        self.created.append(body)
        if key and key in self.idempotency:  # a replay: the first answer again, as 200
            return 200, self.requests[self.idempotency[key]]
        text = body.text or ""
        if REFUSED in text:
            return error(422, "missing_size", "say the model size, e.g. `/gpu fine-tune 7B by Friday`")
        request_id = f"req_{len(self.requests) + 1}"
        req = make_request(request_id=request_id, requester=actor, text=text, channel=body.channel,
                           timezone=body.timezone or "UTC")
        self.requests[request_id] = req
        if key:
            self.idempotency[key] = request_id
        self.emit("request.created", request_id)
        return 201, req

    def approve(self, actor: str, request_id: str, body: ApprovalCreate) -> Answer:
        """``service.requests.approvals.record_approval``, check for check."""
        req = self.requests[request_id]
        if body.revision is not None and body.revision != req.revision:
            return refusal(actor, req, body) or error(
                409, "revision_changed", f"the plan changed since you saw it (revision {body.revision}, now "
                f"{req.revision}); look at the current plan and decide again", current_state=req.status)
        if any(a.approver == actor and a.revision == req.revision for a in req.approvals):
            return 200, req  # a second click: nothing more to record
        if refused := refusal(actor, req, body):
            return refused
        approval = ApprovalPublic(approver=actor, decision=body.decision, comment=body.comment,
                                  revision=req.revision, created_at=NOW + timedelta(minutes=5))
        approvals = [*req.approvals, approval]
        approved = sum(a.decision is ApprovalDecision.APPROVE for a in approvals)
        status = RequestStatus.PENDING_APPROVAL
        if body.decision is ApprovalDecision.REJECT:
            status = RequestStatus.REJECTED
        elif approved >= req.approvals_needed:
            status = RequestStatus.APPROVED
        remaining = req.approvals_needed - approved if status is RequestStatus.PENDING_APPROVAL else 0
        self.set_request(request_id, approvals=approvals, status=status, approvals_remaining=remaining)
        self.emit("request.approval_recorded", request_id)
        if status is RequestStatus.REJECTED:  # as the service's transition says who and why
            self.emit("request.rejected", request_id, approver=actor, comment=body.comment)
        elif status is not RequestStatus.PENDING_APPROVAL:
            self.emit(f"request.{status.value}", request_id)
        return 200, self.requests[request_id]

    def patch(self, request_id: str, body: RequestPatch) -> Answer:
        req = self.requests[request_id]
        self.patches.setdefault(request_id, []).append(body.model_dump(mode="json", exclude_unset=True))
        decision = req.decision
        if body.instance_type is not None:  # pinned to one type: the engine has nothing else of its own to offer
            chosen = next((a for a in decision.alternatives if a.instance_type == body.instance_type), None)
            plan = Plan(**chosen.model_dump(exclude={"label"})) if chosen else decision.plan.model_copy(
                update={"instance_type": body.instance_type})
            decision = decision.model_copy(update={"plan": plan, "alternatives": []})
        previous = PreviousRevision(revision=req.revision, plan=req.decision.plan,
                                    alternatives=req.decision.alternatives)
        self.set_request(request_id, revision=req.revision + 1, approvals=[], decision=decision,
                         approvals_remaining=req.approvals_needed, previous=previous)
        self.emit("request.revised", request_id)
        return 200, self.requests[request_id]

    def events_page(self, query: dict[str, str]) -> Answer:
        after = int(query.get("after") or 0)
        limit = int(query.get("limit", "50"))
        items = [e for e in self.events if e.id > after][:limit]
        return 200, EventPage(items=items, next_cursor=items[-1].cursor if items else str(after))

    def cursor(self, method: str, consumer: str, body: Any) -> Answer:
        if method == "PUT":
            self.cursors[consumer] = CursorUpdate.model_validate(body).cursor
            return 204, None
        if consumer not in self.cursors:
            return error(404, "not_found", f"consumer {consumer!r} has not saved a cursor yet")
        return 200, CursorPublic(consumer=consumer, cursor=self.cursors[consumer])

    def claim(self, body: DigestClaim) -> Answer:
        key = (body.channel, body.date)
        if key in self.claims:
            return error(409, "conflict", "another replica claimed this digest", current_state="claimed")
        self.claims[key] = body.team
        return 201, DigestClaimed(claimed=True)

    def policy(self) -> PolicyPublic:
        policy = default_policy().model_dump(mode="json")
        policy["teams"]["team-ml"]["digest"] = {"channel": "C0DIGEST", "time": "09:00", "timezone": "Europe/Berlin"}
        policy["teams"]["team-ml"]["slack_channels"] = ["C0PLANS"]
        policy["slack"] = {**policy["slack"], **self.slack_lists}
        for team, members in self.members.items():
            policy["teams"][team]["members"] = members
        policy["groups"] = {**policy["groups"], **self.groups}
        return PolicyPublic(version="0123456789abcdef", policy=policy)

    def stop_job(self, actor: str, request_id: str, body: StopBody) -> Answer:
        record = self.requests[request_id]
        if record.status != RequestStatus.RUNNING:
            return error(409, "not_running", f"the request is {record.status} and has no running job to stop",
                         current_state=record.status)
        self.stops.append({"request_id": request_id, "actor": actor, **body.model_dump(exclude_unset=True)})
        return 202, record

    def cancel(self, actor: str, request_id: str, body: CancelBody) -> Answer:
        """``service.requests.filing.cancel_request``: the requester's, while it waits for approval."""
        req = self.requests[request_id]
        if actor != req.requester:
            return error(403, "not_the_requester",
                         f"only the requester ({req.requester}) or an admin can cancel this request")
        if req.status != RequestStatus.PENDING_APPROVAL:
            return error(409, "conflict", f"the request is {req.status} and cannot become cancelled",
                         current_state=req.status)
        self.set_request(request_id, status=RequestStatus.CANCELLED, approvals_remaining=0)
        self.emit("request.cancelled", request_id, reason=body.reason, by=actor)
        return 200, self.requests[request_id]

    def request_route(self, method: str, actor: str, request_id: str, tail: str, body: Any) -> Answer:
        if request_id not in self.requests:
            return error(404, "not_found", f"no request {request_id!r}")
        if method == "GET" and not tail:
            return 200, self.requests[request_id]
        if method == "POST" and tail == "/approvals":
            self.approval_bodies.append(body)
            return self.approve(actor, request_id, ApprovalCreate.model_validate(body))
        if method == "PATCH" and not tail:
            return self.patch(request_id, RequestPatch.model_validate(body))
        if method == "POST" and tail == "/cancel":
            return self.cancel(actor, request_id, CancelBody.model_validate(body or {}))
        if method == "POST" and tail == "/stop":
            return self.stop_job(actor, request_id, StopBody.model_validate(body))
        if method == "POST" and tail == "/idle-expected":
            self.idle_expected.append({"request_id": request_id, "actor": actor,
                                       **IdleExpectedBody.model_validate(body or {}).model_dump(exclude_unset=True)})
            return 200, self.requests[request_id]
        if method == "PUT" and tail == "/slack-message":
            self.set_request(request_id, slack_message=SlackMessageRef.model_validate(body))
            return 204, None
        return error(404, "not_found", f"no route {method} /v1/requests/{request_id}{tail}")

    def route(self, method: str, path: str, query: dict[str, str], body: Any, headers: dict[str, str]) -> Answer:
        actor = headers.get("x-gpuops-actor", "token:bot")
        if method == "POST" and path == "/v1/requests":
            return self.create(actor, RequestCreate.model_validate(body), headers.get("idempotency-key"))
        if method == "GET" and path == "/v1/requests":
            items = [r for r in self.requests.values()
                     if all(str(getattr(r, k)) == query[k] for k in ("status", "team", "requester") if k in query)]
            return 200, RequestPage(items=items, next_cursor=None)
        if match := re.fullmatch(r"/v1/requests/([^/]+)(/\w[\w-]*)?", path):
            return self.request_route(method, actor, match.group(1), match.group(2) or "", body)
        if method == "GET" and path == "/v1/events":
            return self.events_page(query)
        if match := re.fullmatch(r"/v1/cursors/(\w+)", path):
            return self.cursor(method, match.group(1), body)
        if path == "/v1/spend":
            return 200, self.spend or make_spend(team=query.get("team", "team-ml"))
        if path == "/v1/jobs":
            items = [r for r in self.requests.values() if r.job]
            return 200, JobList(items=[r for r in items if "status" not in query or r.status == query["status"]])
        if path == "/v1/policy":
            return 200, self.policy()
        if path == "/v1/estimates/accuracy":
            return 200, self.accuracy.model_copy(update={"team": query.get("team")})
        if path == "/v1/digests/claim":
            return self.claim(DigestClaim.model_validate(body))
        if match := re.fullmatch(r"/v1/digests/([^/]+)/([^/]+)/done", path):
            done = DigestDone.model_validate(body)
            self.done.append({"channel": match.group(1), "date": match.group(2),
                              **done.model_dump(exclude_unset=True)})
            return 204, None
        return error(404, "not_found", f"no route {method} {path}")

    def answer(self, method: str, path: str, query: dict[str, str], body: Any, headers: dict[str, str]) -> Answer:
        """The route's answer, or the service's 422 for a body its contract model refuses."""
        if headers.get("authorization") != f"Bearer {TOKEN}":
            return error(401, "unknown_token", "unknown token")
        try:
            return self.route(method, path, query, body, headers)
        except ValidationError as exc:
            errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors()]
            return error(422, "invalid_body", describe_validation_errors(errors))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet test output
                return

            def _serve(self) -> None:
                with fake.lock:
                    fake.arrived.append((self.command, urlsplit(self.path).path))
                if fake.delay:
                    time.sleep(fake.delay)
                parts = urlsplit(self.path)
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                with fake.lock:
                    fake.calls.append((self.command, parts.path, headers))
                    body = json.loads(raw) if raw else {}
                    status, answer = fake.answer(self.command, parts.path, dict(parse_qsl(parts.query)), body,
                                                 headers)
                if answer is None:
                    data = b""
                elif isinstance(answer, ErrorBody):
                    data = json.dumps(answer.to_json()).encode()
                else:
                    data = answer.model_dump_json().encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = _serve

        return Handler
