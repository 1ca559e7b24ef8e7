"""A small AWS server on 127.0.0.1 for what moto lacks: the JSON protocol (x-amz-json-1.1, X-Amz-Target) and EC2's
query protocol (a form in, XML out).

Tests register a handler per operation; a handler returns the answer body or raises ``AwsFault``. Requests to a
handled operation are checked against botocore's service model first: an unknown or missing parameter is answered
with AWS's ``ValidationException`` (EC2: ``InvalidParameter``), so a misspelt parameter fails the test.
Every request is recorded (operation and parsed body) so tests can assert on exactly what was sent. Operations
with no handler are forwarded to ``fallback_url`` (moto) when one is set, so one endpoint can mix both.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

import httpx

from tests.aws.wire import ec2_error, ec2_problems, ec2_response, json_problems, json_service_for

Handler = Callable[[dict[str, Any]], dict[str, Any]]


class AwsFault(Exception):
    def __init__(self, code: str, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass
class FakeAws:
    handlers: dict[str, Handler] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    url: str = ""
    fallback_url: str | None = None

    def on(self, operation: str, handler: Handler) -> None:
        self.handlers[operation] = handler

    def calls(self, operation: str) -> list[dict[str, Any]]:
        with self.lock:
            return [body for op, body in self.requests if op == operation]

    def answer(self, operation: str, body: dict[str, Any], *, problems: list[str] | None = None,
               ) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.requests.append((operation, body))
        handler = self.handlers.get(operation)
        if handler is None:
            return 400, {"__type": "UnknownOperationException", "message": f"fake has no {operation}"}
        if problems:
            return 400, {"__type": "ValidationException", "message": "; ".join(problems)}
        try:
            return 200, handler(body)
        except AwsFault as fault:
            return fault.status, {"__type": fault.code, "message": fault.message}


def _make_handler(fake: FakeAws) -> type[BaseHTTPRequestHandler]:
    class _Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            target = self.headers.get("X-Amz-Target", "")
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            if not target:
                self._query(raw)
                return
            prefix, _, operation = target.rpartition(".")
            if operation not in fake.handlers and fake.fallback_url:
                with fake.lock:
                    fake.requests.append((operation, json.loads(raw or b"{}")))
                self._forward(raw)
                return
            body = json.loads(raw or b"{}")
            service = json_service_for(prefix)
            problems = json_problems(service, operation, body) if service and operation in fake.handlers else None
            status, answer = fake.answer(operation, body, problems=problems)
            self._reply(status, json.dumps(answer).encode())

        def _query(self, raw: bytes) -> None:
            """EC2's query protocol: form parameters in, XML out."""
            form = dict(parse_qsl(raw.decode()))
            operation = form.get("Action", "")
            if operation not in fake.handlers and fake.fallback_url:
                with fake.lock:
                    fake.requests.append((operation, dict(form)))
                self._forward(raw)
                return
            status, answer = fake.answer(operation, form, problems=ec2_problems(operation, form)
                                         if operation in fake.handlers else None)
            if status == 200:
                self._reply(status, ec2_response(operation, answer), content_type="text/xml")
            else:
                code = "InvalidParameter" if answer["__type"] == "ValidationException" else answer["__type"]
                self._reply(status, ec2_error(code, answer["message"]), content_type="text/xml")

        def _forward(self, raw: bytes) -> None:
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
            answer = httpx.post(f"{fake.fallback_url}{self.path}", content=raw, headers=headers)
            self._reply(answer.status_code, answer.content)

        def _reply(self, status: int, data: bytes, *, content_type: str = "application/x-amz-json-1.1") -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return _Handler


def start_fake_aws() -> tuple[FakeAws, ThreadingHTTPServer]:
    fake = FakeAws()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(fake))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    fake.url = f"http://{host!s}:{port}"
    return fake, server
