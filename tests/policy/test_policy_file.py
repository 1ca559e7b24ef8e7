"""Policy files: every error names its key path; `gpuops policy check` prints them and exits 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from gpuops.cli import app
from policy.config import default_policy, load_policy_file, parse_policy
from policy.errors import PolicyFileError, RequestError

runner = CliRunner()
GOOD = yaml.safe_dump(default_policy().model_dump(mode="json"))


def _edit(changes: dict[str, object]) -> str:
    """The default policy as YAML with values replaced at slash-separated key paths."""
    data = default_policy().model_dump(mode="json")
    for path, value in changes.items():
        node = data
        *parents, leaf = path.split("/")
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[leaf] = value
    return yaml.safe_dump(data)


BAD = [
    ("unknown key", _edit({"max_instancez": 4}), "max_instancez"),
    ("negative budget", _edit({"teams/team-ml/monthly_budget_usd": -1}),
     "teams.team-ml.monthly_budget_usd"),
    ("default team missing", _edit({"default_team": "team-x"}), "default_team"),
    ("default region not allowed", _edit({"default_region": "ap-south-1"}), "default_region"),
    ("unknown approver group", _edit({"groups": {"finance": []}}), "teams.team-ml.approvers.experimental[0]"),
    ("last class bounded", _edit({"size_classes/2/max_params": 1}), "size_classes[2].max_params"),
    ("tiers out of order", _edit({"approval_tiers": [{"min_usd": 5, "approvals": 1}, {"min_usd": 1, "approvals": 2}]}),
     "approval_tiers"),
    ("bad estimate figure", _edit({"estimate/hours_uncertainty": 2}), "estimate.hours_uncertainty"),
    ("bad default", _edit({"defaults/seq_len": 1}), "defaults.seq_len"),
    ("workspace id not Slack's", _edit({"slack": {"workspaces": ["acme"]}}), "slack.workspaces[0]"),
    ("empty channel list", _edit({"slack": {"channels": []}}), "slack.channels"),
    ("contact not an actor id", _edit({"slack": {"contacts": ["U123"]}}), "slack.contacts[0]"),
    ("team channel refused", _edit({"slack": {"channels": ["C0OTHER"]}, "teams/team-ml/slack_channels": ["C0ML"]}),
     "teams.team-ml.slack_channels[0]"),
    ("unknown member group", _edit({"teams/team-nlp/members": ["nlp-leads"]}), "teams.team-nlp.members[0]"),
    # a cost center's tag AWS would refuse at launch, or that a team's own tag would write over
    ("cost center tag AWS refuses", _edit({"cost_center_tag": "cost#center"}), "cost_center_tag"),
    ("cost center tag reserved", _edit({"cost_center_tag": "aws:costcenter"}), "cost_center_tag"),
    ("cost center tag the team's", _edit({"teams/team-ml/cost_allocation_tag": {"key": "CostCenter"}}),
     "teams.team-ml.cost_allocation_tag.key"),
    ("not a mapping", "- just\n- a list\n", "(top level)"),
    ("broken yaml", "teams: [unclosed\n", "line 2"),
]


@pytest.mark.parametrize(("name", "text", "path"), BAD, ids=[b[0] for b in BAD])
def test_errors_name_the_key_path(name: str, text: str, path: str) -> None:
    with pytest.raises(PolicyFileError) as err:
        parse_policy(text, source="p.yaml")
    assert any(where.startswith(path) or path in where for where, _ in err.value.errors), err.value.errors


def test_default_policy_round_trips() -> None:
    assert parse_policy(GOOD, source="p.yaml") == default_policy()


def test_the_embedded_policy_is_read_as_the_yaml_says_it() -> None:
    from importlib import resources

    from policy.config import DEFAULT_POLICY_DATA, DEFAULT_POLICY_NAME

    data = resources.files("policy.data")
    text = data.joinpath(DEFAULT_POLICY_NAME).read_text(encoding="utf-8")
    rendered = json.loads(data.joinpath(DEFAULT_POLICY_DATA).read_text(encoding="utf-8"))
    assert rendered == yaml.safe_load(text), "run: .venv/bin/python scripts/gen_default_policy.py"
    assert default_policy() == parse_policy(text, source="p.yaml")


def test_missing_file_is_an_error_not_a_crash(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError) as err:
        load_policy_file(str(tmp_path / "nope.yaml"))
    assert err.value.errors[0][0] == "(file)"


def test_policy_check_prints_each_error_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(_edit({"default_team": "team-x", "default_region": "ap-south-1"}))
    result = runner.invoke(app, ["policy", "check", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert f"{path}: default_team: names team 'team-x', which is not under teams" in lines
    assert any(line.startswith(f"{path}: default_region: ") for line in lines)


def test_policy_check_accepts_a_good_file(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(GOOD)
    result = runner.invoke(app, ["policy", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{path}: ok (version {default_policy().version_hash}" in result.stdout


def test_plan_with_a_bad_policy_file_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(_edit({"default_team": "team-x"}))
    result = runner.invoke(app, ["plan", "fine-tune 7B", "--json", "--policy", str(path), "--now", "2026-11-30T09:00"])
    assert result.exit_code == 2
    assert '"code": "invalid_policy"' in result.stdout


def test_a_team_lookup_never_answers_with_another_teams_policy() -> None:
    policy = default_policy()
    assert policy.team("team-ml") is policy.teams["team-ml"]
    with pytest.raises(RequestError) as caught:
        policy.team("team-typo")
    assert caught.value.code == "unknown_team"
    assert all(name in caught.value.message for name in policy.teams)


def test_only_an_absent_team_name_means_the_default_team() -> None:
    policy = default_policy()
    assert policy.team_or_default(None) == (policy.default_team, policy.teams[policy.default_team])
    assert policy.team_or_default("team-ml")[0] == "team-ml"
    with pytest.raises(RequestError, match="team-typo"):
        policy.team_or_default("team-typo")


def test_policy_check_warns_about_teams_anyone_may_file_for_and_still_accepts(tmp_path: Path) -> None:
    path = tmp_path / "open.yaml"
    path.write_text(_edit({"teams/team-nlp/members": ["ml-leads"]}))
    result = runner.invoke(app, ["policy", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stderr.strip().splitlines() == [
        f"{path}: warning: teams.team-ml.members: not set, so anyone may file requests for this team and spend its "
        "budget; list who may (actor ids, usergroup:S…, email:…, group names)"]
    assert f"{path}: ok" in result.stdout
