"""The plan hash is SHA-256 of the decision document's canonical JSON (``canonical_json``), whatever encoder makes
the text: approvals bind to it, so the same document must always name the same plan."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import canonical_json, plan_hash
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
