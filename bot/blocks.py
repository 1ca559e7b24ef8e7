"""Block Kit for a request: the plan message with its alternatives, spend context, approval status and buttons."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from bot import formatting as fmt
from bot.capacity_blocks import propose_buttons
from bot.jobspec import job_blocks
from bot.limits import (
    MAX_FALLBACK_TEXT,
    MAX_MESSAGE_BLOCKS,
    MAX_SECTION_TEXT,
    Block,
    actions,
    button,
    confirm_dialog,
    context,
    divider,
    escape,
    fields_section,
    fit,
    section,
    truncate,
)
from contract.actors import slack_user
from contract.requests import RequestPublic
from contract.status import RequestStatus
from policy.capacity import summary_line as capacity_line
from policy.decision import Alternative, Decision, Plan
from policy.describing import APPROVAL_CLAIMED
from policy.reading import did_you_mean
from policy.spend import SpendSnapshot, SpendStatus

APPROVE = "approve_request"
REJECT = "reject_request"
WITHDRAW = "withdraw_approval"
EDIT = "edit_request"
WHY = "why_request"
CANCEL = "cancel_request"
USE_ALTERNATIVE = "use_alternative"  # followed by ":<index>"
MAX_ALTERNATIVES = 3
MAX_QUOTED_TEXT = 600

_STATUS_LINES = {
    "auto_approved": "✅ *Approved automatically* by policy",
    "launching": "🚀 *Launching*",
    "running": "🏃 *Running*",
    "succeeded": "🏁 *Finished*",
    "failed": "💥 *Failed*",
    "stopped": "⏹️ *Stopped*",
    "dry_run": "🧪 *Dry run*: nothing was launched; the request that would have been sent is attached",
    "denied": "⛔ *Denied by policy*",
    "estimate": "📋 *Estimate only*: nothing launches from this request; to run it, ask again without asking for "
                "an estimate only",
    "expired": "⌛ *Expired* before enough approvals",
    "cancelled": "🚫 *Cancelled*",
}


def plan_fields(decision: Decision) -> list[tuple[str, str]]:
    plan = decision.plan
    interval = plan.checkpoint_interval_minutes
    checkpoint = f", checkpoint every {interval} min" if interval else ""
    trials = ""
    if plan.jobs > 1:  # a sweep: how its trials share the instances
        each = f" of {plan.job_instances} instances" if plan.job_instances > 1 else ""
        trials = f" · {plan.jobs} trials{each}, {plan.jobs_at_once} at a time"
    fields = [
        ("Instances", f"{fmt.configuration(plan)} ({plan.accelerators}× {plan.accelerator}){trials}"),
        ("Purchase", f"{fmt.purchase(plan)}{checkpoint}"),
        ("Platform", f"{fmt.platform(plan)} · {plan.region}"),
        # a sweep's runtime cap holds each of its jobs, which may run one after another past it in all
        ("Estimated time", f"{fmt.hours(plan.estimated_hours)} (max runtime "
                           f"{fmt.runtime_cap(plan.max_runtime_hours)}{' a trial' if plan.jobs > 1 else ''})"),
        ("Estimated cost", f"{fmt.usd(plan.estimated_cost_usd)} ({fmt.cost_span(plan)})"),
        ("Price", f"{fmt.rate(plan.price_per_instance_hour_usd)}/instance-hour"),
    ]
    if decision.request.cost_center:  # who pays, tagged on the job: the approver sees where the spend is billed
        fields.append(("Cost center", decision.request.cost_center))
    return fields


def capacity_text(decision: Decision) -> str:
    """'*Capacity*: quota ok (24 of 96 vCPU free) · spot score 7/10 in us-east-2', then any action that would let
    the plan start."""
    plan = decision.plan
    line = capacity_line(plan.capacity, purchase=plan.purchase_model.value, region=plan.region)
    text = "*Capacity*: " + escape(line.removeprefix("capacity "))
    if decision.capacity_actions:
        text += "\n" + fmt.bullets([escape(a.summary) + " (needs approval)" for a in decision.capacity_actions],
                                   limit=MAX_SECTION_TEXT - len(text))
    return text


def spend_line(spend: SpendSnapshot) -> str:
    team = f" {escape(spend.team)}" if spend.team else ""
    if spend.status == SpendStatus.UNAVAILABLE or spend.month_to_date_usd is None:
        reason = f" ({escape(spend.reason)})" if spend.reason else ""
        return f"*Spend*{team}: spend unavailable{reason}"
    text = f"*Spend*{team}: {fmt.usd(spend.month_to_date_usd)} month to date"
    if spend.budget_usd:
        share = spend.month_to_date_usd / spend.budget_usd
        text += f" of {fmt.usd(spend.budget_usd)} budget ({share:.0%})"
    if spend.projected_month_usd is not None:
        text += f" · month forecast {fmt.usd(spend.projected_month_usd)}"
    if spend.status == SpendStatus.STALE:
        text += " · _stale figure_"
    return text


def alternative_value(request_id: str, alt: Alternative) -> str:
    """Everything "Use this" needs, so a click on an older message still asks for what that message showed."""
    chosen = {"id": request_id, "type": alt.instance_type, "gpus": alt.accelerators,
              "pm": alt.purchase_model.value, "region": alt.region}
    return json.dumps(chosen, separators=(",", ":"))


def alternative_block(req: RequestPublic, index: int, alt: Alternative, *, now: datetime | None) -> Block:
    tz = fmt.zone(req.timezone)
    met = "" if alt.deadline_met is None else (" · meets deadline" if alt.deadline_met else " · misses deadline")
    text = (f"*{escape(alt.label)}*: {fmt.configuration(alt)} · {fmt.purchase(alt)} · {fmt.platform(alt)} · "
            f"{fmt.usd(alt.estimated_cost_usd, approx=True)} · done {fmt.stamp(alt.estimated_finish, tz, now=now)}"
            f"{met}")
    accessory = None
    if req.status == RequestStatus.PENDING_APPROVAL:
        accessory = button("Use this", action_id=f"{USE_ALTERNATIVE}:{index}", value=alternative_value(req.id, alt))
    return section(text, accessory=accessory)


def _config_key(plan: Plan) -> tuple[str, int, str, str]:
    return plan.instance_type, plan.instance_count, plan.purchase_model.value, plan.region


def alternatives_of(req: RequestPublic) -> list[Alternative]:
    """The choices the message offers: the plan's own alternatives, then, after "Use this" or an edit narrowed the
    plan, the previous revision's plan and alternatives, so a person can go back or try another."""
    current = req.decision.plan
    offered = list(req.decision.alternatives)
    if req.previous is not None:
        before = req.previous
        offered.append(Alternative(label=f"revision {before.revision}'s plan", **before.plan.model_dump()))
        offered.extend(before.alternatives)
    seen = {_config_key(current)}
    kept: list[Alternative] = []
    for alt in offered:
        if _config_key(alt) not in seen:
            seen.add(_config_key(alt))
            kept.append(alt)
    return kept[:MAX_ALTERNATIVES]


def approval_status(req: RequestPublic, *, now: datetime | None = None) -> str:
    """Who approved and when, what remains and whom it waits for, or the outcome."""
    tz = fmt.zone(req.timezone)
    done = [f"{_MARKS.get(a.decision, '·')} {fmt.mention(a.approver)} "
            f"{_VERBS.get(a.decision, escape(a.decision))} {fmt.stamp(a.created_at, tz, now=now)}"
            + (f": {escape(a.comment)}" if a.comment else "") for a in req.approvals]
    if req.status == RequestStatus.PENDING_APPROVAL:
        approved = {a.approver for a in req.approvals if a.decision == "approve"}
        waiting = [fmt.mention(actor) for actor in req.eligible_approvers if actor not in approved]
        who = f" from {', '.join(waiting)}" if waiting else ""
        plural = "s" if req.approvals_remaining != 1 else ""
        head = f"⏳ *Waiting for {req.approvals_remaining} approval{plural}*{who}"
        if req.expires_at is not None:
            head += f" · expires {fmt.stamp(req.expires_at, tz, now=now)}"
    elif req.status == "approved":
        head = "✅ *Approved*"
    elif req.status == "rejected":
        head = "❌ *Rejected*"
    else:
        head = _STATUS_LINES.get(req.status, f"*{escape(req.status)}*")
    start = req.decision.request.start_after
    if req.status in ("approved", "auto_approved") and start is not None and (now or datetime.now(UTC)) < start:
        # the launch waits for the start the plan was made for (the outbox holds it until then)
        head += f" · launches {fmt.stamp(start, tz, now=now)}, when its plan starts"
    if req.status == "denied" and req.decision.approval.reasons:
        done.extend(escape(r) for r in req.decision.approval.reasons)
    if req.job is not None:
        done.append(job_line(req))
    return "\n".join([head, *done])


_MARKS = {"approve": "✓", "reject": "✗", "withdraw": "↩"}
_VERBS = {"approve": "approved", "reject": "rejected", "withdraw": "withdrew their approval"}
# Approved but not launched yet: an approver can still withdraw or veto.
_VETOABLE = frozenset({"approved", "auto_approved"})


def job_line(req: RequestPublic) -> str:
    job = req.job
    assert job is not None
    line = f"Job `{escape(job.name)}`: {escape(job.status)}"
    if job.actual_cost_usd is not None:
        line += f" · actual {fmt.usd(job.actual_cost_usd)} vs estimated {fmt.usd(req.decision.plan.estimated_cost_usd)}"
    if job.interruptions:
        line += f" · {job.interruptions} spot interruption{'s' if job.interruptions != 1 else ''}"
    return line


def decision_value(req: RequestPublic) -> str:
    """What Approve and Reject carry: the request and the revision shown, so a click on a message that still shows
    an earlier revision is refused rather than counted for a plan the clicker has not seen."""
    return f"{req.id}:{req.revision}"


def decision_target(value: str) -> tuple[str, int | None]:
    """(request id, revision shown) from a button value; no revision for buttons posted before it was carried."""
    request_id, _, revision = value.partition(":")
    return request_id, int(revision) if revision.isdigit() else None


def approve_button(req: RequestPublic) -> Block:
    """Approve; above the policy's confirmation amount Slack asks the approver to confirm the amount first."""
    approve = button("Approve", action_id=APPROVE, value=decision_value(req), style="primary")
    amount = req.approval_confirm_usd
    if amount is not None:
        plan = req.decision.plan
        approve["confirm"] = confirm_dialog(
            "Approve this spend?",
            f"You approve up to *{fmt.usd(amount)}* of GPU spend for {escape(req.team)}"
            + (f", billed to cost center {escape(cc)}" if (cc := req.decision.request.cost_center) else "") + " "
            f"({fmt.configuration(plan)}, estimate {fmt.usd(plan.estimated_cost_usd, approx=True)}).",
            yes="Approve", no="Not yet")
    return approve


def request_buttons(req: RequestPublic) -> Block:
    why = button("Why?", action_id=WHY, value=req.id)
    withdraw = ([button("Withdraw my approval", action_id=WITHDRAW, value=decision_value(req))]
                if any(a.decision == "approve" for a in req.approvals) else [])
    if req.status in _VETOABLE:  # until the worker starts it, an approver can still stop the launch
        veto = button("Reject (stop launch)", action_id=REJECT, value=decision_value(req), style="danger")
        return actions([*withdraw, veto, why], block_id=f"req:{req.id}")
    if req.status != RequestStatus.PENDING_APPROVAL:
        return actions([why], block_id=f"req:{req.id}")
    return actions(
        [
            approve_button(req),
            button("Reject", action_id=REJECT, value=decision_value(req), style="danger"),
            button("Edit", action_id=EDIT, value=req.id),
            *withdraw,
            why,
            # Anyone sees it; the service lets only the requester (or an admin) cancel, and tells anyone else why.
            button("Cancel request", action_id=CANCEL, value=req.id),
        ],
        block_id=f"req:{req.id}",
    )


def choice_line(req: RequestPublic, *, now: datetime | None) -> str:
    """Why this plan, in one line a budget holder reads: cheapest within the policy (or, when nothing is in time, the
    cheapest near the earliest finish), what cheaper choice it passed over, and until when an approval still meets
    the deadline."""
    decision, tz = req.decision, fmt.zone(req.timezone)
    plan = decision.plan
    if decision.request.urgent:
        head = "*Fastest within your policy*, at the lowest cost near the earliest finish"
    elif plan.deadline_met is False:
        head = "*Nothing within your policy meets the deadline*: the lowest cost near the earliest finish"
    elif plan.deadline_met:
        head = "*Cheapest within your policy* that meets the deadline"
    else:
        head = "*Cheapest within your policy*"
    cheaper = [a for a in decision.alternatives if a.estimated_cost_usd < plan.estimated_cost_usd]
    if cheaper:
        alt = min(cheaper, key=lambda a: a.estimated_cost_usd)
        why_not = " but misses the deadline" if alt.deadline_met is False else ""
        head += (f". Cheaper: {fmt.configuration(alt)} {fmt.purchase(alt)} at "
                 f"{fmt.usd(alt.estimated_cost_usd, approx=True)}{why_not}")
    by = approve_by(req)
    if by is not None and req.status == RequestStatus.PENDING_APPROVAL:
        head += f"\n⏰ Approve by {fmt.stamp(by, tz, now=now)} to meet the deadline"
    return head


def approve_by(req: RequestPublic) -> datetime | None:
    """The latest approval that still meets the deadline: the plan finishes its start-up and run after approval."""
    plan = req.decision.plan
    if req.decision.request.deadline is None or plan.deadline_margin_hours is None or req.planned_at is None \
            or not plan.deadline_met:
        return None
    return req.planned_at + timedelta(hours=plan.deadline_margin_hours)


def reasons(decision: Decision) -> list[str]:
    """The one or two steps of the trace that set the plan apart: how it is bought and where it runs."""
    named = {"purchase model": fmt.purchase(decision.plan), "platform": fmt.platform(decision.plan)}
    found = [f"*{named[topic]}*: {escape(fmt.short(step.reason))}" for step in decision.trace
             if (topic := step.node.split(" ", 1)[-1]) in named]
    return found[:2]


def request_blocks(req: RequestPublic, *, now: datetime | None = None) -> list[Block]:
    """The plan message: the summary, what moved the decision, defaults in one line, the choices, the status and the
    buttons. However long the request, trace or lists, it stays within Block Kit's limits."""
    decision = req.decision
    tz = fmt.zone(req.timezone)
    requester = fmt.mention(req.requester)
    quoted = escape(truncate(req.text, MAX_QUOTED_TEXT)).replace("\n", " ")
    summary = fmt.summary_line(decision, tz, now=now, at=fmt.stamp)
    head = f"*{summary}*\n{requester} asked: _{quoted}_" if quoted else f"*{summary}*\nfor {requester}"
    blocks: list[Block] = [section(head)]
    if req.previous is not None and (changed := fmt.change(req.previous.plan, decision.plan)):
        blocks.append(context(f"Revision {req.revision}: {changed} than revision {req.previous.revision}"))
    why = [choice_line(req, now=now), *(f"• {r}" for r in reasons(decision))]
    blocks.extend([section("\n".join(why)), fields_section(plan_fields(decision)), *job_blocks(decision)])
    if decision.plan.cost_range_basis and not decision.plan.cost_fixed:  # a range several times wide needs its
        # reason beside it; a cost that cannot move says so in its field
        blocks.append(context(f"Cost range {escape(fmt.cost_range(decision.plan))}"))
    moved, defaults = fmt.split_assumptions(decision.assumptions)
    moved, described = fmt.split_unchanged(moved)
    if decision.plan.capacity is not None:  # the Capacity line below says what was read of it, once
        moved = [a for a in moved if not a.startswith("capacity ")]
    claimed = [r for r in decision.approval.reasons if r.startswith(f"{APPROVAL_CLAIMED}: ")]
    if claimed:  # the Not read line below says it, with why it goes to a person
        moved = [a for a in moved if f" as {APPROVAL_CLAIMED}: " not in a]
    if moved:
        blocks.append(section("*Read as*\n" + fmt.bullets([fmt.source(escape(fmt.short(a))) for a in moved],
                                                           limit=MAX_SECTION_TEXT)))
    if described:  # words read that describe the work: one line, so what moved the decision reads first
        blocks.append(context(truncate("Also read, no change to the plan: "
                                       + ", ".join(f"'{escape(p)}'" for p in described), MAX_SECTION_TEXT)))
    if decision.request.unread:  # never approved automatically: the reader checks the plan answers the request
        unread = "❓ *Not read*: " + ", ".join(
            f"'{escape(p)}'" + (f" ({escape(close)}?)" if (close := did_you_mean(p)) else "")
            for p in decision.request.unread)
        # recurring work is unread on purpose; the approver should see what it comes to a month, not only one run
        recurring = [r for r in decision.approval.reasons if r.startswith("recurring: ")]
        blocks.append(section("\n".join([unread, *(f"🔁 {escape(r)}" for r in recurring),
                                         *(f"🔒 {escape(r)}" for r in claimed)])))
    if decision.warnings:
        blocks.append(section("⚠️ *Warnings*\n" + fmt.bullets([fmt.source(escape(w)) for w in decision.warnings],
                                                             limit=MAX_SECTION_TEXT)))
    if defaults:
        blocks.append(context("Defaults: " + escape(" · ".join(defaults))))
    blocks.append(section(spend_line(decision.spend)))
    if decision.plan.capacity is not None:
        blocks.append(section(capacity_text(decision)))
        proposals = propose_buttons(req)
        if proposals is not None:
            blocks.append(proposals)
    offered = alternatives_of(req)
    if offered:
        blocks.append(section("*Alternatives*"))
        blocks.extend(alternative_block(req, i, alt, now=now) for i, alt in enumerate(offered))
    tail = [divider(), section(approval_status(req, now=now)), request_buttons(req), footer(req)]
    return fit([*blocks, *tail], MAX_MESSAGE_BLOCKS, keep_tail=len(tail))


def footer(req: RequestPublic) -> Block:
    decision = req.decision
    parts = [f"`{escape(req.id)}` · revision {req.revision}", f"prices as of {escape(decision.catalog.snapshot)}"]
    saved = fmt.savings(decision)
    if saved:
        parts.append(escape(saved))
    if decision.policy_version:
        parts.append(f"policy {escape(decision.policy_version[:12])}")
    return context(" · ".join(parts))


def fallback_text(req: RequestPublic) -> str:
    """The notification text shown where blocks cannot be (push notifications, screen readers)."""
    tz = fmt.zone(req.timezone)
    return truncate(f"GPU plan {req.id}: {fmt.summary_line(req.decision, tz)} ({req.status})", MAX_FALLBACK_TEXT)


def outcome_text(req: RequestPublic) -> str:
    """The direct message a requester gets when their request is decided."""
    tz = fmt.zone(req.timezone)
    summary = fmt.summary_line(req.decision, tz)
    deciders = [fmt.mention(a.approver) for a in req.approvals]
    by = f" by {', '.join(deciders)}" if deciders else ""
    reasons = [a.comment for a in req.approvals if a.decision == "reject" and a.comment]
    if req.status == "rejected" and reasons:  # the requester learns what to change without opening the thread
        by += f": “{escape(reasons[-1])}”"
    verb = {"approved": "was approved", "rejected": "was rejected", "auto_approved": "was approved automatically",
            "launching": "was approved and is launching", "denied": "was denied by policy",
            "expired": "expired", "cancelled": "was cancelled"}.get(req.status, f"is now {req.status}")
    return truncate(f"Your GPU request `{req.id}` ({summary}) {verb}{by}.", MAX_FALLBACK_TEXT)


def requester_user(req: RequestPublic) -> str | None:
    return slack_user(req.requester)
