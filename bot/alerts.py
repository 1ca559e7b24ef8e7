"""What the alerts say in Slack: a job passing its estimate (in the request's thread), a team's month heading past
its budget, a Cost Explorer anomaly with its feedback buttons, and commitment advice (in the team's channel)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot import formatting as fmt
from bot.limits import escape
from contract.events import EventPublic

log = logging.getLogger(__name__)


def _float(data: dict[str, Any], key: str) -> float | None:
    value = data.get(key)
    return None if value is None else float(value)


def job_cost_text(data: dict[str, Any]) -> str:
    """A running job passed a share of its approved estimate."""
    level = int(data.get("level", 0))
    so_far, estimate = _float(data, "cost_so_far_usd"), _float(data, "estimated_cost_usd")
    icon = "💸" if level < 100 else "🔥"
    line = (f"{icon} `{escape(str(data.get('job', '')))}` has cost {fmt.usd(so_far)} so far, {level}% of its "
            f"approved estimate of {fmt.usd(estimate)}; projected {fmt.usd(_float(data, 'projected_usd'))} to "
            f"finish (at most {fmt.usd(_float(data, 'ceiling_usd'))} at its max runtime).")
    if data.get("overrun"):
        line += f" It has run {fmt.hours(_float(data, 'elapsed_hours'))}, past its estimated hours."
    return line + f"\n_From {escape(str(data.get('basis', 'the tracker')))}._"


def _driver_line(job: dict[str, Any]) -> str:
    who = fmt.mention(str(job["requester"])) if job.get("requester") else ""
    if job.get("job"):
        so_far = job.get("cost_so_far_usd")
        spent = f"{fmt.usd(so_far)} so far, " if so_far is not None else ""
        return (f"• `{escape(str(job['request_id']))}` running `{escape(str(job['job']))}`: {spent}"
                f"{fmt.usd(job.get('to_come_usd'))} still to come · {who}")
    return (f"• `{escape(str(job['request_id']))}` approved, not launched: up to {fmt.usd(job.get('to_come_usd'))}"
            f" · {who}")


def budget_text(data: dict[str, Any]) -> str:
    """A team's month is heading past a share of its budget: the sum and the jobs that drive it."""
    level = int(data.get("level", 0))
    icon = "🚨" if level >= 100 else "📈"
    team = escape(str(data.get("team", "")))
    head = (f"{icon} *{team}*'s month is heading for {fmt.usd(_float(data, 'projected_usd'))}, past {level}% of "
            f"its {fmt.usd(_float(data, 'budget_usd'))} budget ({float(data.get('share', 0.0)):.0%}).")
    lines = [head, escape(str(data.get("explain", "")))]
    if data.get("forecast_basis") and "run-rate" in str(data["forecast_basis"]):
        lines.append(f"_The rest of the month is a {escape(str(data['forecast_basis']))}._")
    if data.get("spend_status") == "stale":
        lines.append(f"_Spend figure is stale: {escape(str(data.get('spend_reason') or 'age unknown'))}._")
    jobs = list(data.get("jobs") or [])
    if jobs:
        lines.append("Driving it:")
        lines.extend(_driver_line(job) for job in jobs)
    else:
        lines.append("No gpuops job is running or waiting to launch: the spend is billed already or forecast.")
    return "\n".join(lines)


def _aws_line(aws: dict[str, Any] | None, error: object) -> str:
    if aws is None:
        return f"Cost Explorer gave no SageMaker Savings Plans recommendation ({escape(str(error or 'not asked'))})."
    if not aws.get("hourly_commitment_usd"):
        return "Cost Explorer recommends no SageMaker Savings Plan for the account now."
    term, payment = (escape(str(aws[k])).replace("_", " ").lower() for k in ("term", "payment"))
    return (f"Cost Explorer recommends (whole account, {aws['lookback_days']}-day lookback, {term}, {payment}): "
            f"{fmt.usd(aws['hourly_commitment_usd'])}/h, saving about {fmt.usd(aws['estimated_monthly_savings_usd'])}"
            f"/month ({float(aws['estimated_savings_percent']):.0f}%) at "
            f"{float(aws['estimated_utilisation_percent']):.0f}% utilisation.")


def commitment_text(data: dict[str, Any]) -> str:
    """Monthly Savings Plan advice: the seed rule against Cost Explorer's, break-even and risk. Never a purchase."""
    team = escape(str(data.get("team", "")))
    days = int(data.get("hours", 0)) // 24
    lines = [f"💡 *{team}* commitment advice for {escape(str(data.get('month', '')))} (a recommendation: gpuops "
             "buys nothing).",
             f"Steady baseline: {fmt.usd(_float(data, 'baseline_per_hour_usd'))}/h of on-demand SageMaker jobs (the "
             f"{float(data.get('percentile', 10)):.0f}th-percentile hour over the last {days} days; average "
             f"{fmt.usd(_float(data, 'average_per_hour_usd'))}/h)."]
    seed = data.get("seed")
    if seed:
        discount = float(data.get("discount") or 0.0)
        lines.append(
            f"Seed rule, cover ~90% of the baseline: commit {fmt.usd(seed['commitment_per_hour_usd'])}/h "
            f"({fmt.usd(seed['yearly_commitment_usd'])} a year) at the {discount:.0%} discount Cost Explorer quotes. "
            f"Over the last {days} days it would have saved {fmt.usd(seed['savings_usd'])} "
            f"({fmt.usd(seed['savings_per_month_usd'])}/month), covering {seed['coverage']:.0%} of eligible spend at "
            f"{seed['utilisation']:.0%} utilisation.")
        lines.append(
            f"Break-even: it pays off while at least {seed['break_even_utilisation']:.0%} of the commitment is used "
            f"on average, i.e. eligible usage averaging {fmt.usd(seed['commitment_per_hour_usd'])}/h.")
        lines.append(
            f"Risk: the commitment bills every hour for the whole term, used or not; in the last {days} days usage "
            f"fell below the {fmt.usd(seed['covers_per_hour_usd'])}/h it covers in {seed['idle_hours_share']:.0%} "
            "of hours. Spot, capacity-block, EKS and EC2 jobs are not covered.")
    else:
        lines.append("The seed rule's commitment cannot be priced without Cost Explorer's discount; nothing to "
                     "compare.")
    lines.append(_aws_line(data.get("aws"), data.get("aws_error")))
    return "\n".join(lines)


TEAM_TEXTS: dict[str, Callable[[dict[str, Any]], str]] = {"budget.threshold": budget_text,
                                                          "commitment.advice": commitment_text}
TEAM_ALERTS = frozenset(TEAM_TEXTS)


def post_team_alert(client: Any, event: EventPublic) -> bool:
    """Post a team's alert in its channel; False when the policy names no channel for the team."""
    channel = event.data.get("channel")
    if not channel:
        log.info("event %s: team %s has no channel to tell", event.id, event.data.get("team"))
        return False
    text = TEAM_TEXTS[event.type](event.data)
    client.chat_postMessage(channel=str(channel), text=text, unfurl_links=False)
    return True
