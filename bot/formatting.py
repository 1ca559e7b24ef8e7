"""Words and numbers as people read them in Slack: money, hours, times in the reader's zone, the summary line."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from contract.actors import slack_user
from policy.decision import CatalogRef, Decision, Plan, Platform

PLATFORM_NAMES = {
    Platform.SAGEMAKER: "SageMaker",
    Platform.HYPERPOD: "SageMaker HyperPod",
    Platform.EKS: "EKS",
    Platform.EC2: "EC2",
}


def zone(name: str | None) -> ZoneInfo:
    """The named IANA zone, or UTC when the name is missing or unknown (Slack sometimes sends none)."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def usd(value: float | None, *, approx: bool = False) -> str:
    if value is None:
        return "unknown"
    prefix = "~" if approx else ""
    if abs(value) < 10:
        return f"{prefix}${value:,.2f}"
    return f"{prefix}${value:,.0f}"


def rate(value: float) -> str:
    """An hourly price, to the cent whatever its size: rates are compared, and $18 for $18.41 is 2% off."""
    return f"${value:,.2f}"


def hours(value: float | None) -> str:
    if value is None:
        return "unknown"
    if value < 1:
        return f"{max(1, round(value * 60))} min"
    if value < 48:
        return f"{value:.1f} h"
    return f"{value / 24:.1f} days"


def runtime_cap(value: float) -> str:
    """A job's runtime cap, a whole number of five minutes, said to the minute under two days ("1 h 15 min"): in
    tenths of an hour a 1.25 h cap read "1.2 h", shorter than the 1 h run and its 15 min start-up it holds."""
    if value >= 48:
        return hours(value)
    whole, minutes = divmod(round(value * 60), 60)
    if not whole:
        return f"{minutes} min"
    return f"{whole} h" + (f" {minutes} min" if minutes else "")


def when(moment: datetime | None, tz: ZoneInfo, *, now: datetime | None = None) -> str:
    """``Thu 18:00 PST`` within the coming week, ``Dec 14 18:00 PST`` beyond, in the reader's zone, named: a channel
    holds people in several zones, and a bare time reads as each reader's own."""
    if moment is None:
        return "unknown"
    local = moment.astimezone(tz)
    reference = (now or datetime.now(tz)).astimezone(tz)
    if abs(local - reference) < timedelta(days=6):
        return local.strftime("%a %H:%M %Z")
    return local.strftime("%b %d %H:%M %Z").replace(" 0", " ")


def stamp(moment: datetime | None, tz: ZoneInfo, *, now: datetime | None = None) -> str:
    """A Slack date token: each reader sees the moment in their own zone (``Tomorrow 10:00``); where Slack cannot
    render it (notifications, old clients), the fallback names the requester's zone, ``Thu 10:00 PST``."""
    if moment is None:
        return "unknown"
    fallback = when(moment, tz, now=now)
    return f"<!date^{int(moment.timestamp())}^{{date_short_pretty}} {{time}}|{fallback}>"


Stamp = Callable[..., str]


def day(moment: datetime, tz: ZoneInfo, *, now: datetime | None = None) -> str:
    local = moment.astimezone(tz)
    reference = (now or datetime.now(tz)).astimezone(tz)
    if abs(local - reference) < timedelta(days=6):
        return local.strftime("%a")
    return local.strftime("%b %d").replace(" 0", " ")


def mention(actor: str) -> str:
    """``<@U…>`` for a Slack actor, ``<!subteam^S…>`` for a Slack user group, an e-mail as written; the actor id
    in code otherwise."""
    user = slack_user(actor)
    if user:
        return f"<@{user}>"
    kind, _, value = actor.partition(":")
    if kind == "usergroup":
        return f"<!subteam^{value}>"
    if kind == "email":
        return value
    return f"`{actor}`"


def purchase(plan: Plan) -> str:
    return plan.purchase_model.value


def platform(plan: Plan) -> str:
    return PLATFORM_NAMES.get(plan.platform, plan.platform.value)


def configuration(plan: Plan) -> str:
    return f"{plan.instance_count}× {plan.instance_type}"


def deadline_part(decision: Decision, tz: ZoneInfo, *, now: datetime | None = None) -> str | None:
    deadline = decision.request.deadline
    if deadline is None:
        return None
    label = f"deadline {day(deadline, tz, now=now)}"
    plan = decision.plan
    if plan.deadline_met is None:
        return label
    if plan.deadline_met:
        return f"{label} ✓"
    late = -(plan.deadline_margin_hours or 0.0)
    return f"{label} ✗ late by {hours(late)}" if late > 0 else f"{label} ✗"


def summary_line(decision: Decision, tz: ZoneInfo, *, now: datetime | None = None, at: Stamp = when) -> str:
    """``4× g6e.12xlarge · spot · SageMaker · ~$310 · [starts Wed 09:00 ·] done Thu 18:00 · deadline Fri ✓``
    (``at``: ``stamp`` for a Slack date token, ``when`` for plain text)."""
    plan = decision.plan
    parts = ["DENIED by policy"] if decision.approval.denied else []  # said first: it will not run
    parts += [configuration(plan), purchase(plan), platform(plan), usd(plan.estimated_cost_usd, approx=True)]
    if decision.request.start_after is not None:  # a job that waits says so where it says when it is done
        parts.append(f"starts {at(decision.request.start_after, tz, now=now)}")
    parts.append(f"done {at(plan.estimated_finish, tz, now=now)}")
    deadline = deadline_part(decision, tz, now=now)
    if deadline:
        parts.append(deadline)
    if (budget := budget_part(decision)) is not None:
        parts.append(budget)
    return " · ".join(parts)


def budget_part(decision: Decision) -> str | None:
    """``budget $2,000 ✓``, ``budget $100 ✗ over by $9``: the estimate against the budget the request said."""
    over = decision.over_budget_usd
    if over is None:
        return None
    label = f"budget {usd(decision.request.budget_usd)}"
    return f"{label} ✓" if over == 0 else f"{label} ✗ over by {usd(over)}"


def cost_span(plan: Plan) -> str:
    """``range $270–$365``, or ``fixed`` for a cost that cannot move."""
    return "fixed" if plan.cost_fixed else f"range {usd(plan.cost_low_usd)}–{usd(plan.cost_high_usd)}"


def cost_range(plan: Plan) -> str:
    """``$270–$365``, and what its ends assume when the plan says (a spot range can span several times)."""
    span = f"{usd(plan.cost_low_usd)}–{usd(plan.cost_high_usd)}"
    return f"{span}: {plan.cost_range_basis}" if plan.cost_range_basis else span


def savings(decision: Decision) -> str | None:
    """What the plan saves against the baseline it was measured against, named; None without a named baseline."""
    naive = decision.naive_baseline
    saved = decision.savings_vs_naive_usd
    if naive is None or not saved or decision.approval.denied:  # a denied plan saves nothing
        return None
    against = f"{naive.instance_count}× {naive.instance_type} on-demand on {platform(naive)}"
    if saved < 0:
        return f"{usd(-saved, approx=True)} more than {against}"
    return f"{usd(saved, approx=True)} less than {against}"


def bullets(items: list[str], *, limit: int) -> str:
    """A bullet list that stops, saying how many were left out, before ``limit`` characters."""
    lines: list[str] = []
    used = 0
    for index, item in enumerate(items):
        line = f"• {item}"
        remaining = len(items) - index
        if used + len(line) + 40 > limit and remaining > 0 and lines:
            lines.append(f"• … and {remaining} more")
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


def change(before: Plan, after: Plan) -> str | None:
    """``+$312 (+41%), finishes 6.0 h earlier``: what a new revision changed in cost and finish; None for no change."""
    parts: list[str] = []
    delta = after.estimated_cost_usd - before.estimated_cost_usd
    if abs(delta) >= 0.5:
        share = f" ({delta / before.estimated_cost_usd:+.0%})" if before.estimated_cost_usd else ""
        parts.append(f"{'+' if delta > 0 else '−'}{usd(abs(delta))}{share}")
    moved = (after.estimated_finish - before.estimated_finish).total_seconds() / 3600
    if abs(moved) >= 1 / 60:
        parts.append(f"finishes {hours(abs(moved))} {'later' if moved > 0 else 'earlier'}")
    if not parts:
        return None
    return ", ".join(parts)


_DEFAULTED = re.compile(r"^(?P<what>[a-z][a-z ]*): (?P<value>.+) assumed(?: \((?P<why>[^)]*)\))?$")


def split_assumptions(assumptions: list[str]) -> tuple[list[str], list[str]]:
    """(what moved the decision, defaults): ``stage: experimental assumed`` is a default taken because nothing was
    said, collapsed to ``stage experimental``; a reading of the text or a price estimate is shown whole."""
    moved: list[str] = []
    defaults: list[str] = []
    for text in assumptions:
        match = _DEFAULTED.match(text)
        if match:
            defaults.append(f"{match['what']} {match['value']}")
        else:
            moved.append(text)
    return moved, defaults


_SOURCE_LINK = re.compile(r"\s*\(docs/sources\.md#(?P<anchor>[a-z0-9-]+)\)")
_PAGE = re.compile(r"docs/sources\.md")


def source(text: str, sources_url: str = "") -> str:
    """A trace step's source as a person reads it: named rules, each linked to its entry on the Sources page when
    its address is known (``GPUOPS_SOURCES_URL``); never a repository path. ``text`` is mrkdwn-escaped already."""

    def link(match: re.Match[str]) -> str:
        return f" (<{sources_url}#{match['anchor']}|Sources>)" if sources_url else ""

    return _PAGE.sub("the Sources page", _SOURCE_LINK.sub(link, text))


def catalog_name(catalog: CatalogRef) -> str:
    """The price catalog by name (``skypilot-catalog``), without the path of the file inside it."""
    return catalog.source.split(" ", 1)[0] or "price catalog"


def short(text: str) -> str:
    """The first clause of a long explanation: up to its first parenthesis or semicolon after what it quotes
    ("read 'before Thursday standup (10am)' as …" keeps the quote whole)."""
    quoted = text.find("' as ", 6) if text.startswith("read '") else -1
    for mark in (" (", "; "):
        at = text.find(mark, max(quoted, 0))
        if at > 0:
            text = text[:at]
    return text


# "read 'support-bot' as what the model is for: it describes the work and does not change the plan"
_UNCHANGED = re.compile(r"^read '(?P<phrase>.+?)' as .*\bdoes not change the plan\.?$")


def split_unchanged(readings: list[str]) -> tuple[list[str], list[str]]:
    """(readings that bear on the plan, the phrases read that do not change it): the second are shown as one line
    of quotes, so what moved the decision reads first."""
    kept: list[str] = []
    phrases: list[str] = []
    for text in readings:
        match = _UNCHANGED.match(text)
        if match:
            phrases.append(match["phrase"])
        else:
            kept.append(text)
    return kept, phrases
