"""Capacity actions in Slack, the blocks: a plan's quota increase, capacity block or training plan is proposed with
one click, then approved in the request's thread by the people the policy names; the service does an approved action
once.

Proposing buys nothing. The Approve button in the thread asks first, naming what approving does, because in live
mode an approval that completes the count makes the service call AWS (a capacity block is paid upfront).
"""

from __future__ import annotations

import re

from bot.limits import Block, actions, button, confirm_dialog, context, escape, section
from contract.events import EventPublic
from contract.requests import RequestPublic
from contract.status import OPEN_STATES
from policy.capacity import ActionKind

PROPOSE_PREFIX = "capacity_propose_"  # + the action's position in the plan: action ids are unique in a message
PROPOSE = re.compile(rf"^{PROPOSE_PREFIX}\d+$")
APPROVE = "capacity_approve"
LABELS = {ActionKind.QUOTA_INCREASE: "Propose the quota increase",
          ActionKind.PURCHASE_CAPACITY_BLOCK: "Propose buying the capacity block",
          ActionKind.CREATE_TRAINING_PLAN: "Propose the training plan"}


def propose_buttons(req: RequestPublic) -> Block | None:
    """One button per capacity action of the plan while the request is open; None when there is nothing to do."""
    found = req.decision.capacity_actions
    if not found or req.status not in OPEN_STATES:  # the service refuses actions for any other
        return None
    return actions([button(LABELS[action.kind] + (f" ({i + 1})" if len(found) > 1 else ""),
                           action_id=f"{PROPOSE_PREFIX}{i}", value=req.id) for i, action in enumerate(found)],
                   block_id=f"cap:{req.id}")


def proposed_blocks(event: EventPublic) -> list[Block]:
    """The thread reply of a proposed action: what it is, and Approve behind a confirmation."""
    data = event.data
    action_id = str(data.get("action_id", ""))
    summary = escape(str(data.get("summary") or data.get("kind") or "capacity action"))
    buys = data.get("kind") in (ActionKind.PURCHASE_CAPACITY_BLOCK, ActionKind.CREATE_TRAINING_PLAN)
    approve = button("Approve", action_id=APPROVE, value=action_id, style="primary")
    approve["confirm"] = confirm_dialog(
        "Approve this capacity action?",
        f"{summary}\n\nWith enough approvals gpuops does it once"
        + (", and AWS charges for it whether or not the job runs." if buys else "."),
        yes="Approve", no="Not yet")
    return [section(f"📋 Capacity action `{escape(action_id)}` proposed for approval: {summary}"),
            actions([approve]),
            context("The people the policy names for this action approve it; its proposer and the requester "
                    "cannot.")]


def is_proposal(event: EventPublic) -> bool:
    return event.type == "capacity.action_proposed"
