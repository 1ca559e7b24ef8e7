"""Fresh prices from AWS: Price List ``GetProducts`` (EC2 and SageMaker) and EC2 spot price history.

``refresh_prices`` reads every (type, region) row of a base catalog and returns a new ``Catalog``: rows AWS priced
get the new figures with today's date and source; rows AWS did not price keep their old figures. Any AWS error
aborts the whole refresh so the caller keeps the previous snapshot in force.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError
from policy.catalog import Catalog, RegionPrice
from service.aws.clients import ClientFactory
from service.aws.regions import price_list_location

PRICE_LIST_SOURCE = "AWS Price List API GetProducts"
SPOT_SOURCE = "EC2 DescribeSpotPriceHistory (Linux/UNIX, latest per AZ)"


@dataclass(frozen=True)
class ObservedPrices:
    instance_type: str
    region: str
    on_demand_usd: float | None = None
    sagemaker_usd: float | None = None
    spot_by_zone: dict[str, float] = field(default_factory=dict)


def _term_match(**attributes: str) -> list[dict[str, str]]:
    return [{"Type": "TERM_MATCH", "Field": k, "Value": v} for k, v in attributes.items()]


def ec2_filters(*, instance_type: str, location: str) -> list[dict[str, str]]:
    """The EC2 Linux shared-tenancy on-demand product for one type and location."""
    return _term_match(
        instanceType=instance_type, location=location, operatingSystem="Linux", tenancy="Shared",
        preInstalledSw="NA", licenseModel="No License required", capacitystatus="Used",
    )


def _products(client: Any, *, service_code: str, filters: list[dict[str, str]]) -> Iterable[dict[str, Any]]:
    for page in client.get_paginator("get_products").paginate(ServiceCode=service_code, Filters=filters):
        for entry in page.get("PriceList", []):
            yield json.loads(entry) if isinstance(entry, str) else entry


def hourly_on_demand_usd(product: dict[str, Any]) -> float | None:
    """The per-hour USD price of a product's on-demand terms (None when it has none above zero)."""
    for term in product.get("terms", {}).get("OnDemand", {}).values():
        for dimension in term.get("priceDimensions", {}).values():
            usd = float(dimension.get("pricePerUnit", {}).get("USD", "0") or 0)
            if dimension.get("unit", "").lower().startswith("hr") and usd > 0:
                return usd
    return None


def fetch_ec2_on_demand(*, client: Any, instance_type: str, region: str) -> float | None:
    location = price_list_location(region)
    if location is None:
        return None
    for product in _products(client, service_code="AmazonEC2",
                             filters=ec2_filters(instance_type=instance_type, location=location)):
        usd = hourly_on_demand_usd(product)
        if usd is not None:
            return usd
    return None


def _is_training(product: dict[str, Any]) -> bool:
    attributes = product.get("product", {}).get("attributes", {})
    return attributes.get("component") == "Training" or "Train" in attributes.get("usagetype", "")


def fetch_sagemaker_training(*, client: Any, instance_type: str, region: str) -> float | None:
    """The ml.<type> training price per instance-hour, when the Price List publishes one."""
    location = price_list_location(region)
    if location is None:
        return None
    filters = _term_match(instanceName=f"ml.{instance_type}", location=location)
    for product in _products(client, service_code="AmazonSageMaker", filters=filters):
        usd = hourly_on_demand_usd(product) if _is_training(product) else None
        if usd is not None:
            return usd
    return None


def fetch_spot_prices(*, client: Any, instance_type: str, now: datetime) -> dict[str, float]:
    """The latest Linux spot price in each availability zone of the client's region."""
    latest: dict[str, tuple[datetime, float]] = {}
    pages = client.get_paginator("describe_spot_price_history").paginate(
        InstanceTypes=[instance_type], ProductDescriptions=["Linux/UNIX"], StartTime=now
    )
    for page in pages:
        for item in page.get("SpotPriceHistory", []):
            zone, stamp = item["AvailabilityZone"], item["Timestamp"]
            if zone not in latest or stamp > latest[zone][0]:
                latest[zone] = (stamp, float(item["SpotPrice"]))
    return {zone: price for zone, (_, price) in sorted(latest.items())}


def observe_row(*, pricing: Any, ec2: Any, instance_type: str, region: str, now: datetime) -> ObservedPrices:
    """Everything AWS says today about one type in one region (``ec2`` is a client for that region)."""
    return ObservedPrices(
        instance_type=instance_type,
        region=region,
        on_demand_usd=fetch_ec2_on_demand(client=pricing, instance_type=instance_type, region=region),
        sagemaker_usd=fetch_sagemaker_training(client=pricing, instance_type=instance_type, region=region),
        spot_by_zone=fetch_spot_prices(client=ec2, instance_type=instance_type, now=now),
    )


def apply_observation(row: RegionPrice, seen: ObservedPrices, *, day: str) -> RegionPrice:
    """``row`` with whatever AWS priced replaced; unpriced fields keep their old figures and sources."""
    update: dict[str, Any] = {}
    if seen.on_demand_usd is not None:
        update.update(on_demand_usd=seen.on_demand_usd, source=f"{PRICE_LIST_SOURCE} (AmazonEC2)", as_of=day)
    if seen.sagemaker_usd is not None:
        update.update(sagemaker_usd=seen.sagemaker_usd, sagemaker_source=f"{PRICE_LIST_SOURCE} (AmazonSageMaker) {day}")
    if seen.spot_by_zone:
        prices = list(seen.spot_by_zone.values())
        update.update(spot_usd=round(statistics.median(prices), 6), spot_min_usd=min(prices),
                      spot_max_usd=max(prices), spot_observed=day)
        if "spot_zones" in RegionPrice.model_fields:
            update["spot_zones"] = len(prices)
    return row.model_copy(update=update)


def refresh_prices(*, factory: ClientFactory, base: Catalog, now: datetime, regions: list[str] | None = None,
                   workers: int = 8) -> Catalog:
    """A new catalog whose price rows carry what AWS answers today; raises ``UpstreamError`` on any AWS error."""
    rows = [p for p in base.prices if regions is None or p.region in regions]
    # One client per service and region, shared by the pool's threads (clients are thread-safe, sessions are not).
    pricing = factory.client("pricing")
    ec2 = {region: factory.client("ec2", region=region) for region in sorted({r.region for r in rows})}
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            seen = list(pool.map(lambda r: observe_row(pricing=pricing, ec2=ec2[r.region],
                                                       instance_type=r.instance_type, region=r.region, now=now),
                                 rows))
    except (ClientError, BotoCoreError) as exc:
        raise UpstreamError(f"price refresh failed: {exc}", service="pricing", operation="refresh") from exc
    if rows and not any(s.on_demand_usd is not None for s in seen):
        raise UpstreamError("price refresh found no EC2 on-demand price at all; keeping the previous snapshot",
                            service="pricing", operation="GetProducts", code="refresh_empty")
    day = now.date().isoformat()
    refreshed = {(s.instance_type, s.region): s for s in seen}
    prices = [apply_observation(p, refreshed[(p.instance_type, p.region)], day=day)
              if (p.instance_type, p.region) in refreshed else p for p in base.prices]
    # Rebuilt rather than model_copy'd: the catalog caches its indexes on the instance.
    return Catalog.model_validate({
        **base.model_dump(),
        "prices": [p.model_dump() for p in prices],
        "snapshot": f"{day}+refresh-{now:%H%M%S}",
        "source": f"{PRICE_LIST_SOURCE} and {SPOT_SOURCE} at {now:%Y-%m-%dT%H:%M:%SZ}; rows AWS did not price "
                  f"keep snapshot {base.snapshot.split('+')[0]}",
    })
