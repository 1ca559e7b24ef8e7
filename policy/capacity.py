"""Whether a plan can start: quotas, spot placement scores and reserved-capacity offerings (docs/design.md §Capacity).

Pure: the service gathers a ``CapacityView`` from AWS (or marks it unknown) and ``policy.tree.decide`` takes it as
an input, like spend. Each figure carries its source and the time it was read, and a view that could not be read is
``unknown`` — never assumed fine: planning goes on, but nothing is approved automatically on it.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ActionKind",
    "CAPACITY_BLOCK",
    "CapacityAction",
    "CapacityCheck",
    "CapacityOffering",
    "CapacityStatus",
    "CapacityView",
    "check",
    "ec2_class",
    "needed_units",
    "OfferingKind",
    "PlacementScore",
    "quota_for",
    "QuotaFigure",
    "QuotaKey",
    "Reservation",
    "SPOT",
    "SPOT_SCORE_MAX",
    "summary_line",
]

SPOT = "spot"  # PurchaseModel values (policy.decision imports this module, so not the enum itself)
CAPACITY_BLOCK = "capacity-block"
SPOT_SCORE_MAX = 10  # EC2 spot placement scores run from 1 (unlikely) to 10 (very likely)

# EC2 vCPU quotas by instance class (Service Quotas, service code "ec2"): (on-demand, spot) quota code and name.
_EC2_QUOTAS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "p": (("L-417A185B", "Running On-Demand P instances"), ("L-7212CCBC", "All P Spot Instance Requests")),
    "g": (("L-DB2E81BA", "Running On-Demand G and VT instances"),
          ("L-3819A6DF", "All G and VT Spot Instance Requests")),
    "trn": (("L-2C3B7624", "Running On-Demand Trn instances"), ("L-6B0D517C", "All Trn Spot Instance Requests")),
}


class CapacityStatus(StrEnum):
    FITS = "fits"
    SHORT = "short"  # a quota or the spot market says this option will not start
    UNKNOWN = "unknown"


class OfferingKind(StrEnum):
    CAPACITY_BLOCK = "capacity-block"  # EC2 Capacity Blocks for ML (EC2, EKS, HyperPod)
    TRAINING_PLAN = "training-plan"  # SageMaker training plan (training jobs)


class ActionKind(StrEnum):
    QUOTA_INCREASE = "quota-increase"  # Service Quotas RequestServiceQuotaIncrease
    PURCHASE_CAPACITY_BLOCK = "purchase-capacity-block"  # EC2 PurchaseCapacityBlock
    CREATE_TRAINING_PLAN = "create-training-plan"  # SageMaker CreateTrainingPlan


class CapacityAction(BaseModel):
    """Something a person may approve so that a plan can start; never done as a side effect of planning."""

    model_config = ConfigDict(frozen=True)

    kind: ActionKind
    summary: str
    region: str
    instance_type: str
    count: int
    quota_service: str | None = None
    quota_name: str | None = None
    quota_code: str | None = None
    desired_value: float | None = None
    offering_id: str | None = None
    upfront_usd: float | None = None


class QuotaKey(BaseModel):
    """Which Service Quotas quota limits an option: found by name (SageMaker) or code (EC2)."""

    model_config = ConfigDict(frozen=True)

    service: str  # Service Quotas service code: "sagemaker" or "ec2"
    name: str
    code: str | None = None
    unit: str  # "instances" or "vCPU"
    region: str


class QuotaFigure(BaseModel):
    """A quota's applied value and what is in use against it, as read from the account."""

    model_config = ConfigDict(frozen=True)

    key: QuotaKey
    limit: float
    in_use: float
    source: str
    as_of: datetime
    code: str | None = None  # the quota code the account reported (needed to request an increase)


class PlacementScore(BaseModel):
    model_config = ConfigDict(frozen=True)

    instance_type: str
    count: int
    region: str
    score: int = Field(ge=1, le=SPOT_SCORE_MAX)
    source: str
    as_of: datetime


class CapacityOffering(BaseModel):
    """A reserved-capacity offering that can be bought: a capacity block or a SageMaker training plan."""

    model_config = ConfigDict(frozen=True)

    kind: OfferingKind
    offering_id: str
    instance_type: str
    count: int
    region: str
    availability_zone: str | None = None
    start: datetime
    end: datetime
    duration_hours: float
    upfront_usd: float
    source: str
    as_of: datetime


class Reservation(BaseModel):
    """Reserved capacity the account already holds (a capacity block ``cr-…`` or a training plan)."""

    model_config = ConfigDict(frozen=True)

    reservation_id: str
    instance_type: str
    count: int
    available: int
    region: str
    state: str
    start: datetime | None = None
    end: datetime | None = None
    team: str | None = None  # the team it is for (its ``gpuops:team`` tag); None: untagged
    source: str
    as_of: datetime


class CapacityView(BaseModel):
    """What the account has, as gathered for one request; ``known`` False when it could not be read at all."""

    model_config = ConfigDict(frozen=True)

    known: bool
    reason: str = ""  # why the view (or a part of it) is unknown
    as_of: datetime | None = None
    quotas: list[QuotaFigure] = Field(default_factory=list[QuotaFigure])
    scores: list[PlacementScore] = Field(default_factory=list[PlacementScore])
    offerings: list[CapacityOffering] = Field(default_factory=list[CapacityOffering])
    offerings_known: bool = False  # whether offerings were asked for (and answered)
    offerings_reason: str = ""  # why they were not, when it matters to the plan
    reservations: list[Reservation] = Field(default_factory=list[Reservation])
    min_spot_score: int = Field(default=5, ge=1, le=SPOT_SCORE_MAX)

    def quota(self, key: QuotaKey) -> QuotaFigure | None:
        return next((q for q in self.quotas if q.key == key), None)

    def score(self, instance_type: str, region: str) -> PlacementScore | None:
        return next((s for s in self.scores if s.instance_type == instance_type and s.region == region), None)


class CapacityCheck(BaseModel):
    """One option against the account: the quota that limits it, its spot score and any offering behind it."""

    model_config = ConfigDict(frozen=True)

    status: CapacityStatus
    reasons: list[str] = Field(default_factory=list[str])
    quota_name: str | None = None
    quota_limit: float | None = None
    quota_in_use: float | None = None
    quota_needed: float | None = None
    quota_unit: str | None = None
    quota_source: str | None = None
    quota_as_of: datetime | None = None
    placement_score: int | None = None
    placement_region: str | None = None
    placement_source: str | None = None
    placement_as_of: datetime | None = None
    offering_id: str | None = None
    offering_kind: OfferingKind | None = None
    offering_upfront_usd: float | None = None
    offering_start: datetime | None = None
    offering_end: datetime | None = None
    offering_source: str | None = None
    offering_as_of: datetime | None = None

    @property
    def quota_free(self) -> float | None:
        if self.quota_limit is None or self.quota_in_use is None:
            return None
        return max(0.0, self.quota_limit - self.quota_in_use)


def ec2_class(family: str) -> str | None:
    """The EC2 vCPU quota class of an instance family: "p", "g" (G and VT), "trn", or None."""
    for prefix in ("trn", "p", "g"):
        if family.startswith(prefix):
            return prefix
    return None


def quota_for(*, instance_type: str, family: str, platform: str, purchase: str, region: str) -> QuotaKey | None:
    """The quota an option consumes, or None when none applies (reserved capacity, or a class with no GPU quota).

    ``platform`` and ``purchase`` are the values of ``policy.decision.Platform`` and ``PurchaseModel``.
    """
    if purchase == CAPACITY_BLOCK:
        return None  # runs in capacity bought for it, not against the running-instance quotas
    spot = purchase == SPOT
    if platform == "sagemaker":
        use = "spot training job usage" if spot else "training job usage"
        return QuotaKey(service="sagemaker", name=f"ml.{instance_type} for {use}", unit="instances", region=region)
    if platform == "hyperpod":
        return QuotaKey(service="sagemaker", name=f"ml.{instance_type} for cluster usage", unit="instances",
                        region=region)
    cls = ec2_class(family)
    if cls is None:
        return None
    code, name = _EC2_QUOTAS[cls][1 if spot else 0]
    return QuotaKey(service="ec2", name=name, code=code, unit="vCPU", region=region)


def needed_units(key: QuotaKey, *, count: int, vcpus: int) -> float:
    """What ``count`` instances take from ``key``: instances for SageMaker quotas, vCPUs for EC2's."""
    return float(count * vcpus) if key.unit == "vCPU" else float(count)


def check(view: CapacityView, *, instance_type: str, family: str, vcpus: int, count: int, platform: str,
          purchase: str, region: str) -> CapacityCheck:
    """One option against the view: fits, short (with why) or unknown (with why)."""
    if not view.known:
        return CapacityCheck(status=CapacityStatus.UNKNOWN, reasons=[f"capacity unknown: {view.reason}"])
    fields: dict[str, object] = {}
    reasons: list[str] = []
    statuses: list[CapacityStatus] = []
    key = quota_for(instance_type=instance_type, family=family, platform=platform, purchase=purchase, region=region)
    if key is not None:
        statuses.append(_quota(view, key, count=count, vcpus=vcpus, fields=fields, reasons=reasons))
    if purchase == SPOT:
        statuses.append(_spot(view, instance_type, region, fields=fields, reasons=reasons))
    status = (CapacityStatus.SHORT if CapacityStatus.SHORT in statuses
              else CapacityStatus.UNKNOWN if CapacityStatus.UNKNOWN in statuses else CapacityStatus.FITS)
    return CapacityCheck.model_validate({"status": status, "reasons": reasons, **fields})


def _quota(view: CapacityView, key: QuotaKey, *, count: int, vcpus: int, fields: dict[str, object],
           reasons: list[str]) -> CapacityStatus:
    needed = needed_units(key, count=count, vcpus=vcpus)
    fields.update(quota_name=key.name, quota_needed=needed, quota_unit=key.unit)
    figure = view.quota(key)
    if figure is None:
        reasons.append(f"quota {key.name!r} in {key.region}: not read")
        return CapacityStatus.UNKNOWN
    fields.update(quota_limit=figure.limit, quota_in_use=figure.in_use, quota_source=figure.source,
                  quota_as_of=figure.as_of)
    free = max(0.0, figure.limit - figure.in_use)
    if needed <= free:
        return CapacityStatus.FITS
    reasons.append(f"quota {key.name!r} in {key.region} is {figure.limit:g} {key.unit} with {figure.in_use:g} in "
                   f"use: {free:g} free, {needed:g} needed")
    return CapacityStatus.SHORT


def _spot(view: CapacityView, instance_type: str, region: str, *, fields: dict[str, object],
          reasons: list[str]) -> CapacityStatus:
    score = view.score(instance_type, region)
    if score is None:
        reasons.append(f"spot placement score for {instance_type} in {region}: not read")
        return CapacityStatus.UNKNOWN
    fields.update(placement_score=score.score, placement_region=region, placement_source=score.source,
                  placement_as_of=score.as_of)
    if score.score >= view.min_spot_score:
        return CapacityStatus.FITS
    reasons.append(f"spot placement score {score.score}/{SPOT_SCORE_MAX} for {score.count}× {instance_type} in "
                   f"{region} is below the policy's {view.min_spot_score}: spot capacity is unlikely")
    return CapacityStatus.SHORT


def summary_line(check: CapacityCheck | None, *, purchase: str, region: str) -> str:
    """One line a person reads: 'quota ok (24 of 96 vCPU free) · spot score 7/10 in us-east-2'."""
    if check is None:
        return "capacity not checked"
    if check.status is CapacityStatus.UNKNOWN and check.quota_limit is None and check.placement_score is None:
        return "capacity unknown" + (f" ({check.reasons[0].removeprefix('capacity unknown: ')})"
                                     if check.reasons else "")
    parts = [_quota_part(check)] if check.quota_name is not None else []
    if purchase == SPOT:
        parts.append(f"spot score {check.placement_score}/{SPOT_SCORE_MAX} in {region}"
                     if check.placement_score is not None else f"spot score unknown in {region}")
    if check.offering_id is not None:
        parts.append(f"{check.offering_kind} offering {check.offering_id}")
    return " · ".join(parts) or "reserved capacity"


def _quota_part(check: CapacityCheck) -> str:
    free = check.quota_free
    if free is None:
        return "quota unknown"
    if check.quota_needed is not None and check.quota_needed <= free:
        return f"quota ok ({free:g} of {check.quota_limit:g} {check.quota_unit} free)"
    return f"quota short ({free:g} of {check.quota_limit:g} {check.quota_unit} free, {check.quota_needed:g} needed)"


