"""Hourly rates per purchase model and platform, each with the basis a person can check against the catalog."""

from __future__ import annotations

from dataclasses import dataclass

from policy.catalog import RegionPrice, SageMakerPremium, sagemaker_price
from policy.decision import Platform, PurchaseModel

__all__ = [
    "hourly_rate",
    "MANAGED",
    "Rate",
    "RELIABLE_SPOT_ZONES",
    "THIN_POOL_TRUST",
]

MANAGED = (Platform.SAGEMAKER, Platform.HYPERPOD)


@dataclass(frozen=True, slots=True)
class Rate:
    """Price of one instance-hour, the range observed for it and where it comes from."""

    usd: float
    low_usd: float
    high_usd: float
    basis: str
    estimated_premium: bool  # the managed price is EC2 + the catalog premium, not a published ml.* price


def hourly_rate(
    price: RegionPrice, *, purchase: PurchaseModel, platform: Platform, premium: SageMakerPremium
) -> Rate | None:
    """The rate for this purchase model on this platform, or None when the catalog has no such price (the catalog
    never prices reserved capacity: offerings do)."""
    if platform in MANAGED:
        on_demand, od_basis = sagemaker_price(price, premium)
        estimated = price.sagemaker_usd is None
    else:
        on_demand, estimated = price.on_demand_usd, False
        od_basis = f"EC2 on-demand {price.on_demand_usd:g} $/h in {price.region} ({price.source}, {price.as_of})"
    if purchase is PurchaseModel.ON_DEMAND:
        return Rate(on_demand, on_demand, on_demand, od_basis, estimated)
    if purchase is PurchaseModel.CAPACITY_BLOCK:
        return None  # reserved capacity is priced only from a real offering (policy.capacity_rank)
    return _spot_rate(price, on_demand=on_demand, managed=platform in MANAGED, estimated=estimated)


# A spot price seen in fewer zones than this is a thin pool: it is trusted only halfway to on-demand.
RELIABLE_SPOT_ZONES = 2
THIN_POOL_TRUST = 0.5


def _spot_rate(price: RegionPrice, *, on_demand: float, managed: bool, estimated: bool) -> Rate | None:
    if price.spot_usd is None:
        return None
    # Managed spot keeps the managed/EC2 price ratio: the discount applies to the ml.* rate.
    ratio = on_demand / price.on_demand_usd if managed else 1.0
    low = price.spot_min_usd if price.spot_min_usd is not None else price.spot_usd
    high = price.spot_max_usd if price.spot_max_usd is not None else price.spot_usd
    observed = (f"{price.spot_zones} AZ observation(s) {low:g}-{high:g}, observed {price.spot_observed}")
    if price.spot_zones < RELIABLE_SPOT_ZONES:
        # One zone's price says little about the capacity behind it: take it halfway to on-demand.
        usd = price.spot_usd + (price.on_demand_usd - price.spot_usd) * (1.0 - THIN_POOL_TRUST)
        basis = (f"EC2 spot {usd:g} $/h in {price.region}: seen in {observed}, a thin pool, so taken halfway to "
                 f"on-demand {price.on_demand_usd:g}")
        high = max(high, usd)
    elif managed:
        usd = price.spot_usd  # SageMaker picks the zone: the region's median
        basis = f"EC2 spot {usd:g} $/h in {price.region} (median of {observed}; SageMaker picks the zone)"
    else:
        usd = low  # EC2 and EKS can pin the cheapest zone
        basis = f"EC2 spot {usd:g} $/h in {price.region} (cheapest zone of {observed}; the launch pins that zone)"
    if managed:
        basis += f" × {ratio:.4f} SageMaker/EC2 on-demand ratio"
    return Rate(round(usd * ratio, 4), round(low * ratio, 4), round(high * ratio, 4), basis, estimated)
