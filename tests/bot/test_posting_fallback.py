"""Where the bot is no member (a private channel it was not invited to, a direct message between two people) the
plan still reaches the person through the command's response_url, and clicks keep it current through theirs."""

from __future__ import annotations

import pytest

from tests.bot.factories import LEADS, REQUESTER
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness


@pytest.mark.parametrize(("channel", "error"), [("G0PRIVATE", "not_in_channel"), ("D0TWOPEOPLE", "channel_not_found")])
def test_a_plan_the_bot_cannot_post_goes_through_the_response_url(bot: BotHarness, slack: FakeSlack,
                                                                  service: FakeService, channel: str,
                                                                  error: str) -> None:
    slack.fail_next("chat.postMessage", body={"ok": False, "error": error})
    bot.command("fine-tune 7B by Friday", user=REQUESTER, channel=channel)
    answer, hint = slack.wait_for("response", count=2)
    assert answer.body["response_type"] == "in_channel"
    assert hint.body["response_type"] == "ephemeral" and "/invite @gpuops" in hint.body["text"]
    assert answer.body["blocks"][0]["text"]["text"].startswith("*4× g6e.12xlarge · spot")
    assert answer.body["text"].startswith("GPU plan req_1:")
    bot.drain()
    # Slack gives no ts for a response_url message: nothing is recorded as the request's message.
    assert service.requests["req_1"].slack_message is None
    assert [c.method for c in slack.calls].count("chat.postMessage") == 1


def test_a_click_on_such_a_message_replaces_it_through_its_response_url(bot: BotHarness, slack: FakeSlack,
                                                                        service: FakeService) -> None:
    slack.fail_next("chat.postMessage", body={"ok": False, "error": "not_in_channel"})
    bot.command("fine-tune 7B by Friday", user=REQUESTER, channel="G0PRIVATE")
    slack.wait_for("response", count=2)
    slack.fail_next("chat.update", body={"ok": False, "error": "channel_not_found"})
    bot.action("approve_request", "req_1:1", user=LEADS[0], channel="G0PRIVATE", ts="1764518400.000009")
    replaced = slack.wait_for("response", count=3)[2]
    assert replaced.body["replace_original"] is True
    assert replaced.body["blocks"][-3]["text"]["text"].startswith(f"✅ *Approved*\n✓ <@{LEADS[0]}> approved")
    assert service.requests["req_1"].status == "approved"


def test_other_slack_errors_still_reach_the_person(bot: BotHarness, slack: FakeSlack) -> None:
    slack.fail_next("chat.postMessage", body={"ok": False, "error": "invalid_blocks"})
    bot.command("fine-tune 7B by Friday", user=REQUESTER)
    [answer] = slack.wait_for("response")
    assert answer.body["response_type"] == "ephemeral"
    assert answer.body["text"].startswith("Something went wrong on our side (error id `")
