"""Buttons and modal submissions: Approve, Reject (with its reason), Edit, Why?, Use this, Cancel.

Approve, Reject and Cancel act as the person who clicked (the service decides who may); the message is rewritten in
place and the requester hears the outcome. Anything that goes wrong reaches the clicker privately, never as silence.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

from bot.blocks import APPROVE, CANCEL, EDIT, REJECT, USE_ALTERNATIVE, WHY, WITHDRAW, decision_target
from bot.commands import ack_now, publish_home
from bot.deps import Deps
from bot.error_messages import user_message
from bot.jobspec import error_input
from bot.modals import EDIT_VIEW, REASON, REJECT_VIEW, edit_changes, edit_view, reject_reason, reject_view, why_view
from bot.posting import tell_requester, update_request
from contract.actors import actor_id
from contract.errors import Conflict
from contract.requests import RequestPublic
from contract.status import RequestStatus
from policy.decision import PurchaseModel
from policy.errors import RequestError

log = logging.getLogger(__name__)
_ALTERNATIVE = re.compile(rf"^{USE_ALTERNATIVE}:\d+$")


def clicker(body: dict[str, Any]) -> str:
    team = (body.get("team") or {}).get("id") or body.get("user", {}).get("team_id", "")
    return actor_id(team, body["user"]["id"])


def message_location(body: dict[str, Any]) -> tuple[str | None, str | None]:
    container = body.get("container") or {}
    channel = container.get("channel_id") or (body.get("channel") or {}).get("id")
    ts = container.get("message_ts") or (body.get("message") or {}).get("ts")
    return channel, ts


def tell_privately(body: dict[str, Any], client: Any, respond: Any, text: str) -> None:
    """An ephemeral reply where the click was; a direct message for clicks in App Home, which has no response_url."""
    if body.get("response_url"):
        respond(response_type="ephemeral", replace_original=False, text=text)
    else:
        client.chat_postMessage(channel=body["user"]["id"], text=text)


def decide(deps: Deps, body: dict[str, Any], client: Any, *, decision: str, comment: str | None = None,
           respond: Any = None) -> None:
    """Record the clicker's approve/reject, then show the result where they clicked."""
    (request_id, revision), actor = decision_target(body["actions"][0]["value"]), clicker(body)
    try:
        req = deps.service.record_approval(request_id=request_id, actor=actor, decision=decision, revision=revision,
                                           comment=comment, facts=deps.approver_facts(client, body["user"]["id"]))
    except Conflict:
        # Settled already: show the settled state; only someone whose click did not count hears why.
        req = deps.service.get_request(request_id=request_id)
        _show(deps, body, client, req, respond)
        if not any(a.approver == actor and a.decision == decision for a in req.approvals):
            raise
        return
    _show(deps, body, client, req, respond)
    if req.status != RequestStatus.PENDING_APPROVAL:
        tell_requester(client, req)


def _show(deps: Deps, body: dict[str, Any], client: Any, req: RequestPublic, respond: Any = None) -> None:
    channel, ts = message_location(body)
    update_request(client, req, now=deps.clock(), channel=channel, ts=ts, sent=deps.sent,
                   respond=respond if body.get("response_url") else None)
    if (body.get("container") or {}).get("type") == "view":  # clicked in App Home: show it without this request
        publish_home(deps, client, team_id=(body.get("team") or {}).get("id", ""), user=body["user"]["id"])


def alternative_changes(chosen: dict[str, Any], req: RequestPublic) -> dict[str, Any]:
    """The PATCH that turns the chosen alternative into the plan: its instance type, size, purchase and region, under
    the stage the plan was made for (the alternative was priced under it; a larger plan would otherwise be refused
    until the stage is said, which a click cannot say).

    PlanInput has no purchase-model field; interruption tolerance is what steers the policy to spot or not.
    """
    tolerance = "high" if chosen["pm"] == PurchaseModel.SPOT.value else "low"
    stage = req.decision.request.stage
    return {"instance_type": chosen["type"], "gpus": int(chosen["gpus"]), "interruption_tolerance": tolerance,
            "region": chosen["region"], "timezone": req.timezone, **({"stage": stage.value} if stage else {})}


def _on_error(body: dict[str, Any], client: Any, respond: Any, operation: str) -> Callable[[Exception], None]:
    def tell(error: Exception) -> None:
        tell_privately(body, client, respond, user_message(error, operation=operation))

    return tell


class ActionHandlers:
    """Buttons run as lazy listeners after ``ack_now``; the Edit submission saves before it acks (errors go in the
    ack) and refreshes the message lazily."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def _decide(self, decision: str, body: dict[str, Any], client: Any, respond: Any) -> None:
        try:
            decide(self.deps, body, client, decision=decision, respond=respond)
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            _on_error(body, client, respond, decision)(error)

    def handle_approve_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        self._decide("approve", body, client, respond)

    def handle_reject_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        """Reject asks why first: the modal's submission records the rejection with its reason."""
        try:
            request_id, revision = decision_target(body["actions"][0]["value"])
            req = self.deps.service.get_request(request_id=request_id)
            channel, ts = message_location(body)
            client.views_open(trigger_id=body["trigger_id"],
                              view=reject_view(req, revision=revision, channel=channel, ts=ts))
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            _on_error(body, client, respond, "reject")(error)

    def handle_reject_submission(self, ack: Any, body: dict[str, Any], view: dict[str, Any], client: Any) -> None:
        """Recorded before the ack, so a refusal (not an approver, the plan changed) shows in the modal."""
        meta = json.loads(view.get("private_metadata") or "{}")
        reason = reject_reason(view["state"]["values"])
        if reason is None:
            ack(response_action="errors", errors={REASON: "say why, so the requester knows what to change"})
            return
        try:
            self.deps.service.record_approval(request_id=meta["id"], actor=clicker(body), decision="reject",
                                              revision=meta.get("revision"), comment=reason,
                                              facts=self.deps.approver_facts(client, body["user"]["id"]))
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            ack(response_action="errors", errors={REASON: user_message(error, operation="reject")})
            return
        ack()

    def handle_reject_view(self, view: dict[str, Any], client: Any) -> None:
        """After a recorded rejection: the message shows it and the requester hears it (the thread gets the reason
        from the events feed)."""
        meta = json.loads(view.get("private_metadata") or "{}")
        req = self.deps.service.get_request(request_id=meta["id"])
        update_request(client, req, now=self.deps.clock(), channel=meta.get("channel"), ts=meta.get("ts"),
                       sent=self.deps.sent)
        tell_requester(client, req)

    def handle_cancel_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        """The requester withdraws their request; the service refuses anyone else, who is told so privately."""
        try:
            req = self.deps.service.cancel_request(request_id=body["actions"][0]["value"], actor=clicker(body))
            _show(self.deps, body, client, req, respond)
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            _on_error(body, client, respond, "cancel")(error)

    def handle_withdraw_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        self._decide("withdraw", body, client, respond)

    def handle_why_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        try:
            req = self.deps.service.get_request(request_id=body["actions"][0]["value"])
            client.views_open(trigger_id=body["trigger_id"], view=why_view(req, sources_url=self.deps.sources_url))
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            _on_error(body, client, respond, "why")(error)

    def handle_edit_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        try:
            req = self.deps.service.get_request(request_id=body["actions"][0]["value"])
            channel, ts = message_location(body)
            client.views_open(trigger_id=body["trigger_id"], view=edit_view(req, channel=channel, ts=ts))
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            _on_error(body, client, respond, "edit")(error)

    def handle_alternative_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        try:
            chosen = json.loads(body["actions"][0]["value"])
            req = self.deps.service.get_request(request_id=chosen["id"])
            req = self.deps.service.patch_request(request_id=req.id, actor=clicker(body),
                                                  changes=alternative_changes(chosen, req))
            _show(self.deps, body, client, req, respond)
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            _on_error(body, client, respond, "use alternative")(error)

    def handle_edit_submission(self, ack: Any, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Validated before the ack: errors have to go back in it to show next to the fields."""
        meta = json.loads(view.get("private_metadata") or "{}")
        changes, errors = edit_changes(view["state"]["values"], meta.get("tz", "UTC"))
        if errors:
            ack(response_action="errors", errors=errors)
            return
        try:
            self.deps.service.patch_request(request_id=meta["id"], actor=clicker(body), changes=changes)
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            text = error.message if isinstance(error, RequestError) else user_message(error, operation="edit")
            ack(response_action="errors",
                errors={error_input(text, present=view["state"]["values"]) or "params": text})
            return
        ack()

    def handle_edit_view(self, view: dict[str, Any], client: Any) -> None:
        """After a saved edit: the channel message shows the new revision."""
        meta = json.loads(view.get("private_metadata") or "{}")
        req = self.deps.service.get_request(request_id=meta["id"])
        update_request(client, req, now=self.deps.clock(), channel=meta.get("channel"), ts=meta.get("ts"),
                       sent=self.deps.sent)


def register(app: Any, deps: Deps) -> None:
    """Attach button and modal listeners to ``app``."""
    handlers = ActionHandlers(deps)
    app.action(APPROVE)(ack=ack_now, lazy=[handlers.handle_approve_action])
    app.action(REJECT)(ack=ack_now, lazy=[handlers.handle_reject_action])
    app.action(CANCEL)(ack=ack_now, lazy=[handlers.handle_cancel_action])
    app.action(WITHDRAW)(ack=ack_now, lazy=[handlers.handle_withdraw_action])
    app.action(WHY)(ack=ack_now, lazy=[handlers.handle_why_action])
    app.action(EDIT)(ack=ack_now, lazy=[handlers.handle_edit_action])
    app.action(_ALTERNATIVE)(ack=ack_now, lazy=[handlers.handle_alternative_action])
    app.view(EDIT_VIEW)(ack=handlers.handle_edit_submission, lazy=[handlers.handle_edit_view])
    app.view(REJECT_VIEW)(ack=handlers.handle_reject_submission, lazy=[handlers.handle_reject_view])
