"""``gpuops doctor``'s Slack-side checks: the bot token works (auth.test), the scopes it was granted (the
``x-oauth-scopes`` header) cover the app manifest's, and every Slack id the policy names exists."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from contract.checks import CheckResult
from policy.config import PolicyConfig

MAX_LOOKUPS = 50  # users.info and users.lookupByEmail are rate-limited (tier 4, ~100/min): a check stays well under
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
    """Users, user groups and e-mails the policy names exist in the workspace."""
    name = "policy slack ids"
    if client is None:
        return CheckResult.skipped(name, NOT_CONFIGURED)
    if policy is None:
        return CheckResult.skipped(name, "no valid policy to read")
    users, groups, emails = policy_slack_ids(policy)
    if not (users or groups or emails):
        return CheckResult.ok(name, "the policy names no Slack users, groups or e-mails")
    try:
        unknown = _unknown_users(client, users) + _unknown_groups(client, groups) + _unknown_emails(client, emails)
    except SlackApiError as exc:
        return CheckResult.failed(name, f"lookup refused: {exc.response.get('error', 'error')}",
                                  fix="grant users:read, users:read.email and usergroups:read (the app manifest)")
    except SlackClientError as exc:
        return CheckResult.failed(name, f"Slack did not answer ({type(exc).__name__})",
                                  fix="check SLACK_API_URL and the network path to Slack")
    checked = min(len(users), MAX_LOOKUPS) + len(groups) + min(len(emails), MAX_LOOKUPS)
    if unknown:
        return CheckResult.failed(name, f"not in the workspace: {', '.join(unknown)}",
                                  fix="correct or remove them in the policy file (groups, teams.*.members, "
                                      "slack.contacts), then `gpuops policy check`")
    return CheckResult.ok(name, f"all {checked} Slack id(s) and e-mail(s) of the policy exist")


def policy_slack_ids(policy: PolicyConfig) -> tuple[list[str], list[str], list[str]]:
    """User ids, user-group ids and e-mails named anywhere in the policy's groups, members and contacts."""
    named: list[str] = [*policy.slack.contacts]
    for members in policy.groups.values():
        named += members
    for team in policy.teams.values():
        named += team.members or []
    users, groups, emails = set(), set(), set()
    for item in named:
        kind, _, rest = item.partition(":")
        if kind == "slack":
            users.add(rest.rsplit(":", 1)[-1])
        elif kind == "usergroup":
            groups.add(rest)
        elif kind == "email":
            emails.add(rest)
    return sorted(users), sorted(groups), sorted(emails)


def _granted(headers: Any) -> set[str]:
    raw = ""
    for key, value in dict(headers or {}).items():
        if key.lower() == "x-oauth-scopes":
            raw = value[0] if isinstance(value, list) else str(value)
    return {scope.strip() for scope in raw.split(",") if scope.strip()}


def _unknown_users(client: WebClient, users: list[str]) -> list[str]:
    unknown = []
    for user in users[:MAX_LOOKUPS]:
        try:
            answer = client.users_info(user=user)
        except SlackApiError as exc:
            if exc.response.get("error") != "user_not_found":
                raise
            unknown.append(f"user {user}")
            continue
        if answer["user"].get("deleted"):
            unknown.append(f"user {user} (deactivated)")
    return unknown


def _unknown_groups(client: WebClient, groups: list[str]) -> list[str]:
    if not groups:
        return []
    answer = client.usergroups_list(include_disabled=True)
    listed: list[dict[str, Any]] = answer.get("usergroups", [])
    known = {g["id"]: g for g in listed}
    return [f"user group {g}" + (" (disabled)" if g in known and known[g].get("date_delete") else "")
            for g in groups if g not in known or known[g].get("date_delete")]


def _unknown_emails(client: WebClient, emails: list[str]) -> list[str]:
    unknown = []
    for email in emails[:MAX_LOOKUPS]:
        try:
            client.users_lookupByEmail(email=email)
        except SlackApiError as exc:
            if exc.response.get("error") != "users_not_found":
                raise
            unknown.append(f"e-mail {email}")
    return unknown
