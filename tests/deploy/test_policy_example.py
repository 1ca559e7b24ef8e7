"""deploy/policy.example.yaml validates and shows every key the policy file accepts."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

import yaml
from pydantic import BaseModel

from policy.config import PolicyConfig, load_policy_file, policy_warnings
from tests.deploy.conftest import DEPLOY

EXAMPLE = DEPLOY / "policy.example.yaml"


def _model_in(annotation: Any) -> tuple[type[BaseModel], str] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, "direct"
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if origin is list and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return args[0], "list"
    if origin is dict and isinstance(args[1], type) and issubclass(args[1], BaseModel):
        return args[1], "dict"
    if len(args) == 1:
        return _model_in(args[0])
    return None


def _missing(model: type[BaseModel], values: list[dict[str, Any]], path: str) -> Iterator[str]:
    """Key paths of ``model`` that none of ``values`` (the example's mappings at that place) sets."""
    for name, field in model.model_fields.items():
        present = [v[name] for v in values if name in v]
        if not present:
            yield f"{path}{name}"
            continue
        nested = _model_in(field.annotation)
        if nested is None:
            continue
        inner, how = nested
        if how == "list":
            items = [item for value in present for item in value]
        elif how == "dict":
            items = [item for value in present for item in value.values()]
        else:
            items = present
        yield from _missing(inner, [i for i in items if isinstance(i, dict)], f"{path}{name}.")


def test_example_policy_validates() -> None:
    policy = load_policy_file(str(EXAMPLE))
    assert len(policy.teams) >= 2
    assert any(team.launch.missing() == [] for team in policy.teams.values()), "one team can launch as is"
    assert policy_warnings(policy) == [], "every team says who may file for it"


def test_example_policy_sets_every_key() -> None:
    raw = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    assert list(_missing(PolicyConfig, [raw], "")) == []


def test_example_policy_covers_every_platform_and_both_stages() -> None:
    policy = load_policy_file(str(EXAMPLE))
    platforms = {name for team in policy.teams.values() for name, on in team.platforms.model_dump().items() if on}
    assert platforms == {"eks", "hyperpod", "ec2"}
    for team in policy.teams.values():
        assert {stage.value for stage in team.approvers} == {"experimental", "production"}
        assert team.digest is not None


def test_the_coverage_check_notices_a_missing_key() -> None:
    raw = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    before = set(_missing(PolicyConfig, [raw], ""))
    for team in raw["teams"].values():
        team["launch"].pop("hyperpod_cluster", None)
    assert set(_missing(PolicyConfig, [raw], "")) - before == {"teams.launch.hyperpod_cluster"}
