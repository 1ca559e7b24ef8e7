"""Mentions, Slack's retried deliveries, and App Home."""

from __future__ import annotations

from tests.bot.factories import LEADS, REQUESTER, make_request
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness


def mention(text: str) -> dict[str, str]:
    return {"type": "app_mention", "user": REQUESTER, "text": f"<@UBOT> {text}", "ts": "1764518400.000900",
            "channel": "C0PLANS", "event_ts": "1764518400.000900"}


def test_mention_posts_the_plan(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    assert bot.event(mention("fine-tune 7B by Friday"), event_id="Ev1").status_code == 200
    [post] = slack.wait_for("chat.postMessage")
    assert post.blocks[0]["text"]["text"].endswith("asked: _fine-tune 7B by Friday_")
    assert service.requests["req_1"].text == "fine-tune 7B by Friday"


def test_a_question_a_command_answers_is_pointed_to_that_command(bot: BotHarness, slack: FakeSlack,
                                                                  service: FakeService) -> None:
    bot.event(mention("what did team-nlp spend this month?"), event_id="Ev9")
    [note] = slack.wait_for("chat.postEphemeral")
    assert note.body["text"].startswith("`/gpu spend team-nlp` answers that. Mention me with a request")
    assert [c for c in service.calls if c[1] == "/v1/requests"] == []


def test_an_approval_said_to_the_bot_is_answered_with_where_approvals_are_recorded(
        bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    bot.event(mention("approve req_abc123"), event_id="Ev10")
    [note] = slack.wait_for("chat.postEphemeral")
    assert note.body["text"].startswith("Approvals are recorded only with the Approve or Reject button on req_abc123's")
    assert [c for c in service.calls if c[0] == "POST"] == []


def test_a_retried_delivery_never_acts_twice(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    bot.event(mention("fine-tune 7B by Friday"), event_id="Ev2")
    slack.wait_for("chat.postMessage")
    retry = bot.event(mention("fine-tune 7B by Friday"), event_id="Ev2", retry=1)
    assert retry.status_code == 200
    assert retry.headers.get("x-slack-no-retry") == "1"
    bot.drain()
    assert len(slack.of("chat.postMessage")) == 1
    assert len([c for c in service.calls if c[1] == "/v1/requests" and c[0] == "POST"]) == 1


def test_a_retry_reaching_another_replica_posts_nothing(bot: BotHarness, slack: FakeSlack,
                                                        service: FakeService) -> None:
    """Another replica has no memory of the event; the idempotency key makes the service answer 'posted already'."""
    bot.event(mention("fine-tune 7B by Friday"), event_id="Ev3")
    slack.wait_for("chat.postMessage")
    bot.drain()
    bot.deps.seen_events.forget("Ev3")  # as if a fresh replica got the retry
    bot.event(mention("fine-tune 7B by Friday"), event_id="Ev3", retry=1)
    bot.drain()
    assert len(slack.of("chat.postMessage")) == 1
    assert len(service.requests) == 1


def test_mention_refused_by_the_parser_is_an_ephemeral(bot: BotHarness, slack: FakeSlack) -> None:
    bot.event(mention("REFUSE this"), event_id="Ev4")
    [eph] = slack.wait_for("chat.postEphemeral")
    assert eph.body["user"] == REQUESTER and "say the model size" in eph.body["text"]


def test_app_home_lists_approvals_waiting_and_my_requests(bot: BotHarness, slack: FakeSlack,
                                                          service: FakeService) -> None:
    service.requests["req_9"] = make_request(request_id="req_9")
    lead = f"slack:T0GPUOPS:{LEADS[0]}"
    service.requests["req_10"] = make_request(request_id="req_10", requester=lead)
    bot.event({"type": "app_home_opened", "user": LEADS[0], "channel": "D1", "tab": "home"}, event_id="Ev5")
    [published] = slack.wait_for("views.publish")
    view = published.body["view"]
    texts = [b["text"]["text"] for b in view["blocks"] if b["type"] in ("section", "header")]
    assert texts[0] == "Approvals waiting for you"
    assert texts[1].startswith(f"<@{REQUESTER}> · `req_9`")
    assert texts[2] == "Your requests"
    assert texts[3].startswith("`req_10`")
    assert published.body["user_id"] == LEADS[0]


def test_approving_from_app_home_updates_the_channel_message_and_the_home(bot: BotHarness, slack: FakeSlack,
                                                                           service: FakeService) -> None:
    where = {"channel": "C0PLANS", "ts": "1764518400.000777"}
    service.requests["req_9"] = make_request(request_id="req_9", slack_message=where)
    bot.action("approve_request", "req_9", user=LEADS[0], in_home=True)
    [update] = slack.wait_for("chat.update")
    assert (update.body["channel"], update.body["ts"]) == (where["channel"], where["ts"])
    [home] = slack.wait_for("views.publish")
    texts = [b["text"]["text"] for b in home.body["view"]["blocks"] if b["type"] == "section"]
    assert texts[0] == "Nothing waits for you."
    assert slack.wait_for("chat.postMessage")[0].body["channel"] == REQUESTER  # the outcome DM


def test_a_refused_click_in_app_home_is_a_direct_message(bot: BotHarness, slack: FakeSlack,
                                                         service: FakeService) -> None:
    service.requests["req_9"] = make_request(request_id="req_9")
    bot.action("approve_request", "req_9", user="U0RANDOM", in_home=True)
    [dm] = slack.wait_for("chat.postMessage")
    assert (dm.body["channel"], dm.body["text"]) == (
        "U0RANDOM", "You can't do that: only members of ml-leads can approve experimental requests of team-ml")
