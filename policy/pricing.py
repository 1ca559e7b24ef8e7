"""Hourly rates per purchase model and platform, each with the basis a person can check against the catalog."""

from __future__ import annotations

from dataclasses import dataclass

from policy.catalog import RegionPrice, SageMakerPremium, sagemaker_price
from policy.decision import Platform, PurchaseModel

__all__ = ["hourly_rate", "MANAGED", "Rate"]

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


def _spot_rate(price: RegionPrice, *, on_demand: float, managed: bool, estimated: bool) -> Rate | None:
    if price.spot_usd is None:
        return None
    # Managed spot keeps the managed/EC2 price ratio: the discount applies to the ml.* rate.
    ratio = on_demand / price.on_demand_usd if managed else 1.0
    low = price.spot_min_usd if price.spot_min_usd is not None else price.spot_usd
    high = price.spot_max_usd if price.spot_max_usd is not None else price.spot_usd
    basis = (f"EC2 spot {price.spot_usd:g} $/h in {price.region} (median of {price.spot_zones} AZ observation(s) "
             f"{low:g}-{high:g}, observed {price.spot_observed})")
    if managed:
        basis += f" × {ratio:.4f} SageMaker/EC2 on-demand ratio"
    return Rate(round(price.spot_usd * ratio, 4), round(low * ratio, 4), round(high * ratio, 4), basis, estimated)
