"""Who may file for a team: rows of (who, from where, what the bot vouched for) and the expected answer."""

from __future__ import annotations

import pytest
import yaml

from policy.config import PolicyConfig, default_policy, parse_policy, policy_warnings
from policy.errors import PolicyFileError
from policy.membership import (
    Filer,
    approval_basis,
    approver_usergroups,
    basis_holds,
    may_file,
    membership_refusal,
    named_members,
    usergroups_named,
)
from policy.request import Stage

ANA, BEN, LEAD = "slack:T0GPUOPS:U0ANA", "slack:T0GPUOPS:U0BEN", "slack:T0GPUOPS:U0LEAD1"
NLP_ONLY = "slack:T0GPUOPS:U0NLP"


def _policy(**members: list[str] | None) -> PolicyConfig:
    data = default_policy().model_dump(mode="json")
    data["groups"]["nlp-people"] = [NLP_ONLY]
    for team, listed in members.items():
        data["teams"][team]["members"] = listed
    data["teams"]["team-nlp"]["slack_channels"] = ["C0NLP"]
    return parse_policy(yaml.safe_dump(data), source="p.yaml")


POLICY = _policy(**{"team-nlp": ["nlp-people", BEN, "usergroup:S0NLP", "email:Ana@Example.com"]})

ROWS = [
    ("a stranger from a team-ml channel", Filer(actor="slack:T0GPUOPS:U0EVE", channel="C0GPUOPSML"), False),
    ("listed by actor id", Filer(actor=BEN), True),
    ("in a listed policy group", Filer(actor=NLP_ONLY), True),
    ("an approver of the team", Filer(actor=LEAD), True),
    ("in a listed Slack user group", Filer(actor=ANA, groups=frozenset({"S0NLP"})), True),
    ("in another Slack user group", Filer(actor=ANA, groups=frozenset({"S0ML"})), False),
    ("listed by e-mail, any case", Filer(actor=ANA, email="ana@example.COM"), True),
    ("another e-mail", Filer(actor=ANA, email="ana@example.org"), False),
    ("filing from the team's channel", Filer(actor=ANA, channel="C0NLP"), True),
    ("an admin token acting for nobody", Filer(actor="token:admin", is_admin=True), True),
    ("a bot token acting for nobody", Filer(actor="token:bot"), False),
]


@pytest.mark.parametrize(("name", "filer", "allowed"), ROWS, ids=[r[0] for r in ROWS])
def test_who_may_file_for_a_team_that_lists_members(name: str, filer: Filer, allowed: bool) -> None:
    assert may_file(POLICY, team="team-nlp", filer=filer) is allowed, name


def test_a_team_without_members_is_open_to_anyone_and_check_warns_about_it() -> None:
    assert may_file(POLICY, team="team-ml", filer=Filer(actor="slack:T0GPUOPS:U0EVE")) is True
    assert [path for path, _ in policy_warnings(POLICY)] == ["teams.team-ml.members"]


def test_an_empty_member_list_admits_only_approvers_and_the_teams_channels() -> None:
    policy = _policy(**{"team-nlp": []})
    assert not may_file(policy, team="team-nlp", filer=Filer(actor=BEN))
    assert may_file(policy, team="team-nlp", filer=Filer(actor=LEAD))
    assert may_file(policy, team="team-nlp", filer=Filer(actor=BEN, channel="C0NLP"))
    assert policy_warnings(policy) == [("teams.team-ml.members", policy_warnings(policy)[0][1])]


def test_the_refusal_names_a_few_people_who_may_file() -> None:
    refusal = membership_refusal(POLICY, team="team-nlp", filer=Filer(actor="slack:T0GPUOPS:U0EVE"))
    assert refusal is not None and refusal.code == "not_a_team_member"
    assert refusal.contacts == (NLP_ONLY, BEN, LEAD, "slack:T0GPUOPS:U0LEAD2", "slack:T0GPUOPS:U0FIN1")
    text = refusal.message()
    assert text.startswith("only members of team-nlp may file requests for it")
    assert f"ask {NLP_ONLY}, {BEN}, {LEAD}," in text and "teams.team-nlp.members" in text
    assert "example.com" not in text  # e-mails are matched, never shown


def test_with_nobody_to_name_the_refusal_points_at_the_policys_admin() -> None:
    data = _policy(**{"team-nlp": ["email:ana@example.com"]}).model_dump(mode="json")
    data["teams"]["team-nlp"]["approvers"] = {}
    policy = parse_policy(yaml.safe_dump(data), source="p.yaml")
    refusal = membership_refusal(policy, team="team-nlp", filer=Filer(actor=BEN))
    assert refusal is not None and refusal.contacts == ()
    assert "ask an admin of the gpuops policy" in refusal.message()


def test_named_members_and_the_user_groups_the_bot_looks_up() -> None:
    assert named_members(POLICY, "team-nlp")[:2] == [NLP_ONLY, BEN]
    policy = _policy(**{"team-ml": ["usergroup:S0ML", "usergroup:S0NLP"], "team-nlp": ["usergroup:S0NLP"]})
    assert usergroups_named(policy) == ["S0ML", "S0NLP"]
    assert usergroups_named(default_policy()) == []


BAD_MEMBERS = [
    ("unknown group name", "nlp-peeple", "unknown group 'nlp-peeple'"),
    ("actor id without a user", "slack:T0GPUOPS:", "not a well-formed slack member"),
    ("user group not an S id", "usergroup:nlp", "not a well-formed usergroup member"),
    ("e-mail without a domain", "email:ana", "not a well-formed email member"),
    ("e-mail with spaces", "email:ana @example.com", "not a well-formed email member"),
]


@pytest.mark.parametrize(("name", "entry", "expected"), BAD_MEMBERS, ids=[b[0] for b in BAD_MEMBERS])
def test_malformed_members_are_errors_with_their_key_path(name: str, entry: str, expected: str) -> None:
    with pytest.raises(PolicyFileError) as err:
        _policy(**{"team-nlp": [BEN, entry]})
    assert [(where, message) for where, message in err.value.errors if expected in message] != [], err.value.errors
    assert [where for where, _ in err.value.errors] == ["teams.team-nlp.members[1]"], name


def _approver_policy(entries: list[str]) -> PolicyConfig:
    data = default_policy().model_dump(mode="json")
    data["groups"]["ml-leads"] = entries
    return parse_policy(yaml.safe_dump(data), source="p.yaml")


APPROVER_ROWS = [
    ("named by actor id", Filer(actor=LEAD), LEAD),
    ("in the listed user group", Filer(actor=ANA, groups=frozenset({"S0LEADS"})), "usergroup:S0LEADS"),
    ("listed by e-mail, any case", Filer(actor=ANA, email="LEAD@example.com"), "email:lead@example.com"),
    ("in another user group", Filer(actor=ANA, groups=frozenset({"S0NLP"})), None),
    ("nothing vouched", Filer(actor=ANA), None),
]


@pytest.mark.parametrize(("name", "person", "basis"), APPROVER_ROWS, ids=[r[0] for r in APPROVER_ROWS])
def test_who_may_approve_and_on_what_basis(name: str, person: Filer, basis: str | None) -> None:
    policy = _approver_policy([LEAD, "usergroup:S0LEADS", "email:lead@example.com"])
    assert approval_basis(policy, team="team-ml", stage=Stage.EXPERIMENTAL, person=person) == basis, name
    assert approver_usergroups(policy) == ["S0LEADS"]
    assert policy.approvers_for("team-ml", Stage.EXPERIMENTAL) == {LEAD}
    # An approver through a group may also file for the team.
    assert may_file(_with_members(policy), team="team-ml", filer=person) is (basis is not None)


def _with_members(policy: PolicyConfig) -> PolicyConfig:
    data = policy.model_dump(mode="json")
    data["teams"]["team-ml"]["members"] = []
    return parse_policy(yaml.safe_dump(data), source="p.yaml")


def test_a_basis_holds_only_while_the_policy_lists_it() -> None:
    policy = _approver_policy(["usergroup:S0LEADS"])
    assert basis_holds(policy, team="team-ml", stage=Stage.EXPERIMENTAL, approver=ANA, basis="usergroup:S0LEADS")
    assert not basis_holds(policy, team="team-ml", stage=Stage.EXPERIMENTAL, approver=ANA, basis="usergroup:S0NLP")
    assert not basis_holds(policy, team="team-ml", stage=Stage.EXPERIMENTAL, approver=ANA, basis=None)
    # A stored actor id of someone else never stands in for the approver.
    named = _approver_policy([LEAD])
    assert not basis_holds(named, team="team-ml", stage=Stage.EXPERIMENTAL, approver=ANA, basis=LEAD)


@pytest.mark.parametrize("entry", ["usergroup:leads", "email:lead"])
def test_malformed_approver_group_entries_are_errors_with_their_key_path(entry: str) -> None:
    with pytest.raises(PolicyFileError) as err:
        _approver_policy([LEAD, entry])
    assert [where for where, _ in err.value.errors] == ["groups.ml-leads[1]"]
