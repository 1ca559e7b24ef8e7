"""The real Bolt app served over loopback HTTP (uvicorn), its WebClient on a fake Slack, its service a fake one.

Every request is signed with the real ``slack_sdk.signature.SignatureVerifier``; tests and the benchmark post
exactly what Slack would.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

import httpx
import uvicorn
from slack_sdk.signature import SignatureVerifier

from bot.app import build_app
from bot.client import ServiceClient
from bot.deps import Deps
from bot.http import build_http_app
from bot.settings import BotSettings
from tests.bot.factories import NOW, TEAM_ID

SIGNING_SECRET = "test-signing-secret"


def sign(body: str, *, secret: str = SIGNING_SECRET, timestamp: int | None = None) -> dict[str, str]:
    ts = str(int(time.time()) if timestamp is None else timestamp)
    signature = SignatureVerifier(secret).generate_signature(timestamp=ts, body=body)
    assert signature is not None
    return {"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": signature}


class UvicornThread:
    """uvicorn on 127.0.0.1 and a free port, in a background thread."""

    def __init__(self, app: Any, *, http: str = "h11") -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        config = uvicorn.Config(app, log_level="warning", lifespan="off", ws="none", http=http,
                                access_log=False)
        self.server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self._sock]}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._sock.getsockname()[:2]
        return f"http://{host}:{port}"

    def start(self) -> UvicornThread:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(10)
        self._sock.close()


class DrainableExecutor(ThreadPoolExecutor):
    """The bot's listener pool, able to wait until every piece of work handed to it has finished: the barrier
    before asserting that nothing more happened."""

    def __init__(self, max_workers: int) -> None:
        super().__init__(max_workers=max_workers, thread_name_prefix="bolt")
        self._idle = threading.Condition()
        self._busy = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with self._idle:
            self._busy += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _future: Future[Any]) -> None:
        with self._idle:
            self._busy -= 1
            self._idle.notify_all()

    def drain(self, timeout: float = 10.0) -> None:
        with self._idle:
            if not self._idle.wait_for(lambda: self._busy == 0, timeout):
                raise AssertionError(f"{self._busy} piece(s) of bot work still running after {timeout}s")


class BotHarness:
    def __init__(self, *, slack_api_url: str, service_url: str, service_token: str,
                 response_url: str, clock: Callable[[], datetime] = lambda: NOW, timeout: float = 2.0,
                 http: str = "h11") -> None:
        self.settings = BotSettings(SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET=SIGNING_SECRET,
                                    SLACK_API_URL=slack_api_url, GPUOPS_SERVICE_URL=service_url,
                                    GPUOPS_SERVICE_TOKEN=service_token, GPUOPS_BOT_SERVICE_TIMEOUT=timeout)
        self.service = ServiceClient(base_url=service_url, token=service_token, timeout=timeout)
        self.deps = Deps(service=self.service, clock=clock)
        self.executor = DrainableExecutor(self.settings.listener_threads)
        self.app = build_app(settings=self.settings, service_client=self.service, deps=self.deps,
                             executor=self.executor)
        self.server = UvicornThread(build_http_app(self.app, max_body_bytes=self.settings.max_body_bytes), http=http)
        self.response_url = response_url
        self.http = httpx.Client(timeout=10)
        self._ids = iter(range(1, 1_000_000))

    def start(self) -> BotHarness:
        self.deps.policy_watch.refresh(self.service)
        self.deps.policy_watch.wait_idle(5)
        self.server.start()
        return self

    def drain(self, timeout: float = 10.0) -> None:
        """Wait until everything the bot started (lazy listeners, replies) has finished."""
        self.executor.drain(timeout)

    def stop(self) -> None:
        self.http.close()
        self.server.stop()
        self.service.close()
        self.executor.shutdown(wait=False)

    @property
    def events_url(self) -> str:
        return f"{self.server.url}/slack/events"

    def post(self, body: str, content_type: str, *, headers: dict[str, str] | None = None,
             secret: str = SIGNING_SECRET) -> httpx.Response:
        sent = {"Content-Type": content_type, **sign(body, secret=secret), **(headers or {})}
        return self.http.post(self.events_url, content=body, headers=sent)

    def command_body(self, text: str, *, user: str, channel: str = "C0PLANS", trigger_id: str | None = None) -> str:
        return urlencode({
            "token": "unused", "team_id": TEAM_ID, "team_domain": "gpuops", "channel_id": channel,
            "channel_name": "plans", "user_id": user, "user_name": user.lower(), "command": "/gpu", "text": text,
            "api_app_id": "A0GPUOPS", "response_url": self.response_url,
            "trigger_id": trigger_id or f"trigger.{next(self._ids)}",
        })

    def command(self, text: str, *, user: str, channel: str = "C0PLANS", trigger_id: str | None = None,
                secret: str = SIGNING_SECRET) -> httpx.Response:
        body = self.command_body(text, user=user, channel=channel, trigger_id=trigger_id)
        return self.post(body, "application/x-www-form-urlencoded", secret=secret)

    def action(self, action_id: str, value: str, *, user: str, channel: str = "C0PLANS",
               ts: str = "1764518400.000001", in_home: bool = False) -> httpx.Response:
        payload: dict[str, Any] = {
            "type": "block_actions", "team": {"id": TEAM_ID, "domain": "gpuops"},
            "user": {"id": user, "team_id": TEAM_ID, "username": user.lower()}, "api_app_id": "A0GPUOPS",
            "container": {"type": "message", "message_ts": ts, "channel_id": channel, "is_ephemeral": False},
            "channel": {"id": channel, "name": "plans"}, "message": {"ts": ts, "type": "message", "text": "plan"},
            "trigger_id": f"trigger.{next(self._ids)}", "response_url": self.response_url,
            "actions": [{"type": "button", "action_id": action_id, "block_id": "b", "value": value,
                         "action_ts": "1764518400.1"}],
        }
        if in_home:  # App Home: a view, not a message, and no response_url
            for key in ("channel", "message", "response_url"):
                payload.pop(key)
            payload["container"] = {"type": "view", "view_id": "V0HOME"}
            payload["view"] = {"id": "V0HOME", "type": "home", "blocks": [], "private_metadata": ""}
        return self.post(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")

    def view_submission(self, callback_id: str, values: dict[str, Any], metadata: str, *, user: str
                        ) -> httpx.Response:
        payload = {
            "type": "view_submission", "team": {"id": TEAM_ID, "domain": "gpuops"},
            "user": {"id": user, "team_id": TEAM_ID}, "api_app_id": "A0GPUOPS", "trigger_id": "trigger.view",
            "view": {"id": "V1", "type": "modal", "callback_id": callback_id, "private_metadata": metadata,
                     "state": {"values": values}, "hash": "h"},
        }
        return self.post(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")

    def event(self, event: dict[str, Any], *, event_id: str, retry: int | None = None) -> httpx.Response:
        body = json.dumps({
            "token": "unused", "team_id": TEAM_ID, "api_app_id": "A0GPUOPS", "event": event,
            "type": "event_callback", "event_id": event_id, "event_time": 1764518400,
            "authorizations": [{"team_id": TEAM_ID, "user_id": "UBOT", "is_bot": True}],
        })
        headers = {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"} if retry else None
        return self.post(body, "application/json", headers=headers)
