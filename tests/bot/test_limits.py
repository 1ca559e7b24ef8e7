"""However long the request, trace or lists, nothing the bot renders breaks a Block Kit limit."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import limits
from bot.blocks import request_blocks
from bot.digest import DigestData, digest_blocks
from bot.modals import edit_view, why_view
from bot.views import home_view, jobs_blocks
from contract.requests import RequestPublic
from policy.decision import Alternative, TraceStep
from tests.bot.factories import NOW, make_decision, make_plan, make_request, make_spend

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=5000) | st.sampled_from(
    ["&<>" * 1500, "x" * 10_000, "*_~`" * 900])


def violations(blocks: list[dict[str, Any]], max_blocks: int) -> list[str]:
    found = [f"{len(blocks)} blocks"] if len(blocks) > max_blocks else []

    def walk(node: Any, parent: str) -> None:
        if isinstance(node, dict):
            kind = node.get("type")
            if kind in ("mrkdwn", "plain_text"):
                limit = limits.MAX_FIELD_TEXT if parent == "fields" else limits.MAX_SECTION_TEXT
                limit = limits.MAX_BUTTON_TEXT if parent == "button" else limit
                if len(node["text"]) > limit or not node["text"]:
                    found.append(f"{parent} text of {len(node['text'])}")
            if kind == "button" and len(node["value"]) > limits.MAX_BUTTON_VALUE:
                found.append("button value")
            for key in ("action_id", "block_id"):
                if key in node and len(node[key]) > limits.MAX_ID:
                    found.append(key)
            if kind == "section" and len(node.get("fields", [])) > limits.MAX_SECTION_FIELDS:
                found.append("fields")
            for key, value in node.items():
                walk(value, "button" if kind == "button" and key == "text" else key)
        elif isinstance(node, list):
            for item in node:
                walk(item, parent)

    walk(blocks, "blocks")
    return found


@st.composite
def long_requests(draw: st.DrawFn) -> RequestPublic:
    words = st.lists(TEXT, max_size=60)
    alternatives = [Alternative(label=draw(TEXT) or "x", **make_plan()) for _ in range(draw(st.integers(0, 8)))]
    trace = [TraceStep(node=draw(TEXT), question=draw(TEXT), answer=draw(TEXT), reason=draw(TEXT), source="s")
             for _ in range(draw(st.integers(0, 150)))]
    decision = make_decision(text="", assumptions=draw(words), warnings=draw(words), alternatives=alternatives,
                             trace=trace)
    request_id = "req_" + draw(st.text(alphabet="abc123", min_size=1, max_size=400))
    return make_request(request_id=request_id, text=draw(TEXT), decision=decision.model_dump(mode="json"),
                        eligible_approvers=[f"slack:T:U{i}" for i in range(draw(st.integers(0, 400)))])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(long_requests())
def test_every_rendering_stays_within_block_kit_limits(req: RequestPublic) -> None:
    assert violations(request_blocks(req, now=NOW), limits.MAX_MESSAGE_BLOCKS) == []
    assert violations(why_view(req)["blocks"], limits.MAX_VIEW_BLOCKS) == []
    assert violations(edit_view(req, channel="C", ts="1")["blocks"], limits.MAX_VIEW_BLOCKS) == []
    assert violations(home_view([req] * 30, [req] * 30, now=NOW)["blocks"], limits.MAX_VIEW_BLOCKS) == []
    assert violations(jobs_blocks([req] * 80), limits.MAX_MESSAGE_BLOCKS) == []
    data = DigestData(team="t" * 500, spend=make_spend(), running=[req] * 30, pending=[req] * 30, finished=[])
    assert violations(digest_blocks(data, now=NOW), limits.MAX_MESSAGE_BLOCKS) == []
    assert len(why_view(req)["private_metadata"]) <= limits.MAX_PRIVATE_METADATA


@given(TEXT, st.integers(min_value=1, max_value=6000))
def test_truncate_never_exceeds_the_limit_and_keeps_what_fits(text: str, limit: int) -> None:
    cut = limits.truncate(text, limit)
    assert len(cut) <= limit
    if len(text) <= limit:
        assert cut == text
    else:
        assert cut.endswith(limits.ELLIPSIS) and text.startswith(cut[:-1])


@given(st.text(alphabet="&<>ab", max_size=400), st.integers(min_value=1, max_value=300))
def test_truncating_escaped_text_never_leaves_half_an_entity(text: str, limit: int) -> None:
    cut = limits.truncate(limits.escape(text), limit)
    body = cut.removesuffix(limits.ELLIPSIS)
    for start in [i for i, ch in enumerate(body) if ch == "&"]:
        assert body[start:].startswith(("&amp;", "&lt;", "&gt;"))


def test_a_choice_too_long_for_its_button_keeps_its_closing_figure_whole() -> None:
    """A length question's choice with its epochs ran past the 75 characters of a button, cutting the total the
    click prices: the cut is now made before it."""
    label = "~2,048 tokens each × 2.5 epochs, the sequence length said (7,680,000,000 tokens)"
    cut = limits.truncate_keeping_figure(label, 75)
    assert len(cut) == 75 and cut.endswith(" (7,680,000,000 tokens)") and limits.ELLIPSIS in cut
    short = "~512 tokens each (25,600,000 tokens)"
    assert limits.truncate_keeping_figure(short, 75) == short


@given(TEXT, st.integers(min_value=1, max_value=200))
def test_cutting_before_the_figure_never_exceeds_the_limit(text: str, limit: int) -> None:
    assert len(limits.truncate_keeping_figure(text, limit)) <= limit


def test_fit_keeps_the_status_and_buttons() -> None:
    blocks = [limits.section(str(i)) for i in range(80)]
    kept = limits.fit(blocks, 50, keep_tail=3)
    assert len(kept) == 50
    assert kept[-3:] == blocks[-3:]
    assert kept[-4]["elements"][0]["text"] == "… 31 more blocks not shown"


def test_the_checker_itself_sees_a_violation() -> None:
    too_long = {"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}
    long_button = {"type": "actions", "elements": [{"type": "button", "action_id": "a" * 256, "value": "v",
                                                    "text": {"type": "plain_text", "text": "b" * 76}}]}
    assert violations([too_long, long_button], 50) == ["text text of 3001", "action_id", "button text of 76"]
    assert violations([too_long] * 51, 50)[0] == "51 blocks"
