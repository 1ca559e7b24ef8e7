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


TEAM_TEXTS: dict[str, Callable[[dict[str, Any]], str]] = {"budget.threshold": budget_text}
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
