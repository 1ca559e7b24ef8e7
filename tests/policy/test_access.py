"""The workspace and channel lists: who is let in, who is refused, and whom the refused are told to ask."""

from __future__ import annotations

import pytest

from policy.access import slack_refusal, workspace_of
from policy.config import PolicyConfig, SlackAccess, default_policy

LEADS = ["slack:T1:U0LEAD1", "slack:T1:U0LEAD2"]
BASE = default_policy().model_copy(update={"groups": {"ml-leads": LEADS, "finance": ["slack:T1:U0FIN"]}})


def policy(**lists: object) -> PolicyConfig:
    return BASE.model_copy(update={"slack": SlackAccess.model_validate(lists)})


ROWS = [
    # (lists, workspace, enterprise, channel, expected code or None)
    ({}, "T9", None, "C9", None),  # no lists: everything, as before
    ({"workspaces": ["T1"]}, "T1", None, "C9", None),
    ({"workspaces": ["T1"]}, "T9", None, "C9", "workspace_not_allowed"),
    ({"workspaces": ["E1"]}, "T9", "E1", "C9", None),  # the whole Enterprise Grid organisation is listed
    ({"channels": ["C1"]}, "T9", None, "C1", None),
    ({"channels": ["C1"]}, "T9", None, "C9", "channel_not_allowed"),
    ({"channels": ["C1"]}, "T9", None, None, None),  # no channel (App Home, an admin's API call): not checked
    ({"workspaces": ["T1"], "channels": ["C1"]}, "T9", None, "C9", "workspace_not_allowed"),  # workspace first
    ({"workspaces": ["T1"], "channels": ["C1"]}, None, None, "C9", "channel_not_allowed"),
]


@pytest.mark.parametrize(("lists", "workspace", "enterprise", "channel", "code"), ROWS)
def test_lists_let_in_or_refuse(lists: dict[str, object], workspace: str | None, enterprise: str | None,
                                channel: str | None, code: str | None) -> None:
    refusal = slack_refusal(policy(**lists), workspace=workspace, enterprise=enterprise, channel=channel)
    assert (refusal.code if refusal else None) == code


def test_the_refused_are_told_to_ask_the_approvers_unless_contacts_are_named() -> None:
    refusal = slack_refusal(policy(channels=["C1"]), workspace="T1", channel="C9")
    assert refusal is not None
    assert refusal.contacts == ("slack:T1:U0FIN", *LEADS)
    assert refusal.message() == ("This channel (C9) is not enabled for gpuops. Ask slack:T1:U0FIN, slack:T1:U0LEAD1 "
                                 "or slack:T1:U0LEAD2 to add it to slack.channels in the gpuops policy.")
    named = slack_refusal(policy(workspaces=["T1"], contacts=["slack:T1:U0ADMIN"]), workspace="T2",
                          channel=None)
    assert named is not None and named.message(lambda actor: f"<@{actor.rsplit(':', 1)[1]}>") == (
        "This workspace (T2) is not enabled for gpuops. Ask <@U0ADMIN> to add it to slack.workspaces in the gpuops "
        "policy.")


def test_a_refusal_carries_its_code_and_says_whom_to_ask() -> None:
    refusal = slack_refusal(policy(workspaces=["T1"]), workspace="T2", channel="C1")
    assert refusal is not None and refusal.code == "workspace_not_allowed"
    assert "slack:T1:U0LEAD1" in refusal.message()


@pytest.mark.parametrize(("actor", "workspace"), [("slack:T1:U1", "T1"), ("admin", None), ("slack:T1", None),
                                                  ("cli:T1:U1", None)])
def test_workspace_of(actor: str, workspace: str | None) -> None:
    assert workspace_of(actor) == workspace
