"""The example recipe end to end on a tiny model on CPU: trains, is interrupted (SIGTERM, as a spot reclaim or a stop
sends), resumes from its newest checkpoint, prints the metrics the recipe's definitions read and writes the model.

Needs torch and transformers (``pip install -e '.[examples]'``); skipped, saying so, without them.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Any ImportError skips: a torch wheel that cannot load on this machine is as absent as none.
pytest.importorskip("torch", reason="the example recipe's end-to-end run needs torch: pip install -e '.[examples]'",
                    exc_type=ImportError)
pytest.importorskip("transformers", exc_type=ImportError,
                    reason="the example recipe's end-to-end run needs transformers: pip install -e '.[examples]'")

from gpuops_job import latest_checkpoint

from policy.recipes import DEFAULT_METRICS
from tests.examples.conftest import SFT

WORDS = "the quick brown fox jumps over a lazy dog while seven small models learn to count tokens".split()


def _tiny_model(base: Path, lines: list[str]) -> None:
    """A two-layer Llama with a BPE tokenizer trained on the data: everything local, nothing downloaded."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE(unk_token="<unk>"))
    bpe.pre_tokenizer = pre_tokenizers.Whitespace()
    bpe.train_from_iterator(lines, trainers.BpeTrainer(vocab_size=120, special_tokens=["<unk>", "</s>"]))
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=bpe, unk_token="<unk>", eos_token="</s>")
    tokenizer.save_pretrained(base)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=64)
    LlamaForCausalLM(config).save_pretrained(base)


def _run(tmp: Path, env: dict[str, str], *, stop_after_checkpoint: bool) -> tuple[int, str]:
    args = [sys.executable, str(SFT / "train.py"), "--model_id", json.dumps(str(tmp / "base")), "--seq_len", "16",
            "--per_device_batch", "2", "--epochs", "8", "--lr", "0.001", "--save_steps", "5", "--log_steps", "5"]
    process = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if stop_after_checkpoint:
        deadline = time.monotonic() + 300
        while latest_checkpoint(tmp / "checkpoints") is None and process.poll() is None:
            assert time.monotonic() < deadline, "no checkpoint appeared"
            time.sleep(0.02)
        process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=600)
    return process.returncode, out


def test_the_example_trains_resumes_after_an_interruption_and_prints_its_metrics(tmp_path: Path) -> None:
    lines = [" ".join(WORDS[(i + j) % len(WORDS)] for j in range(12)) for i in range(60)]
    (tmp_path / "train").mkdir()
    (tmp_path / "train" / "part-0.jsonl").write_text("\n".join(json.dumps({"text": t}) for t in lines))
    _tiny_model(tmp_path / "base", lines)
    env = {**os.environ, "PYTHONPATH": str(SFT), "SM_CHANNEL_TRAIN": str(tmp_path / "train"),
           "GPUOPS_CHECKPOINT_DIR": str(tmp_path / "checkpoints"), "SM_MODEL_DIR": str(tmp_path / "model"),
           "SM_OUTPUT_DATA_DIR": str(tmp_path / "output" / "data"), "GPUOPS_CHECKPOINT_INTERVAL_MINUTES": "27",
           "GPUOPS_REQUEST_ID": "req_example", "OMP_NUM_THREADS": "1"}

    code, first = _run(tmp_path, env, stop_after_checkpoint=True)
    assert code == 143, first
    step, _ = latest_checkpoint(tmp_path / "checkpoints") or (0, tmp_path)
    assert step >= 5 and not (tmp_path / "model").exists()

    code, second = _run(tmp_path, env, stop_after_checkpoint=False)
    assert code == 0, second
    assert f"resumed from step {step} " in second
    steps = [int(s) for s in re.findall(r"gpuops_metric train_loss=\S+ step=(\d+)", second)]
    assert steps and min(steps) > step  # it went on from the checkpoint, not from the start
    for metric in DEFAULT_METRICS:
        values = [float(v) for v in re.findall(metric.regex, second)]
        assert values and all(v > 0 for v in values), metric.name
    assert (tmp_path / "model" / "config.json").is_file() and (tmp_path / "model" / "tokenizer.json").is_file()
