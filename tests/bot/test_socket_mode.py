"""Socket Mode end to end: the bot process opens a connection (apps.connections.open), takes a slash command from a
loopback WebSocket standing in for Slack, acknowledges its envelope, and posts the plan."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from bot.runner import BotProcess
from bot.settings import BotSettings
from tests.bot.factories import REQUESTER, TEAM_ID
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.fake_socket_mode import FakeSocketMode

APP_TOKEN = "xapp-1-test"


@pytest.fixture
def socket_mode(slack: FakeSlack) -> Iterator[FakeSocketMode]:
    fake = FakeSocketMode().start()
    slack.socket_url = fake.url
    yield fake
    fake.stop()


@pytest.fixture
def process(slack: FakeSlack, service: FakeService, socket_mode: FakeSocketMode) -> Iterator[BotProcess]:
    settings = BotSettings(SLACK_BOT_TOKEN="xoxb-test", SLACK_SIGNING_SECRET="unused-in-socket-mode",
                           SLACK_APP_TOKEN=APP_TOKEN, SLACK_API_URL=slack.api_url, GPUOPS_SERVICE_URL=service.url,
                           GPUOPS_SERVICE_TOKEN=TOKEN, GPUOPS_BOT_FEED=False, GPUOPS_BOT_DIGEST=False)
    bot = BotProcess(settings)
    thread = threading.Thread(target=bot.serve, kwargs={"host": "127.0.0.1", "port": 0}, daemon=True)
    thread.start()
    yield bot
    bot.stop()
    thread.join(10)
    assert not thread.is_alive()


def slash_command(text: str, *, envelope_id: str, trigger_id: str) -> dict[str, object]:
    return {"envelope_id": envelope_id, "type": "slash_commands", "accepts_response_payload": True,
            "payload": {"token": "unused", "team_id": TEAM_ID, "team_domain": "gpuops", "channel_id": "C0PLANS",
                        "channel_name": "plans", "user_id": REQUESTER, "user_name": "asker", "command": "/gpu",
                        "text": text, "api_app_id": "A0GPUOPS", "response_url": "http://127.0.0.1:9/unused",
                        "trigger_id": trigger_id}}


def test_a_slash_command_over_socket_mode_is_acknowledged_and_posts_the_plan(
        process: BotProcess, slack: FakeSlack, service: FakeService, socket_mode: FakeSocketMode) -> None:
    [opened] = slack.wait_for("apps.connections.open", timeout=10)
    assert opened.headers["authorization"] == f"Bearer {APP_TOKEN}"  # the app-level token, not the bot token
    socket_mode.send(slash_command("fine-tune 7B by Friday", envelope_id="env-1", trigger_id="trigger.sm1"))
    ack = socket_mode.wait_for_ack("env-1")
    assert set(ack) <= {"envelope_id", "payload"} and not ack.get("payload")
    [post] = slack.wait_for("chat.postMessage", timeout=10)
    assert post.body["channel"] == "C0PLANS"
    assert post.blocks[0]["text"]["text"].startswith("*4× g6e.12xlarge · spot · SageMaker")
    assert [c.text for c in service.created] == ["fine-tune 7B by Friday"]
    assert socket_mode.connections == 1
