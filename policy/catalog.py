"""The instance catalog: accelerator specs, instance types, prices per region, MFU and the scaling curve.

All numbers are data (``policy/data/catalog.json``), each with its source and date; a field with no published
value is ``None`` and callers must cope.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


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


class RegionPrice(Sourced):
    instance_type: str
    region: str
    on_demand_usd: float  # EC2 Linux on-demand, per instance-hour
    spot_usd: float | None = None  # one observation (median over the region's AZs)
    spot_min_usd: float | None = None
    spot_max_usd: float | None = None
    spot_observed: str | None = None
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
    # efficiency(n) = 1 / (1 + alpha * log2(n / base)) ** beta ; fitted, see tests/policy/test_scaling_fit.py
    alpha: float
    beta: float = 1.0
    observed: list[ScalingPoint] = Field(default_factory=list)


class SageMakerPremium(Sourced):
    """Managed-training premium over EC2, used when no ml.* price is published for a type and region."""

    fraction: float
    estimate: bool = True


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
