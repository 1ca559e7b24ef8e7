"""A decision as plain text: the summary line first, then why, alternatives, assumptions, warnings and approval."""

from __future__ import annotations

from datetime import datetime, tzinfo

from policy.capacity import summary_line as capacity_line
from policy.decision import Decision, Plan
from policy.questions import NeedsInput
from policy.reading import did_you_mean
from policy.request import PLATFORM_NAMES


def money(usd: float) -> str:
    """$310, $1,234, $12.40 — whole dollars from $100 up."""
    return f"${usd:,.0f}" if abs(usd) >= 100 else f"${usd:,.2f}"


def _when(moment: datetime, zone: tzinfo | None, *, now: datetime) -> str:
    """A bare weekday when it names the only such day within six calendar days of ``now``, when the plan was asked;
    else with its date ("starts Wed 09:00" for a start in March would read as this week's Wednesday, and a week on
    "Mon" as the same day as a Monday ``now``)."""
    local = moment.astimezone(zone)
    if abs((local.date() - now.astimezone(zone).date()).days) > 6:
        return f"{local:%a %Y-%m-%d %H:%M}"
    return f"{local:%a %H:%M}"


def summary_line(decision: Decision, zone: tzinfo | None = None, *, now: datetime) -> str:
    """One line: [DENIED ·] configuration · purchase · platform · cost · [start ·] finish · deadline; ``now``: when the
    request was asked."""
    plan, deadline = decision.plan, decision.request.deadline
    zone = zone or (deadline.tzinfo if deadline is not None else None)
    parts = ["DENIED by policy"] if decision.approval.denied else []
    parts += [f"{plan.instance_count}× {plan.instance_type}", plan.purchase_model.value,
             PLATFORM_NAMES[plan.platform], f"~{money(plan.estimated_cost_usd)}",
             f"done {_when(plan.estimated_finish, zone, now=now)}"]
    if decision.request.start_after is not None:
        parts.insert(-1, f"starts {_when(decision.request.start_after, zone, now=now)}")
    if deadline is not None:
        mark = "✓" if plan.deadline_met else "✗"
        parts.append(f"deadline {_when(deadline, zone, now=now)} {mark}")
    if (over := decision.over_budget_usd) is not None:
        budget = f"budget {money(decision.request.budget_usd or 0.0)}"
        parts.append(f"{budget} ✓" if over == 0 else f"{budget} ✗ over by {money(over)}")
    return " · ".join(parts)


def _plan_lines(plan: Plan, zone: tzinfo | None) -> list[str]:
    lines = [
        f"  {plan.instance_count}× {plan.instance_type} ({plan.accelerators}× {plan.accelerator}) in {plan.region}, "
        f"{plan.purchase_model.value} on {PLATFORM_NAMES[plan.platform]} at ${plan.price_per_instance_hour_usd:g} "
        "per instance-hour",
        f"  {plan.estimated_hours:,.2f} h, finishes {plan.estimated_finish.astimezone(zone):%a %Y-%m-%d %H:%M %Z}"
        + ("" if plan.deadline_margin_hours is None else f" ({plan.deadline_margin_hours:+,.1f} h to the deadline)"),
        f"  cost ~{money(plan.estimated_cost_usd)} (" + (
            "no range" if plan.cost_fixed
            else f"range {money(plan.cost_low_usd)}–{money(plan.cost_high_usd)}") + f": {plan.cost_range_basis})",
    ]
    for item in plan.cost_breakdown:
        lines.append(f"    {item.item}: ${item.usd:,.2f} = {item.basis}")
    if plan.jobs > 1:
        lines.append(f"  {plan.jobs} separate jobs of {plan.job_instances} instance(s), {plan.jobs_at_once} at a time")
    extra = f"max runtime {plan.max_runtime_hours:,.2f} h" + (" a job" if plan.jobs > 1 else "")  # as the length
    if plan.checkpoint_interval_minutes is not None:
        extra = f"checkpoint every {plan.checkpoint_interval_minutes} min; " + extra
    lines.append(f"  {extra}")
    return lines


def _job_lines(decision: Decision) -> list[str]:
    """What runs: recipe, image, entry point, model, data, the hyperparameters (changed ones marked *)."""
    job = decision.job
    if job is None:
        return []
    values = ", ".join(f"{k}={v}{'*' if k in job.overrides else ''}" for k, v in job.hyperparameters.items())
    size = f"{job.dataset_bytes:,} bytes" if job.dataset_bytes is not None else "size read when filed"
    return ["", "Job", f"  recipe {job.recipe}: {job.image}",
            f"  runs {job.entry_point}" + (f" from {job.source}" if job.source else " (in the image)")
            + f" with {job.distribution}",
            f"  model {job.model or 'none named'}" + (f" ({job.model_source})" if job.model_source else ""),
            f"  data {job.dataset} ({size})", f"  hyperparameters {values or 'none'} (* changed by the request)"]


def render_text(decision: Decision, zone: tzinfo | None = None, *, now: datetime, plan_hash: str | None = None) -> str:
    """The whole decision for a terminal (with the plan hash that approvals bind to, when given); ``now`` as for
    ``summary_line``."""
    deadline = decision.request.deadline
    zone = zone or (deadline.tzinfo if deadline is not None else None)
    out = [summary_line(decision, zone, now=now), "", "Plan", *_plan_lines(decision.plan, zone), *_job_lines(decision),
           "", "Why"]
    out += [f"  {s.node}: {s.answer} — {s.reason} [{s.source}]" for s in decision.trace]
    if decision.alternatives:
        out += ["", "Alternatives"]
        out += [f"  {a.label}: {a.instance_count}× {a.instance_type} · {a.purchase_model.value} · "
                f"{PLATFORM_NAMES[a.platform]} · ~{money(a.estimated_cost_usd)} · {a.estimated_hours:,.1f} h · "
                f"done {_when(a.estimated_finish, zone, now=now)}"
                for a in decision.alternatives]
    if decision.request.unread:
        out += ["", "Not read (say it another way, or check the plan does not need it)",
                *[f"  ? {p}" + (f" (did you mean '{close}'?)" if (close := did_you_mean(p)) else "")
                  for p in decision.request.unread]]
    out += ["", "Assumptions", *[f"  - {a}" for a in decision.assumptions]]
    if decision.warnings:
        out += ["", "Warnings", *[f"  ! {w}" for w in decision.warnings]]
    out += ["", "Approval", f"  {_approval(decision)}", *[f"  - {r}" for r in decision.approval.reasons]]
    out += ["", _spend(decision)]
    if decision.plan.capacity is not None:
        plan = decision.plan
        line = capacity_line(plan.capacity, purchase=plan.purchase_model.value, region=plan.region)
        out.append("capacity: " + line.removeprefix("capacity "))
        out += [f"  - {a.summary} (needs approval)" for a in decision.capacity_actions]
    if plan_hash is not None:
        out.append(f"plan hash: {plan_hash}")
    if decision.approval.denied:
        out.append("vs naive: no savings figure (the plan is denied: it will not run)")
    elif decision.request.fixed_hours is not None or decision.request.reserved:
        out.append("vs naive: no savings figure (a job of a stated length, or on capacity already held)")
    elif decision.naive_baseline is not None and decision.savings_vs_naive_usd is not None:
        naive = decision.naive_baseline
        saved = decision.savings_vs_naive_usd
        verdict = f"{money(saved)} saved" if saved >= 0 else f"{money(-saved)} more"
        out.append(f"vs naive {naive.instance_count}× {naive.instance_type} on-demand on SageMaker "
                   f"(~{money(naive.estimated_cost_usd)}): {verdict}")
    else:
        out.append(f"vs naive: no savings figure (the naive on-demand baseline has no price or no fit in "
                   f"{decision.plan.region})")
    out.append(f"prices: snapshot {decision.catalog.snapshot} ({decision.catalog.source})")
    return "\n".join(out)


def _approval(decision: Decision) -> str:
    approval = decision.approval
    if approval.denied:
        return "denied by policy"
    if decision.request.estimate_only:
        return "none: an estimate only, which launches nothing (the approvals a run of it would need follow)"
    if not approval.required:
        return "auto-approved"
    return f"needs {approval.approvals_needed} approval(s) from {', '.join(approval.approver_groups) or '(no group)'}"


def _spend(decision: Decision) -> str:
    spend = decision.spend
    if spend.month_to_date_usd is None:
        return f"spend: {spend.status.value}" + (f" ({spend.reason})" if spend.reason else "")
    text = f"spend: {spend.status.value}, month to date {money(spend.month_to_date_usd)}"
    if spend.forecast_usd is not None:
        text += f", forecast {money(spend.forecast_usd)} more"
    if spend.budget_usd is not None:
        text += f", budget {money(spend.budget_usd)}"
    return text


def render_questions(needs: NeedsInput) -> str:
    """The questions to answer before a plan, each with its choices and the field that answers it."""
    out = ["Needs input before a plan:"]
    for i, q in enumerate(needs.questions, 1):
        out.append(f"  {i}. {q.question}")
        out += [f"     - {c.label}  ({q.field}={c.value})" for c in q.choices]
        if not q.choices:
            out.append(f"     (answer with {q.field})")
    if needs.request.unread:
        out.append("Not read: " + ", ".join(f"'{p}'" for p in needs.request.unread))
    return "\n".join(out)
