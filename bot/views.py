"""Block Kit for the other commands and App Home: help, spend, jobs, status, policy, my requests."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot import formatting as fmt
from bot.blocks import REJECT, WHY, approval_status, approve_button, decision_value, spend_line
from bot.jobspec import recipes_text
from bot.limits import (
    MAX_MESSAGE_BLOCKS,
    MAX_SECTION_TEXT,
    MAX_VIEW_BLOCKS,
    Block,
    actions,
    button,
    context,
    divider,
    escape,
    fields_section,
    fit,
    header,
    section,
    truncate,
)
from contract.info import PolicyPublic
from contract.requests import RequestPublic
from contract.status import RequestStatus
from policy.spend import SpendSnapshot

HELP_EXAMPLES = [
    "/gpu fine-tune 7B by Friday",
    "/gpu lora llama-3 8b on 2B tokens, spot ok",
    "/gpu pretrain 1.5B on 30B tokens by next Tuesday 5pm under $5k",
    "/gpu production fine-tune 13B by 2026-12-15, no interruptions",
    "/gpu sweep of 20 trials for a 350M model in 3 days",
    "/gpu fine-tune llama-3.1-8b on 120k conversations avg 800 tokens, prefer A100s",
    "/gpu qlora 70B on 1B tokens in europe, at most 16 GPUs, no H100s",
    "/gpu what's the biggest model we can pretrain on 20B tokens for $30k in 2 weeks?",
    "/gpu a 7B LoRA on as many tokens as fit in $200",
]
HELP_COMMANDS = [
    ("/gpu <request>", "plan a training job and ask for approval"),
    ("/gpu spend [team]", "month to date vs budget, forecast, top drivers"),
    ("/gpu jobs", "running jobs and what they have cost so far"),
    ("/gpu jobs done", "the last finished jobs: what each cost against its estimate"),
    ("/gpu status <id>", "where a request stands"),
    ("/gpu stop <id> [reason]", "stop a running job (the requester or an approver)"),
    ("/gpu cancel <id> [reason]", "withdraw your request while it waits for approval"),
    ("/gpu policy", "budgets, approvers, recipes and thresholds in force"),
    ("/gpu help", "this message"),
]


def help_blocks() -> list[Block]:
    commands = "\n".join(f"`{name}` {what}" for name, what in HELP_COMMANDS)
    examples = "\n".join(f"```{example}```" for example in HELP_EXAMPLES)
    return [
        section("*gpuops* recommends GPU training compute on AWS and routes it for approval.\n" + commands),
        section("*Examples to copy*\n" + examples),
        context("Say the model size; add a deadline, a budget, `production`, `spot ok`, a region (`in europe`), a "
                "ceiling (`at most 16 GPUs`), hardware to keep out (`no H100s`) or a platform (`on EKS`) when they "
                "matter. Hardware you name or prefer is used as asked, and the plan says when other hardware would "
                "cost much less."),
    ]


def spend_blocks(spend: SpendSnapshot) -> list[Block]:
    blocks = [section(spend_line(spend))]
    if spend.drivers:
        top = sorted(spend.drivers, key=lambda d: d.usd, reverse=True)[:5]
        lines = "\n".join(f"• {escape(d.key)}: {fmt.usd(d.usd)}" for d in top)
        blocks.append(section("*Top drivers*\n" + lines))
    if spend.as_of is not None:
        blocks.append(context(f"as of {spend.as_of.strftime('%Y-%m-%d %H:%M')} UTC"))
    return blocks


def accrued_usd(req: RequestPublic) -> float | None:
    """What a job has cost so far: the service's actual figure, else its live figure, else training time × the
    plan's price."""
    job = req.job
    if job is None:
        return None
    if job.actual_cost_usd is not None:
        return job.actual_cost_usd
    if job.cost_so_far_usd is not None:
        return job.cost_so_far_usd
    if job.training_seconds is None:
        return None
    plan = req.decision.plan
    return job.training_seconds / 3600 * plan.instance_count * plan.price_per_instance_hour_usd


def job_row(req: RequestPublic) -> str:
    plan = req.decision.plan
    job = req.job
    status = job.status if job else req.status
    projected = job.projected_cost_usd if job and job.actual_cost_usd is None else None
    to_finish = f" · {fmt.usd(projected)} projected to finish" if projected is not None else ""
    return (f"`{escape(req.id)}` {fmt.configuration(plan)} · {escape(req.team or '')} · {escape(status)} · "
            f"{fmt.usd(accrued_usd(req))} so far of {fmt.usd(plan.estimated_cost_usd, approx=True)}{to_finish}")


def live_cost_line(req: RequestPublic) -> str | None:
    """A running job's live figures, as App Home shows them; None when it has none (yet)."""
    job = req.job
    if job is None or job.actual_cost_usd is not None or job.cost_so_far_usd is None:
        return None
    estimate = req.decision.plan.estimated_cost_usd
    share = f" ({job.cost_so_far_usd / estimate:.0%} of the estimate)" if estimate else ""
    projected = f", {fmt.usd(job.projected_cost_usd)} projected to finish" if job.projected_cost_usd is not None else ""
    return f"💸 `{escape(job.name)}`: {fmt.usd(job.cost_so_far_usd)} so far{share}{projected}"


def job_label(req: RequestPublic) -> str:
    return f"`{escape(req.id)}` {fmt.configuration(req.decision.plan)}"


def finished_row(req: RequestPublic) -> str:
    """A finished job: its end, and what it cost against its estimate (how far off, once the bill is final)."""
    actual = req.job.actual_cost_usd if req.job else None
    estimated = req.decision.plan.estimated_cost_usd
    if actual is not None:
        off = f" ({(actual - estimated) / estimated:+.0%})" if estimated else ""
        cost = f"{fmt.usd(actual)} against {fmt.usd(estimated, approx=True)}{off}"
    else:
        cost = f"{fmt.usd(accrued_usd(req))} so far (final bill pending) against {fmt.usd(estimated, approx=True)}"
    return f"{job_label(req)} · {escape(req.status.replace('_', ' '))} · {cost}"


# Jobs that ran and ended, with a bill to set against the estimate (a dry run sent nothing, so billed nothing)
FINISHED = frozenset({RequestStatus.SUCCEEDED, RequestStatus.FAILED, RequestStatus.STOPPED})
MAX_FINISHED_SHOWN = 10
_ASKED_AS_SHOWN = 70  # characters of each request's text shown under its row


def finished_jobs_blocks(jobs: list[RequestPublic], *, now: datetime) -> list[Block]:
    """The last finished jobs, newest first, each with what it cost against its estimate and what was asked."""
    done = [req for req in jobs if req.status in FINISHED][:MAX_FINISHED_SHOWN]
    if not done:
        return [section("No job has finished yet.")]
    blocks = [section(f"*Last {len(done)} finished job{'s' if len(done) != 1 else ''}*, newest first: what each "
                      "cost against its estimate")]
    for req in done:
        tz = fmt.zone(req.timezone)
        asked = escape(truncate(" ".join(req.text.split()), _ASKED_AS_SHOWN))
        blocks.append(section(f"{finished_row(req)}\n_{asked}_ · {escape(req.team or '')} · asked "
                              f"{fmt.stamp(req.created_at, tz, now=now)}"))
    return fit(blocks, MAX_MESSAGE_BLOCKS)


def jobs_blocks(jobs: list[RequestPublic]) -> list[Block]:
    if not jobs:
        return [section("No jobs are running.")]
    blocks = [section(f"*{len(jobs)} job{'s' if len(jobs) != 1 else ''}*")]
    blocks.extend(section(job_row(req)) for req in jobs)
    return fit(blocks, MAX_MESSAGE_BLOCKS)


def status_blocks(req: RequestPublic, *, now: datetime | None = None) -> list[Block]:
    tz = fmt.zone(req.timezone)
    return [
        section(f"`{escape(req.id)}` *{fmt.summary_line(req.decision, tz, now=now)}*"),
        section(approval_status(req, now=now)),
    ]


def policy_blocks(policy: PolicyPublic) -> list[Block]:
    raw: dict[str, Any] = policy.policy
    pairs = [
        ("Auto-approve below", fmt.usd(raw.get("auto_approve_below_usd"))),
        ("Denied above", fmt.usd(raw.get("deny_above_usd"))),
        ("Max instances", str(raw.get("max_instances", "?"))),
        ("Max runtime", fmt.hours(raw.get("max_runtime_hours"))),
        ("Approval window", fmt.hours(raw.get("approval_window_hours"))),
        ("Regions", ", ".join(raw.get("regions", [])) or "?"),
    ]
    tiers = ", ".join(f"{t['approvals']} from {fmt.usd(t['min_usd'])}" for t in raw.get("approval_tiers", []))
    teams = []
    for name, team in sorted(raw.get("teams", {}).items()):
        approvers = "; ".join(f"{stage}: {', '.join(groups)}" for stage, groups in team.get("approvers", {}).items())
        teams.append(f"• *{escape(name)}* budget {fmt.usd(team.get('monthly_budget_usd'))}/month · {escape(approvers)}"
                     + recipes_text(team))
    blocks = [
        section(f"*Policy in force* `{escape(policy.version[:12])}`"),
        fields_section(pairs),
        section(f"*Approvals needed*: {tiers or 'none'}"),
        section(("*Teams*\n" + "\n".join(teams))[:MAX_SECTION_TEXT]),
    ]
    return fit(blocks, MAX_MESSAGE_BLOCKS)


def home_view(mine: list[RequestPublic], waiting: list[RequestPublic], *, now: datetime | None = None
              ) -> dict[str, Any]:
    """App Home: approvals waiting for me first (they block someone), then my own requests."""
    blocks: list[Block] = [header("Approvals waiting for you")]
    if not waiting:
        blocks.append(section("Nothing waits for you."))
    for req in waiting[:20]:
        blocks.append(section(f"{fmt.mention(req.requester)} · " + status_blocks(req, now=now)[0]["text"]["text"]))
        blocks.append(actions([
            approve_button(req),  # with the policy's confirmation, as in the channel
            button("Reject", action_id=REJECT, value=decision_value(req), style="danger"),
            button("Why?", action_id=WHY, value=req.id),
        ], block_id=f"home:{req.id}"))
    blocks.extend([divider(), header("Your requests")])
    if not mine:
        blocks.append(section("You have no requests yet. Try `/gpu fine-tune 7B by Friday`."))
    for req in mine[:20]:
        blocks.extend(status_blocks(req, now=now))
        live = live_cost_line(req)
        if live is not None:
            blocks.append(section(live))
    return {"type": "home", "blocks": fit(blocks, MAX_VIEW_BLOCKS)}
