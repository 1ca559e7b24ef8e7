"""Who must approve a plan, and whether policy denies it outright. Fails safe on unknown spend.

See docs/design.md §Guardrails.
"""

from __future__ import annotations

import math
from datetime import datetime

from policy.config import PolicyConfig
from policy.decision import ApprovalRequirement
from policy.request import Stage
from policy.spend import SpendSnapshot, SpendStatus
from policy.timespan import hours_between

__all__ = ["approval_requirement", "spend_status"]

# Clock skew tolerated between whoever read the spend and whoever decides.
_FUTURE_AS_OF_HOURS = 1.0


def spend_status(spend: SpendSnapshot, *, policy: PolicyConfig, now: datetime) -> tuple[SpendStatus, str | None]:
    """The spend status as of ``now``: an 'ok' figure older than the policy allows counts as stale."""
    if spend.status is SpendStatus.OK and spend.as_of is not None:
        age_hours = hours_between(spend.as_of, now)
        if age_hours < -_FUTURE_AS_OF_HOURS:  # a figure from the future is a wrong clock or a wrong file
            return SpendStatus.STALE, (f"spend figure is dated {-age_hours:.0f} h after the request time; "
                                       "its age is unknown")
        if age_hours > policy.spend_stale_after_hours:
            return SpendStatus.STALE, (f"spend figure is {age_hours:.0f} h old (policy spend_stale_after_hours: "
                                       f"{policy.spend_stale_after_hours:g})")
    if spend.status is SpendStatus.OK and spend.month_to_date_usd is None:
        return SpendStatus.UNAVAILABLE, "spend snapshot has no month-to-date figure"
    return spend.status, spend.reason


def approval_requirement(
    *, cost_usd: float, hours: float, stage: Stage, team: str, policy: PolicyConfig, spend: SpendSnapshot,
    now: datetime,
) -> ApprovalRequirement:
    """Approvals needed for a plan of this cost and length, with every reason that applied."""
    reasons: list[str] = []
    denied = _deny_reasons(cost_usd, hours, policy, reasons)
    status, why = spend_status(spend, policy=policy, now=now)
    within_budget = _budget_reasons(cost_usd, team, policy, spend, status, reasons)
    if status is not SpendStatus.OK:
        reasons.append(f"spend is {status.value} ({why or 'no reason given'}): never auto-approved without "
                       "current spend")
    auto = (not denied and stage is Stage.EXPERIMENTAL and cost_usd < policy.auto_approve_below_usd
            and status is SpendStatus.OK and within_budget)
    if auto:
        reasons.append(f"experimental, ${cost_usd:,.2f} is below auto_approve_below_usd "
                       f"(${policy.auto_approve_below_usd:,.0f}) and within budget: approved automatically")
        return ApprovalRequirement(required=False, approvals_needed=0, approver_groups=[], reasons=reasons,
                                   denied=False)
    if not denied:
        _why_not_auto(cost_usd, stage, policy, reasons)
    needed = _tier(cost_usd, policy)
    if not denied:
        reasons.append(f"${cost_usd:,.2f} needs {needed} approval(s) (policy approval_tiers)")
    return ApprovalRequirement(required=True, approvals_needed=needed, approver_groups=policy.approver_groups(
        team, stage), reasons=reasons, denied=denied)


def _deny_reasons(cost_usd: float, hours: float, policy: PolicyConfig, reasons: list[str]) -> bool:
    denied = False
    if policy.deny_above_usd is not None and cost_usd > policy.deny_above_usd:
        reasons.append(f"denied: ${cost_usd:,.2f} is above deny_above_usd (${policy.deny_above_usd:,.0f})")
        denied = True
    if hours > policy.max_runtime_hours:
        reasons.append(f"denied: {hours:,.1f} h is longer than max_runtime_hours ({policy.max_runtime_hours:g} h); "
                       "the launch would be stopped before it finishes")
        denied = True
    return denied


def _budget_reasons(cost_usd: float, team: str, policy: PolicyConfig, spend: SpendSnapshot, status: SpendStatus,
                    reasons: list[str]) -> bool:
    """Add the budget check to ``reasons``; True only when the plan is known to fit the month's budget."""
    budget = spend.budget_usd if spend.budget_usd is not None else policy.team(team).monthly_budget_usd
    if budget is None:
        reasons.append(f"{team} has no monthly budget in the policy")
        return False
    if status is SpendStatus.UNAVAILABLE or spend.month_to_date_usd is None:
        reasons.append(f"budget ${budget:,.0f} cannot be checked: month-to-date spend is unknown")
        return False
    forecast = spend.forecast_usd or 0.0
    projected = spend.month_to_date_usd + forecast + spend.committed_usd + cost_usd
    if not math.isfinite(projected):  # NaN compares false with everything: it must never read as within budget
        reasons.append(f"budget ${budget:,.0f} cannot be checked: spend figures are not finite numbers")
        return False
    said = "unknown (counted as $0)" if spend.forecast_usd is None else f"${forecast:,.0f}"
    detail = (f"month to date ${spend.month_to_date_usd:,.0f} + forecast {said}"
              + (f" + committed ${spend.committed_usd:,.0f}" if spend.committed_usd else "")
              + f" + this plan ${cost_usd:,.0f} = ${projected:,.0f}")
    if projected > budget:
        reasons.append(f"over budget: {detail} exceeds {team}'s monthly budget ${budget:,.0f}")
        return False
    if spend.forecast_usd is None:
        # Without the rest of the month the fit is not known, only not yet disproved: no automatic approval on it.
        reasons.append(f"budget not confirmed: {detail} is within {team}'s monthly ${budget:,.0f}, but the forecast "
                       "for the rest of the month is unknown")
        return False
    reasons.append(f"within budget: {detail} of {team}'s monthly ${budget:,.0f}")
    return True


def _why_not_auto(cost_usd: float, stage: Stage, policy: PolicyConfig, reasons: list[str]) -> None:
    if stage is Stage.PRODUCTION:
        reasons.append("production work is never auto-approved")
    elif cost_usd >= policy.auto_approve_below_usd:
        reasons.append(f"${cost_usd:,.2f} is not below auto_approve_below_usd (${policy.auto_approve_below_usd:,.0f})")


def _tier(cost_usd: float, policy: PolicyConfig) -> int:
    needed = policy.approval_tiers[0].approvals
    for tier in policy.approval_tiers:
        if cost_usd >= tier.min_usd:
            needed = tier.approvals
    return needed
