"""One ASGI middleware for every HTTP request: request id, body limit, metrics, access log, and the last-resort
500 (a correlation id in the answer and in the log, nothing else)."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from typing import Any

from prometheus_client import Counter, Histogram
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.api.error_responses import error_body
from service.logs import request_id_var
from service.metrics import Metrics

log = logging.getLogger("gpuops.service.http")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class ServiceMiddleware:
    def __init__(self, app: ASGIApp, *, metrics: Metrics, max_body_bytes: int) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body = max_body_bytes
        # Each (method, route, status)'s request counter and latency histogram, looked up once: the registry's
        # own lookup by label values takes a lock and checks the labels on every request.
        self._series: dict[tuple[str, str, str], tuple[Counter, Histogram]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = _header(scope, b"x-request-id")
        request_id = given if given and _SAFE_ID.match(given) else uuid.uuid4().hex
        token = request_id_var.set(request_id)
        started = time.perf_counter()
        response: dict[str, Any] = {"status": 500, "started": False}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                response["status"], response["started"] = message["status"], True
                MutableHeaders(scope=message).append("X-Request-Id", request_id)
            await send(message)

        try:
            await self._serve(scope, receive, send_with_id, response)
        finally:
            self._observe(scope, response["status"], time.perf_counter() - started)
            request_id_var.reset(token)

    async def _serve(self, scope: Scope, receive: Receive, send: Send, response: dict[str, Any]) -> None:
        length = _header(scope, b"content-length")
        if length and length.isdigit() and int(length) > self.max_body:
            await _send_json(send, 413, error_body("body_too_large", f"the body is over {self.max_body} bytes"))
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body:
                raise HTTPException(413, f"the body is over {self.max_body} bytes")
            return message

        try:
            await self.app(scope, limited_receive, send)
        except Exception:
            correlation_id = uuid.uuid4().hex[:12]
            log.exception("unexpected error", extra={"correlation_id": correlation_id, "path": scope.get("path")})
            if not response["started"]:
                await _send_json(send, 500, error_body(
                    "internal_error", f"something went wrong on our side; quote {correlation_id}",
                    correlation_id=correlation_id))

    def _observe(self, scope: Scope, status: int, seconds: float) -> None:
        route = scope.get("route")
        template = getattr(route, "path_format", None) or getattr(route, "path", None) or "unmatched"
        method = scope.get("method", "")
        key = (method, template, str(status))
        series = self._series.get(key)
        if series is None:
            series = self._series[key] = (
                self.metrics.http_requests.labels(method=method, route=template, status=key[2]),
                self.metrics.http_latency.labels(method=method, route=template))
        series[0].inc()
        series[1].observe(seconds)
        if log.isEnabledFor(logging.INFO) and template not in ("/healthz", "/readyz", "/metrics"):
            log.info("%s %s %s", method, template, status, extra={
                "method": method, "route": template, "status": status, "duration_ms": round(seconds * 1000, 2)})
