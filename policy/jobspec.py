"""The job an approval covers: a team's recipe filled in with the request's model, data and hyperparameters.

    request + recipe ──draft_job──▶ JobDraft ──(service: S3, ECR, IAM → JobFacts)──▶ finish_job ──▶ JobSpec

``draft_job`` picks the recipe and checks what the request may name (recipe, dataset under the team's prefixes,
a base model the model table knows, hyperparameters of the schema's names and types); the service then reads the
facts only AWS knows (the image digest, the dataset's size); ``finish_job`` fills the schema's placeholders from the
completed request. The ``JobSpec`` is part of the decision, so of the plan hash an approval binds to: changing the
recipe, image digest, model, data or a hyperparameter makes a new revision. Every refusal is a ``RequestError``
whose message starts with the field to change.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from policy.config import TeamPolicy
from policy.errors import RequestError
from policy.models import ModelKind, ModelSpec, find_model, load_models
from policy.patterns import compiled_on_use
from policy.recipes import (
    DEFAULT_METRICS,
    PLACEHOLDERS,
    S3_URI,
    Distribution,
    FrameworkImage,
    Hyperparameter,
    HyperparameterValue,
    JobChoice,
    MetricDefinition,
    Recipe,
    image_parts,
)
from policy.request import TrainingRequest

__all__ = [
    "BYTES_PER_TOKEN",
    "container_arguments",
    "container_environment",
    "draft_job",
    "epochs_to_run",
    "finish_job",
    "framework_image",
    "image_region_warning",
    "JobDraft",
    "JobFacts",
    "JobSpec",
    "plan_environment",
    "tokens_from_bytes",
    "without_unusable_job",
]

# Text tokenises to about 4 bytes per token with the BPE vocabularies of current base models (English prose; code
# and other languages differ): the rule turning a dataset's size into tokens when the request names none.
BYTES_PER_TOKEN = 4
_FRAMEWORK_REPOS = {"pytorch": "pytorch-training", "huggingface-pytorch": "huggingface-pytorch-training"}
_PLACEHOLDER = compiled_on_use(r"\{([a-z_]+)\}")


class JobSpec(BaseModel):
    """Exactly what the launch runs; shown to approvers and sent as CreateTrainingJob (or the EKS manifest)."""

    model_config = ConfigDict(frozen=True)

    recipe: str
    image: str  # as sent: <repository>@sha256:… once pinned, else the configured URI
    image_digest: str | None  # None: not read (a preview); a filed request always has it
    entry_point: str
    source: str | None  # S3 tarball with the entry point; None: baked into the image
    distribution: Distribution
    model: str | None  # base model name from the model table
    model_source: str | None  # the team's S3 copy of the weights, else the model's hub id
    dataset: str  # S3 URI of the train channel
    dataset_bytes: int | None
    dataset_fingerprint: str | None  # a change after approval needs approving again
    hyperparameters: dict[str, HyperparameterValue]  # exactly what the container receives, typed
    overrides: list[str]  # names the request set (the rest are the recipe's defaults)
    environment: dict[str, str]
    metric_definitions: list[MetricDefinition]
    kms_key_id: str | None = None
    tags: dict[str, str] = {}


@dataclass(frozen=True)
class JobDraft:
    """The recipe picked and what the request may name, checked against the policy; not yet against AWS."""

    team: str
    recipe_name: str
    recipe: Recipe
    image: str
    dataset: str
    model: ModelSpec | None
    model_source: str | None
    overrides: dict[str, HyperparameterValue]
    # The dataset's size decides the tokens only when nothing else said them.
    tokens_said: bool = False
    notes: list[str] = field(default_factory=list)


class JobFacts(BaseModel):
    """What AWS said about a draft: the image's digest and the dataset's size."""

    model_config = ConfigDict(frozen=True)

    image_digest: str | None = None
    dataset_bytes: int | None = None
    dataset_fingerprint: str | None = None  # changes with any object's name, size or content (ETag)


def framework_image(framework: FrameworkImage, *, region: str) -> str:
    """The SageMaker deep learning container URI of ``framework`` in ``region``."""
    repo = _FRAMEWORK_REPOS[framework.framework]
    return f"{framework.registry}.dkr.ecr.{region}.amazonaws.com/{repo}:{framework.version}"


def tokens_from_bytes(size: int) -> int:
    """Tokens in ``size`` bytes of text at ``BYTES_PER_TOKEN`` bytes per token (at least one)."""
    return max(1, -(-size // BYTES_PER_TOKEN))  # whole numbers: a size said with 100 digits is no float


def _choose_recipe(choice: JobChoice, *, team_name: str, team: TeamPolicy) -> tuple[str, Recipe]:
    names = ", ".join(sorted(team.recipes))
    if choice.recipe is None and team.default_recipe is None:
        raise RequestError(f"recipe: team {team_name} has no default recipe; name one ('with recipe NAME'): {names}",
                           code="recipe_required")
    name = choice.recipe or str(team.default_recipe)
    recipe = team.recipes.get(name)
    if recipe is None:
        raise RequestError(f"recipe: team {team_name} has no recipe {name!r}; use one of: {names}",
                           code="unknown_recipe")
    return name, recipe


def _under(uri: str, prefix: str) -> bool:
    """``uri`` is ``prefix`` or below it (a prefix without a trailing slash still ends at a path segment)."""
    base = prefix.rstrip("/")
    return uri.rstrip("/") == base or uri.startswith(base + "/")


def _dataset(choice: JobChoice, *, name: str, recipe: Recipe) -> str:
    allowed = sorted(recipe.datasets) + [f"{p} (or below)" for p in recipe.data_prefixes]
    shown = ", ".join(allowed) or "none: the recipe lists no datasets or data_prefixes"
    said = choice.dataset if choice.dataset is not None else recipe.default_dataset
    if said is None:
        raise RequestError(f"dataset: recipe {name} has no default dataset; say 'on s3://…' or name one of: {shown}",
                           code="dataset_required")
    if said in recipe.datasets:
        return recipe.datasets[said]
    if not S3_URI.match(said):
        raise RequestError(f"dataset: {said!r} is neither a dataset of recipe {name} nor an s3:// URI; use one of: "
                           f"{shown}", code="unknown_dataset")
    if not any(_under(said, p) for p in [*recipe.data_prefixes, *recipe.datasets.values()]):
        raise RequestError(f"dataset: {said} is outside what recipe {name} may read; use one of: {shown}",
                           code="dataset_not_allowed")
    return said


def _model(request: TrainingRequest, recipe: Recipe, name: str) -> tuple[ModelSpec | None, str | None]:
    if request.model is None:
        return None, None
    model = find_model(request.model)
    if model is None:
        known = ", ".join(m.name for m in load_models().models)
        raise RequestError(f"model: {request.model!r} is not in the model table; use one of: {known}",
                           code="unknown_model")
    if recipe.model_kinds is not None and model.kind not in recipe.model_kinds:
        trains = " or ".join(_KIND_NAMES[k] for k in recipe.model_kinds)
        raise RequestError(f"model: {model.name} is {_KIND_NAMES[model.kind]}, and recipe {name} trains {trains} "
                           f"only (model_kinds); name a recipe that trains it, or a model of that kind",
                           code="model_not_trainable")
    return model, recipe.models.get(model.name, model.hub_id)


_KIND_NAMES: dict[ModelKind, str] = {
    "causal-lm": "a causal language model", "encoder": "a text encoder", "encoder-decoder": "an encoder-decoder",
    "speech": "a speech model", "vision": "a vision transformer"}


def _typed(name: str, spec: Hyperparameter, value: HyperparameterValue) -> HyperparameterValue:
    """``value`` as the schema's type, within its range and choices; ``RequestError`` naming the field otherwise."""
    where = f"hyperparameters.{name}"
    try:
        typed = _coerce(spec.type, value)
    except ValueError:
        raise RequestError(f"{where}: {value!r} is not {_A[spec.type]}", code="invalid_hyperparameter") from None
    if isinstance(typed, int | float) and not isinstance(typed, bool):
        low, high = spec.minimum, spec.maximum
        if (low is not None and typed < low) or (high is not None and typed > high):
            span = f"{'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}"
            raise RequestError(f"{where}: {typed:g} is outside {span}", code="invalid_hyperparameter")
    if spec.choices is not None and typed not in spec.choices:
        raise RequestError(f"{where}: {typed!r} is not one of: {', '.join(spec.choices)}",
                           code="invalid_hyperparameter")
    return typed


_A = {"int": "a whole number", "float": "a number", "str": "text", "bool": "true or false"}


def _coerce(kind: str, value: HyperparameterValue) -> HyperparameterValue:
    if kind == "bool":
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("true", "false", "1", "0", "yes", "no"):
            return str(value).lower() in ("true", "1", "yes")
        raise ValueError(value)
    if isinstance(value, bool):
        raise ValueError(value)
    if kind == "int":
        if isinstance(value, int):
            return value
        text = str(value).strip().replace("_", "")
        if text.lstrip("+-").isdigit():
            return int(text)  # exactly, however large
        number = float(text)  # "2e9"
        if not number.is_integer():
            raise ValueError(value)
        return int(number)
    if kind == "float":
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(value)
        return number
    return str(value)


def _overrides(choice: JobChoice, *, name: str, recipe: Recipe) -> dict[str, HyperparameterValue]:
    unknown = sorted(set(choice.hyperparameters) - set(recipe.hyperparameters))
    if unknown:
        raise RequestError(f"hyperparameters.{unknown[0]}: recipe {name} has no such hyperparameter; use: "
                           f"{', '.join(sorted(recipe.hyperparameters)) or 'none'}", code="unknown_hyperparameter")
    return {k: _typed(k, recipe.hyperparameters[k], v) for k, v in sorted(choice.hyperparameters.items())}


def without_unusable_job(request: TrainingRequest, *, team_name: str, team: TeamPolicy) -> TrainingRequest:
    """``request`` planned without the job details its team cannot pass on.

    A team without recipes launches its launch profile as configured, which takes no recipe, dataset or
    hyperparameters from a request. Such details ("lr=2e-5", "s3://bucket/data") are then listed as not read, with a
    note saying why, so the plan still prices the work and a person approves it knowing they will not reach the job;
    the team's recipes (``teams.<team>.recipes``) are what would carry them."""
    job = request.job
    if job is None or team.recipes:
        return request
    said = [*([f"recipe {job.recipe}"] if job.recipe else []), *([job.dataset] if job.dataset else []),
            *(f"{name}={value}" for name, value in job.hyperparameters.items())]
    # what the note says first is what Slack shows of it (up to the first ';' or parenthesis)
    note = (f"not passed to the job, team {team_name} having no recipes: {', '.join(said)}; its launch runs as its "
            f"launch profile says (recipes under teams.{team_name}.recipes would carry them)")
    return request.model_copy(update={"job": None, "unread": [*request.unread, *said],
                                      "notes": [*request.notes, note]})


def draft_job(*, request: TrainingRequest, team_name: str, team: TeamPolicy, region: str) -> JobDraft | None:
    """The recipe this request runs and what it names, checked against the policy; None for a team without
    recipes (whose launch profile alone says what runs), which refuses a request that names job details."""
    choice = request.job or JobChoice()
    if not team.recipes:
        if request.job is not None:
            raise RequestError(f"recipe: team {team_name} has no recipes, so a request cannot name a recipe, dataset "
                               f"or hyperparameters; add recipes under teams.{team_name}.recipes",
                               code="no_recipes")
        return None
    name, recipe = _choose_recipe(choice, team_name=team_name, team=team)
    image = recipe.image if recipe.image is not None else framework_image(recipe.framework, region=region)  # type: ignore[arg-type]
    model, source = _model(request, recipe, name)
    return JobDraft(team=team_name, recipe_name=name, recipe=recipe, image=image,
                    dataset=_dataset(choice, name=name, recipe=recipe), model=model, model_source=source,
                    overrides=_overrides(choice, name=name, recipe=recipe), tokens_said=request.tokens is not None)


def _placeholder_values(draft: JobDraft, request: TrainingRequest) -> dict[str, str | int | None]:
    return {"model": draft.model.name if draft.model else None, "model_id": draft.model_source,
            "tokens": request.tokens, "seq_len": request.seq_len, "trials": request.trials, "dataset": draft.dataset,
            "epochs": epochs_to_run(request.epochs)}


def epochs_to_run(epochs: float | None) -> int:
    """The whole passes a job runs for the epochs asked: one when none were said (the tokens are then the whole run),
    a part of one rounded up ("1.5 epochs" runs two, which the tokens, as ``{tokens}``, stop half-way)."""
    return 1 if epochs is None else max(1, math.ceil(epochs - 1e-9))


def _fill(name: str, template: str, values: dict[str, str | int | None], draft: JobDraft) -> HyperparameterValue:
    needed = _PLACEHOLDER.findall(template)
    for key in needed:
        if key in PLACEHOLDERS and values.get(key) is None:
            what = "a base model ('fine-tune llama-3-8b …' or the model field)" if key.startswith("model") else key
            raise RequestError(f"model: recipe {draft.recipe_name} needs {what} for hyperparameter {name}",
                               code="model_required" if key.startswith("model") else "value_required")
    if len(needed) == 1 and template == f"{{{needed[0]}}}":
        return values[needed[0]]  # type: ignore[return-value]
    return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), template)


def finish_job(*, draft: JobDraft, facts: JobFacts, request: TrainingRequest) -> JobSpec:
    """The complete job for ``draft`` with AWS's ``facts``; ``request`` is the completed one (defaults filled)."""
    values = _placeholder_values(draft, request)
    chosen: dict[str, HyperparameterValue] = {}
    for name, spec in sorted(draft.recipe.hyperparameters.items()):
        value = draft.overrides.get(name, spec.default)
        if value is None:
            raise RequestError(f"hyperparameters.{name}: recipe {draft.recipe_name} has no default for it; give a "
                               f"value", code="value_required")
        if isinstance(value, str) and name not in draft.overrides:
            value = _fill(name, value, values, draft)
        chosen[name] = _typed(name, spec, value)
    image = draft.image
    if facts.image_digest is not None:
        image = f"{image.split('@')[0].rsplit(':', 1)[0]}@{facts.image_digest}"
    recipe = draft.recipe
    return JobSpec(recipe=draft.recipe_name, image=image, image_digest=facts.image_digest,
                   entry_point=recipe.entry_point, source=recipe.source, distribution=recipe.distribution,
                   model=draft.model.name if draft.model else None, model_source=draft.model_source,
                   dataset=draft.dataset, dataset_bytes=facts.dataset_bytes,
                   dataset_fingerprint=facts.dataset_fingerprint, hyperparameters=chosen,
                   overrides=sorted(draft.overrides), environment=dict(recipe.environment),
                   metric_definitions=list(recipe.metric_definitions or DEFAULT_METRICS), kms_key_id=recipe.kms_key_id,
                   tags=dict(recipe.tags))


def plan_environment(*, checkpoint_minutes: int | None, context_parallel: int, precision: str = "bf16") -> dict[
        str, str]:
    """What the plan tells the container, with or without a recipe: how often to checkpoint (a spot plan's interval),
    across how many of an instance's accelerators to split each sequence (a long context one cannot hold) and, when
    the request trains in FP8, that it does."""
    env = {}
    if precision != "bf16":
        env["GPUOPS_PRECISION"] = precision
    if checkpoint_minutes is not None:
        env["GPUOPS_CHECKPOINT_INTERVAL_MINUTES"] = str(checkpoint_minutes)
    if context_parallel > 1:
        env["GPUOPS_CONTEXT_PARALLEL"] = str(context_parallel)
    return env


def container_environment(job: JobSpec, *, request_id: str, revision: int, checkpoint_minutes: int | None,
                          checkpoint_dir: str, context_parallel: int = 1, precision: str = "bf16") -> dict[str, str]:
    """The environment every platform gives the container (docs/training-contract.md)."""
    env = {**job.environment, "GPUOPS_REQUEST_ID": request_id, "GPUOPS_REVISION": str(revision),
           "GPUOPS_RECIPE": job.recipe, "GPUOPS_CHECKPOINT_DIR": checkpoint_dir,
           "GPUOPS_HYPERPARAMETERS": json.dumps(job.hyperparameters, sort_keys=True, separators=(",", ":")),
           **plan_environment(checkpoint_minutes=checkpoint_minutes, context_parallel=context_parallel,
                              precision=precision)}
    if job.model is not None:
        env["GPUOPS_MODEL"] = job.model
    if job.model_source is not None:
        env["GPUOPS_MODEL_ID"] = job.model_source
    return env


def container_arguments(job: JobSpec) -> list[str]:
    """The hyperparameters as ``--name value`` arguments, in name order (how SageMaker passes them to a script)."""
    args: list[str] = []
    for name, value in sorted(job.hyperparameters.items()):
        args += [f"--{name}", json.dumps(value) if isinstance(value, bool) else str(value)]
    return args


def image_region_warning(job: JobSpec, *, region: str) -> str | None:
    """Why the launch would fail when the image lives in another region than the plan (SageMaker pulls from its
    own region's ECR), or None."""
    parts = image_parts(job.image)
    if parts is None or parts["region"] == region:
        return None
    return (f"recipe {job.recipe}'s image is in {parts['region']} but the plan runs in {region}: SageMaker pulls "
            f"images from the job's own region, so replicate the repository there or ask for {parts['region']}")
