"""What Slack says about the person filing that the service cannot look up: time zone, e-mail and user groups.

The service decides who may file for a team; for teams that list members by e-mail or Slack user group it needs
the bot to say the person's e-mail (``users.info``, scope ``users:read.email``) and which of the policy's user
groups they are in (``usergroups.users.list``, scope ``usergroups:read``). Answers are kept for a few minutes, a
bounded number of them, so a burst of requests costs Slack one call per person and per group, and a change in
Slack counts within minutes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.errors import SlackApiError

from bot.dedup import TtlCache

log = logging.getLogger(__name__)
PEOPLE_TTL_SECONDS = 300.0


@dataclass(frozen=True)
class Profile:
    zone: str  # IANA zone; UTC when Slack does not say
    email: str | None  # None without the users:read.email scope, or for a bot user


def _profiles() -> TtlCache[Profile]:
    return TtlCache(ttl=PEOPLE_TTL_SECONDS, capacity=5000)


def _groups() -> TtlCache[frozenset[str]]:
    return TtlCache(ttl=PEOPLE_TTL_SECONDS, capacity=500)


def _emails() -> TtlCache[str]:
    return TtlCache(ttl=PEOPLE_TTL_SECONDS, capacity=5000)


@dataclass(frozen=True)
class People:
    """Profiles and user-group members as Slack last answered, kept for ``PEOPLE_TTL_SECONDS``."""

    profiles: TtlCache[Profile] = field(default_factory=_profiles)
    group_members: TtlCache[frozenset[str]] = field(default_factory=_groups)
    by_email: TtlCache[str] = field(default_factory=_emails)

    def profile(self, client: Any, user_id: str) -> Profile:
        """The user's zone and e-mail (``users.info``); a failed call raises, as there is nothing to file with."""
        cached = self.profiles.get(user_id)
        if cached is not None:
            return cached
        user = client.users_info(user=user_id).get("user") or {}
        email = (user.get("profile") or {}).get("email")
        found = Profile(zone=str(user.get("tz") or "UTC"), email=str(email) if email else None)
        self.profiles.put(user_id, found)
        return found

    def members_of(self, client: Any, group: str) -> frozenset[str]:
        """The user ids of a Slack user group (``usergroups.users.list``)."""
        cached = self.group_members.get(group)
        if cached is not None:
            return cached
        users = client.usergroups_users_list(usergroup=group).get("users") or []
        members = frozenset(str(user) for user in users)
        self.group_members.put(group, members)
        return members

    def groups_of(self, client: Any, user_id: str, *, among: Iterable[str]) -> list[str]:
        """The groups of ``among`` that ``user_id`` is in.

        A group Slack will not list (a missing scope, a deleted group) is logged and left out rather than failing
        the request: the service then judges the person without it, and a refusal says whom to ask.
        """
        found = []
        for group in among:
            try:
                members = self.members_of(client, group)
            except SlackApiError as exc:
                log.warning("could not list Slack user group %s (%s); members are judged without it", group,
                            exc.response.get("error"))
                continue
            if user_id in members:
                found.append(group)
        return found

    def user_with_email(self, client: Any, email: str) -> str:
        """The user id of the Slack account with this e-mail (``users.lookupByEmail``); raises if there is none."""
        key = email.casefold()
        cached = self.by_email.get(key)
        if cached is not None:
            return cached
        user = str((client.users_lookupByEmail(email=email).get("user") or {})["id"])
        self.by_email.put(key, user)
        return user

    def user_ids(self, client: Any, entries: Iterable[str]) -> list[str]:
        """The Slack user ids behind policy entries: actor ids, user groups' members, e-mails' accounts. An entry
        Slack cannot resolve is logged and left out (``gpuops policy check --slack`` finds them beforehand)."""
        found: list[str] = []
        for entry in entries:
            kind, _, value = entry.partition(":")
            try:
                if kind == "slack":
                    found.append(value.rpartition(":")[2])
                elif kind == "usergroup":
                    found.extend(sorted(self.members_of(client, value)))
                elif kind == "email":
                    found.append(self.user_with_email(client, value))
            except SlackApiError as exc:
                log.warning("could not resolve %s in Slack (%s); left out", entry, exc.response.get("error"))
        return list(dict.fromkeys(found))
