"""One planning pipeline: the CLI, POST /v1/plans and POST /v1/requests read the same input the same way."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterator
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import yaml
from sqlmodel import Session
from typer.testing import CliRunner

from contract.requests import RequestCreate
from gpuops.cli import app
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import plan_hash
from policy.membership import Filer
from service.capacity.view import UnknownCapacity
from service.planning import PlanContext, Planner
from service.requests.filing import create_request
from service.spend.providers import SampleSpend, sample_spend_path
from tests.service.apiclient import Live, live_service
from tests.service.conftest import create_sqlite_db

TZ = "America/Los_Angeles"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))
REQUESTS = [
    "fine-tune 7B by Friday",
    "pretrain 1.3B on 50B tokens by next Wednesday, production",
    "LoRA 13B on 200M tokens, spot ok",
    "sweep 20 trials of 350M on 1B tokens in us-west-2",
    "fine-tune 70B on 2B tokens by 2026-12-20 for team-nlp",
    "fine-tune SDXL on our catalog images, it takes about 300 A100-hours, by Friday",
    '{"model": "mistral-7b", "tokens": "500M", "task": "lora"}',
    "need 16 H100s for a 3-day distributed training debug session",
    "fine-tune 7B, 2000 steps of 1M tokens",
]


# Every door plans under one policy: the default, with room for the file's many requests in a minute from one caller
# (a fast machine sends more than the default's 30).
POLICY = default_policy().model_copy(update={"rate_limit_per_minute": 100_000})


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("doors-policy") / "policy.yaml"
    path.write_text(yaml.safe_dump(POLICY.model_dump(mode="json")), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    url = create_sqlite_db(tmp_path_factory.mktemp("doors"))
    with live_service(url, POLICY, spend=SampleSpend(sample_spend_path(), clock=lambda: NOW),
                      capacity=UnknownCapacity()) as service:
        yield service


def _cli(*args: str, policy: str | None = None) -> dict[str, object]:
    # every door plans with the same capacity: here, as without AWS credentials, unknown
    result = CliRunner().invoke(app, ["plan", *args, "--json", "--spend", "sample",
                                      *(["--policy", policy] if policy else [])],
                                env={"GPUOPS_CAPACITY": "unknown"})
    return dict(json.loads(result.stdout))


@pytest.mark.parametrize("text", REQUESTS)
def test_the_same_input_gives_the_same_plan_through_every_door(text: str, live: Live, session: Session,
                                                              policy_file: str) -> None:
    by_cli = _cli(text, "--now", "2026-11-30T09:00", "--tz", TZ, policy=policy_file)
    previewed = live.post("/v1/plans", {"text": text, "now": NOW.isoformat(), "timezone": TZ})
    assert previewed.status_code == 200, previewed.text
    planner = Planner(catalog=load_catalog(), policy=POLICY,
                      spend=SampleSpend(sample_spend_path(), clock=lambda: NOW), capacity=UnknownCapacity())
    record, revision = create_request(session=session, planner=planner, body=RequestCreate(text=text, timezone=TZ),
                                      actor="U1", requester="U1", filer=Filer(actor="U1"),
                                      idempotency_key=None, now=NOW)
    assert revision is not None
    assert previewed.json() == by_cli
    assert previewed.headers["X-Plan-Hash"] == plan_hash(by_cli)
    # Filing adds one thing a preview cannot know: the team's ledger, read under the write lock.
    assert revision.plan_hash == plan_hash(revision.decision)
    filed = dict(revision.decision, spend=dict(revision.decision["spend"]))
    assert filed["spend"].pop("ledger") is not None and by_cli["spend"].pop("ledger") is None  # type: ignore[union-attr]
    for part in ("request", "plan", "alternatives", "assumptions", "warnings", "catalog", "spend"):
        assert filed[part] == by_cli[part], part
    assert filed["approval"]["approvals_needed"] == by_cli["approval"]["approvals_needed"]  # type: ignore[index]


@pytest.mark.parametrize("text", REQUESTS)
@pytest.mark.parametrize("zone", [TZ, "Asia/Kolkata", None])
def test_a_previews_bytes_are_exactly_the_decisions_own_json(text: str, zone: str | None) -> None:
    """The preview writes the decision from the document its hash is taken from, not from the model again."""
    planner = Planner(catalog=load_catalog(), policy=POLICY,
                      spend=SampleSpend(sample_spend_path(), clock=lambda: NOW), capacity=UnknownCapacity())
    context = planner.ask_or_plan(text=text, fields={}, timezone=zone, now=NOW)
    assert isinstance(context, PlanContext)
    assert context.decision_json() == context.decision.model_dump_json().encode()
    assert context.plan_hash == plan_hash(context.decision.model_dump(mode="json"))
    unbounded = dataclasses.replace(context, decision=context.decision.model_copy(
        update={"savings_vs_naive_usd": math.inf}))
    assert unbounded.decision_json() == unbounded.decision.model_dump_json().encode()  # null, as the model writes


def test_a_structured_field_fills_what_the_text_leaves_out(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "fine-tune by Friday", "params": 7_000_000_000,
                                     "now": NOW.isoformat(), "timezone": TZ})
    assert answer.status_code == 200, answer.text
    assert answer.json()["request"]["params"] == 7_000_000_000


def test_a_structured_field_wins_over_the_text_and_says_so(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "fine-tune 13B by Friday", "params": 7_000_000_000,
                                     "now": NOW.isoformat(), "timezone": TZ})
    assert answer.status_code == 200, answer.text
    assert answer.json()["request"]["params"] == 7_000_000_000
    assert any("params 7000000000 from the request's fields over 13000000000" in note
               for note in answer.json()["request"]["notes"])


def test_platforms_given_to_compare_show_the_best_on_each_other_as_an_alternative(live: Live) -> None:
    body = {"text": "fine-tune 7B on 1B tokens for team-nlp", "now": NOW.isoformat(), "timezone": TZ}
    compared = live.post("/v1/plans", {**body, "platform_choice": ["sagemaker", "eks"]})
    assert compared.status_code == 200, compared.text
    plan = compared.json()["plan"]
    assert plan == live.post("/v1/plans", body).json()["plan"]  # the policy's choice
    [other] = {"sagemaker", "eks"} - {plan["platform"]}
    label = {"sagemaker": "on SageMaker", "eks": "on EKS"}[other]
    assert [a["platform"] for a in compared.json()["alternatives"] if a["label"] == label] == [other]


def test_ways_of_training_given_to_compare_plan_the_first_and_price_the_other(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "13B on 400M tokens", "task": "lora", "task_choice": ["lora", "fine-tune"],
                                     "now": NOW.isoformat(), "timezone": TZ})
    assert answer.status_code == 200, answer.text
    assert answer.json()["request"]["task"] == "lora"
    assert [w for w in answer.json()["warnings"] if w.startswith("compared: as fine-tune the plan would be")]


def test_the_tokens_a_budget_pays_for_can_be_asked_for_as_fields(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "LoRA 7B", "budget_usd": 200, "tokens_fit_budget": True,
                                     "now": NOW.isoformat(), "timezone": TZ})
    assert answer.status_code == 200, answer.text
    assert answer.json()["request"]["tokens"] > 10**9 and answer.json()["plan"]["estimated_cost_usd"] <= 200


def test_the_biggest_model_a_budget_trains_can_be_asked_for_as_fields(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "fine-tune on 1B tokens, experimental", "budget_usd": 5000,
                                     "params_fit_budget": True, "now": NOW.isoformat(), "timezone": TZ})
    assert answer.status_code == 200, answer.text
    assert answer.json()["request"]["params"] > 10**9 and answer.json()["plan"]["estimated_cost_usd"] <= 5000


def test_a_cost_center_given_as_a_field_is_on_the_plan_it_binds_and_a_bad_one_says_what_to_write(live: Live) -> None:
    body = {"text": "fine-tune 7B on 1B tokens", "now": NOW.isoformat(), "timezone": TZ}
    plain, billed = live.post("/v1/plans", body), live.post("/v1/plans", {**body, "cost_center": "ML-4411"})
    assert billed.status_code == 200, billed.text
    assert billed.json()["request"]["cost_center"] == "ML-4411"
    assert billed.headers["X-Plan-Hash"] != plain.headers["X-Plan-Hash"]  # approving binds to who pays
    bad = live.post("/v1/plans", {**body, "cost_center": "ML 4411; drop"})
    assert bad.status_code == 422
    assert "a cost center is one word of letters, digits" in bad.json()["error"]["message"]


def test_a_time_without_an_offset_is_read_in_the_requesters_zone(live: Live) -> None:
    naive = live.post("/v1/plans", {"text": "fine-tune 7B by Friday", "now": "2026-11-30T09:00", "timezone": TZ})
    aware = live.post("/v1/plans", {"text": "fine-tune 7B by Friday", "now": NOW.isoformat(), "timezone": TZ})
    assert naive.status_code == 200, naive.text
    assert naive.json() == aware.json()


def test_an_unknown_time_zone_has_one_code_everywhere(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "fine-tune 7B", "timezone": "Mars/Olympus"})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "unknown_timezone"
    assert _cli("fine-tune 7B", "--tz", "Mars/Olympus") == {
        "error": {"code": "unknown_timezone", "message": answer.json()["error"]["message"]}}


def test_the_cli_plans_with_the_refreshed_catalog_in_force(tmp_path: pytest.TempPathFactory,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = json.loads(load_catalog().model_dump_json())
    catalog["snapshot"] = "2026-11-29-refreshed"
    directory = tmp_path / "catalog"  # type: ignore[operator]
    directory.mkdir()
    (directory / "current.json").write_text(json.dumps(catalog), encoding="utf-8")
    monkeypatch.setenv("GPUOPS_CATALOG_DIR", str(directory))
    decision = _cli("fine-tune 7B by Friday", "--now", "2026-11-30T09:00", "--tz", TZ)
    assert decision["catalog"]["snapshot"] == "2026-11-29-refreshed"  # type: ignore[index]


def test_a_ceiling_given_as_a_field_caps_the_plan_as_the_texts_does(live: Live) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune 7B", "max_gpus": 4, "now": NOW.isoformat(), "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": "fine-tune 7B, at most 4 GPUs", "now": NOW.isoformat(),
                                      "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    assert by_field.json()["request"]["max_gpus"] == by_text.json()["request"]["max_gpus"] == 4
    assert by_field.json()["plan"] == by_text.json()["plan"]
    plan = by_field.json()["plan"]
    assert plan["instance_count"] * load_catalog().instances[plan["instance_type"]].accelerator_count <= 4


def test_a_floor_given_as_a_field_holds_the_plan_as_the_texts_does(live: Live) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune 7B", "min_instances": 3, "now": NOW.isoformat(),
                                       "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": "fine-tune 7B, 3 nodes or more", "now": NOW.isoformat(),
                                      "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    assert by_field.json()["request"]["min_instances"] == by_text.json()["request"]["min_instances"] == 3
    assert by_field.json()["plan"] == by_text.json()["plan"]
    assert by_field.json()["plan"]["instance_count"] >= 3


def test_a_field_ceiling_below_the_texts_exact_count_is_refused(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "fine-tune 7B on 2 nodes", "max_instances": 1,
                                     "now": NOW.isoformat(), "timezone": TZ})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "contradiction"
    assert "names 2 instances and at most 1 instance;" in answer.json()["error"]["message"]


def test_an_area_and_a_batch_given_as_fields_plan_as_the_texts_do(live: Live) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune 7B on 1B tokens", "area": "europe", "batch_tokens": 10**6,
                                       "now": NOW.isoformat(), "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": "fine-tune 7B on 1B tokens in europe, batch size 1M tokens",
                                      "now": NOW.isoformat(), "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    for answer in (by_field, by_text):
        assert answer.json()["request"]["area"] == "europe" and answer.json()["request"]["batch_tokens"] == 10**6
    assert by_field.json()["plan"] == by_text.json()["plan"]
    assert by_field.json()["plan"]["region"] == "eu-west-1"


def test_an_unknown_area_field_is_refused_naming_the_areas(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "fine-tune 7B", "area": "atlantis", "now": NOW.isoformat()})
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "invalid_request"
    assert "unknown area 'atlantis'; use one of us, north-america" in answer.json()["error"]["message"]


def test_a_platform_given_as_a_field_plans_as_the_texts_does(live: Live) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune 7B for team-nlp", "platform": "eks",
                                       "now": NOW.isoformat(), "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": "fine-tune 7B on EKS for team-nlp", "now": NOW.isoformat(),
                                      "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    assert by_field.json()["request"]["platform"] == by_text.json()["request"]["platform"] == "eks"
    assert by_field.json()["plan"] == by_text.json()["plan"]
    assert by_field.json()["plan"]["platform"] == "eks"


def test_a_platform_the_team_may_not_use_is_a_422_naming_the_policy_key(live: Live) -> None:
    for body in ({"text": "fine-tune 7B", "platform": "hyperpod"}, {"text": "fine-tune 7B with hyperpod"}):
        answer = live.post("/v1/plans", {**body, "now": NOW.isoformat(), "timezone": TZ})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "platform_not_allowed"
        assert "teams.team-ml.platforms.hyperpod" in answer.json()["error"]["message"]
    unknown = live.post("/v1/plans", {"text": "fine-tune 7B", "platform": "slurm"})
    assert unknown.status_code == 422


def test_ruling_out_the_only_platform_a_team_may_use_is_a_422_as_the_texts_is(live: Live) -> None:
    for body in ({"text": "fine-tune 7B", "exclude_platforms": ["sagemaker"]}, {"text": "fine-tune 7B, no sagemaker"}):
        answer = live.post("/v1/plans", {**body, "now": NOW.isoformat(), "timezone": TZ})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "platform_not_allowed"
        assert "teams.team-ml.platforms.ec2" in answer.json()["error"]["message"]


def test_an_exclusion_given_as_a_field_plans_as_the_texts_does(live: Live) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune 7B on 1B tokens", "exclude": ["H100"],
                                       "now": NOW.isoformat(), "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": "fine-tune 7B on 1B tokens, no H100s please", "now": NOW.isoformat(),
                                      "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    assert by_field.json()["request"]["exclude"] == by_text.json()["request"]["exclude"] == ["H100"]
    assert by_field.json()["plan"] == by_text.json()["plan"]
    assert by_field.json()["plan"]["accelerator"] != "H100"


@pytest.mark.parametrize(("fields", "text"), [
    ({"exclude_regions": ["us-east-1"]}, "fine-tune 7B on 1B tokens, not in us-east-1"),
    ({"regions": ["us-west-2", "eu-west-1"]}, "fine-tune 7B on 1B tokens in us-west-2 or eu-west-1"),
])
def test_regions_given_as_fields_plan_as_the_texts_do(live: Live, fields: dict[str, Any], text: str) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune 7B on 1B tokens", **fields, "now": NOW.isoformat(),
                                       "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": text, "now": NOW.isoformat(), "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    assert by_field.json()["plan"] == by_text.json()["plan"]
    assert by_field.json()["plan"]["region"] != "us-east-1"


def test_a_ceiling_per_accelerator_hour_given_as_a_field_plans_as_the_texts_does(live: Live) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune 7B on 1B tokens", "max_usd_per_gpu_hour": 1.5,
                                       "now": NOW.isoformat(), "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": "fine-tune 7B on 1B tokens, under $1.50/GPU-hr", "now": NOW.isoformat(),
                                      "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    assert by_field.json()["plan"] == by_text.json()["plan"]
    plan = by_field.json()["plan"]
    assert plan["price_per_instance_hour_usd"] * plan["instance_count"] / plan["accelerators"] <= 1.5


def test_an_exclusion_field_that_rules_out_the_hardware_the_text_names_is_a_contradiction(live: Live) -> None:
    answer = live.post("/v1/plans", {"text": "fine-tune 7B on p5", "exclude": ["H100"],
                                     "now": NOW.isoformat(), "timezone": TZ})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["code"] == "contradiction"


def test_a_jobs_size_in_accelerator_hours_given_as_fields_plans_as_the_texts_does(live: Live) -> None:
    by_field = live.post("/v1/plans", {"text": "fine-tune our detector", "work_gpu_hours": 300,
                                       "work_accelerator": "A100", "now": NOW.isoformat(), "timezone": TZ})
    by_text = live.post("/v1/plans", {"text": "fine-tune our detector, it takes about 300 A100-hours",
                                      "now": NOW.isoformat(), "timezone": TZ})
    assert by_field.status_code == by_text.status_code == 200, by_field.text
    assert by_field.json()["plan"] == by_text.json()["plan"]
    unknown = live.post("/v1/plans", {"text": "fine-tune our detector", "work_gpu_hours": 300,
                                      "work_accelerator": "MI300X", "now": NOW.isoformat(), "timezone": TZ})
    assert unknown.status_code == 422 and "give them on one of" in unknown.json()["error"]["message"]


def test_levels_to_be_told_of_and_the_adapters_rank_given_as_fields_are_the_texts(live: Live) -> None:
    base = {"now": NOW.isoformat(), "timezone": TZ}
    said = live.post("/v1/plans", {**base,
                                   "text": "qlora 70B on 100M tokens, lora rank 128, alert me at 80% and at $50"})
    given = live.post("/v1/plans", {**base, "text": "qlora 70B on 100M tokens", "lora_rank": 128,
                                    "alert_at_percent": [80], "alert_at_usd": [50]})
    assert said.status_code == given.status_code == 200, given.text
    for answer in (said, given):
        request = answer.json()["request"]
        assert (request["lora_rank"], request["alert_at_percent"], request["alert_at_usd"]) == (128, [80.0], [50.0])
    assert said.json()["plan"] == given.json()["plan"]
    bad = live.post("/v1/plans", {**base, "text": "qlora 70B on 100M tokens", "alert_at_percent": [0]})
    assert bad.status_code == 422 and "alert_at_percent" in bad.text


def test_a_share_of_the_teams_budget_given_as_a_field_is_priced_as_the_texts_is(live: Live) -> None:
    said = live.post("/v1/plans", {"text": "pretrain 3B on 60B tokens, keep it under 1% of our monthly budget",
                                   "now": NOW.isoformat(), "timezone": TZ})
    given = live.post("/v1/plans", {"text": "pretrain 3B on 60B tokens", "budget_percent": 1, "now": NOW.isoformat(),
                                    "timezone": TZ})
    for answer in (said, given):
        assert answer.status_code == 200, answer.text
        assert answer.json()["request"]["budget_usd"] == 500.0  # 1% of team-ml's $50,000
        assert any(r.startswith("over the $500.00 budget the request states")
                   for r in answer.json()["approval"]["reasons"])
