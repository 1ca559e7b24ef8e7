"""Recipes, the job phrases of a request and the job they make: table-driven, no I/O."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from policy.config import TeamPolicy, default_policy, policy_warnings
from policy.errors import RequestError
from policy.intake import request_from
from policy.jobspec import (
    JobFacts,
    draft_job,
    finish_job,
    image_region_warning,
    tokens_from_bytes,
    without_unusable_job,
)
from policy.recipes import FrameworkImage, Hyperparameter, Recipe, check_recipes

NOW = datetime(2026, 11, 30, 10, tzinfo=UTC)
IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft:v1"
SFT = Recipe(image=IMAGE, entry_point="train.py",
             hyperparameters={"model_id": Hyperparameter(type="str", default="{model_id}"),
                              "max_tokens": Hyperparameter(type="int", default="{tokens}"),
                              "lr": Hyperparameter(type="float", default=2e-5, minimum=0, maximum=0.01),
                              "precision": Hyperparameter(type="str", default="bf16", choices=["bf16", "fp32"]),
                              "packing": Hyperparameter(type="bool", default=False)},
             datasets={"chat": "s3://data/chat/"}, default_dataset="chat", data_prefixes=["s3://data/team"],
             models={"mistral-7b": "s3://data/models/mistral-7b/"})
TEAM = TeamPolicy(recipes={"sft": SFT, "dlc": SFT.model_copy(update={
    "image": None, "framework": FrameworkImage(framework="pytorch", version="2.3.0-gpu-py311")})},
    default_recipe="sft")

READS: list[tuple[str, dict[str, Any]]] = [
    ("fine-tune llama-3-8b on s3://data/team/v3/ with recipe sft by Friday",
     {"model": "llama-3-8b", "params": 8_030_261_248, "job": {"recipe": "sft", "dataset": "s3://data/team/v3/"}}),
    ("SFT phi-3-mini lr=1e-5 packing=true",
     {"model": "phi-3-mini", "params": 3_821_079_552, "job": {"hyperparameters": {"lr": "1e-5", "packing": "true"}}}),
    ("fine-tune 7B on s3://data/team/2026-12-25/run-70b/ recipe: dlc in us-west-2",
     {"params": 7_000_000_000, "deadline": None, "region": "us-west-2",
      "job": {"recipe": "dlc", "dataset": "s3://data/team/2026-12-25/run-70b/"}}),
    ("fine-tune 7B", {"params": 7_000_000_000, "job": None, "model": None}),
    # a recipe named as a clause of its own, its name a word with a dash, dot or digit ("sft-v2" was left unread)
    ("fine-tune llama-3-8b on s3://data/team/v3/ (~300M tokens), recipe sft-v2",
     {"job": {"recipe": "sft-v2", "dataset": "s3://data/team/v3/"}}),
]


@pytest.mark.parametrize(("text", "expected"), READS)
def test_the_text_names_the_recipe_data_model_and_overrides(text: str, expected: dict[str, Any]) -> None:
    request = request_from(text=text, fields={}, now=NOW)
    dumped = request.model_dump(exclude_defaults=True)
    for key, value in expected.items():
        assert (dumped.get(key) if key != "job" else request.job and request.job.model_dump(
            exclude_defaults=True)) == value, key


def _job(text: str, **fields: Any) -> Any:
    request = request_from(text=text, fields=fields, now=NOW)
    draft = draft_job(request=request, team_name="team-ml", team=TEAM, region="us-east-1")
    assert draft is not None
    completed = request.model_copy(update={"tokens": request.tokens or 10**9})
    return finish_job(draft=draft, facts=JobFacts(image_digest="sha256:" + "a" * 64), request=completed)


def test_the_job_fills_placeholders_prefers_the_teams_copy_and_pins_the_digest() -> None:
    job = _job("fine-tune mistral-7b on 2B tokens lr=1e-5")
    assert job.image == "123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft@sha256:" + "a" * 64
    assert (job.recipe, job.dataset, job.model_source) == ("sft", "s3://data/chat/", "s3://data/models/mistral-7b/")
    assert job.hyperparameters == {"lr": 1e-5, "max_tokens": 2_000_000_000, "model_id": "s3://data/models/mistral-7b/",
                                   "packing": False, "precision": "bf16"}
    assert job.overrides == ["lr"]
    framework = _job("fine-tune mistral-7b", recipe="dlc")
    assert framework.image.startswith("763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training")


@pytest.mark.parametrize(("text", "epochs", "max_tokens"), [
    ("fine-tune mistral-7b on 500M tokens, 2 epochs", 2, 1_000_000_000),
    ("fine-tune mistral-7b on 500M tokens, epochs=2", 2, 1_000_000_000),  # a trainer's setting, read as the epochs
    ("fine-tune mistral-7b on 500M tokens\nEpochs: 3", 3, 1_500_000_000),
    ("fine-tune mistral-7b on 500M tokens, 1.5 epochs", 2, 750_000_000),  # two passes, the tokens stop the second
    ("fine-tune mistral-7b on 500M tokens", 1, 500_000_000),
])
def test_a_recipe_runs_the_epochs_the_plan_priced(text: str, epochs: int, max_tokens: int) -> None:
    """ "on 500M tokens, epochs=2" was priced as one pass while the recipe was handed epochs=2: half the work it
    would run. The epochs count the tokens priced and reach the recipe as {epochs}, so the job trains what was
    priced."""
    recipe = SFT.model_copy(update={"hyperparameters": {**SFT.hyperparameters, "epochs": Hyperparameter(
        type="int", default="{epochs}", minimum=1, maximum=20)}})
    team = TEAM.model_copy(update={"recipes": {"sft": recipe}})
    request = request_from(text=text, fields={}, now=NOW)
    draft = draft_job(request=request, team_name="team-ml", team=team, region="us-east-1")
    assert draft is not None
    job = finish_job(draft=draft, facts=JobFacts(), request=request)
    assert (job.hyperparameters["epochs"], job.hyperparameters["max_tokens"]) == (epochs, max_tokens)
    assert request.tokens == max_tokens


@pytest.mark.parametrize("text", [
    "fine-tune mistral-7b, resume from checkpoint s3://data/teammate/ckpt/step-1000",
    "fine-tune mistral-7b and save the weights to s3://data/teammate/out/",
    "fine-tune mistral-7b, init from s3://data/teammate/run-42/",
])
def test_a_checkpoint_or_output_location_is_never_the_dataset(text: str) -> None:
    request = request_from(text=text, fields={}, now=NOW)
    uri = text[text.index("s3://"):]
    assert request.job is None and uri in request.unread  # nothing carries it to the job: a person looks
    assert _job(text).dataset == "s3://data/chat/"  # the recipe's own data, not a teammate's checkpoint


REFUSALS: list[tuple[str, dict[str, Any], str, str]] = [
    ("fine-tune mistral-7b with recipe dpo", {}, "unknown_recipe", "recipe: team team-ml has no recipe 'dpo'; "
                                                                    "use one of: dlc, sft"),
    ("fine-tune mistral-7b on s3://data/teammate/x/", {}, "dataset_not_allowed", "dataset: s3://data/teammate/x/"),
    ("fine-tune mistral-7b", {"dataset": "chat-v9"}, "unknown_dataset", "dataset: 'chat-v9' is neither"),
    ("fine-tune mistral-7b precision=int4", {}, "invalid_hyperparameter", "hyperparameters.precision: 'int4' is "
                                                                           "not one of: bf16, fp32"),
    ("fine-tune mistral-7b packing=maybe", {}, "invalid_hyperparameter", "hyperparameters.packing: 'maybe' is not "
                                                                         "true or false"),
    ("fine-tune mistral-7b", {"hyperparameters": {"lr": True}}, "invalid_hyperparameter", "hyperparameters.lr: "),
    ("fine-tune 7B", {}, "model_required", "model: recipe sft needs a base model"),
    ("fine-tune 7B", {"model": "gpt-9"}, "unknown_model", "model: 'gpt-9' is not in the model table"),
]


@pytest.mark.parametrize(("text", "fields", "code", "starts"), REFUSALS)
def test_what_the_recipe_does_not_allow_is_refused_naming_the_field(
    text: str, fields: dict[str, Any], code: str, starts: str,
) -> None:
    with pytest.raises(RequestError) as caught:
        _job(text, **fields)
    assert (caught.value.code, str(caught.value)[:len(starts)]) == (code, starts)


@pytest.mark.parametrize(("text", "kind"), [
    ("fine-tune whisper-large-v3 on 2000 hours of audio for 3 epochs", "a speech model"),
    ("fine-tune ViT-B/16 on 50k images for 10 epochs", "a vision transformer"),
    ("fine-tune bge-large on 500M tokens", "a text encoder"),
])
def test_a_model_the_recipe_cannot_train_is_refused_when_filed_not_launched(text: str, kind: str) -> None:
    # examples/sft loads AutoModelForCausalLM: another kind would fail at model load, after start-up was billed
    team = TEAM.model_copy(update={"recipes": {"sft": SFT.model_copy(update={"model_kinds": ["causal-lm"]})}})
    request = request_from(text=text, fields={}, now=NOW)
    with pytest.raises(RequestError) as refused:
        draft_job(request=request, team_name="team-ml", team=team, region="us-east-1")
    assert refused.value.code == "model_not_trainable"
    assert str(refused.value).startswith(f"model: {request.model} is {kind}, and recipe sft trains a causal language "
                                         "model only (model_kinds)")
    causal = request_from(text="fine-tune mistral-7b on 1B tokens", fields={}, now=NOW)
    assert draft_job(request=causal, team_name="team-ml", team=team, region="us-east-1") is not None
    anything = request_from(text=text, fields={}, now=NOW)  # a recipe that names no kinds trains any
    assert draft_job(request=anything, team_name="team-ml", team=TEAM, region="us-east-1") is not None


def test_a_team_without_recipes_keeps_its_launch_profile_and_refuses_job_details() -> None:
    team = default_policy().teams["team-ml"]
    plain = request_from(text="fine-tune 7B", fields={}, now=NOW)
    assert draft_job(request=plain, team_name="team-ml", team=team, region="us-east-1") is None
    with pytest.raises(RequestError, match="^recipe: team team-ml has no recipes"):
        draft_job(request=request_from(text="fine-tune 7B with recipe sft", fields={}, now=NOW), team_name="team-ml",
                  team=team, region="us-east-1")


def test_a_setting_in_parentheses_is_read_without_them() -> None:
    request = request_from(text="fine-tune 8B using LoRA (r=16) on 100M tokens", fields={}, now=NOW)
    assert request.job is not None and request.job.hyperparameters == {"r": "16"}


def test_job_details_a_team_without_recipes_cannot_pass_on_are_planned_as_not_read() -> None:
    team = default_policy().teams["team-ml"]
    said = request_from(text="fine-tune 7B on 1B tokens, lr=2e-5, s3://team-ml-data/chat/", fields={}, now=NOW)
    planned = without_unusable_job(said, team_name="team-ml", team=team)
    assert planned.job is None and planned.unread == ["s3://team-ml-data/chat/", "lr=2e-5"]
    assert planned.notes[-1].startswith("not passed to the job, team team-ml having no recipes: "
                                        "s3://team-ml-data/chat/, lr=2e-5; ")
    plain = request_from(text="fine-tune 7B on 1B tokens", fields={}, now=NOW)
    assert without_unusable_job(plain, team_name="team-ml", team=team) is plain


def test_policy_check_names_each_recipe_problem_by_key_path() -> None:
    bad = SFT.model_copy(update={"image": "nginx:latest", "default_dataset": "none", "data_prefixes": ["/local"],
                                 "hyperparameters": {"lr": Hyperparameter(type="float", default="fast"),
                                                     "n": Hyperparameter(type="int", default=0, minimum=1),
                                                     "w": Hyperparameter(type="str", default="{weights}")}})
    assert check_recipes("teams.t", {"sft": bad}, "other") == [
        ("teams.t.default_recipe", "'other' is not under recipes"),
        ("teams.t.recipes.sft.image", "expected <account>.dkr.ecr.<region>.amazonaws.com/<repository>:<tag>"),
        ("teams.t.recipes.sft.data_prefixes[0]", "'/local' is not an s3:// URI"),
        ("teams.t.recipes.sft.default_dataset", "'none' is not under datasets"),
        ("teams.t.recipes.sft.hyperparameters.lr.default", "'fast' is not of type float"),
        ("teams.t.recipes.sft.hyperparameters.n.default", "0 is outside minimum..maximum"),
        ("teams.t.recipes.sft.hyperparameters.w.default",
         "unknown placeholder {weights}; use one of {model}, {model_id}, {tokens}, {seq_len}, {trials}, {dataset}, "
         "{epochs}"),
    ]


@pytest.mark.parametrize(("size", "tokens"), [(1, 1), (4, 1), (5, 2), (8_000_000, 2_000_000)])
def test_a_datasets_size_gives_tokens_at_four_bytes_each(size: int, tokens: int) -> None:
    assert tokens_from_bytes(size) == tokens


def test_policy_check_warns_when_requests_must_name_a_recipe() -> None:
    base = default_policy()
    team = base.teams["team-ml"].model_copy(update={"recipes": {"sft": SFT}, "members": []})
    policy = base.model_copy(update={"teams": {**base.teams, "team-ml": team}})
    assert ("teams.team-ml.default_recipe", "not set, so every request for this team must name one of its recipes "
                                            "(sft)") in policy_warnings(policy)


def test_an_image_in_another_region_than_the_plan_is_a_warning() -> None:
    job = _job("fine-tune mistral-7b")
    assert image_region_warning(job, region="us-east-1") is None
    assert image_region_warning(job, region="us-west-2") == (
        "recipe sft's image is in us-east-1 but the plan runs in us-west-2: SageMaker pulls images from the job's "
        "own region, so replicate the repository there or ask for us-east-1")


@pytest.mark.parametrize(("version", "ok"), [
    ("2.3.0-gpu-py311", True), ("a" * 128, True), ("é" * 128, True), ("a\u0301b", True),  # \w as the engine reads it
    ("a" * 129, False), ("", False), ("-a", False), (".a", False), ("a b", False), ("ab\n", False), ("x²", False),
])
def test_a_framework_version_is_checked_as_its_pattern_reads(version: str, ok: bool) -> None:
    """The tag is refused exactly as ``Field(pattern=FRAMEWORK_VERSION)`` would refuse it, with that error."""
    from pydantic import ValidationError

    from policy.recipes import FRAMEWORK_VERSION

    if ok:
        assert FrameworkImage(framework="pytorch", version=version).version == version
        return
    with pytest.raises(ValidationError) as caught:
        FrameworkImage(framework="pytorch", version=version)
    (error,) = caught.value.errors()
    assert (error["type"], error["loc"], error["ctx"]) == ("string_pattern_mismatch", ("version",),
                                                          {"pattern": FRAMEWORK_VERSION})
    assert error["msg"] == f"String should match pattern '{FRAMEWORK_VERSION}'"
