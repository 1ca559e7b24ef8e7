"""A stand-in for the gpuops service on 127.0.0.1, answering in the shapes of docs/api.md.

Just enough behaviour for the bot's own tests: idempotent creation, approver checks, one approval per person and
revision, revisions that void approvals, an events feed with cursors, and digest claims unique per channel and date.
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

from policy.config import default_policy
from tests.bot.factories import NOW, make_request, make_spend
from tests.loopback import LoopbackServer

TOKEN = "test-bot-token"
REFUSED = "REFUSE"  # text containing this is refused like the parser would



def error(status: int, code: str, message: str, **extra: Any) -> tuple[int, dict[str, Any]]:
    return status, {"error": {"code": code, "message": message, **extra}}


class FakeService(LoopbackServer):
    def __init__(self) -> None:
        self.requests: dict[str, dict[str, Any]] = {}
        self.idempotency: dict[str, str] = {}
        self.events: list[dict[str, Any]] = []
        self.cursors: dict[str, str] = {}
        self.claims: dict[tuple[str, str], str] = {}
        self.done: list[dict[str, Any]] = []
        self.stops: list[dict[str, Any]] = []
        self.calls: list[tuple[str, str, dict[str, str]]] = []
        self.delay = 0.0
        self.slack_lists: dict[str, Any] = {}  # the policy's slack: key (workspaces, channels, contacts)
        self.jobs_status: dict[str, dict[str, Any]] = {}
        self.lock = threading.RLock()
        super().__init__()

    # State changes the tests drive ---------------------------------------------------------------------------

    def emit(self, kind: str, request_id: str | None, **data: Any) -> None:
        with self.lock:
            number = len(self.events) + 1
            self.events.append({"id": number, "cursor": f"c{number}", "type": kind, "request_id": request_id,
                                "created_at": NOW.isoformat(), "data": data})

    def set_request(self, request_id: str, **changes: Any) -> None:
        with self.lock:
            self.requests[request_id].update(changes)

    # Routes ------------------------------------------------------------------------------------------------------

    def create(self, actor: str, body: dict[str, Any], key: str | None) -> tuple[int, Any]:
        if key and key in self.idempotency:  # a replay: the first answer again, as 200
            return 200, self.requests[self.idempotency[key]]
        text = str(body.get("text", ""))
        if REFUSED in text:
            return error(422, "missing_size", "say the model size, e.g. `/gpu fine-tune 7B by Friday`")
        request_id = f"req_{len(self.requests) + 1}"
        req = make_request(request_id=request_id, requester=actor, text=text, channel=body.get("channel"),
                           timezone=body.get("timezone", "UTC"))
        self.requests[request_id] = req
        if key:
            self.idempotency[key] = request_id
        self.emit("request.created", request_id)
        return 201, req

    def approve(self, actor: str, request_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        req = self.requests[request_id]
        if actor == req["requester"]:
            return error(403, "forbidden", "you can't approve your own request")
        if actor not in req["eligible_approvers"]:
            return error(403, "forbidden", "only ml-leads can approve team-ml experimental requests")
        if any(a["approver"] == actor and a["revision"] == req["revision"] for a in req["approvals"]):
            return 200, req  # a second click: nothing more to record
        if req["status"] != "pending_approval":
            return error(409, "conflict", f"request is {req['status']}", current_state=req["status"])
        if body.get("revision") not in (None, req["revision"]):
            return error(409, "revision_changed", "the plan changed since you saw it", current_state=req["status"])
        decision = body["decision"]
        req["approvals"].append({"approver": actor, "decision": decision, "comment": body.get("comment"),
                                 "revision": req["revision"], "created_at": (NOW + timedelta(minutes=5)).isoformat()})
        if decision == "reject":
            req["status"] = "rejected"
            self.emit("request.rejected", request_id)
        else:
            req["approvals_remaining"] -= 1
            self.emit("request.approval_recorded", request_id)
            if req["approvals_remaining"] == 0:
                req["status"] = "approved"
                self.emit("request.approved", request_id)
        return 200, req

    def patch(self, request_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        req = self.requests[request_id]
        req["revision"] += 1
        req["approvals"] = []
        req["approvals_remaining"] = req["approvals_needed"]
        req.setdefault("patches", []).append(body)
        if "instance_type" in body:
            req["decision"]["plan"]["instance_type"] = body["instance_type"]
        self.emit("request.revised", request_id)
        return 200, {k: v for k, v in req.items() if k != "patches"}

    def events_page(self, query: dict[str, str]) -> tuple[int, Any]:
        after = int(query.get("after", "c0").lstrip("c") or 0)
        limit = int(query.get("limit", "50"))
        items = [e for e in self.events if e["id"] > after][:limit]
        next_cursor = items[-1]["cursor"] if items else f"c{after}"
        return 200, {"items": items, "next_cursor": next_cursor}

    def claim(self, body: dict[str, Any]) -> tuple[int, Any]:
        key = (body["channel"], body["date"])
        if key in self.claims:
            return error(409, "conflict", "already claimed", current_state="claimed")
        self.claims[key] = body["team"]
        return 201, {"claimed": True}

    def policy(self) -> dict[str, Any]:
        policy = default_policy().model_dump(mode="json")
        policy["teams"]["team-ml"]["digest"] = {"channel": "C0DIGEST", "time": "09:00", "timezone": "Europe/Berlin"}
        policy["teams"]["team-ml"]["slack_channels"] = ["C0PLANS"]
        policy["slack"] = {**policy["slack"], **self.slack_lists}
        return {"version": "0123456789abcdef", "policy": policy}

    def stop_job(self, actor: str, request_id: str, body: Any) -> tuple[int, Any]:
        record = self.requests[request_id]
        if record["status"] != "running":
            return error(409, "not_running", f"the request is {record['status']} and has no running job to stop",
                         current_state=record["status"])
        self.stops.append({"request_id": request_id, "actor": actor, **(body or {})})
        return 202, record

    def route(self, method: str, path: str, query: dict[str, str], body: Any, headers: dict[str, str]
              ) -> tuple[int, Any]:
        actor = headers.get("x-gpuops-actor", "token:bot")
        if method == "POST" and path == "/v1/requests":
            return self.create(actor, body, headers.get("idempotency-key"))
        if method == "GET" and path == "/v1/requests":
            items = [r for r in self.requests.values()
                     if all(r.get(k) == query[k] for k in ("status", "team", "requester") if k in query)]
            return 200, {"items": items, "next_cursor": None}
        if match := re.fullmatch(r"/v1/requests/([^/]+)(/\w[\w-]*)?", path):
            request_id, tail = match.group(1), match.group(2) or ""
            if request_id not in self.requests:
                return error(404, "not_found", f"no request {request_id}")
            if method == "GET" and not tail:
                return 200, self.requests[request_id]
            if method == "POST" and tail == "/approvals":
                return self.approve(actor, request_id, body)
            if method == "PATCH" and not tail:
                return self.patch(request_id, body)
            if method == "POST" and tail == "/stop":
                return self.stop_job(actor, request_id, body)
            if method == "PUT" and tail == "/slack-message":
                self.requests[request_id]["slack_message"] = {"channel": body["channel"], "ts": body["ts"]}
                return 204, None
        if method == "GET" and path == "/v1/events":
            return self.events_page(query)
        if match := re.fullmatch(r"/v1/cursors/(\w+)", path):
            if method == "PUT":
                self.cursors[match.group(1)] = body["cursor"]
                return 204, None
            return 200, {"consumer": match.group(1), "cursor": self.cursors.get(match.group(1))}
        if path == "/v1/spend":
            return 200, make_spend(team=query.get("team", "team-ml")).model_dump(mode="json")
        if path == "/v1/jobs":
            items = [r for r in self.requests.values() if r.get("job")]
            return 200, {"items": [r for r in items if "status" not in query or r["status"] == query["status"]]}
        if path == "/v1/policy":
            return 200, self.policy()
        if path == "/v1/digests/claim":
            return self.claim(body)
        if match := re.fullmatch(r"/v1/digests/([^/]+)/([^/]+)/done", path):
            self.done.append({"channel": match.group(1), "date": match.group(2), **body})
            return 204, None
        return error(404, "not_found", f"no route {method} {path}")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet test output
                return

            def _serve(self) -> None:
                if fake.delay:
                    time.sleep(fake.delay)
                parts = urlsplit(self.path)
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                with fake.lock:
                    fake.calls.append((self.command, parts.path, headers))
                    if headers.get("authorization") != f"Bearer {TOKEN}":
                        status, answer = error(401, "unauthorized", "unknown token")
                    else:
                        status, answer = fake.route(self.command, parts.path, dict(parse_qsl(parts.query)),
                                                    json.loads(raw) if raw else {}, headers)
                data = b"" if answer is None else json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_PATCH = _serve

        return Handler
