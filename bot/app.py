"""The Bolt app, built once per process, and the two ways to run it: HTTP (FastAPI + uvicorn) or Socket Mode."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from slack_bolt import App, BoltRequest, BoltResponse
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler, ServerErrorRetryHandler

from bot import actions, alerts, capacity, commands, idle, questions
from bot.access import refuse_outside_lists
from bot.client import ServiceClient
from bot.deps import Deps
from bot.settings import BotSettings

log = logging.getLogger(__name__)
EVENTS_PATH = "/slack/events"


def build_web_client(settings: BotSettings) -> WebClient:
    """A WebClient on ``SLACK_API_URL`` that waits out Slack's 429s (Retry-After) instead of failing."""
    base_url = settings.slack_api_url if settings.slack_api_url.endswith("/") else settings.slack_api_url + "/"
    client = WebClient(token=settings.slack_bot_token.get_secret_value(), base_url=base_url, timeout=10)
    client.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=2))
    # A 5xx from Slack is usually momentary; one retry beats telling the person to try again (which would leave
    # their first request without a message).
    client.retry_handlers.append(ServerErrorRetryHandler(max_retry_count=1))
    return client


def delivery_key(body: object) -> str | None:
    """What makes a delivery unique: the event id of an event, the trigger id of a command or interaction."""
    if not isinstance(body, dict):
        return None
    key = body.get("event_id") or body.get("trigger_id")
    return str(key) if key else None


def drop_repeated_events(deps: Deps) -> Callable[..., BoltResponse | None]:
    """Slack re-sends what it thinks we missed (``X-Slack-Retry-Num``); act on each delivery once.

    Copies arriving side by side would otherwise all reach the service before the first one's message is
    recorded there, and each would post the plan.
    """

    # Bolt passes middleware arguments by name, so the signature must say req, resp and next.
    def middleware(req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse]) -> BoltResponse | None:  # noqa: ARG001
        key = delivery_key(req.body)
        if key and not deps.seen_events.first_time(key):
            retry = req.headers.get("x-slack-retry-num", ["0"])[0]
            log.info("dropping repeated delivery %s (retry %s)", key, retry)
            return BoltResponse(status=200, body="", headers={"X-Slack-No-Retry": "1"})
        return next()

    return middleware


def build_app(*, settings: BotSettings, service_client: ServiceClient, deps: Deps | None = None,
              executor: ThreadPoolExecutor | None = None) -> App:
    """The one Bolt App of this process, with every listener attached (``executor``: the pool that runs acks and
    lazy work, by default one of ``settings.listener_threads`` threads)."""
    deps = deps or Deps(service=service_client, sources_url=settings.sources_url)
    # Acks and lazy work share this pool; Bolt's default of 5 threads queues acks behind slow lazy work.
    executor = executor or ThreadPoolExecutor(max_workers=settings.listener_threads, thread_name_prefix="bolt")
    app = App(
        client=build_web_client(settings),
        signing_secret=settings.slack_signing_secret.get_secret_value(),
        # Every listener acks at once and leaves slow work to lazy listeners, so the ack can run inline: with
        # False, Bolt runs it on another thread and polls for it every 10 ms, which alone costs 10 ms per request.
        process_before_response=True,
        listener_executor=executor,
    )
    app.use(drop_repeated_events(deps))
    app.use(refuse_outside_lists(deps.service, deps.policy_watch, executor))
    commands.register(app, deps)
    actions.register(app, deps)
    questions.register(app, deps)
    alerts.register(app, deps)
    idle.register(app, deps)
    capacity.register(app, deps)
    return app


def build_service_client(settings: BotSettings) -> ServiceClient:
    return ServiceClient(base_url=settings.service_url, token=settings.service_token.get_secret_value(),
                         timeout=settings.service_timeout)

