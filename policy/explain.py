"""Trace steps for the decision tree (docs/design.md §The decision): each node's question, answer, reason, source."""

from __future__ import annotations

from collections.abc import Mapping

from policy import rules
from policy.candidates import Option
from policy.choose import FINISH_SLACK, Choice, earliest
from policy.decision import ApprovalRequirement, Platform, PurchaseModel, TraceStep
from policy.estimate import GIB, QLORA_DEQUANT_TOKENS, Workload, memory_per_accelerator_gib
from policy.request import Stage, Tolerance, TrainingRequest
from policy.screen import Screen, by_reason

__all__ = [
    "candidates_step",
    "choice_step",
    "COMPUTE_SOURCE",
    "compute_step",
    "guardrail_step",
    "MAX_LISTED",
    "MEASURED_COMPUTE_SOURCE",
    "MEASURED_MEMORY_SOURCE",
    "MEMORY_SOURCE",
    "memory_step",
    "purchase_step",
    "STAGE_SOURCE",
    "stage_step",
    "STATED_SOURCE",
    "tolerance_step",
    "YOUNG_DALY",
]

STAGE_SOURCE = rules.STAGE_FIRST
MEMORY_SOURCE = ("formula: 16 B/param (mixed-precision Adam) or 2 / 0.6 B/param (LoRA / QLoRA base) sharded "
                 "across the job + activations 2·s·h·L + 34·s·h per accelerator (arXiv 2205.05198, full recompute)")
COMPUTE_SOURCE = ("formula: FLOPs per token = 6·N + 12·L·s·d (4·N + 12·L·s·d for LoRA, plus "
                  f"4·N·{QLORA_DEQUANT_TOKENS:g}/s for QLoRA's dequantising, from Qwen's published step times; N the "
                  "active parameters; PaLM, arXiv "
                  "2204.02311, App. B) plus frozen forward passes for DPO, RLHF and "
                  "distillation, × tokens × trials; hours = FLOPs / (accelerators × peak BF16 × MFU × scaling "
                  "efficiency) + start-up, scaling fitted to "
                  f"{rules.SCALING_TABLE} and put on its scale by tokens per step, FLOP/s, interconnect and "
                  "model-parallel group")
# A job given as accelerator-hours ("about 300 A100-hours"): its work and memory come from those hours.
# A job of a stated length: its hours and hardware are the request's; the cost is instances × price × hours.
STATED_SOURCE = "request: the length and hardware stated; cost = instances × price × (hours + start-up)"
MEASURED_MEMORY_SOURCE = ("formula: each accelerator holds what one of those the hours were said on held (its memory "
                          "less the headroom); nothing is assumed to shard")
MEASURED_COMPUTE_SOURCE = ("formula: FLOPs = the accelerator-hours said × 3600 × that accelerator's peak BF16 × its "
                           "MFU; hours = FLOPs / (accelerators × peak BF16 × MFU × scaling efficiency) + start-up, "
                           f"scaling fitted to {rules.SCALING_TABLE}")
YOUNG_DALY = "formula: checkpoint interval √(2·C·M) (Young 1974 / Daly 2006)"
MAX_LISTED = 4


def stage_step(original: TrainingRequest, stage: Stage) -> TraceStep:
    said = original.stage is not None
    return TraceStep(node="1 stage", question="Experimental or production?", answer=stage.value,
                     reason="said in the request" if said else "not said: experimental is the default",
                     source=STAGE_SOURCE)


def tolerance_step(original: TrainingRequest, tolerance: Tolerance, stage: Stage) -> TraceStep:
    said = original.interruption_tolerance is not None
    reason = "said in the request" if said else f"not said: {stage.value} work defaults to {tolerance.value}"
    return TraceStep(node="2 interruption tolerance", question="Can the job be interrupted and resumed?",
                     answer=tolerance.value, reason=reason, source=STAGE_SOURCE)


def memory_step(work: Workload, option: Option, scr: Screen, *, model_said: bool = True) -> TraceStep:
    """``model_said`` False: a stated length on named hardware with no model, whose memory nothing says."""
    accelerators = option.count * option.profile.spec.accelerator_count
    split = option.profile.context_parallel
    held = memory_per_accelerator_gib(work, accelerators, context_parallel=split)
    memory = option.profile.spec.accelerator_memory_gib or option.profile.accel.memory_gib or 0.0
    if not model_said:
        return TraceStep(node="3 memory", question="How much accelerator memory does the job need?",
                         answer=(f"not judged: no model was said; the hardware named is used as asked, "
                                 f"{memory:g} GiB on each of {accelerators} {option.profile.accel.name}"),
                         reason="a job of a stated length on named hardware: what runs on it is the requester's",
                         source=STATED_SOURCE)
    if work.measured:
        answer = (f"{work.measured} as said: each accelerator must hold what one {work.measured_on} held, "
                  f"{held:.1f} GiB (nothing says how the job would shard across smaller ones); the plan has "
                  f"{memory:g} GiB on each of {accelerators} {option.profile.accel.name}")
    else:
        activations = (f"{work.activation_bytes / GIB:.1f} GiB activations per accelerator" if split == 1 else
                       f"{work.activation_bytes / GIB:.1f} GiB activations per sequence, more than one accelerator "
                       f"holds, split across {split} of each instance's (context parallelism: "
                       f"{work.activation_bytes / split / GIB:.1f} GiB each, its exchange of keys and values assumed "
                       "overlapped with compute)")
        answer = (f"{work.method} training: {work.sharded_bytes / GIB:,.0f} GiB of weights and optimizer state "
                  f"sharded + {activations}; the plan holds "
                  f"{held:.1f} of {memory:g} GiB on each of {accelerators} {option.profile.accel.name}")
    memory_out = [f"{t} ({r})" for t, r in sorted(scr.ruled_out.items()) if "memory" in r or "activations" in r]
    reason = "configurations too small for this are ruled out"
    if memory_out:
        reason += ": " + "; ".join(memory_out[:MAX_LISTED]) + (" …" if len(memory_out) > MAX_LISTED else "")
    return TraceStep(node="3 memory", question="How much accelerator memory does the job need?", answer=answer,
                     reason=reason, source=MEASURED_MEMORY_SOURCE if work.measured else MEMORY_SOURCE)


def compute_step(work: Workload, option: Option, *, stated_hours: float | None = None) -> TraceStep:
    """How long the work takes; ``stated_hours``: the length the request said, for a job of a stated length."""
    accel = option.profile.accel
    spec = option.profile.spec
    if option.stated:
        startup = option.wall_hours - option.compute_hours
        on = f"on {option.count}× {spec.instance_type}"
        stated = option.compute_hours if stated_hours is None else stated_hours
        answer = (f"{stated:,.1f} h as stated {on}, + {startup:.2f} h start-up"
                  if abs(stated - option.compute_hours) < 1e-9 else
                  f"{stated:,.1f} h as stated {on}, {startup:.2f} h of it start-up (the policy's longest job)")
        return TraceStep(node="4 compute", question="How long does the work take?", answer=answer,
                         reason=("a job of a stated length: its hours are the request's, not estimated from the "
                                 "work; the launch stops when they are up"),
                         source=STATED_SOURCE)
    mfu = option.profile.flops_per_instance / (spec.accelerator_count * (accel.peak_bf16_tflops or 1.0) * 1e12)
    work_said = (f"the {work.measured} said, at that accelerator's peak and MFU" if work.measured
                 else f"{work.per_token} per token")
    answer = (f"{work.flops:.3g} FLOPs ({work_said}); {option.compute_hours:,.1f} h of training on "
              f"{option.count}× {spec.instance_type}")
    narrow = "" if accel.mfu is None or mfu >= accel.mfu - 1e-9 else (
        f", lowered from {accel.mfu:.0%} for a model {work.width} wide ({accel.mfu_full_width_source})")
    reason = (f"{accel.name}: {accel.peak_bf16_tflops:g} TFLOP/s peak BF16 at {mfu:.0%} MFU "
              f"({accel.mfu_source or accel.source}{narrow})")
    return TraceStep(node="4 compute", question="How long does the work take?", answer=answer, reason=reason,
                     source=MEASURED_COMPUTE_SOURCE if work.measured else COMPUTE_SOURCE)


def candidates_step(scr: Screen, considered: int, in_time: int, has_deadline: bool, region: str, *,
                    counts: Mapping[str, str] | None = None, gpu_hours: int | None = None,
                    hourly_usd: float | None = None, usd_per_gpu_hour: float | None = None) -> TraceStep:
    """The configurations searched; ``counts``: what the request allows of instance counts, by field ("at most 16
    accelerators", "exactly 4 instances"); ``gpu_hours``: the accelerator-hours it allows; ``hourly_usd``: the hourly
    rate; ``usd_per_gpu_hour``: the price of one accelerator for an hour."""
    cls = scr.size_class
    assert cls is not None
    answer = (f"{considered} configurations in {region} (a type's larger counts that cost no less and finish no "
              "sooner left out)"
              + (f", {in_time} meet the deadline" if has_deadline else ""))
    if scr.hinted:
        reason = "limited to the hardware the request named (size class not applied)"
    else:
        reason = f"{cls.name} models use {', '.join(cls.families)}"
    others = by_reason(scr.ruled_out, keep=lambda r: "memory" not in r and "activations" not in r)
    if others:
        reason += "; ruled out " + "; ".join(others[:MAX_LISTED]) + (" …" if len(others) > MAX_LISTED else "")
    source = f"policy:size_classes[{scr.size_class_index}].families; policy:regions; policy:max_instances"
    if counts:  # "at most 16 GPUs", "on 4 nodes": no other counts were tried
        reason += f"; the request allows {' and '.join(counts.values())}: no other counts tried"
        source += "".join(f"; request:{name}" for name in counts)
    if gpu_hours is not None:  # "500 GPU-hours of budget"
        reason += f"; the request allows at most {gpu_hours:,} accelerator-hours: configurations billing more left out"
        source += "; request:max_gpu_hours"
    if hourly_usd is not None:  # "max $20 per hour"
        reason += f"; the request allows at most ${hourly_usd:,.2f} an hour: dearer configurations left out"
        source += "; request:max_hourly_usd"
    if usd_per_gpu_hour is not None:  # "at most $3 per GPU-hour"
        reason += (f"; the request allows at most ${usd_per_gpu_hour:,.2f} per accelerator-hour: types dearer per "
                   "accelerator left out")
        source += "; request:max_usd_per_gpu_hour"
    return TraceStep(node="5 candidates", question="Which configurations are allowed and fit?", answer=answer,
                     reason=reason, source=source)


def purchase_step(option: Option, source: str) -> TraceStep:
    reason = option.purchase_reason
    if option.spot is not None:
        spot = option.spot
        reason += (f"; checkpoint every {spot.interval_hours * 60:.0f} min: C = {spot.write_hours * 60:.1f} min to "
                   f"write, M = {spot.job_mtbi_hours:,.0f} h between interruptions of the job, "
                   f"~{spot.interruptions:.1f} expected")
        source = f"{source}; {YOUNG_DALY}"
        if option.platform in (Platform.SAGEMAKER, Platform.HYPERPOD):
            reason += ("; SageMaker places managed spot in any zone of the region, so it is priced at the region's "
                       "median")
        else:
            reason += "; EC2 and EKS pin the zone, so it is priced at the cheapest zone observed"
    elif option.purchase is PurchaseModel.ON_DEMAND and "spot" in reason and "never" not in reason:
        reason += "; on-demand came out cheaper or in time where spot did not"
    return TraceStep(node="6 purchase model", question="Spot, on-demand or reserved capacity?",
                     answer=option.purchase.value, reason=reason, source=source)


def choice_step(choice: Choice, has_deadline: bool, *, wish: bool = False) -> TraceStep:
    option = choice.option
    answer = (f"{option.count}× {option.profile.spec.instance_type} {option.purchase.value} on "
              f"{option.platform.value}")
    if choice.over_runtime:
        reason = "nothing fits the policy's max_runtime_hours: the fastest configuration, shown to be denied"
    elif choice.late and earliest(choice.pool).key != option.key:
        reason = (f"nothing meets the deadline: the cheapest of the configurations finishing within "
                  f"{FINISH_SLACK:.0%} of the earliest finish")
    elif choice.late:
        reason = "nothing meets the deadline with the safety margin: the fastest configuration"
    elif has_deadline and wish:
        reason = ("the cheapest expected cost that meets the deadline, a date hoped for, so without the safety "
                  "margin a promised date is planned with")
    elif has_deadline:
        reason = "the cheapest expected cost that meets the deadline with the safety margin"
    else:
        reason = "no deadline: the cheapest expected cost (ties: earlier finish)"
    if choice.fallback:
        inside = any(not o.profile.outside_class and o.meets is not False for o in choice.pool)
        # without a deadline only the runtime cap rules a configuration out
        short = "meets the deadline" if has_deadline else "finishes within the policy's max_runtime_hours"
        reason += ("; outside the size class, which is a preference: it stays the cheapest with the size-class "
                   "penalty added" if inside else f"; outside the size class because nothing inside it {short}")
    return TraceStep(node="8 choice", question="Which configuration?", answer=answer, reason=reason,
                     source=f"policy:deadline_safety_margin; {rules.COST_PER_RUN}")


def guardrail_step(approval: ApprovalRequirement) -> TraceStep:
    if approval.denied:
        answer = "denied"
    elif not approval.required:
        answer = "auto-approved"
    else:
        answer = f"{approval.approvals_needed} approval(s) from {', '.join(approval.approver_groups) or 'nobody'}"
    return TraceStep(node="9 guardrails", question="Who must approve it?", answer=answer,
                     reason="; ".join(approval.reasons),
                     source="policy:approval_tiers; policy:auto_approve_below_usd; policy:deny_above_usd; "
                            "policy:max_runtime_hours; policy:teams.<team>.monthly_budget_usd")
