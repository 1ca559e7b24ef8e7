"""The memory, time, interruption and cost model behind every plan (docs/design.md §Memory, §Compute, §Purchase model).

Plain floats on purpose: ``decide`` evaluates hundreds of configurations per request, so the model stays free of
objects until a configuration is chosen. Operational figures (write bandwidth, restart time, uncertainty) come from
the policy's ``estimate`` section; hardware figures (peak FLOP/s, MFU, scaling, prices, interruption rates) from
the catalog. The constants below are physics of the training computation, each with its source.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from policy.config import EstimateSettings
from policy.request import Task

__all__ = [
    "activation_bytes",
    "ADAPTER_FLOPS_PER_PARAM_TOKEN",
    "ADAPTER_PARAM_FRACTION",
    "billed_hours",
    "cents",
    "checkpoint_write_hours",
    "compute_hours",
    "FULL_CHECKPOINT_BYTES_PER_PARAM",
    "FULL_FLOPS_PER_PARAM_TOKEN",
    "FULL_STATE_BYTES_PER_PARAM",
    "GIB",
    "hours_range",
    "interval_minutes",
    "LAYER_WORKING_ACTIVATION_BYTES",
    "LORA_BASE_BYTES_PER_PARAM",
    "MAX_SPOT_LOSS_SHARE",
    "memory_per_accelerator_gib",
    "min_accelerators",
    "model_shape",
    "PARAMS_PER_LAYER_WIDTH2",
    "QLORA_BASE_BYTES_PER_PARAM",
    "range_basis",
    "spot_time",
    "SpotTime",
    "STORED_ACTIVATION_BYTES",
    "WIDTH_PER_LAYER",
    "Workload",
    "workload",
]

# Mixed-precision Adam: bf16 weights 2 + bf16 gradients 2 + fp32 master weights 4 + Adam moments 8 bytes per
# parameter (nanotron "Ultrascale Playbook"; Hugging Face "model memory anatomy").
FULL_STATE_BYTES_PER_PARAM = 16.0
# A checkpoint keeps weights, master weights and moments but not gradients: 2 + 4 + 8.
FULL_CHECKPOINT_BYTES_PER_PARAM = 14.0
# LoRA keeps the frozen base in bf16 (Hu et al. 2021, arXiv 2106.09685).
LORA_BASE_BYTES_PER_PARAM = 2.0
# QLoRA: NF4 weights 0.5 B/param plus quantisation constants and bf16 embeddings/norms (Dettmers et al. 2023,
# arXiv 2305.14314: Llama-2-7B fine-tunes in under 10 GB).
QLORA_BASE_BYTES_PER_PARAM = 0.6
# Rank-16 adapters on every attention and MLP projection of a Llama-style model are ~0.5% of its parameters
# (Llama-2-7B: ~40M of 6.7B); they train with full mixed-precision Adam state.
ADAPTER_PARAM_FRACTION = 0.005
# Model shape from the parameter count: N ≈ 12·L·h² (Kaplan et al. 2020, arXiv 2001.08361) with width ≈ 128 × depth
# (Llama-2: 4096/32, 5120/40), so depth L = (N / (12·128²))^(1/3) and width h = 128·L.
PARAMS_PER_LAYER_WIDTH2 = 12.0
WIDTH_PER_LAYER = 128.0
# Activations with full recomputation and one sequence per accelerator: each layer's bf16 input is kept
# (2·s·h bytes per layer) and one layer's working set is rebuilt at a time (34·s·h bytes with flash attention)
# (Korthikanti et al. 2022, arXiv 2205.05198, §4).
STORED_ACTIVATION_BYTES = 2.0
LAYER_WORKING_ACTIVATION_BYTES = 34.0
# Training FLOPs per parameter per token: 6 (forward 2 + backward 4, Kaplan et al. 2020); adapters skip the
# weight gradients of the frozen base, leaving 4.
FULL_FLOPS_PER_PARAM_TOKEN = 6.0
ADAPTER_FLOPS_PER_PARAM_TOKEN = 4.0
GIB = 2.0**30
# Spot is unworkable when interruptions eat this share of wall time or more: the job would mostly be restarting.
MAX_SPOT_LOSS_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Workload:
    """The work one request asks for, independent of hardware."""

    flops: float
    sharded_bytes: float  # weights and optimizer state, divided across every accelerator of the job (FSDP/ZeRO-3)
    activation_bytes: float  # per accelerator
    checkpoint_bytes: float
    method: str  # how memory was sized, for the trace
    trials: int = 1
    parallel_trials: bool = False  # sweep trials are independent jobs that can run side by side


def workload(*, task: Task, params: int, tokens: int, trials: int, seq_len: int) -> Workload:
    """FLOPs, memory and checkpoint size of a request."""
    n = float(params)
    per_token = ADAPTER_FLOPS_PER_PARAM_TOKEN if task in (Task.LORA, Task.QLORA) else FULL_FLOPS_PER_PARAM_TOKEN
    flops = per_token * n * float(tokens) * trials
    adapters = n * ADAPTER_PARAM_FRACTION
    if task is Task.LORA:
        state, ckpt, method = n * LORA_BASE_BYTES_PER_PARAM + adapters * FULL_STATE_BYTES_PER_PARAM, adapters, "LoRA"
    elif task is Task.QLORA:
        state, ckpt, method = n * QLORA_BASE_BYTES_PER_PARAM + adapters * FULL_STATE_BYTES_PER_PARAM, adapters, "QLoRA"
    else:
        state, ckpt, method = n * FULL_STATE_BYTES_PER_PARAM, n, "full"
    ckpt_bytes = ckpt * (FULL_CHECKPOINT_BYTES_PER_PARAM if method == "full" else FULL_STATE_BYTES_PER_PARAM)
    return Workload(flops, state, activation_bytes(params, seq_len), ckpt_bytes, method, trials, task is Task.SWEEP)


def model_shape(params: int) -> tuple[int, int]:
    """(layers, width) of a Llama-style model with this many parameters."""
    layers = max(1.0, (params / (PARAMS_PER_LAYER_WIDTH2 * WIDTH_PER_LAYER**2)) ** (1 / 3))
    return round(layers), round(WIDTH_PER_LAYER * layers)


def activation_bytes(params: int, seq_len: int) -> float:
    """Activation memory per accelerator for one sequence with full recomputation."""
    layers, width = model_shape(params)
    return float(seq_len * width * (STORED_ACTIVATION_BYTES * layers + LAYER_WORKING_ACTIVATION_BYTES))


def min_accelerators(work: Workload, *, memory_gib: float, headroom: float) -> int | None:
    """Fewest accelerators of this size whose memory holds the job, or None when no number of them can."""
    usable = memory_gib * GIB * (1.0 - headroom) - work.activation_bytes
    if usable <= 0:
        return None
    return max(1, math.ceil(work.sharded_bytes / usable))


def memory_per_accelerator_gib(work: Workload, accelerators: int) -> float:
    """What each accelerator holds, in GiB."""
    return (work.sharded_bytes / accelerators + work.activation_bytes) / GIB


def compute_hours(flops: float, *, accelerators: int, peak_tflops: float, mfu: float, efficiency: float) -> float:
    """Hours of uninterrupted training: FLOPs / (accelerators × peak × MFU × scaling efficiency)."""
    return flops / (accelerators * peak_tflops * 1e12 * mfu * efficiency) / 3600.0


@dataclass(slots=True)  # made per configuration: not frozen, for speed
class SpotTime:
    """Wall time on spot and what it is made of."""

    wall_hours: float
    interval_hours: float  # Young/Daly checkpoint interval
    write_hours: float  # C: one checkpoint write
    job_mtbi_hours: float  # M: mean time between interruptions of the whole job
    interruptions: float  # expected number over the run


def checkpoint_write_hours(work: Workload, *, instances: int, settings: EstimateSettings) -> float:
    """C: every instance writes its shard in parallel."""
    return work.checkpoint_bytes / (instances * settings.checkpoint_write_gbps_per_instance * 1e9) / 3600.0


def spot_time(
    hours: float, *, work: Workload, instances: int, instance_mtbi_hours: float, settings: EstimateSettings
) -> SpotTime | None:
    """Expected wall time on spot, or None when interruptions would dominate the run.

    W = H + (H/T)·C + (W/M)·(T/2 + R), solved for W: T = √(2·C·M) (Young 1974), M = per-instance MTBI / instances,
    R = restart time; each interruption loses half an interval of work on average plus the restart.
    """
    write = checkpoint_write_hours(work, instances=instances, settings=settings)
    job_mtbi = instance_mtbi_hours / instances
    interval = math.sqrt(2.0 * write * job_mtbi)
    loss_share = (interval / 2.0 + settings.spot_restart_minutes / 60.0) / job_mtbi
    if loss_share >= MAX_SPOT_LOSS_SHARE:
        return None
    wall = hours * (1.0 + write / interval) / (1.0 - loss_share)
    return SpotTime(wall, interval, write, job_mtbi, wall / job_mtbi)


def interval_minutes(spot: SpotTime | None) -> int | None:
    """Checkpoint interval in whole minutes (at least one)."""
    return None if spot is None else max(1, round(spot.interval_hours * 60.0))


def billed_hours(hours: float) -> float:
    """Hours as billed and stated: to 1/1000 h (3.6 s; SageMaker bills by the second), never zero."""
    return max(0.001, round(hours, 3))


def cents(usd: float) -> float:
    return round(usd + 0.0, 2)


def hours_range(*, spot: SpotTime | None, settings: EstimateSettings) -> tuple[float, float]:
    """Low/high hours as factors of the estimate: ± throughput uncertainty; on spot the low end has no interruptions."""
    spread = 1.0 + settings.hours_uncertainty
    if spot is None:
        return 1.0 / spread, spread
    loss_share = (spot.interval_hours / 2 + settings.spot_restart_minutes / 60) / spot.job_mtbi_hours
    return (1.0 - loss_share) / spread, spread


def range_basis(*, spot: bool, settings: EstimateSettings) -> str:
    """How cost_low/cost_high were derived, in words."""
    pct = round(settings.hours_uncertainty * 100)
    if spot:
        return (f"hours ÷/× {1 + settings.hours_uncertainty:g} (±{pct}% throughput); low: no interruptions at the "
                "lowest spot price observed; high: expected interruptions at the highest spot price observed")
    return f"hours ÷/× {1 + settings.hours_uncertainty:g} (±{pct}% throughput) at the same hourly price"
