"""Supervised fine-tuning of a causal language model with PyTorch + Transformers, following gpuops' training-container
contract (docs/training-contract.md): hyperparameters as ``--name value``, the ``train`` channel of JSON-lines
files, checkpoints under ``GPUOPS_CHECKPOINT_DIR`` every ``GPUOPS_CHECKPOINT_INTERVAL_MINUTES`` (and on SIGTERM),
resuming from the newest one, metrics as ``gpuops_metric`` lines, the model in ``SM_MODEL_DIR``.

Each line of a ``*.jsonl`` file is ``{"text": …}`` or ``{"prompt": …, "completion": …}``. Runs on one process or
under torchrun (DistributedDataParallel; rank 0 writes checkpoints and the model).
"""

from __future__ import annotations

import json
import math
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import torch
from gpuops_job import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    BadInput,
    CheckpointTimer,
    JobEnv,
    emit_metric,
    latest_checkpoint,
    save_checkpoint,
    write_failure,
)
from transformers import AutoModelForCausalLM, AutoTokenizer

DEFAULTS: dict[str, Any] = {"epochs": 1, "per_device_batch": 4, "lr": 2e-5, "seq_len": 1024, "max_tokens": 0,
                            "save_steps": 0, "log_steps": 10, "seed": 0, "weight_decay": 0.0}


def _settings(job: JobEnv) -> dict[str, Any]:
    values = {**DEFAULTS, **job.hyperparameters}
    for name in ("epochs", "per_device_batch", "seq_len", "max_tokens", "save_steps", "log_steps", "seed"):
        if not isinstance(values[name], int) or isinstance(values[name], bool) or values[name] < 0:
            raise BadInput(f"hyperparameter {name} must be a whole number ≥ 0, got {values[name]!r}")
    if not isinstance(values["lr"], int | float) or not 0 < values["lr"] < 1:
        raise BadInput(f"hyperparameter lr must be a number between 0 and 1, got {values['lr']!r}")
    return values


def _texts(directory: Path) -> list[str]:
    texts: list[str] = []
    for path in sorted(directory.rglob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError:
                raise BadInput(f"{path.name} line {number} is not JSON") from None
            text = row.get("text") or (str(row.get("prompt", "")) + str(row.get("completion", "")))
            if text:
                texts.append(text)
    if not texts:
        raise BadInput(f"no training text in {directory} (JSON lines with 'text', or 'prompt' and 'completion')")
    return texts


def _blocks(tokenizer: Any, texts: list[str], seq_len: int) -> torch.Tensor:
    """The texts as one token stream (EOS between documents) cut into blocks of ``seq_len``."""
    eos = tokenizer.eos_token_id
    stream: list[int] = []
    for text in texts:
        stream += tokenizer(text)["input_ids"] + ([eos] if eos is not None else [])
    count = len(stream) // seq_len
    if count == 0:
        raise BadInput(f"the data holds {len(stream)} tokens, fewer than one sequence of {seq_len}")
    return torch.tensor(stream[: count * seq_len]).view(count, seq_len)


def _order(blocks: int, epoch: int, seed: int) -> list[int]:
    order = list(range(blocks))
    random.Random(seed * 1_000_003 + epoch).shuffle(order)
    return order


class _Stop:
    """Set by SIGTERM (a spot interruption or a stop): the loop checkpoints at the next step and exits 143."""

    requested = False

    @classmethod
    def handle(cls, _signum: int, _frame: object) -> None:
        cls.requested = True


def _save(job: JobEnv, model: Any, optimizer: Any, state: dict[str, Any]) -> None:
    def write(directory: Path) -> None:
        model.save_pretrained(directory / "model")
        torch.save(optimizer.state_dict(), directory / "optimizer.pt")
        (directory / "state.json").write_text(json.dumps(state), encoding="utf-8")

    path = save_checkpoint(job.checkpoint_dir, state["step"], write)
    sys.stdout.write(f"checkpoint step={state['step']} at {path}\n")
    sys.stdout.flush()


def _distributed() -> tuple[int, int]:
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world > 1 and not torch.distributed.is_initialized():
        torch.distributed.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
    return (torch.distributed.get_rank() if world > 1 else 0), world


def train(job: JobEnv) -> int:
    settings = _settings(job)
    rank, world = _distributed()
    device = torch.device(f"cuda:{int(os.environ.get('LOCAL_RANK', '0'))}" if torch.cuda.is_available() else "cpu")
    resume = latest_checkpoint(job.checkpoint_dir)
    base = str(resume[1] / "model") if resume else job.base_model()
    tokenizer = AutoTokenizer.from_pretrained(job.base_model())
    model = AutoModelForCausalLM.from_pretrained(base).to(device)
    blocks = _blocks(tokenizer, _texts(job.channel("train")), settings["seq_len"])
    optimizer = torch.optim.AdamW(model.parameters(), lr=settings["lr"], weight_decay=settings["weight_decay"])
    state = {"step": 0, "epoch": 0, "position": 0, "tokens": 0}
    if resume:
        optimizer.load_state_dict(torch.load(resume[1] / "optimizer.pt", weights_only=True))
        state = json.loads((resume[1] / "state.json").read_text(encoding="utf-8"))
        sys.stdout.write(f"resumed from step {state['step']} ({resume[1].name})\n")
    wrapped = torch.nn.parallel.DistributedDataParallel(model) if world > 1 else model
    batch = settings["per_device_batch"]
    budget = settings["max_tokens"] or math.inf
    timer = CheckpointTimer(job.checkpoint_interval_minutes, every_steps=settings["save_steps"] or None)
    window_tokens, window_start = 0, time.monotonic()
    model.train()
    while state["epoch"] < settings["epochs"] and state["tokens"] < budget:
        order = _order(len(blocks), state["epoch"], settings["seed"])
        while state["position"] < len(order) and state["tokens"] < budget:
            mine = order[state["position"]: state["position"] + batch * world][rank::world]
            inputs = blocks[mine].to(device)
            loss = wrapped(input_ids=inputs, labels=inputs).loss
            if not torch.isfinite(loss):
                raise FloatingPointError(f"loss is {loss.item()} at step {state['step']}; lower lr")
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            state["step"] += 1
            state["position"] += batch * world
            seen = len(mine) * settings["seq_len"] * world
            state["tokens"] += seen
            window_tokens += seen
            if rank == 0 and state["step"] % max(1, settings["log_steps"]) == 0:
                elapsed = max(time.monotonic() - window_start, 1e-9)
                emit_metric("train_loss", loss.item(), step=state["step"])
                emit_metric("tokens_per_second", window_tokens / elapsed, step=state["step"])
                window_tokens, window_start = 0, time.monotonic()
            if _Stop.requested or timer.due(state["step"]):
                if rank == 0:
                    _save(job, model, optimizer, state)
                timer.saved()
                if _Stop.requested:
                    return EXIT_INTERRUPTED
        if state["position"] >= len(order):
            state["epoch"], state["position"] = state["epoch"] + 1, 0
    if rank == 0:
        model.save_pretrained(job.model_dir)
        tokenizer.save_pretrained(job.model_dir)
        sys.stdout.write(f"done: {state['step']} steps, {state['tokens']} tokens, model in {job.model_dir}\n")
    return 0


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGTERM, _Stop.handle)
    signal.signal(signal.SIGINT, _Stop.handle)  # Ctrl-C when run by hand: the same checkpoint-and-exit
    try:
        job = JobEnv.read(argv)
        job.require_whole_sequences()  # data parallel only: a sequence the plan splits would not fit
        if job.precision != "bf16":  # the plan priced BF16 speed, so training in BF16 costs what was approved
            sys.stdout.write(f"gpuops: the request trains in {job.precision}; this script computes in BF16, the "
                             "speed the plan was priced at\n")
        return train(job)
    except BadInput as exc:
        write_failure(Path(os.environ.get("SM_OUTPUT_DATA_DIR", "/opt/ml/output/data")), f"bad input: {exc}")
        sys.stderr.write(f"bad input: {exc}\n")
        return EXIT_BAD_INPUT
    except FloatingPointError as exc:
        write_failure(Path(os.environ.get("SM_OUTPUT_DATA_DIR", "/opt/ml/output/data")), str(exc))
        sys.stderr.write(f"training failed: {exc}\n")
        return EXIT_FAILED


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
