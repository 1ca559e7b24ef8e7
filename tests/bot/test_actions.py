"""Buttons and modals: approvals in place, private refusals, double clicks, Why?, Edit and Use this."""

from __future__ import annotations

import json
from typing import Any

from bot.modals import EDIT_VIEW, REJECT_VIEW
from tests.bot.factories import LEADS, REQUESTER, TEAM_ID, make_request
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness


def posted_plan(bot: BotHarness, slack: FakeSlack) -> str:
    bot.command("fine-tune 7B by Friday", user=REQUESTER)
    [post] = slack.wait_for("chat.postMessage")
    return str(post.answer["ts"])


def test_non_approver_is_told_privately_and_nothing_changes(bot: BotHarness, slack: FakeSlack,
                                                            service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    assert bot.action("approve_request", "req_1", user="U0RANDOM", ts=ts).status_code == 200
    [reply] = slack.wait_for("response")
    assert reply.body == {"response_type": "ephemeral", "replace_original": False,
                          "text": "You can't do that: only members of ml-leads can approve experimental requests of "
                                  "team-ml"}
    assert slack.of("chat.update") == []
    assert service.requests["req_1"].approvals == []


def test_approver_click_updates_the_message_and_tells_the_requester(bot: BotHarness, slack: FakeSlack,
                                                                    service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    bot.action("approve_request", "req_1", user=LEADS[0], ts=ts)
    [update] = slack.wait_for("chat.update")
    assert (update.body["channel"], update.body["ts"]) == ("C0PLANS", ts)
    status = update.blocks[-3]["text"]["text"]
    assert status == (f"✅ *Approved*\n✓ <@{LEADS[0]}> approved "
                      "<!date^1796054700^{date_short_pretty} {time}|Mon 08:05 PST>")
    # No more Approve: until it launches, an approver can withdraw or stop the launch.
    assert [e["action_id"] for e in update.blocks[-2]["elements"]] == [
        "withdraw_approval", "reject_request", "why_request"]
    [dm] = slack.wait_for("chat.postMessage", count=2)[1:]
    assert dm.body["channel"] == REQUESTER
    assert dm.body["text"].startswith("Your GPU request `req_1` (4× g6e.12xlarge")
    assert dm.body["text"].endswith(f"was approved by <@{LEADS[0]}>.")
    headers = [c[2] for c in service.calls if c[1] == "/v1/requests/req_1/approvals"]
    assert headers[0]["x-gpuops-actor"] == f"slack:{TEAM_ID}:{LEADS[0]}"


def test_double_click_records_one_approval_and_shows_no_error(bot: BotHarness, slack: FakeSlack,
                                                              service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    bot.action("approve_request", "req_1", user=LEADS[0], ts=ts)
    bot.action("approve_request", "req_1", user=LEADS[0], ts=ts)
    slack.wait_for("chat.update")
    bot.drain()
    assert len(service.requests["req_1"].approvals) == 1
    assert slack.of("response") == []


def reject_with(bot: BotHarness, slack: FakeSlack, *, user: str, ts: str, reason: str) -> Any:
    """Click Reject, then submit the modal it opens with ``reason``; the submission's answer."""
    opened = len(slack.of("views.open"))
    bot.action("reject_request", "req_1:1", user=user, ts=ts)
    view = slack.wait_for("views.open", count=opened + 1)[-1].body["view"]
    assert view["callback_id"] == REJECT_VIEW
    values = {"reason": {"reason": {"type": "plain_text_input", "value": reason}}}
    return bot.view_submission(REJECT_VIEW, values, view["private_metadata"], user=user)


def test_reject_asks_why_updates_and_tells_the_requester(bot: BotHarness, slack: FakeSlack,
                                                         service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    response = reject_with(bot, slack, user=LEADS[1], ts=ts, reason="use the p4d reservation next week")
    assert response.status_code == 200 and response.text == ""
    [update] = slack.wait_for("chat.update")
    assert update.body["ts"] == ts
    assert update.blocks[-3]["text"]["text"].startswith("❌ *Rejected*\n✗ <@U0LEAD2> rejected")
    assert update.blocks[-3]["text"]["text"].endswith(": use the p4d reservation next week")
    dm = slack.wait_for("chat.postMessage", count=2)[1]
    assert dm.body["text"].endswith("was rejected by <@U0LEAD2>: “use the p4d reservation next week”.")
    [approval] = service.requests["req_1"].approvals
    assert (approval.decision, approval.comment) == ("reject", "use the p4d reservation next week")


def test_a_reject_without_a_reason_is_asked_again_in_the_modal(bot: BotHarness, service: FakeService) -> None:
    service.requests["req_1"] = make_request()
    values = {"reason": {"reason": {"type": "plain_text_input", "value": "   "}}}
    response = bot.view_submission(REJECT_VIEW, values, json.dumps({"id": "req_1", "revision": 1}), user=LEADS[0])
    assert response.json() == {"response_action": "errors",
                               "errors": {"reason": "say why, so the requester knows what to change"}}
    assert service.requests["req_1"].approvals == []


def test_why_opens_the_trace(bot: BotHarness, slack: FakeSlack) -> None:
    posted_plan(bot, slack)
    bot.action("why_request", "req_1", user="U0RANDOM")
    [opened] = slack.wait_for("views.open")
    view = json.loads(opened.body["view"]) if isinstance(opened.body["view"], str) else opened.body["view"]
    texts = [b["text"]["text"] for b in view["blocks"] if b["type"] == "section"]
    # Two plain sentences for whoever holds the budget come first; the engineering trace follows.
    assert texts[0] == ("This costs about $310 (between $270 and $365), charged to team-ml, which has spent $38,420 "
                        "of its $50,000 budget this month. gpuops chose 4× g6e.12xlarge on spot capacity because it "
                        "is the cheapest your policy allows that finishes before the deadline.")
    assert texts[2] == ("*stage* · Experimental or production?\n→ *experimental*\n"
                        "the request does not say production\n_source: policy default_")
    assert view["title"]["text"] == "Why this plan?"


def test_edit_opens_the_parsed_fields_and_a_submission_makes_a_revision(bot: BotHarness, slack: FakeSlack,
                                                                        service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    bot.action("edit_request", "req_1", user=REQUESTER, ts=ts)
    [opened] = slack.wait_for("views.open")
    view = opened.body["view"]
    initial = {b["block_id"]: b["element"].get("initial_value") or b["element"].get("initial_option", {}).get("value")
               for b in view["blocks"]}
    assert initial == {"task": "fine-tune", "params": "7B", "tokens": "1B", "deadline": "2026-12-04 09:00",
                       "stage": "experimental", "interruption_tolerance": "high", "budget_usd": None}
    values = {"params": {"params": {"type": "plain_text_input", "value": "13B"}},
              "deadline": {"deadline": {"type": "plain_text_input", "value": "2026-12-05 17:00"}},
              "stage": {"stage": {"type": "static_select", "selected_option": {"value": "production"}}}}
    response = bot.view_submission(EDIT_VIEW, values, view["private_metadata"], user=REQUESTER)
    assert response.status_code == 200 and response.text == ""
    [update] = slack.wait_for("chat.update")
    assert update.body["ts"] == ts
    assert service.patches["req_1"] == [{
        "timezone": "America/Los_Angeles", "stage": "production", "params": 13_000_000_000,
        "deadline": "2026-12-05T17:00:00-08:00"}]


def test_edit_submission_with_a_bad_field_shows_the_error_in_the_modal(bot: BotHarness, slack: FakeSlack) -> None:
    values = {"params": {"params": {"type": "plain_text_input", "value": "seven"}}}
    response = bot.view_submission(EDIT_VIEW, values, json.dumps({"id": "req_1", "tz": "UTC"}), user=REQUESTER)
    assert response.json() == {"response_action": "errors",
                               "errors": {"params": "write a number like 7B, 350M or 2000000"}}


def test_use_this_makes_the_alternative_the_plan(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    [use] = [b["accessory"] for b in slack.of("chat.postMessage")[0].blocks if "accessory" in b][:1]
    assert json.loads(use["value"]) == {"id": "req_1", "type": "p4d.24xlarge", "gpus": 16, "pm": "spot",
                                        "region": "us-east-1"}
    bot.action(use["action_id"], use["value"], user=REQUESTER, ts=ts)
    [update] = slack.wait_for("chat.update")
    assert update.blocks[0]["text"]["text"].startswith("*2× p4d.24xlarge · spot")
    assert service.patches["req_1"] == [{"instance_type": "p4d.24xlarge", "gpus": 16,
                                                     "interruption_tolerance": "high", "region": "us-east-1",
                                                     "timezone": "America/Los_Angeles", "stage": "experimental"}]
    assert service.requests["req_1"].revision == 2
    # The new revision says what it changed, and the choices of the one before stay on offer.
    assert update.blocks[1]["elements"][0]["text"] == (
        "Revision 2: +$110 (+35%), finishes 2.7 days earlier than revision 1")
    offered = [(b["text"]["text"].split(":")[0], b["accessory"]["text"]["text"])
               for b in update.blocks if "accessory" in b]
    assert offered == [("*revision 1's plan*", "Use this"), ("*no interruptions*", "Use this")]


def test_a_click_after_someone_else_settled_it_says_so(bot: BotHarness, slack: FakeSlack) -> None:
    ts = posted_plan(bot, slack)
    bot.action("approve_request", "req_1", user=LEADS[0], ts=ts)
    slack.wait_for("chat.update")
    response = reject_with(bot, slack, user=LEADS[1], ts=ts, reason="too late?")
    assert response.json() == {"response_action": "errors", "errors": {"reason": (
        "That can't be done any more (it is approved): this request is approved; it no longer takes approvals")}}
    # The refused reject changes nothing: the message still shows the approval.
    bot.drain()
    [update] = slack.of("chat.update")
    assert update.blocks[-3]["text"]["text"].startswith("✅ *Approved*")


def test_the_requester_cancels_from_the_message(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    bot.action("cancel_request", "req_1", user=REQUESTER, ts=ts)
    [update] = slack.wait_for("chat.update")
    assert update.body["ts"] == ts
    assert update.blocks[-3]["text"]["text"] == "🚫 *Cancelled*"
    assert [e["action_id"] for e in update.blocks[-2]["elements"]] == ["why_request"]
    assert service.requests["req_1"].status == "cancelled"
    headers = [c[2] for c in service.calls if c[1] == "/v1/requests/req_1/cancel"]
    assert headers[0]["x-gpuops-actor"] == f"slack:{TEAM_ID}:{REQUESTER}"


def test_someone_else_cannot_cancel_and_is_told_privately(bot: BotHarness, slack: FakeSlack,
                                                          service: FakeService) -> None:
    ts = posted_plan(bot, slack)
    bot.action("cancel_request", "req_1", user=LEADS[0], ts=ts)
    [reply] = slack.wait_for("response")
    assert reply.body["response_type"] == "ephemeral"
    assert reply.body["text"] == (f"You can't do that: only the requester (<@{REQUESTER}>) or an admin can cancel "
                                  "this request")
    bot.drain()
    assert slack.of("chat.update") == []
    assert service.requests["req_1"].status == "pending_approval"


def test_the_requester_cancels_with_the_command_and_the_message_shows_it(bot: BotHarness, slack: FakeSlack,
                                                                         service: FakeService) -> None:
    """ "/gpu cancel req_1" was read as a training request and refused for want of a model size."""
    ts = posted_plan(bot, slack)
    bot.command("cancel req_1 wrong dataset", user=LEADS[0])  # not theirs: refused privately, nothing changes
    [refused] = slack.wait_for("response")
    assert refused.body["response_type"] == "ephemeral" and "only the requester" in refused.body["text"]
    assert service.requests["req_1"].status == "pending_approval"
    bot.command("cancel req_1 wrong dataset", user=REQUESTER)
    [update] = slack.wait_for("chat.update")
    assert update.body["ts"] == ts and update.blocks[-3]["text"]["text"] == "🚫 *Cancelled*"
    assert slack.wait_for("response", count=2)[-1].body["text"] == "Cancelled req_1."
    assert service.requests["req_1"].status == "cancelled"
    assert any(e.type == "request.cancelled" and e.data.get("reason") == "wrong dataset" for e in service.events)
