"""Idle GPUs in Slack: the alert posted once per idle episode in the request's thread, with Stop and "Expected".

Stop asks the service to stop the job (the same stop as ``/gpu stop``: who may, the audit and the stop-once rule are
the service's); "Expected" tells the service the idle time is expected, which silences the job's alerts. The
thread hears about both from the events feed.
"""

from __future__ import annotations

from typing import Any

from bot import formatting as fmt
from bot.actions import clicker, tell_privately
from bot.commands import ack_now
from bot.deps import Deps
from bot.error_messages import user_message
from bot.limits import Block, actions, button, context, escape, section
from bot.posting import reply_in_thread
from contract.actors import slack_user
from contract.events import EventPublic
from contract.requests import RequestPublic

IDLE_STOP = "idle_stop"
IDLE_EXPECTED = "idle_expected"
EVENTS = frozenset({"job.idle", "job.idle_expected"})


def idle_text(data: dict[str, Any]) -> str:
    """One line: utilisation, for how long, and what the idle share costs per hour."""
    return (f"💤 GPUs mostly idle on `{escape(str(data.get('job', '')))}`: {float(data['utilisation_percent']):.0f}% "
            f"utilisation for {data['minutes']} min (below {float(data['threshold_percent']):g}%). Idle time costs "
            f"about {fmt.usd(float(data['idle_cost_per_hour_usd']))}/h ({data['instances']}× "
            f"{escape(str(data['instance_type']))} at {fmt.usd(float(data['price_per_instance_hour_usd']))}/h × "
            f"{float(data['idle_share']):.0%} idle).")


def idle_blocks(event: EventPublic, req: RequestPublic) -> list[Block]:
    return [
        section(idle_text(event.data)),
        actions([button("Stop the job", action_id=IDLE_STOP, value=req.id, style="danger"),
                 button("Expected", action_id=IDLE_EXPECTED, value=req.id)]),
        context("Stop asks the platform to stop it; Expected silences these alerts for this job."),
    ]


def expected_text(data: dict[str, Any]) -> str:
    user = slack_user(str(data.get("by") or ""))
    who = f"<@{user}>" if user else "Someone"
    reason = f": {escape(str(data['reason']))}" if data.get("reason") else ""
    return f"🔕 {who} marked the idle GPUs as expected{reason}; no more idle alerts for this job."


def post_idle(client: Any, event: EventPublic, req: RequestPublic) -> bool:
    """The thread reply of an idle event; False when the request has no Slack message or the event is not one."""
    if event.type == "job.idle":
        return reply_in_thread(client, req, idle_text(event.data), blocks=idle_blocks(event, req))
    if event.type in EVENTS:
        return reply_in_thread(client, req, expected_text(event.data))
    return False


class IdleHandlers:
    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def handle_idle_stop_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        try:
            request_id = body["actions"][0]["value"]
            self.deps.service.stop_request(request_id=request_id, actor=clicker(body), reason="idle GPUs",
                                           facts=self.deps.approver_facts(client, body["user"]["id"]))
            tell_privately(body, client, respond, f"Asked to stop {escape(request_id)}; its thread says when it has.")
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            tell_privately(body, client, respond, user_message(error, operation="stop"))

    def handle_idle_expected_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        try:
            self.deps.service.mark_idle_expected(request_id=body["actions"][0]["value"], actor=clicker(body))
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person and logs a cid
            tell_privately(body, client, respond, user_message(error, operation="mark idle GPUs expected"))


def register(app: Any, deps: Deps) -> None:
    handlers = IdleHandlers(deps)
    app.action(IDLE_STOP)(ack=ack_now, lazy=[handlers.handle_idle_stop_action])
    app.action(IDLE_EXPECTED)(ack=ack_now, lazy=[handlers.handle_idle_expected_action])
