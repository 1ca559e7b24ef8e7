"""Every field of the decision for a table of requests, pinned to the JSON the engine gave before it was made faster.

A speed-up that changes a decision, a figure or a word of its explanation fails here. After an intended change of
outcome, regenerate the file: ``python -m tests.policy.test_decision_pins``.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.errors import RequestError
from policy.parse import parse_request
from policy.spend import SpendSnapshot
from policy.tree import decide

TZ = "America/Los_Angeles"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))
PINNED = Path(__file__).with_name("data") / "pinned_decisions.json"
# (text, parse_request keywords): with and without a region, with and without a deadline, a sweep, a 70B pretrain,
# hardware hints, a budget, urgency and both teams (team-nlp has no launch profile, so every region is searched).
ROWS: list[tuple[str, dict[str, Any]]] = [
    ("fine-tune 7B by Friday", {}),
    ("fine-tune 7B by Friday", {"team": "team-nlp"}),
    ("fine-tune 7B by Friday in eu-west-1", {"team": "team-nlp"}),
    ("fine-tune 7B", {"team": "team-nlp"}),
    ("lora 13B on 2B tokens in us-west-2", {}),
    ("pretrain 70B on 1T tokens", {"team": "team-nlp"}),
    ("pretrain 70B on 1T tokens by next Friday production", {}),
    ("sweep of 20 trials on 350M", {"team": "team-nlp"}),
    ("qlora 70B on H100 asap", {"team": "team-nlp"}),
    ("fine-tune 8B production spot ok budget $300", {}),
    ("pretrain 1.5B on 30B tokens on p4d in 3 days", {"team": "team-nlp"}),
    ("fine-tune 7B on 4x p5.48xlarge", {}),
    ("pretrain 7B on 64 H100s tomorrow", {}),
    ("eval run 7b 2h", {}),
    ("8 H100 for 6 hours", {}),
    ("fine-tune 7B, we have a capacity block next week for 4x p5.48xlarge", {}),
    ("fine-tune 7B with 500k steps using the frobnicator", {}),
]


def _decision_json(text: str, kwargs: dict[str, Any]) -> Any:
    request = parse_request(text, now=NOW, tz=TZ, **kwargs)
    spend = SpendSnapshot.unavailable(team=None, reason="no spend source")
    try:
        decision = decide(request, catalog=load_catalog(), policy=default_policy(), spend=spend, now=NOW)
    except RequestError as exc:
        return {"refused": exc.code, "message": str(exc)}
    return json.loads(decision.model_dump_json())


def _key(text: str, kwargs: dict[str, Any]) -> str:
    return " | ".join([text, *(f"{k}={v}" for k, v in sorted(kwargs.items()))])


@pytest.mark.parametrize(("text", "kwargs"), ROWS, ids=[_key(t, k) for t, k in ROWS])
def test_the_decision_is_the_one_pinned(text: str, kwargs: dict[str, Any]) -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    assert _decision_json(text, kwargs) == pinned[_key(text, kwargs)]


def test_every_row_is_pinned() -> None:
    assert set(json.loads(PINNED.read_text(encoding="utf-8"))) == {_key(t, k) for t, k in ROWS}


if __name__ == "__main__":
    document = {_key(t, k): _decision_json(t, k) for t, k in ROWS}
    PINNED.write_text(json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
