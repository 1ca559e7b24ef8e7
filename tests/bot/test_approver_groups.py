"""Approver groups that name Slack user groups and e-mails: the bot says who the clicker is (their e-mail, the
approver groups' user groups they are in), Slack answers are cached, and the service decides."""

from __future__ import annotations

from tests.bot.factories import LEADS, actor, make_request
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness

LEADS_GROUP = "S0LEADS"


def test_a_member_of_an_approver_user_group_approves(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.groups = {"ml-leads": [actor(LEADS[0]), f"usergroup:{LEADS_GROUP}", "email:finance@example.com"]}
    bot.deps.policy_watch.refresh(bot.service)
    bot.deps.policy_watch.wait_idle(5)
    slack.usergroups[LEADS_GROUP] = ["U0GROUPIE", "U0OTHER"]
    slack.emails["U0GROUPIE"] = "groupie@example.com"
    slack.emails["U0FINANCE"] = "finance@example.com"
    service.requests["req_1"] = make_request(eligible_approvers=[actor(LEADS[0]), f"usergroup:{LEADS_GROUP}",
                                                                 "email:finance@example.com"], approvals_needed=2,
                                             approvals_remaining=2)
    bot.action("approve_request", "req_1:1", user="U0GROUPIE")
    [first] = slack.wait_for("chat.update")
    # The waiting line names the group as Slack mentions it, and the e-mail as written.
    assert first.blocks[-3]["text"]["text"].startswith(
        f"⏳ *Waiting for 1 approval* from <@{LEADS[0]}>, <!subteam^{LEADS_GROUP}>, finance@example.com · expires ")
    bot.action("approve_request", "req_1:1", user="U0FINANCE")
    slack.wait_for("chat.update", count=2)
    bot.drain()
    sent = service.approval_bodies
    assert sent[0] == {"decision": "approve", "revision": 1, "approver_email": "groupie@example.com",
                       "approver_groups": [LEADS_GROUP]}
    assert sent[1] == {"decision": "approve", "revision": 1, "approver_email": "finance@example.com",
                       "approver_groups": []}
    assert service.requests["req_1"].status == "approved"
    # The group was listed once for both clicks: its members are cached.
    assert len(slack.of("usergroups.users.list")) == 1
    assert [c.body["user"] for c in slack.of("users.info")] == ["U0GROUPIE", "U0FINANCE"]


def test_someone_outside_every_group_is_refused(bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.groups = {"ml-leads": [f"usergroup:{LEADS_GROUP}"]}
    bot.deps.policy_watch.refresh(bot.service)
    bot.deps.policy_watch.wait_idle(5)
    slack.usergroups[LEADS_GROUP] = ["U0GROUPIE"]
    service.requests["req_1"] = make_request(eligible_approvers=[f"usergroup:{LEADS_GROUP}"])
    bot.action("approve_request", "req_1:1", user="U0STRANGER")
    [reply] = slack.wait_for("response")
    assert reply.body["text"].startswith("You can't do that: only members of ml-leads")
    assert service.requests["req_1"].approvals == []
    assert service.approval_bodies[0]["approver_groups"] == []


def test_app_home_lists_what_waits_for_a_group_or_e_mail_approver(bot: BotHarness, slack: FakeSlack,
                                                                  service: FakeService) -> None:
    service.groups = {"ml-leads": [f"usergroup:{LEADS_GROUP}"], "finance": ["email:fin@example.com"]}
    bot.deps.policy_watch.refresh(bot.service)
    bot.deps.policy_watch.wait_idle(5)
    slack.usergroups[LEADS_GROUP] = ["U0GROUPIE"]
    slack.emails["U0FIN"] = "Fin@Example.com"
    service.requests["req_1"] = make_request(eligible_approvers=[f"usergroup:{LEADS_GROUP}"])
    service.requests["req_2"] = make_request(request_id="req_2", eligible_approvers=["email:fin@example.com"])
    for user, event_id in (("U0GROUPIE", "Ev1"), ("U0FIN", "Ev2"), ("U0STRANGER", "Ev3")):
        bot.event({"type": "app_home_opened", "user": user, "channel": "D1", "tab": "home"}, event_id=event_id)
    views = {c.body["user_id"]: c.body["view"] for c in slack.wait_for("views.publish", count=3)}
    waiting = {user: [b["block_id"] for b in view["blocks"] if b["type"] == "actions"] for user, view in views.items()}
    assert waiting == {"U0GROUPIE": ["home:req_1"], "U0FIN": ["home:req_2"], "U0STRANGER": []}


def test_an_approver_named_by_id_still_approves_when_slack_cannot_say_their_e_mail(
        bot: BotHarness, slack: FakeSlack, service: FakeService) -> None:
    service.requests["req_1"] = make_request()
    slack.fail_next("users.info", body={"ok": False, "error": "ratelimited"})
    bot.action("approve_request", "req_1:1", user=LEADS[0])
    slack.wait_for("chat.update")
    assert service.requests["req_1"].status == "approved"
    assert service.approval_bodies == [{"decision": "approve", "revision": 1}]
