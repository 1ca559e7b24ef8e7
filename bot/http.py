"""HTTP mode: Bolt behind FastAPI at ``/slack/events``, plus health and metrics for the orchestrator."""

from __future__ import annotations

import time

from fastapi import FastAPI, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from slack_bolt import App
from slack_bolt.adapter.starlette.handler import to_bolt_request, to_starlette_response
from starlette.concurrency import run_in_threadpool

from bot.metrics import SLACK_REQUESTS

EVENTS_PATH = "/slack/events"


def build_http_app(app: App | None) -> FastAPI:
    """Serve ``app`` at ``/slack/events`` (None: health and metrics only, for Socket Mode)."""
    api = FastAPI(title="gpuops bot", docs_url=None, redoc_url=None, openapi_url=None)

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
