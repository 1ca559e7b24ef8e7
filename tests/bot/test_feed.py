"""The events feed becomes message updates and thread replies, once each, with the cursor kept in the service."""

from __future__ import annotations

from datetime import timedelta

import pytest
from slack_sdk.errors import SlackApiError

from bot.event_follower import FeedConsumer
from tests.bot.factories import NOW, make_job, make_request
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

WHERE = {"channel": "C0PLANS", "ts": "1764518400.000001"}
JOB = make_job().model_dump(mode="json")


@pytest.fixture
def feed(bot: BotHarness, service: FakeService) -> FeedConsumer:
    service.requests["req_1"] = make_request(slack_message=WHERE)
    return FeedConsumer(service=bot.service, client=bot.app.client, clock=lambda: NOW)


def test_launch_and_completion_reply_in_the_thread(feed: FeedConsumer, slack: FakeSlack,
                                                   service: FakeService) -> None:
    service.set_request("req_1", status="launching", job={**JOB, "status": "InProgress", "actual_cost_usd": None})
    service.emit("launch.started", "req_1")
    assert feed.step() == 1
    [update] = slack.of("chat.update")
    assert (update.body["channel"], update.body["ts"]) == (WHERE["channel"], WHERE["ts"])
    [reply] = slack.of("chat.postMessage")
    assert reply.body["thread_ts"] == WHERE["ts"]
    assert reply.body["text"].startswith("🚀 Launched `gpuops-req-1-r1`: 4× g6e.12xlarge · spot · SageMaker")
    service.set_request("req_1", status="succeeded", job=JOB)
    service.emit("job.completed", "req_1")
    assert feed.step() == 1
    final = slack.of("chat.postMessage")[-1]
    assert final.body["text"] == ("🏁 `gpuops-req-1-r1` Completed: actual $254 vs estimated $310 (-18%) · spot saved "
                                  "31% of training time · 10.0 h billable · 2 interruptions")
    assert service.cursors["bot"] == "2"


def test_a_dry_run_says_nothing_was_launched_and_never_announces_a_launch(feed: FeedConsumer, slack: FakeSlack,
                                                                          service: FakeService) -> None:
    service.set_request("req_1", status="dry_run", job={**JOB, "status": "DryRun", "actual_cost_usd": None})
    service.emit("launch.started", "req_1")
    service.emit("launch.dry_run", "req_1", job=JOB["name"], job_status="DryRun", dry_run=True)
    assert feed.step() == 2
    assert [c.body["text"] for c in slack.of("chat.postMessage")] == [
        "🧪 Dry run: nothing was launched; the request that would have been sent is attached."]
    status_block = slack.of("chat.update")[-1].blocks[-3]["text"]["text"]
    assert status_block.startswith("🧪 *Dry run*: nothing was launched") and "🏁" not in status_block


def test_a_stop_on_eks_names_the_platform(feed: FeedConsumer, slack: FakeSlack, service: FakeService) -> None:
    service.set_request("req_1", status="running", job={**JOB, "status": "Stopping", "platform": "eks"})
    service.emit("job.stop_requested", "req_1", job=JOB["name"], jobs=[JOB["name"]], reason=None, dry_run=False,
                 by="slack:T0GPUOPS:U0LEAD1", platform="eks")
    feed.step()
    assert slack.of("chat.postMessage")[-1].body["text"] == (
        "🛑 Stop requested by <@U0LEAD1>; EKS is stopping `gpuops-req-1-r1`.")


def test_interruption_and_expiry_notices(feed: FeedConsumer, slack: FakeSlack, service: FakeService) -> None:
    service.set_request("req_1", job={**JOB, "interruptions": 1})
    service.emit("job.interrupted", "req_1")
    service.set_request("req_1", status="expired")
    service.emit("request.expired", "req_1")
    feed.step()
    texts = [c.body["text"] for c in slack.of("chat.postMessage")]
    assert texts[0] == "⚡ Spot interruption #1; the job resumes from its last checkpoint."
    assert texts[1].startswith("⌛ Expired")


def test_a_sweeps_later_trial_starting_is_said_in_the_thread(feed: FeedConsumer, slack: FakeSlack,
                                                             service: FakeService) -> None:
    service.set_request("req_1", status="running", job={**JOB, "status": "InProgress", "actual_cost_usd": None})
    service.emit("job.trial_started", "req_1", job="gpuops-req-1-r1-t3", trial=3, of=6, at_once=2)
    feed.step()
    assert [c.body["text"] for c in slack.of("chat.postMessage")] == [
        "▶️ Trial 3 of 6 started (`gpuops-req-1-r1-t3`): 2 run at a time, as approved."]


def test_a_stop_request_is_said_in_the_thread_with_who_and_why(feed: FeedConsumer, slack: FakeSlack,
                                                              service: FakeService) -> None:
    service.set_request("req_1", status="running", job={**JOB, "status": "Stopping", "actual_cost_usd": None})
    service.emit("job.stop_requested", "req_1", job=JOB["name"], jobs=[JOB["name"]], reason="loss diverged",
                 dry_run=False, by="slack:T0GPUOPS:U0LEAD1")
    service.emit("job.stop_requested", "req_1", job=JOB["name"], jobs=[JOB["name"]], reason=None, dry_run=True,
                 by="token:admin")
    feed.step()
    texts = [c.body["text"] for c in slack.of("chat.postMessage")]
    assert texts == ["🛑 Stop requested by <@U0LEAD1>: loss diverged; SageMaker is stopping `gpuops-req-1-r1`.",
                     "🛑 Stop recorded (dry run: nothing was sent to AWS)."]


def test_a_redelivered_event_is_not_posted_twice(feed: FeedConsumer, slack: FakeSlack, bot: BotHarness,
                                                 service: FakeService) -> None:
    service.set_request("req_1", job=JOB)
    service.emit("launch.started", "req_1")
    feed.step()
    # The cursor write was lost (the service restored an older one); the feed delivers the event again.
    service.cursors["bot"] = "0"
    again = FeedConsumer(service=bot.service, client=bot.app.client, clock=lambda: NOW,
                         handled=feed._handled)  # same process memory
    again.step()
    assert len(slack.of("chat.postMessage")) == 1


def test_the_cursor_waits_until_slack_has_the_post(feed: FeedConsumer, slack: FakeSlack,
                                                   service: FakeService) -> None:
    service.set_request("req_1", job=JOB)
    service.emit("request.approved", "req_1")
    service.emit("launch.started", "req_1")
    slack.fail_next("chat.postMessage", body={"ok": False, "error": "internal_error"})
    with pytest.raises(SlackApiError):
        feed.step()
    assert service.cursors["bot"] == "1"  # past the update, not past the failed reply
    feed.step()
    assert service.cursors["bot"] == "2"
    replies = [c for c in slack.of("chat.postMessage") if c.answer.get("ok")]
    assert len(replies) == 1


def test_an_event_whose_message_was_deleted_does_not_hold_up_the_feed(feed: FeedConsumer, slack: FakeSlack,
                                                                        service: FakeService) -> None:
    service.requests["req_2"] = make_request(request_id="req_2", slack_message={**WHERE, "ts": "1764518400.000002"})
    service.emit("request.approved", "req_1")
    service.emit("request.approved", "req_2")
    slack.fail_next("chat.update", body={"ok": False, "error": "message_not_found"})
    assert feed.step() == 2
    assert service.cursors["bot"] == "2"
    updated = [c.body["ts"] for c in slack.of("chat.update") if c.answer.get("ok")]
    assert updated == ["1764518400.000002"]


def test_events_for_requests_without_a_message_are_skipped(feed: FeedConsumer, slack: FakeSlack,
                                                           service: FakeService) -> None:
    service.requests["req_2"] = make_request(request_id="req_2")
    service.emit("request.approved", "req_2")
    assert feed.step() == 1
    assert slack.calls == [c for c in slack.calls if c.method == "auth.test"]
    assert service.cursors["bot"] == "1"


def test_a_first_start_skips_history_but_not_recent_events(bot: BotHarness, slack: FakeSlack,
                                                             service: FakeService) -> None:
    service.requests["req_1"] = make_request(slack_message=WHERE)
    service.emit("launch.started", "req_1", at=NOW - timedelta(hours=2))
    service.emit("job.interrupted", "req_1")
    feed = FeedConsumer(service=bot.service, client=bot.app.client, clock=lambda: NOW)
    feed.step()
    assert [c.body["text"][:1] for c in slack.of("chat.postMessage")] == ["⚡"]
    assert service.cursors["bot"] == "2"


def test_launched_is_said_once_when_the_job_exists(feed: FeedConsumer, slack: FakeSlack,
                                                   service: FakeService) -> None:
    service.set_request("req_1", status="launching")
    service.emit("launch.started", "req_1", task=1, attempt=1)  # announced before AWS has the job
    feed.step()
    assert slack.of("chat.postMessage") == []
    service.set_request("req_1", status="running", job={**JOB, "status": "InProgress", "actual_cost_usd": None})
    service.emit("job.status_changed", "req_1", job=JOB["name"], job_status="InProgress", dry_run=False)
    service.emit("job.status_changed", "req_1", job=JOB["name"], secondary_status="Training",
                 transition_start=NOW.isoformat())
    service.emit("job.status_changed", "req_1", job=JOB["name"], job_status="InProgress", dry_run=False)
    feed.step()
    replies = [c.body["text"] for c in slack.of("chat.postMessage")]
    assert len(replies) == 1 and replies[0].startswith("🚀 Launched `gpuops-req-1-r1`")
    # Four events, two looks (launching, then running): a rewrite with the same content is not sent.
    assert len(slack.of("chat.update")) == 2


def test_a_withdrawal_and_a_veto_are_said_in_the_thread(feed: FeedConsumer, slack: FakeSlack,
                                                       service: FakeService) -> None:
    service.emit("request.approval_changed", "req_1", approver="slack:T0GPUOPS:U0LEAD1", decision="withdraw",
                 previous="approve", comment=None)
    service.set_request("req_1", status="rejected")
    service.emit("request.approval_changed", "req_1", approver="slack:T0GPUOPS:U0LEAD2", decision="reject",
                 previous=None, comment="wrong dataset")
    assert feed.step() == 2
    texts = [c.body["text"] for c in slack.of("chat.postMessage")]
    assert texts == ["↩️ <@U0LEAD1> withdrew their approval. The plan needs approving again.",
                     "🚫 <@U0LEAD2> rejected the approved plan: “wrong dataset”. Nothing will launch."]
    # Both events found the request rejected already: the message is rewritten once, to that.
    [update] = slack.of("chat.update")
    assert update.blocks[-3]["text"]["text"].startswith("❌ *Rejected*")


def test_a_job_passing_its_estimate_is_said_in_its_thread(feed: FeedConsumer, slack: FakeSlack,
                                                          service: FakeService) -> None:
    service.set_request("req_1", status="running", job={**JOB, "status": "InProgress", "actual_cost_usd": None,
                                                        "cost_so_far_usd": 318.2, "projected_cost_usd": 402.0})
    service.emit("job.cost_threshold", "req_1", job=JOB["name"], level=100, levels=[100], cost_so_far_usd=318.2,
                 projected_usd=402.0, estimated_cost_usd=310.0, ceiling_usd=620.0, elapsed_hours=12.5,
                 basis="time since training started × the launch's price", overrun=True)
    assert feed.step() == 1
    [reply] = slack.of("chat.postMessage")
    assert reply.body["thread_ts"] == WHERE["ts"]
    assert reply.body["text"] == (
        "🔥 `gpuops-req-1-r1` has cost $318 so far, 100% of its approved estimate of $310; projected $402 to finish "
        "(at most $620 at its max runtime). It has run 12.5 h, past its estimated hours.\n"
        "_From time since training started × the launch's price._")


@pytest.mark.parametrize(("levels", "said"), [
    ({"level": None, "levels": [], "asked": [], "amounts_usd": [100.0], "share_percent": 32},
     "has cost $101 so far, past the $100 you asked to hear about (32% of its approved estimate of $310); projected"),
    ({"level": 80, "levels": [80], "asked": [80], "amounts_usd": []},
     "has cost $101 so far, 80% of its approved estimate of $310 (a level you asked for); projected"),
])
def test_a_level_the_requester_asked_for_is_said_as_theirs(feed: FeedConsumer, slack: FakeSlack, service: FakeService,
                                                           levels: dict[str, object], said: str) -> None:
    service.set_request("req_1", status="running", job={**JOB, "status": "InProgress", "actual_cost_usd": None,
                                                        "cost_so_far_usd": 101.0, "projected_cost_usd": 402.0})
    service.emit("job.cost_threshold", "req_1", job=JOB["name"], cost_so_far_usd=101.0, projected_usd=402.0,
                 estimated_cost_usd=310.0, ceiling_usd=620.0, elapsed_hours=3.0, basis="the tracker", overrun=False,
                 **levels)
    assert feed.step() == 1
    [reply] = slack.of("chat.postMessage")
    assert reply.body["thread_ts"] == WHERE["ts"]
    assert reply.body["text"].startswith(f"💸 `gpuops-req-1-r1` {said}")


BUDGET = {"team": "team-ml", "channel": "C0GPUOPSML", "month": "2026-11", "level": 90, "levels": [75, 90],
          "projected_usd": 45_120.0, "budget_usd": 50_000.0, "share": 0.9024, "spent_usd": 38_000.0,
          "running_usd": 2_120.0, "reserved_usd": 1_000.0, "forecast_usd": 4_000.0,
          "forecast_basis": "forecast for the rest of the month", "spend_status": "ok", "spend_reason": None,
          "explain": "$38,000 spent + $2,120 running to finish + $1,000 approved, not launched + $4,000 forecast = "
                     "$45,120 of $50,000 (90%)",
          "jobs": [{"request_id": "req_7", "status": "running", "requester": "slack:T0GPUOPS:U0ALICE",
                    "job": "gpuops-req-7-r1", "cost_so_far_usd": 880.0, "to_come_usd": 2_120.0},
                   {"request_id": "req_8", "status": "approved", "requester": "slack:T0GPUOPS:U0BOB",
                    "job": None, "cost_so_far_usd": None, "to_come_usd": 1_000.0}]}


def test_a_budget_warning_goes_to_the_teams_channel_with_the_jobs_that_drive_it(
    feed: FeedConsumer, slack: FakeSlack, service: FakeService
) -> None:
    service.emit("budget.threshold", None, **BUDGET)
    service.emit("budget.threshold", None, **{**BUDGET, "channel": None, "team": "team-x"})  # nowhere to say it
    assert feed.step() == 2
    [post] = slack.of("chat.postMessage")
    assert post.body["channel"] == "C0GPUOPSML" and "thread_ts" not in post.body
    assert post.body["text"] == (
        "📈 *team-ml*'s month is heading for $45,120, past 90% of its $50,000 budget (90%).\n"
        "$38,000 spent + $2,120 running to finish + $1,000 approved, not launched + $4,000 forecast = $45,120 of "
        "$50,000 (90%)\n"
        "Driving it:\n"
        "• `req_7` running `gpuops-req-7-r1`: $880 so far, $2,120 still to come · <@U0ALICE>\n"
        "• `req_8` approved, not launched: up to $1,000 · <@U0BOB>")
    assert service.cursors["bot"] == "2"


def test_a_team_channel_the_bot_cannot_post_to_does_not_hold_up_the_feed(feed: FeedConsumer, slack: FakeSlack,
                                                                         service: FakeService) -> None:
    service.emit("budget.threshold", None, **BUDGET)
    service.emit("budget.threshold", None, **{**BUDGET, "channel": "C0OTHER", "team": "team-nlp"})
    slack.fail_next("chat.postMessage", body={"ok": False, "error": "not_in_channel"})
    assert feed.step() == 2
    assert service.cursors["bot"] == "2"
    posted = [c.body["channel"] for c in slack.of("chat.postMessage") if c.answer.get("ok")]
    assert posted == ["C0OTHER"]


def test_a_rejection_and_a_cancel_say_who_and_why_in_the_thread(feed: FeedConsumer, slack: FakeSlack,
                                                                service: FakeService) -> None:
    service.set_request("req_1", status="rejected")
    service.emit("request.rejected", "req_1", approver="slack:T0GPUOPS:U0LEAD2", comment="use <the> reservation",
                 **{"from": "pending_approval", "to": "rejected"})
    service.emit("request.rejected", "req_1", approver="slack:T0GPUOPS:U0LEAD2", veto=True)  # told as a change
    service.emit("request.cancelled", "req_1", by="slack:T0GPUOPS:U0ASKER", reason=None)
    feed.step()
    assert [c.body["text"] for c in slack.of("chat.postMessage")] == [
        "❌ <@U0LEAD2> rejected the plan: “use &lt;the&gt; reservation”",
        "🚫 Cancelled by <@U0ASKER>. Nothing will launch."]


def test_a_reminder_messages_each_approver_still_to_decide(feed: FeedConsumer, slack: FakeSlack,
                                                           service: FakeService) -> None:
    slack.usergroups["S0LEADS"] = ["U0LEAD2", "U0ASKER", "U0GROUPIE"]
    slack.emails["U0FIN9"] = "controller@example.com"
    service.emit("request.reminder", "req_1", reminder=2, of=3, revision=1,
                 approvers=["slack:T0GPUOPS:U0LEAD1", "usergroup:S0LEADS", "email:controller@example.com"])
    feed.step()
    dms = slack.of("chat.postMessage")
    # The requester, in the group too, is not asked to approve their own request; nobody gets two.
    assert [c.body["channel"] for c in dms] == ["U0LEAD1", "U0GROUPIE", "U0LEAD2", "U0FIN9"]
    assert dms[0].body["text"] == (
        "⏰ Reminder 2 of 3: <@U0ASKER>'s GPU request `req_1` (4× g6e.12xlarge · spot · ~$310) is waiting for your "
        "approval in <#C0PLANS>; it expires <!date^1796140800^{date_short_pretty} {time}|Tue 08:00 PST>.")
    assert "thread_ts" not in dms[0].body


def test_an_escalation_messages_its_group_and_notes_it_in_the_thread(feed: FeedConsumer, slack: FakeSlack,
                                                                    service: FakeService) -> None:
    service.emit("request.escalated", "req_1", group="finance", to=["slack:T0GPUOPS:U0FIN1"], revision=1,
                 approvers=["slack:T0GPUOPS:U0LEAD1"])
    feed.step()
    dm, note = slack.of("chat.postMessage")
    assert dm.body["channel"] == "U0FIN1" and dm.body["text"].startswith("⏫ <@U0ASKER>'s GPU request `req_1`")
    assert "still needs 1 approval; it expires" in dm.body["text"]
    assert note.body["thread_ts"] == WHERE["ts"]
    assert note.body["text"] == "⏫ Approvals still missing: escalated to finance."


def test_a_reminder_for_a_request_decided_since_sends_nothing(feed: FeedConsumer, slack: FakeSlack,
                                                              service: FakeService) -> None:
    service.set_request("req_1", status="approved")
    service.emit("request.reminder", "req_1", reminder=1, of=3, revision=1, approvers=["slack:T0GPUOPS:U0LEAD1"])
    service.set_request("req_1", revision=2)
    feed.step()
    assert slack.of("chat.postMessage") == []
    assert service.cursors["bot"] == "1"


def test_a_quota_increase_is_told_in_the_thread_as_it_goes(feed: FeedConsumer, slack: FakeSlack,
                                                           service: FakeService) -> None:
    summary = "request a quota increase: 'ml.p5.48xlarge for training job usage' in us-east-1 from 0 to 4 instances"
    service.emit("capacity.action_proposed", "req_1", action_id="cap_1", kind="quota-increase", summary=summary)
    service.emit("capacity.action_approved", "req_1", action_id="cap_1", kind="quota-increase", approved=True,
                 summary=summary)
    service.emit("capacity.action_done", "req_1", action_id="cap_1", kind="quota-increase", error=None,
                 result={"quota_request_id": "q-1", "quota_request_status": "PENDING", "quota_code": "L-1"})
    service.emit("capacity.action_status", "req_1", action_id="cap_1", kind="quota-increase",
                 quota_request_status="APPROVED")
    assert feed.step() == 4
    assert [c.body["thread_ts"] for c in slack.of("chat.postMessage")] == [WHERE["ts"]] * 4
    assert [c.body["text"] for c in slack.of("chat.postMessage")] == [
        f"📋 Capacity action `cap_1` proposed for approval: {summary}",
        f"✅ Capacity action `cap_1` approved: {summary}",
        "🏗️ Capacity action `cap_1` done: quota_code L-1, quota_request_id q-1, quota_request_status PENDING",
        "📡 Capacity action `cap_1`: quota_request_status APPROVED"]


def test_a_sweep_launched_in_turns_says_so_when_it_is_launched(feed: FeedConsumer, slack: FakeSlack,
                                                              service: FakeService) -> None:
    decision = service.requests["req_1"].decision
    sweep = decision.model_copy(update={"plan": decision.plan.model_copy(
        update={"jobs": 6, "instances_per_job": 1, "instance_count": 2})})
    service.set_request("req_1", status="running", decision=sweep,
                        job={**JOB, "status": "InProgress", "actual_cost_usd": None})
    service.emit("job.status_changed", "req_1", job=JOB["name"], job_status="InProgress", dry_run=False)
    feed.step()
    (launched,) = [c.body["text"] for c in slack.of("chat.postMessage")]
    assert launched.startswith("🚀 Launched `gpuops-req-1-r1`")
    assert launched.endswith("\nThe first 2 of 6 trials run now; each of the others starts as one ends, as approved.")
