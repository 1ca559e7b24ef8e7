"""The plan hash is SHA-256 of the decision document's canonical JSON (``canonical_json``), whatever encoder makes
the text: approvals bind to it, so the same document must always name the same plan."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from policy import decision
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import canonical_bytes, canonical_json, plan_hash
from policy.parse import parse_request
from policy.spend import SpendSnapshot
from policy.tree import decide

NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo("America/Los_Angeles"))


def _reference(document: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(document).encode("utf-8")).hexdigest()


@pytest.mark.parametrize("text", ["fine-tune 7B by Friday", "sweep of 20 trials on 350M", "qlora 70B on H100 asap"])
def test_a_decision_hashes_to_its_canonical_json(text: str) -> None:
    request = parse_request(text, now=NOW, tz="America/Los_Angeles", team="team-nlp")
    spend = SpendSnapshot.unavailable(team=None, reason="no spend source")
    document = decide(request, catalog=load_catalog(), policy=default_policy(), spend=spend,
                      now=NOW).model_dump(mode="json")
    assert plan_hash(document) == _reference(document)


def test_any_json_document_hashes_to_its_canonical_json() -> None:
    document: dict[str, Any] = {
        "z": [1, 2.5, 1e-05, 1e16, -0.0, None, True, {"b": "é — 🚀", "a": "\x00\t\"\\"}],
        "a": {"y": float("inf"), "x": 10**30, "w": []},
        "m": "ünïcode",
    }
    assert plan_hash(document) == _reference(document)


@pytest.mark.parametrize("text", ["fine-tune 7B by Friday", "sweep of 20 trials on 350M", "qlora 70B on H100 asap",
                                  "pretrain 70B on 2T tokens by Friday", "LoRA 8B on 50k examples in eu-west-1"])
def test_a_decisions_fast_text_is_its_canonical_json(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    request = parse_request(text, now=NOW, tz="America/Los_Angeles", team="team-nlp")
    spend = SpendSnapshot.unavailable(team=None, reason="no spend source")
    document = decide(request, catalog=load_catalog(), policy=default_policy(), spend=spend,
                      now=NOW).model_dump(mode="json")
    reference = canonical_json(document).encode("utf-8")

    class Refused:  # a decision's document never needs the slow encoder: the fast text is the one returned
        def encode(self, value: Any) -> str:
            raise AssertionError("fell back to the json encoder")

    monkeypatch.setattr(decision, "_DOCUMENT_JSON", Refused())
    assert canonical_bytes(document, finite=True) == reference


@pytest.mark.parametrize("value", [
    1e-05, -1e-07, 0.00009999, 5e-324, 0.0001, 1e15, 1e16, 1.5e16, -0.0, 123456789.123,  # floats json writes its way
    2**64, -(2**63) - 1, 10**30,  # integers past 64 bits, which orjson refuses
    "1e-5 and 0.00001 said in a string", "é — 🚀 \u2028 \x7f \x00\t\"\\",
    {"b": 1, "a": 2, "é": 3, "Z": 4},
])
def test_the_fast_text_is_the_canonical_json_of_any_plain_value(value: Any) -> None:
    document = {"z": [value, {"y": value}], "a": value}
    assert canonical_bytes(document, finite=True) == canonical_json(document).encode("utf-8")
    assert plan_hash(document, finite=True) == plan_hash(document) == _reference(document)


def test_what_is_not_plain_json_is_refused_as_before_even_the_fast_way() -> None:
    for value in [datetime(2026, 12, 1), ZoneInfo("UTC"), {1, 2}]:
        with pytest.raises(TypeError):
            canonical_bytes({"a": value}, finite=True)
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate has no UTF-8, whichever encoder writes it
        canonical_bytes({"a": "\ud800"}, finite=True)
