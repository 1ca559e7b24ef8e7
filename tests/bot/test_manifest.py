"""The Slack app manifest asks for what the bot uses and nothing more."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
MANIFEST: dict[str, Any] = yaml.safe_load((ROOT / "deploy" / "slack-app-manifest.yaml").read_text())


def test_scopes_are_exactly_what_the_bot_calls_need() -> None:
    assert sorted(MANIFEST["oauth_config"]["scopes"]["bot"]) == sorted(
        ["commands", "chat:write", "chat:write.public", "app_mentions:read", "users:read", "users:read.email",
         "usergroups:read", "files:write"])


def test_events_match_the_listeners() -> None:
    source = "\n".join(p.read_text() for p in (ROOT / "bot").glob("*.py"))
    listened = set(re.findall(r'app\.event\("([a-z_]+)"\)', source))
    assert set(MANIFEST["settings"]["event_subscriptions"]["bot_events"]) == listened


def test_one_command_and_every_url_is_the_bolt_endpoint() -> None:
    [command] = MANIFEST["features"]["slash_commands"]
    assert command["command"] == "/gpu"
    urls = [command["url"], MANIFEST["settings"]["event_subscriptions"]["request_url"],
            MANIFEST["settings"]["interactivity"]["request_url"]]
    assert all(url.endswith("/slack/events") and url.startswith("https://") for url in urls)
    assert MANIFEST["settings"]["interactivity"]["is_enabled"] is True
