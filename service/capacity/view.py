"""The capacity view of one plan, read from AWS and cached briefly (docs/design.md §Capacity).

``AwsCapacity.view_for`` asks only what a decision needs: the quotas of the regions its plan and alternatives run
in, the spot placement scores of its spot configurations, and reserved-capacity offerings for a long multi-node job
on the families they are sold for. A part that cannot be read stays out of the view, so the plan says it is
unknown; without credentials the whole view is unknown. Neither is ever taken as "fits".
"""

from __future__ import annotations

import functools
import logging
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar

from pydantic import TypeAdapter

from contract.errors import UpstreamError
from policy.capacity import (
    CapacityOffering,
    CapacityView,
    PlacementScore,
    QuotaFigure,
    QuotaKey,
    Reservation,
    quota_for,
)
from policy.catalog import Catalog
from policy.config import PolicyConfig
from policy.decision import Decision, Platform, PurchaseModel
from service.aws import capacity_blocks, quotas, spot_scores, training_plans
from service.aws.calls import UNREACHABLE
from service.aws.clients import ClientFactory
from service.cache import Cache

T = TypeVar("T")
log = logging.getLogger("gpuops.capacity")
NO_CREDENTIALS = "no AWS credentials"
# Capacity blocks: 1-14 days in whole days, then whole weeks up to 182 days; bookable up to 8 weeks ahead.
MAX_BLOCK_DAYS = 182
BOOKING_HORIZON = timedelta(weeks=8)
MAX_BLOCK_INSTANCES = 64
DOWN_KEY = "capacity:down"
DOWN_SECONDS = 60.0
FAILED_SECONDS = 60.0  # a figure AWS refused to give is not asked for again within this

_FIGURES = TypeAdapter(list[QuotaFigure])
_SAGEMAKER_QUOTA = re.compile(r"ml\.(?P<type>\S+) for (?P<use>spot training job|training job|cluster) usage")
_OFFERINGS = TypeAdapter(list[CapacityOffering])


class CapacityProvider(Protocol):
    @property
    def blocks(self) -> bool:
        """Whether reading may wait on the network (an async caller then reads in a worker thread)."""
        ...

    def upfront(self) -> CapacityView | None:
        """The view every plan gets when it does not depend on the plan (nothing can be read), so that one decision
        suffices; None when the view is read for each plan's choice."""
        ...

    def view_for(self, decision: Decision, *, now: datetime, known: CapacityView | None = None) -> CapacityView:
        """The view ``decision`` needs, adding to ``known`` (an earlier round's view)."""
        ...

    def view_of(self, *, instance_type: str, count: int, regions: list[str], now: datetime) -> CapacityView:
        """What the account has for ``count`` × ``instance_type``: quotas and usage per region, spot scores."""
        ...


@dataclass(frozen=True)
class UnknownCapacity:
    """No way to read the account: every plan says its capacity is unknown (and is never auto-approved)."""

    reason: str = NO_CREDENTIALS
    blocks = False  # nothing is read

    def upfront(self) -> CapacityView:
        return CapacityView(known=False, reason=self.reason)

    def view_for(self, decision: Decision, *, now: datetime,  # noqa: ARG002 - nothing to read
                 known: CapacityView | None = None) -> CapacityView:  # noqa: ARG002
        return CapacityView(known=False, reason=self.reason)

    def view_of(self, *, instance_type: str, count: int, regions: list[str],  # noqa: ARG002 - nothing to read
                now: datetime) -> CapacityView:  # noqa: ARG002
        return CapacityView(known=False, reason=self.reason)


def block_duration_hours(hours: float) -> int | None:
    """The shortest capacity-block duration that holds ``hours``, or None beyond the longest."""
    days = max(1, math.ceil(round(hours, 6) / 24))
    if days > 14:
        days = math.ceil(days / 7) * 7
    return days * 24 if days <= MAX_BLOCK_DAYS else None


@dataclass
class AwsCapacity:
    """Reads quotas, usage, spot scores and offerings from the account, each cached for ``ttl_seconds``."""

    factory: ClientFactory
    cache: Cache
    catalog: Catalog
    policy: PolicyConfig
    ttl_seconds: float = 300.0
    blocks = True  # Service Quotas, EC2 and SageMaker calls, on a cache miss

    def upfront(self) -> None:
        return None  # each plan's choice decides what to read

    def view_for(self, decision: Decision, *, now: datetime, known: CapacityView | None = None) -> CapacityView:
        down = self.cache.get(DOWN_KEY)
        if down is not None:
            return CapacityView(known=False, reason=down.decode())
        try:
            return self._read(decision, now=now.astimezone(UTC), known=known)
        except UpstreamError as exc:
            if exc.code not in (UNREACHABLE, "aws_credentials"):
                raise
            # AWS out of reach: say so for a while rather than make every plan wait on retries again.
            reason = NO_CREDENTIALS if exc.code == "aws_credentials" else f"AWS unreachable ({exc.operation})"
            self.cache.set(DOWN_KEY, reason.encode(), ttl_seconds=DOWN_SECONDS)
            return CapacityView(known=False, reason=reason)

    def view_of(self, *, instance_type: str, count: int, regions: list[str], now: datetime) -> CapacityView:
        now = now.astimezone(UTC)
        try:
            figures, missing = self._region_quotas(regions, now=now)
            scores = self._scores(instance_type, count, now=now, regions=regions)
        except UpstreamError as exc:
            if exc.code not in (UNREACHABLE, "aws_credentials"):
                raise
            return CapacityView(known=False, reason=NO_CREDENTIALS if exc.code == "aws_credentials"
                                else f"AWS unreachable ({exc.operation})")
        return CapacityView(known=True, reason=missing, as_of=now, quotas=figures, scores=scores,
                            min_spot_score=self.policy.estimate.min_spot_placement_score)

    def _region_quotas(self, regions: Iterable[str], *, now: datetime) -> tuple[list[QuotaFigure], str]:
        figures: list[QuotaFigure] = []
        missing = ""
        for region in sorted(set(regions)):
            readers: list[tuple[str, Callable[[str], list[QuotaFigure]]]] = [
                ("sagemaker", lambda r: self._sagemaker_quotas(r, now=now)),
                ("ec2", lambda r: self._ec2_quotas(r, now=now))]
            for kind, read in readers:
                try:
                    read_now: list[QuotaFigure] = self._cached(f"capacity:quotas:{kind}:{region}", _FIGURES,
                                                               functools.partial(read, region))
                    figures.extend(read_now)
                except UpstreamError as exc:
                    if exc.code in (UNREACHABLE, "aws_credentials"):
                        raise
                    missing = f"{kind} quotas in {region}: {exc}"
                    log.warning("capacity: %s", missing)
        return figures, missing

    def _read(self, decision: Decision, *, now: datetime, known: CapacityView | None) -> CapacityView:
        plans = [decision.plan, *decision.alternatives]
        base = known if known is not None and known.known else CapacityView(known=True, as_of=now)
        figures = {f.key: f for f in base.quotas}
        read, missing = self._region_quotas([p.region for p in plans] + [decision.request.region or
                                                                         decision.plan.region], now=now)
        figures.update((f.key, f) for f in read)
        scores = {(s.instance_type, s.region): s for s in base.scores}
        for instance_type, count in sorted({(p.instance_type, p.job_instances)
                                            for p in plans if p.purchase_model is PurchaseModel.SPOT}):
            try:
                for score in self._scores(instance_type, count, now=now):
                    scores[score.instance_type, score.region] = score
            except UpstreamError as exc:
                if exc.code in (UNREACHABLE, "aws_credentials"):
                    raise
                log.warning("capacity: spot placement scores of %s: %s", instance_type, exc)
        reservations = list(base.reservations) or self._reservations(decision, now=now)
        offerings, reason = self._offerings(decision, now=now)
        if base.offerings_known and not offerings:
            offerings, reason = list(base.offerings), ""
        return CapacityView(known=True, reason=missing, as_of=now, quotas=list(figures.values()),
                            scores=list(scores.values()), offerings=offerings, offerings_known=not reason,
                            reservations=reservations,
                            offerings_reason=reason, min_spot_score=self.policy.estimate.min_spot_placement_score)

    # -- quotas --------------------------------------------------------------------------------------------------

    def _sagemaker_quotas(self, region: str, *, now: datetime) -> list[QuotaFigure]:
        """Every SageMaker GPU training and cluster quota of the region, per type, with what jobs use of it."""
        client = self.factory.client("service-quotas", region=region)
        figures: list[QuotaFigure] = []
        applied = quotas.list_quotas(client=client, service_code="sagemaker")
        used = quotas.sagemaker_training_in_use(client=self.factory.client("sagemaker", region=region))
        for name, quota in sorted(applied.items()):
            match = _SAGEMAKER_QUOTA.fullmatch(name)
            if match is None or match["type"] not in self.catalog.instances:
                continue
            key = QuotaKey(service="sagemaker", name=name, unit="instances", region=region)
            in_use = used[match["type"], match["use"] == "spot training job"] if match["use"] != "cluster" else 0
            figures.append(QuotaFigure(key=key, limit=float(quota["Value"]), in_use=float(in_use),
                                       source=quotas.SOURCE, as_of=now, code=quota.get("QuotaCode")))
        return figures

    def _ec2_quotas(self, region: str, *, now: datetime) -> list[QuotaFigure]:
        """EC2's on-demand and spot vCPU quotas of the P, G and Trn classes, with what running instances use."""
        client = self.factory.client("service-quotas", region=region)
        figures: list[QuotaFigure] = []
        vcpus = quotas.ec2_vcpus_in_use(client=self.factory.client("ec2", region=region), vcpus_of={
            name: spec.vcpus for name, spec in self.catalog.instances.items()})
        for family, cls in (("p5", "p"), ("g6", "g"), ("trn1", "trn")):
            for spot in (False, True):
                found = quota_for(instance_type="", family=family, platform="ec2",
                                  purchase="spot" if spot else "on-demand", region=region)
                assert found is not None and found.code is not None
                key, code = found, found.code
                quota = quotas.get_quota(client=client, service_code="ec2", quota_code=code)
                figures.append(QuotaFigure(key=key, limit=float(quota["Value"]), in_use=float(vcpus[cls, spot]),
                                           source=quotas.SOURCE, as_of=now, code=key.code))
        return figures

    # -- spot placement scores -----------------------------------------------------------------------------------

    def _scores(self, instance_type: str, count: int, *, now: datetime,
                regions: list[str] | None = None) -> list[PlacementScore]:
        regions = sorted(regions or self.policy.regions)

        def read() -> list[PlacementScore]:
            best = spot_scores.placement_scores(client=self.factory.client("ec2"), instance_type=instance_type,
                                                count=count, regions=regions)
            return [PlacementScore(instance_type=instance_type, count=count, region=r, score=s,
                                   source=spot_scores.SOURCE, as_of=now) for r, s in sorted(best.items())]

        return self._cached(f"capacity:spot:{instance_type}:{count}:{','.join(regions)}",
                            TypeAdapter(list[PlacementScore]), read)

    def _reservations(self, decision: Decision, *, now: datetime) -> list[Reservation]:
        """The capacity block the request names, looked up in the regions it may run in."""
        wanted = decision.request.capacity_reservation
        if wanted is None:
            return []
        for region in [decision.plan.region, *sorted(set(self.policy.regions) - {decision.plan.region})]:
            try:
                found = capacity_blocks.describe_reservations(client=self.factory.client("ec2", region=region),
                                                              region=region, ids=[wanted], now=now)
            except UpstreamError as exc:
                if exc.code in (UNREACHABLE, "aws_credentials"):
                    raise
                continue  # not in this region (InvalidCapacityReservationId.NotFound)
            # Reserved capacity is paid for by one team: another team's block is not this plan's to run in at $0.
            owned = [r for r in found if r.team is not None and r.team == decision.request.team]
            if found:
                return owned
        return []

    # -- offerings -----------------------------------------------------------------------------------------------

    def _offerings(self, decision: Decision, *, now: datetime) -> tuple[list[CapacityOffering], str]:
        """Offerings for the plan's shape when it is a long multi-node job on a family they are sold for."""
        settings = self.policy.estimate
        plan = decision.plan
        count = plan.job_instances
        spec = self.catalog.instances.get(plan.instance_type)
        if (spec is None or spec.family not in settings.capacity_block_families or count < 2
                or count > MAX_BLOCK_INSTANCES or plan.jobs > 1
                or plan.estimated_hours < settings.capacity_block_min_hours):
            return [], ""
        duration = block_duration_hours(plan.estimated_hours)
        if duration is None:
            return [], ""
        deadline = decision.request.deadline
        end = min(deadline.astimezone(UTC), now + BOOKING_HORIZON) if deadline is not None else now + BOOKING_HORIZON
        start = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
        found: list[CapacityOffering] = []
        shape = f"{plan.region}:{plan.instance_type}:{count}:{duration}:{start:%Y%m%d%H}:{end:%Y%m%d%H}"
        platforms = {p.platform for p in [plan, *decision.alternatives]}
        try:
            if platforms & {Platform.EC2, Platform.EKS, Platform.HYPERPOD}:
                found += self._cached_offerings(
                    f"capacity:blocks:{shape}",
                    _OFFERINGS, lambda: capacity_blocks.describe_offerings(
                        client=self.factory.client("ec2", region=plan.region), region=plan.region,
                        instance_type=plan.instance_type, count=count, duration_hours=duration, start=start, end=end,
                        now=now))
            if Platform.SAGEMAKER in platforms:
                found += self._cached_offerings(
                    f"capacity:plans:{shape}",
                    _OFFERINGS, lambda: training_plans.search_offerings(
                        client=self.factory.client("sagemaker", region=plan.region), region=plan.region,
                        instance_type=plan.instance_type, count=count, duration_hours=duration, start=start, end=end,
                        now=now))
        except UpstreamError as exc:
            if exc.code in (UNREACHABLE, "aws_credentials"):
                raise
            return [], f"{exc.operation} failed: {exc}"
        return found, ""

    def _cached_offerings(self, key: str, adapter: TypeAdapter[list[CapacityOffering]],
                          read: Callable[[], list[CapacityOffering]]) -> list[CapacityOffering]:
        return self._cached(key, adapter, read)

    def _cached(self, key: str, adapter: TypeAdapter[T], read: Callable[[], T]) -> T:
        """The figures under ``key``, read on a miss; a read AWS refused is remembered as refused for
        ``FAILED_SECONDS``, so the capacity rounds of one plan, and the plans soon after, do not each wait on the
        same retries again (AWS out of reach is remembered account-wide, ``DOWN_KEY``)."""
        raw = self.cache.get(key)
        if raw is not None:
            return adapter.validate_json(raw)
        failed = self.cache.get(f"{key}:failed")
        if failed is not None:
            service, operation, code, message = failed.decode().split("\n", 3)
            raise UpstreamError(message, service=service, operation=operation, code=code)
        try:
            value = read()
        except UpstreamError as exc:
            if exc.code not in (UNREACHABLE, "aws_credentials"):
                said = f"{exc.service}\n{exc.operation}\n{exc.code}\n{exc.message}"
                self.cache.set(f"{key}:failed", said.encode(), ttl_seconds=FAILED_SECONDS)
            raise
        self.cache.set(key, adapter.dump_json(value), ttl_seconds=self.ttl_seconds)
        return value
