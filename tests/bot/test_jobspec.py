"""What an approver sees of the job, and the Edit modal's job inputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.blocks import request_blocks
from bot.jobspec import error_input
from bot.modals import edit_changes, edit_view
from policy.jobspec import JobSpec
from tests.bot.factories import NOW, make_decision, make_request

DIGEST = "sha256:" + "ab" * 32


def _job(**overrides: object) -> JobSpec:
    values: dict[str, object] = {
        "recipe": "sft", "image": f"123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft@{DIGEST}",
        "image_digest": DIGEST, "entry_point": "train.py", "source": "s3://team-ml-data/code/sft.tar.gz",
        "distribution": "torchrun", "model": "llama-3-8b", "model_source": "meta-llama/Meta-Llama-3-8B",
        "dataset": "s3://team-ml-data/datasets/chat-v3/", "dataset_bytes": 8_000_000, "dataset_fingerprint": "f",
        "hyperparameters": {"lr": 3e-5, "epochs": 2, "model_id": "meta-llama/Meta-Llama-3-8B"},
        "overrides": ["lr"], "environment": {}, "metric_definitions": [],
    }
    values.update(overrides)
    return JobSpec.model_validate(values)


def _sections(blocks: list[dict[str, Any]]) -> list[str]:
    return [str(b["text"]["text"]) for b in blocks if b.get("type") == "section" and "text" in b]


def test_the_plan_message_shows_exactly_what_runs_and_only_the_changed_hyperparameters() -> None:
    req = make_request(decision=make_decision(job=_job()))
    (section,) = [t for t in _sections(request_blocks(req, now=NOW)) if "What runs" in t]
    assert f"*Recipe* `sft` · image `123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft@{DIGEST}`" in section
    assert "*Runs* `train.py` from `s3://team-ml-data/code/sft.tar.gz` · torchrun" in section
    assert "*Model* llama-3-8b (`meta-llama/Meta-Llama-3-8B`)" in section
    assert "*Data* `s3://team-ml-data/datasets/chat-v3/` (8 MB)" in section
    assert "*Hyperparameters changed* `lr=3e-05`" in section and "epochs" not in section


def test_a_team_without_recipes_shows_no_job_section() -> None:
    assert not [t for t in _sections(request_blocks(make_request(), now=NOW)) if "What runs" in t]


def test_the_edit_modal_offers_the_job_inputs_and_reads_them_back() -> None:
    req = make_request(decision=make_decision(job=_job()))
    blocks = edit_view(req, channel="C", ts="1")["blocks"]
    shown = {b["block_id"]: b["element"].get("initial_value") for b in blocks if b.get("type") == "input"}
    assert (shown["recipe"], shown["dataset"], shown["model"], shown["hyperparameters"]) == (
        "sft", "s3://team-ml-data/datasets/chat-v3/", "llama-3-8b", "lr=3e-05")
    values = {key: {key: {"type": "plain_text_input", "value": value}} for key, value in {
        "dataset": "s3://team-ml-data/datasets/chat-v4/", "hyperparameters": "lr=1e-5, epochs=3"}.items()}
    changes, errors = edit_changes(values, "UTC")
    assert errors == {}
    assert changes == {"timezone": "UTC", "dataset": "s3://team-ml-data/datasets/chat-v4/",
                       "hyperparameters": {"lr": "1e-5", "epochs": "3"}}
    bad = {"hyperparameters": {"hyperparameters": {"type": "plain_text_input", "value": "lr 1e-5"}}}
    assert "name=value" in edit_changes(bad, "UTC")[1]["hyperparameters"]


def test_a_refusal_naming_a_job_input_is_shown_beside_it() -> None:
    present = {"dataset": {}, "hyperparameters": {}}
    assert error_input("dataset: s3://x/ is outside what recipe sft may read", present=present) == "dataset"
    assert error_input("hyperparameters.lr: 0.5 is outside 0..0.01", present=present) == "hyperparameters"
    assert error_input("Say how big the model is", present=present) is None


def test_slash_gpu_policy_lists_each_teams_recipes_with_its_default() -> None:
    from bot.views import policy_blocks
    from contract.info import PolicyPublic
    from policy.config import load_policy_file

    example = load_policy_file(str(Path(__file__).resolve().parents[2] / "deploy" / "policy.example.yaml"))
    blocks = policy_blocks(PolicyPublic(version="v", policy=example.model_dump(mode="json")))
    (teams,) = [t for t in _sections(blocks) if t.startswith("*Teams*")]
    assert "· recipes: `lora-dlc`, `sft` (default)" in teams
