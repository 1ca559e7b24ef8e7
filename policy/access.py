"""Who may use gpuops from Slack: the policy's workspace and channel lists, and what a refused person is told.

The bot asks before any listener runs; the service asks again when a request is filed, so a caller that goes
around the bot meets the same lists.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from policy.config import PolicyConfig

__all__ = ["contacts", "MAX_CONTACTS", "Refusal", "slack_refusal", "workspace_of"]

MAX_CONTACTS = 5  # a refusal names a few people to ask, not the whole approver roster


def workspace_of(actor: str) -> str | None:
    """The workspace of a Slack actor id (``slack:<workspace>:<user>``); None for anyone else."""
    kind, _, rest = actor.partition(":")
    workspace, _, user = rest.partition(":")
    return workspace if kind == "slack" and workspace and user else None


def contacts(policy: PolicyConfig) -> list[str]:
    """Whom to ask: ``slack.contacts``, else every approver named under teams (sorted), at most MAX_CONTACTS."""
    if policy.slack.contacts:
        return policy.slack.contacts[:MAX_CONTACTS]
    approvers = {member for team in policy.teams.values() for groups in team.approvers.values()
                 for group in groups for member in policy.groups.get(group, [])}
    return sorted(approvers)[:MAX_CONTACTS]


@dataclass(frozen=True)
class Refusal:
    """A workspace or channel the lists leave out, and whom to ask about it."""

    place: str  # "workspace" or "channel"
    id: str
    contacts: tuple[str, ...]

    @property
    def code(self) -> str:
        return f"{self.place}_not_allowed"

    def message(self, person: Callable[[str], str] = str) -> str:
        """The words for the refused person; ``person`` renders an actor id (the bot turns it into a mention)."""
        names = [person(c) for c in self.contacts]
        who = (", ".join(names[:-1]) + " or " + names[-1]) if len(names) > 1 else "".join(names)
        ask = f"Ask {who}" if who else "Ask whoever runs gpuops for your organisation"
        return (f"This {self.place} ({self.id}) is not enabled for gpuops. {ask} to add it to slack.{self.place}s "
                "in the gpuops policy.")


def slack_refusal(policy: PolicyConfig, *, workspace: str | None, channel: str | None,
                  enterprise: str | None = None) -> Refusal | None:
    """The refusal for a request from ``workspace`` and ``channel`` (None: not known, not checked), else None.

    A workspace of an Enterprise Grid organisation is also let in when the organisation (``enterprise``) is listed.
    """
    lists = policy.slack
    listed = lists.workspaces is None or workspace in lists.workspaces or (enterprise or "") in lists.workspaces
    if workspace is not None and not listed:
        return Refusal(place="workspace", id=workspace, contacts=tuple(contacts(policy)))
    if channel is not None and lists.channels is not None and channel not in lists.channels:
        return Refusal(place="channel", id=channel, contacts=tuple(contacts(policy)))
    return None
