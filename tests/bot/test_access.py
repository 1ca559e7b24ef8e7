"""The policy's workspace and channel lists: the real Bolt app refuses, privately, and files nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bot.access import PolicyWatch
from bot.blocks import APPROVE
from bot.client import ServiceClient
from tests.bot.factories import LEADS, REQUESTER, make_request
from tests.bot.fake_service import TOKEN, FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

Start = Callable[..., BotHarness]
WORKSPACE_REFUSED = "This workspace (T0GPUOPS) is not enabled for gpuops."


@pytest.fixture
def start(slack: FakeSlack, service: FakeService) -> Iterator[Start]:
    """Start the bot with the policy's ``slack:`` lists set to ``lists``."""
    started: list[BotHarness] = []

    def run(**lists: Any) -> BotHarness:
        service.slack_lists = lists
        harness = BotHarness(slack_api_url=slack.api_url, service_url=service.url, service_token=TOKEN,
                             response_url=slack.response_url()).start()
        started.append(harness)
        return harness

    yield run
    for harness in started:
        harness.stop()


def filed(service: FakeService) -> list[tuple[str, str]]:
    return [(method, path) for method, path, _ in service.calls if method != "GET"]


def test_a_command_from_another_workspace_is_refused_naming_the_approvers(start: Start, slack: FakeSlack,
                                                                         service: FakeService) -> None:
    bot = start(workspaces=["T0ELSEWHERE"])
    assert bot.command("fine-tune 7B by Friday", user=REQUESTER).status_code == 200
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "ephemeral"
    assert reply.body["text"] == (f"{WORKSPACE_REFUSED} Ask <@U0FIN1>, <@U0LEAD1> or <@U0LEAD2> to add it to "
                                  "slack.workspaces in the gpuops policy.")
    assert filed(service) == [] and service.requests == {}
    assert slack.of("chat.postMessage") == []


def test_a_channel_off_the_list_is_refused_and_a_listed_one_still_works(start: Start, slack: FakeSlack,
                                                                        service: FakeService) -> None:
    bot = start(channels=["C0PLANS"], contacts=["slack:T0GPUOPS:U0ADMIN"])
    bot.command("fine-tune 7B by Friday", user=REQUESTER, channel="C0RANDOM")
    [reply] = slack.wait_for("response")
    assert reply.body["text"] == ("This channel (C0RANDOM) is not enabled for gpuops. Ask <@U0ADMIN> to add it to "
                                  "slack.channels in the gpuops policy.")
    assert service.requests == {}
    bot.command("fine-tune 7B by Friday", user=REQUESTER, channel="C0PLANS")
    [post] = slack.wait_for("chat.postMessage")
    assert post.body["channel"] == "C0PLANS" and service.requests["req_1"].channel == "C0PLANS"


def test_a_mention_in_a_channel_off_the_list_gets_an_ephemeral(start: Start, slack: FakeSlack,
                                                               service: FakeService) -> None:
    bot = start(channels=["C0PLANS"])
    event = {"type": "app_mention", "user": REQUESTER, "text": "<@UBOT> fine-tune 7B", "ts": "1764518400.000900",
             "channel": "C0RANDOM", "event_ts": "1764518400.000900"}
    assert bot.event(event, event_id="EvAccess1").status_code == 200
    [eph] = slack.wait_for("chat.postEphemeral")
    assert (eph.body["channel"], eph.body["user"]) == ("C0RANDOM", REQUESTER)
    assert eph.body["text"].startswith("This channel (C0RANDOM) is not enabled for gpuops. Ask <@U0FIN1>")
    assert service.requests == {} and slack.of("chat.postMessage") == []


def test_a_button_from_another_workspace_records_nothing(start: Start, slack: FakeSlack,
                                                         service: FakeService) -> None:
    bot = start(workspaces=["T0ELSEWHERE"])
    service.requests["req_7"] = make_request(request_id="req_7")
    bot.action(APPROVE, "req_7:1", user=LEADS[0])
    [reply] = slack.wait_for("response")
    assert reply.body["text"].startswith(WORKSPACE_REFUSED) and reply.body["replace_original"] is False
    assert filed(service) == [] and service.requests["req_7"].approvals == []


def test_app_home_is_no_channel_and_stays_open_to_a_listed_workspace(start: Start, slack: FakeSlack) -> None:
    bot = start(workspaces=["T0GPUOPS"], channels=["C0PLANS"])
    bot.event({"type": "app_home_opened", "user": LEADS[0], "channel": "D1", "tab": "home"}, event_id="EvAccess2")
    [home] = slack.wait_for("views.publish")
    assert "not enabled" not in str(home.body["view"])


def test_app_home_of_another_workspace_shows_the_refusal(start: Start, slack: FakeSlack) -> None:
    bot = start(workspaces=["T0ELSEWHERE"])
    bot.event({"type": "app_home_opened", "user": LEADS[0], "channel": "D1", "tab": "home"}, event_id="EvAccess3")
    [home] = slack.wait_for("views.publish")
    assert WORKSPACE_REFUSED in str(home.body["view"])


def test_a_changed_policy_is_picked_up_without_holding_up_requests(service: FakeService) -> None:
    watch, client = PolicyWatch(ttl=0.0), ServiceClient(base_url=service.url, token=TOKEN)
    try:
        first = watch.current(client)  # nothing read yet: waits for the first read
        assert first is not None and first.slack.workspaces is None
        service.slack_lists = {"workspaces": ["T0ELSEWHERE"]}
        assert watch.current(client) is first  # stale: answers at once with what it has, reads in the background
        assert watch.wait_idle(5)
        current = watch.current(client)
        assert current is not None and current.slack.workspaces == ["T0ELSEWHERE"]
    finally:
        client.close()
