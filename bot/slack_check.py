"""``gpuops policy check FILE --slack``: does every person, user group and e-mail the policy names exist in Slack?

A policy that names someone Slack does not know fails quietly: their approval or filing is refused, or a group
approves nobody. This asks Slack with the bot token, once per entry: ``users.info`` for actor ids (a deactivated
account counts as missing), ``usergroups.list`` for user groups (a disabled one too), ``users.lookupByEmail`` for
e-mails.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from slack_sdk.errors import SlackApiError

from contract.actors import slack_user
from policy.config import PolicyConfig

__all__ = ["named_entries", "slack_problems"]


def named_entries(policy: PolicyConfig) -> Iterator[tuple[str, str]]:
    """(key path, entry) of every Slack person, user group and e-mail the policy names."""
    for name, entries in policy.groups.items():
        for i, entry in enumerate(entries):
            yield f"groups.{name}[{i}]", entry
    for team_name, team in policy.teams.items():
        for i, entry in enumerate(team.members or []):
            if ":" in entry:  # a prefixed id; a bare name is a group, checked above
                yield f"teams.{team_name}.members[{i}]", entry
    for i, entry in enumerate(policy.slack.contacts):
        yield f"slack.contacts[{i}]", entry


class _Slack:
    """The answers, asked once each."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self._groups: dict[str, bool] | None = None  # id -> enabled
        self._answers: dict[str, str | None] = {}

    def problem(self, entry: str) -> str | None:
        if entry not in self._answers:
            self._answers[entry] = self._ask(entry)
        return self._answers[entry]

    def _ask(self, entry: str) -> str | None:
        kind, _, value = entry.partition(":")
        if kind == "usergroup":
            return self._usergroup(value)
        try:
            if kind == "email":
                self._client.users_lookupByEmail(email=value)
                return None
            user = slack_user(entry)
            if user is None:
                return None  # not a Slack entry (a token actor, say): nothing to ask Slack
            found = self._client.users_info(user=user).get("user") or {}
        except SlackApiError as error:
            return f"Slack does not know {slack_user(entry) or value} ({_error(error)})"
        return f"{user} is a deactivated Slack account" if found.get("deleted") else None

    def _usergroup(self, group: str) -> str | None:
        if self._groups is None:
            try:
                listed = self._client.usergroups_list(include_disabled=True).get("usergroups") or []
            except SlackApiError as error:
                return f"cannot list Slack user groups ({_error(error)}; the bot needs usergroups:read)"
            self._groups = {str(g.get("id")): not g.get("date_delete") for g in listed}
        if group not in self._groups:
            return f"Slack has no user group {group}"
        return None if self._groups[group] else f"Slack user group {group} is disabled"


def _error(error: SlackApiError) -> str:
    return str(error.response.get("error") or "error")


def slack_problems(policy: PolicyConfig, client: Any) -> list[tuple[str, str]]:
    """(key path, what is wrong) for every entry Slack does not confirm."""
    slack = _Slack(client)
    return [(path, problem) for path, entry in named_entries(policy) if (problem := slack.problem(entry))]
