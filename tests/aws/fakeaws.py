"""A small AWS JSON-protocol (x-amz-json-1.1, X-Amz-Target) server on 127.0.0.1 for what moto lacks.

Tests register a handler per operation; a handler returns the answer body or raises ``AwsFault``.
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

import httpx

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

    def answer(self, operation: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self.lock:
            self.requests.append((operation, body))
        handler = self.handlers.get(operation)
        if handler is None:
            return 400, {"__type": "UnknownOperationException", "message": f"fake has no {operation}"}
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
            operation = target.rsplit(".", 1)[-1]
            if operation not in fake.handlers and fake.fallback_url:
                with fake.lock:
                    fake.requests.append((operation, json.loads(raw or b"{}")))
                self._forward(raw)
                return
            status, answer = fake.answer(operation, json.loads(raw or b"{}"))
            self._reply(status, json.dumps(answer).encode())

        def _forward(self, raw: bytes) -> None:
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
            answer = httpx.post(f"{fake.fallback_url}{self.path}", content=raw, headers=headers)
            self._reply(answer.status_code, answer.content)

        def _reply(self, status: int, data: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/x-amz-json-1.1")
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
