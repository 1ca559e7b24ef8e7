"""Numbers written out in words count like digits when what they count follows them; other words stay words."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from policy.parse import parse_request
from policy.spelled import digits_for_words

TZ = "America/Los_Angeles"
TUESDAY = datetime(2026, 12, 1, 10, 0, tzinfo=ZoneInfo(TZ))
B, M = 10**9, 10**6


@pytest.mark.parametrize(("text", "expected"), [
    ("fine-tune a seven billion parameter model on one billion tokens", {"params": 7 * B, "tokens": 1 * B}),
    ("fine-tune 7B on half a billion tokens", {"tokens": 500 * M}),
    ("fine-tune 7B on a couple hundred million tokens", {"tokens": 200 * M}),
    ("fine-tune 7B on a couple of hundred million tokens", {"tokens": 200 * M}),
    ("fine-tune 7B on two and a half billion tokens", {"tokens": 2_500 * M}),
    ("fine-tune 7B on one hundred and fifty million tokens", {"tokens": 150 * M}),
    ("fine-tune 7B on a billion tokens", {"tokens": 1 * B}),
    ("sweep of twenty-five trials on a 350M model", {"trials": 25}),
    ("fine-tune 7B on 1B tokens, three seeds", {"trials": 3}),
    ("fine-tune 7B on 1B tokens, a dozen seeds", {"trials": 12}),
    ("fine-tune 7B on 1B tokens, 2 dozen seeds", {"trials": 24}),
    ("fine-tune 7B on 1B tokens on two nodes", {"instances": 2}),
    ("fine-tune 7B on 1B tokens on eight H100s", {"gpus": 8, "accelerator": "H100"}),
    ("fine-tune 7B on 100M tokens for three epochs", {"tokens": 300 * M}),
    # a hundred is the number's own: never "1" before a scale word nothing reads
    ("fine-tune 7B on 1B tokens for less than a hundred dollars", {"budget_usd": 100.0}),
    ("fine-tune 7B on 1B tokens, two hundred dollars max", {"budget_usd": 200.0}),
    ("fine-tune 7B on a hundred million tokens", {"tokens": 100 * M}),
    ("fine-tune 7B on two hundred thousand tokens", {"tokens": 200_000}),
])
def test_a_number_in_words_counts_what_follows_it(text: str, expected: dict[str, Any]) -> None:
    request = parse_request(text, now=TUESDAY, tz=TZ)
    assert {field: getattr(request, field) for field in expected} == expected
    assert request.unread == []


@pytest.mark.parametrize("text", [
    "fine-tune one of our 7B models on 1B tokens",  # "one of": no count
    "fine-tune 7B on 1B tokens on a node of p5",  # "a node": a node, not the count 1
    "fine-tune 7B on 1B tokens, run an a/b test after",
    "fine-tune 7B on 1B tokens, budget two hundred",  # what it counts is not said: stays words, never "2"
])
def test_words_that_count_nothing_are_left_as_words(text: str) -> None:
    assert digits_for_words(text) == text


def test_the_text_keeps_its_length_so_every_phrase_stays_where_it_was() -> None:
    text = "pretrain a one hundred and fifty million parameter model on two and a half billion tokens"
    rewritten = digits_for_words(text)
    assert len(rewritten) == len(text)
    assert rewritten.split() == ["pretrain", "a", "150", "million", "parameter", "model", "on", "2.5", "billion",
                                 "tokens"]
