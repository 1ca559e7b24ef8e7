"""Recipes: what a team's approved jobs run, as policy-file data.

A recipe names the container (an ECR image, pinned by digest when a request is filed, or a SageMaker framework
container), the entry point and where its source comes from, how the job is distributed, a typed hyperparameter
schema whose defaults may take values from the request (``{model_id}``, ``{tokens}``, ``{seq_len}``…), the datasets
and S3 prefixes the team may train on, and how the tracker reads metrics from the job's log. A request picks one
(``with recipe sft``) or gets the team's ``default_recipe``; ``policy.jobspec`` turns the pair into the exact job.
The contract a training container follows is docs/training-contract.md.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import PydanticKnownError

from policy.models import ModelKind
from policy.patterns import compiled_on_use

__all__ = [
    "check_recipes",
    "DEFAULT_METRICS",
    "Distribution",
    "FRAMEWORK_VERSION",
    "FrameworkImage",
    "Hyperparameter",
    "HyperparameterValue",
    "image_parts",
    "JobChoice",
    "MAX_HYPERPARAMETERS",
    "MetricDefinition",
    "PLACEHOLDERS",
    "Recipe",
    "S3_URI",
]

HyperparameterValue = int | float | str | bool
Distribution = Literal["torchrun", "smddp", "none"]
# Values a hyperparameter default may take from the request once its defaults are filled in.
PLACEHOLDERS = ("model", "model_id", "tokens", "seq_len", "trials", "dataset", "epochs")
S3_URI = compiled_on_use(r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](?:/[^\s]*)?$")
_ECR_IMAGE = compiled_on_use(
    r"^(?P<registry>\d{12})\.dkr\.ecr\.(?P<region>[a-z0-9-]+)\.amazonaws\.com/(?P<repo>[a-z0-9][a-z0-9._/-]*)"
    r"(?::(?P<tag>[\w][\w.-]{0,127})|@(?P<digest>sha256:[0-9a-f]{64}))$"
)
_PLACEHOLDER = compiled_on_use(r"\{([a-z_]+)\}")
# A framework image tag. Compiled as written, a Unicode \w repeated 127 times costs pydantic's regex engine some 40 ms
# whenever the policy model is built; the same test is an unbounded pattern and a length, checked by the same engine
# when a tag is given, and a tag that fails is refused with this pattern's own error.
FRAMEWORK_VERSION = r"^[\w][\w.-]{0,127}$"
_VERSION_CHARS = r"^\w[\w.-]*$"
_VERSION_MAX = 128
MAX_HYPERPARAMETERS = 96  # CreateTrainingJob takes 100 HyperParameters; 3 are script mode's


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hyperparameter(_Strict):
    """One entry of a recipe's hyperparameter schema."""

    type: Literal["int", "float", "str", "bool"]
    # The value when a request says nothing; a string may hold placeholders, e.g. "{model_id}" or "{tokens}".
    default: HyperparameterValue | None = None
    minimum: float | None = None
    maximum: float | None = None
    choices: list[str] | None = None  # for type str: the only values allowed
    description: str = ""


@cache
def _version_chars() -> TypeAdapter[str]:
    return TypeAdapter(Annotated[str, Field(pattern=_VERSION_CHARS)])


def _framework_version(value: str) -> str:
    """``value`` when it matches ``FRAMEWORK_VERSION``, else that pattern's ``string_pattern_mismatch``."""
    if len(value) > _VERSION_MAX or not _version_chars().validator.isinstance_python(value):
        raise PydanticKnownError("string_pattern_mismatch", {"pattern": FRAMEWORK_VERSION})
    return value


class FrameworkImage(_Strict):
    """A SageMaker deep learning container instead of the team's own image: the framework and its image tag."""

    framework: Literal["pytorch", "huggingface-pytorch"]
    # e.g. 2.3.0-gpu-py311-cu121-ubuntu20.04-sagemaker
    version: Annotated[str, AfterValidator(_framework_version), Field(json_schema_extra={"pattern": FRAMEWORK_VERSION})]
    registry: str = Field(default="763104351884", pattern=r"^\d{12}$")  # AWS's DLC account in most regions


class MetricDefinition(_Strict):
    """A regex SageMaker applies to the job's log; the first group is the value."""

    name: str = Field(min_length=1, max_length=255)
    regex: str = Field(min_length=1, max_length=500)


# What docs/training-contract.md asks a container to print; the tracker reads throughput from tokens_per_second.
DEFAULT_METRICS = (
    MetricDefinition(name="train_loss", regex=r"gpuops_metric train_loss=([0-9.eE+-]+)"),
    MetricDefinition(name="tokens_per_second", regex=r"gpuops_metric tokens_per_second=([0-9.eE+-]+)"),
)


class Recipe(_Strict):
    """What one kind of job runs. Give ``image`` or ``framework``; ``source`` left out means the entry point is
    baked into the image."""

    description: str = ""
    image: str | None = None  # <account>.dkr.ecr.<region>.amazonaws.com/<repo>:<tag> (or @sha256:…)
    framework: FrameworkImage | None = None
    entry_point: str = Field(min_length=1, max_length=256)
    source: str | None = None  # s3://…/sourcedir.tar.gz with the entry point in it
    distribution: Distribution = "torchrun"
    hyperparameters: dict[str, Hyperparameter] = Field(default_factory=dict)
    datasets: dict[str, str] = Field(default_factory=dict)  # name -> S3 URI (prefix or object)
    default_dataset: str | None = None  # one of datasets
    data_prefixes: list[str] = Field(default_factory=list[str])  # a request may name any S3 URI under these
    models: dict[str, str] = Field(default_factory=dict)  # base model name -> the team's S3 copy of its weights
    # The kinds of model its script trains ([causal-lm] for examples/sft); None: any. A request for a model of
    # another kind is refused when it is filed, before anything is launched that could not load it.
    model_kinds: list[ModelKind] | None = Field(default=None, min_length=1)
    environment: dict[str, str] = Field(default_factory=dict)
    kms_key_id: str | None = None  # encrypts the training volume and the output
    tags: dict[str, str] = Field(default_factory=dict)
    # Empty: the two lines docs/training-contract.md asks a container to print (DEFAULT_METRICS).
    metric_definitions: list[MetricDefinition] = Field(default_factory=list[MetricDefinition])


class JobChoice(_Strict):
    """What a request said about the job: a recipe, the data, hyperparameter overrides (None: not said)."""

    recipe: str | None = Field(default=None, max_length=64, pattern=r"^[A-Za-z0-9][\w.-]*$")
    dataset: str | None = Field(default=None, max_length=1024)  # a dataset name of the recipe or an S3 URI
    hyperparameters: dict[str, HyperparameterValue] = Field(default_factory=dict, max_length=100)


def image_parts(image: str) -> dict[str, str] | None:
    """Registry, region, repository and tag or digest of an ECR image URI; None if it is not one."""
    match = _ECR_IMAGE.match(image)
    return None if match is None else {k: v for k, v in match.groupdict().items() if v is not None}


def _check_schema(where: str, name: str, spec: Hyperparameter) -> list[tuple[str, str]]:
    path = f"{where}.hyperparameters.{name}"
    errors: list[tuple[str, str]] = []
    if (spec.minimum is not None or spec.maximum is not None) and spec.type not in ("int", "float"):
        errors.append((path, f"minimum and maximum apply to int and float, not {spec.type}"))
    if spec.choices is not None and spec.type != "str":
        errors.append((f"{path}.choices", "choices apply to type str only"))
    errors.extend(_check_default(path, spec))
    if isinstance(spec.default, str):
        unknown = [p for p in _PLACEHOLDER.findall(spec.default) if p not in PLACEHOLDERS]
        if unknown:
            errors.append((f"{path}.default", f"unknown placeholder {{{unknown[0]}}}; use one of "
                                              + ", ".join(f"{{{p}}}" for p in PLACEHOLDERS)))
    return errors


_TYPES: dict[str, tuple[type, ...]] = {"int": (int,), "float": (int, float), "str": (str,), "bool": (bool,)}


def _check_default(path: str, spec: Hyperparameter) -> list[tuple[str, str]]:
    """A default that is not a placeholder must be of the schema's type and within its range and choices."""
    value = spec.default
    if value is None or (isinstance(value, str) and _PLACEHOLDER.search(value)):
        return []
    if not isinstance(value, _TYPES[spec.type]) or (isinstance(value, bool) and spec.type != "bool"):
        return [(f"{path}.default", f"{value!r} is not of type {spec.type}")]
    if isinstance(value, int | float) and not isinstance(value, bool) and (
            (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum)):
        return [(f"{path}.default", f"{value!r} is outside minimum..maximum")]
    if spec.choices is not None and value not in spec.choices:
        return [(f"{path}.default", f"{value!r} is not one of choices")]
    return []


def _check_recipe(where: str, recipe: Recipe) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    if (recipe.image is None) == (recipe.framework is None):
        errors.append((where, "give exactly one of image (an ECR image URI) or framework"))
    if recipe.image is not None and image_parts(recipe.image) is None:
        errors.append((f"{where}.image", "expected <account>.dkr.ecr.<region>.amazonaws.com/<repository>:<tag>"))
    if recipe.source is not None and not S3_URI.match(recipe.source):
        errors.append((f"{where}.source", "expected an s3:// URI of a tarball holding the entry point"))
    for key, uri in [*((f"datasets.{n}", u) for n, u in recipe.datasets.items()),
                     *((f"data_prefixes[{i}]", u) for i, u in enumerate(recipe.data_prefixes)),
                     *((f"models.{n}", u) for n, u in recipe.models.items())]:
        if not S3_URI.match(uri):
            errors.append((f"{where}.{key}", f"{uri!r} is not an s3:// URI"))
    if recipe.default_dataset is not None and recipe.default_dataset not in recipe.datasets:
        errors.append((f"{where}.default_dataset", f"{recipe.default_dataset!r} is not under datasets"))
    if len(recipe.hyperparameters) > MAX_HYPERPARAMETERS:
        errors.append((f"{where}.hyperparameters", f"at most {MAX_HYPERPARAMETERS}: SageMaker takes 100 and the "
                                                   "script-mode keys need the rest"))
    for name, spec in recipe.hyperparameters.items():
        errors.extend(_check_schema(where, name, spec))
    for i, metric in enumerate(recipe.metric_definitions):
        try:
            re.compile(metric.regex)
        except re.error as exc:
            errors.append((f"{where}.metric_definitions[{i}].regex", f"not a valid regex: {exc}"))
    return errors


def check_recipes(where: str, recipes: dict[str, Recipe], default: str | None) -> list[tuple[str, str]]:
    """Each recipe's own rules, as (key path, what is wrong) under ``where`` (e.g. ``teams.team-ml``)."""
    errors: list[tuple[str, str]] = []
    if default is not None and default not in recipes:
        errors.append((f"{where}.default_recipe", f"{default!r} is not under recipes"))
    for name, recipe in recipes.items():
        if not re.match(r"^[A-Za-z0-9][\w.-]*$", name):
            errors.append((f"{where}.recipes.{name}", "a recipe name is letters, digits, '.', '_' or '-'"))
        errors.extend(_check_recipe(f"{where}.recipes.{name}", recipe))
    return errors
