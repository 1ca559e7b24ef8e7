"""What every handler needs, built once per process and passed in (never module globals)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from slack_sdk.errors import SlackApiError

from bot.access import PolicyWatch
from bot.client import ServiceClient
from bot.dedup import SeenIds
from bot.people import People
from bot.posting import SentMessages
from policy.membership import approver_usergroups, usergroups_named

log = logging.getLogger(__name__)


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Deps:
    service: ServiceClient
    people: People = field(default_factory=People)
    seen_events: SeenIds = field(default_factory=SeenIds)
    policy_watch: PolicyWatch = field(default_factory=PolicyWatch)
    sent: SentMessages = field(default_factory=SentMessages)
    clock: Callable[[], datetime] = _utcnow
    sources_url: str = ""  # the published Sources page (GPUOPS_SOURCES_URL): rules in Why? link to it

    def user_zone(self, client: Any, user_id: str) -> str:
        """The Slack user's IANA zone (users.info), cached; UTC when Slack does not say."""
        return self.people.profile(client, user_id).zone

    def requester_facts(self, client: Any, user_id: str) -> dict[str, Any]:
        """What the service needs to know about the person filing, for teams that list members by e-mail or user
        group: ``requester_email`` and ``requester_groups`` (the policy's groups the person is in)."""
        facts: dict[str, Any] = {}
        email = self.people.profile(client, user_id).email
        if email:
            facts["requester_email"] = email
        policy = self.policy_watch.current(self.service)
        named = usergroups_named(policy) if policy is not None else []
        if named:
            facts["requester_groups"] = self.people.groups_of(client, user_id, among=named)
        return facts

    def approver_facts(self, client: Any, user_id: str) -> dict[str, Any]:
        """What the service needs to know about a person deciding, for approver groups that list e-mails or Slack
        user groups: ``approver_email`` and ``approver_groups`` (the approver groups' user groups they are in).
        Answers are cached (``People``), so a burst of clicks costs Slack one call per person and per group."""
        facts: dict[str, Any] = {}
        try:
            email = self.people.profile(client, user_id).email
        except SlackApiError as exc:  # someone named by id still decides; only an e-mail entry cannot admit them
            log.warning("could not read %s's Slack profile (%s); deciding without their e-mail", user_id,
                        exc.response.get("error"))
            email = None
        if email:
            facts["approver_email"] = email
        policy = self.policy_watch.current(self.service)
        named = approver_usergroups(policy) if policy is not None else []
        if named:
            facts["approver_groups"] = self.people.groups_of(client, user_id, among=named)
        return facts
