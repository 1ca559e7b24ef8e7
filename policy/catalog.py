"""The instance catalog: accelerator specs, instance types, prices per region, MFU and the scaling curve.

All numbers are data (``policy/data/catalog.json``), each with its source and date; a field with no published
value is ``None`` and callers must cope.
"""

from __future__ import annotations

import difflib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from policy import scaling
from policy.errors import RequestError
from policy.scaling import FORMULA

__all__ = [
    "AcceleratorSpec",
    "Catalog",
    "DEFAULT_SNAPSHOT",
    "InstanceSpec",
    "load_catalog",
    "RegionPrice",
    "sagemaker_price",
    "SageMakerPremium",
    "scaling_efficiency",
    "ScalingCurve",
    "ScalingPoint",
    "Sourced",
]

DEFAULT_SNAPSHOT = "catalog.json"  # in the ``policy.data`` package


class Sourced(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    as_of: str  # ISO date


class AcceleratorSpec(Sourced):
    name: str  # "H100", "A10G", "Trainium2", ...
    vendor: str  # "nvidia" | "aws"
    memory_gib: float | None
    peak_bf16_tflops: float | None
    mfu: float | None  # model FLOPs utilisation typically reached for LLM training
    mfu_source: str | None = None
    # A model narrower than this cannot keep the accelerator's tensor cores busy: MFU falls with √(width / this).
    mfu_full_width: int | None = None
    mfu_full_width_source: str | None = None
    # Tensor cores (or NeuronCores) that compute in FP8: a run said to train in FP8 needs them.
    fp8: bool = False
    fp8_source: str | None = None


class InstanceSpec(Sourced):
    instance_type: str
    family: str  # "p5", "g6e", "trn1", ...
    accelerator: str  # key into Catalog.accelerators
    accelerator_count: int
    accelerator_memory_gib: float | None  # per accelerator
    vcpus: int
    memory_gib: float
    network_gbps: float | None = None
    efa: bool | None = None
    arch: str = "x86_64"
    # Bandwidth between instances (EFA where the size has it, else its network), Gbps per instance, and between the
    # accelerators of one instance (NVLink / NeuronLink / PCIe), GB/s per accelerator: what a job's gradient and
    # parameter exchange runs over (docs/design.md §Scaling).
    inter_node_gbps: float | None = None
    intra_node_gbyteps: float | None = None
    interconnect_source: str | None = None


class RegionPrice(Sourced):
    instance_type: str
    region: str
    on_demand_usd: float  # EC2 Linux on-demand, per instance-hour
    spot_usd: float | None = None  # one observation (median over the region's AZs)
    spot_min_usd: float | None = None
    spot_max_usd: float | None = None
    spot_observed: str | None = None  # date of the spot observation
    spot_zones: int = 0  # AZ observations behind spot_usd (zones without spot capacity excluded)
    no_spot_zones: tuple[str, ...] = ()  # AZs whose "spot" price equalled on-demand: no spot capacity seen
    interruption_band: str | None = None  # Spot Instance Advisor band, e.g. "5-10%"; None when unknown
    sagemaker_usd: float | None = None  # ml.* training price per instance-hour when published
    sagemaker_source: str | None = None


class ScalingPoint(BaseModel):
    model_config = ConfigDict(frozen=True)

    accelerators: int
    efficiency: float


class ScalingCurve(Sourced):
    """Parallel efficiency as a function of accelerator count (1.0 at or below ``base_accelerators``)."""

    base_accelerators: int
    # efficiency(n) = 1 / (1 + alpha * log2(n / base) ** beta); fitted by policy.scaling.fit, checked in
    # tests/policy/test_scaling_fit.py
    alpha: float
    beta: float = 1.0
    observed: list[ScalingPoint] = Field(default_factory=list[ScalingPoint])
    formula: str = FORMULA
    # The fit is not extrapolated past its data: beyond this many accelerators efficiency is held at its value
    # here (None: no limit). A small model's strong-scaling curve run out to hundreds of GPUs would price large
    # jobs several times too high.
    extrapolate_to: int | None = None
    # The reference job behind the table, so another job's count can be put on its scale (policy.scaling): its tokens
    # per step, its accelerator's sustained TFLOP/s (peak × MFU) and its interconnect per accelerator. None: every
    # job is taken to scale like the reference.
    reference_batch_tokens: float | None = None
    reference_tflops: float | None = None
    reference_inter_node_gbps_per_accelerator: float | None = None
    reference_intra_node_gbyteps: float | None = None
    reference_source: str | None = None


class SageMakerPremium(Sourced):
    """Managed-training premium over EC2, used when no ml.* price is published for a type and region."""

    fraction: float
    estimate: bool = True


class _PriceIndex(NamedTuple):
    prices: list[RegionPrice]  # the list it was built from, to tell when it is stale
    by_key: dict[tuple[str, str], RegionPrice]
    by_region: dict[str, list[RegionPrice]]

    @classmethod
    def build(cls, prices: list[RegionPrice]) -> _PriceIndex:
        by_region: dict[str, list[RegionPrice]] = {}
        for p in sorted(prices, key=lambda row: row.instance_type):  # a refreshed snapshot need not be sorted
            by_region.setdefault(p.region, []).append(p)
        return cls(prices, {(p.instance_type, p.region): p for p in prices}, by_region)


class Catalog(BaseModel):
    model_config = ConfigDict(frozen=True)

    snapshot: str  # e.g. "2026-11-30" or "2026-11-30+refresh-..."
    source: str
    accelerators: dict[str, AcceleratorSpec]
    instances: dict[str, InstanceSpec]
    prices: list[RegionPrice]
    scaling: ScalingCurve
    sagemaker_premium: SageMakerPremium
    # mean hours between spot interruptions per instance, per interruption band; "default" for unknown bands
    interruption_mtbi_hours: dict[str, float]
    interruption_mtbi_sources: dict[str, str] = Field(default_factory=dict)  # how each band's figure was derived

    def _index(self) -> _PriceIndex:
        # Built on first use, not at load: `gpuops plan` touches a handful of rows and must start fast. Keyed on the
        # identity of `prices` so a `model_copy(update={"prices": ...})` never answers from the old rows.
        cached = self.__dict__.get("_price_index")
        if not isinstance(cached, _PriceIndex) or cached.prices is not self.prices:
            cached = _PriceIndex.build(self.prices)
            self.__dict__["_price_index"] = cached  # a cache beside the fields; frozen guards the fields only
        return cached

    def price(self, instance_type: str, region: str) -> RegionPrice | None:
        """The price row for a type in a region; None when it is not offered there at a known price."""
        return self._index().by_key.get((instance_type, region))

    def prices_in(self, region: str) -> list[RegionPrice]:
        """Every priced type in ``region``, sorted by instance type; empty for an unknown region."""
        return list(self._index().by_region.get(region, []))

    def instance(self, instance_type: str) -> InstanceSpec:
        """The spec of ``instance_type``; RequestError(code="unknown_instance_type") naming close matches."""
        spec = self.instances.get(instance_type)
        if spec is not None:
            return spec
        close = difflib.get_close_matches(instance_type, list(self.instances), n=3, cutoff=0.6)
        hint = f" Did you mean {', '.join(close)}?" if close else f" Known families: {', '.join(self.families())}."
        raise RequestError(f"Unknown instance type {instance_type!r}.{hint}", code="unknown_instance_type")

    def accelerator_of(self, instance_type: str) -> AcceleratorSpec:
        """The accelerator spec of ``instance_type`` (raises like ``instance`` for an unknown type)."""
        return self.accelerators[self.instance(instance_type).accelerator]

    def regions(self) -> list[str]:
        """Regions with at least one priced type, sorted."""
        return sorted(self._index().by_region)

    def families(self) -> list[str]:
        """Instance families ("g5", "p5", "trn1", ...), sorted."""
        return sorted({spec.family for spec in self.instances.values()})

    def mtbi_hours(self, band: str | None) -> float:
        """Mean hours between spot interruptions per instance for an advisor band; the "default" entry if unknown."""
        if band is not None and band in self.interruption_mtbi_hours:
            return self.interruption_mtbi_hours[band]
        return self.interruption_mtbi_hours["default"]


def load_catalog(path: str | None = None) -> Catalog:
    """The shipped snapshot (parsed once per process), or the snapshot file at ``path``."""
    if path is None:
        return _default_catalog()
    return _with_shipped_facts(Catalog.model_validate_json(Path(path).read_bytes()))


def _with_shipped_facts(catalog: Catalog) -> Catalog:
    """A snapshot written before a fact of the accelerators was kept (whether it computes in FP8) takes it from the
    shipped one: a refresh updates prices, never what the parts are."""
    if all(spec.fp8_source is not None for spec in catalog.accelerators.values()):
        return catalog  # written with the fact: the shipped snapshot is not read at all
    shipped = _default_catalog().accelerators
    stale = {key for key, spec in catalog.accelerators.items() if spec.fp8_source is None and key in shipped}
    if not stale:
        return catalog
    data = catalog.model_dump()
    for key in stale:
        data["accelerators"][key].update(fp8=shipped[key].fp8, fp8_source=shipped[key].fp8_source)
    return Catalog.model_validate(data)


@cache
def _default_catalog() -> Catalog:
    data = resources.files("policy.data").joinpath(DEFAULT_SNAPSHOT).read_bytes()
    return Catalog.model_validate_json(data)


def scaling_efficiency(curve: ScalingCurve, accelerators: float) -> float:
    """Parallel efficiency of ``accelerators`` (on the reference job's scale) on ``curve`` (1.0 at or below its
    base)."""
    if accelerators < 1:
        raise ValueError(f"accelerators must be >= 1, got {accelerators}")
    if curve.extrapolate_to is not None:
        accelerators = min(accelerators, curve.extrapolate_to)
    return scaling.efficiency(accelerators, base=curve.base_accelerators, alpha=curve.alpha, beta=curve.beta)


def sagemaker_price(price: RegionPrice, premium: SageMakerPremium) -> tuple[float, str]:
    """SageMaker ml.* price per instance-hour and its basis: published, else EC2 on-demand x (1 + premium)."""
    if price.sagemaker_usd is not None:
        return price.sagemaker_usd, price.sagemaker_source or f"published ml.{price.instance_type} price"
    estimate = round(price.on_demand_usd * (1.0 + premium.fraction), 4)
    kind = "an estimate" if premium.estimate else "published"
    basis = (
        f"estimate: EC2 on-demand ${price.on_demand_usd:g}/h x (1 + {premium.fraction:.0%} managed premium, "
        f"{kind}); no ml.{price.instance_type} price in this snapshot"
    )
    return estimate, basis
