"""The spend chart: 14 days of daily spend as bars with the budget's daily pace as a line, as a PNG.

Uses matplotlib's object API on the Agg canvas (no pyplot): no display, no global figure state shared between the
threads that render digests at the same time.
"""

from __future__ import annotations

import calendar
import io
from datetime import date, datetime, timedelta
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter

from policy.spend import SpendSnapshot

DAYS = 14
UNDER = "#2f7ed8"
OVER = "#e4572e"
PACE = "#333333"


def money_tick(value: float, _pos: object = None) -> str:
    """``$750``, ``$1.25k``, ``$4k``: exact enough that neighbouring ticks never read the same."""
    if value and abs(value) < 10:
        return f"${value:,.2f}"
    if abs(value) >= 1000:
        return "$" + f"{value / 1000:,.2f}".rstrip("0").rstrip(".") + "k"
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
    values = [usd for _, usd in days]
    colors = [OVER if p is not None and usd > p else UNDER for usd, p in zip(values, paces, strict=True)]
    ax.bar(xs, values, color=colors, width=0.75, zorder=2)
    handles: list[Any] = [Patch(color=UNDER, label="Daily spend")]
    if OVER in colors:
        handles.append(Patch(color=OVER, label="Over budget pace"))
    if all(p is not None for p in paces):
        # A step across whole days: the pace changes only where a month with a different length begins.
        ax.stairs([p or 0.0 for p in paces], [x - 0.5 for x in [*xs, len(xs)]], baseline=None, color=PACE,
                  linestyle="--", linewidth=2, zorder=3)
        handles.append(Line2D([], [], color=PACE, linestyle="--", linewidth=2,
                              label=f"Budget pace ({_dollars(paces[-1] or 0.0)}/day)"))
    if spend.daily:
        _label_last_bar(ax, xs[-1], values[-1])
    else:
        why = (spend.reason or spend.status.value).replace("$", r"\$")
        ax.text(0.5, 0.5, f"No daily spend data ({why})", transform=ax.transAxes,
                ha="center", va="center", fontsize=12, color="#555555")
        ax.set_yticks([])
    ax.set_xticks(xs[::2])
    ax.set_xticklabels([days[i][0].strftime("%b %d").replace(" 0", " ") for i in xs[::2]], fontsize=10)
    ax.yaxis.set_major_formatter(FuncFormatter(money_tick))
    ax.tick_params(axis="y", labelsize=10)
    ax.set_ylabel("Spend per day ($)", fontsize=11)
    ax.set_xlabel("Day (UTC)", fontsize=11)
    ax.set_ylim(0, max([*values, *(p or 0.0 for p in paces), 1.0]) * 1.18)
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.grid(axis="y", alpha=0.3, zorder=0)
    ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(f"{spend.team or 'team'}: daily GPU spend, last {DAYS} days", x=0.02, ha="left",
                 fontsize=14, fontweight="bold")
    ax.set_title(_subtitle(spend), loc="left", fontsize=11, color="#555555")
    ax.legend(handles=handles, loc="upper left", fontsize=10, frameon=False, ncols=3)
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def _dollars(value: float) -> str:
    """A money figure for chart text; ``$`` is escaped because matplotlib reads a pair of them as math."""
    return money_tick(value).replace("$", r"\$")


def _label_last_bar(ax: Any, x: int, value: float) -> None:
    """Yesterday's figure on its bar: the number a reader looks for first."""
    ax.annotate(rf"\${value:,.0f}", (x, value), xytext=(0, 4), textcoords="offset points", ha="center",
                fontsize=10, fontweight="bold")


def _subtitle(spend: SpendSnapshot) -> str:
    if spend.month_to_date_usd is None:
        return "Month to date: spend unavailable"
    text = f"{_dollars(spend.month_to_date_usd)} month to date"
    if spend.budget_usd:
        text += f" of {_dollars(spend.budget_usd)} budget ({spend.month_to_date_usd / spend.budget_usd:.0%})"
    if spend.projected_month_usd is not None:
        text += f" · month forecast {_dollars(spend.projected_month_usd)}"
    return text
