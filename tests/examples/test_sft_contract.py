"""The contract layer of the example recipe: what the job is told, where it resumes from, how it checkpoints and
prints metrics (docs/training-contract.md). Standard library only; no torch needed."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from gpuops_job import (
    BadInput,
    CheckpointTimer,
    JobEnv,
    emit_metric,
    latest_checkpoint,
    read_hyperparameters,
    save_checkpoint,
)

from policy.jobspec import JobSpec, container_arguments, container_environment
from policy.recipes import DEFAULT_METRICS
from service.aws.sagemaker import script_hyperparameters


def _spec() -> JobSpec:
    return JobSpec(recipe="sft", image="repo@sha256:" + "0" * 64, image_digest="sha256:" + "0" * 64,
                   entry_point="train.py", source=None, distribution="torchrun", model="gpt2",
                   model_source="openai-community/gpt2", dataset="s3://b/d/", dataset_bytes=10,
                   dataset_fingerprint="f", overrides=["lr"], environment={"A": "1"}, metric_definitions=[],
                   hyperparameters={"lr": 3e-5, "epochs": 2, "model_id": "openai-community/gpt2", "packing": True})


def test_the_job_reads_back_exactly_the_hyperparameters_gpuops_sends_on_every_platform() -> None:
    spec = _spec()
    env = container_environment(spec, request_id="req_1", revision=2, checkpoint_minutes=27,
                                checkpoint_dir="/opt/ml/checkpoints")
    sagemaker_argv = [part for name, value in script_hyperparameters(spec).items() if not name.startswith("sagemaker_")
                      for part in (f"--{name}", value)]
    assert read_hyperparameters(sagemaker_argv, {}) == spec.hyperparameters
    assert read_hyperparameters(container_arguments(spec), {}) == spec.hyperparameters  # EKS / HyperPod arguments
    assert read_hyperparameters([], env) == spec.hyperparameters  # GPUOPS_HYPERPARAMETERS alone
    job = JobEnv.read([], {**env, "SM_CHANNEL_TRAIN": "/opt/ml/input/data/train"})
    assert (job.request_id, job.checkpoint_interval_minutes, job.checkpoint_dir) == (
        "req_1", 27.0, Path("/opt/ml/checkpoints"))
    assert job.channel("train") == Path("/opt/ml/input/data/train")
    assert job.base_model() == "openai-community/gpt2"
    with pytest.raises(BadInput, match="no 'eval' data channel"):
        job.channel("eval")


def test_a_plan_that_splits_sequences_is_refused_before_anything_loads() -> None:
    env = container_environment(_spec(), request_id="req_1", revision=2, checkpoint_minutes=None,
                                checkpoint_dir="/opt/ml/checkpoints", context_parallel=4)
    job = JobEnv.read([], env)
    assert job.context_parallel == 4
    with pytest.raises(BadInput, match="splits each sequence across 4 accelerators"):
        job.require_whole_sequences()
    JobEnv.read([], {}).require_whole_sequences()  # a plan that holds every sequence whole


def test_the_job_reads_the_precision_the_request_trains_in() -> None:
    env = container_environment(_spec(), request_id="req_1", revision=2, checkpoint_minutes=None,
                                checkpoint_dir="/opt/ml/checkpoints", precision="fp8")
    assert JobEnv.read([], env).precision == "fp8" and JobEnv.read([], {}).precision == "bf16"


def test_the_teams_model_copy_wins_over_the_hub_id() -> None:
    job = JobEnv.read(["--model_id", '"org/m"'], {"SM_CHANNEL_MODEL": "/opt/ml/input/data/model"})
    assert job.base_model() == "/opt/ml/input/data/model"


def test_resume_takes_the_newest_complete_checkpoint_and_ignores_a_half_written_one(tmp_path: Path) -> None:
    assert latest_checkpoint(tmp_path / "none") is None
    for step in (10, 20, 30):
        save_checkpoint(tmp_path, step, lambda d, s=step: (d / "w").write_text(str(s)), keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step-000000020", "step-000000030"]

    def interrupted(directory: Path) -> None:
        (directory / "w").write_text("half")
        raise KeyboardInterrupt  # the spot instance went away mid-write

    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(tmp_path, 40, interrupted)
    step, path = latest_checkpoint(tmp_path) or (0, tmp_path)
    assert (step, (path / "w").read_text()) == (30, "30")
    (tmp_path / "step-000000050").mkdir()  # renamed but never marked complete
    assert latest_checkpoint(tmp_path) == (30, tmp_path / "step-000000030")


def test_checkpoints_fall_due_by_the_plans_interval_or_every_n_steps() -> None:
    now = [0.0]
    timer = CheckpointTimer(interval_minutes=27, clock=lambda: now[0])
    now[0] = 27 * 60 - 1
    assert not timer.due(5)
    now[0] = 27 * 60
    assert timer.due(6)
    timer.saved()
    assert not timer.due(7)
    assert CheckpointTimer(interval_minutes=None, every_steps=5).due(10)


def test_metric_lines_match_the_recipes_metric_definitions() -> None:
    import re

    out = io.StringIO()
    emit_metric("train_loss", 2.3456789, step=3, out=out)
    emit_metric("tokens_per_second", 51234.5, step=3, out=out)
    found = {m.name: float(re.search(m.regex, out.getvalue()).group(1)) for m in DEFAULT_METRICS}  # type: ignore[union-attr]
    assert found == {"train_loss": 2.34568, "tokens_per_second": 51234.5}


def test_bad_arguments_are_bad_input() -> None:
    with pytest.raises(BadInput):
        read_hyperparameters(["lr", "1"], {})
    assert json.loads(json.dumps(read_hyperparameters(["--name=text"], {}))) == {"name": "text"}
