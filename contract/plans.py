"""What a plan is asked for with: free text, structured fields, or both (``POST /v1/plans`` and the request bodies)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import Field, GetJsonSchemaHandler

from contract.base import InputModel
from contract.text import Text
from policy.request import MAX_PARAMS, Platform, Stage, Task, Tolerance

MAX_TEXT_CHARS = 20_000



class _NamedKeysOnly:
    """Says in the JSON schema that a map holds only keys of its name pattern, as validation enforces, so a client
    generated from it never sends another key."""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        schema = dict(handler(core_schema))
        schema["additionalProperties"] = False
        return schema


HYPERPARAMETER_NAME = r"^[A-Za-z][A-Za-z0-9_]{0,63}$"
Hyperparameters = Annotated[dict[Annotated[str, Field(pattern=HYPERPARAMETER_NAME)], int | float | bool | Text],
                            _NamedKeysOnly()]

class PlanFields(InputModel):
    """Structured fields of a request; each one wins over what the text says."""

    task: Task | None = None
    params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    tokens: int | None = Field(default=None, gt=0, le=10**16)
    trials: int | None = Field(default=None, ge=1, le=10_000)
    deadline: datetime | None = None
    stage: Stage | None = None
    interruption_tolerance: Tolerance | None = None
    seq_len: int | None = Field(default=None, ge=128, le=1_048_576)
    budget_usd: float | None = Field(default=None, gt=0, le=1e12)
    budget_percent: float | None = Field(default=None, gt=0, le=100, description=(
        "a budget said as a share of the team's monthly budget in the policy, in percent: the decision turns it into "
        "budget_usd and notes how (with budget_usd too, the smaller is the budget)"))
    budget_percent_of_left: bool | None = Field(default=None, description=(
        "with budget_percent: the share is of what is left of the monthly budget this month (needs current spend; "
        "without it a person checks the plan)"))
    tokens_fit_budget: bool | None = Field(default=None, description=(
        "with budget_usd and no tokens: the tokens are the most the budget pays for on the plan's hardware, found by "
        "the decision and noted"))
    params_fit_budget: bool | None = Field(default=None, description=(
        "with no params and a budget_usd, deadline or hardware to fit in: the model's size is the largest whose plan "
        "fits them all, found by the decision and noted"))
    params_family: Text | None = Field(default=None, min_length=1, max_length=40, description=(
        "with params_fit_budget: a model family (\"llama\", \"qwen2.5\") whose sizes in the model table are the "
        "ones tried, largest first"))
    runs_at_once: int | None = Field(default=None, ge=1, le=10_000, description=(
        "of several trials, the most run at a time (1: one after another, so the plan finishes when all have run)"))
    runs_fit_budget: bool | None = Field(default=None, description=(
        "with budget_usd: how many runs like the one planned the budget pays for, noted beside the plan of one run"))
    region: Text | None = Field(default=None, min_length=1, max_length=32)
    team: Text | None = Field(default=None, min_length=1, max_length=128)
    accelerator: Text | None = Field(default=None, max_length=64)
    instance_type: Text | None = Field(default=None, max_length=64)
    gpus: int | None = Field(default=None, ge=1, le=100_000)
    platform: Platform | None = Field(default=None, description=(
        "plan on this platform only; one the team's policy does not enable is a 422 platform_not_allowed"))
    exclude_platforms: list[Platform] | None = Field(default=None, max_length=4, description=(
        "platforms the plan must not use: the policy's choice among the team's others; none left is a 422 "
        "platform_not_allowed naming the policy keys"))
    platform_preferred: bool | None = Field(default=None, description=(
        "the platform is a preference: one the team's policy does not enable is left to the policy, with a note"))
    task_choice: list[Task] | None = Field(default=None, max_length=4, description=(
        "ways of training to compare (lora, fine-tune, …): the plan is the first, and a warning says what each other "
        "would cost"))
    params_choice: list[Annotated[int, Field(gt=0, le=MAX_PARAMS)]] | None = Field(
        default=None, max_length=4, description=(
            "model sizes to compare: the plan is for the first (or params), and a warning says what each other "
            "would cost"))
    platform_choice: list[Platform] | None = Field(default=None, max_length=4, description=(
        "platforms to compare: the policy chooses the plan's, and the best configuration on each other one the team "
        "may use is an alternative labelled \"on EKS\" (one it may not use is noted)"))
    exclude: list[Annotated[Text, Field(min_length=1, max_length=64)]] | None = Field(
        default=None, max_length=32, description=(
            "accelerators (H100), instance families (p5) or types (p5.48xlarge) the plan must not use"))
    regions: list[Annotated[Text, Field(min_length=1, max_length=32)]] | None = Field(
        default=None, max_length=32, description=(
            "search only these regions, the first first (region names one to search alone)"))
    exclude_regions: list[Annotated[Text, Field(min_length=1, max_length=32)]] | None = Field(
        default=None, max_length=32, description=(
            "regions the plan must not run in; every other region the team can launch in is searched"))
    capacity_reservation: Text | None = Field(default=None, max_length=32, description=(
        "a capacity block the team holds, to run in: cr- and 8 to 17 hex digits (else 422 invalid_request)"))

    # --- When, how long, on held capacity (answers to the planner's questions, or given outright) ---
    start_after: datetime | None = None
    fixed_hours: float | None = Field(default=None, gt=0, le=24 * 90)
    work_gpu_hours: float | None = Field(default=None, gt=0, le=100_000_000, description=(
        "the job's size as accelerator-hours on work_accelerator (\"it takes about 300 A100-hours\"): its work when "
        "no model size is given, planned on whatever hardware does it best"))
    work_accelerator: Text | None = Field(default=None, max_length=64, description=(
        "the accelerator work_gpu_hours are on, as the catalog names it (A100, H100, L40S, ...)"))
    reserved: bool | None = None
    instances: int | None = Field(default=None, ge=1, le=10_000)
    max_gpus: int | None = Field(default=None, ge=1, le=100_000, description=(
        "a ceiling on accelerators: the plan uses at most this many (gpus is an exact count)"))
    max_instances: int | None = Field(default=None, ge=1, le=10_000, description=(
        "a ceiling on instances, under the policy's own max_instances (instances is an exact count)"))
    min_gpus: int | None = Field(default=None, ge=1, le=100_000, description=(
        "a floor on accelerators: the plan uses at least this many"))
    min_instances: int | None = Field(default=None, ge=1, le=10_000, description=(
        "a floor on instances: the plan uses at least this many"))
    max_gpu_hours: int | None = Field(default=None, ge=1, le=100_000_000, description=(
        "an allowance of accelerator-hours: configurations billing more, over all instances and runs, are left out"))
    max_hourly_usd: float | None = Field(default=None, gt=0, le=1e7, description=(
        "a ceiling on the plan's hourly rate, all its instances together: dearer configurations are left out"))
    max_usd_per_gpu_hour: float | None = Field(default=None, gt=0, le=1e5, description=(
        "a ceiling on the price of one accelerator for an hour: types whose rate over their accelerators is dearer "
        "are left out"))
    data_region: Text | None = Field(default=None, max_length=32, description=(
        "where the data lives, when not the team's data region: moving it elsewhere is priced and warned of"))
    # --- what to run (docs/training-contract.md) ---
    recipe: Text | None = Field(default=None, max_length=64, description="a recipe of the team; default: its "
                                "default recipe")
    dataset: Text | None = Field(default=None, max_length=1024, description="a dataset name of the recipe or an "
                                 "s3:// URI under its data prefixes")
    model: Text | None = Field(default=None, max_length=200, description="a base model of the model table, e.g. "
                               "llama-3-8b; gives params when they are not said")
    hyperparameters: Hyperparameters | None = Field(
        default=None, max_length=100, description="overrides of the recipe's hyperparameter defaults")
    # --- where it may run and how it steps ---
    area: Text | None = Field(default=None, max_length=32, description=(
        "search only the policy's regions in this area: us, north-america, canada, south-america, europe, eu (the "
        "EU member states' regions), africa, middle-east, asia, asia-pacific, india, australia, japan; several "
        "joined by '|' are their union (us|eu)"))
    batch_tokens: int | None = Field(default=None, ge=1, le=10**9, description=(
        "the global batch in tokens per optimizer step; it sets how far the job scales across instances"))
    batch_sequences: int | None = Field(default=None, ge=1, le=10**6, description=(
        "the global batch in sequences of seq_len tokens (batch_tokens wins when both are given)"))
    dataset_bytes: int | None = Field(default=None, ge=1, le=4 * 10**15, description=(
        "the dataset's size in bytes: what moving it out of its region moves (default: the tokens' stored size)"))
    reserve_capacity: bool | None = Field(default=None, description=(
        "buy reserved capacity for the run: the capacity-block or training-plan offering that fits is the plan, "
        "its purchase a capacity action"))
    keep_with_data: bool | None = Field(default=None, description=(
        "run only in the region the data is in (data_region, else the team's), so nothing is copied between regions"))
    launch_below_usd: float | None = Field(default=None, gt=0, le=1e8, description=(
        "launch only a plan estimated below this: above it the request is denied; below it, it is stopped there"))
    stop_at_usd: float | None = Field(default=None, gt=0, le=1e8, description=(
        "stop the job before it bills more than this: the launch's runtime cap is set so it cannot"))
    lora_rank: int | None = Field(default=None, ge=1, le=4096, description=(
        "the LoRA/QLoRA adapters' rank, which sizes their weights and optimizer state (default 16)"))
    alert_at_percent: list[float] | None = Field(default=None, min_length=1, max_length=10, description=(
        "percents of the approved estimate (above 0, at most 1000) at which the request's thread is told the job's "
        "cost so far, besides the shares every launch is told at"))
    alert_at_usd: list[float] | None = Field(default=None, min_length=1, max_length=10, description=(
        "amounts in dollars (above 0) at which the request's thread is told the job's cost so far"))
    estimate_only: bool | None = Field(default=None, description=(
        "a plan to read, never to run: the request is filed as an estimate, which takes no approval and launches "
        "nothing"))
    deadline_wish: bool | None = Field(default=None, description=(
        "the deadline is a date hoped for, not a promise: the plan meets it without the stage's safety margin"))
    fp8: bool | None = Field(default=None, description=(
        "the run trains in FP8: only accelerators that compute in FP8 are weighed, and the estimate keeps their BF16 "
        "speed"))
    cost_center: Text | None = Field(default=None, min_length=1, max_length=64, description=(
        "who pays: the launched job is tagged with it under the policy's cost_center_tag (default CostCenter); "
        "letters, digits and _ . : / = + @ -"))


class PlanInput(PlanFields):
    """Free text, structured fields, or both; ``timezone`` reads the text's dates, ``now`` is for previews."""

    text: Text | None = Field(default=None, max_length=MAX_TEXT_CHARS)
    timezone: Text | None = Field(default=None, max_length=64, description="IANA zone; default UTC")
    now: datetime | None = Field(default=None, description="previews only: plan as if it were this time")
