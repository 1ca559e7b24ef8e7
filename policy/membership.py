"""Who may file requests for a team, so that nobody spends another team's budget under its launch profile.

A team whose policy leaves ``members`` out is open to everyone, as before there were members (``gpuops policy
check`` warns about it). A team that lists members admits:

- an actor id it lists, or a member of a group under ``groups`` it names;
- a person whose e-mail (``email:…``) or Slack user group (``usergroup:S…``) it lists. Only the bot can look these
  up (it has the Slack client); the service believes them from a bot token and from no other caller;
- an approver of the team, at any stage: whoever may approve its spending may ask for it;
- anyone filing from one of the team's ``slack_channels``. The channel is the team's room and who sits in it is
  managed in Slack, so channel ownership alone suffices; a team that wants its list alone to count keeps its
  channels private (invitation only) or lists none.

An admin token acting for no person may file for any team: it is the policy's own administrator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from policy.config import MEMBER_KINDS, PolicyConfig
from policy.request import Stage

__all__ = ["admitting_entry", "approval_basis", "approver_usergroups", "basis_holds", "Filer", "MAX_NAMED", "may_file",
           "membership_refusal", "MembershipRefusal", "named_members", "usergroups_named"]

MAX_NAMED = 5  # a refusal names a few people to ask, not the whole roster


@dataclass(frozen=True)
class Filer:
    """Who is filing, and what is known about them."""

    actor: str  # slack:<workspace>:<user>, or token:<role> for a token acting for nobody
    channel: str | None = None  # where the request was filed from
    email: str | None = None
    groups: frozenset[str] = frozenset()  # Slack user group ids (S…) the person belongs to
    is_admin: bool = False


def named_members(policy: PolicyConfig, team: str) -> list[str]:
    """The actor ids that may file for ``team`` by name: listed, through a listed group, then its approvers."""
    team_policy = policy.team(team)
    named: list[str] = []
    for entry in team_policy.members or []:
        if entry.partition(":")[0] not in MEMBER_KINDS:
            named.extend(policy.groups.get(entry, []))
        elif entry.startswith("slack:"):
            named.append(entry)
    for groups in team_policy.approvers.values():
        for group in groups:
            named.extend(e for e in policy.groups.get(group, []) if e.startswith("slack:"))
    return list(dict.fromkeys(named))


def _vouched(entry: str, filer: Filer) -> bool:
    kind, _, value = entry.partition(":")
    if kind == "email":
        return filer.email is not None and value.casefold() == filer.email.casefold()
    return kind == "usergroup" and value in filer.groups


def may_file(policy: PolicyConfig, *, team: str, filer: Filer) -> bool:
    """True when ``filer`` may file requests for ``team`` (see the module docstring for who may)."""
    team_policy = policy.team(team)
    if filer.is_admin or team_policy.members is None:
        return True
    if filer.channel is not None and filer.channel in team_policy.slack_channels:
        return True
    approver_entries = [e for stage in team_policy.approvers for e in policy.approver_entries(team, stage)]
    return filer.actor in named_members(policy, team) or \
        any(_vouched(e, filer) for e in [*team_policy.members, *approver_entries])


def usergroups_named(policy: PolicyConfig) -> list[str]:
    """Every Slack user group id (S…) some team lists as members: the groups the bot looks up."""
    found = [entry.partition(":")[2] for team in policy.teams.values() for entry in team.members or []
             if entry.startswith("usergroup:")]
    return sorted(set(found))


def approval_basis(policy: PolicyConfig, *, team: str, stage: Stage, person: Filer) -> str | None:
    """Why ``person`` may approve requests of ``team`` at ``stage``: their actor id when a group names it, else the
    ``usergroup:S…`` or ``email:…`` entry that admits them (what the bot vouched for); None when nothing does.

    The basis is stored with the approval, so that counting it later (and the launch guard) asks whether that entry
    is still in the policy, not who the person was then."""
    return admitting_entry(policy.approver_entries(team, stage), person)


def admitting_entry(entries: Iterable[str], person: Filer) -> str | None:
    """The entry of an approver group's ``entries`` that admits ``person``: their actor id when listed, else the first
    ``usergroup:S…`` or ``email:…`` entry the bot vouched for; None when none does."""
    listed = set(entries)
    if person.actor in listed:
        return person.actor
    return next((e for e in sorted(listed) if _vouched(e, person)), None)


def basis_holds(policy: PolicyConfig, *, team: str, stage: Stage, approver: str, basis: str | None) -> bool:
    """True while the policy still admits an approval recorded on ``basis`` (None: the approver's own id)."""
    entry = basis or approver
    if entry.startswith("slack:") and entry != approver:
        return False
    return entry in policy.approver_entries(team, stage)


def approver_usergroups(policy: PolicyConfig) -> list[str]:
    """Every Slack user group id (S…) an approver group lists: the groups the bot checks a clicker against."""
    found = [entry.partition(":")[2] for entries in policy.groups.values() for entry in entries
             if entry.startswith("usergroup:")]
    return sorted(set(found))


@dataclass(frozen=True)
class MembershipRefusal:
    """A person naming a team they do not belong to, and whom they could ask."""

    team: str
    contacts: tuple[str, ...]
    code: str = "not_a_team_member"

    def message(self, person: Callable[[str], str] = str) -> str:
        """The words for the refused person; ``person`` renders an actor id (the bot turns it into a mention)."""
        names = [person(c) for c in self.contacts]
        who = (", ".join(names[:-1]) + " or " + names[-1]) if len(names) > 1 else "".join(names)
        ask = f"ask {who}" if who else "ask an admin of the gpuops policy"
        return (f"only members of {self.team} may file requests for it (and spend its budget), and you are not one. "
                f"File for your own team, or {ask} to add you to teams.{self.team}.members in the gpuops policy.")


def membership_refusal(policy: PolicyConfig, *, team: str, filer: Filer) -> MembershipRefusal | None:
    """The refusal when ``filer`` may not file for ``team``, else None."""
    if may_file(policy, team=team, filer=filer):
        return None
    return MembershipRefusal(team=team, contacts=tuple(named_members(policy, team)[:MAX_NAMED]))
