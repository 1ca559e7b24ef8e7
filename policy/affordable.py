"""The most tokens a budget pays for: "what can I train for $200? a 7B LoRA on as many tokens as fit".

A plan's cost grows with its tokens (the training hours do; start-up and a data move do not), and the cheapest
configuration may change as the run grows, so the count is searched, not worked out from one plan: powers of ten
first, then halving the gap between the last that fits and the first that does not (in log space), each step a
whole plan. The count found is rounded down to two significant figures, as a person would ask for it.

See docs/design.md §The request.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from policy.decision import Plan

__all__ = ["FEWEST_TOKENS", "MOST_TOKENS", "most_tokens"]

FEWEST_TOKENS = 10**6  # below this no run is worth planning by its budget
MOST_TOKENS = 10**14  # far beyond any budget gpuops approves
_HALVINGS = 8  # the gap between two powers of ten, halved this often (in log space): within 1% of the most


def most_tokens(budget_usd: float, plan_for: Callable[[int], Plan | None]) -> int | None:
    """The most tokens whose plan (``plan_for``, None when it cannot be planned) costs at most ``budget_usd`` and
    meets any deadline, rounded down to two significant figures; None when not even ``FEWEST_TOKENS`` do."""
    def fits(tokens: int) -> bool:
        plan = plan_for(tokens)
        return plan is not None and plan.estimated_cost_usd <= budget_usd and plan.deadline_met is not False

    if not fits(FEWEST_TOKENS):
        return None
    low = FEWEST_TOKENS
    while low * 10 <= MOST_TOKENS and fits(low * 10):
        low *= 10
    if low * 10 > MOST_TOKENS:
        return low
    lo, hi = math.log10(low), math.log10(low) + 1.0
    for _ in range(_HALVINGS):
        mid = (lo + hi) / 2
        if fits(round(10**mid)):
            lo = mid
        else:
            hi = mid
    found = _two_figures(round(10**lo))
    # the search stops within 1% of the most: a count of two figures just above it may fit too
    while (higher := found + _step(found)) < 10**hi and fits(higher):
        found = higher
    return found


def _step(tokens: int) -> int:
    """The step of the second significant figure of ``tokens`` (2,700,000,000 → 100,000,000)."""
    step: int = 10 ** max(0, len(str(tokens)) - 2)
    return step


def _two_figures(tokens: int) -> int:
    """``tokens`` rounded down to two significant figures (2,734,567,890 → 2,700,000,000)."""
    return tokens // _step(tokens) * _step(tokens)
