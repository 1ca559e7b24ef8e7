"""EC2 spot placement scores: how likely a spot request of a type and count is to succeed, per region (1-10)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from service.aws.calls import aws_errors

SOURCE = "EC2 spot placement scores"


def placement_scores(*, client: Any, instance_type: str, count: int, regions: Sequence[str]) -> dict[str, int]:
    """The best score per region for ``count`` instances of ``instance_type``; a multi-node job needs them in one
    Availability Zone (cluster networking), so it is scored per zone."""
    best: dict[str, int] = {}
    with aws_errors("ec2", "GetSpotPlacementScores"):
        rows = [row for page in client.get_paginator("get_spot_placement_scores").paginate(
            InstanceTypes=[instance_type], TargetCapacity=count, TargetCapacityUnitType="units",
            SingleAvailabilityZone=count > 1, RegionNames=list(regions)) for row in page.get("SpotPlacementScores", [])]
    for row in rows:
        region, score = str(row["Region"]), int(row["Score"])
        best[region] = max(score, best.get(region, 0))
    return best
