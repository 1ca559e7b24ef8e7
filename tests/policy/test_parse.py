"""Free-text requests against fixed clocks: the fields each phrasing sets, the ones it leaves unsaid, and refusals."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policy.errors import RequestError
from policy.parse import parse_request
from policy.request import Stage, Task, Tolerance, TrainingRequest

TZ = "America/Los_Angeles"
LA = ZoneInfo(TZ)
MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=LA)
FRIDAY_EVENING = datetime(2026, 12, 4, 18, 30, tzinfo=LA)
SUNDAY = datetime(2026, 12, 6, 10, 0, tzinfo=LA)
MONTH_END_EVENING = datetime(2026, 11, 30, 18, 0, tzinfo=LA)
YEAR_END_EVENING = datetime(2026, 12, 31, 20, 0, tzinfo=LA)
B = 10**9
M = 10**6


def deadline(iso: str) -> datetime:
    return datetime.fromisoformat(iso)


# (text, now, expected fields); every field not listed must stay None (the parser sets only what is said).
PARSES: list[tuple[str, datetime, dict[str, Any]]] = [
    ("fine-tune 7B by Friday", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("fine-tune 7B by tomorrow 9am", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-01T09:00-08:00")}),
    ("production fine-tune of our 7B model for the customer launch, need it by Friday", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "stage": Stage.PRODUCTION,
      "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("sweep of 20 trials for a 350M model on 1B tokens each", MONDAY,
     {"task": Task.SWEEP, "trials": 20, "params": 350 * M, "tokens": 1 * B}),
    ("fine-tune 13B on 8xH100 by Friday", MONDAY,
     {"task": Task.FINE_TUNE, "params": 13 * B, "gpus": 8, "accelerator": "H100",
      "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("fine-tune 7B in us-west-2 by Friday under $300", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "region": "us-west-2", "budget_usd": 300.0,
      "deadline": deadline("2026-12-04T17:00-08:00")}),
    # sizes
    ("7b", MONDAY, {"params": 7 * B}),
    ("finetune a 1.5B", MONDAY, {"task": Task.FINE_TUNE, "params": 1_500_000_000}),
    ("train a 70 billion parameter model", MONDAY, {"params": 70 * B}),
    ("fine-tune llama-3 8b", MONDAY, {"task": Task.FINE_TUNE, "params": 8_030_261_248}),  # published size
    ("fine-tune llama-3.1-405B", MONDAY, {"task": Task.FINE_TUNE, "params": 405_853_388_800}),
    ("SFT qwen2.5-7b-instruct", MONDAY, {"task": Task.FINE_TUNE, "params": 7_615_616_512}),
    ("a 7-billion-parameter model", MONDAY, {"params": 7 * B}),
    ("7,000,000,000 parameters", MONDAY, {"params": 7 * B}),
    ("fine-tune a 7B-parameter model", MONDAY, {"task": Task.FINE_TUNE, "params": 7 * B}),
    ("fine-tune mixtral 8x7B", MONDAY, {"task": Task.FINE_TUNE, "params": 46_702_792_704}),
    ("10T params", MONDAY, {"params": 10_000 * B}),
    ("pretrain 1B on 20B", MONDAY, {"task": Task.PRETRAIN, "params": 1 * B, "tokens": 20 * B}),
    # tokens
    ("pretrain 7B on 2B tokens", MONDAY, {"task": Task.PRETRAIN, "params": 7 * B, "tokens": 2 * B}),
    ("pretrain 70B on 1.4T tokens", MONDAY, {"task": Task.PRETRAIN, "params": 70 * B, "tokens": 1_400 * B}),
    ("fine-tune 8B on 500M tokens", MONDAY, {"task": Task.FINE_TUNE, "params": 8 * B, "tokens": 500 * M}),
    ("8B, 100B tokens", MONDAY, {"params": 8 * B, "tokens": 100 * B}),
    ("8B on a 2B-token dataset", MONDAY, {"params": 8 * B, "tokens": 2 * B}),
    ("8B, tokens: 3B", MONDAY, {"params": 8 * B, "tokens": 3 * B}),
    ("fine-tune 7B on 2 trillion tokens", MONDAY, {"task": Task.FINE_TUNE, "params": 7 * B, "tokens": 2_000 * B}),
    # tasks
    ("LoRA 7B", MONDAY, {"task": Task.LORA, "params": 7 * B}),
    ("LoRA fine-tune of 7B", MONDAY, {"task": Task.LORA, "params": 7 * B}),
    ("QLoRA 70B", MONDAY, {"task": Task.QLORA, "params": 70 * B}),
    ("q-lora 70B", MONDAY, {"task": Task.QLORA, "params": 70 * B}),
    ("pretrain 1B", MONDAY, {"task": Task.PRETRAIN, "params": 1 * B}),
    ("pre-training 1B", MONDAY, {"task": Task.PRETRAIN, "params": 1 * B}),
    ("train 1B from scratch", MONDAY, {"task": Task.PRETRAIN, "params": 1 * B}),
    ("continue pretraining 8B on 50B tokens", MONDAY,
     {"task": Task.CONTINUED_PRETRAIN, "params": 8 * B, "tokens": 50 * B}),
    ("continued pre-training of 8B", MONDAY, {"task": Task.CONTINUED_PRETRAIN, "params": 8 * B}),
    ("fine-tune our pretrained 7B", MONDAY, {"task": Task.FINE_TUNE, "params": 7 * B}),
    ("HPO for 125M with 30 trials", MONDAY, {"task": Task.SWEEP, "params": 125 * M, "trials": 30}),
    ("hyperparameter search over 125M, 16 runs", MONDAY, {"task": Task.SWEEP, "params": 125 * M, "trials": 16}),
    ("LoRA sweep of 12 on 1B", MONDAY, {"task": Task.SWEEP, "params": 1 * B, "trials": 12}),
    ("125M, 8 trials", MONDAY, {"task": Task.SWEEP, "params": 125 * M, "trials": 8}),
    ("DPO on 8B", MONDAY, {"task": Task.DPO, "params": 8 * B}),
    # deadlines, as the whole request sees them
    ("fine-tune 7B EOD Thursday", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-03T17:00-08:00")}),
    ("7B in 3 days", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-03T17:00-08:00")}),
    ("7B by 2026-12-15", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-15T17:00-08:00")}),
    ("7B by Dec 15", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-15T17:00-08:00")}),
    ("7B by end of month", MONDAY, {"params": 7 * B, "deadline": deadline("2026-11-30T17:00-08:00")}),
    ("7B by end of month", MONTH_END_EVENING, {"params": 7 * B, "deadline": deadline("2026-12-31T17:00-08:00")}),
    ("7B by end of week", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("7B by next Tuesday", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-08T17:00-08:00")}),
    ("7B by Friday", FRIDAY_EVENING, {"params": 7 * B, "deadline": deadline("2026-12-11T17:00-08:00")}),
    ("7B by this Friday", SUNDAY, {"params": 7 * B, "deadline": deadline("2026-12-11T17:00-08:00")}),
    ("7B by Monday", YEAR_END_EVENING, {"params": 7 * B, "deadline": deadline("2027-01-04T17:00-08:00")}),
    ("7B by Friday 3pm, ideally EOD Thursday", MONDAY,  # a wish gives way to the date said plainly
     {"params": 7 * B, "deadline": deadline("2026-12-04T15:00-08:00")}),
    ("7B by Friday 3pm or EOD Thursday", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-03T17:00-08:00")}),
    ("fine-tune 7B ideally by Thursday but Friday is the hard deadline", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("fine-tune 7B, deadline is not strict, ideally friday", MONDAY,  # a wish alone is the deadline
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("7B, soft deadline Thursday, hard deadline Friday noon", MONDAY,
     {"params": 7 * B, "deadline": deadline("2026-12-04T12:00-08:00")}),
    ("7B by Friday at the latest, preferably Wednesday", MONDAY,
     {"params": 7 * B, "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("fine-tune 7B in 2 days from now", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-02T17:00-08:00")}),
    ("fine-tune 7B, need results by 9am tomorrow", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-01T09:00-08:00")}),
    # a month, quarter or holiday by name
    ("fine-tune 7B by June", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2027-05-31T17:00-07:00")}),
    ("fine-tune 7B by Q1", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-31T17:00-08:00")}),
    ("fine-tune 7B by xmas", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-24T17:00-08:00")}),
    # the year-end break starts on Christmas Eve at the earliest: done by 17:00 the day before
    ("fine-tune 7B before the holidays", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-23T17:00-08:00")}),
    # an event on a day, its time not said: done by 17:00 the day before, as "before <day>"
    ("fine-tune 7B before the board meeting on Dec 10", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-09T17:00-08:00")}),
    ("fine-tune 7B before our demo at 3pm on Friday", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-04T15:00-08:00")}),
    ("fine-tune 7B before the production review on Friday", MONDAY,  # "production" stays the stage
     {"task": Task.FINE_TUNE, "params": 7 * B, "stage": Stage.PRODUCTION,  # ready the day before the review
      "deadline": deadline("2026-12-03T17:00-08:00")}),
    ("train a 3B model on 60B tokens, results needed in two weeks", MONDAY,
     {"params": 3 * B, "tokens": 60 * B, "deadline": deadline("2026-12-14T17:00-08:00")}),
    ("sweep 12 learning rates on a 1B model, 200M tokens each", MONDAY,
     {"task": Task.SWEEP, "params": 1 * B, "tokens": 200 * M, "trials": 12}),
    ("fine-tune 7B on 1B tokens, 12 learning rates", MONDAY,
     {"task": Task.SWEEP, "params": 7 * B, "tokens": 1 * B, "trials": 12}),
    ("retrain 7B every Monday on 1B tokens", MONDAY, {"params": 7 * B, "tokens": 1 * B}),  # recurring: no deadline
    ("7B in the next 72 hours", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-03T09:00-08:00")}),
    ("7B within the next few days", MONDAY, {"params": 7 * B, "deadline": deadline("2026-12-03T17:00-08:00")}),
    ("fine-tune 7B this weekend", MONDAY, {"task": Task.FINE_TUNE, "params": 7 * B,
                                           "deadline": deadline("2026-12-07T09:00-08:00")}),
    ("7B needed by mid-Feb", MONDAY, {"params": 7 * B, "deadline": deadline("2027-02-15T17:00-08:00")}),
    ("7B before end of Q3", MONDAY, {"params": 7 * B, "deadline": deadline("2027-09-30T17:00-07:00")}),
    # stage
    ("7B for prod", MONDAY, {"params": 7 * B, "stage": Stage.PRODUCTION}),
    ("7B for the release", MONDAY, {"params": 7 * B, "stage": Stage.PRODUCTION}),
    ("try a 7B", MONDAY, {"params": 7 * B, "stage": Stage.EXPERIMENTAL}),
    ("quick POC on 7B", MONDAY, {"params": 7 * B, "stage": Stage.EXPERIMENTAL}),
    ("prototype 7B, exploring data mixes", MONDAY, {"params": 7 * B, "stage": Stage.EXPERIMENTAL}),
    ("test a 7B before the production run", MONDAY, {"params": 7 * B, "stage": Stage.PRODUCTION}),
    # interruption tolerance
    ("7B, spot ok", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.HIGH}),
    ("pretrain 2.7B on 55B tokens, spot acceptable", MONDAY,
     {"params": 2_700_000_000, "tokens": 55 * B, "task": Task.PRETRAIN, "interruption_tolerance": Tolerance.HIGH}),
    ("7B, checkpointed, can restart", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.HIGH}),
    ("7B, no interruptions", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.LOW}),
    ("7B, must not stop", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.LOW}),
    ("7B on-demand", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.LOW}),
    ("7B, no spot please", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.LOW}),
    ("experimental 7B, spot only, by Friday", MONDAY,
     {"params": 7 * B, "stage": Stage.EXPERIMENTAL, "interruption_tolerance": Tolerance.HIGH,
      "deadline": deadline("2026-12-04T17:00-08:00")}),
    # context length
    ("7B with 8k context", MONDAY, {"params": 7 * B, "seq_len": 8192}),
    ("7B seq len 32768", MONDAY, {"params": 7 * B, "seq_len": 32768}),
    ("405B seq len 32768", MONDAY, {"params": 405 * B, "seq_len": 32768}),
    ("7B, context length 128k", MONDAY, {"params": 7 * B, "seq_len": 131072}),
    ("7B, 4096-token context", MONDAY, {"params": 7 * B, "seq_len": 4096}),
    ("7B with 2048 sequence length", MONDAY, {"params": 7 * B, "seq_len": 2048}),
    # hardware
    ("7B on 16 GPUs", MONDAY, {"params": 7 * B, "gpus": 16}),
    ("7B on 8 A100s", MONDAY, {"params": 7 * B, "gpus": 8, "accelerator": "A100"}),
    ("7B on H100 x 4", MONDAY, {"params": 7 * B, "gpus": 4, "accelerator": "H100"}),
    ("7B on 2 nodes of 8xH100", MONDAY, {"params": 7 * B, "gpus": 16, "accelerator": "H100"}),
    ("7B on 8x A100 80GB", MONDAY, {"params": 7 * B, "gpus": 8, "accelerator": "A100-80GB"}),
    ("7B on a single GPU", MONDAY, {"params": 7 * B, "gpus": 1}),
    ("7B on L40S", MONDAY, {"params": 7 * B, "accelerator": "L40S"}),
    ("7B on Trainium2", MONDAY, {"params": 7 * B, "accelerator": "Trainium2"}),
    ("7B on 8xH100, 8 GPUs", MONDAY, {"params": 7 * B, "gpus": 8, "accelerator": "H100"}),
    ("7B on H100 or A100", MONDAY, {"params": 7 * B}),  # several named: the plan chooses among them
    ("7B on p4d", MONDAY, {"params": 7 * B, "instance_type": "p4d"}),
    ("7B on p4d.24xlarge", MONDAY, {"params": 7 * B, "instance_type": "p4d.24xlarge"}),
    ("7B on ml.p5.48xlarge", MONDAY, {"params": 7 * B, "instance_type": "p5.48xlarge"}),
    ("7B on p6-b200.48xlarge", MONDAY, {"params": 7 * B, "instance_type": "p6-b200.48xlarge"}),
    ("7B using trn1", MONDAY, {"params": 7 * B, "instance_type": "trn1"}),
    ("7B on g6e", MONDAY, {"params": 7 * B, "instance_type": "g6e"}),
    ("7B on our 3 reserved p4de", MONDAY, {"params": 7 * B, "instance_type": "p4de", "instances": 3}),  # held
    ("distill a 34B teacher into a 7B student", MONDAY, {"task": Task.DISTILL, "params": 7 * B}),  # not two sizes
    # region, budget, team
    ("7B in us-east-1", MONDAY, {"params": 7 * B, "region": "us-east-1"}),
    ("7B region eu-west-1", MONDAY, {"params": 7 * B, "region": "eu-west-1"}),
    ("7B in ap-southeast-2", MONDAY, {"params": 7 * B, "region": "ap-southeast-2"}),
    ("7B under $5k", MONDAY, {"params": 7 * B, "budget_usd": 5000.0}),
    ("7B budget 5000", MONDAY, {"params": 7 * B, "budget_usd": 5000.0}),
    ("7B, budget 5000 USD", MONDAY, {"params": 7 * B, "budget_usd": 5000.0}),
    ("7B, budget: $2,500", MONDAY, {"params": 7 * B, "budget_usd": 2500.0}),
    ("7B, $1.5k max", MONDAY, {"params": 7 * B, "budget_usd": 1500.0}),
    ("7B, budget 5k, under $3k", MONDAY, {"params": 7 * B, "budget_usd": 3000.0}),
    ("7B for team-nlp", MONDAY, {"params": 7 * B, "team": "team-nlp"}),
    ("7B, 5k budget", MONDAY, {"params": 7 * B, "budget_usd": 5000.0}),
    # what chat clients send: no-break spaces, typographic hyphens, "×", possessives
    ("fine\u2011tune 7B by\u00a0Friday", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "deadline": deadline("2026-12-04T17:00-08:00")}),
    ("7B on 8\u00d7H100", MONDAY, {"params": 7 * B, "gpus": 8, "accelerator": "H100"}),
    ("7B, same data as Friday's run", MONDAY, {"params": 7 * B}),
    ("Phi-3 mini 3.8B, lr 3e-4, bf16, 8 H100 GPUs", MONDAY,
     {"params": 3_800_000_000, "gpus": 8, "accelerator": "H100"}),
    ("Gemma 2B on 3B tokens by Fri 5:30pm", MONDAY,  # the first Gemma's 2B, as its config counts it
     {"params": 2_506_172_416, "model": "gemma-2b", "tokens": 3 * B, "deadline": deadline("2026-12-04T17:30-08:00")}),
    ("7B for the vision team", MONDAY, {"params": 7 * B, "team": "team-vision"}),
    # a ceiling on the hardware is not a count of it: the plan may use fewer
    ("fine-tune 7B using at most 16 GPUs", MONDAY, {"task": Task.FINE_TUNE, "params": 7 * B, "max_gpus": 16}),
    ("7B, up to 16 GPUs", MONDAY, {"params": 7 * B, "max_gpus": 16}),
    ("7B on no more than 16 GPUs", MONDAY, {"params": 7 * B, "max_gpus": 16}),
    ("7B, max 8 GPUs", MONDAY, {"params": 7 * B, "max_gpus": 8}),
    ("7B, maximum of 16 accelerators", MONDAY, {"params": 7 * B, "max_gpus": 16}),
    ("7B on \u2264 16 GPUs", MONDAY, {"params": 7 * B, "max_gpus": 16}),
    ("7B on <=16 GPUs", MONDAY, {"params": 7 * B, "max_gpus": 16}),
    ("7B, 16 GPUs max", MONDAY, {"params": 7 * B, "max_gpus": 16}),
    ("7B on fewer than 16 GPUs", MONDAY, {"params": 7 * B, "max_gpus": 15}),
    ("7B on up to 16 H100s", MONDAY, {"params": 7 * B, "max_gpus": 16, "accelerator": "H100"}),
    ("7B on 8xH100, at most 16 GPUs", MONDAY, {"params": 7 * B, "gpus": 8, "accelerator": "H100", "max_gpus": 16}),
    ("7B, at most 16 GPUs, max 8 GPUs", MONDAY, {"params": 7 * B, "max_gpus": 8}),
    ("7B, at most 2 instances", MONDAY, {"params": 7 * B, "max_instances": 2}),
    ("7B on up to 4 nodes", MONDAY, {"params": 7 * B, "max_instances": 4}),
    ("7B, no more than 2 machines", MONDAY, {"params": 7 * B, "max_instances": 2}),
    ("7B on at most 2x p4d.24xlarge", MONDAY, {"params": 7 * B, "instance_type": "p4d.24xlarge", "max_instances": 2}),
    ("7B under $5k, at most 8 GPUs", MONDAY, {"params": 7 * B, "budget_usd": 5000.0, "max_gpus": 8}),
    ("7B, $1.5k max, 8 GPUs", MONDAY, {"params": 7 * B, "budget_usd": 1500.0, "gpus": 8}),
    ("7B on 8 GPUs max $5k", MONDAY, {"params": 7 * B, "budget_usd": 5000.0, "gpus": 8}),
    ("7B, no more than $50, at most 16 GPUs", MONDAY, {"params": 7 * B, "budget_usd": 50.0, "max_gpus": 16}),
    ("7B, no more than 2 nodes, must not exceed $50", MONDAY,
     {"params": 7 * B, "budget_usd": 50.0, "max_instances": 2}),
    ("7B, 16 GPUs max, by Friday", MONDAY,
     {"params": 7 * B, "max_gpus": 16, "deadline": deadline("2026-12-04T17:00-08:00")}),
    # an instance count is exact, with a type named or without
    ("7B on p4d with 4 nodes", MONDAY, {"params": 7 * B, "instance_type": "p4d", "instances": 4}),
    ("7B on 4 nodes", MONDAY, {"params": 7 * B, "instances": 4}),
    ("7B, 4 instances", MONDAY, {"params": 7 * B, "instances": 4}),
    ("7B on 2 machines in us-west-2", MONDAY, {"params": 7 * B, "instances": 2, "region": "us-west-2"}),
    ("7B on 4x p5.48xlarge with 4 nodes", MONDAY, {"params": 7 * B, "instance_type": "p5.48xlarge", "instances": 4}),
    ("7B on 100k instances", MONDAY, {"params": 7 * B}),  # data, not machines: left unread
    # a run repeated is trials, however the times is written
    ("fine-tune 7B on 1B tokens x3 seeds", MONDAY, {"task": Task.SWEEP, "params": 7 * B, "tokens": B, "trials": 3}),
    ("fine-tune 7B on 1B tokens 3x seeds", MONDAY, {"task": Task.SWEEP, "params": 7 * B, "tokens": B, "trials": 3}),
    ("fine-tune 7B on 1B tokens \u00d7 3 seeds", MONDAY,
     {"task": Task.SWEEP, "params": 7 * B, "tokens": B, "trials": 3}),
    ("fine-tune 7B, 3 seeds", MONDAY, {"task": Task.SWEEP, "params": 7 * B, "trials": 3}),
    ("7B x 5 runs", MONDAY, {"task": Task.SWEEP, "params": 7 * B, "trials": 5}),
    # a region by its place, an area by its name (policy.regions); a place that is not where the job runs is unread
    ("fine-tune 7B on 1B tokens in frankfurt", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "tokens": B, "region": "eu-central-1"}),
    ("7B in Dublin", MONDAY, {"params": 7 * B, "region": "eu-west-1"}),
    ("7B in N. Virginia", MONDAY, {"params": 7 * B, "region": "us-east-1"}),
    ("7B in the Oregon region", MONDAY, {"params": 7 * B, "region": "us-west-2"}),
    ("7B in S\u00e3o Paulo", MONDAY, {"params": 7 * B, "region": "sa-east-1"}),
    ("7B in eu-west-1, in ireland", MONDAY, {"params": 7 * B, "region": "eu-west-1"}),
    ("7B in london, or in paris", MONDAY, {"params": 7 * B}),  # several named: left free, with a note
    ("fine-tune 7B on 1B tokens in europe", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "tokens": B, "area": "europe"}),
    ("7B, EU only", MONDAY, {"params": 7 * B, "area": "eu"}),
    ("7B in the EU", MONDAY, {"params": 7 * B, "area": "eu"}),
    ("7B, europe-only", MONDAY, {"params": 7 * B, "area": "europe"}),
    ("7B in the US", MONDAY, {"params": 7 * B, "area": "us"}),
    ("7B, US only", MONDAY, {"params": 7 * B, "area": "us"}),
    ("7B in asia", MONDAY, {"params": 7 * B, "area": "asia"}),
    ("7B in eu-west-1, EU only", MONDAY, {"params": 7 * B, "region": "eu-west-1", "area": "eu"}),
    ("7B, train it for us", MONDAY, {"params": 7 * B}),
    ("7B on the frankfurt-dedup dataset", MONDAY, {"params": 7 * B}),
    # the global batch is tokens per step, never the tokens trained
    ("fine-tune a 7B model, 1 epoch over 1B tokens, batch size 1M tokens", MONDAY,
     {"task": Task.FINE_TUNE, "params": 7 * B, "tokens": B, "batch_tokens": M}),
    ("7B on 2B tokens, global batch of 4M tokens", MONDAY, {"params": 7 * B, "tokens": 2 * B, "batch_tokens": 4 * M}),
    ("7B on 2B tokens with 1M-token batches", MONDAY, {"params": 7 * B, "tokens": 2 * B, "batch_tokens": M}),
    ("7B on 2B tokens, 1M tokens per step", MONDAY, {"params": 7 * B, "tokens": 2 * B, "batch_tokens": M}),
    ("7B, batch size 4M", MONDAY, {"params": 7 * B, "batch_tokens": 4 * M}),
    ("7B, batch size 512, 8k context", MONDAY, {"params": 7 * B, "batch_sequences": 512, "seq_len": 8192}),
    ("7B, micro batch size 8", MONDAY, {"params": 7 * B}),  # per device: unread
    # searches are sweeps
    ("fine-tune 7B, grid search over 8 configs", MONDAY, {"task": Task.SWEEP, "params": 7 * B, "trials": 8}),
    ("7B, random search of 20 trials", MONDAY, {"task": Task.SWEEP, "params": 7 * B, "trials": 20}),
    ("7B, 8 configs", MONDAY, {"task": Task.SWEEP, "params": 7 * B, "trials": 8}),
    # interruptions said to be fine, or not
    ("7B, we're ok with interruptions", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.HIGH}),
    ("7B, interruptions are fine", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.HIGH}),
    ("7B, fine with preemption", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.HIGH}),
    ("7B, happy with some spot interruptions", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.HIGH}),
    ("7B, not ok with interruptions", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.LOW}),
    ("7B, we aren't fine with preemption", MONDAY, {"params": 7 * B, "interruption_tolerance": Tolerance.LOW}),
    # the lot at once
    ("production QLoRA of llama-3 70b on 8xH100 in us-west-2, 8k context, 2B tokens, no interruptions, "
     "budget $20k, for team-nlp, by next Tuesday 5pm", MONDAY,
     {"task": Task.QLORA, "params": 70_553_706_496, "gpus": 8, "accelerator": "H100", "region": "us-west-2",
      "seq_len": 8192, "tokens": 2 * B, "interruption_tolerance": Tolerance.LOW, "budget_usd": 20000.0,
      "team": "team-nlp", "stage": Stage.PRODUCTION, "deadline": deadline("2026-12-08T17:00-08:00")}),
]  # fmt: skip

UNSAID = {"task", "params", "tokens", "trials", "deadline", "stage", "interruption_tolerance", "seq_len",
          "budget_usd", "region", "team", "accelerator", "instance_type", "gpus", "instances", "max_gpus",
          "max_instances", "area", "batch_tokens", "batch_sequences"}  # fmt: skip


@pytest.mark.parametrize(("text", "now", "expected"), PARSES)
def test_text_sets_only_what_it_says(text: str, now: datetime, expected: dict[str, Any]) -> None:
    request = parse_request(text, now=now, tz=TZ)
    got = {name: getattr(request, name) for name in UNSAID}
    assert got == {name: expected.get(name) for name in UNSAID}
    assert request.text == text


# (text, now, error code, words the message must contain)
REFUSALS: list[tuple[str, datetime, str, str]] = [
    ("fine-tune by Friday", MONDAY, "missing_model_size", 'e.g. "fine-tune 7B by Friday"'),
    ("fine-tune on 8xH100 with 2B tokens", MONDAY, "missing_model_size", "how big the model is"),
    # an image model named: the forms that can plan it, for the kind it is
    ("fine-tune SDXL on 20k product images by Friday", MONDAY, "missing_model_size",
     'not follow parameters × tokens, so gpuops cannot estimate it from a size. Say how much work it is, e.g. "SDXL '
     'fine-tune, about 100 A100-hours" or "fine-tune SDXL, takes about 6 hours on 8 A100s".'),
    ("train yolov8 on our warehouse footage", MONDAY, "missing_model_size", "'yolov8' is an image model"),
    ("fine-tune CLIP ViT-B/32 on 2M image-text pairs", MONDAY, "missing_model_size",
     "'CLIP ViT-B/32' is a vision transformer gpuops has no size for: say its size and how many images it trains on"),
    # ... and with a size said beside it: the size gives no work a text default could stand for
    ("fine-tune a 2.6B SDXL on 10k images", MONDAY, "missing_work", "'SDXL' is an image model"),
    ("train resnet-50 (25M) on imagenet for 90 epochs", MONDAY, "missing_work", "'resnet-50' is an image model"),
    ("pretrain a 100M ViT", MONDAY, "missing_work",
     "'ViT' is a vision transformer: say how many images it trains on and for how many epochs"),
    # a vision transformer the table holds has no text default for its images either
    ("fine-tune ViT-B/16 by Friday", MONDAY, "missing_work", "is a vision transformer: say how many images"),
    ("fine-tune 7B by last Friday", MONDAY, "deadline_in_past", "already passed"),
    ("fine-tune 7B by yesterday", MONDAY, "deadline_in_past", "by yesterday"),
    ("fine-tune 7B by 2026-11-01", MONDAY, "deadline_in_past", "2026-11-01"),
    # month/day is the reading; day/month, when it lies ahead, is offered
    ("fine-tune 7B by 11/12", MONDAY, "deadline_in_past",
     'Written day/month, 11/12 is Fri 2026-12-11: say "by Dec 11".'),
    ("fine-tune 7B by Nov 20", MONDAY, "deadline_in_past", "Nov 20"),
    ("fine-tune 7B by EOD today", MONTH_END_EVENING, "deadline_in_past", "give one ahead"),
    ("fine-tune 7B by the blue moon", MONDAY, "unparseable_deadline", "by Friday"),
    ("fine-tune 7B, deadline: when pigs fly", MONDAY, "unparseable_deadline", "in 3 days"),
    ("fine-tune 0B by Friday", MONDAY, "invalid_size", "above 0"),
    ("fine-tune -7B", MONDAY, "invalid_size", "-7B"),
    ("fine-tune 11T", MONDAY, "invalid_size", "at most 10T"),
    ("pretrain 7B on 0 tokens", MONDAY, "invalid_size", "token count"),
    ("pretrain 7B on 0GB of text", MONDAY, "invalid_size", '"0GB of text" is not a dataset size'),
    ("pretrain 7B on 5PB of text", MONDAY, "invalid_size", "under 4 PB of text"),
    ("fine-tune 7B" + " please" * 300, MONDAY, "text_too_long", "2000"),
    ("production spot-only fine-tune 7B by yesterday", MONDAY, "contradiction", "spot only"),
    ("production 7B, only spot, by Friday", MONDAY, "contradiction", "spot only"),
    ("fine-tune 7B, spot ok, no interruptions", MONDAY, "contradiction", "no interruptions"),
    ("7B on-demand but spot is fine", MONDAY, "contradiction", "spot is fine"),
    ("LoRA and pretrain 7B", MONDAY, "contradiction", "one at a time"),
    ("pretrain then fine-tune 7B", MONDAY, "contradiction", "separate jobs"),
    ("LoRA 7B, full parameter", MONDAY, "contradiction", "not every weight"),
    ("full-parameter fine-tune 7B with lora", MONDAY, "contradiction", "not every weight"),
    ("run SFT then DPO on 7B, 500M tokens each", MONDAY, "contradiction", "separate jobs"),
    # runs of two methods are two jobs too, never a sweep of the first method
    ("fine-tune 7B on 1B tokens twice, once with lora and once full", MONDAY, "contradiction",
     'a LoRA run and a full fine-tune are separate jobs, each with its own memory, hardware and cost. Ask for one at '
     'a time, e.g. "LoRA 7B on 1B tokens", then "fine-tune 7B on 1B tokens".'),
    # a dot inside a model's name or a number ends no sentence
    ("SFT of Llama-3.1-8B-Instruct on 40k conversations (~1.5k tokens each) then DPO on 10k pairs", MONDAY,
     "contradiction", "separate jobs"),
    # each job's tokens said: the two jobs are what is refused, quoted as written, not the two token counts
    ("fine-tune 7B on 1B tokens and then run DPO on 50M tokens", MONDAY, "contradiction",
     "'fine-tune 7B on 1B tokens and then run DPO': those are separate jobs"),
    # the second job said in the same breath, or with figures of its own, is asked for now (a later step is not)
    ("SFT 7B on 100M tokens, then DPO", MONDAY, "contradiction", "separate jobs"),
    # the part asked for alone is the later one: still two jobs, each to ask for
    ("SFT 7B on 500M tokens then DPO on 50M tokens, just price the DPO part", MONDAY, "contradiction",
     "separate jobs"),
    ("SFT 7B on 100M tokens, then we'll DPO on 20M tokens", MONDAY, "contradiction", "separate jobs"),
    ("fine-tune 7B, or maybe 13B", MONDAY, "contradiction", "give one size"),
    ("70B qlora 10M", MONDAY, "contradiction", 'If one of them is the data, say so, e.g. "70B on 10M tokens".'),
    # an earlier request named in the text is not looked up: said so, with what to give
    ("continue the run req_abc123 for another 500M tokens", MONDAY, "missing_model_size",
     "gpuops does not look up what 'req_abc123' refers to: say how big the model is"),
    ("same as last time but 2x the data", MONDAY, "missing_model_size",
     "gpuops does not look up what 'same as last time' refers to"),
    ("fine-tune llama 3.2 1b and 3b on 500M tokens", MONDAY, "contradiction",
     "names llama-3.2-1b (1.24B parameters) and a 3B model"),
    ("fine-tune 7B on 1B tokens, and then another run with 2B tokens", MONDAY, "contradiction",
     "names 2 token counts (1B, 2B); gpuops plans one training job a request: give one token count"),
    ("train 3 sizes (125M, 350M, 1.3B) on 10B tokens each", MONDAY, "contradiction",
     "names 3 model sizes (125M, 350M, 1.3B)"),
    ("7B on 8xH100 on 16 GPUs", MONDAY, "contradiction", "GPU counts"),
    ("7B on 2x p4d.24xlarge with 4 nodes", MONDAY, "contradiction", "instance counts (2, 4)"),
    ("7B on 2 nodes, 4 instances", MONDAY, "contradiction", "instances values (2, 4)"),
    ("fine-tune 7B on at most 0 GPUs", MONDAY, "invalid_gpus", '"at most 0 GPUs"'),
    ("fine-tune 7B on fewer than 1 GPU", MONDAY, "invalid_gpus", "at most 16 GPUs"),
    ("fine-tune 7B on up to 1.5 nodes", MONDAY, "invalid_instances", "whole number"),
    ("fine-tune 7B on 0 nodes", MONDAY, "invalid_instances", "on 4 nodes"),
    ("7B for team-nlp and team-vision", MONDAY, "contradiction", "team"),
    ("fine-tune 7B on p9x.huge", MONDAY, "unknown_instance_type", "on p4d"),
    ("fine-tune 7B on g4dn.xlarge", MONDAY, "unknown_instance_type", "p5"),
    ("fine-tune 7B on inf2", MONDAY, "unknown_instance_type", "g6e"),
    ("fine-tune 7B in us-nowhere-9", MONDAY, "unknown_region", "us-west-2"),
    ("fine-tune 7B in mars-north-1", MONDAY, "unknown_region", "us-west-2"),
    # a misspelt region or day: the closest names, the person's own words otherwise
    ("fine-tune 7B in eu-wst-1", MONDAY, "unknown_region", 'did you mean "in eu-west-1"?'),
    ("fine-tune 7B in us-est-1", MONDAY, "unknown_region", 'did you mean "in us-east-1" or "in us-west-1"?'),
    ("fine-tune 7B by Firday", MONDAY, "unparseable_deadline", "Did you mean 'by Friday'?"),
    ("fine-tune 7B by Decmber 10", MONDAY, "unparseable_deadline", "Did you mean 'by December 10'?"),
    ("fine-tune 7B, sweep of 0 trials", MONDAY, "invalid_trials", "trials"),
    ("fine-tune 7B on 0 GPUs", MONDAY, "invalid_gpus", "GPUs"),
    ("fine-tune 7B on 1.5 GPUs", MONDAY, "invalid_gpus", "whole number"),
    ("fine-tune 7B with 16 context", MONDAY, "invalid_seq_len", "8k context"),
    ("fine-tune 7B under $0", MONDAY, "invalid_budget", "above $0"),
    ("fine-tune 7B, budget -$100", MONDAY, "invalid_budget", '"-$100" is not a budget'),  # never read as $100
    ("fine-tune 7B under \u20ac5k", MONDAY, "invalid_budget", "US dollars"),
    ("fine-tune 7B on 1B tokens, max $0 per hour", MONDAY, "invalid_budget", '"$0 per hour" is no hourly ceiling'),
    ("fine-tune 7B on 1B tokens, budget 2000 EUR", MONDAY, "invalid_budget", '(not "2000 EUR")'),
    ("fine-tune 7B under 1.5k pounds", MONDAY, "invalid_budget", '(not "1.5k pounds")'),
    ("7B, batch size 1M tokens, batch size 512", MONDAY, "contradiction", "tokens and in sequences"),
    ("7B, batch size 0 tokens", MONDAY, "invalid_batch", "batch size 1M tokens"),
]


@pytest.mark.parametrize(("text", "now", "code", "says"), REFUSALS)
def test_refusal_says_what_to_type(text: str, now: datetime, code: str, says: str) -> None:
    with pytest.raises(RequestError) as caught:
        parse_request(text, now=now, tz=TZ)
    assert caught.value.code == code
    assert says in caught.value.message


# (text, now, words one of the notes must contain)
NOTED: list[tuple[str, datetime, str]] = [
    ("fine-tune 7B by Friday", MONDAY, "read 'by Friday' as Fri 2026-12-04 17:00 America/Los_Angeles"),
    ("fine-tune 7B by next Tuesday", MONDAY, "took Tuesday 2026-12-08 for 'next Tuesday'"),
    ("7B by Friday", FRIDAY_EVENING, "has passed; took Friday 2026-12-11"),
    ("7B for the customer launch", MONDAY, "read 'customer' as production"),
    ("test 7B for prod", MONDAY, "took production, the stricter stage"),
    # the stage said outright wins over one the context only suggests
    ("fine-tune 8B for the customer-support assistant, it's still experimental", MONDAY,
     "took experimental, said outright ('experimental'), over what 'customer' suggests"),
    ("mixtral 8x7B", MONDAY, "12.9B active per token"),
    ("8x7B MoE", MONDAY, "mixture of 8 experts"),
    ("7B on 1B tokens, 5000 steps, batch 1M tokens", MONDAY, "did not read: '5000 steps'"),
    ("7B on H100 or A100", MONDAY, "named several accelerators (H100, A100); the plan chooses among them"),
    ("7B on ml.p5.48xlarge", MONDAY, "p5.48xlarge"),
    ("pretrain 1B on 20B", MONDAY, "read '20B' as training tokens"),
    ("LoRA sweep of 12 on 1B", MONDAY, "sweep of lora runs"),
    ("7B by Friday 3pm or EOD Thursday", MONDAY, "took the earliest"),
    ("7B by Friday 3pm, ideally EOD Thursday", MONDAY,
     "read 'ideally EOD Thursday' as a wish, not the deadline: planned to the deadline 'by Friday 3pm'"),
    ("fine-tune 7B ideally by Thursday but Friday is the hard deadline", MONDAY,
     "read 'ideally by Thursday' as a wish, not the deadline: planned to the hard deadline 'Friday is the hard"),
    ("fine-tune 7B, deadline is not strict, ideally friday", MONDAY,
     "read 'ideally friday' as a wish; no firmer deadline is given, so the plan meets it"),
    ("fine-tune 7B, deadline is not strict, ideally friday", MONDAY, "read 'deadline is not strict' as no hurry"),
    ("fine-tune 7B, need results by 9am tomorrow", MONDAY, "read 'need results by 9am tomorrow' as Tue 2026-12-01"),
    ("fine-tune 7B, results needed in two weeks", MONDAY, "read 'results needed in two weeks' as Mon 2026-12-14"),
    ("fine-tune 7B on 1B tokens of code", MONDAY,
     "read 'code' as what the data is: it describes the work and does not change the plan"),
    ("fine-tune 7B on our support tickets (about 200M tokens)", MONDAY, "read 'support tickets' as what the data is"),
    ("fine-tune 7B on chat logs data", MONDAY, "read 'chat logs' as what the data is"),
    ("fine-tune 7B with our support data, 300M tokens", MONDAY, "read 'support' as what the data is"),
    # the list's separator after the last part read stays out of what is quoted
    ("continued pretraining of 8b on 50B tokens of medical text, need it within 10 days", MONDAY,
     "read 'medical text' as what the data is"),
    ("fine-tune 7B on 1B tokens, requires approval by the finance team", MONDAY,
     "read 'requires approval by the finance team' as finance's sign-off asked for"),
    ("fine-tune 12b on 800M tokens, need sign-off from finance", MONDAY,
     "read 'need sign-off from finance' as finance's sign-off asked for"),
    ("reward model, 7B, 100k comparison pairs of ~1k tokens", MONDAY,
     "read '100k comparison pairs of ~1k tokens' as pairs of two answers"),
    ("fine-tune our 7B chatbot model", MONDAY, "read 'chatbot' as what the model is for"),
    ("fine-tune 7B for code completion", MONDAY, "read 'code completion' as what the model is for"),
    ("LoRA 8B for the prod recommender", MONDAY, "read 'recommender' as what the model is for"),
    ("fine-tune 7B, 2 runs in parallel", MONDAY, "read 'in parallel' with the 2 trials: they run side by side"),
    ("fine-tune 7B on p4d instances", MONDAY, "read 'instances' with 'p4d' as that instance family"),
    ("fine-tune 7B by June", MONDAY, "say 'by the end of June' for Wed 2027-06-30 17:00"),
    ("7B for team-nlp", MONDAY, "over the default team team-ml"),
    ("fine-tune 7B on 50GB of text", MONDAY, "read '50GB of text' as ~12.5B tokens at ~4 bytes of text per token"),
    ("7B, 50GB of text, 2B tokens", MONDAY, "took the 2B tokens said over '50GB of text'"),
    ("7B, cheapest possible", MONDAY, "read 'cheapest possible' as cost first: the cheapest plan that meets any"),
    ("7B, cost matters more than time", MONDAY, "read 'cost matters more than time' as cost first"),
    ("7B on at most 16 GPUs", MONDAY, "read 'at most 16 GPUs' as a ceiling: the plan may use fewer"),
    ("7B on fewer than 16 GPUs", MONDAY, "read 'fewer than 16 GPUs' as a ceiling: the plan may use fewer, at most 15"),
    ("7B, at most 16 GPUs, max 8 GPUs", MONDAY, "took the lowest, 'max 8 GPUs'"),
]


@pytest.mark.parametrize(("text", "now", "note"), NOTED)
def test_interpretation_is_noted(text: str, now: datetime, note: str) -> None:
    request = parse_request(text, now=now, tz=TZ, team="team-ml")
    assert any(note in n for n in request.notes), request.notes


def test_team_defaults_to_the_callers() -> None:
    assert parse_request("7B", now=MONDAY, tz=TZ, team="team-ml").team == "team-ml"
    assert parse_request("7B", now=MONDAY, tz=TZ).team is None


def test_deadline_is_read_in_the_requesters_zone() -> None:
    now = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)  # 18:00 in Berlin, 09:00 in Los Angeles
    berlin = parse_request("7B by EOD tomorrow", now=now, tz="Europe/Berlin")
    assert berlin.deadline == datetime(2026, 12, 1, 17, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    assert parse_request("7B by EOD", now=now, tz=TZ).deadline == datetime(2026, 11, 30, 17, 0, tzinfo=LA)


def test_families_can_be_narrowed_by_the_caller() -> None:
    with pytest.raises(RequestError) as caught:
        parse_request("7B on p4d", now=MONDAY, tz=TZ, families={"p5"})
    assert caught.value.code == "unknown_instance_type"


def test_unknown_zone_is_refused() -> None:
    with pytest.raises(RequestError) as caught:
        parse_request("7B by Friday", now=MONDAY, tz="Nowhere/Special")
    assert caught.value.code == "unknown_timezone"


def test_parse_is_deterministic_for_a_given_now() -> None:
    text = "LoRA 8B on 8xH100 by next Friday 3pm, spot ok"
    assert parse_request(text, now=MONDAY, tz=TZ) == parse_request(text, now=MONDAY, tz=TZ)


FRAGMENTS = [
    "fine-tune", "LoRA", "pretrain", "sweep of", "7B", "1.5b", "350M", "70 billion", "2B tokens", "8xH100",
    "on 16 GPUs", "by Friday", "EOD Thursday", "in 3 days", "next Tuesday", "by last Friday", "end of month",
    "by 2026-12-15", "by Dec 15", "3pm", "under $5k", "budget", "in us-west-2", "in us-nowhere-9", "on p4d",
    "p9x.huge", "spot ok", "no interruptions", "prod", "try", "8k context", "seq len", "for team-nlp", "-", "$",
    "by", "the", "0", "99999999999999999999999999", "9" * 400, "e99", ".", ",", " ", "\u00e9", "\u2212", "\U0001f680",
    "\u0661\u0662", "\u212a", "\u0130", "\x00", "\n", "tomorrow", "tonight", "12/31", "the 31st", "x", "k", "T",
    "in the next", "over the weekend", "by the weekend", "mid-january", "early", "end of Q1", "of", "H2", "reserved",
    "p4d", "distill", "into", "teacher", "student", "->", "hours of audio", "whisper large-v3", "llama",
    "50GB of text", "a 2TB dataset", "0GB", "GB", "of images", "w/", "w/o", "only", "cheapest", "no more than $50",
]  # fmt: skip
ZONES = st.sampled_from(["America/Los_Angeles", "UTC", "Asia/Kolkata", "Pacific/Chatham", "Europe/Berlin"])
NOWS = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2090, 12, 31), timezones=st.just(UTC))
TEXTS = st.one_of(
    st.text(max_size=2100),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=5)), max_size=40).map(" ".join),
    st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=12).map(" ".join),
)


@settings(max_examples=400, deadline=None)
@given(text=TEXTS, now=NOWS, tz=ZONES)
def test_any_text_parses_or_raises_a_request_error(text: str, now: datetime, tz: str) -> None:
    try:
        request = parse_request(text, now=now, tz=tz)
    except RequestError as exc:
        assert exc.code != "bad_request"  # every refusal names its reason
        assert exc.message
        return
    assert isinstance(request, TrainingRequest)
    hardware = request.gpus or request.instances or request.accelerator or request.instance_type
    assert request.params is not None or (request.fixed_hours is not None and hardware)
    if request.start_after is not None:
        assert request.start_after > now
    if request.deadline is not None:
        assert request.deadline.tzinfo is not None
        assert request.deadline > now


@settings(max_examples=100, deadline=None)
@given(text=st.text(min_size=2001, max_size=3000))
def test_long_text_is_refused(text: str) -> None:
    with pytest.raises(RequestError) as caught:
        parse_request(text, now=MONDAY, tz=TZ)
    assert caught.value.code == "text_too_long"


def test_an_instance_count_is_read_with_its_type() -> None:
    request = parse_request("7B on 8 x p5.48xlarge", now=MONDAY, tz=TZ)
    assert (request.instances, request.instance_type) == (8, "p5.48xlarge")


@pytest.mark.parametrize(("text", "code"), [
    ("continued pretraining of our 13B on 50B tokens of code, production, cost center ML-4411", "ML-4411"),
    ("fine-tune 7B on 1B tokens, cost centre: 4411", "4411"),
    ("fine-tune 7B on 1B tokens, bill it to cost center FIN-22", "FIN-22"),
    ("fine-tune 7B on 1B tokens, charge to ML-4411", "ML-4411"),
    ("fine-tune 7B on 1B tokens, CC# 7731", "7731"),
    ("fine-tune 7B on 1B tokens, budget code ML-221", "ML-221"),
    ("fine-tune 7B on 1B tokens, project code 4411", "4411"),
])
def test_a_cost_center_is_read_whole_and_its_digits_count_nothing(text: str, code: str) -> None:
    request = parse_request(text, now=MONDAY, tz=TZ)
    assert request.cost_center == code and request.unread == []
    assert request.params in (7_000_000_000, 13_000_000_000) and request.instances is None and request.gpus is None
    assert any(note.startswith(f"read '{code}' as the cost center") for note in request.notes)


def test_two_cost_centers_are_refused_with_both_named() -> None:
    with pytest.raises(RequestError) as caught:
        parse_request("fine-tune 7B on 1B tokens, cost center ML-1 and cost center ML-2", now=MONDAY, tz=TZ)
    assert caught.value.code == "conflicting_cost_centers" and "ML-1, ML-2" in caught.value.message


def test_copying_people_in_is_no_cost_center() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, cc 2 leads", now=MONDAY, tz=TZ)
    assert request.cost_center is None and "cc" in request.unread


def test_charging_our_team_names_no_team_and_no_cost_center() -> None:
    request = parse_request("fine-tune 7B on 1B tokens, charge to our team", now=MONDAY, tz=TZ)
    assert (request.team, request.cost_center) == (None, None)


@pytest.mark.parametrize("text", ["TEXT " + "72" + "0" * 120 + "GB",
                                  "fine-tune 7B on 1B tokens from " + "9" * 70 + "GB of text"])
def test_a_dataset_size_too_large_for_a_float_is_refused_as_out_of_range(text: str) -> None:
    with pytest.raises(RequestError) as refused:  # it crashed with an OverflowError, an internal error
        parse_request(text, now=datetime(2026, 11, 30, 17, tzinfo=UTC), tz="UTC")
    assert refused.value.code == "invalid_size" and "give under 4 PB of text" in refused.value.message
