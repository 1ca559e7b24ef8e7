"""What ``policy.decide`` returns: the plan, its alternatives, the trace and the approval requirement.

This is the wire contract shared by ``gpuops plan --json``, the service API and the bot.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, computed_field

from policy.capacity import CapacityAction, CapacityCheck
from policy.jobspec import JobSpec
from policy.request import Platform, TrainingRequest
from policy.spend import SpendSnapshot

__all__ = [
    "Alternative",
    "ApprovalRequirement",
    "canonical_bytes",
    "canonical_json",
    "CatalogRef",
    "CostItem",
    "Decision",
    "Plan",
    "plan_hash",
    "Platform",
    "PurchaseModel",
    "TraceStep",
]


class PurchaseModel(StrEnum):
    SPOT = "spot"
    ON_DEMAND = "on-demand"
    CAPACITY_BLOCK = "capacity-block"


class TraceStep(BaseModel):
    """One node of the decision tree: what was asked, what was answered, why, and where the rule comes from."""

    model_config = ConfigDict(frozen=True)

    node: str
    question: str
    answer: str
    reason: str
    source: str


class CostItem(BaseModel):
    model_config = ConfigDict(frozen=True)

    item: str
    usd: float
    basis: str


class Plan(BaseModel):
    """A concrete configuration with its cost and time."""

    model_config = ConfigDict(frozen=True)

    instance_type: str
    instance_count: int
    accelerator: str
    accelerators: int
    purchase_model: PurchaseModel
    platform: Platform
    region: str
    price_per_instance_hour_usd: float
    estimated_hours: float
    estimated_finish: datetime
    deadline_met: bool | None
    deadline_margin_hours: float | None
    estimated_cost_usd: float
    cost_low_usd: float
    cost_high_usd: float
    cost_breakdown: list[CostItem]
    checkpoint_interval_minutes: int | None
    max_runtime_hours: float
    cost_range_basis: str = ""  # how cost_low_usd / cost_high_usd were derived
    # Sweeps run each trial as its own training job: ``jobs`` jobs of ``instances_per_job`` instances,
    # ``instance_count`` instances busy at a time. One synchronous job otherwise.
    jobs: int = 1
    instances_per_job: int | None = None
    # Each sequence split across this many of an instance's accelerators (context parallelism): a long context whose
    # activations one accelerator cannot hold. The container is told (GPUOPS_CONTEXT_PARALLEL).
    context_parallel: int = 1
    # The arithmetic the job trains in: "fp8" when the request said so and the plan is on parts that compute in FP8
    # (priced at BF16 speed); the container is told (GPUOPS_PRECISION).
    precision: Literal["bf16", "fp8"] = "bf16"
    # Whether the account can start it: quota, spot placement score, offering (None: capacity was not looked at).
    capacity: CapacityCheck | None = None

    @property
    def job_instances(self) -> int:
        """The instances of one job (all of them for one synchronous job)."""
        return self.instances_per_job or self.instance_count

    @property
    def jobs_at_once(self) -> int:
        """How many of the plan's jobs run at once: its instances over one job's. A sweep whose trials outnumber
        that runs them in turn, never more instances at a time than ``instance_count``."""
        return max(1, min(self.jobs, self.instance_count // self.job_instances))

    @property
    def cost_fixed(self) -> bool:
        """Whether the cost cannot move: a job of a stated length at a fixed hourly price has no range."""
        return self.cost_low_usd == self.cost_high_usd

    @property
    def on_offering(self) -> bool:
        """Whether the plan runs in reserved capacity offered to the account and bought for the run (a capacity
        block or a SageMaker training plan): paid up front, and launched only once bought."""
        return (self.purchase_model is PurchaseModel.CAPACITY_BLOCK and self.capacity is not None
                and (self.capacity.offering_upfront_usd or 0) > 0)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def exposure_usd(self) -> float:
        """The most the launch can bill: every job's instances at the plan's price for the launch's hard runtime cap
        (MaxRuntime; SageMaker bills managed spot's training time only, which MaxRuntime caps), plus what is billed
        once whatever the runtime (moving the data into the plan's region). Rounded up to the cent, so it never
        understates."""
        capped = self.capped_at_usd(self.price_per_instance_hour_usd)
        if self.on_offering:
            # its whole window is paid up front, used or not, and its instances stop when it ends: a runtime cap past
            # the window bills nothing more
            return self.estimated_cost_usd
        if self.purchase_model is PurchaseModel.CAPACITY_BLOCK:
            return max(capped, self.estimated_cost_usd)  # held capacity: its hours valued up to the runtime cap
        return capped


    def capped_at_usd(self, price_per_instance_hour_usd: float) -> float:
        """What the launch may bill before its runtime cap stops it at this price per instance-hour: every job's
        instances for MaxRuntime, plus what is billed once whatever the runtime; rounded up to the cent."""
        instances = self.jobs * self.job_instances
        once = sum(item.usd for item in self.cost_breakdown if not item.item.startswith("compute"))
        return math.ceil((instances * price_per_instance_hour_usd * self.max_runtime_hours + once) * 100 - 1e-6) / 100


class Alternative(Plan):
    label: str


class ApprovalRequirement(BaseModel):
    model_config = ConfigDict(frozen=True)

    required: bool
    approvals_needed: int
    approver_groups: list[str]
    reasons: list[str]
    denied: bool
    # Groups at least one of whose members must be among the approvers (money over the team's remaining budget or
    # above ``finance_above_usd`` goes to finance, whatever the stage).
    required_groups: list[str] = Field(default_factory=list[str])


class CatalogRef(BaseModel):
    model_config = ConfigDict(frozen=True)

    snapshot: str
    source: str


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True)

    request: TrainingRequest
    plan: Plan
    alternatives: list[Alternative] = Field(default_factory=list[Alternative])
    trace: list[TraceStep] = Field(default_factory=list[TraceStep])
    assumptions: list[str] = Field(default_factory=list[str])
    warnings: list[str] = Field(default_factory=list[str])
    approval: ApprovalRequirement
    spend: SpendSnapshot
    catalog: CatalogRef
    savings_vs_naive_usd: float | None
    naive_baseline: Plan | None
    policy_version: str = ""
    launch_configured: bool = True
    # What the launch runs (policy.jobspec): part of the plan hash, so approving binds to it. None: a team without
    # recipes, whose launch profile alone says what runs.
    job: JobSpec | None = None
    # What a person may approve so that the plan can start (a quota increase when nothing fits).
    capacity_actions: list[CapacityAction] = Field(default_factory=list[CapacityAction])

    @property
    def over_budget_usd(self) -> float | None:
        """How far the plan's estimate is over the budget the request said (0.0 within it); None when none was."""
        budget = self.request.budget_usd
        return None if budget is None else max(0.0, round(self.plan.estimated_cost_usd - budget, 2))


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8: the same text for the same value on every database."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# ``canonical_json``'s encoder without the cycle check: a decision's document is a tree of plain JSON values (a
# model dump or a column read back), so the same text comes out with a little less work per object.
_DOCUMENT_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False)
# Anything but plain JSON values is refused (and so left to ``json``, which refuses it too), never written orjson's way.
_ORJSON_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
                   | orjson.OPT_PASSTHROUGH_SUBCLASS)
_DIGITS = frozenset(b"0123456789")


def _small_float_in(text: bytes) -> bool:
    """Whether orjson's ``text`` may hold a float under 1e-4, which it writes as "0.00001" or "1e-7" where ``json``
    writes "1e-05": a digit before "e-", or "0.0000" anywhere, a string's text included (which only sends the
    document to ``json``). Found with ``bytes.find``, many times faster than a regular expression over the text."""
    if b"0.0000" in text:
        return True
    at = text.find(b"e-", 1)
    while at != -1:
        if text[at - 1] in _DIGITS:
            return True
        at = text.find(b"e-", at + 2)
    return False


def canonical_bytes(document: Mapping[str, Any], *, finite: bool = False) -> bytes:
    """``canonical_json(document)`` as UTF-8, the text a plan hash is taken of.

    ``finite``: the caller knows that ``document`` holds only plain JSON values and no infinite or NaN figure (a
    JSON-mode dump whose written text says so). orjson then writes the same text about ten times faster: the two
    differ only on what is checked here — a float under 1e-4, which ``json`` writes with an exponent, an integer
    past 64 bits or a lone surrogate, which orjson refuses — and on non-finite figures (null, not NaN), which the
    caller has ruled out. Anything else is written by ``json`` itself.
    """
    if finite:
        try:
            text = orjson.dumps(document, option=_ORJSON_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: what orjson refuses, json writes or refuses itself
            pass
        else:
            if not _small_float_in(text):
                return text
    return _DOCUMENT_JSON.encode(dict(document)).encode("utf-8")


def plan_hash(document: Mapping[str, Any], *, finite: bool = False) -> str:
    """The hash that names one plan: SHA-256 of a decision's JSON document in canonical form (``canonical_bytes``;
    ``finite`` as there).

    Approvals bind to it and a launch re-checks it; every door (CLI, ``POST /v1/plans``, ``POST /v1/requests``)
    computes it here.
    """
    return hashlib.sha256(canonical_bytes(document, finite=finite)).hexdigest()
