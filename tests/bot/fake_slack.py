"""A fake Slack Web API on 127.0.0.1 that records the method and body of every call.

Serves ``/api/<method>`` (JSON or form bodies, GET or POST), the upload URL that ``files.getUploadURLExternal``
hands out (so ``files_upload_v2``'s three calls all land here) and ``/response/<id>`` for response_url posts.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from tests.loopback import LoopbackServer

BOT_USER = "UBOT"



@dataclass
class Call:
    method: str  # "chat.postMessage", "upload", "response"
    body: dict[str, Any]
    path: str = ""
    raw: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    answer: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.perf_counter)  # when it arrived, for latency figures

    @property
    def blocks(self) -> list[dict[str, Any]]:
        blocks = self.body.get("blocks", [])
        return json.loads(blocks) if isinstance(blocks, str) else list(blocks)


class FakeSlack(LoopbackServer):
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.failures: dict[str, list[tuple[int, dict[str, Any], dict[str, str]]]] = {}
        self.zones: dict[str, str] = {}
        self.emails: dict[str, str] = {}  # user id -> profile.email (users.info)
        self.usergroups: dict[str, list[str]] = {}  # user group id (S…) -> user ids (usergroups.users.list)
        self.scopes: list[str] | None = None  # auth.test's x-oauth-scopes header, when set
        self.unknown_users: set[str] = set()  # users.info answers user_not_found for these
        self.deactivated: set[str] = set()  # users.info answers deleted: true for these
        self.disabled_groups: set[str] = set()  # listed by usergroups.list as deleted
        self.socket_url: str | None = None  # what apps.connections.open hands out (a FakeSocketMode's ws:// URL)
        self._ts = itertools.count(1)
        self._cond = threading.Condition()
        super().__init__()

    @property
    def api_url(self) -> str:
        return f"{self.url}/api/"

    def response_url(self, name: str = "r1") -> str:
        return f"{self.url}/response/{name}"

    def fail_next(self, method: str, *, status: int = 200, body: dict[str, Any] | None = None,
                  headers: dict[str, str] | None = None) -> None:
        """The next call of ``method`` answers this instead (e.g. 429 with Retry-After, or ok=false)."""
        self.failures.setdefault(method, []).append((status, body or {"ok": False, "error": "fake"}, headers or {}))

    def of(self, method: str) -> list[Call]:
        with self._cond:
            return [c for c in self.calls if c.method == method]

    def wait_for(self, method: str, count: int = 1, timeout: float = 5.0) -> list[Call]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while len([c for c in self.calls if c.method == method]) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [c.method for c in self.calls]
                    raise AssertionError(f"expected {count} × {method} within {timeout} s; saw {seen}")
                self._cond.wait(left)
            return [c for c in self.calls if c.method == method]

    def _record(self, call: Call) -> None:
        with self._cond:
            self.calls.append(call)
            self._cond.notify_all()

    def answer(self, method: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        queued = self.failures.get(method)
        if queued:
            return queued.pop(0)
        ts = f"1764518400.{next(self._ts):06d}"
        if method == "files.completeUploadExternal":
            return 200, self._complete_upload(body, ts), {}
        if method == "auth.test" and self.scopes is not None:
            return 200, self._auth(), {"x-oauth-scopes": ",".join(self.scopes)}
        answers: dict[str, dict[str, Any]] = {
            "auth.test": self._auth(),
            "chat.postMessage": {"ok": True, "ts": ts, "channel": body.get("channel"),
                                 "message": {"ts": ts, "text": body.get("text")}},
            "chat.update": {"ok": True, "ts": body.get("ts"), "channel": body.get("channel")},
            "chat.postEphemeral": {"ok": True, "message_ts": ts},
            "users.lookupByEmail": self._by_email(str(body.get("email"))),
            "usergroups.list": {"ok": True, "usergroups": [
                {"id": g, "date_delete": 1764518400 if g in self.disabled_groups else 0}
                for g in [*self.usergroups, *self.disabled_groups]]},
            "users.info": {"ok": False, "error": "user_not_found"} if body.get("user") in self.unknown_users else {
                "ok": True, "user": {"id": body.get("user"), "deleted": body.get("user") in self.deactivated,
                                     "tz": self.zones.get(str(body.get("user")), "America/Los_Angeles"),
                                     "profile": {"email": self.emails.get(str(body.get("user")))}}},
            "usergroups.users.list": ({"ok": True, "users": self.usergroups[str(body.get("usergroup"))]}
                                      if str(body.get("usergroup")) in self.usergroups
                                      else {"ok": False, "error": "no_such_subteam"}),
            "apps.connections.open": ({"ok": True, "url": self.socket_url} if self.socket_url
                                      else {"ok": False, "error": "invalid_auth"}),
            "files.getUploadURLExternal": {"ok": True, "upload_url": f"{self.url}/upload/F0CHART",
                                           "file_id": "F0CHART"},
            "files.completeUploadExternal": {"ok": True, "files": [{"id": "F0CHART", "title": "chart"}]},
        }
        return 200, answers.get(method, {"ok": True}), {}

    @staticmethod
    def _auth() -> dict[str, Any]:
        return {"ok": True, "user_id": BOT_USER, "bot_id": "BBOT", "team_id": "T0GPUOPS", "user": "gpuops",
                "team": "gpuops", "url": "https://gpuops.slack.com/"}

    def _complete_upload(self, body: dict[str, Any], ts: str) -> dict[str, Any]:
        """Slack's answer: the file shared in ``channel_id`` with a message of ``initial_comment`` or ``blocks``
        (blocks are ignored beside an initial comment; a markdown block is refused there, as Slack does)."""
        files = json.loads(body.get("files") or "[]")
        if not files or any(f.get("id") != "F0CHART" for f in files):
            return {"ok": False, "error": "invalid_file_id"}
        if "blocks" in body:
            try:
                blocks = json.loads(body["blocks"]) if isinstance(body["blocks"], str) else body["blocks"]
            except json.JSONDecodeError:
                return {"ok": False, "error": "invalid_blocks"}
            if any(b.get("type") == "markdown" for b in blocks):
                return {"ok": False, "error": "internal_error"}
        share = {"ts": ts, "channel_name": body.get("channel_id")}
        return {"ok": True, "files": [{"id": f["id"], "title": f.get("title"),
                                       "shares": {"public": {body.get("channel_id"): [share]}}} for f in files]}

    def _by_email(self, email: str) -> dict[str, Any]:
        found = [user for user, known in self.emails.items() if known.casefold() == email.casefold()]
        return {"ok": True, "user": {"id": found[0]}} if found else {"ok": False, "error": "users_not_found"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet test output
                return

            def _body(self) -> tuple[bytes, dict[str, Any]]:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                query = dict(parse_qsl(urlsplit(self.path).query))
                if "json" in (self.headers.get("Content-Type") or ""):
                    return raw, {**query, **json.loads(raw or b"{}")}
                if "form" in (self.headers.get("Content-Type") or ""):
                    return raw, {**query, **dict(parse_qsl(raw.decode()))}
                return raw, query

            def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode() if not isinstance(body, bytes) else body
                self.send_response(status)
                self.send_header("Content-Type", "application/json" if not isinstance(body, bytes) else "text/plain")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self.do_POST()

            def do_POST(self) -> None:
                path = urlsplit(self.path).path
                headers = {k.lower(): v for k, v in self.headers.items()}
                if path.startswith("/upload/"):  # the file's bytes, whatever the content type says
                    raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                    fake._record(Call("upload", {}, path=path, raw=raw, headers=headers))
                    self._send(200, f"OK - {len(raw)}".encode())
                    return
                raw, body = self._body()
                if path.startswith("/response/"):
                    fake._record(Call("response", body, path=path, raw=raw, headers=headers))
                    self._send(200, b"ok")
                    return
                method = path.removeprefix("/api/")
                status, answer, extra = fake.answer(method, body)
                fake._record(Call(method, body, path=path, raw=raw, headers=headers, answer=answer))
                self._send(status, answer, extra)

        return Handler
