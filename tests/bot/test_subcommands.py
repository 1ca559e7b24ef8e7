"""/gpu spend, jobs, status, policy; Slack's 429s; an unexpected error's correlation id."""

from __future__ import annotations

import logging
import time

import pytest

from bot.commands import split_subcommand
from tests.bot.factories import NOW, REQUESTER, make_job, make_request
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

RUNNING = make_job(name="gpuops-req-5-r1", status="InProgress", secondary_status="Training", training_seconds=3600,
                   billable_seconds=None, actual_cost_usd=None, spot_savings=None, interruptions=0)


def test_spend_posts_figures_and_the_chart_in_the_channel(bot: BotHarness, slack: FakeSlack,
                                                          service: FakeService) -> None:
    bot.command("spend", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "in_channel"
    texts = [b["text"]["text"] for b in reply.body["blocks"] if "text" in b]
    assert texts[0] == "*Spend* team-ml: $38,420 month to date of $50,000 budget (77%) · month forecast $47,900"
    assert texts[1].startswith("*Top drivers*\n• p4d.24xlarge: $21,300\n• g6e.12xlarge: $9,800")
    slack.wait_for("files.completeUploadExternal")
    [upload] = slack.of("upload")
    assert upload.raw.startswith(b"\x89PNG")
    assert slack.of("files.completeUploadExternal")[0].body["channel_id"] == "C0PLANS"
    spend_calls = [c for c in service.calls if c[1] == "/v1/spend"]
    assert len(spend_calls) == 1  # the channel's team came from the policy's slack_channels


def test_jobs_status_and_policy_answer_privately(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.requests["req_5"] = make_request(request_id="req_5", status="running", job=RUNNING)
    bot.command("jobs", user=REQUESTER)
    bot.command("status req_5", user=REQUESTER)
    bot.command("policy", user=REQUESTER)
    replies = slack.wait_for("response", count=3)
    by_text = {r.body["text"]: r.body for r in replies}
    jobs = by_text["Running jobs"]["blocks"]
    assert jobs[1]["text"]["text"] == ("`req_5` 4× g6e.12xlarge · team-ml · InProgress · $20 so far of ~$310")
    status = by_text["Status of req_5"]["blocks"]
    assert status[1]["text"]["text"] == "🏃 *Running*\nJob `gpuops-req-5-r1`: InProgress"
    policy = by_text["Policy in force"]["blocks"]
    assert policy[0]["text"]["text"] == "*Policy in force* `0123456789ab`"
    assert all(r["response_type"] == "ephemeral" for r in by_text.values())


def test_status_asked_in_words_answers_with_the_status(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.requests["req_5"] = make_request(request_id="req_5", status="running", job=RUNNING)
    bot.command("hey, what's the status of req_5?", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["text"] == "Status of req_5" and reply.body["response_type"] == "ephemeral"
    assert [c for c in service.calls if c[1] == "/v1/requests"] == []  # nothing planned or filed


def test_status_of_an_unknown_request(bot: BotHarness, slack: FakeSlack) -> None:
    bot.command("status req_nope", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["text"] == "I can't find that: no request 'req_nope'"


def test_slack_429_is_waited_out(bot: BotHarness, slack: FakeSlack) -> None:
    slack.fail_next("chat.postMessage", status=429, body={"ok": False, "error": "ratelimited"},
                    headers={"Retry-After": "1"})
    started = time.monotonic()
    bot.command("fine-tune 7B by Friday", user=REQUESTER)
    posts = slack.wait_for("chat.postMessage", count=2, timeout=6)
    assert posts[0].answer["error"] == "ratelimited" and posts[1].answer["ok"] is True
    assert time.monotonic() - started >= 1.0


def test_unexpected_error_shows_a_correlation_id_that_is_logged(bot: BotHarness, slack: FakeSlack,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    slack.fail_next("chat.postMessage", body={"ok": False, "error": "invalid_blocks"})
    with caplog.at_level(logging.ERROR, logger="bot.error_messages"):
        bot.command("fine-tune 7B by Friday", user=REQUESTER)
        [reply] = slack.wait_for("response")
        bot.drain()
    text = reply.body["text"]
    assert text.startswith("Something went wrong on our side (error id `")
    cid = text.split("`")[1]
    assert len(cid) == 8 and any(cid in record.getMessage() for record in caplog.records)
    assert "xoxb-test" not in caplog.text and "test-signing-secret" not in caplog.text


def test_not_in_channel_says_to_invite_the_bot(bot: BotHarness, slack: FakeSlack) -> None:
    slack.fail_next("chat.postMessage", body={"ok": False, "error": "not_in_channel"})
    bot.command("fine-tune 7B by Friday", user=REQUESTER)
    plan, hint = slack.wait_for("response", count=2)
    assert plan.body["response_type"] == "in_channel"
    assert hint.body == {"response_type": "ephemeral", "replace_original": False, "text": (
        "I posted the plan through this command's reply, as I'm not in this conversation: clicks on it still work, "
        "but launch news can't reach its thread. Invite me with `/invite @gpuops` for that.")}


def test_stop_asks_the_service_as_the_person_with_the_reason(bot: BotHarness, slack: FakeSlack,
                                                             service: FakeService) -> None:
    service.requests["req_5"] = make_request(request_id="req_5", status="running", job=RUNNING)
    bot.command("stop req_5 loss diverged at step 40k", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "ephemeral"
    assert reply.body["text"] == "Asked to stop `gpuops-req-5-r1` of req_5; its thread says when it has."
    assert service.stops == [{"request_id": "req_5", "actor": f"slack:T0GPUOPS:{REQUESTER}",
                              "reason": "loss diverged at step 40k"}]


def test_stop_of_a_request_that_is_not_running_says_so_privately(bot: BotHarness, slack: FakeSlack,
                                                                 service: FakeService) -> None:
    service.requests["req_6"] = make_request(request_id="req_6", status="pending_approval")
    bot.command("stop req_6", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "ephemeral"
    assert "pending_approval" in reply.body["text"] and service.stops == []


def test_jobs_show_the_live_cost_and_what_the_job_is_projected_to_cost(bot: BotHarness, slack: FakeSlack,
                                                                       service: FakeService) -> None:
    live = make_job(name="gpuops-req-6-r1", status="InProgress", secondary_status="Training", actual_cost_usd=None,
                    billable_seconds=None, training_seconds=None, cost_so_far_usd=162.4, projected_cost_usd=341.0,
                    cost_as_of=NOW.isoformat())
    service.requests["req_6"] = make_request(request_id="req_6", status="running", job=live)
    bot.command("jobs", user=REQUESTER)
    [reply] = slack.wait_for("response", count=1)
    assert reply.body["blocks"][1]["text"]["text"] == (
        "`req_6` 4× g6e.12xlarge · team-ml · InProgress · $162 so far of ~$310 · $341 projected to finish")


def test_app_home_shows_a_running_jobs_live_cost_under_the_request() -> None:
    from bot.views import home_view

    live = make_job(name="gpuops-req-6-r1", status="InProgress", actual_cost_usd=None, billable_seconds=None,
                    training_seconds=None, cost_so_far_usd=162.4, projected_cost_usd=341.0, cost_as_of=NOW.isoformat())
    finished = make_request(request_id="req_7", status="succeeded", job=make_job())
    view = home_view([make_request(request_id="req_6", status="running", job=live), finished], [], now=NOW)
    texts = [b["text"]["text"] for b in view["blocks"] if b["type"] == "section"]
    assert "💸 `gpuops-req-6-r1`: $162 so far (52% of the estimate), $341 projected to finish" in texts
    assert sum(t.startswith("💸") for t in texts) == 1  # a finished job shows its actual cost, not a live one


def test_a_question_about_spend_in_words_is_answered_with_the_spend(bot: BotHarness, slack: FakeSlack,
                                                                    service: FakeService) -> None:
    """It was sent to the planner and refused for want of a model size."""
    bot.command("what did team-nlp spend this month?", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "in_channel" and reply.body["text"] == "Spend for team-nlp"
    assert [c for c in service.calls if c[1] == "/v1/requests"] == []


@pytest.mark.parametrize("text", ["what's our forecast for December?", "are we going to go over budget this month?",
                                  "month-to-date for team-ml?",
                                  # what the money went on names no work to plan
                                  "finance q: what did team-nlp spend this month on training?",
                                  "how much have we spent on GPUs this month?", "what did team-ml2 spend?",
                                  "how much did last month cost"])
def test_a_finance_question_in_words_is_the_spend_subcommand(text: str) -> None:
    assert split_subcommand(text)[0] == "spend"


@pytest.mark.parametrize(("text", "name"), [("what is the policy?", "policy"), ("show me the approvers", "policy"),
                                            ("who needs to approve my request?", "policy"),
                                            ("what can you do?", "help"), ("cancel req_1 wrong data", "cancel"),
                                            ("show me my running jobs", "jobs"), ("whats running right now", "jobs")])
def test_the_other_subcommands_asked_in_words(text: str, name: str) -> None:
    assert split_subcommand(text)[0] == name


@pytest.mark.parametrize("text", ["status of req_abc123", "where is req_abc123 at?", "how is req_abc123 doing?"])
def test_a_request_asked_about_by_its_id_gets_its_status(text: str) -> None:
    """Each was planned as a request and refused for want of a model size."""
    assert split_subcommand(text) == ("status", "req_abc123")


@pytest.mark.parametrize("text", ["fine-tune 7B, don't spend more than $50", "lora on our budget by Friday",
                                  "how much would we spend training a 7B on 1B tokens?",
                                  "what should I fine-tune without spending much",
                                  # an earlier request named beside work to plan: the service says it is not looked up
                                  "fine-tune 7B like req_abc123 but on 2B tokens"])
def test_a_request_that_mentions_spend_is_still_a_request(text: str) -> None:
    assert split_subcommand(text) == ("request", text)


def test_a_question_about_running_jobs_in_words_lists_them(bot: BotHarness, slack: FakeSlack,
                                                           service: FakeService) -> None:
    service.requests["req_5"] = make_request(request_id="req_5", status="running", job=RUNNING)
    bot.command("what's running?", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["text"] == "Running jobs"


def test_jobs_done_lists_the_finished_jobs_with_their_cost_against_the_estimate(bot: BotHarness, slack: FakeSlack,
                                                                                  service: FakeService) -> None:
    service.requests["req_5"] = make_request(request_id="req_5", status="running", job=RUNNING)
    service.requests["req_7"] = make_request(request_id="req_7", status="succeeded", job=make_job(),
                                             text="LoRA 70B on 200M tokens by Friday")
    service.requests["req_8"] = make_request(request_id="req_8", status="failed",
                                             job=make_job(actual_cost_usd=None, training_seconds=1800))
    bot.command("jobs done", user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["text"] == "Finished jobs" and reply.body["response_type"] == "ephemeral"
    texts = [b["text"]["text"] for b in reply.body["blocks"]]
    assert texts[0] == "*Last 2 finished jobs*, newest first: what each cost against its estimate"
    assert texts[1].startswith("`req_7` 4× g6e.12xlarge · succeeded · $254 against ~$310 (-18%)\n"
                               "_LoRA 70B on 200M tokens by Friday_ · team-ml · asked <!date^")
    assert texts[2].startswith("`req_8` 4× g6e.12xlarge · failed · $9.80 so far (final bill pending) against ~$310")
    assert [c for c in service.calls if c[1] == "/v1/requests"] == []


@pytest.mark.parametrize("text", ["what did the 70B lora last week cost vs estimate?", "what did the 7B fine-tune cost",
                                  "actual vs estimate for last week's jobs?"])
def test_what_an_earlier_job_cost_asked_in_words_lists_the_finished_jobs(text: str) -> None:
    """ "what did the 70B lora last week cost vs estimate?" was planned as a new 70B LoRA."""
    assert split_subcommand(text) == ("jobs", "done")


def test_a_question_about_an_earlier_cost_followed_by_work_to_plan_is_planned() -> None:
    text = "how much did it cost to fine-tune 7B last time? plan the same on 1B tokens"
    assert split_subcommand(text) == ("request", text)


def test_a_request_for_an_estimate_only_shows_no_approve_button_and_says_how_to_run_it() -> None:
    from bot.blocks import request_blocks

    blocks = request_blocks(make_request(status="estimate"), now=NOW)
    buttons = [e["text"]["text"] for b in blocks if b["type"] == "actions" for e in b["elements"]]
    assert buttons == ["Why?"]
    assert any(b.get("text", {}).get("text", "").startswith("📋 *Estimate only*: nothing launches from this request")
               for b in blocks)


@pytest.mark.parametrize(("text", "named"), [("approve req_abc123", "req_abc123"), ("LGTM", ""),
                                             ("reject req_abc123, wrong dataset", "req_abc123"),
                                             ("approved", "")])
def test_an_approval_typed_says_where_approvals_are_recorded_and_records_nothing(
        text: str, named: str, bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    """Each was planned as a request and refused for want of a model size, which told nobody the words count for
    nothing."""
    assert split_subcommand(text) == ("approve", named)
    bot.command(text, user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "ephemeral"
    assert reply.body["text"].startswith("Approvals are recorded only with the Approve or Reject button on ")
    assert "a typed approval never counts" in reply.body["text"]
    assert [c for c in service.calls if c[0] == "POST"] == []  # nothing filed, approved or rejected


def test_work_that_begins_with_approval_words_is_still_a_request() -> None:
    assert split_subcommand("approved budget: fine-tune 7B by Friday")[0] == "request"


@pytest.mark.parametrize(("text", "expected"), [
    ("cancel my last request", "Say which request by its id: `/gpu cancel req_… [reason]` ('my' is not one); App Home"),
    ("stop the 70B job", "Say which request by its id: `/gpu stop req_… [reason]` ('the' is not one); `/gpu jobs`"),
    ("cancel", "Say which request by its id: `/gpu cancel req_… [reason]`; App Home lists your requests"),
])
def test_a_request_not_named_by_its_id_is_asked_for_not_looked_up(text: str, expected: str, bot: BotHarness,
                                                                    slack: FakeSlack, service: FakeService) -> None:
    """ "cancel my last request" answered "I can't find that: no request 'my'"."""
    bot.command(text, user=REQUESTER)
    [reply] = slack.wait_for("response")
    assert reply.body["text"].startswith(expected) and reply.body["response_type"] == "ephemeral"
    assert [c for c in service.calls if c[1].startswith("/v1/requests")] == []
