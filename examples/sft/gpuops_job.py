"""The training-container contract (docs/training-contract.md) as a small module a training script imports.

Standard library only, so it is tested without torch: reading the hyperparameters, channels and gpuops' variables,
finding the newest complete checkpoint to resume from, writing a checkpoint so that an interruption mid-write never
leaves one that looks complete, deciding when the next one is due, and printing metrics the tracker reads.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

COMPLETE = "COMPLETE"  # written last into a checkpoint directory: without it the checkpoint is ignored
_STEP_DIR = re.compile(r"^step-(\d{9})$")
# Exit codes: 0 done (the model is in the model directory); 2 the job was given something it cannot use (bad
# hyperparameter, empty data): a retry cannot help; 3 training failed (loss not finite…); 143 stopped by SIGTERM
# after writing a checkpoint (a spot interruption or a stop): the next start resumes from it.
EXIT_OK, EXIT_BAD_INPUT, EXIT_FAILED, EXIT_INTERRUPTED = 0, 2, 3, 143


class BadInput(Exception):
    """The job's input cannot be used as given; the message says what to fix."""


def _typed(value: str) -> Any:
    """A hyperparameter as sent (JSON on SageMaker: ``"\\"text\\""``, ``3``, ``2e-05``, ``true``) or plain text."""
    try:
        return json.loads(value)
    except ValueError:
        return value


def read_hyperparameters(argv: Sequence[str], environ: Mapping[str, str]) -> dict[str, Any]:
    """``--name value`` arguments (how SageMaker passes them), over ``GPUOPS_HYPERPARAMETERS`` (typed JSON)."""
    values: dict[str, Any] = dict(json.loads(environ.get("GPUOPS_HYPERPARAMETERS") or "{}"))
    items = list(argv)
    while items:
        name = items.pop(0)
        key, equals, inline = name[2:].partition("=")
        if not name.startswith("--") or not key or (not equals and not items):
            raise BadInput(f"expected --name value (or --name=value), got {name!r}")
        values[key] = _typed(inline if equals else items.pop(0))
    return values


@dataclass(frozen=True)
class JobEnv:
    """Everything the job was told: hyperparameters, data channels, where checkpoints and the model go."""

    hyperparameters: dict[str, Any]
    channels: dict[str, Path]
    checkpoint_dir: Path
    model_dir: Path
    output_dir: Path
    request_id: str | None
    checkpoint_interval_minutes: float | None
    model_id: str | None
    # accelerators of an instance each sequence is to be split across (GPUOPS_CONTEXT_PARALLEL): the plan's memory
    # assumes it; 1 when the plan holds every sequence on one accelerator
    context_parallel: int = 1
    # the arithmetic the request trains in (GPUOPS_PRECISION): "fp8" on parts that compute in FP8, else "bf16"
    precision: str = "bf16"

    @classmethod
    def read(cls, argv: Sequence[str], environ: Mapping[str, str] | None = None) -> JobEnv:
        env = os.environ if environ is None else environ
        channels = {key.removeprefix("SM_CHANNEL_").lower(): Path(value) for key, value in env.items()
                    if key.startswith("SM_CHANNEL_")}
        interval = env.get("GPUOPS_CHECKPOINT_INTERVAL_MINUTES")
        return cls(
            hyperparameters=read_hyperparameters(argv, env), channels=channels,
            checkpoint_dir=Path(env.get("GPUOPS_CHECKPOINT_DIR", "/opt/ml/checkpoints")),
            model_dir=Path(env.get("SM_MODEL_DIR", "/opt/ml/model")),
            output_dir=Path(env.get("SM_OUTPUT_DATA_DIR", "/opt/ml/output/data")),
            request_id=env.get("GPUOPS_REQUEST_ID"),
            checkpoint_interval_minutes=float(interval) if interval else None,
            model_id=env.get("GPUOPS_MODEL_ID"),
            context_parallel=int(env.get("GPUOPS_CONTEXT_PARALLEL") or 1),
            precision=env.get("GPUOPS_PRECISION") or "bf16",
        )

    def require_whole_sequences(self) -> None:
        """``BadInput`` when the plan splits each sequence across accelerators and the script cannot: it would run
        out of memory hours in, so it stops before loading anything."""
        if self.context_parallel > 1:
            raise BadInput(f"the plan splits each sequence across {self.context_parallel} accelerators "
                           "(GPUOPS_CONTEXT_PARALLEL) and this script holds each on one; use a recipe whose script "
                           "shards sequences (context parallelism), or a shorter seq_len")

    def channel(self, name: str) -> Path:
        """The local directory of data channel ``name``; ``BadInput`` when the job was given none."""
        if name not in self.channels:
            raise BadInput(f"no {name!r} data channel (SM_CHANNEL_{name.upper()}); the recipe's job has "
                           f"{', '.join(sorted(self.channels)) or 'none'}")
        return self.channels[name]

    def base_model(self) -> str:
        """Where the base weights are: the team's S3 copy (the ``model`` channel) if given, else the hub id."""
        if "model" in self.channels:
            return str(self.channels["model"])
        named = self.hyperparameters.get("model_id") or self.model_id
        if not named:
            raise BadInput("no base model: give the model_id hyperparameter or a model channel")
        return str(named)


def checkpoint_path(root: Path, step: int) -> Path:
    return root / f"step-{step:09d}"


def latest_checkpoint(root: Path) -> tuple[int, Path] | None:
    """The newest complete checkpoint under ``root`` as (step, directory); half-written ones are skipped."""
    if not root.is_dir():
        return None
    found = [(int(m.group(1)), p) for p in root.iterdir()
             if p.is_dir() and (m := _STEP_DIR.match(p.name)) and (p / COMPLETE).is_file()]
    return max(found) if found else None


def save_checkpoint(root: Path, step: int, write: Callable[[Path], None], *, keep: int = 2) -> Path:
    """Write a checkpoint for ``step`` with ``write(directory)``, mark it complete last, and keep the newest
    ``keep``. An interruption at any point leaves the previous complete checkpoint the newest one."""
    final = checkpoint_path(root, step)
    partial = root / f".partial-{final.name}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    write(partial)
    shutil.rmtree(final, ignore_errors=True)
    partial.rename(final)
    (final / COMPLETE).write_text(json.dumps({"step": step}), encoding="utf-8")
    complete = sorted(p for p in root.iterdir() if _STEP_DIR.match(p.name) and (p / COMPLETE).is_file())
    for old in complete[:-keep]:
        shutil.rmtree(old, ignore_errors=True)
    return final


@dataclass
class CheckpointTimer:
    """Says when a checkpoint is due: every ``interval_minutes`` of wall time (the plan's interval), or every
    ``every_steps`` steps when set."""

    interval_minutes: float | None
    every_steps: int | None = None
    clock: Callable[[], float] = time.monotonic
    _last: float = field(default=0.0, init=False)

    def __post_init__(self) -> None:
        self._last = self.clock()

    def due(self, step: int) -> bool:
        if self.every_steps and step % self.every_steps == 0:
            return True
        if self.interval_minutes is not None and self.clock() - self._last >= self.interval_minutes * 60:
            return True
        return False

    def saved(self) -> None:
        self._last = self.clock()


def emit_metric(name: str, value: float, *, step: int, out: TextIO | None = None) -> None:
    """One metric line in the form the recipe's metric definitions read: ``gpuops_metric <name>=<value> step=<n>``."""
    stream = out or sys.stdout
    stream.write(f"gpuops_metric {name}={value:.6g} step={step}\n")
    stream.flush()


def write_failure(output_dir: Path, message: str) -> None:
    """The reason SageMaker shows as the job's FailureReason (``/opt/ml/output/failure``)."""
    output_dir.parent.mkdir(parents=True, exist_ok=True)
    (output_dir.parent / "failure").write_text(message[:1024], encoding="utf-8")
