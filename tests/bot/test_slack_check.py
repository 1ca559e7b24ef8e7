"""``gpuops policy check FILE --slack`` against the fake Slack Web API: every id, user group and e-mail asked once."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from bot.settings import get_settings
from gpuops.cli import app
from policy.config import default_policy
from tests.bot.fake_slack import FakeSlack


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    data = default_policy().model_dump(mode="json")
    data["groups"]["ml-leads"] = ["slack:T0GPUOPS:U0LEAD1", "slack:T0GPUOPS:U0GONE", "usergroup:S0LEADS",
                                  "email:lead@example.com"]
    data["groups"]["finance"] = ["slack:T0GPUOPS:U0FIN1", "usergroup:S0OLD", "usergroup:S0TYPO",
                                 "email:nobody@example.com"]
    data["teams"]["team-ml"]["members"] = ["ml-leads", "usergroup:S0LEADS", "slack:T0GPUOPS:U0LEFT"]
    data["slack"]["contacts"] = ["slack:T0GPUOPS:U0LEAD1"]
    path = tmp_path / "policy.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, slack: FakeSlack) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-test")
    monkeypatch.setenv("SLACK_API_URL", slack.api_url)
    get_settings.cache_clear()


def test_every_entry_slack_does_not_know_is_named_with_its_key_path(env: None, slack: FakeSlack,
                                                                    policy_file: Path) -> None:
    slack.unknown_users = {"U0GONE"}
    slack.deactivated = {"U0LEFT"}
    slack.usergroups = {"S0LEADS": ["U0LEAD1"]}
    slack.disabled_groups = {"S0OLD"}
    slack.emails = {"U0LEAD2": "Lead@Example.com"}
    result = CliRunner().invoke(app, ["policy", "check", str(policy_file), "--slack"])
    assert result.exit_code == 2
    lines = [line.removeprefix(f"{policy_file}: ") for line in result.output.splitlines() if "warning" not in line]
    assert lines == [
        "groups.finance[1]: Slack user group S0OLD is disabled",
        "groups.finance[2]: Slack has no user group S0TYPO",
        "groups.finance[3]: Slack does not know nobody@example.com (users_not_found)",
        "groups.ml-leads[1]: Slack does not know U0GONE (user_not_found)",
        "teams.team-ml.members[2]: U0LEFT is a deactivated Slack account",
    ]
    # Asked once per entry, whatever number of places name it; user groups listed once in all.
    assert [c.body["user"] for c in slack.of("users.info")] == ["U0FIN1", "U0LEAD1", "U0GONE", "U0LEFT"]
    assert len(slack.of("usergroups.list")) == 1
    assert [c.body["email"] for c in slack.of("users.lookupByEmail")] == ["nobody@example.com", "lead@example.com"]
    assert all(c.headers["authorization"] == "Bearer xoxb-test" for c in slack.calls)


def test_a_policy_slack_confirms_passes(env: None, slack: FakeSlack, tmp_path: Path) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text(yaml.safe_dump(default_policy().model_dump(mode="json")))
    result = CliRunner().invoke(app, ["policy", "check", str(path), "--slack"])
    assert result.exit_code == 0, result.output
    assert f"{path}: Slack knows all 3 people, user groups and e-mails it names" in result.output


def test_without_a_bot_token_it_says_what_is_needed(monkeypatch: pytest.MonkeyPatch, policy_file: Path) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "")
    get_settings.cache_clear()
    result = CliRunner().invoke(app, ["policy", "check", str(policy_file), "--slack"])
    assert result.exit_code == 2 and "--slack needs SLACK_BOT_TOKEN" in result.output
