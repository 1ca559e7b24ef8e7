"""Follows the service's events feed and turns events into Slack: message updates and thread replies.

Delivery is at least once. The cursor lives in the service (so any replica resumes where the last stopped) and moves
past an event only after Slack has it; ids handled by this process are remembered so a redelivered event does not
post twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from slack_sdk.errors import SlackApiError

from bot import capacity_blocks as capacity
from bot import formatting as fmt
from bot import idle
from bot.alerts import TEAM_ALERTS, job_cost_text, post_team_alert
from bot.client import ServiceClient
from bot.dedup import SeenIds
from bot.limits import escape
from bot.metrics import FEED_LAG
from bot.people import People
from bot.posting import SentMessages, reply_in_thread, update_request
from contract.actors import slack_user
from contract.events import EventPublic
from contract.requests import RequestPublic, RequestQuestionsPublic
from policy.decision import Platform

log = logging.getLogger(__name__)
CONSUMER = "bot"
# With no cursor stored yet (a first deployment), older events are history: replaying them would post stale
# thread replies into old threads.
FIRST_START_WINDOW = timedelta(minutes=10)
# Slack errors that say the request's message (or its channel) is no longer there to update or reply to.
MESSAGE_GONE = frozenset({"message_not_found", "channel_not_found", "is_archived", "not_in_channel",
                          "cant_update_message", "thread_not_found"})
CAPACITY_EVENTS = ("capacity.action_proposed", "capacity.action_approved", "capacity.action_done",
                   "capacity.action_failed", "capacity.action_status")
UPDATES = frozenset({
    "request.revised", "request.approval_recorded", "request.approval_changed", "request.approved",
    "request.auto_approved", "request.rejected",
    "request.denied", "request.cancelled", "request.expired", "request.reapproval_required", "launch.started",
    "launch.failed", "launch.dry_run",
    "job.status_changed", "job.interrupted", "job.completed", "job.stop_requested", "job.cost_threshold", *idle.EVENTS,
    "job.trial_started", *CAPACITY_EVENTS,
})


def completion_text(req: RequestPublic) -> str:
    """Actual against estimated cost, and what spot saved."""
    job = req.job
    estimated = req.decision.plan.estimated_cost_usd
    if job is None:
        return f"🏁 Finished ({escape(req.status)})."
    line = f"🏁 `{escape(job.name)}` {escape(job.status)}"
    if job.actual_cost_usd is not None:
        delta = (job.actual_cost_usd - estimated) / estimated if estimated else 0.0
        line += f": actual {fmt.usd(job.actual_cost_usd)} vs estimated {fmt.usd(estimated)} ({delta:+.0%})"
    if job.spot_savings:
        line += f" · spot saved {job.spot_savings:.0%} of training time"
    if job.billable_seconds is not None:
        line += f" · {fmt.hours(job.billable_seconds / 3600)} billable"
    if job.interruptions:
        line += f" · {job.interruptions} interruption{'s' if job.interruptions != 1 else ''}"
    return line


def stop_text(data: dict[str, Any]) -> str:
    """Who asked to stop the job and why; the completion reply follows when the platform has stopped it."""
    user = slack_user(str(data.get("by") or ""))
    who = f" by <@{user}>" if user else ""
    reason = f": {escape(str(data['reason']))}" if data.get("reason") else ""
    if data.get("dry_run"):
        return f"🛑 Stop recorded{who}{reason} (dry run: nothing was sent to AWS)."
    where = fmt.PLATFORM_NAMES.get(Platform(data.get("platform") or "sagemaker"), "the platform")
    return f"🛑 Stop requested{who}{reason}; {where} is stopping `{escape(str(data.get('job', '')))}`."


DRY_RUN_TEXT = "🧪 Dry run: nothing was launched; the request that would have been sent is attached."


def approval_change_text(data: dict[str, Any]) -> str:
    """Someone changed their decision: a withdrawal, or a reject that vetoes an approved plan."""
    user = slack_user(str(data.get("approver") or ""))
    who = f"<@{user}>" if user else "An approver"
    comment = f": “{escape(str(data['comment']))}”" if data.get("comment") else ""
    if data.get("decision") == "withdraw":
        return f"↩️ {who} withdrew their approval{comment}. The plan needs approving again."
    if data.get("previous") == "approve":
        return f"🚫 {who} changed their approval to a rejection{comment}. Nothing will launch."
    return f"🚫 {who} rejected the approved plan{comment}. Nothing will launch."


def rejection_text(data: dict[str, Any]) -> str | None:
    """A first decision that rejects, with the approver's reason; a veto is told by its approval change."""
    if "veto" in data:
        return None
    user = slack_user(str(data.get("approver") or ""))
    who = f"<@{user}>" if user else "An approver"
    reason = f": “{escape(str(data['comment']))}”" if data.get("comment") else "."
    return f"❌ {who} rejected the plan{reason}"


def cancel_text(data: dict[str, Any]) -> str:
    user = slack_user(str(data.get("by") or ""))
    who = f" by <@{user}>" if user else ""
    reason = f": “{escape(str(data['reason']))}”" if data.get("reason") else "."
    return f"🚫 Cancelled{who}{reason} Nothing will launch."


def announces_launch(event: EventPublic) -> bool:
    return event.type in ("launch.started", "job.status_changed") and "transition_start" not in event.data


def thread_text(event: EventPublic, req: RequestPublic, *, announced: Callable[[str], bool]) -> str | None:
    """The thread reply an event deserves, or None when updating the message says enough.

    "Launched" is said once per job, at the first event that finds the job created: the service announces the
    launch (``launch.started``) before AWS has the job, then records the job with a ``job.status_changed``.
    """
    data = event.data
    if event.type == "launch.dry_run":
        return DRY_RUN_TEXT
    if announces_launch(event):
        if req.job is None or req.status == "dry_run" or announced(req.job.name):
            return None
        summary = fmt.summary_line(req.decision, fmt.zone(req.timezone))
        plan = req.decision.plan
        waves = (f"\nThe first {plan.jobs_at_once} of {plan.jobs} trials run now; each of the others starts as one "
                 "ends, as approved.") if plan.jobs > plan.jobs_at_once else ""
        return f"🚀 Launched `{escape(req.job.name)}`: {summary}{waves}"
    if event.type == "launch.failed":
        why = data.get("error") or data.get("reason") or "see the audit log"
        return f"💥 Launch failed: {escape(str(why))}"
    if event.type == "job.interrupted":
        count = req.job.interruptions if req.job else data.get("interruptions", 1)
        return f"⚡ Spot interruption #{count}; the job resumes from its last checkpoint."
    if event.type == "job.trial_started":
        return (f"▶️ Trial {data.get('trial')} of {data.get('of')} started (`{escape(str(data.get('job', '')))}`): "
                f"{data.get('at_once')} run at a time, as approved.")
    if event.type == "job.completed":
        text = completion_text(req)
        reason = data.get("failure_reason")
        return f"{text}\nReason: {escape(str(reason))}" if reason and req.status == "failed" else text
    if event.type == "job.stop_requested":
        return stop_text(data)
    if event.type == "job.cost_threshold":
        return job_cost_text(data)
    if event.type == "request.approval_changed":
        return approval_change_text(data)
    if event.type == "request.rejected":
        return rejection_text(data)
    if event.type == "request.cancelled":
        return cancel_text(data)
    if event.type == "request.expired":
        return "⌛ Expired: not enough approvals within the approval window. Ask again with `/gpu` if still needed."
    if event.type in CAPACITY_EVENTS:
        return capacity_text(event.type, data)
    return None


NUDGES = frozenset({"request.reminder", "request.escalated"})


def nudge_text(event: EventPublic, req: RequestPublic, *, now: datetime) -> str:
    """The direct message a reminder or an escalation sends: whose request, what it costs, where, until when."""
    tz = fmt.zone(req.timezone)
    plan = req.decision.plan
    what = (f"{fmt.mention(req.requester)}'s GPU request `{escape(req.id)}` ({fmt.configuration(plan)} · "
            f"{fmt.purchase(plan)} · {fmt.usd(plan.estimated_cost_usd, approx=True)})")
    where = f" in <#{req.slack_message.channel}>" if req.slack_message else ""
    expires = f"; it expires {fmt.stamp(req.expires_at, tz, now=now)}" if req.expires_at else ""
    if event.type == "request.escalated":
        missing = req.approvals_remaining
        return (f"⏫ {what}{where} still needs {missing} approval{'s' if missing != 1 else ''}{expires}. You are "
                f"its escalation contact ({escape(str(event.data.get('group', '')))}): approve it if you may, or "
                "nudge its approvers.")
    count = f" {event.data.get('reminder')} of {event.data.get('of')}" if event.data.get("of") else ""
    return f"⏰ Reminder{count}: {what} is waiting for your approval{where}{expires}."


def capacity_text(kind: str, data: dict[str, Any]) -> str:
    """A capacity action's step, as the request's thread tells it."""
    what = escape(str(data.get("summary") or data.get("kind") or "capacity action"))
    action = f"`{escape(str(data.get('action_id', '')))}`"
    if kind == "capacity.action_proposed":
        return f"📋 Capacity action {action} proposed for approval: {what}"
    if kind == "capacity.action_approved":
        return f"✅ Capacity action {action} approved: {what}" if data.get("approved") else \
            f"👍 Capacity action {action}: one approval recorded, more needed"
    if kind == "capacity.action_done":
        result = data.get("result") or {}
        shown = ", ".join(f"{escape(str(k))} {escape(str(v))}" for k, v in sorted(result.items()))
        return f"🏗️ Capacity action {action} done: {shown or 'AWS accepted it'}"
    if kind == "capacity.action_failed":
        return f"💥 Capacity action {action} failed: {escape(str(data.get('error') or 'see the audit log'))}"
    status = {k: v for k, v in data.items() if k not in ("action_id", "kind")}
    return f"📡 Capacity action {action}: " + ", ".join(f"{escape(str(k))} {escape(str(v))}"
                                                       for k, v in sorted(status.items()))


class FeedConsumer:
    def __init__(self, *, service: ServiceClient, client: Any, clock: Callable[[], datetime],
                 handled: SeenIds | None = None, sent: SentMessages | None = None,
                 people: People | None = None) -> None:
        self._service = service
        self._people = people or People()
        self._sent = sent or SentMessages()
        self._client = client
        self._clock = clock
        self._handled = handled or SeenIds(capacity=10_000)
        self._launched = SeenIds(capacity=10_000)  # job names already announced in their thread
        self._cursor: str | None = None
        self._history_before: datetime | None = None
        self._started = False

    def step(self, limit: int = 50) -> int:
        """Handle one page of events; how many were new to this process."""
        if not self._started:
            self._cursor = self._service.get_cursor(CONSUMER)
            self._history_before = self._clock() - FIRST_START_WINDOW if self._cursor is None else None
            self._started = True
        page = self._service.list_events(after=self._cursor, limit=limit)
        self._record_lag(page.items)
        handled = 0
        for event in page.items:
            if event.id not in self._handled and not self._is_history(event):
                self.handle(event)  # raises: the cursor stays before this event and the next step retries it
                self._handled.first_time(event.id)
                handled += 1
            self._advance(event.cursor)
        if not page.items and page.next_cursor and page.next_cursor != self._cursor:
            self._advance(page.next_cursor)
        return handled

    def _is_history(self, event: EventPublic) -> bool:
        return self._history_before is not None and event.created_at is not None and \
            event.created_at < self._history_before

    def _record_lag(self, items: list[EventPublic]) -> None:
        oldest = items[0].created_at if items else None
        FEED_LAG.set(max(0.0, (self._clock() - oldest).total_seconds()) if oldest else 0.0)

    def _advance(self, cursor: str) -> None:
        self._service.put_cursor(CONSUMER, cursor)
        self._cursor = cursor

    def nudge(self, event: EventPublic) -> None:
        """Direct messages for a reminder (to the approvers still to decide) or an escalation (to its group), and a
        line in the request's thread for the escalation. A request decided since is left alone."""
        assert event.request_id is not None
        req = self._service.get_request(request_id=event.request_id)
        if req.status != "pending_approval" or req.revision != event.data.get("revision", req.revision):
            return
        key = "to" if event.type == "request.escalated" else "approvers"
        entries = [str(e) for e in event.data.get(key) or []]
        text = nudge_text(event, req, now=self._clock())
        requester = slack_user(req.requester)
        for user in self._people.user_ids(self._client, entries):
            if user == requester:
                continue
            try:
                self._client.chat_postMessage(channel=user, text=text)
            except SlackApiError as error:  # one unreachable person must not hold back the feed or the others
                log.warning("could not remind %s about %s (%s)", user, req.id, error.response.get("error"))
        if event.type == "request.escalated" and req.slack_message is not None:
            group = escape(str(event.data.get("group", "")))
            try:
                reply_in_thread(self._client, req, f"⏫ Approvals still missing: escalated to {group}.")
            except SlackApiError as error:
                if error.response.get("error") not in MESSAGE_GONE:
                    raise

    def handle(self, event: EventPublic) -> None:
        if event.type in TEAM_ALERTS:
            try:
                post_team_alert(self._client, event)
            except SlackApiError as error:  # a channel gone or not joined fails the same way every time: skip it
                if error.response.get("error") not in MESSAGE_GONE:
                    raise
                log.warning("event %s for team %s: its channel cannot be posted to (%s); skipped", event.id,
                            event.data.get("team"), error.response.get("error"))
        if event.type in NUDGES and event.request_id:
            self.nudge(event)
            return
        if event.type not in UPDATES or not event.request_id:
            return
        req = self._service.get_request_or_questions(request_id=event.request_id)
        if isinstance(req, RequestQuestionsPublic):
            return  # never planned (cancelled while it asked): its questions message stays as it was
        if req.slack_message is None:
            log.info("event %s for %s: the request has no Slack message", event.id, req.id)
            return
        try:
            if idle.post_idle(self._client, event, req):  # idle GPUs: a thread reply of their own, with buttons
                return
            if capacity.is_proposal(event):  # a proposed capacity action: its Approve button in the thread
                reply_in_thread(self._client, req, capacity_text(event.type, event.data),
                                blocks=capacity.proposed_blocks(event))
                return
            update_request(self._client, req, now=self._clock(), sent=self._sent)
            text = thread_text(event, req, announced=self._launched.__contains__)
            if text is not None:
                reply_in_thread(self._client, req, text)
                if announces_launch(event) and req.job is not None:
                    self._launched.first_time(req.job.name)
        except SlackApiError as error:
            # A deleted message or an archived channel fails the same way on every retry: skip the event rather
            # than hold the cursor there, which would stop every later event of every request from reaching Slack.
            if error.response.get("error") not in MESSAGE_GONE:
                raise
            log.warning("event %s for %s: its Slack message is gone (%s); skipped", event.id, req.id,
                        error.response.get("error"))
