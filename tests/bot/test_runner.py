"""``gpuops bot`` as a whole: it serves Slack, health and metrics, follows the feed, and stops cleanly."""

from __future__ import annotations

import time

import httpx

from bench.harness import free_port
from bot.runner import start_in_background
from bot.settings import BotSettings
from tests.bot.factories import REQUESTER
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import SIGNING_SECRET, sign


def test_the_bot_process_serves_and_stops(slack: FakeSlack, service: FakeService) -> None:
    settings = BotSettings(SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET=SIGNING_SECRET,
                           SLACK_API_URL=slack.api_url, GPUOPS_SERVICE_URL=service.url, GPUOPS_SERVICE_TOKEN=TOKEN,
                           GPUOPS_BOT_DIGEST=False, GPUOPS_BOT_FEED_POLL_SECONDS=0.1)
    port = free_port()
    stop = start_in_background(settings, host="127.0.0.1", port=port)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=5) as http:
            for _ in range(100):
                try:
                    if http.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            assert "gpuops_events_feed_lag_seconds" in http.get("/metrics").text
            body = (f"team_id=T0GPUOPS&channel_id=C0PLANS&user_id={REQUESTER}&command=%2Fgpu&text=fine-tune+7B"
                    f"&trigger_id=t1&response_url={slack.response_url()}")
            headers = {"Content-Type": "application/x-www-form-urlencoded", **sign(body)}
            assert http.post("/slack/events", content=body, headers=headers).status_code == 200
        slack.wait_for("chat.postMessage")
        deadline = time.monotonic() + 5
        while service.cursors.get("bot") != "1" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert service.cursors["bot"] == "1"  # the feed loop runs and keeps its place in the service
    finally:
        stop()
    try:
        httpx.get(f"{base}/healthz", timeout=1)
        raise AssertionError("still serving after stop")
    except httpx.TransportError:
        pass
