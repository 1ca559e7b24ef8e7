"""Idle GPUs in Slack: the alert in the request's thread with Stop and Expected, and what each button asks."""

from __future__ import annotations

import pytest

from bot.digest import build_digest
from bot.event_follower import FeedConsumer
from contract.estimates import EstimateAccuracy
from tests.bot.factories import NOW, make_job, make_request
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

WHERE = {"channel": "C0PLANS", "ts": "1764518400.000001"}
JOB = make_job(status="InProgress", actual_cost_usd=None).model_dump(mode="json")
IDLE = {"job": JOB["name"], "utilisation_percent": 20.0, "threshold_percent": 60.0, "minutes": 10, "readings": 10,
        "instances": 4, "instance_type": "g6e.12xlarge", "price_per_instance_hour_usd": 10.49, "idle_share": 0.8,
        "idle_cost_per_hour_usd": 33.57}


@pytest.fixture
def feed(bot: BotHarness, service: FakeService) -> FeedConsumer:
    service.requests["req_1"] = make_request(slack_message=WHERE, status="running", job=JOB)
    return FeedConsumer(service=bot.service, client=bot.app.client, clock=lambda: NOW)


def test_an_idle_episode_is_posted_in_the_thread_with_its_cost_and_two_buttons(
    feed: FeedConsumer, slack: FakeSlack, service: FakeService
) -> None:
    service.emit("job.idle", "req_1", **IDLE)
    assert feed.step() == 1
    [reply] = slack.of("chat.postMessage")
    assert reply.body["thread_ts"] == WHERE["ts"]
    assert reply.body["text"] == ("💤 GPUs mostly idle on `gpuops-req-1-r1`: 20% utilisation for 10 min (below 60%). "
                                  "Idle time costs about $34/h (4× g6e.12xlarge at $10/h × 80% idle).")
    buttons = reply.blocks[1]["elements"]
    assert [(b["action_id"], b["value"]) for b in buttons] == [("idle_stop", "req_1"), ("idle_expected", "req_1")]
    assert slack.of("chat.update") == []  # the plan message itself is not rewritten for an alert


def test_expected_is_said_in_the_thread(feed: FeedConsumer, slack: FakeSlack, service: FakeService) -> None:
    service.emit("job.idle_expected", "req_1", job=JOB["name"], by="slack:T0GPUOPS:U0ALICE", reason="data loading")
    feed.step()
    assert slack.of("chat.postMessage")[-1].body["text"] == (
        "🔕 <@U0ALICE> marked the idle GPUs as expected: data loading; no more idle alerts for this job.")


def test_stop_asks_the_service_to_stop_as_the_clicker(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.requests["req_1"] = make_request(slack_message=WHERE, status="running", job=JOB)
    bot.action("idle_stop", "req_1", user="U0ALICE")
    [reply] = slack.wait_for("response")
    assert reply.body["text"] == "Asked to stop req_1; its thread says when it has."
    assert service.stops == [{"request_id": "req_1", "actor": "slack:T0GPUOPS:U0ALICE", "reason": "idle GPUs"}]


def test_expected_asks_the_service_as_the_clicker(bot: BotHarness, service: FakeService) -> None:
    service.requests["req_1"] = make_request(slack_message=WHERE, status="running", job=JOB)
    bot.action("idle_expected", "req_1", user="U0ALICE")
    bot.drain()
    assert service.idle_expected == [{"request_id": "req_1", "actor": "slack:T0GPUOPS:U0ALICE"}]


def test_a_stop_that_is_refused_is_told_privately(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.requests["req_1"] = make_request(slack_message=WHERE, status="succeeded", job=JOB)
    bot.action("idle_stop", "req_1", user="U0ALICE")
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "ephemeral" and "running" in reply.body["text"]
    assert service.stops == []


def test_the_digest_says_how_far_estimates_were_off(bot: BotHarness, service: FakeService) -> None:
    service.accuracy = EstimateAccuracy(team=None, since="2026-11-01", jobs=12, median=0.08, p90=0.31)
    digest = build_digest(bot.service, team="team-ml", now=NOW)
    texts = [b["text"]["text"] for b in digest.blocks if "text" in b]
    assert "*Estimate accuracy* this month: off by 8% (median), 31% (P90) on 12 finished jobs" in texts
