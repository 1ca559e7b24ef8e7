"""Fill what a request left unsaid with the policy's defaults, stating each one as an assumption.

See docs/design.md §The request.
"""

from __future__ import annotations

from typing import Any

from policy.config import PolicyConfig
from policy.errors import RequestError
from policy.models import find_model
from policy.regions import area_label, in_area, place_of
from policy.request import Stage, Task, Tolerance, TrainingRequest

__all__ = ["complete", "format_count"]

_FINE_TUNE_TASKS = (Task.FINE_TUNE, Task.LORA, Task.QLORA)
# Tokens per parameter from which unsaid work on no named model is read as training from scratch: a compute-optimal
# run takes ~20 (Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models"), a fine-tune a small fraction
# of one.
FROM_SCRATCH_TOKENS_PER_PARAM = 10


def complete(request: TrainingRequest, *, policy: PolicyConfig) -> tuple[TrainingRequest, list[str]]:
    """Return the request with every defaultable field set, and one assumption sentence per default used."""
    if request.params is None:
        raise RequestError(
            "Say how big the model is, e.g. 'fine-tune 7B by Friday' or 'LoRA on a 13B model'.",
            code="missing_model_size",
        )
    updates: dict[str, Any] = {}
    notes: list[str] = []
    task = request.task or _unsaid_task(request, notes)
    if request.task is None:
        updates["task"] = task
    if request.trials is None:
        # "2 nodes of 8xA100 for 3 days for an ablation": the hardware for that long is the job, whatever runs on it
        held = request.fixed_hours is not None and (request.gpus or request.instances) is not None
        trials = policy.defaults.sweep_trials if task is Task.SWEEP and not held else 1
        updates["trials"] = trials
        if task is Task.SWEEP and held:
            notes.append("trials: the hardware named for the length said, whatever runs on it: priced as one job")
        elif task is Task.SWEEP:
            notes.append(f"trials: {trials} assumed (sweep default)")
    if request.tokens is None:
        tokens, why = _default_tokens(task, request.params, policy)
        updates["tokens"] = tokens
        notes.append(f"tokens: {format_count(tokens)} assumed ({why})")
    stage = request.stage or Stage.EXPERIMENTAL
    if request.stage is None:
        updates["stage"] = stage
        notes.append("stage: experimental assumed")
    if request.interruption_tolerance is None:
        tolerance = Tolerance.HIGH if stage is Stage.EXPERIMENTAL else Tolerance.LOW
        updates["interruption_tolerance"] = tolerance
        notes.append(f"interruption tolerance: {tolerance.value} assumed ({stage.value} default)")
    notes += _fill_setting(request, updates, policy)
    return request.model_copy(update=updates), notes


def _unsaid_task(request: TrainingRequest, notes: list[str]) -> Task:
    """Fine-tuning, unless the tokens are a from-scratch budget for a model no name says is already trained ("train
    a 2.7B model on 55B tokens"); the assumption is noted either way."""
    assert request.params is not None
    per_param = (request.tokens or 0) / request.params
    if request.model is None and per_param >= FROM_SCRATCH_TOKENS_PER_PARAM:
        notes.append(f"task: pretraining assumed ({format_count(request.tokens or 0)} tokens is ~{per_param:.0f} per "
                     "parameter, a budget for training from scratch; say 'fine-tune' if it starts from trained "
                     "weights)")
        return Task.PRETRAIN
    notes.append("task: fine-tune assumed")
    return Task.FINE_TUNE


def _fill_setting(request: TrainingRequest, updates: dict[str, Any], policy: PolicyConfig) -> list[str]:
    notes: list[str] = []
    if request.seq_len is None:
        named = find_model(request.model) if request.model else None
        if named is not None and named.max_context < policy.defaults.seq_len:  # GPT-2's 1,024, BERT's 512
            updates["seq_len"] = named.max_context
            notes.append(f"sequence length: {named.max_context} assumed ({named.name}'s longest)")
        else:
            updates["seq_len"] = policy.defaults.seq_len
            notes.append(f"sequence length: {policy.defaults.seq_len} assumed")
    if request.area is not None:
        _check_area(request, policy)
    allowed = _not_excluded(request, policy)
    if request.keep_with_data:
        notes += _with_the_data(request, updates, policy, allowed)
    elif request.region is None and request.area is not None:
        region = policy.default_region if policy.default_region in allowed else allowed[0]
        updates["region"] = region
        notes.append(f"region: {region} assumed (the policy's {'default ' * (region == policy.default_region)}"
                     f"region in {area_label(request.area)})")
    elif request.region is None and request.regions:
        updates["region"] = allowed[0]
        notes.append(f"region: {allowed[0]} first, of the regions named ({', '.join(allowed)}), all searched")
    elif request.region is None and policy.default_region in allowed:
        updates["region"] = policy.default_region
        notes.append(f"region: {policy.default_region} assumed (policy default)")
    elif request.region is None:
        updates["region"] = allowed[0]
        notes.append(f"region: {allowed[0]} assumed (the policy's first region not excluded; its default, "
                     f"{policy.default_region}, is)")
    notes += _batch(request, updates)
    if request.team is None:
        updates["team"] = policy.default_team
        notes.append(f"team: {policy.default_team} assumed (policy default)")
    else:
        policy.team(request.team)  # an unknown team is refused, naming the known ones
    return notes


def _with_the_data(request: TrainingRequest, updates: dict[str, Any], policy: PolicyConfig,
                   allowed: list[str]) -> list[str]:
    """The region the data is in, as the only one searched ("avoid cross-region data transfer"); a request that
    names another, or rules it out, contradicts itself, and data whose region nobody said cannot be kept to."""
    team_name, team = policy.team_or_default(request.team)
    data = request.data_region or team.data_region
    if data is None:
        raise RequestError(f"The request asks to keep the job where its data is, and neither it nor {team_name}'s "
                           'policy says where that is: say it, e.g. "the data is in us-west-2".',
                           code="unknown_data_region")
    whose = "the data" if request.data_region else f"{team_name}'s data"
    if request.region is not None and request.region != data:
        raise RequestError(f"The request names {request.region} and asks to stay with {whose} in {data}; drop one "
                           "of the two.", code="contradiction")
    if data not in allowed:
        raise RequestError(f"The request or the policy rules out {data}, where {whose} is (the job may run in "
                           f"{', '.join(allowed)}); say where else it may run.", code="contradiction")
    if request.region is None:
        updates["region"] = data
    return [f"region: {data} only, where {whose} is, so nothing is copied between regions"]


def _check_area(request: TrainingRequest, policy: PolicyConfig) -> None:
    """An area the policy has a region in; a region named with it lies in it."""
    assert request.area is not None
    label = area_label(request.area)
    if not in_area(policy.regions, request.area):
        regions = ", ".join(f"{r} ({place_of(r) or r})" for r in policy.regions)
        raise RequestError(f"The policy allows no region in {label}; its regions are {regions}. Name one of them, "
                           "or ask the platform team to add a region there.", code="no_region_in_area")
    if request.region is not None and not in_area([request.region], request.area):
        raise RequestError(f"{request.region} ({place_of(request.region) or 'unknown'}) is not in {label}; name a "
                           f"region there, e.g. {in_area(policy.regions, request.area)[0]}, or drop one of the two.",
                           code="contradiction")


def _not_excluded(request: TrainingRequest, policy: PolicyConfig) -> list[str]:
    """The policy's regions the request may run in (those named, else all; in its area; not excluded), the order
    the search starts from; a region both named and excluded, or none left, is refused."""
    excluded = set(request.exclude_regions)
    for named in [*([request.region] if request.region else []), *request.regions]:  # allowed: ``check_region``
        if named in excluded:
            raise RequestError(f"The request names {named} and excludes it; drop one of the two.",
                               code="contradiction")
    allowed = [r for r in policy.regions if r not in excluded]
    if request.regions:
        allowed = [r for r in request.regions if r in allowed]
    if request.area is not None:
        allowed = in_area(allowed, request.area)
    if not allowed:
        regions = ", ".join(policy.regions)
        raise RequestError(f"The request excludes every region it could run in (the policy's regions are {regions});"
                           " exclude fewer, or name one.", code="contradiction")
    return allowed


def _batch(request: TrainingRequest, updates: dict[str, Any]) -> list[str]:
    """A batch said in sequences is that many sequences of the request's length; a batch larger than the tokens of
    one run leaves it not one optimizer step, which is a misreading to correct, not a job to price."""
    seq_len = updates.get("seq_len", request.seq_len)
    tokens = updates.get("tokens", request.tokens)
    notes: list[str] = []
    batch = request.batch_tokens
    if batch is None and request.batch_sequences is not None and seq_len is not None:
        batch = request.batch_sequences * seq_len
        updates["batch_tokens"] = batch
        notes.append(f"batch: {request.batch_sequences:,} sequences × {seq_len:,} tokens = {format_count(batch)} "
                     "tokens per optimizer step")
    if batch is not None and tokens is not None and batch > tokens:
        raise RequestError(f"A batch of {format_count(batch)} tokens is more than the {format_count(tokens)} tokens "
                           "trained, not even one optimizer step; check the batch size and the dataset's tokens.",
                           code="invalid_batch")
    return notes


def _default_tokens(task: Task, params: int, policy: PolicyConfig) -> tuple[int, str]:
    defaults = policy.defaults
    if task is Task.PRETRAIN:
        ratio = defaults.pretrain_tokens_per_param
        return int(params * ratio), f"compute-optimal, {ratio:g} tokens per parameter"
    if task is Task.CONTINUED_PRETRAIN:
        return defaults.continued_pretrain_tokens, "continued-pretraining default"
    if task is Task.SWEEP:
        return defaults.sweep_tokens_per_trial, "sweep default, per trial"
    return defaults.fine_tune_tokens, f"{task.value} default" if task in _FINE_TUNE_TASKS else "default"


def format_count(value: float) -> str:
    """A count the way people say it: 1B, 350M, 1.4T."""
    for size, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if abs(value) >= size:
            return f"{value / size:.3g}{suffix}"
    return f"{value:g}"
