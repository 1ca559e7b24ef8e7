"""Who must approve a plan, and whether policy denies it outright. Fails safe on unknown spend.

See docs/design.md §Guardrails.
"""

from __future__ import annotations

import math
from datetime import date, datetime

from policy.config import PolicyConfig
from policy.decision import ApprovalRequirement
from policy.describing import APPROVAL_CLAIMED, cadence, claims_approval
from policy.request import Stage
from policy.spend import SpendSnapshot, SpendStatus, status_as_of

__all__ = ["approval_requirement", "REFRESH_PRICES", "spend_status", "stale_prices"]


def spend_status(spend: SpendSnapshot, *, policy: PolicyConfig, now: datetime) -> tuple[SpendStatus, str | None]:
    """The spend status as of ``now`` under the policy's staleness rule (``policy.spend.aged``)."""
    return status_as_of(spend, now=now, stale_after_hours=policy.spend_stale_after_hours)


# The exposure is rounded up to the cent and the estimate to the nearest: a cent apart is the same figure.
_ROUNDING_USD = 0.01 + 1e-9


def approval_requirement(
    *, cost_usd: float, hours: float, stage: Stage, team: str, policy: PolicyConfig, spend: SpendSnapshot,
    now: datetime, exposure_usd: float | None = None, oversized: str | None = None, unread: list[str] | None = None,
    capacity_doubt: str | None = None, raised: str | None = None, old_prices: str | None = None,
    estimate_only: bool = False, launch_below: float | None = None, budget_said: float | None = None,
    finance_asked: bool = False, spot_ceiling_usd: float | None = None,
) -> ApprovalRequirement:
    """Approvals needed for a plan of this cost and length, with every reason that applied.

    Every money rule (deny ceiling, budget, auto-approval, tiers) judges the larger of the estimate and the
    ``exposure_usd`` — what the launch may bill before its runtime cap stops it — since that is what an approval
    lets it spend. ``oversized`` (hardware far beyond the work) is never approved automatically, nor is a plan whose
    capacity is unknown or short (``capacity_doubt`` says why): it may not start. Nor is one on more accelerators
    than the request asked for (``raised``: the count asked and the one planned), nor one priced on figures older
    than the policy trusts (``old_prices``: how old, as ``stale_prices`` says it). A request for an estimate only
    (``estimate_only``) is never approved at all: it is filed as an estimate, which launches nothing. Nor is a plan
    that may bill more than the budget the request itself states (``budget_said``): the requester set it, and only a
    person may spend past it. A request asking for finance's sign-off (``finance_asked``) needs the finance group's
    approval as well, as a plan over budget does. On spot the exposure is at the spot rate planned; what the same
    runtime cap would bill should the rate rise to its ceiling, the on-demand rate (``spot_ceiling_usd``), is said
    beside it, so an approver sees the bound the market, not the policy, sets.
    """
    reasons: list[str] = []
    if estimate_only:
        reasons.append("an estimate only: nothing launches from it and it takes no approval; to run the job, ask "
                       "again without asking for an estimate only")
    estimate_usd = cost_usd  # what one run is estimated to cost, the figure recurring work repeats
    if exposure_usd is not None and exposure_usd > cost_usd:
        if exposure_usd - cost_usd > _ROUNDING_USD:  # a stated length's cap is its estimate, to the cent rounded up
            ceiling = (f"; at spot's ceiling, the on-demand rate, the same cap would allow ${spot_ceiling_usd:,.2f}"
                       if spot_ceiling_usd is not None and spot_ceiling_usd - exposure_usd > _ROUNDING_USD else "")
            reasons.append(f"judged on ${exposure_usd:,.2f}, what the launch may bill before its runtime cap stops "
                           f"it{' at the spot rate planned' if ceiling else ''} (the estimate is ${cost_usd:,.2f}"
                           f"{ceiling})")
        cost_usd = exposure_usd
    if oversized:
        reasons.append(f"oversized: {oversized}; never approved automatically")
    _unread_reasons(unread or [], estimate_usd, reasons)
    if capacity_doubt:
        reasons.append(f"capacity {capacity_doubt}: never approved automatically")
    if raised:
        reasons.append(f"{raised}: a person approves the larger count, never approved automatically")
    if old_prices:
        reasons.append(f"{old_prices}: never approved automatically; {REFRESH_PRICES}")
    denied = _deny_reasons(cost_usd, hours, policy, reasons)
    if launch_below is not None and estimate_usd > launch_below:
        # the requester's own condition: what they said not to launch is not launched, whoever would approve it
        reasons.append(f"denied: the ${estimate_usd:,.2f} estimate is above the ${launch_below:,.2f} the request says "
                       "not to launch over")
        denied = True
    over_said = budget_said is not None and cost_usd > budget_said + _ROUNDING_USD
    if over_said:
        reasons.append(f"over the ${budget_said:,.2f} budget the request states: the launch may bill ${cost_usd:,.2f}; "
                       "a person approves spending past it, never approved automatically")
    status, why = spend_status(spend, policy=policy, now=now)
    within_budget = _budget_reasons(cost_usd, team, policy, spend, status, reasons)
    over_budget = any(r.startswith("over budget") for r in reasons)
    if status is not SpendStatus.OK:
        reasons.append(f"spend is {status.value} ({why or 'no reason given'}): never auto-approved without "
                       "current spend")
    within_caps = _within_daily_caps(cost_usd, policy, spend, reasons)
    auto = (not estimate_only and not denied and not oversized and not unread and not capacity_doubt and not raised
            and not old_prices and not over_said and not finance_asked
            and stage is Stage.EXPERIMENTAL and cost_usd < policy.auto_approve_below_usd and status is SpendStatus.OK
            and within_budget and within_caps)
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
    groups = policy.approver_groups(team, stage)
    finance = None if denied else _finance_reason(cost_usd, over_budget, policy)
    if finance is None and finance_asked and not denied:
        finance = f"{policy.finance_group} must approve: the request asks for finance's sign-off"
    if finance is not None:
        groups += [] if policy.finance_group in groups else [policy.finance_group]
        reasons.append(finance)
    return ApprovalRequirement(required=True, approvals_needed=needed, approver_groups=groups, reasons=reasons,
                               denied=denied, required_groups=[policy.finance_group] if finance else [])


def _unread_reasons(unread: list[str], cost_usd: float, reasons: list[str]) -> None:
    """Why unread phrases hold the plan: a person checks what was not read, and approves recurring work ("nightly")
    knowing what it comes to a month, since gpuops launches, and the plan prices, one run per approved request."""
    other = []
    for phrase in unread:
        if claims_approval(phrase):
            reasons.append(f"{APPROVAL_CLAIMED}: '{phrase}'; only approvals recorded with the Approve button or "
                           "the API count, so it is never approved automatically on them")
            continue
        recurring = cadence(phrase)
        if recurring is None:
            other.append(phrase)
            continue
        runs, period = recurring
        yearly = f" (~${cost_usd * runs * 12:,.0f} a year)" if period == "month" else ""
        reasons.append(f"recurring: '{phrase}' is about {runs} run{'s' if runs > 1 else ''} a {period}, "
                       f"~${cost_usd * runs:,.0f}/{period}{yearly} at the estimate's ${cost_usd:,.2f} a run; the plan "
                       "prices one run, and a recurring commitment is never approved automatically")
    if other:
        reasons.append("not read: " + ", ".join(f"'{p}'" for p in other) + "; a person checks the plan answers "
                       "what was asked, so it is never approved automatically")


def _finance_reason(cost_usd: float, over_budget: bool, policy: PolicyConfig) -> str | None:
    """Why finance must approve, whatever the stage: over the team's remaining budget, or above the threshold."""
    if over_budget:
        return f"{policy.finance_group} must approve: the plan is over the team's remaining budget"
    if policy.finance_above_usd is not None and cost_usd >= policy.finance_above_usd:
        return (f"{policy.finance_group} must approve: ${cost_usd:,.2f} is at or above finance_above_usd "
                f"(${policy.finance_above_usd:,.0f})")
    return None


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
    ledger = spend.ledger
    running, reserved = (ledger.running_usd, ledger.reserved_usd) if ledger is not None else (0.0, 0.0)
    projected = spend.month_to_date_usd + forecast + spend.committed_usd + running + reserved + cost_usd
    if not math.isfinite(projected):  # NaN compares false with everything: it must never read as within budget
        reasons.append(f"budget ${budget:,.0f} cannot be checked: spend figures are not finite numbers")
        return False
    said = "forecast unknown (counted as $0)" if spend.forecast_usd is None else f"${forecast:,.0f} forecast"
    detail = (f"${spend.month_to_date_usd:,.0f} spent + {said}"
              + (f" + ${spend.committed_usd:,.0f} launched since the figure" if spend.committed_usd else "")
              + (f" + ${running:,.0f} running + ${reserved:,.0f} reserved" if ledger is not None else "")
              + f" + this ${cost_usd:,.0f} = ${projected:,.0f}")
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


def _within_daily_caps(cost_usd: float, policy: PolicyConfig, spend: SpendSnapshot, reasons: list[str]) -> bool:
    """Whether approving ``cost_usd`` automatically stays within the policy's daily caps (checked on filing, when
    the ledger is read; a preview cannot know what else is filed today)."""
    ledger = spend.ledger
    if ledger is None:
        return True
    within = True
    caps = (("you", ledger.auto_approved_today_by_requester_usd, policy.auto_approve_daily_per_requester_usd),
            ("the team", ledger.auto_approved_today_by_team_usd, policy.auto_approve_daily_per_team_usd))
    for who, used, cap in caps:
        if cap is not None and used + cost_usd > cap:
            reasons.append(f"daily cap: ${used:,.0f} already approved automatically today for {who} + this "
                           f"${cost_usd:,.0f} is over the ${cap:,.0f} a day approved without a person")
            within = False
    return within


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


REFRESH_PRICES = "`gpuops catalog refresh` reads current prices"


def stale_prices(prices_as_of: tuple[str, bool] | None, *, policy: PolicyConfig, now: datetime) -> str | None:
    """How old the plan's price is when the policy no longer trusts it, or None: a spot observation older than
    ``spot_prices_stale_after_days``, any other price older than ``prices_stale_after_days``."""
    if prices_as_of is None:
        return None
    said, spot = prices_as_of
    try:
        observed = date.fromisoformat(said[:10])
    except ValueError:
        return f"the price's date ({said!r}) cannot be read"
    age = (now.date() - observed).days
    limit, key, what = ((policy.spot_prices_stale_after_days, "spot_prices_stale_after_days", "spot price")
                        if spot else (policy.prices_stale_after_days, "prices_stale_after_days", "price"))
    if age <= limit:
        return None
    return f"the {what} is {age} days old (observed {observed.isoformat()}; policy {key}: {limit:g})"
