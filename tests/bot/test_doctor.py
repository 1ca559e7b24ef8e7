"""``gpuops doctor``'s Slack checks against the fake Slack Web API: the token, its granted scopes against the app
manifest, and the Slack ids the policy names; each passes on a good setup and fails, with its fix, on one thing."""

from __future__ import annotations

from pathlib import Path

from slack_sdk import WebClient

from bot.doctor import check_auth, check_policy_ids, manifest_scopes
from contract.checks import CheckStatus
from policy.config import PolicyConfig, default_policy
from tests.bot.fake_slack import FakeSlack

MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "slack-app-manifest.yaml"
SCOPES = sorted(manifest_scopes(MANIFEST))


def _client(slack: FakeSlack) -> WebClient:
    return WebClient(token="xoxb-test", base_url=slack.api_url)


def _policy_with_people() -> PolicyConfig:
    base = default_policy()
    teams = {**base.teams, "team-ml": base.teams["team-ml"].model_copy(update={"members": [
        "slack:T0GPUOPS:U0MEMBER", "usergroup:S0MLENG", "email:ada@example.com"]})}
    return base.model_copy(update={"teams": teams})


def test_auth_and_every_manifest_scope_granted(slack: FakeSlack) -> None:
    slack.scopes = SCOPES
    result = check_auth(_client(slack), manifest=MANIFEST)
    assert result.status is CheckStatus.OK
    assert result.detail == "bot gpuops in gpuops (T0GPUOPS); every scope of slack-app-manifest.yaml granted"


def test_a_scope_missing_from_the_token_is_named(slack: FakeSlack) -> None:
    slack.scopes = [s for s in SCOPES if s != "files:write"]
    result = check_auth(_client(slack), manifest=MANIFEST)
    assert result.status is CheckStatus.FAILED
    assert result.detail.endswith("lacks scope(s) files:write")
    assert result.fix == "add them as in slack-app-manifest.yaml and reinstall the app to the workspace"


def test_a_refused_token_says_which_setting(slack: FakeSlack) -> None:
    slack.fail_next("auth.test", body={"ok": False, "error": "invalid_auth"})
    result = check_auth(_client(slack), manifest=MANIFEST)
    assert result.status is CheckStatus.FAILED and result.detail == "auth.test: invalid_auth"
    assert result.fix is not None and "SLACK_BOT_TOKEN" in result.fix
    assert check_auth(None, manifest=MANIFEST).status is CheckStatus.SKIPPED


def test_policy_ids_that_exist_pass(slack: FakeSlack) -> None:
    policy = _policy_with_people()
    slack.usergroups["S0MLENG"] = ["U0MEMBER"]
    slack.emails["U0ADA"] = "ada@example.com"
    result = check_policy_ids(_client(slack), policy)
    assert result.status is CheckStatus.OK, result
    assert "U0MEMBER" in {c.body["user"] for c in slack.of("users.info")}
    assert [c.body["email"] for c in slack.of("users.lookupByEmail")] == ["ada@example.com"]


def test_policy_ids_that_do_not_exist_are_named(slack: FakeSlack) -> None:
    policy = _policy_with_people()
    slack.unknown_users.add("U0MEMBER")
    result = check_policy_ids(_client(slack), policy)
    assert result.status is CheckStatus.FAILED
    for named in ("U0MEMBER", "user group S0MLENG", "ada@example.com"):
        assert named in result.detail, result.detail
    assert result.fix is not None and "teams.*.members" in result.fix
