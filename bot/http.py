"""HTTP mode: Bolt behind FastAPI at ``/slack/events``, plus health and metrics for the orchestrator."""

from __future__ import annotations

import time

from fastapi import FastAPI, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from slack_bolt import App
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.metrics import SLACK_REQUESTS

EVENTS_PATH = "/slack/events"
# The largest body the bot reads unless GPUOPS_BOT_MAX_BODY_BYTES says otherwise (BotSettings carries the reasons).
MAX_BODY_BYTES = 1024 * 1024


class BodyTooLarge(Exception):
    """The request body went past the limit while it was being read."""


class LimitBody:
    """ASGI middleware: answer 413 to a body over ``max_bytes`` without reading it.

    A declared Content-Length over the limit is refused before a byte of the body is read; a chunked body is counted
    as it arrives and refused the moment it passes the limit. Either way the connection is closed, since the rest of
    the body is still on it.
    """

    def __init__(self, app: ASGIApp, *, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _refuse(send, self.max_bytes)
            return
        received = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge:
            if started:  # too late for a status; the server drops the connection
                raise
            await _refuse(send, self.max_bytes)


async def _refuse(send: Send, max_bytes: int) -> None:
    body = f"request body over {max_bytes} bytes\n".encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def build_http_app(app: App | None, *, max_body_bytes: int = MAX_BODY_BYTES) -> FastAPI:
    """Serve ``app`` at ``/slack/events`` (None: health and metrics only, for Socket Mode); larger bodies get 413."""
    api = FastAPI(title="gpuops bot", docs_url=None, redoc_url=None, openapi_url=None)
    # Before routing and before Bolt's signature check, which needs the whole body: without a cap anyone who can
    # reach the port makes the bot hold whatever they send (a 150 MiB unsigned POST took it from 183 to 1,084 MiB,
    # past its 512 Mi limit).
    api.add_middleware(LimitBody, max_bytes=max_body_bytes)

    if app is not None:
        bolt = app

        @api.post(EVENTS_PATH)
        async def slack_events(request: Request) -> Response:
            # Bolt's own Starlette adapter dispatches on the event loop; a worker thread keeps the loop free
            # so twenty concurrent commands are acknowledged side by side.
            started = time.perf_counter()
            body = await request.body()
            bolt_response = await run_in_threadpool(bolt.dispatch, to_bolt_request(request, body))
            SLACK_REQUESTS.labels(status=str(bolt_response.status)).observe(time.perf_counter() - started)
            response: Response = to_starlette_response(bolt_response)
            return response

    @api.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @api.get("/metrics")
    def metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)

    return api
