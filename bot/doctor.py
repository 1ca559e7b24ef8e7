"""``gpuops doctor``'s Slack-side checks: the bot token works (auth.test), the scopes it was granted (the
``x-oauth-scopes`` header) cover the app manifest's, and every Slack id the policy names exists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot.slack_check import named_entries, slack_problems
from contract.checks import CheckResult
from policy.config import PolicyConfig

NOT_CONFIGURED = "not configured: SLACK_BOT_TOKEN is not set"


def manifest_scopes(manifest: Path) -> set[str]:
    """The bot scopes the Slack app manifest asks for."""
    document = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    return set(document["oauth_config"]["scopes"]["bot"])


def check_auth(client: WebClient | None, *, manifest: Path | None) -> CheckResult:
    """auth.test answers, and the token's granted scopes include every scope of the manifest."""
    name = "slack auth"
    if client is None:
        return CheckResult.skipped(name, NOT_CONFIGURED)
    try:
        answer = client.auth_test()
    except SlackApiError as exc:
        return CheckResult.failed(name, f"auth.test: {exc.response.get('error', 'refused')}",
                                  fix="set SLACK_BOT_TOKEN to the app's Bot User OAuth Token (xoxb-…)")
    except SlackClientError as exc:
        return CheckResult.failed(name, f"auth.test did not answer ({type(exc).__name__})",
                                  fix="check SLACK_API_URL and the network path to Slack")
    who = f"bot {answer.get('user', '?')} in {answer.get('team', '?')} ({answer.get('team_id', '?')})"
    if manifest is None:
        return CheckResult.ok(name, f"{who}; scopes not compared (no app manifest found: pass --slack-manifest)")
    granted = _granted(answer.headers)
    missing = sorted(manifest_scopes(manifest) - granted)
    if missing:
        return CheckResult.failed(name, f"{who} lacks scope(s) {', '.join(missing)}",
                                  fix=f"add them as in {manifest.name} and reinstall the app to the workspace")
    return CheckResult.ok(name, f"{who}; every scope of {manifest.name} granted")


def check_policy_ids(client: WebClient | None, policy: PolicyConfig | None) -> CheckResult:
    """Users, user groups and e-mails the policy names exist in the workspace (what ``gpuops policy check --slack``
    asks, ``bot.slack_check``)."""
    name = "policy slack ids"
    if client is None:
        return CheckResult.skipped(name, NOT_CONFIGURED)
    if policy is None:
        return CheckResult.skipped(name, "no valid policy to read")
    entries = {entry for _, entry in named_entries(policy)}
    if not entries:
        return CheckResult.ok(name, "the policy names no Slack users, groups or e-mails")
    try:
        problems = slack_problems(policy, client)
    except SlackClientError as exc:
        return CheckResult.failed(name, f"Slack did not answer ({type(exc).__name__})",
                                  fix="check SLACK_API_URL and the network path to Slack")
    if problems:
        return CheckResult.failed(name, "; ".join(f"{path}: {problem}" for path, problem in problems),
                                  fix="correct or remove them in the policy file (groups, teams.*.members, "
                                      "slack.contacts), then `gpuops policy check FILE --slack`")
    return CheckResult.ok(name, f"all {len(entries)} Slack id(s), group(s) and e-mail(s) of the policy exist")


def _granted(headers: Any) -> set[str]:
    raw = ""
    for key, value in dict(headers or {}).items():
        if key.lower() == "x-oauth-scopes":
            raw = value[0] if isinstance(value, list) else str(value)
    return {scope.strip() for scope in raw.split(",") if scope.strip()}
