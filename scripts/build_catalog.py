"""Build the shipped price snapshot ``policy/data/catalog.json`` from SkyPilot's AWS VM catalog extract.

    .venv/bin/python scripts/build_catalog.py [path/to/aws-gpu-vms.csv] [--out policy/data/catalog.json]

Prices come only from the CSV; accelerator specs, network figures and rules of thumb from the published references
listed in docs/sources.md, each cited by name in the row it fills. The output is deterministic (sorted keys and
rows) so a rebuild diffs cleanly.
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run as a plain script from a checkout

from policy.catalog import (  # noqa: E402
    AcceleratorSpec,
    Catalog,
    InstanceSpec,
    RegionPrice,
    SageMakerPremium,
    ScalingCurve,
    ScalingPoint,
)
from policy.scaling import fit, observed_efficiency  # noqa: E402

CSV_SOURCE = "skypilot-catalog catalogs/v8/aws/vms.csv @ e385a0d3"
# The public price receipt matching this CSV's us-east-1 p4d/p4de/p5 prices is dated 2026-11-09; the
# CSV itself carries no date, so the receipt date is the best known "prices as of".
PRICE_DATE = "2026-11-09"
REFERENCES = "docs/sources.md"
FACTS_DATE = "2026-11-30"  # the published figures were collected on this date
CLUSTER_GUIDE = "Dixit, AWS GPU Cluster Pricing for Machine Learning: A 2026 Guide"
DEFAULT_CSV = REPO / "scripts" / "data" / "aws-gpu-vms.csv"
DEFAULT_OUT = REPO / "policy" / "data" / "catalog.json"

Row = dict[str, str]

# CSV accelerator name -> catalog key. The CSV leaves trn2.48xlarge's accelerator blank; the Neuron docs fill it in.
ACCELERATOR_KEY = {
    "A10G": "A10G",
    "L4": "L4",
    "L40S": "L40S",
    "V100": "V100",
    "V100-32GB": "V100-32GB",
    "A100": "A100",
    "A100-80GB": "A100-80GB",
    "H100": "H100",
    "H200": "H200",
    "B200": "B200",
    "Trainium": "Trainium1",
}
# Types whose accelerator the CSV does not state: (key, count, source).
ACCELERATOR_FALLBACK = {"trn2.48xlarge": ("Trainium2", 16, "AWS Neuron docs: trn2.48xlarge = Trainium2 96 GiB x 16")}

_TYPICAL = "published MFU: 35-50% typical for well-tuned mid-size jobs, Megatron-LM 56% for a 1T model on A100s"
# key: (name, vendor, memory GiB or None to take it from the CSV's GpuInfo, peak dense BF16 TFLOP/s, spec source)
ACCELERATORS: dict[str, tuple[str, str, float | None, float, str]] = {
    "H100": ("H100", "nvidia", None, 989.0, "torchtitan tools/utils.py; Lightning throughput utilities"),
    "H200": ("H200", "nvidia", None, 989.0, "torchtitan tools/utils.py"),
    "B200": ("B200", "nvidia", None, 2250.0, "torchtitan tools/utils.py (Blackwell datasheet)"),
    "A100": ("A100", "nvidia", None, 312.0, "torchtitan tools/utils.py; Lightning throughput utilities"),
    "A100-80GB": ("A100", "nvidia", None, 312.0, "torchtitan tools/utils.py; Lightning throughput utilities"),
    "A10G": (
        "A10G",
        "nvidia",
        None,
        125.0,
        "Lightning throughput utilities (A10 datasheet; A10G clocks lower, so this is an upper bound)",
    ),
    "L40S": ("L40S", "nvidia", None, 362.0, "torchtitan tools/utils.py (L40S datasheet)"),
    "L4": ("L4", "nvidia", None, 121.0, "public code table"),
    "V100": ("V100", "nvidia", None, 125.0, "Lightning throughput utilities (FP16 tensor, SXM; V100 has no BF16)"),
    "V100-32GB": ("V100", "nvidia", None, 125.0, "Lightning throughput utilities (FP16 tensor, SXM; V100 has no BF16)"),
    "Trainium1": ("Trainium1", "aws", 32.0, 190.0, "AWS Neuron docs"),
    "Trainium2": ("Trainium2", "aws", 96.0, 667.0, "AWS Neuron docs"),
}
# Per-family MFU for LLM training. Only A100 has a published at-scale figure here; the rest are estimates anchored
# on the typical 35-50% range, lowered where the part is PCIe-only, its peak figure is an upper bound, or its
# software stack is young. Lower MFU means longer, costlier estimates: the safe side for deadlines and budgets.
MFU: dict[str, tuple[float, str]] = {
    "A100": (0.45, f"gpuops estimate: {_TYPICAL}; mature stack, NVLink; between the typical top and Megatron's 56%"),
    "H100": (0.40, f"gpuops estimate: {_TYPICAL}; middle of the typical range (BF16, no FP8 assumed)"),
    "H200": (0.40, f"gpuops estimate: {_TYPICAL}; same compute as H100, so the same figure"),
    "B200": (0.35, f"gpuops estimate: {_TYPICAL}; low end: no published B200 figure, young software stack"),
    "L40S": (0.35, f"gpuops estimate: {_TYPICAL}; low end: PCIe only, no NVLink"),
    "A10G": (
        0.30,
        f"gpuops estimate: {_TYPICAL}; below the range: no published figure, PCIe only, and the "
        "125 TFLOP/s peak is the A10's (A10G clocks lower)",
    ),
    "L4": (0.30, f"gpuops estimate: {_TYPICAL}; below the range: no published figure, 72 W PCIe part"),
    "V100": (0.30, f"gpuops estimate: {_TYPICAL}; below the range: no published figure, FP16 (no BF16), older stack"),
    "Trainium1": (0.30, f"gpuops estimate: {_TYPICAL}; below the range: no published Neuron MFU figure found"),
    "Trainium2": (0.30, f"gpuops estimate: {_TYPICAL}; below the range: no published Neuron MFU figure found"),
}

# Parts that compute in FP8, and where that is published; the others (Ampere, Volta) have no FP8 arithmetic.
_NVIDIA_FP8 = "NVIDIA {} datasheet: FP8 Tensor Cores ({} architecture)"
FP8: dict[str, str] = {
    "H100": _NVIDIA_FP8.format("H100", "Hopper"),
    "H200": _NVIDIA_FP8.format("H200", "Hopper"),
    "B200": _NVIDIA_FP8.format("B200", "Blackwell"),
    "L40S": _NVIDIA_FP8.format("L40S", "Ada Lovelace"),
    "L4": _NVIDIA_FP8.format("L4", "Ada Lovelace"),
    "Trainium1": "AWS Trn1 product page: configurable FP8 (cFP8) among Trainium's data types",
    "Trainium2": "AWS Trn2 product page: dense FP8 compute",
}
NO_FP8 = "no FP8 arithmetic (Ampere and Volta tensor cores stop at FP16/BF16/TF32)"

# (network Gbps, EFA) where a published figure exists. "Up to" figures are burst ceilings, stated as such.
_BATCH_DOC = "AWS Batch GPU jobs doc"
NETWORK: dict[str, tuple[float, bool | None, str]] = {
    "g5.xlarge": (10.0, None, f"{_BATCH_DOC}: up to 10 Gbps (burst)"),
    "g5.2xlarge": (10.0, None, f"{_BATCH_DOC}: up to 10 Gbps (burst)"),
    "g5.4xlarge": (25.0, None, f"{_BATCH_DOC}: up to 25 Gbps (burst)"),
    "g5.8xlarge": (25.0, None, f"{_BATCH_DOC}: 25 Gbps"),
    "g5.16xlarge": (25.0, None, f"{_BATCH_DOC}: 25 Gbps"),
    "g5.12xlarge": (40.0, None, f"{_BATCH_DOC}: 40 Gbps"),
    "g5.24xlarge": (50.0, None, f"{_BATCH_DOC}: 50 Gbps"),
    "g5.48xlarge": (100.0, None, f"{_BATCH_DOC}: 100 Gbps"),
    "trn1.32xlarge": (800.0, True, "AWS Neuron docs: 800 Gbps EFA"),
    "trn1n.32xlarge": (1600.0, True, "AWS Neuron docs: 1600 Gbps EFA"),
}

# Interconnect: (Gbps between instances, GB/s between the accelerators of one instance, source). EFA figures are the
# EC2 product pages' (P4d 400 Gbps, P5/P5e/P5en 3,200 Gbps, P6-B200 3.2 Tbps, G6e.48xlarge 400 Gbps); NVLink is
# NVIDIA's per-GPU figure for the part (A100 600 GB/s, H100/H200 900 GB/s, B200 1.8 TB/s, V100 300 GB/s); sizes
# without NVLink talk over PCIe 4.0 x16 (32 GB/s). Trainium's NeuronLink has no per-chip figure in the Neuron docs.
_EC2 = "AWS EC2 accelerated computing instance pages"
_PCIE = 32.0
INTERCONNECT: dict[str, tuple[float | None, float, str]] = {
    "p4d.24xlarge": (400.0, 600.0, f"{_EC2}: 400 Gbps EFA, NVSwitch 600 GB/s per A100"),
    "p4de.24xlarge": (400.0, 600.0, f"{_EC2}: 400 Gbps EFA, NVSwitch 600 GB/s per A100"),
    "p5.48xlarge": (3200.0, 900.0, f"{_EC2}: 3,200 Gbps EFAv2, NVSwitch 900 GB/s per H100"),
    "p5e.48xlarge": (3200.0, 900.0, f"{_EC2}: 3,200 Gbps EFA, NVSwitch 900 GB/s per H200"),
    "p5en.48xlarge": (3200.0, 900.0, f"{_EC2}: 3,200 Gbps EFAv3, NVSwitch 900 GB/s per H200"),
    "p6-b200.48xlarge": (3200.0, 1800.0, f"{_EC2}: 3.2 Tbps EFAv4, NVLink 1.8 TB/s per B200"),
    "p3dn.24xlarge": (100.0, 300.0, f"{_EC2}: 100 Gbps EFA, NVLink 300 GB/s per V100"),
    "p3.16xlarge": (25.0, 300.0, f"{_EC2}: 25 Gbps, no EFA; NVLink 300 GB/s per V100"),
    "p3.8xlarge": (10.0, 300.0, f"{_EC2}: 10 Gbps, no EFA; NVLink 300 GB/s per V100"),
    "g5.12xlarge": (40.0, _PCIE, f"{_BATCH_DOC}: 40 Gbps; PCIe 4.0 between GPUs"),
    "g5.24xlarge": (50.0, _PCIE, f"{_BATCH_DOC}: 50 Gbps; PCIe 4.0 between GPUs"),
    "g5.48xlarge": (100.0, _PCIE, f"{_BATCH_DOC}: 100 Gbps (EFA); PCIe 4.0 between GPUs"),
    "g6.12xlarge": (40.0, _PCIE, f"{_EC2}: 40 Gbps; PCIe 4.0 between GPUs"),
    "g6.24xlarge": (50.0, _PCIE, f"{_EC2}: 50 Gbps; PCIe 4.0 between GPUs"),
    "g6.48xlarge": (100.0, _PCIE, f"{_EC2}: 100 Gbps EFA; PCIe 4.0 between GPUs"),
    "g6e.12xlarge": (100.0, _PCIE, f"{_EC2}: 100 Gbps EFA; PCIe 4.0 between GPUs"),
    "g6e.24xlarge": (200.0, _PCIE, f"{_EC2}: 200 Gbps EFA; PCIe 4.0 between GPUs"),
    "g6e.48xlarge": (400.0, _PCIE, f"{_EC2}: 400 Gbps EFA; PCIe 4.0 between GPUs"),
    "trn1.32xlarge": (800.0, 384.0, "AWS Neuron docs: 800 Gbps EFA, NeuronLink-v2 4D-hypercube; per-chip "
                                    "bandwidth a gpuops estimate (NVLink-class)"),
    "trn1n.32xlarge": (1600.0, 384.0, "AWS Neuron docs: 1,600 Gbps EFA, NeuronLink-v2; per-chip bandwidth a gpuops "
                                      "estimate (NVLink-class)"),
    "trn2.48xlarge": (3200.0, 640.0, "AWS Neuron docs: 3.2 Tbps EFAv3, 4 NeuronLink-v3 per chip; per-chip bandwidth "
                                     "a gpuops estimate"),
}
# Below this hidden size a model's matrix multiplies cannot fill the accelerator, and MFU falls as √(width / this)
# (gpuops estimate: GEMM efficiency grows with the matrix side until the tensor cores are saturated; the larger
# the part, the wider the model it needs; nanoGPT-size models reach well under the typical MFU on H100s).
MFU_FULL_WIDTH: dict[str, int] = {"H100": 4096, "H200": 4096, "B200": 5120, "A100": 2048, "Trainium2": 4096,
                                  "Trainium1": 2048, "L40S": 2048, "A10G": 1024, "L4": 1024, "V100": 1024}

# Spot Instance Advisor bands give the share of instances reclaimed over the trailing month. With a constant hazard,
# P(interrupted within a month) = f  =>  MTBI = 730 h / -ln(1 - f). Each band uses its worse (upper) edge.
_MONTH_H = 730.0
_BAND_F = {"<5%": 0.05, "5-10%": 0.10, "10-15%": 0.15, "15-20%": 0.20, ">20%": 0.60}
DEFAULT_MTBI_H = 168.0


def read_rows(path: Path) -> list[Row]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def accelerator_of(row: Row) -> tuple[str, int, str]:
    """(catalog key, count, source) of a row's accelerator."""
    fallback = ACCELERATOR_FALLBACK.get(row["InstanceType"])
    if fallback is not None and not row["AcceleratorName"]:
        return fallback
    return ACCELERATOR_KEY[row["AcceleratorName"]], int(float(row["AcceleratorCount"])), CSV_SOURCE


def gpu_memory_gib(row: Row) -> float | None:
    """Per-accelerator memory as EC2 reports it (the CSV's GpuInfo), in GiB; None when the CSV has none."""
    if not row["GpuInfo"]:
        return None
    info = ast.literal_eval(row["GpuInfo"])  # a Python-style dict literal, never code
    return round(int(info["Gpus"][0]["MemoryInfo"]["SizeInMiB"]) / 1024, 2)


def build_instance(row: Row) -> InstanceSpec:
    itype = row["InstanceType"]
    key, count, acc_source = accelerator_of(row)
    memory = gpu_memory_gib(row)
    sources = [CSV_SOURCE] + ([acc_source] if acc_source != CSV_SOURCE else [])
    if memory is None:  # the CSV has no GpuInfo for Trainium
        memory = ACCELERATORS[key][2]
        sources.append("accelerator memory: AWS Neuron docs")
    network, efa, net_source = NETWORK.get(itype, (None, None, "network/EFA: no published figure found"))
    sources.append(net_source)
    inter, intra, link_source = INTERCONNECT.get(itype, (None, None, None))
    return InstanceSpec(
        source="; ".join(sources),
        as_of=PRICE_DATE,
        instance_type=itype,
        family=itype.split(".")[0],
        accelerator=key,
        accelerator_count=count,
        accelerator_memory_gib=memory,
        vcpus=int(float(row["vCPUs"])),
        memory_gib=float(row["MemoryGiB"]),
        network_gbps=network,
        efa=efa,
        arch=row["Arch"] or "x86_64",
        inter_node_gbps=inter,
        intra_node_gbyteps=intra,
        interconnect_source=link_source,
    )


def build_instances(rows: list[Row]) -> dict[str, InstanceSpec]:
    first: dict[str, Row] = {}
    for row in rows:
        first.setdefault(row["InstanceType"], row)
    return {itype: build_instance(first[itype]) for itype in sorted(first)}


def build_accelerators(rows: list[Row]) -> dict[str, AcceleratorSpec]:
    csv_memory: dict[str, float | None] = {}
    for row in rows:
        key, _, _ = accelerator_of(row)
        csv_memory.setdefault(key, gpu_memory_gib(row))
    out: dict[str, AcceleratorSpec] = {}
    for key in sorted(csv_memory):
        name, vendor, memory, tflops, spec_source = ACCELERATORS[key]
        mfu, mfu_source = MFU[name]
        memory_source = "memory: CSV GpuInfo (EC2-reported)" if memory is None else "memory: AWS Neuron docs"
        out[key] = AcceleratorSpec(
            source=f"peak BF16: {spec_source}; {memory_source}",
            as_of=FACTS_DATE,
            name=name,
            vendor=vendor,
            memory_gib=memory if memory is not None else csv_memory[key],
            peak_bf16_tflops=tflops,
            mfu=mfu,
            mfu_source=mfu_source,
            mfu_full_width=MFU_FULL_WIDTH.get(name),
            mfu_full_width_source="gpuops estimate: below this hidden size GEMMs do not fill the part's tensor cores",
            fp8=name in FP8,
            fp8_source=FP8.get(name, NO_FP8),
        )
    return out


def build_price(itype: str, region: str, rows: list[Row]) -> RegionPrice | None:
    """One (type, region) row, or None when the CSV has no on-demand price there (never borrowed from elsewhere)."""
    prices = {row["Price"] for row in rows if row["Price"]}
    if not prices:
        return None
    if len(prices) > 1:
        raise ValueError(f"{itype} {region}: conflicting on-demand prices {sorted(prices)}")
    on_demand = float(prices.pop())
    spots, no_capacity = split_spot(rows, on_demand)
    return RegionPrice(
        source=_price_source(len(spots), no_capacity),
        as_of=PRICE_DATE,
        instance_type=itype,
        region=region,
        on_demand_usd=on_demand,
        spot_usd=round(statistics.median(spots), 6) if spots else None,
        spot_min_usd=min(spots) if spots else None,
        spot_max_usd=max(spots) if spots else None,
        spot_observed=PRICE_DATE if spots else None,
        spot_zones=len(spots),
        no_spot_zones=tuple(no_capacity),
        interruption_band=None,
    )


def split_spot(rows: list[Row], on_demand: float) -> tuple[list[float], list[str]]:
    """(spot observations, AZs without spot capacity) in AZ order; AZs with no observation are neither."""
    spots: list[float] = []
    no_capacity: list[str] = []
    for row in sorted(rows, key=lambda r: r["AvailabilityZone"]):
        if not row["SpotPrice"]:
            continue
        spot = float(row["SpotPrice"])
        if spot >= on_demand:
            no_capacity.append(row["AvailabilityZone"])  # on-demand quoted as "spot": none to sell there
        else:
            spots.append(spot)
    return spots, no_capacity


def _price_source(spot_zones: int, no_capacity: list[str]) -> str:
    parts = [CSV_SOURCE, f"spot: median of {spot_zones} AZ observation(s), one-time observation per AZ"]
    if no_capacity:
        parts.append(f"no spot capacity in {', '.join(no_capacity)} (spot price = on-demand)")
    parts.append("interruption band: not published per type here")
    return "; ".join(parts)


def build_prices(rows: list[Row]) -> list[RegionPrice]:
    grouped: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for row in rows:
        grouped[(row["InstanceType"], row["Region"])].append(row)
    built = (build_price(itype, region, group) for (itype, region), group in sorted(grouped.items()))
    return [price for price in built if price is not None]


# GPT-2-size (1.5B) model on SageMaker, wall hours by GPU count, from the seed article.
SCALING_TABLE: list[tuple[int, float]] = [(4, 14.0), (8, 7.5), (16, 4.2), (32, 2.9)]
SCALING_BASE = 4


def build_scaling() -> ScalingCurve:
    points = observed_efficiency(SCALING_TABLE)
    alpha, beta = fit(points, base=SCALING_BASE)
    table = ", ".join(f"{n} GPUs {h:g} h" for n, h in SCALING_TABLE)
    return ScalingCurve(
        source=(
            f"least-squares fit (log efficiency) of policy.scaling to the 1.5B-model table in {CLUSTER_GUIDE} "
            f"({table}); efficiency(n) = (14 h x 4) / (hours(n) x n). Other jobs are put on this job's scale by "
            "their tokens per step, sustained FLOP/s, interconnect and model-parallel group (policy.scaling)"
        ),
        reference_batch_tokens=1.0e6,
        reference_tflops=round(312.0 * MFU["A100"][0], 3),
        reference_inter_node_gbps_per_accelerator=400.0 / 8,
        reference_intra_node_gbyteps=600.0,
        reference_source=(
            "the table's job: a 1.5B model on p4d.24xlarge (8x A100, 400 Gbps EFA, NVSwitch 600 GB/s) at the A100's "
            "catalog MFU; the guide states no batch, taken as GPT-3's 1M tokens per step for a 1.3B model "
            "(Brown et al. 2020, Table 2.1)"
        ),
        as_of=FACTS_DATE,
        base_accelerators=SCALING_BASE,
        alpha=round(alpha, 6),
        beta=round(beta, 6),
        observed=[ScalingPoint(accelerators=n, efficiency=round(eff, 6)) for n, eff in points],
    )


def build_sagemaker_premium() -> SageMakerPremium:
    return SageMakerPremium(
        source=(
            f"a published guide puts SageMaker's overhead at 20-40% over raw compute ({CLUSTER_GUIDE}); estimate. "
            "Third-party ml.* price constants against EC2 give 15% (ml.p4d, ml.p5, pre-cut EC2), "
            "18-25% (ml.g5.12xlarge) and 40% (ml.g5.xlarge); 25% sits above their median so budgets are not understated"
        ),
        as_of=FACTS_DATE,
        fraction=0.25,
        estimate=True,
    )


def build_interruptions() -> tuple[dict[str, float], dict[str, str]]:
    hours: dict[str, float] = {}
    sources: dict[str, str] = {}
    for band, f in _BAND_F.items():
        hours[band] = round(_MONTH_H / -math.log(1.0 - f), 1)
        edge = "assumed 60% (middle of 20-100%, the band is open)" if band == ">20%" else f"upper edge {f:.0%}"
        sources[band] = (
            f"gpuops estimate: Spot Instance Advisor band {band} per month, {edge}; constant hazard: "
            f"MTBI = 730 h / -ln(1 - f) = {hours[band]:g} h"
        )
    hours["default"] = DEFAULT_MTBI_H
    sources["default"] = (
        "gpuops estimate: band unknown, so assume one interruption per instance-week (168 h), far worse than any "
        "band's month-based figure: those assume an instance runs all month, and GPU spot pools are shallow (several "
        "AZs in the snapshot show no spot capacity at all)"
    )
    return hours, sources


def build_catalog(csv_path: Path) -> Catalog:
    rows = read_rows(csv_path)
    mtbi, mtbi_sources = build_interruptions()
    return Catalog(
        snapshot=PRICE_DATE,
        source=f"{CSV_SOURCE} (prices, receipt date {PRICE_DATE}); specs, MFU and rules of thumb: {REFERENCES}",
        accelerators=build_accelerators(rows),
        instances=build_instances(rows),
        prices=build_prices(rows),
        scaling=build_scaling(),
        sagemaker_premium=build_sagemaker_premium(),
        interruption_mtbi_hours=mtbi,
        interruption_mtbi_sources=mtbi_sources,
    )


def render(catalog: Catalog) -> str:
    """Deterministic JSON: sorted keys, rows already sorted by (type, region), newline at the end."""
    data: dict[str, Any] = catalog.model_dump(mode="json")
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("csv", nargs="?", type=Path, default=DEFAULT_CSV, help="SkyPilot AWS vms.csv extract")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write the snapshot")
    args = parser.parse_args(argv)
    catalog = build_catalog(args.csv)
    args.out.write_text(render(catalog))
    regions = {p.region for p in catalog.prices}
    print(f"{args.out}: {len(catalog.instances)} types, {len(regions)} regions, {len(catalog.prices)} price rows")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
