"""Which purchase models a job may use (docs/design.md §Purchase model)."""

from __future__ import annotations

from policy import rules
from policy.decision import PurchaseModel
from policy.request import Stage, Tolerance

__all__ = ["MULTI_NODE_RULE_SOURCE", "ON_DEMAND_ONLY", "purchase_models", "SPOT_AND_ON_DEMAND", "SPOT_RULE_SOURCE"]

SPOT_RULE_SOURCE = rules.SPOT_BY_STAGE
MULTI_NODE_RULE_SOURCE = rules.SPOT_SINGLE_NODE

SPOT_AND_ON_DEMAND = (PurchaseModel.SPOT, PurchaseModel.ON_DEMAND)
ON_DEMAND_ONLY = (PurchaseModel.ON_DEMAND,)


def purchase_models(
    *, stage: Stage, tolerance: Tolerance, has_deadline: bool, instances: int, multi_node_spot: bool = False
) -> tuple[tuple[PurchaseModel, ...], str, str]:
    """(allowed purchase models, why, source) for a job of this many instances.

    ``multi_node_spot``: the team opted in, or the request said spot is fine; otherwise a synchronous job across
    several instances stays on on-demand (one interruption stops every node)."""
    if tolerance is Tolerance.LOW:
        return ON_DEMAND_ONLY, "interruption tolerance is low", SPOT_RULE_SOURCE
    if stage is Stage.PRODUCTION and has_deadline:
        return ON_DEMAND_ONLY, "production work with a hard deadline never runs on spot", SPOT_RULE_SOURCE
    if stage is Stage.PRODUCTION and instances > 1:
        return ON_DEMAND_ONLY, "multi-node synchronous production training never runs on spot", MULTI_NODE_RULE_SOURCE
    if instances > 1 and not multi_node_spot:
        return (ON_DEMAND_ONLY, "multi-node synchronous training stays on on-demand unless the team opts in "
                "(policy: teams.<team>.multi_node_spot) or the request says spot is fine", MULTI_NODE_RULE_SOURCE)
    if instances > 1:
        return SPOT_AND_ON_DEMAND, "experimental multi-node spot allowed (with a warning)", MULTI_NODE_RULE_SOURCE
    return SPOT_AND_ON_DEMAND, "interruption tolerance is high: spot with checkpointing", SPOT_RULE_SOURCE
