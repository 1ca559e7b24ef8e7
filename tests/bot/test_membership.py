"""The bot tells the service who is filing: the person's e-mail and the policy's Slack user groups they are in,
looked up through the real Bolt app's WebClient on the fake Slack, and kept for a few minutes."""

from __future__ import annotations

import logging

import pytest

from tests.bot.factories import REQUESTER
from tests.bot.fake_service import FakeService
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness


def use_members(bot: BotHarness, service: FakeService, members: dict[str, list[str]]) -> None:
    """Put ``members`` in the policy the fake service answers, and have the bot read it again."""
    service.members = members
    bot.deps.policy_watch.refresh(bot.service)
    assert bot.deps.policy_watch.wait_idle(5)


def file(bot: BotHarness, slack: FakeSlack, count: int, user: str = REQUESTER) -> None:
    assert bot.command("fine-tune 7B by Friday for team-nlp", user=user).status_code == 200
    slack.wait_for("chat.postMessage", count=count)


def test_the_request_carries_the_persons_email_and_the_policys_groups_they_are_in(
    bot: BotHarness, slack: FakeSlack, service: FakeService
) -> None:
    slack.emails[REQUESTER] = "ana@example.com"
    slack.usergroups = {"S0NLP": ["U0OTHER", REQUESTER], "S0ML": ["U0OTHER"], "S0UNNAMED": [REQUESTER]}
    use_members(bot, service, {"team-nlp": ["usergroup:S0NLP"], "team-ml": ["usergroup:S0ML", "email:b@x.io"]})
    file(bot, slack, 1)
    [sent] = service.created
    assert (sent.requester_email, sent.requester_groups) == ("ana@example.com", ["S0NLP"])
    assert sorted(c.body["usergroup"] for c in slack.of("usergroups.users.list")) == ["S0ML", "S0NLP"]


def test_lookups_are_kept_for_a_few_minutes_not_repeated_per_request(
    bot: BotHarness, slack: FakeSlack, service: FakeService
) -> None:
    slack.emails[REQUESTER] = "ana@example.com"
    slack.usergroups = {"S0NLP": [REQUESTER]}
    use_members(bot, service, {"team-nlp": ["usergroup:S0NLP"]})
    file(bot, slack, 1)
    file(bot, slack, 2)
    file(bot, slack, 3, user="U0SECOND")
    assert [c.body["user"] for c in slack.of("users.info")] == [REQUESTER, "U0SECOND"]
    assert len(slack.of("usergroups.users.list")) == 1
    assert [(b.requester_email, b.requester_groups) for b in service.created] == [
        ("ana@example.com", ["S0NLP"]), ("ana@example.com", ["S0NLP"]), (None, [])]


def test_without_groups_in_the_policy_nothing_is_listed_and_no_email_sends_none(
    bot: BotHarness, slack: FakeSlack, service: FakeService
) -> None:
    file(bot, slack, 1)
    [sent] = service.created
    assert (sent.requester_email, sent.requester_groups) == (None, None)
    assert "requester_email" not in sent.model_fields_set and slack.of("usergroups.users.list") == []


def test_a_group_slack_will_not_list_is_logged_and_left_out(
    bot: BotHarness, slack: FakeSlack, service: FakeService, caplog: pytest.LogCaptureFixture
) -> None:
    slack.usergroups = {"S0NLP": [REQUESTER]}
    use_members(bot, service, {"team-nlp": ["usergroup:S0GONE", "usergroup:S0NLP"]})
    with caplog.at_level(logging.WARNING, logger="bot.people"):
        file(bot, slack, 1)
    assert service.created[0].requester_groups == ["S0NLP"]
    assert any("S0GONE" in r.getMessage() and "no_such_subteam" in r.getMessage() for r in caplog.records)
