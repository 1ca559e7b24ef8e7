"""EC2 Capacity Blocks for ML: offerings for a type, count, duration and window; buying one; reservations held."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from policy.capacity import CapacityOffering, OfferingKind, Reservation
from service.aws.calls import aws_errors

OFFERINGS_SOURCE = "EC2 DescribeCapacityBlockOfferings"
RESERVATIONS_SOURCE = "EC2 DescribeCapacityReservations"


def describe_offerings(*, client: Any, region: str, instance_type: str, count: int, duration_hours: int,
                       start: datetime, end: datetime, now: datetime) -> list[CapacityOffering]:
    """Capacity-block offerings for ``count`` × ``instance_type`` lasting ``duration_hours`` inside [start, end]."""
    found: list[CapacityOffering] = []
    with aws_errors("ec2", "DescribeCapacityBlockOfferings"):
        rows = [row for page in client.get_paginator("describe_capacity_block_offerings").paginate(
            InstanceType=instance_type, InstanceCount=count, CapacityDurationHours=duration_hours,
            StartDateRange=start, EndDateRange=end) for row in page.get("CapacityBlockOfferings", [])]
    for row in rows:
        if row.get("CurrencyCode", "USD") != "USD":
            continue  # every money figure of a plan is in USD
        found.append(CapacityOffering(
            kind=OfferingKind.CAPACITY_BLOCK, offering_id=str(row["CapacityBlockOfferingId"]),
            instance_type=str(row["InstanceType"]), count=int(row["InstanceCount"]), region=region,
            availability_zone=row.get("AvailabilityZone"), start=row["StartDate"], end=row["EndDate"],
            duration_hours=float(row["CapacityBlockDurationHours"]), upfront_usd=float(row["UpfrontFee"]),
            source=OFFERINGS_SOURCE, as_of=now))
    return found


def purchase(*, client: Any, offering_id: str, tags: dict[str, str]) -> dict[str, Any]:
    """PurchaseCapacityBlock; the capacity reservation it created (``CapacityReservationId`` ``cr-…``)."""
    with aws_errors("ec2", "PurchaseCapacityBlock"):
        answer = client.purchase_capacity_block(
            CapacityBlockOfferingId=offering_id, InstancePlatform="Linux/UNIX",
            TagSpecifications=[{"ResourceType": "capacity-reservation",
                                "Tags": [{"Key": k, "Value": v} for k, v in sorted(tags.items())]}])
    return dict(answer["CapacityReservation"])


TEAM_TAG = "gpuops:team"  # the team a reservation is for; one without it is nobody's to plan on


def describe_reservations(*, client: Any, region: str, ids: Sequence[str], now: datetime) -> list[Reservation]:
    """The account's capacity reservations with these ids (capacity blocks are reservations ``cr-…``)."""
    with aws_errors("ec2", "DescribeCapacityReservations"):
        rows = [row for page in client.get_paginator("describe_capacity_reservations").paginate(
            CapacityReservationIds=list(ids)) for row in page.get("CapacityReservations", [])]
    return [Reservation(
        reservation_id=str(row["CapacityReservationId"]), instance_type=str(row["InstanceType"]),
        count=int(row.get("TotalInstanceCount", 0)), available=int(row.get("AvailableInstanceCount", 0)),
        region=region, state=str(row.get("State", "")), start=row.get("StartDate"), end=row.get("EndDate"),
        team=next((str(t["Value"]) for t in row.get("Tags", []) if t.get("Key") == TEAM_TAG), None),
        source=RESERVATIONS_SOURCE, as_of=now) for row in rows]
