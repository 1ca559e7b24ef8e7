"""Base models by name: spellings people type meet one row, and a mixture of experts computes with its active part."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from policy.models import find_model, image_model_in_text, load_models, model_in_text, models_in_text


@pytest.mark.parametrize(
    "spelling",
    ["llama-3.1-8b", "Llama 3.1 8B", "llama3.1-8b", "meta-llama/Llama-3.1-8B", "Llama-3.1-8B"],
)
def test_every_spelling_of_a_model_finds_the_same_row(spelling: str) -> None:
    model = find_model(spelling)
    assert model is not None and model.name == "llama-3.1-8b"


@pytest.mark.parametrize(("spelling", "name"), [
    ("whisper large-v3", "whisper-large-v3"), ("openai/whisper-large-v2", "whisper-large-v2"),
    ("Whisper Large", "whisper-large"), ("whisper tiny", "whisper-tiny"), ("whisper turbo", "whisper-large-v3-turbo"),
    ("DeepSeek-V2-Lite", "deepseek-v2-lite"), ("Mistral Nemo", "mistral-nemo-12b"), ("phi-3-small", "phi-3-small"),
    ("Llama 3.3 70B", "llama-3.3-70b"), ("Qwen2.5-3B", "qwen2.5-3b"), ("bert-large-uncased", "bert-large"),
    ("BERT base", "bert-base"),
    ("Qwen3-8B", "qwen3-8b"), ("qwen 3 32b", "qwen3-32b"), ("Qwen/Qwen3-30B-A3B", "qwen3-30b-a3b"),
    ("gpt-oss-20b", "gpt-oss-20b"), ("GPT OSS 120B", "gpt-oss-120b"), ("Llama 4 Scout", "llama-4-scout"),
    ("llama4 maverick", "llama-4-maverick"), ("Phi-4", "phi-4"), ("phi 4 mini", "phi-4-mini"),
    ("Gemma 3 27B", "gemma-3-27b"), ("gemma3-1b", "gemma-3-1b"), ("Mistral Small 24B", "mistral-small-24b"),
    # the first Gemma (7B is 8.54B parameters, its embeddings large) and Mistral Large 2 (123B)
    ("gemma 7b", "gemma-7b"), ("google/gemma-2b", "gemma-2b"), ("Mistral Large 2", "mistral-large-2"),
    ("DeepSeek-R1", "deepseek-r1"), ("DeepSeek-R1-Distill-Qwen-7B", "deepseek-r1-distill-qwen-7b"),
    ("deepseek-ai/DeepSeek-R1-Distill-Llama-70B", "deepseek-r1-distill-llama-70b"),
    ("Qwen2.5-Coder-7B", "qwen2.5-coder-7b"), ("qwen2.5-math-7b", "qwen2.5-math-7b"),
    ("t5-large", "t5-large"), ("google/flan-t5-xl", "flan-t5-xl"), ("Flan T5 XXL", "flan-t5-xxl"),
    # vision-language models, which train as their language model does on text and image tokens
    ("llava 1.5 7b", "llava-1.5-7b"), ("llava-hf/llava-1.5-13b-hf", "llava-1.5-13b"),
    ("wav2vec2-large", "wav2vec2-large"), ("facebook/wav2vec2-base", "wav2vec2-base"),
    ("wav2vec 2.0 large", "wav2vec2-large"),
    ("Qwen2-VL-7B-Instruct", "qwen2-vl-7b"), ("qwen2.5-vl-7b", "qwen2.5-vl-7b"), ("Qwen 2.5 VL 72B", "qwen2.5-vl-72b"),
])
def test_models_people_name_often_are_in_the_table(spelling: str, name: str) -> None:
    model = find_model(spelling)
    assert model is not None and model.name == name


@pytest.mark.parametrize(("text", "said", "per_token"), [
    ("fine-tune SDXL on 20k images", "SDXL", False), ("dreambooth on stable diffusion 1.5", "dreambooth", False),
    ("train a ResNet-50 on ImageNet", "ResNet-50", False), ("train a ViT-L/16 from scratch", "ViT-L/16", True),
    ("fine-tune siglip on captions", "siglip", True),
])
def test_an_image_model_named_is_told_apart_by_whether_its_cost_follows_tokens(text: str, said: str,
                                                                                per_token: bool) -> None:
    assert image_model_in_text(text) == (said, per_token)


def test_text_models_and_plain_words_name_no_image_model() -> None:
    for text in ("fine-tune llama 3 8B", "summarize the vitals data",
                 "sd card", "united states", "fine-tune bge-large on 5M pairs"):
        assert image_model_in_text(text) is None, text


@pytest.mark.parametrize(("spelling", "name", "params"), [
    ("bge-large", "bge-large-en-v1.5", 335_141_888), ("BAAI/bge-small-en-v1.5", "bge-small-en-v1.5", 33_360_000),
    ("e5-large-v2", "e5-large-v2", 335_141_888), ("all-MiniLM-L6-v2", "all-minilm-l6-v2", 22_713_216),
    ("roberta-base", "roberta-base", 124_645_632),
])
def test_text_encoders_people_fine_tune_for_search_are_in_the_table(spelling: str, name: str, params: int) -> None:
    model = find_model(spelling)
    assert model is not None and (model.name, model.params, model.max_context) == (name, params, 512)


def test_models_in_text_finds_each_in_order() -> None:
    found = models_in_text("distill llama-3.1-70b into qwen2.5-1.5b")
    assert [(m.name, span) for m, span in found] == [("llama-3.1-70b", (8, 21)), ("qwen2.5-1.5b", (27, 39))]


def test_an_unknown_model_is_none_not_a_guess() -> None:
    assert find_model("llama-9-1b") is None
    assert model_in_text("fine-tune a 7B model by Friday") is None


def test_every_spelling_in_the_table_is_found_in_a_sentence_in_any_case_and_separators() -> None:
    for model in load_models().models:
        for spelling in (model.name, model.hub_id, *model.aliases):
            for said in (spelling, spelling.upper(), spelling.replace("-", " "), spelling.replace("-", "_")):
                found = model_in_text(f"fine-tune {said} by Friday")
                assert found is not None and found[0] == find_model(said), said


def test_a_model_is_found_in_a_sentence_with_its_position() -> None:
    found = model_in_text("/gpu fine-tune Mixtral 8x22B on 2B tokens")
    assert found is not None
    model, (start, end) = found
    assert model.name == "mixtral-8x22b"
    assert "/gpu fine-tune Mixtral 8x22B on 2B tokens"[start:end] == "Mixtral 8x22B"


def test_a_mixture_of_experts_computes_with_its_active_parameters_and_holds_all_of_them() -> None:
    mixtral = find_model("mixtral-8x7b")
    assert mixtral is not None and mixtral.is_moe
    assert mixtral.compute_params == mixtral.active_params < mixtral.params
    dense = find_model("llama-3-70b")
    assert dense is not None and not dense.is_moe and dense.compute_params == dense.params


def test_each_row_is_consistent_with_its_own_shape() -> None:
    for model in load_models().models:
        assert model.heads % model.kv_heads == 0, model.name
        # 12·L·d² is the transformer-block count; embeddings and MoE experts only add to it.
        assert model.params >= 0.5 * 12 * model.layers * model.d_model**2 / (8 if model.is_moe else 1), model.name
        spellings = {model.name, *model.aliases}
        assert all(find_model(s) == model for s in spellings), model.name


@pytest.mark.parametrize(("text", "model", "seq_len"), [
    ("fine-tune bert-large on 2M examples of 128 tokens", "bert-large", 512),
    ("pretrain a 124M GPT-2 on 9B tokens", "gpt2", 1024),
    ("fine-tune llama 3.1 8b on 100M tokens", "llama-3.1-8b", 4096),  # the policy's default fits its context
    ("fine-tune t5-large on 500M tokens", "t5-large", 512),
])
def test_a_named_model_never_defaults_to_a_sequence_longer_than_it_reads(text: str, model: str, seq_len: int) -> None:
    from policy.catalog import load_catalog
    from policy.config import default_policy
    from policy.parse import parse_request
    from policy.spend import SpendSnapshot
    from policy.tree import decide

    now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    decision = decide(parse_request(text, now=now, tz="UTC"), catalog=load_catalog(), policy=default_policy(),
                      spend=SpendSnapshot.unavailable(team=None, reason="none"), now=now)
    assert (decision.request.model, decision.request.seq_len) == (model, seq_len)
