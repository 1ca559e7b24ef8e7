"""The most a budget pays for: the tokens of "a 7B LoRA on as many tokens as fit in $200", the model's size of "the
biggest model we can pretrain on 20B tokens for $30k".

A plan's cost grows with its tokens and its model's size (the training hours do; start-up and a data move do not),
and the cheapest configuration may change as the run grows, so the count is searched, not worked out from one plan:
powers of ten first, then halving the gap between the last that fits and the first that does not (in log space),
each step a whole plan. The count found is rounded down to two significant figures, as a person would ask for it.

See docs/design.md §The request.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from policy.decision import Plan

__all__ = ["FEWEST_PARAMS", "FEWEST_TOKENS", "fits", "MOST_PARAMS", "most_that_fits", "MOST_TOKENS"]

FEWEST_TOKENS = 10**6  # below this no run is worth planning by its budget
MOST_TOKENS = 10**14  # far beyond any budget gpuops approves
FEWEST_PARAMS = 10**7  # a model smaller than this is not what anyone asks a GPU budget about
MOST_PARAMS = 10**13  # beyond every model the catalog's largest configurations hold
_HALVINGS = 8  # the gap between two powers of ten, halved this often (in log space): within 1% of the most


def fits(plan: Plan | None, *, budget_usd: float | None) -> bool:
    """Whether ``plan`` (None: it cannot be planned) costs at most ``budget_usd`` (when there is one) and meets any
    deadline."""
    return (plan is not None and (budget_usd is None or plan.estimated_cost_usd <= budget_usd)
            and plan.deadline_met is not False)


def most_that_fits(plan_for: Callable[[int], Plan | None], *, budget_usd: float | None, fewest: int,
                   most: int) -> int | None:
    """The largest count (of tokens, or of the model's parameters) from ``fewest`` to ``most`` whose plan
    (``plan_for``, None when it cannot be planned, as when no hardware holds it) costs at most ``budget_usd`` (when
    there is one) and meets any deadline, rounded down to two significant figures; None when not even ``fewest``
    does."""
    def fits_at(count: int) -> bool:
        return fits(plan_for(count), budget_usd=budget_usd)

    if not fits_at(fewest):
        return None
    low = fewest
    while low * 10 <= most and fits_at(low * 10):
        low *= 10
    if low * 10 > most:
        return low
    lo, hi = math.log10(low), math.log10(low) + 1.0
    for _ in range(_HALVINGS):
        mid = (lo + hi) / 2
        if fits_at(round(10**mid)):
            lo = mid
        else:
            hi = mid
    found = _two_figures(round(10**lo))
    # the search stops within 1% of the most: a count of two figures just above it may fit too
    while (higher := found + _step(found)) < 10**hi and fits_at(higher):
        found = higher
    return found


def _step(count: int) -> int:
    """The step of the second significant figure of ``count`` (2,700,000,000 → 100,000,000)."""
    step: int = 10 ** max(0, len(str(count)) - 2)
    return step


def _two_figures(count: int) -> int:
    """``count`` rounded down to two significant figures (2,734,567,890 → 2,700,000,000)."""
    return count // _step(count) * _step(count)
