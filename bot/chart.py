"""The spend chart: the month's burn-up (cumulative spend against the budget, with the forecast to month end) over
the last 14 days of daily spend, as a PNG.

Days are the spend source's days (Cost Explorer bills by UTC day); which day is "yesterday" and which month is
shown follow the channel's time zone. One verdict (``burn_up(...).over_budget``) colours the chart and words the
digest, so a red line never sits beside "forecast within budget".

Uses matplotlib's object API on the Agg canvas (no pyplot): no display, no global figure state shared between the
threads that render digests at the same time.
"""

from __future__ import annotations

import calendar
import io
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from bot.formatting import zone
from policy.spend import SpendSnapshot

DAYS = 14
WITHIN = "#2f7ed8"
OVER = "#d62728"
BUDGET = "#333333"
DAILY = "#9aa5b1"
YESTERDAY = "#4a5563"


@dataclass(frozen=True)
class BurnUp:
    """The month's cumulative spend day by day, the budget, and where the forecast lands at month end.

    ``actual`` holds (day of the month, spent by the end of that day) from yesterday back as far as the daily
    series reaches, ending at the month-to-date figure itself; day 0 is the start of the month."""

    month_days: list[date]  # every day of the month shown
    actual: list[tuple[int, float]]
    budget_usd: float | None
    projected_usd: float | None  # month to date + the forecast for the rest of the month
    source_month: bool = True  # the spend source's month-to-date and drivers are for this month

    @property
    def known(self) -> bool:
        """Whether the month's spend so far is known (False: unavailable, or another month's figures)."""
        return bool(self.actual)

    @property
    def to_date_usd(self) -> float:
        return self.actual[-1][1] if self.actual else 0.0

    @property
    def over_budget(self) -> bool:
        """The one verdict: spent or forecast beyond the budget."""
        if self.budget_usd is None:
            return False
        return max(self.to_date_usd, self.projected_usd or 0.0) > self.budget_usd

    def pace_usd(self, day: int) -> float | None:
        """Where an even spread of the budget stands at the end of day ``day`` of the month."""
        if self.budget_usd is None:
            return None
        return self.budget_usd * day / len(self.month_days)


def billing_today(now: datetime, tz_name: str | None) -> date:
    """The day the digest calls today: the channel's, but never past UTC's. The spend source's days are UTC billing
    days, so east of UTC the channel's yesterday is not a complete billing day yet in its morning."""
    return min(now.astimezone(zone(tz_name)).date(), now.astimezone(UTC).date())


def burn_up(spend: SpendSnapshot, *, today: date) -> BurnUp:
    """The burn-up of ``today``'s month up to the end of yesterday.

    The line ends at the month-to-date figure (so chart and text agree) and walks back through the daily series,
    a day the series covers but omits counting as 0 (Cost Explorer leaves out days without cost); before the series
    begins the line stops rather than guess."""
    first = today.replace(day=1)
    month_days = [first + timedelta(days=i) for i in range(calendar.monthrange(today.year, today.month)[1])]
    known = {date.fromisoformat(d.day): d.usd for d in spend.daily}
    same_month = spend.as_of is None or spend.as_of.astimezone(UTC).date().replace(day=1) == first
    total, projected = spend.month_to_date_usd, spend.projected_month_usd
    if not same_month:  # the source's figures are for another month: only its days speak for this one
        covered = bool(known) and min(known) <= first
        total = sum(usd for d, usd in known.items() if first <= d < today) if covered else None
        projected = None
    if total is None:
        return BurnUp(month_days=month_days, actual=[], budget_usd=spend.budget_usd or None, projected_usd=None)
    points = [(today.day - 1, total)]
    if known:
        running, day = total, today - timedelta(days=1)
        while day >= max(first, min(known)):
            running -= known.get(day, 0.0)
            points.append((day.day - 1, max(0.0, running)))
            day -= timedelta(days=1)
    return BurnUp(month_days=month_days, actual=sorted(points), budget_usd=spend.budget_usd or None,
                  projected_usd=projected, source_month=same_month)


def money_tick(value: float, _pos: object = None) -> str:
    """``$750``, ``$1.25k``, ``$4k``: exact enough that neighbouring ticks never read the same."""
    if value and abs(value) < 10:
        return f"${value:,.2f}"
    if abs(value) >= 1000:
        return "$" + f"{value / 1000:,.2f}".rstrip("0").rstrip(".") + "k"
    return f"${value:,.0f}"


def window(spend: SpendSnapshot, *, today: date) -> list[tuple[date, float]]:
    """The 14 days ending yesterday, a missing day as 0 (Cost Explorer omits days with no cost)."""
    known = {date.fromisoformat(d.day): d.usd for d in spend.daily}
    last = today - timedelta(days=1)
    days = [last - timedelta(days=DAYS - 1 - i) for i in range(DAYS)]
    return [(d, known.get(d, 0.0)) for d in days]


def render_spend_chart(spend: SpendSnapshot, *, now: datetime, tz_name: str | None = None) -> bytes:
    """PNG bytes of the burn-up over the daily bars as of ``now`` in ``tz_name`` (default UTC); readable at
    Slack's preview width (~600 px)."""
    today = billing_today(now, tz_name)
    zone_label = tz_name or "UTC"
    fig = Figure(figsize=(8, 5.6), dpi=150, layout="constrained")
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1, height_ratios=[2.3, 1])
    curve = burn_up(spend, today=today)
    _draw_burn_up(top, curve, today=today)
    _draw_daily(bottom, window(spend, today=today), zone_label=zone_label)
    fig.suptitle(f"{spend.team or 'team'}: AWS spend against the budget, {today:%B %Y}", x=0.02, ha="left", fontsize=14,
                 fontweight="bold")
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def _draw_burn_up(ax: Any, curve: BurnUp, *, today: date) -> None:
    colour = OVER if curve.over_budget else WITHIN
    last_day = len(curve.month_days)
    now_x = today.day - 1  # the end of yesterday
    if not curve.known:
        ax.text(0.5, 0.5, f"No month-to-date figure for {today:%B} from the spend source", transform=ax.transAxes,
                ha="center", va="center", fontsize=12, color="#555555")
    elif len(curve.actual) > 1 or curve.to_date_usd:
        ax.plot([x for x, _ in curve.actual], [y for _, y in curve.actual], color=colour, linewidth=2.5,
                marker="o" if len(curve.actual) == 1 else None, label="Spent (cumulative)", zorder=3)
        ax.annotate(_dollars(curve.to_date_usd), (now_x, curve.to_date_usd), xytext=(-4, 6),
                    textcoords="offset points", ha="right", fontsize=10, fontweight="bold", color=colour)
    if curve.projected_usd is not None:
        ax.plot([now_x, last_day], [curve.to_date_usd, curve.projected_usd], color=colour, linestyle=":",
                linewidth=2.2, label=f"Forecast to month end ({_dollars(curve.projected_usd)})", zorder=3)
    if curve.budget_usd is not None:
        ax.axhline(curve.budget_usd, color=BUDGET, linestyle="--", linewidth=1.6,
                   label=f"Budget ({_dollars(curve.budget_usd)})", zorder=2)
        ax.plot([0, last_day], [0, curve.budget_usd], color=BUDGET, linewidth=0.9, alpha=0.35,
                label="Even pace", zorder=1)
    top = max([curve.budget_usd or 0.0, curve.projected_usd or 0.0, curve.to_date_usd, 1.0])
    ax.set_ylim(0, top * 1.45)  # a band above the budget line for the legend
    ax.set_xlim(0, last_day)
    ticks = [d for d in range(1, last_day + 1) if d == 1 or d % 5 == 0]
    ax.set_xticks(ticks)
    ax.set_xticklabels([f"{today:%b} {d}" for d in ticks], fontsize=9)
    ax.yaxis.set_major_formatter(FuncFormatter(money_tick))
    ax.set_ylabel("Spent this month ($)", fontsize=11)
    ax.grid(axis="y", alpha=0.3, zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_title(_verdict(curve), loc="left", fontsize=11, color=colour if curve.budget_usd else "#555555")
    ax.legend(loc="upper left", fontsize=9, frameon=False, ncols=2)


def _draw_daily(ax: Any, days: list[tuple[date, float]], *, zone_label: str) -> None:
    xs = list(range(len(days)))
    values = [usd for _, usd in days]
    colours = [DAILY] * (len(days) - 1) + [YESTERDAY]
    ax.bar(xs, values, color=colours, width=0.75, zorder=2)
    if any(values):
        ax.annotate(_dollars(values[-1]), (xs[-1], values[-1]), xytext=(0, 3), textcoords="offset points",
                    ha="center", fontsize=9, fontweight="bold")
    ax.set_xticks(xs[::2])
    ax.set_xticklabels([days[i][0].strftime("%b %d").replace(" 0", " ") for i in xs[::2]], fontsize=9)
    ax.yaxis.set_major_formatter(FuncFormatter(money_tick))
    ax.tick_params(axis="y", labelsize=9)
    ax.set_ylim(0, max([*values, 1.0]) * 1.25)
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.set_ylabel("Per day ($)", fontsize=10)
    ax.set_title(f"Daily spend, last {DAYS} days (yesterday in {zone_label} darker)", loc="left", fontsize=10,
                 color="#555555")
    ax.grid(axis="y", alpha=0.3, zorder=0)
    ax.spines[["top", "right"]].set_visible(False)


def _verdict(curve: BurnUp) -> str:
    if not curve.known:
        return "Month to date unknown"
    spent = f"{_dollars(curve.to_date_usd)} spent"
    if curve.budget_usd is None:
        return f"{spent}; no budget set"
    if curve.over_budget:
        over = max(curve.projected_usd or 0.0, curve.to_date_usd) - curve.budget_usd
        return f"{spent}: {'forecast ' if curve.projected_usd is not None else ''}over budget by {_dollars(over)}"
    if curve.projected_usd is None:
        return f"{spent} of {_dollars(curve.budget_usd)}; no forecast"
    return f"{spent}: forecast within budget by {_dollars(curve.budget_usd - curve.projected_usd)}"


def _dollars(value: float) -> str:
    """A money figure for chart text; ``$`` is escaped because matplotlib reads a pair of them as math."""
    return money_tick(value).replace("$", r"\$")
