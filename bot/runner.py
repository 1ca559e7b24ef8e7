"""``gpuops bot``: the app, its background loops, and the transport Slack reaches it by."""

from __future__ import annotations

import logging

from bot.app import build_app, build_service_client
from bot.deps import Deps
from bot.feed import FeedConsumer
from bot.http import build_http_app
from bot.scheduler import DigestScheduler, Periodic
from bot.settings import BotSettings

log = logging.getLogger(__name__)
DIGEST_TICK_SECONDS = 30.0


def background_loops(settings: BotSettings, deps: Deps, client: object) -> list[Periodic]:
    loops = []
    if settings.feed_enabled:
        feed = FeedConsumer(service=deps.service, client=client, clock=deps.clock)
        loops.append(Periodic("events-feed", feed.step, interval=settings.feed_poll_seconds))
    if settings.digest_enabled:
        scheduler = DigestScheduler(service=deps.service, client=client, clock=deps.clock)
        loops.append(Periodic("digest-scheduler", scheduler.tick, interval=DIGEST_TICK_SECONDS))
    return loops


def run_bot(settings: BotSettings, *, host: str, port: int) -> None:
    """Serve until interrupted: Socket Mode when an app token is set, else HTTP on ``host:port``."""
    service = build_service_client(settings)
    deps = Deps(service=service)
    app = build_app(settings=settings, service_client=service, deps=deps)
    loops = background_loops(settings, deps, app.client)
    for loop in loops:
        loop.start()
    try:
        import uvicorn

        if settings.socket_mode:
            from slack_bolt.adapter.socket_mode import SocketModeHandler

            assert settings.slack_app_token is not None
            handler = SocketModeHandler(app, settings.slack_app_token.get_secret_value())
            handler.connect()  # type: ignore[no-untyped-call]
            log.info("gpuops bot in Socket Mode; health and metrics on %s:%d", host, port)
            # The orchestrator still probes /healthz and scrapes /metrics on the same port.
            uvicorn.run(build_http_app(None), host=host, port=port, log_level="warning")
        else:
            log.info("gpuops bot listening on %s:%d", host, port)
            uvicorn.run(build_http_app(app), host=host, port=port, log_level="info")
    finally:
        for loop in loops:
            loop.stop()
        service.close()
