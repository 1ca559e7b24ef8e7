"""Capacity actions in Slack, the clicks: Propose on the plan message and Approve in the thread, each sent to the
service as the person who clicked (the blocks are in ``bot.capacity_blocks``)."""

from __future__ import annotations

from typing import Any

from bot.actions import clicker, tell_privately
from bot.capacity_blocks import APPROVE, PROPOSE, PROPOSE_PREFIX
from bot.commands import ack_now
from bot.deps import Deps
from bot.error_messages import user_message
from bot.limits import escape


class CapacityHandlers:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def handle_propose_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        action = body["actions"][0]
        try:
            proposed = self.deps.service.propose_capacity_action(
                request_id=str(action["value"]), position=int(str(action["action_id"]).removeprefix(PROPOSE_PREFIX)),
                actor=clicker(body))
            what = escape(proposed.action.summary)
            tell_privately(body, client, respond,
                           f"Proposed `{escape(proposed.id)}`: {what}. Its approval is asked for in the thread.")
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            tell_privately(body, client, respond, user_message(error, operation="propose a capacity action"))

    def handle_approve_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        try:
            done = self.deps.service.approve_capacity_action(
                action_id=str(body["actions"][0]["value"]), actor=clicker(body),
                facts=self.deps.approver_facts(client, body["user"]["id"]))
            left = done.approvals_needed - len(done.approvers)
            tell_privately(body, client, respond, f"Approval recorded for `{escape(done.id)}` ({done.status}"
                                                  + (f", {left} more needed" if left > 0 else "") + ").")
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            tell_privately(body, client, respond, user_message(error, operation="approve a capacity action"))


def register(app: Any, deps: Deps) -> None:
    handlers = CapacityHandlers(deps)
    app.action(PROPOSE)(ack=ack_now, lazy=[handlers.handle_propose_action])
    app.action(APPROVE)(ack=ack_now, lazy=[handlers.handle_approve_action])
