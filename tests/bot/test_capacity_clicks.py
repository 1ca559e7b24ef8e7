"""A plan that cannot start until a quota is raised, end to end over real HTTP: the plan message offers to propose
the quota increase, the click files it with the real service, the thread asks for its approval with a button behind
a confirmation, and an approver's click approves it (the person who proposed it cannot)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.event_follower import FeedConsumer
from policy.capacity import CapacityView
from policy.catalog import load_catalog
from policy.config import load_policy_file
from service.api.app import create_app
from service.api.state import build_state
from service.planning import Planner
from service.settings import Settings
from service.spend.providers import UnavailableSpend
from tests.aws.test_capacity_actions import FixedCapacity, _all_quotas
from tests.bot.factories import LEADS, REQUESTER
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness
from tests.bot.test_end_to_end import BOT_TOKEN, service_settings  # noqa: F401 - the fixture
from tests.service.live import serve

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)


def test_a_quota_increase_is_proposed_and_approved_from_slack(service_settings: Settings,  # noqa: F811
                                                              slack: FakeSlack) -> None:
    policy = load_policy_file(str(service_settings.policy_file))
    no_quota = CapacityView(known=True, as_of=NOW, quotas=_all_quotas(0), offerings_known=True)
    planner = Planner(catalog=load_catalog(), policy=policy, spend=UnavailableSpend(),
                      capacity=FixedCapacity(no_quota))
    state = build_state(service_settings, planner=planner)
    try:
        with serve(create_app(state=state)) as service_url:
            bot = BotHarness(slack_api_url=slack.api_url, service_url=service_url, service_token=BOT_TOKEN,
                             response_url=slack.response_url(), timeout=10, clock=lambda: NOW).start()
            try:
                assert bot.command("fine-tune 7B on 1B tokens", user=REQUESTER).status_code == 200
                [post] = slack.wait_for("chat.postMessage", timeout=10)
                [capacity] = [b for b in post.blocks if b.get("block_id", "").startswith("cap:")]
                request_id = capacity["block_id"].removeprefix("cap:")
                [propose] = capacity["elements"]
                assert (propose["text"]["text"], propose["action_id"], propose["value"]) == (
                    "Propose the quota increase", "capacity_propose_0", request_id)

                bot.action("capacity_propose_0", request_id, user=REQUESTER, ts=post.answer["ts"])
                [told] = slack.wait_for("response", timeout=10)
                assert told.body["response_type"] == "ephemeral"
                assert told.body["text"].startswith("Proposed `cap_") and "quota increase" in told.body["text"]
                [proposed] = bot.service.list_capacity_actions(request_id=request_id)
                assert proposed.status == "pending_approval" and proposed.proposed_by.endswith(REQUESTER)

                feed = FeedConsumer(service=bot.service, client=bot.app.client, clock=lambda: NOW)
                while feed.step():
                    pass
                [reply] = [c for c in slack.of("chat.postMessage") if c.body.get("thread_ts") == post.answer["ts"]]
                assert reply.body["text"].startswith(f"📋 Capacity action `{proposed.id}` proposed for approval: ")
                [approve] = reply.blocks[1]["elements"]
                assert (approve["action_id"], approve["value"]) == ("capacity_approve", proposed.id)
                assert approve["confirm"]["title"]["text"] == "Approve this capacity action?"

                bot.action("capacity_approve", proposed.id, user=REQUESTER)
                refused = slack.wait_for("response", count=2, timeout=10)[1]
                assert "someone else approves it" in refused.body["text"]
                bot.action("capacity_approve", proposed.id, user=LEADS[0])
                approved = slack.wait_for("response", count=3, timeout=10)[2]
                assert approved.body["text"] == f"Approval recorded for `{proposed.id}` (approved)."
                [after] = bot.service.list_capacity_actions(request_id=request_id)
                assert after.status == "approved" and after.approvers[0].endswith(LEADS[0])
            finally:
                bot.stop()
    finally:
        state.engine.dispose()
