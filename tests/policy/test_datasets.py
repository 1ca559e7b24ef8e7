"""A public dataset said by its name counts its published size: its tokens times the epochs said, and what only the
person knows (how many passes, how long an example is) asked with the size in the question."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from policy.datasets import dataset_in_text, load_datasets
from policy.parse import parse_request, read_request
from policy.request import Task

TZ = "America/Los_Angeles"
MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))


def test_every_dataset_states_one_size_and_where_it_is_published() -> None:
    for spec in load_datasets():
        assert (spec.tokens is None) != (spec.examples is None), spec.name
        assert spec.source and (spec.tokens is None or spec.tokenizer), spec.name


@pytest.mark.parametrize(("text", "tokens", "tokenizer"), [
    ("pretrain a 410M model on the pile, one epoch", 300_000_000_000, "GPT-NeoX"),
    ("pretrain 1.3B on the deduplicated Pile for 1.5 epochs", 310_500_000_000, "GPT-NeoX"),
    ("finetune gpt2 on tiny shakespeare for 5 epochs", 301_966 * 5, "GPT-2"),
    ("train a 124M model on OpenWebText, 2 epochs", 9_035_582_198 * 2, "GPT-2"),
])
def test_a_corpus_with_its_epochs_is_its_published_tokens_times_them(text: str, tokens: int, tokenizer: str) -> None:
    reading = read_request(text, now=MONDAY, tz=TZ)
    assert reading.fields["tokens"] == tokens and reading.questions == []
    assert "unread" not in reading.fields
    assert any(f"tokens in {tokenizer}'s tokenizer, as published" in note for note in reading.notes), reading.notes


def test_a_corpus_without_epochs_asks_how_much_of_it_with_the_compute_optimal_share_for_pretraining() -> None:
    """One pass over FineWeb-Edu is 1.3T tokens, what no 1B pretraining reads: how much is asked, never guessed."""
    reading = read_request("pretrain 1B on fineweb-edu", now=MONDAY, tz=TZ)
    question = reading.questions[0]
    assert question.field == "tokens" and "FineWeb-Edu is 1.3T tokens" in question.question
    assert [c.value for c in question.choices] == [20_000_000_000, 1_300_000_000_000, 2_600_000_000_000,
                                                   5_200_000_000_000]
    fine_tune = read_request("fine-tune llama 3 8B on openwebtext", now=MONDAY, tz=TZ).questions[0]
    assert [c.value for c in fine_tune.choices] == [9_035_582_198 * n for n in (1, 2, 4)]


def test_an_instruction_dataset_asks_the_length_of_its_examples_times_the_epochs() -> None:
    reading = read_request("fine-tune llama 2 7B on alpaca, 3 epochs", now=MONDAY, tz=TZ)
    (question,) = reading.questions
    assert "Alpaca is 52,002 examples" in question.question and "'3 epochs'" in question.question
    assert [c.value for c in question.choices] == [52_002 * 3 * n for n in (256, 512, 2048)]
    assert "unread" not in reading.fields


def test_a_preference_dataset_under_dpo_or_a_reward_model_counts_both_answers_of_each_pair() -> None:
    reading = read_request("DPO on llama 3.1 8b instruct, ultrafeedback, 1 epoch", now=MONDAY, tz=TZ)
    (question,) = reading.questions
    assert "UltraFeedback (binarized) is 61,135 preference pairs" in question.question
    assert "DPO trains on both answers of each" in question.question
    assert [c.value for c in question.choices] == [61_135 * 2 * n for n in (256, 512, 2048)]
    assert "unread" not in reading.fields
    said = parse_request("train a 7B reward model on UltraFeedback, ~1k tokens each", now=MONDAY, tz=TZ,
                         team="team-ml")
    assert said.tokens == 61_135 * 2 * 1000 and said.unread == []
    # fine-tuned on, the pairs are examples like any other: one sequence each
    plain = read_request("fine-tune 8B on ultrafeedback", now=MONDAY, tz=TZ).questions[0]
    assert [c.value for c in plain.choices] == [61_135 * n for n in (256, 512, 2048)]


def test_the_amount_said_wins_over_the_datasets_size() -> None:
    request = parse_request("fine-tune llama 7B on openwebtext (9B tokens)", now=MONDAY, tz=TZ, team="team-ml")
    assert request.tokens == 9_000_000_000 and request.unread == []
    assert any("OpenWebText (9.04B tokens" in n and "the amount said is what is priced" in n for n in request.notes)


@pytest.mark.parametrize("text", [
    "we have a pile of data to fine-tune 7B on, 1B tokens",  # a word, not the Pile
    "fine-tune alpaca 7b on 1B tokens",  # a model of that name, its size after it
    "dolly-v2-12b finetune on 100M tokens",
])
def test_a_name_that_is_also_a_word_is_a_dataset_only_when_said_as_data(text: str) -> None:
    assert dataset_in_text(text) is None


@pytest.mark.parametrize(("text", "name"), [
    ("on the Pile deduped", "the deduplicated Pile"), ("using the alpaca dataset", "Alpaca"),
    ("pretrain on SlimPajama", "SlimPajama"), ("with dolly 15k", "Dolly 15k"), ("25B tokens of FineWeb", "FineWeb"),
])
def test_the_longest_name_said_is_the_dataset(text: str, name: str) -> None:
    found = dataset_in_text(text)
    assert found is not None and found.spec.name == name


def test_reproducing_a_named_model_is_pretraining_it_and_reproducing_its_results_is_not() -> None:
    request = parse_request("reproduce GPT-2 124M on OpenWebText, 10B tokens", now=MONDAY, tz=TZ, team="team-ml")
    assert request.task is Task.PRETRAIN and request.tokens == 10_000_000_000 and request.unread == []
    assert any(n.startswith("read 'reproduce' as training the named model again") for n in request.notes)
    lora = parse_request("we want to reproduce llama 2 7B results with a lora on 100M tokens", now=MONDAY, tz=TZ,
                         team="team-ml")
    assert lora.task is Task.LORA


def test_a_vision_transformer_said_in_words_trains_on_its_images_patches() -> None:
    reading = read_request("train a 400M vision transformer on imagenet for 90 epochs", now=MONDAY, tz=TZ)
    assert reading.fields["tokens"] == 1_281_167 * 197 * 90 and "unread" not in reading.fields


@pytest.mark.parametrize(("text", "tokens"), [
    ("what's the cost to pretrain 125M on fineweb-edu 10B sample?", 10_000_000_000),
    ("pretrain 350M on the 100BT sample of fineweb", 100_000_000_000),
    ("pretrain 125M on FineWeb-Edu sample-10BT, 2 epochs", 20_000_000_000),
])
def test_a_corpus_sample_by_its_size_is_that_many_tokens(text: str, tokens: int) -> None:
    reading = read_request(text, now=MONDAY, tz=TZ)
    assert reading.fields["tokens"] == tokens and reading.questions == [] and "unread" not in reading.fields
    assert any("a sample of FineWeb" in note for note in reading.notes)
