"""The published rules the decision tree follows, by name: what a trace step cites as its ``source``.

Each names the rule and points at the section of docs/sources.md that gives its published reference by title, so a
person reading "Why?" can follow it. Formulas and policy-file keys are cited where they are used.
"""

from __future__ import annotations

__all__ = [
    "CAPACITY",
    "COST_PER_RUN",
    "EKS_ABOVE_SPEND",
    "SAVINGS_PLAN_BASELINE",
    "SCALING_TABLE",
    "SOURCES_PAGE",
    "SPOT_BY_STAGE",
    "SPOT_SINGLE_NODE",
    "STAGE_FIRST",
]

SOURCES_PAGE = "docs/sources.md"


def _rule(name: str, anchor: str) -> str:
    return f"rule: {name} ({SOURCES_PAGE}#{anchor})"


STAGE_FIRST = _rule("experimental or production is the first question", "stage-first")
SPOT_BY_STAGE = _rule("spot for experiments, on-demand for production with hard deadlines", "spot-by-stage")
SPOT_SINGLE_NODE = _rule("spot only for single-node jobs or sweeps", "spot-single-node")
EKS_ABOVE_SPEND = _rule("self-managed EKS pays off above $100K a month of training spend", "eks-above-spend")
COST_PER_RUN = _rule("compare the cost of the whole run, not the hourly rate", "cost-per-run")
CAPACITY = _rule("a plan must be able to start: quotas, spot capacity and reserved capacity are checked", "capacity")
SCALING_TABLE = f"the 4→32 GPU strong-scaling table of a 1.5B model ({SOURCES_PAGE}#scaling-table)"
SAVINGS_PLAN_BASELINE = _rule("cover about 90% of the three-month baseline with a Savings Plan",
                              "savings-plan-baseline")
