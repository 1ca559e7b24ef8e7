"""The spend chart: 14 days of daily spend as bars with the budget's daily pace as a line, as a PNG.

Uses matplotlib's object API on the Agg canvas (no pyplot): no display, no global figure state shared between the
threads that render digests at the same time.
"""

from __future__ import annotations

import calendar
import io
from datetime import date, datetime, timedelta

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from policy.spend import SpendSnapshot

DAYS = 14
UNDER = "#2f7ed8"
OVER = "#e4572e"
PACE = "#333333"


def money_tick(value: float, _pos: object = None) -> str:
    if abs(value) >= 1000:
        return f"${value / 1000:,.1f}k".replace(".0k", "k")
    return f"${value:,.0f}"


def daily_pace(budget: float | None, day: date) -> float | None:
    """The budget spread evenly over the days of ``day``'s month."""
    if not budget:
        return None
    return budget / calendar.monthrange(day.year, day.month)[1]


def window(spend: SpendSnapshot, *, now: datetime) -> list[tuple[date, float]]:
    """The 14 days ending yesterday, a missing day as 0 (Cost Explorer omits days with no cost)."""
    known = {date.fromisoformat(d.day): d.usd for d in spend.daily}
    last = now.date() - timedelta(days=1)
    return [(last - timedelta(days=DAYS - 1 - i), known.get(last - timedelta(days=DAYS - 1 - i), 0.0))
            for i in range(DAYS)]


def render_spend_chart(spend: SpendSnapshot, *, now: datetime) -> bytes:
    """PNG bytes of the chart for ``spend``; readable at Slack's preview width (~600 px)."""
    days = window(spend, now=now)
    paces = [daily_pace(spend.budget_usd, d) for d, _ in days]
    fig = Figure(figsize=(8, 4.2), dpi=150, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    xs = list(range(len(days)))
    colors = [OVER if p is not None and usd > p else UNDER for (_, usd), p in zip(days, paces, strict=True)]
    ax.bar(xs, [usd for _, usd in days], color=colors, width=0.75, label="Daily spend", zorder=2)
    if any(p is not None for p in paces):
        ax.step(xs, [p or 0.0 for p in paces], where="mid", color=PACE, linestyle="--", linewidth=2,
                label=f"Budget pace ({money_tick(paces[-1] or 0.0)}/day)", zorder=3)
    ax.set_xticks(xs[::2] if len(xs) > 7 else xs)
    ax.set_xticklabels([days[i][0].strftime("%b %d").replace(" 0", " ") for i in ax.get_xticks()], fontsize=10)
    ax.yaxis.set_major_formatter(FuncFormatter(money_tick))
    ax.tick_params(axis="y", labelsize=10)
    ax.set_ylabel("Spend per day (USD, $)", fontsize=11)
    ax.set_xlabel("Day (UTC)", fontsize=11)
    ax.set_ylim(bottom=0)
    ax.grid(axis="y", alpha=0.3, zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_title(_title(spend), fontsize=13, loc="left", fontweight="bold")
    ax.legend(loc="upper left", fontsize=10, frameon=False)
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def _title(spend: SpendSnapshot) -> str:
    team = spend.team or "team"
    title = f"{team}: daily spend, last {DAYS} days"
    if spend.month_to_date_usd is not None and spend.budget_usd:
        share = spend.month_to_date_usd / spend.budget_usd
        mtd, budget = money_tick(spend.month_to_date_usd), money_tick(spend.budget_usd)
        title += f"\n{mtd} month to date of {budget} ({share:.0%})"
    return title
