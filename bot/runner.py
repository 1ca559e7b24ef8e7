"""``gpuops bot``: the app, its background loops, and the transport Slack reaches it by."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from bot.app import build_app, build_service_client
from bot.deps import Deps
from bot.event_follower import FeedConsumer
from bot.http import build_http_app
from bot.scheduler import DigestScheduler, Periodic
from bot.settings import BotSettings

log = logging.getLogger(__name__)
DIGEST_TICK_SECONDS = 30.0


def background_loops(settings: BotSettings, deps: Deps, client: object) -> list[Periodic]:
    loops = []
    if settings.feed_enabled:
        feed = FeedConsumer(service=deps.service, client=client, clock=deps.clock, sent=deps.sent, people=deps.people)
        loops.append(Periodic("events-feed", feed.step, interval=settings.feed_poll_seconds))
    if settings.digest_enabled:
        scheduler = DigestScheduler(service=deps.service, client=client, clock=deps.clock)
        loops.append(Periodic("digest-scheduler", scheduler.tick, interval=DIGEST_TICK_SECONDS))
    return loops


class BotProcess:
    """One bot: the Bolt app, the feed and digest loops, and the HTTP server (Slack's endpoint, or only health
    and metrics in Socket Mode, where the bot dials out to Slack instead)."""

    def __init__(self, settings: BotSettings) -> None:
        import uvicorn

        self.settings = settings
        self.service = build_service_client(settings)
        self.deps = Deps(service=self.service, sources_url=settings.sources_url)
        self.app = build_app(settings=settings, service_client=self.service, deps=self.deps)
        self.loops = background_loops(settings, self.deps, self.app.client)
        self._socket: Any = None
        self._uvicorn = uvicorn
        self.server: Any = None
        self._stop_asked = threading.Event()  # a stop before the server exists must still stop it

    def serve(self, *, host: str, port: int) -> None:
        """Run until stopped or interrupted."""
        self.deps.policy_watch.refresh(self.service)  # read before Slack's first request needs it
        for loop in self.loops:
            loop.start()
        try:
            if self.settings.socket_mode:
                from slack_bolt.adapter.socket_mode import SocketModeHandler

                assert self.settings.slack_app_token is not None
                self._socket = SocketModeHandler(self.app, self.settings.slack_app_token.get_secret_value())
                self._socket.connect()
                log.info("gpuops bot in Socket Mode; health and metrics on %s:%d", host, port)
            else:
                log.info("gpuops bot listening on %s:%d", host, port)
            http = build_http_app(None if self._socket is not None else self.app,
                                  max_body_bytes=self.settings.max_body_bytes)
            config = self._uvicorn.Config(http, host=host, port=port, log_level="info", lifespan="off")
            self.server = self._uvicorn.Server(config)
            self.server.should_exit = self._stop_asked.is_set()
            self.server.run()
        finally:
            self.close()

    def stop(self) -> None:
        self._stop_asked.set()
        if self.server is not None:
            self.server.should_exit = True

    def close(self) -> None:
        for loop in self.loops:
            loop.stop()
        if self._socket is not None:
            self._socket.close()
        self.service.close()


def run_bot(settings: BotSettings, *, host: str, port: int) -> None:
    """Serve until interrupted: Socket Mode when an app token is set, else HTTP on ``host:port``."""
    BotProcess(settings).serve(host=host, port=port)


def start_in_background(settings: BotSettings, *, host: str, port: int) -> Callable[[], None]:
    """The bot on a daemon thread next to other work (``gpuops dev``); returns the function that stops it."""
    process = BotProcess(settings)
    thread = threading.Thread(target=process.serve, kwargs={"host": host, "port": port}, name="gpuops-bot",
                              daemon=True)
    thread.start()

    def stop() -> None:
        process.stop()
        thread.join(10)

    return stop
