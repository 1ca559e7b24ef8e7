"""/gpu over signed HTTP: the plan lands in the channel as Block Kit, errors reach the person privately."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from bot.blocks import request_blocks
from bot.views import HELP_EXAMPLES
from contract.actors import ACTOR_HEADER
from contract.requests import RequestCreate, SlackMessageRef
from policy.parse import parse_request
from tests.bot.factories import LEADS, NOW, REQUESTER, TEAM_ID
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

# The finish is a Slack date token: each reader sees it in their own zone; the fallback names the requester's.
SUMMARY = ("*4× g6e.12xlarge · spot · SageMaker · ~$310 · done <!date^1796320800^{date_short_pretty} {time}|"
           "Thu 10:00 PST> · deadline Fri ✓*")


def test_slash_command_posts_the_plan_and_records_where(bot: BotHarness, slack: FakeSlack,
                                                        service: FakeService) -> None:
    response = bot.command("fine-tune 7B by Friday", user=REQUESTER)
    assert response.status_code == 200
    [post] = slack.wait_for("chat.postMessage")
    blocks = post.blocks
    assert post.body["channel"] == "C0PLANS"
    assert blocks[0]["text"]["text"] == f"{SUMMARY}\n<@{REQUESTER}> asked: _fine-tune 7B by Friday_"
    assert blocks[-2] == {
        "type": "actions", "block_id": "req:req_1", "elements": [
            {"type": "button", "text": {"type": "plain_text", "text": "Approve", "emoji": True},
             "action_id": "approve_request", "value": "req_1:1", "style": "primary"},
            {"type": "button", "text": {"type": "plain_text", "text": "Reject", "emoji": True},
             "action_id": "reject_request", "value": "req_1:1", "style": "danger"},
            {"type": "button", "text": {"type": "plain_text", "text": "Edit", "emoji": True},
             "action_id": "edit_request", "value": "req_1"},
            {"type": "button", "text": {"type": "plain_text", "text": "Why?", "emoji": True},
             "action_id": "why_request", "value": "req_1"},
            {"type": "button", "text": {"type": "plain_text", "text": "Cancel request", "emoji": True},
             "action_id": "cancel_request", "value": "req_1"},
        ]}
    status = blocks[-3]["text"]["text"]
    assert status.startswith(f"⏳ *Waiting for 1 approval* from <@{LEADS[0]}>, <@{LEADS[1]}>")
    # A range several times wide says what its ends assume, beside the figures.
    assert blocks[3]["elements"][0]["text"] == (
        "Cost range $270–$365: hours ÷/× 1.25 (±25% throughput); low: no interruptions at the lowest spot price "
        "observed; high: expected interruptions at the highest spot price observed")
    # Savings name the baseline they are measured against.
    assert "~$890 less than 1× p5.48xlarge on-demand on SageMaker" in blocks[-1]["elements"][0]["text"]
    texts = [b.get("text", {}).get("text", "") for b in blocks]
    assert any("$38,420 month to date of $50,000 budget (77%)" in t for t in texts)
    assert [b["accessory"]["text"]["text"] for b in blocks if "accessory" in b] == ["Use this", "Use this"]
    # The message the service will be told about is the one Slack answered with.
    bot.drain()
    stored = service.requests["req_1"]
    assert stored.slack_message == SlackMessageRef(channel="C0PLANS", ts=post.answer["ts"])
    assert stored.timezone == "America/Los_Angeles"
    # Exactly what the renderer makes of the service's answer, nothing added on the way.
    expected = request_blocks(stored.model_copy(update={"slack_message": None}), now=NOW)
    assert blocks == expected
    create = [c for c in service.calls if c[0] == "POST" and c[1] == "/v1/requests"]
    assert create[0][2][ACTOR_HEADER.lower()] == f"slack:{TEAM_ID}:{REQUESTER}"


def test_ack_comes_before_the_service_answers(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.delay = 1.0
    started = time.monotonic()
    response = bot.command("fine-tune 7B by Friday", user=REQUESTER)
    assert response.status_code == 200
    assert time.monotonic() - started < 0.5
    slack.wait_for("chat.postMessage", timeout=5)


def test_parser_refusal_is_a_private_message_saying_what_to_type(bot: BotHarness, slack: FakeSlack) -> None:
    bot.command("fine-tune REFUSE by Friday", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "ephemeral"
    assert "say the model size" in reply.body["text"]
    assert "/gpu help" in reply.body["text"]
    assert slack.of("chat.postMessage") == []


def test_service_down_gets_a_try_again_within_three_seconds(slack: FakeSlack) -> None:
    dead = BotHarness(slack_api_url=slack.api_url, service_url="http://127.0.0.1:9", service_token="x",
                      response_url=slack.response_url()).start()
    try:
        started = time.monotonic()
        dead.command("fine-tune 7B by Friday", user=REQUESTER)
        [reply] = slack.wait_for("response", timeout=3)
        assert time.monotonic() - started < 3
        assert "try again" in reply.body["text"]
    finally:
        dead.stop()


@pytest.mark.parametrize("token", ["", "not-the-bot-token"])
def test_a_missing_or_wrong_service_token_is_named_not_reported_as_an_outage(slack: FakeSlack, service: FakeService,
                                                                            token: str) -> None:
    misconfigured = BotHarness(slack_api_url=slack.api_url, service_url=service.url, service_token=token,
                               response_url=slack.response_url()).start()
    try:
        misconfigured.command("fine-tune 7B by Friday", user=REQUESTER)
        [reply] = slack.wait_for("response", timeout=3)
        assert "GPUOPS_SERVICE_TOKEN" in reply.body["text"]
        assert "not answering" not in reply.body["text"]
        assert token not in reply.body["text"] or not token
    finally:
        misconfigured.stop()


def test_service_slow_gets_a_try_again_within_three_seconds(bot: BotHarness, slack: FakeSlack,
                                                            service: FakeService) -> None:
    service.delay = 4.0
    started = time.monotonic()
    bot.command("fine-tune 7B by Friday", user=REQUESTER)
    [reply] = slack.wait_for("response", timeout=3)
    assert time.monotonic() - started < 3
    assert "try again" in reply.body["text"]
    service.delay = 0


def test_bad_signature_is_401_and_nothing_happens(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    response = bot.command("fine-tune 7B by Friday", user=REQUESTER, secret="not-the-secret")
    assert response.status_code == 401
    bot.drain()
    assert [c for c in service.calls if c[1] == "/v1/requests"] == []
    assert slack.of("chat.postMessage") == [] and slack.of("response") == []


def test_stale_timestamp_is_refused(bot: BotHarness, service: FakeService) -> None:
    body = bot.command_body("fine-tune 7B", user=REQUESTER)
    from tests.bot.harness import sign

    headers = {"Content-Type": "application/x-www-form-urlencoded", **sign(body, timestamp=int(time.time()) - 600)}
    before = list(service.calls)  # the policy the bot read when it started
    assert bot.http.post(bot.events_url, content=body, headers=headers).status_code == 401
    assert service.calls == before


def test_help_lists_examples_to_copy(bot: BotHarness, slack: FakeSlack) -> None:
    bot.command("help", user=REQUESTER)
    [reply] = slack.wait_for("response")
    text = "\n".join(b["text"]["text"] for b in reply.body["blocks"] if "text" in b)
    assert "```/gpu fine-tune 7B by Friday```" in text
    assert reply.body["response_type"] == "ephemeral"


@pytest.mark.parametrize("example", HELP_EXAMPLES)
def test_every_example_in_help_is_read_whole(example: str) -> None:
    """An example to copy that left words unread would be held for approval, or refused, the first time it is
    tried."""
    request = parse_request(example.removeprefix("/gpu "), now=datetime(2026, 12, 1, 10, 0, tzinfo=UTC), tz="UTC")
    assert request.unread == []


def test_slack_escapes_are_undone_before_the_service_reads_the_text(bot: BotHarness, slack: FakeSlack,
                                                                   service: FakeService) -> None:
    bot.command("fine-tune 7B by Friday, budget &lt; $5k &amp; spot ok", user=REQUESTER)
    [post] = slack.wait_for("chat.postMessage")
    assert service.requests["req_1"].text == "fine-tune 7B by Friday, budget < $5k & spot ok"
    # …and escaped again where it is shown, so Slack does not read them as markup.
    assert post.blocks[0]["text"]["text"].endswith("asked: _fine-tune 7B by Friday, budget &lt; $5k &amp; spot ok_")


def test_copies_of_one_command_arriving_together_post_one_plan(bot: BotHarness, slack: FakeSlack,
                                                               service: FakeService) -> None:
    import concurrent.futures

    body = bot.command_body("fine-tune 7B by Friday", user=REQUESTER, trigger_id="trigger.same")
    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        codes = list(pool.map(lambda _: bot.post(body, "application/x-www-form-urlencoded").status_code, range(64)))
    assert codes == [200] * 64
    slack.wait_for("chat.postMessage")
    bot.drain()
    assert len(slack.of("chat.postMessage")) == 1 and len(service.requests) == 1


def test_slack_500_is_retried_once(bot: BotHarness, slack: FakeSlack) -> None:
    slack.fail_next("chat.postMessage", status=500, body={"ok": False, "error": "internal_error"})
    bot.command("fine-tune 7B by Friday", user=REQUESTER)
    posts = slack.wait_for("chat.postMessage", count=2)
    assert posts[1].answer["ok"] is True and slack.of("response") == []


def test_a_repeat_posts_when_the_delivery_that_created_the_request_never_did(
        bot: BotHarness, slack: FakeSlack, service: FakeService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.commands.REPLAY_GRACE_SECONDS", 0.5)
    service.create(f"slack:{TEAM_ID}:{REQUESTER}", RequestCreate(text="fine-tune 7B by Friday"),
                   "slack:trigger.dead")
    started = time.monotonic()
    bot.command("fine-tune 7B by Friday", user=REQUESTER, trigger_id="trigger.dead")
    [post] = slack.wait_for("chat.postMessage")
    assert time.monotonic() - started >= 0.5
    assert post.body["channel"] == "C0PLANS" and len(service.requests) == 1
