"""What the alerts say in Slack: a job passing its estimate (in the request's thread), a team's month heading past
its budget, a Cost Explorer anomaly with its feedback buttons, and commitment advice (in the team's channel)."""

from __future__ import annotations

from typing import Any

from bot import formatting as fmt
from bot.limits import escape


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
