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
    "activation_bytes_of",
    "ADAPTER_FLOPS_PER_PARAM_TOKEN",
    "ADAPTER_PARAM_FRACTION",
    "ADAPTER_RANK",
    "ATTENTION_FLOPS_PER_LAYER_SEQ_WIDTH",
    "billed_hours",
    "cents",
    "checkpoint_write_hours",
    "compute_hours",
    "FORWARD_FLOPS_PER_PARAM_TOKEN",
    "FROZEN_BYTES_PER_PARAM",
    "FULL_CHECKPOINT_BYTES_PER_PARAM",
    "FULL_FLOPS_PER_PARAM_TOKEN",
    "FULL_STATE_BYTES_PER_PARAM",
    "GENERATION_SLOWDOWN",
    "GIB",
    "hours_range",
    "interval_minutes",
    "LAYER_WORKING_ACTIVATION_BYTES",
    "LORA_BASE_BYTES_PER_PARAM",
    "MAX_SPOT_LOSS_SHARE",
    "MAX_WRITE_SHARE",
    "MEASURED_CHECKPOINT_SHARE",
    "measured_workload",
    "memory_per_accelerator_gib",
    "min_accelerators",
    "MIN_BILLED_HOURS",
    "model_shape",
    "PARAMS_PER_LAYER_WIDTH2",
    "PRETRAIN_BATCH_EXPONENT",
    "PRETRAIN_BATCH_RANGE",
    "PRETRAIN_BATCH_TOKENS_AT_1_5B",
    "QLORA_BASE_BYTES_PER_PARAM",
    "QLORA_DEQUANT_TOKENS",
    "range_basis",
    "RLHF_RESPONSE_SHARE",
    "spot_factors",
    "spot_time",
    "SpotFactors",
    "SpotTime",
    "STORED_ACTIVATION_BYTES",
    "TUNING_BATCH_TOKENS",
    "WIDTH_PER_LAYER",
    "workload",
    "Workload",
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
# (Llama-2-7B: ~40M of 6.7B); they train with full mixed-precision Adam state. A projection of d×k takes r·(d + k)
# adapter weights, so they grow with the rank said ("rank 64": four times as many).
ADAPTER_PARAM_FRACTION = 0.005
ADAPTER_RANK = 16  # the rank ADAPTER_PARAM_FRACTION is of, and the one assumed when none is said
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
# QLoRA dequantises its 4-bit base to bf16 on every pass of every sequence, work that grows with the parameters and
# not with the tokens: on one A100 it took as long as LoRA's compute on ~700 more tokens per sequence (Qwen's
# published LoRA and Q-LoRA step times for Qwen-7B and Qwen-14B at 1k-8k tokens, QwenLM/Qwen README "Profiling of
# Memory and Speed": 7B at 2,048 tokens 5.2 s a step with LoRA and 7.0 s with Q-LoRA, at 4,096 10.1 and 11.6 s;
# 14B 8.4 and 11.8 s, 17.0 and 20.1 s). So QLoRA is 4·N·(1 + 700/s) per token: ~1.3× LoRA at 2k tokens, ~1.15× at
# 4k. Dequantisation is bandwidth-bound, so on parts with more FLOP/s per byte of bandwidth than the A100 (H100,
# B200) this is still a lower bound.
QLORA_DEQUANT_TOKENS = 700.0
GIB = 2.0**30
# Spot is unworkable when interruptions eat this share of wall time or more: the job would mostly be restarting.
MAX_SPOT_LOSS_SHARE = 0.5
# Checkpoint writes may take at most this share of training time when the policy's maximum interval would force
# more (synchronous writes stall every accelerator of the job).
MAX_WRITE_SHARE = 0.1


# Attention: 12·L·s·d FLOPs per token for forward and backward (the score and value matmuls, 2·2·L·s·d forward,
# twice that backward; Chowdhery et al. 2022 "PaLM", Appendix B, the MFU formula 6·N + 12·L·H·Q·T). They hold no
# weights, so adapters do not shorten them.
ATTENTION_FLOPS_PER_LAYER_SEQ_WIDTH = 12.0
FORWARD_FLOPS_PER_PARAM_TOKEN = 2.0
# Frozen models (DPO reference, RLHF reference and reward, distillation teacher) keep bf16 weights only.
FROZEN_BYTES_PER_PARAM = 2.0
# RLHF/PPO: half the tokens of each rollout are generated by the policy (prompt and response of similar length),
# and decoding runs at about a quarter of training throughput: it is memory-bound, one token at a time
# (gpuops estimate; OpenRLHF, Hu et al. 2024, arXiv 2405.11143, and DeepSpeed-Chat, arXiv 2308.01320, both report
# generation as the larger part of a PPO step).
RLHF_RESPONSE_SHARE = 0.5
GENERATION_SLOWDOWN = 4.0
# Tokens per optimizer step for pretraining grow with the model: GPT-3 (Brown et al. 2020, Table 2.1) used 0.5M
# tokens to 760M parameters, 1M at 1.3-2.7B, 2M at 6.7-13B and 3.2M at 175B; Llama 2 4M (Touvron et al. 2023);
# Llama 3 16M at 405B (Llama Team 2024, §3.4). A smooth law through them, 1M × (N / 1.5B)^0.4 within 0.5M-16M,
# so that a slightly bigger model never steps onto a much larger batch. Supervised fine-tunes use ~0.5M (Llama 2:
# 64 × 4096). Fewer tokens per step per accelerator is what makes a job stop scaling.
PRETRAIN_BATCH_TOKENS_AT_1_5B = 1.0e6
PRETRAIN_BATCH_EXPONENT = 0.4
PRETRAIN_BATCH_RANGE = (0.5e6, 16.0e6)
TUNING_BATCH_TOKENS = 0.5e6
_PRETRAINING = (Task.PRETRAIN, Task.CONTINUED_PRETRAIN)
_ADAPTERS = (Task.LORA, Task.QLORA)


@dataclass(frozen=True)
class Workload:
    """The work one request asks for, independent of hardware. Hashed once: it keys every remembered configuration."""

    flops: float
    sharded_bytes: float  # weights and optimizer state, divided across every accelerator of the job (FSDP/ZeRO-3)
    activation_bytes: float  # per accelerator
    checkpoint_bytes: float
    method: str  # how memory was sized, for the trace
    trials: int = 1
    parallel_trials: bool = False  # sweep trials are independent jobs that can run side by side
    width: int = 0  # hidden size of the trained model (small widths cannot fill a large accelerator)
    batch_tokens: float = TUNING_BATCH_TOKENS  # tokens per optimizer step
    per_token: str = ""  # the FLOPs-per-token formula used, for the trace
    measured: str = ""  # the run the work was given as ("300 A100-hours"), when no model size was said
    measured_on: str = ""  # the accelerator those hours were on ("A100")

    @property
    def sizing(self) -> tuple[float, float, int]:
        """What decides whether a type's memory holds the work and how full its accelerators run: the part of the
        work a type's profile depends on (not its FLOPs, so a longer run of the same model shares it)."""
        return self.sharded_bytes, self.activation_bytes, self.width

    def __hash__(self) -> int:
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.flops, self.sharded_bytes, self.activation_bytes, self.checkpoint_bytes, self.method,
                           self.trials, self.parallel_trials, self.width, self.batch_tokens, self.per_token,
                           self.measured, self.measured_on))
            object.__setattr__(self, "_hash", cached)  # a cache beside the fields; frozen guards the fields
        return cached


def workload(*, task: Task, params: int, tokens: int, trials: int, seq_len: int, active_params: int | None = None,
             shape: tuple[int, int] | None = None, teacher_params: int | None = None,
             teacher_active_params: int | None = None, reward_params: int | None = None, adapter: Task | None = None,
             batch_tokens: int | None = None, lora_rank: int | None = None) -> Workload:
    """FLOPs, memory and checkpoint size of a request.

    ``active_params`` (a mixture of experts) sets the compute, ``params`` the memory, and so do
    ``teacher_active_params`` and ``teacher_params`` for a distillation's teacher; ``reward_params`` is an RLHF
    reward model's size, and its value model's, when not the policy's; ``shape`` is (layers, width)
    when the model is known by name, else it follows from the size. ``batch_tokens``: the global batch the person
    stated, tokens per optimizer step; unsaid, the task's usual batch. ``lora_rank``: the adapters' rank, which sizes
    their weights and optimizer state (``ADAPTER_RANK`` when unsaid).
    """
    n, active = float(params), float(active_params or params)
    layers, width = shape or model_shape(int(active))
    attention = ATTENTION_FLOPS_PER_LAYER_SEQ_WIDTH * layers * seq_len * width
    tuned = adapter if adapter in _ADAPTERS else task if task in _ADAPTERS else None
    train = (ADAPTER_FLOPS_PER_PARAM_TOKEN if tuned else FULL_FLOPS_PER_PARAM_TOKEN) * active + attention
    forward = FORWARD_FLOPS_PER_PARAM_TOKEN * active + attention / 3.0
    state, ckpt_params, method = _trained_state(tuned, n, rank=lora_rank or ADAPTER_RANK)
    per_token, formula = train, "6·N + 12·L·s·d" if not tuned else "4·N + 12·L·s·d"
    if tuned is Task.QLORA:  # every weight of the base is dequantised, experts included
        train += ADAPTER_FLOPS_PER_PARAM_TOKEN * n * QLORA_DEQUANT_TOKENS / seq_len
        per_token = train
        formula = f"4·N + 12·L·s·d + 4·N·{QLORA_DEQUANT_TOKENS:g}/s (dequantising the 4-bit base)"
    if task is Task.DPO:
        per_token, formula = train + forward, f"{formula} (policy) + 2·N + 4·L·s·d (frozen reference)"
        state += 0.0 if tuned else n * FROZEN_BYTES_PER_PARAM  # adapters: the reference is the base, adapters off
        method += " DPO with a frozen reference"
    elif task is Task.RLHF and reward_params:
        # the value model starts from the reward model (InstructGPT, Ouyang et al. 2022, §3.5): both its size
        r_layers, r_width = model_shape(reward_params)
        r_attention = ATTENTION_FLOPS_PER_LAYER_SEQ_WIDTH * r_layers * seq_len * r_width
        value_train = (ADAPTER_FLOPS_PER_PARAM_TOKEN if tuned else FULL_FLOPS_PER_PARAM_TOKEN) * reward_params \
            + r_attention
        reward_forward = FORWARD_FLOPS_PER_PARAM_TOKEN * reward_params + r_attention / 3.0
        generation = RLHF_RESPONSE_SHARE * GENERATION_SLOWDOWN * forward
        per_token = train + value_train + forward + reward_forward + generation
        formula = (f"{formula} (policy training) + {4 if tuned else 6}·N_r + 12·L_r·s·d_r (value training) + "
                   "2·N + 4·L·s·d (reference) + 2·N_r + 4·L_r·s·d_r (reward) + "
                   f"{RLHF_RESPONSE_SHARE * GENERATION_SLOWDOWN:g} × (2·N + 4·L·s·d) (generation at "
                   f"1/{GENERATION_SLOWDOWN:g} of training throughput)")
        value_state, value_ckpt, _ = _trained_state(tuned, float(reward_params), rank=lora_rank or ADAPTER_RANK)
        state += value_state + (0 if tuned else n) * FROZEN_BYTES_PER_PARAM + reward_params * FROZEN_BYTES_PER_PARAM
        ckpt_params += value_ckpt
        method += f" RLHF (policy and reference, a {reward_params / 1e9:.3g}B reward model and value model)"
    elif task is Task.RLHF:
        generation = RLHF_RESPONSE_SHARE * GENERATION_SLOWDOWN * forward
        per_token = 2 * train + 2 * forward + generation
        formula = (f"2 × ({formula}) (policy and value training) + 2 × (2·N + 4·L·s·d) (reference and reward) + "
                   f"{RLHF_RESPONSE_SHARE * GENERATION_SLOWDOWN:g} × (2·N + 4·L·s·d) (generation at "
                   f"1/{GENERATION_SLOWDOWN:g} of training throughput)")
        state = 2 * state + (1 if tuned else 2) * n * FROZEN_BYTES_PER_PARAM
        ckpt_params *= 2
        method += " RLHF (policy, value, reference and reward models)"
    elif task is Task.DISTILL and teacher_params:
        t_active = teacher_active_params or teacher_params
        t_layers, t_width = model_shape(t_active)
        teacher = FORWARD_FLOPS_PER_PARAM_TOKEN * t_active + 4.0 * t_layers * seq_len * t_width
        per_token, formula = train + teacher, f"{formula} (student) + 2·N_t + 4·L_t·s·d_t (teacher forward)"
        state += teacher_params * FROZEN_BYTES_PER_PARAM
        method += f" distillation with a frozen {teacher_params / 1e9:.3g}B teacher" + (
            f" ({teacher_active_params / 1e9:.3g}B active)" if teacher_active_params else "")
    ckpt_bytes = ckpt_params * (FULL_CHECKPOINT_BYTES_PER_PARAM if not tuned else FULL_STATE_BYTES_PER_PARAM)
    batch = float(batch_tokens) if batch_tokens else _batch_tokens(active) if task in _PRETRAINING \
        else TUNING_BATCH_TOKENS
    return Workload(per_token * float(tokens) * trials, state, activation_bytes_of(layers, width, seq_len), ckpt_bytes,
                    method, trials, task is Task.SWEEP, width, batch, formula)


# A job given as accelerator-hours checkpoints about half of what one such accelerator holds (its weights and optimizer
# state at most fill it); only the spot estimate's checkpoint writes use the figure.
MEASURED_CHECKPOINT_SHARE = 0.5


def accelerator_hour_flops(*, peak_tflops: float, mfu: float) -> float:
    """The FLOPs one accelerator does in an hour as the estimate runs it: its peak BF16 at the MFU it is given."""
    return 3600.0 * peak_tflops * 1e12 * mfu


def measured_workload(*, accelerator: str, gpu_hours: float, peak_tflops: float, mfu: float, memory_gib: float,
                      headroom: float, trials: int = 1) -> Workload:
    """The work of a job given as hours on an accelerator ("about 300 A100-hours"), each run's: the FLOPs those hours do
    at the accelerator's peak and MFU, as the estimate would run it, so the same hardware plans the same hours; every
    accelerator must hold what one of those did (its memory, less the headroom), since nothing says how the job
    would shard across smaller ones."""
    flops = gpu_hours * accelerator_hour_flops(peak_tflops=peak_tflops, mfu=mfu) * trials  # each run's hours
    held = memory_gib * GIB * (1.0 - headroom) * (1.0 - 1e-9)  # one such accelerator holds it, to the byte
    return Workload(flops, 0.0, held, memory_gib * GIB * MEASURED_CHECKPOINT_SHARE, "measured", trials,
                    trials > 1, 0, TUNING_BATCH_TOKENS, "", f"{gpu_hours:,.4g} {accelerator}-hours", accelerator)


def _trained_state(tuned: Task | None, n: float, *, rank: int = ADAPTER_RANK) -> tuple[float, float, str]:
    """(bytes held, parameters checkpointed, method) of the model being trained."""
    adapters = n * ADAPTER_PARAM_FRACTION * rank / ADAPTER_RANK
    ranked = "" if rank == ADAPTER_RANK else f" rank {rank}"
    if tuned is Task.LORA:
        return n * LORA_BASE_BYTES_PER_PARAM + adapters * FULL_STATE_BYTES_PER_PARAM, adapters, f"LoRA{ranked}"
    if tuned is Task.QLORA:
        return n * QLORA_BASE_BYTES_PER_PARAM + adapters * FULL_STATE_BYTES_PER_PARAM, adapters, f"QLoRA{ranked}"
    return n * FULL_STATE_BYTES_PER_PARAM, n, "full"


def _batch_tokens(active: float) -> float:
    low, high = PRETRAIN_BATCH_RANGE
    scaled = PRETRAIN_BATCH_TOKENS_AT_1_5B * float((active / 1.5e9) ** PRETRAIN_BATCH_EXPONENT)
    return min(high, max(low, scaled))


def model_shape(params: int) -> tuple[int, int]:
    """(layers, width) of a Llama-style model with this many parameters."""
    layers = max(1.0, (params / (PARAMS_PER_LAYER_WIDTH2 * WIDTH_PER_LAYER**2)) ** (1 / 3))
    return round(layers), round(WIDTH_PER_LAYER * layers)


def activation_bytes(params: int, seq_len: int) -> float:
    """Activation memory per accelerator for one sequence with full recomputation."""
    layers, width = model_shape(params)
    return activation_bytes_of(layers, width, seq_len)


def activation_bytes_of(layers: int, width: int, seq_len: int) -> float:
    """``activation_bytes`` for a known shape."""
    return float(seq_len * width * (STORED_ACTIVATION_BYTES * layers + LAYER_WORKING_ACTIVATION_BYTES))


def min_accelerators(work: Workload, *, memory_gib: float, headroom: float, context_parallel: int = 1) -> int | None:
    """Fewest accelerators of this size whose memory holds the job, or None when no number of them can.

    ``context_parallel``: each sequence split across that many accelerators (context parallelism), which holds a
    share of its activations each; the job then needs at least that many."""
    usable = memory_gib * GIB * (1.0 - headroom) - work.activation_bytes / context_parallel
    if usable <= 0:
        return None
    return max(context_parallel, math.ceil(work.sharded_bytes / usable))


def memory_per_accelerator_gib(work: Workload, accelerators: int, *, context_parallel: int = 1) -> float:
    """What each accelerator holds, in GiB."""
    return (work.sharded_bytes / accelerators + work.activation_bytes / context_parallel) / GIB


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
    """Expected wall time on spot, or None when interruptions would dominate the run (see ``spot_factors``)."""
    factors = spot_factors(work=work, instances=instances, instance_mtbi_hours=instance_mtbi_hours,
                           settings=settings)
    return None if factors is None else factors.time(hours)


@dataclass(frozen=True, slots=True)
class SpotFactors:
    """What spot does to a job of one size on one type, whatever its length: the wall time grows in proportion to
    the hours, so a search prices many lengths from one of these."""

    interval_hours: float  # Young/Daly checkpoint interval
    write_hours: float  # C: one checkpoint write
    job_mtbi_hours: float  # M: mean time between interruptions of the whole job
    write_stretch: float  # 1 + C/T: training time plus checkpoint writes, per hour of training
    kept_share: float  # 1 - (T/2 + R)/M: the share of wall time not lost to interruptions

    def time(self, hours: float) -> SpotTime:
        """Expected wall time on spot of ``hours`` of uninterrupted training."""
        wall = hours * self.write_stretch / self.kept_share
        return SpotTime(wall, self.interval_hours, self.write_hours, self.job_mtbi_hours, wall / self.job_mtbi_hours)


def spot_factors(
    *, work: Workload, instances: int, instance_mtbi_hours: float, settings: EstimateSettings
) -> SpotFactors | None:
    """How spot stretches this job's hours, or None when interruptions would dominate any run of it.

    W = H + (H/T)·C + (W/M)·(T/2 + R), solved for W: T = √(2·C·M) (Young 1974), M = per-instance MTBI / instances,
    R = restart time; each interruption loses half an interval of work on average plus the restart. T is capped
    by the policy's ``checkpoint_max_interval_minutes``, or by C / ``MAX_WRITE_SHARE`` when writes are that slow.
    None of it depends on H, so W = H × (1 + C/T) / (1 - (T/2 + R)/M).
    """
    write = checkpoint_write_hours(work, instances=instances, settings=settings)
    job_mtbi = instance_mtbi_hours / instances
    # Young/Daly, but never longer than the policy's maximum (past a few hours a lost interval is a lost afternoon),
    # unless writing a checkpoint that often would take more than MAX_WRITE_SHARE of the run: a 20-minute write
    # every 30 minutes doubles the job; then the interval is the shortest that keeps writes to that share.
    ceiling = max(settings.checkpoint_max_interval_minutes / 60.0, write / MAX_WRITE_SHARE)
    interval = min(math.sqrt(2.0 * write * job_mtbi), ceiling)
    loss_share = (interval / 2.0 + settings.spot_restart_minutes / 60.0) / job_mtbi
    if loss_share >= MAX_SPOT_LOSS_SHARE:
        return None
    return SpotFactors(interval, write, job_mtbi, 1.0 + write / interval, 1.0 - loss_share)


def interval_minutes(spot: SpotTime | None) -> int | None:
    """Checkpoint interval in whole minutes (at least one)."""
    return None if spot is None else max(1, round(spot.interval_hours * 60.0))


MIN_BILLED_HOURS = 0.001


def billed_hours(hours: float) -> float:
    """Hours as billed and stated: to 1/1000 h (3.6 s; SageMaker bills by the second), never zero."""
    billed = round(hours, 3)
    # max(MIN_BILLED_HOURS, billed) without the builtin call: it runs for every configuration priced
    return billed if billed > MIN_BILLED_HOURS else MIN_BILLED_HOURS


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
