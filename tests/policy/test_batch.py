"""A stated global batch is tokens per optimizer step: it sets how far a job scales and never the tokens trained."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision
from policy.defaults import complete
from policy.errors import RequestError
from policy.estimate import TUNING_BATCH_TOKENS, workload
from policy.parse import parse_request
from policy.request import Task
from policy.spend import SpendSnapshot
from policy.tree import decide

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)


def _decide(text: str) -> Decision:
    request = parse_request(text, now=NOW, tz="UTC")
    return decide(request, catalog=load_catalog(), policy=default_policy(),
                  spend=SpendSnapshot.unavailable(team=None, reason="not needed"), now=NOW)


def test_the_workload_steps_on_the_batch_said_else_the_tasks_usual_one() -> None:
    said = workload(task=Task.FINE_TUNE, params=7 * 10**9, tokens=10**9, trials=1, seq_len=4096,
                    batch_tokens=2_000_000)
    usual = workload(task=Task.FINE_TUNE, params=7 * 10**9, tokens=10**9, trials=1, seq_len=4096)
    assert (said.batch_tokens, usual.batch_tokens) == (2_000_000, TUNING_BATCH_TOKENS)
    assert said.flops == usual.flops  # the batch changes how the work spreads, not how much there is


def test_the_batch_is_not_the_dataset() -> None:
    decision = _decide("fine-tune a 7B model, 1 epoch over 1B tokens, batch size 1M tokens")
    assert decision.request.tokens == 10**9 and decision.request.batch_tokens == 10**6
    assert any("as the global batch, 1M tokens per optimizer step" in a for a in decision.assumptions)


def test_a_small_batch_scales_worse_across_instances() -> None:
    on_8 = "pretrain 7B on 100B tokens on 8 p5.48xlarge"
    usual, small = _decide(on_8), _decide(on_8 + ", batch size 256k tokens")
    assert small.plan.estimated_hours > usual.plan.estimated_hours


def test_a_batch_in_sequences_is_that_many_sequences_of_the_context_length() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, batch size 512, 8k context", now=NOW, tz="UTC")
    completed, notes = complete(request, policy=default_policy())
    assert completed.batch_tokens == 512 * 8192
    assert "batch: 512 sequences × 8,192 tokens = 4.19M tokens per optimizer step" in notes


def test_a_batch_larger_than_the_run_is_refused() -> None:
    request = parse_request("fine-tune 7B on 1M tokens, batch size 2M tokens", now=NOW, tz="UTC")
    with pytest.raises(RequestError) as refused:
        complete(request, policy=default_policy())
    assert refused.value.code == "invalid_batch" and "not even one optimizer step" in refused.value.message
