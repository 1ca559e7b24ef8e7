"""The training request: what a person asked for, as typed fields.

``TrainingRequest`` holds what was said; fields left ``None`` were not said and get their defaults in
``policy.defaults.complete`` (which records each default as an assumption). The free-text parser lives in
``policy.parse``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from policy.recipes import JobChoice
from policy.regions import AREA_JOIN, AREAS

__all__ = ["COST_CENTER_PATTERN", "HARDWARE_FIELDS", "MAX_PARAMS", "MAX_TEXT_CHARS", "measures_work", "Platform",
           "PLATFORM_NAMES", "Stage", "Task", "Tolerance", "TrainingRequest"]

MAX_TEXT_CHARS = 2000
MAX_PARAMS = 10_000_000_000_000  # 10T


class Task(StrEnum):
    PRETRAIN = "pretrain"
    CONTINUED_PRETRAIN = "continued-pretrain"
    FINE_TUNE = "fine-tune"
    LORA = "lora"
    QLORA = "qlora"
    SWEEP = "sweep"
    DPO = "dpo"  # preference tuning: the policy trains while a frozen reference model scores every pair
    RLHF = "rlhf"  # PPO-style: generation plus policy, value, reward and reference models
    DISTILL = "distill"  # a student trains on a frozen teacher's outputs


class Platform(StrEnum):
    """Where a job runs (docs/design.md §Platform); a request may name one, a plan always has one."""

    SAGEMAKER = "sagemaker"
    HYPERPOD = "hyperpod"
    EKS = "eks"
    EC2 = "ec2"


# How a platform is named to a person, in refusals, traces and the terminal.
PLATFORM_NAMES = {Platform.SAGEMAKER: "SageMaker", Platform.HYPERPOD: "HyperPod", Platform.EKS: "EKS",
                  Platform.EC2: "EC2"}

class Stage(StrEnum):
    EXPERIMENTAL = "experimental"
    PRODUCTION = "production"


class Tolerance(StrEnum):
    HIGH = "high"
    LOW = "low"


# A cost center as a tag value can carry it: letters, digits and the few marks AWS tag values allow (no spaces, so a
# code reads as one word in Slack and in a tag filter).
COST_CENTER_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.:/=+@-]{0,63}$"
# The fields that name the hardware itself, a count or a kind ("16 GPUs", "H100", "p5"); a choice among several kinds
# ("p4d or p5") is ``hardware_choice``
HARDWARE_FIELDS = ("gpus", "instances", "accelerator", "instance_type")


def measures_work(fields: Mapping[str, Any]) -> bool:
    """Whether ``fields`` give the work as hours on hardware ("300 A100-hours", "20 node-hours on p4d") rather than by
    a model's size and tokens."""
    return fields.get("work_gpu_hours") is not None or fields.get("work_instance_hours") is not None


class HardwareOption(BaseModel):
    """One of several pieces of hardware named each with its own count, to choose between ("8 A100s or 4 H100s"),
    and with its own length when each is a job of stated length ("8 A100s for 2 days or 8 H100s for 1 day")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    accelerator: str | None = Field(default=None, min_length=1, max_length=64)  # with ``gpus``
    gpus: int | None = Field(default=None, ge=1, le=100_000)
    instance_type: str | None = Field(default=None, min_length=1, max_length=64)  # a type or family, with ``instances``
    instances: int | None = Field(default=None, ge=1, le=10_000)
    hours: float | None = Field(default=None, gt=0, le=24 * 366)  # the job's stated length

    def __str__(self) -> str:
        hardware = (f"{self.gpus}× {self.accelerator}" if self.accelerator is not None
                    else f"{self.instances or 1}× {self.instance_type}")
        return hardware if self.hours is None else f"{hardware} for {self.hours:g} h"


# What each alert field's levels are, and the most each may be.
_ALERT_CEILINGS = {"alert_at_percent": (1000.0, "a percent of the estimate"), "alert_at_usd": (1e8, "in dollars")}


class TrainingRequest(BaseModel):
    """A request for training compute. ``None`` means 'not said'."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(default="", max_length=MAX_TEXT_CHARS)
    task: Task | None = None
    params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    tokens: int | None = Field(default=None, gt=0)
    trials: int | None = Field(default=None, ge=1, le=10_000)
    deadline: datetime | None = None
    stage: Stage | None = None
    interruption_tolerance: Tolerance | None = None
    seq_len: int | None = Field(default=None, ge=128, le=1_048_576)
    # "2 epochs over 500M tokens", "Epochs: 2", "epochs=2": the passes over the data asked for; the tokens count them
    # already, and a recipe takes them as {epochs} so the job trains as many as were priced
    epochs: float | None = Field(default=None, gt=0, le=1000)
    budget_usd: float | None = Field(default=None, gt=0)
    # "under 10% of our monthly budget": a share of the team's monthly budget (or, with budget_percent_of_left, of
    # what is left of it this month) that the decision turns into budget_usd (``policy.budget_share``)
    budget_percent: float | None = Field(default=None, gt=0, le=100)
    budget_percent_of_left: bool | None = None
    region: str | None = None
    team: str | None = None
    accelerator: str | None = None
    instance_type: str | None = None
    gpus: int | None = Field(default=None, ge=1, le=100_000)
    instances: int | None = Field(default=None, ge=1, le=10_000)  # "on 4x p5.48xlarge": becomes gpus in the tree
    # Ceilings, not counts ("at most 16 GPUs", "up to 2 nodes"): the plan may use fewer, never more.
    max_gpus: int | None = Field(default=None, ge=1, le=100_000)
    max_instances: int | None = Field(default=None, ge=1, le=10_000)
    # An allowance of accelerator-hours ("500 GPU-hours of budget"): configurations billing more, over all their
    # instances and runs, are ruled out.
    max_gpu_hours: int | None = Field(default=None, ge=1, le=100_000_000)
    # A ceiling on the plan's hourly rate, all its instances together ("max $20 per hour"): dearer configurations are
    # ruled out.
    max_hourly_usd: float | None = Field(default=None, gt=0, le=1e7)
    # A ceiling on the price of one accelerator for an hour ("at most $3 per GPU-hour"): instance types whose rate,
    # over the accelerators they hold, is dearer are ruled out.
    max_usd_per_gpu_hour: float | None = Field(default=None, gt=0, le=1e5)
    # Floors ("at least 8 GPUs", "2 nodes or more"): the plan may use more, never fewer.
    min_gpus: int | None = Field(default=None, ge=1, le=100_000)
    min_instances: int | None = Field(default=None, ge=1, le=10_000)
    # The named hardware (type, family, accelerator or count) is a preference ("trn1 if possible", "prefer A100s"):
    # planned on when it can run the job; when it cannot, the plan leaves it open and says why.
    hardware_preferred: bool | None = None
    # How much more the preferred hardware may cost than the plan with it left open ("prefer A100s if not much more
    # expensive": 0.2; "if within 10%": 0.1); past it the plan leaves the hardware open and says why.
    hardware_premium_max: float | None = Field(default=None, ge=0, le=10)
    # The accelerators asked for when no instance makes that count and the plan's gpus were raised to the next count
    # one does ("4 A100s": 8): a person approves the larger count, never the policy alone.
    gpus_asked: int | None = Field(default=None, ge=1, le=100_000)
    # Several pieces of hardware named to choose among ("on p5 or p4d", "H100 or A100"): types, families or
    # accelerators; the plan picks the best of them, as it would among the types one family holds.
    hardware_choice: list[str] = Field(default_factory=list[str], max_length=16)
    # Accelerators named each with its own count to choose between ("8 A100s or 4 H100s, whichever is cheaper"): each
    # is planned as if asked alone, the plan is the one that best does what the request asks (the cheapest, or the
    # earliest when urgent), and the others are its alternatives, labelled by what was said.
    hardware_options: list[HardwareOption] = Field(default_factory=list[HardwareOption], max_length=4)
    # The named region is a preference ("prefer us-west-2", "ideally in eu-west-1"): planned in, with what the
    # cheapest region the team can launch in would save; when it cannot run the job, the region is left open.
    region_preferred: bool | None = None
    # The preferred region's price condition ("prefer eu-west-1, but the US is fine if much cheaper", "… unless another
    # region is 20% cheaper"): past this share more than the plan elsewhere, the preference gives way to the cheapest
    # region the condition allows, those of ``region_fallback_area`` (an area of ``policy.regions.AREAS``; None: any
    # the team can launch in).
    region_premium_max: float | None = Field(default=None, ge=0, le=10)
    region_fallback_area: str | None = Field(default=None, max_length=64)
    # Where the request says its data lives ("the data is in us-west-2"): moving it out of there is priced, and with
    # no region said the plan runs there. None: the team's data region (``teams.<team>.data_region``).
    data_region: str | None = Field(default=None, pattern=r"^[a-z]{2}(?:-gov)?-[a-z]+-\d{1,2}$")
    model: str | None = Field(default=None, max_length=200)  # a named base model (``policy.models``)
    urgent: bool | None = None  # "asap": the earliest finish, not the cheapest run
    # A capacity block the team already holds ("we have cr-0123456789abcdef0"): run in it when it fits.
    capacity_reservation: str | None = Field(default=None, pattern=r"^cr-[0-9a-f]{8,17}$")
    # "on EKS", "with hyperpod": plan on that platform only, when the team's policy enables it (else refused).
    platform: Platform | None = None
    # The platform is a preference ("hyperpod if possible"): one the team's policy does not enable is left to the
    # policy's choice, with a note, instead of refused.
    platform_preferred: bool | None = None
    # Several platforms named to compare ("compare SageMaker vs EKS", "on SageMaker or EKS"): the policy chooses the
    # plan's, and the best configuration on each other one the team may use is an alternative, labelled "on EKS".
    platform_choice: list[Platform] = Field(default_factory=list[Platform], max_length=4)
    # Both stages named to compare ("how much more would production cost vs experimental?"): the plan is the stricter
    # stage's, and what the other would cost is said beside it, planned from the same words.
    stage_choice: list[Stage] = Field(default_factory=list[Stage], max_length=2)
    # Ways of training named to compare ("LoRA vs full fine-tune", "decide between LoRA and full FT, price both"): the
    # plan is the first said; what each other would cost is said beside it (a warning, as it is another job).
    task_choice: list[Task] = Field(default_factory=list[Task], max_length=4)
    # Model sizes named to compare ("7B vs 13B on 1B tokens", "compare 7B and 13B"): the plan is the first said; what
    # each other would cost is said beside it (a warning, as it is another job).
    params_choice: list[int] = Field(default_factory=list[int], max_length=4)
    # "no H100s", "not on p5", "avoid g5": accelerators, instance families or types the plan must not use.
    exclude: list[str] = Field(default_factory=list[str], max_length=32)
    # "in us-east-2 or us-west-2": the only regions searched, the first said first; "not in us-east-1": regions the
    # plan must not run in (every other one the team can launch in is searched).
    regions: list[str] = Field(default_factory=list[str], max_length=32)
    exclude_regions: list[str] = Field(default_factory=list[str], max_length=32)
    # "no SageMaker", "not on EKS": platforms the plan must not use, whatever the team's policy would choose
    exclude_platforms: list[Platform] = Field(default_factory=list[Platform], max_length=4)
    # What the parser had to interpret ("took Tuesday 2026-12-08 for 'next Tuesday'").
    notes: list[str] = Field(default_factory=list[str])

    # --- When, how long and on what held capacity (policy.reading); what the text said that nothing read ---
    start_after: datetime | None = None  # "64 H100s tomorrow", "starting Monday": the job starts then, not before
    fixed_hours: float | None = Field(default=None, gt=0, le=24 * 90)  # "eval run 7B 2h": a job of that length
    # "it takes about 300 A100-hours": the job's size as accelerator-hours on a named accelerator, its compute when no
    # model size is said (any model: a diffusion model, a CNN); planned on any hardware as the FLOPs those hours do.
    work_gpu_hours: float | None = Field(default=None, gt=0, le=100_000_000)
    work_accelerator: str | None = None  # the accelerator those hours are on ("A100"); with work_gpu_hours
    # "it took about 20 node-hours on p4d": the work as hours of whole instances of a type (or family), turned into its
    # accelerators' hours by the decision, which knows how many each holds (with work_gpu_hours unset)
    work_instance_hours: float | None = Field(default=None, gt=0, le=100_000_000)
    work_instance_type: str | None = Field(default=None, max_length=40)
    # "no multi-node spot" (False), "multi-node spot is fine" (True): whether spot may span several instances, over
    # the team's setting; None: the team's setting, or spot said to be fine for the job
    multi_node_spot: bool | None = None
    # "2 fine-tunes back to back", "3 seeds one after the other": at most this many of the runs at a time (each still a
    # job of its own); None: as many side by side as the hardware allowed holds
    runs_at_once: int | None = Field(default=None, ge=1, le=10_000)
    reserved: bool | None = None  # "we have a capacity block for 4x p5.48xlarge": capacity held and paid
    # "reserve a capacity block for 16 H100s": reserved capacity bought for the run, when the account is offered one
    # that fits (an EC2 capacity block or a SageMaker training plan); else the plan says why there is none.
    reserve_capacity: bool | None = None
    unread: list[str] = Field(default_factory=list[str])  # phrases nothing used: listed, and never auto-approved

    # --- what to run (policy.recipes, policy.jobspec) ---
    # The recipe, dataset and hyperparameter overrides the request named; None: the team's default recipe as is.
    job: JobChoice | None = None

    # The shape of the work beyond its size (``policy.workload_words`` reads them from text).
    # Mixture of experts: parameters one token passes through (compute follows them; memory follows ``params``).
    active_params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    # Distillation: the frozen teacher's size ("distill 8B from a 70B teacher").
    teacher_params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    # A teacher that is a mixture of experts: the parameters its forward pass touches per token (compute).
    teacher_active_params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    # RLHF/PPO: the reward model's size ("reward model is 7B"); the value model starts from it, as in PPO's usual
    # setup. None: both are the policy's size.
    reward_params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    # DPO/RLHF/distillation through LoRA or QLoRA adapters instead of full weights.
    adapter: Task | None = None

    # --- where it may run and how it steps ---
    # An area ("in europe", "EU only"): only the policy's regions there are searched (``policy.regions.AREAS``).
    area: str | None = None
    # The global batch, tokens per optimizer step ("batch size 1M tokens"), or sequences ("batch size 512"): it sets
    # how far the job scales across instances (``policy.estimate.workload``); unsaid, the task's usual batch.
    batch_tokens: int | None = Field(default=None, ge=1, le=10**9)
    batch_sequences: int | None = Field(default=None, ge=1, le=10**6)
    # The dataset's size as said ("a 4TB dataset"): what moving it out of its region moves, when the tokens trained
    # are said apart from it; unsaid, the tokens' stored size stands in.
    dataset_bytes: int | None = Field(default=None, ge=1, le=4 * 10**15)
    # Who pays ("cost center ML-4411"): the launched job carries it as a tag (``PolicyConfig.cost_center_tag``) so that
    # Cost Explorer and the bill attribute the spend to it; it changes nothing else in the plan.
    cost_center: str | None = Field(default=None, min_length=1, max_length=64)
    # "avoid cross-region data transfer", "no egress": run only where the data is (``data_region``, else the team's),
    # so nothing is copied between regions.
    keep_with_data: bool | None = None
    # "train in FP8": only accelerators that compute in FP8 run it (``AcceleratorSpec.fp8``); the estimate keeps their
    # BF16 speed, so a run FP8 speeds up ends sooner and costs less than planned, never later or more.
    fp8: bool | None = None
    # "ideally by Friday", "no hard deadline, but ideally within 2 weeks": a date hoped for is met, without the stage's
    # safety margin, which would otherwise buy costlier hardware to land a margin ahead of a date that is no promise.
    deadline_wish: bool | None = None
    # "just a quote, don't launch": a plan to read, never to run; filed as an estimate, which takes no approval and
    # launches nothing (ask again without it to run the job)
    estimate_only: bool | None = None
    # "needs finance approval", "ask finance before launching": the policy's finance group must approve it too, as a
    # plan over budget needs (never approved automatically)
    finance_signoff: bool | None = None
    # "stop it if it costs more than $150": the launch's runtime cap is set so that it cannot bill more (the plan's
    # hard cap on spend, not only a budget it is checked against)
    stop_at_usd: float | None = Field(default=None, gt=0, le=1e8)
    # "if it's over $100 don't launch it": a plan estimated above it is denied, and one below it is stopped there
    launch_below_usd: float | None = Field(default=None, gt=0, le=1e8)
    # "last time it took 4 hours on 8 A100s": an earlier run of the work, in accelerator-hours on a part; history,
    # never this plan's length or hardware, but set beside the estimate (a warning when they differ twofold)
    earlier_gpu_hours: float | None = Field(default=None, gt=0, le=1e8)
    earlier_accelerator: str | None = Field(default=None, max_length=32)
    # "lora rank 64", "r=128": the adapters' rank, which sizes their weights and optimizer state (rank 16 unsaid)
    lora_rank: int | None = Field(default=None, ge=1, le=4096)
    # "alert me at 80% of the estimate", "ping me when it hits $500": besides the shares of the estimate every launch
    # is told at, the request's thread is told when the job's cost so far passes each of these (percent of the
    # approved estimate; dollars)
    alert_at_percent: tuple[float, ...] | None = Field(default=None, min_length=1, max_length=10)
    alert_at_usd: tuple[float, ...] | None = Field(default=None, min_length=1, max_length=10)
    # "as many tokens as fit in $200": the tokens are the most the budget pays for on the plan's hardware, found by
    # the decision; with tokens said, or no budget, it changes nothing (and says so).
    tokens_fit_budget: bool | None = None
    # "the biggest model we can pretrain on 20B tokens for $30k": the model's size is the largest whose plan the budget
    # pays for, by the deadline and on the hardware named, found by the decision; with a size said it changes nothing.
    params_fit_budget: bool | None = None
    # "the biggest llama you can for $500": the family that largest model is one of (its sizes in the model table);
    # None: any size
    params_family: str | None = Field(default=None, max_length=40)
    # "how many 13B LoRA runs on 200M tokens fit in $2k?": how many runs like the one planned the budget pays for, said
    # by the decision beside the plan of one run (asking for that many plans them all); needs a budget.
    runs_fit_budget: bool | None = None

    def hardware_named(self) -> bool:
        """Whether the request names the hardware itself (``HARDWARE_FIELDS``)."""
        return any(getattr(self, name) is not None for name in HARDWARE_FIELDS)

    @field_validator("alert_at_percent", "alert_at_usd")
    @classmethod
    def _alert_levels(cls, value: tuple[float, ...] | None, info: ValidationInfo) -> tuple[float, ...] | None:
        """Each level above 0 and at most its field's ceiling; kept once each, in order."""
        if value is None:
            return None
        ceiling, what = _ALERT_CEILINGS[info.field_name or ""]
        if not all(0 < level <= ceiling for level in value):
            raise ValueError(f"each alert level is {what}, above 0 and at most {ceiling:,.0f}")
        return tuple(sorted(set(value)))

    @field_validator("area")
    @classmethod
    def _known_area(cls, value: str | None) -> str | None:
        unknown = [one for one in (value or "").split(AREA_JOIN) if value is not None and one not in AREAS]
        if unknown:
            raise ValueError(f"unknown area {unknown[0]!r}; use one of {', '.join(AREAS)}, or several joined by "
                             f"'{AREA_JOIN}' (us{AREA_JOIN}eu)")
        return value

    @field_validator("cost_center")
    @classmethod
    def _taggable_cost_center(cls, value: str | None) -> str | None:
        if value is not None and re.fullmatch(COST_CENTER_PATTERN, value) is None:
            raise ValueError("a cost center is one word of letters, digits and _ . : / = + @ - (up to 64 "
                             "characters), e.g. ML-4411")
        return value

    @field_validator("deadline", "start_after")
    @classmethod
    def _deadline_is_aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("a time must carry a UTC offset, e.g. 2026-12-04T17:00:00-08:00")
        return value
