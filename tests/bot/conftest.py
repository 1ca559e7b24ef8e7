"""Fixtures for the bot: a fake Slack, a fake service and the real Bolt app served between them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    fake = FakeSlack().start()
    yield fake
    fake.stop()


@pytest.fixture
def service() -> Iterator[FakeService]:
    fake = FakeService().start()
    yield fake
    fake.stop()


@pytest.fixture
def bot(slack: FakeSlack, service: FakeService) -> Iterator[BotHarness]:
    harness = BotHarness(slack_api_url=slack.api_url, service_url=service.url, service_token=TOKEN,
                         response_url=slack.response_url()).start()
    yield harness
    harness.stop()
