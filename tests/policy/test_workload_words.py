"""What kind of work the text describes: named models, experts, teachers, DPO/RLHF/distillation (docs/design.md
§The request)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from policy.parse import parse_request
from policy.request import Task
from policy.workload_words import moe_params

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
B = 1_000_000_000

# (text, fields the request must carry)
READS: list[tuple[str, dict[str, Any]]] = [
    ("fine-tune llama-3.1-8b on 2B tokens", {"model": "llama-3.1-8b", "params": 8_030_261_248, "tokens": 2 * B,
                                             "task": Task.FINE_TUNE, "active_params": None}),
    ("DPO on mixtral 8x7b", {"task": Task.DPO, "model": "mixtral-8x7b", "params": 46_702_792_704,
                             "active_params": 12_879_925_248}),
    ("pretrain an 8x7b MoE on 1T tokens", {"task": Task.PRETRAIN, "params": moe_params(8, 7e9)[0],
                                           "active_params": moe_params(8, 7e9)[1], "tokens": 1000 * B}),
    ("distill 8B from a 70b teacher", {"task": Task.DISTILL, "params": 8 * B, "teacher_params": 70 * B}),
    # a word or two for what the teacher is, before "into" (it was refused as two model sizes)
    ("We want to distill our 13B ranker into a 1B model using 2B tokens of query logs",
     {"task": Task.DISTILL, "params": B, "teacher_params": 13 * B, "tokens": 2 * B, "unread": []}),
    ("distill our 70B chat model into a 7B on 1B tokens",
     {"task": Task.DISTILL, "params": 7 * B, "teacher_params": 70 * B, "tokens": B, "unread": []}),
    ("distill llama-3.2-1b from llama-3.1-70b on 5B tokens",
     {"task": Task.DISTILL, "model": "llama-3.2-1b", "teacher_params": 70_553_706_496, "tokens": 5 * B}),
    ("rlhf ppo on a 7b, 200M tokens", {"task": Task.RLHF, "params": 7 * B, "tokens": 200_000_000}),
    ("GRPO qwen2.5-7b", {"task": Task.RLHF, "model": "qwen2.5-7b"}),
    # RL said alone as training, and rollouts as a product of three factors joined by "x"
    ("RL fine-tune qwen2.5-math-7b with GRPO, 4k prompts x 16 samples x 1k tokens",
     {"task": Task.RLHF, "tokens": 64_000_000, "unread": []}),
    ("fine-tune 7B with RL on 100M tokens", {"task": Task.RLHF, "unread": []}),
    ("reinforcement learning on a 7B, 50M tokens", {"task": Task.RLHF, "unread": []}),
    ("DPO llama 3 8b with lora", {"task": Task.DPO, "adapter": Task.LORA, "params": 8_030_261_248}),
    ("llama 3.1 70b 128k context sft", {"task": Task.FINE_TUNE, "seq_len": 131072, "params": 70_553_706_496}),
    ("Phi-3 mini 3.8B", {"params": 3_800_000_000}),  # a size said outright wins over the named model's
    ("sweep 10 dpo runs on 7b", {"task": Task.SWEEP, "trials": 10}),
    # distillation: the teacher is the model distilled from, the student the one trained, by size or by name
    ("distill a 70B teacher into an 8B student on 1B tokens",
     {"task": Task.DISTILL, "params": 8 * B, "teacher_params": 70 * B, "tokens": B, "unread": []}),
    ("distill llama 70b into 8b on 1B tokens",
     {"task": Task.DISTILL, "params": 8 * B, "teacher_params": 70 * B, "tokens": B, "unread": []}),
    ("knowledge distillation from llama-3-70b to llama-3-8b",
     {"task": Task.DISTILL, "model": "llama-3-8b", "params": 8_030_261_248, "teacher_params": 70_553_706_496,
      "unread": []}),
    ("distill qwen2.5-72b down to qwen2.5-7b on 2B tokens",
     {"task": Task.DISTILL, "model": "qwen2.5-7b", "teacher_params": 72_706_203_648, "unread": []}),
    ("distill 405B -> 8B", {"task": Task.DISTILL, "params": 8 * B, "teacher_params": 405 * B, "unread": []}),
    ("distillation with llama-3.1-70b as the teacher and qwen2.5-1.5b as the student",
     {"task": Task.DISTILL, "model": "qwen2.5-1.5b", "params": 1_543_714_304, "teacher_params": 70_553_706_496,
      "unread": []}),
    ("distill, teacher: 70B, student: 3B, 500M tokens",
     {"task": Task.DISTILL, "params": 3 * B, "teacher_params": 70 * B, "tokens": 500_000_000, "unread": []}),
    ("distill a 1B student from a 70b teacher on 2B tokens",
     {"task": Task.DISTILL, "params": B, "teacher_params": 70 * B, "unread": []}),
    # named models beyond the Llama family
    ("fine-tune whisper large-v3", {"model": "whisper-large-v3", "params": 1_550_000_000}),
    ("fine-tune Whisper-Small", {"model": "whisper-small", "params": 244_000_000}),
    ("lora deepseek-v2-lite", {"model": "deepseek-v2-lite", "params": 15_700_000_000,
                               "active_params": 2_400_000_000}),
    ("sft mistral nemo", {"model": "mistral-nemo-12b", "params": 12_247_782_400}),
    ("fine-tune phi-3-medium", {"model": "phi-3-medium", "params": 13_960_238_080}),
    ("fine-tune qwen2.5-3b", {"model": "qwen2.5-3b", "params": 3_085_938_688}),
    ("fine-tune llama 3.3 70b", {"model": "llama-3.3-70b", "params": 70_553_706_496}),
    # a mixture of experts teaching computes with its active experts and holds all of them
    ("distill DeepSeek-R1 into a Qwen2.5 7B student, 2B tokens",
     {"task": Task.DISTILL, "model": "qwen2.5-7b", "teacher_params": 671_026_419_200,
      "teacher_active_params": 37 * B, "unread": []}),
    ("distill 8B student from mixtral 8x7b teacher, 1B tokens",
     {"task": Task.DISTILL, "params": 8 * B, "teacher_params": 46_702_792_704,
      "teacher_active_params": 12_879_925_248, "unread": []}),
    ("distill llama-3.2-1b from llama-3.1-70b", {"teacher_active_params": None}),
    # a task word inside a model's name is part of the name
    ("fine-tune DeepSeek-R1-Distill-Qwen-7B on 300M tokens",
     {"task": Task.FINE_TUNE, "model": "deepseek-r1-distill-qwen-7b", "params": 7_615_616_512,
      "teacher_params": None, "unread": []}),
    ("lora on deepseek-r1-distill-llama-8b", {"task": Task.LORA, "model": "deepseek-r1-distill-llama-8b"}),
    # a model named as a kind of model is no second model: the size said is the one trained, else the kind's
    ("train a GPT-2 style 350M model on 9B tokens", {"params": 350_000_000, "model": None, "unread": []}),
    ("pretrain a gpt2-like model on 9B tokens", {"params": 124_439_808, "model": None, "unread": []}),
    ("pretrain a Mistral 7B architecture model at 3B", {"params": 3 * B, "model": None}),
]


@pytest.mark.parametrize(("text", "fields"), READS, ids=[r[0] for r in READS])
def test_workload_words(text: str, fields: dict[str, Any]) -> None:
    request = parse_request(text, now=NOW, tz="UTC")
    assert {name: getattr(request, name) for name in fields} == fields


def test_mixtral_shape_from_its_name_matches_the_experts_rule_within_5_percent() -> None:
    total, active = moe_params(8, 7_241_732_096)  # Mistral-7B's size per expert
    assert total == pytest.approx(46_702_792_704, rel=0.05) and active == pytest.approx(12_879_925_248, rel=0.05)


def test_rlhf_with_a_reward_model_is_not_noted_as_training_one() -> None:
    request = parse_request("RLHF (PPO) on llama-3-8b with an 8B reward model, 50M tokens", now=NOW, tz="UTC")
    assert request.task is Task.RLHF
    assert not any("scoring head" in n for n in request.notes)  # the reward model is the RLHF job's, priced in it


def test_the_parser_note_says_what_was_read() -> None:
    request = parse_request("DPO on mixtral 8x7b", now=NOW, tz="UTC")
    # the size leads: Slack shows a note up to its first parenthesis
    assert "read 'mixtral 8x7b' as 46.7B parameters, 12.9B active per token (mixtral-8x7b)" in request.notes
    assert not any(n.endswith("as fine-tuning") for n in request.notes)


def test_a_model_named_as_a_kind_says_so_in_its_note() -> None:
    request = parse_request("train a GPT-2 style 350M model on 9B tokens", now=NOW, tz="UTC")

    assert ("read 'GPT-2 style' as the kind of model, not gpt2 itself: a size said in the request is the one planned, "
            "else gpt2's 124M") in request.notes
