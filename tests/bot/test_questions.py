"""Questions in Slack through the real Bolt app, the real service (SQLite, over HTTP) and a fake Slack: the question
is posted with its choices as buttons, a click answers it as the clicking person, and the plan replaces it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.blocks import fallback_text, request_blocks
from bot.questions import ANSWER_CALLBACK, OTHER_ACTION, typed_answer, typed_changes
from policy.decision import ApprovalRequirement
from policy.request import TrainingRequest
from tests.bot.factories import make_decision, make_request
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness
from tests.service.apiclient import TOKENS, Live, live_service
from tests.service.conftest import create_sqlite_db
from tests.service.factories import make_policy

USER = "U0ASKER"
OTHER = "U0SOMEONE"


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    with live_service(create_sqlite_db(tmp_path), make_policy(auto_approve_below_usd=200)) as service:
        yield service


@pytest.fixture
def asking_bot(slack: FakeSlack, live: Live) -> Iterator[BotHarness]:
    harness = BotHarness(slack_api_url=slack.api_url, service_url=live.url, service_token=TOKENS["bot"],
                         response_url=slack.response_url(), timeout=10).start()
    yield harness
    harness.stop()


def _buttons(blocks: list[dict[str, object]]) -> list[dict[str, object]]:
    return [e for b in blocks if b.get("type") == "actions" for e in b["elements"]]  # type: ignore[union-attr]


def _asked(bot: BotHarness, slack: FakeSlack, text: str) -> tuple[str, list[dict[str, object]]]:
    assert bot.command(text, user=USER).status_code == 200
    bot.drain()
    posted = slack.wait_for("chat.postMessage")[-1]
    return str(posted.body.get("text", "")), posted.blocks


def test_a_question_is_posted_with_its_choices_as_buttons_and_a_click_plans_it(
        asking_bot: BotHarness, slack: FakeSlack, live: Live) -> None:
    text, blocks = _asked(asking_bot, slack, "train 7B")
    assert "needs an answer" in text
    assert blocks[0]["text"]["text"].endswith(":*\nYou asked: _train 7B_")  # type: ignore[index]
    buttons = _buttons(blocks)
    labels = [b["text"]["text"] for b in buttons]  # type: ignore[index]
    assert labels == ["fine-tune", "pretrain", "Other…"]
    fine_tune = next(b for b in buttons if b["text"]["text"] == "fine-tune")  # type: ignore[index]
    value = json.loads(str(fine_tune["value"]))
    assert value["f"] == "task" and value["v"] == "fine-tune"
    request_id = value["r"]
    assert live.get(f"/v1/requests/{request_id}").json()["status"] == "needs_input"

    # Someone else's click is refused and changes nothing.
    asking_bot.action(str(fine_tune["action_id"]), str(fine_tune["value"]), user=OTHER)
    asking_bot.drain()
    assert live.get(f"/v1/requests/{request_id}").json()["status"] == "needs_input"

    asking_bot.action(str(fine_tune["action_id"]), str(fine_tune["value"]), user=USER)
    asking_bot.drain()
    after = live.get(f"/v1/requests/{request_id}").json()
    assert after["status"] in ("pending_approval", "auto_approved")
    assert after["decision"]["request"]["task"] == "fine-tune"
    assert after["slack_message"]["ts"] == "1764518400.000001"
    update = slack.wait_for("chat.update")[-1]
    assert "GPU plan" in str(update.body.get("text")) and request_id in str(update.body.get("text"))
    audit = [e["type"] for e in live.get(f"/v1/requests/{request_id}/audit").json()["items"]]
    assert "request.questions_answered" in audit and "request.planned" in audit


def test_a_choice_longer_than_its_button_keeps_the_total_it_prices(
        asking_bot: BotHarness, slack: FakeSlack) -> None:
    """With its epochs, a length's choice ran past a button's 75 characters and the cut took the total."""
    _, blocks = _asked(asking_bot, slack, "fine-tune 7B, 2.5 epochs, 1.5M examples, max seq 2048")
    labels = [str(b["text"]["text"]) for b in _buttons(blocks)]  # type: ignore[index]
    assert "~2,048 tokens each × 2.5 epochs, the sequence lengt… (7,680,000,000 tokens)" in labels
    assert all(len(label) <= 75 for label in labels)


def test_other_opens_a_modal_whose_answer_is_sent_as_the_field(
        asking_bot: BotHarness, slack: FakeSlack, live: Live) -> None:
    _, blocks = _asked(asking_bot, slack, "fine-tune 7B on 50k examples")
    other = next(b for b in _buttons(blocks) if str(b["action_id"]).startswith(OTHER_ACTION))
    request_id = json.loads(str(other["value"]))["r"]
    asking_bot.action(str(other["action_id"]), str(other["value"]), user=USER)
    asking_bot.drain()
    view = slack.wait_for("views.open")[-1].body["view"]
    view = json.loads(view) if isinstance(view, str) else view
    assert view["callback_id"] == ANSWER_CALLBACK
    values = {"answer": {"value": {"type": "plain_text_input", "value": "40M"}}}
    asking_bot.view_submission(ANSWER_CALLBACK, values, view["private_metadata"], user=USER)
    asking_bot.drain()
    after = live.get(f"/v1/requests/{request_id}").json()
    assert after["status"] != "needs_input" and after["decision"]["request"]["tokens"] == 40_000_000


def test_which_of_two_sizes_is_the_model_is_one_click_and_the_other_is_its_tokens(
        asking_bot: BotHarness, slack: FakeSlack, live: Live) -> None:
    """ "ft 13b 500m by fri" was refused as two model sizes."""
    _, blocks = _asked(asking_bot, slack, "ft 13b 500m")
    buttons = _buttons(blocks)
    assert [b["text"]["text"] for b in buttons] == [  # type: ignore[index]
        "a 13B model on 500M tokens", "a 500M model on 13B tokens", "Other…"]
    asking_bot.action(str(buttons[0]["action_id"]), str(buttons[0]["value"]), user=USER)
    asking_bot.drain()
    request_id = json.loads(str(buttons[0]["value"]))["r"]
    after = live.get(f"/v1/requests/{request_id}").json()
    assert after["status"] != "needs_input"
    assert (after["decision"]["request"]["params"], after["decision"]["request"]["tokens"]) == (13 * 10**9,
                                                                                                500 * 10**6)


@pytest.mark.parametrize(("field", "text", "value"), [("tokens", "2B", 2_000_000_000), ("tokens", "40,000", 40_000),
                                                      ("params", "13b", 13_000_000_000),
                                                      ("fixed_hours", "6h", 6.0), ("stage", " production ",
                                                                                   "production")])
def test_a_typed_answer_is_read_as_the_fields_value(field: str, text: str, value: object) -> None:
    assert typed_answer(field, text) == value


def test_a_denied_plan_says_denied_first_and_shows_no_saving_in_slack() -> None:
    denied = ApprovalRequirement(required=True, approvals_needed=1, approver_groups=["ml-leads"],
                                 reasons=["denied: $300,000.00 is above deny_above_usd ($250,000)"], denied=True)
    req = make_request(status="denied", decision=make_decision(approval=denied))
    blocks = request_blocks(req)
    assert blocks[0]["text"]["text"].startswith("*DENIED by policy · ")
    assert "GPU plan req_1: DENIED by policy · " in fallback_text(req)
    assert not any("less than" in json.dumps(b) or "more than" in json.dumps(b) for b in blocks)


def test_unread_words_are_shown_in_the_plan_message() -> None:
    said = TrainingRequest(text="fine-tune 7B with the frobnicator", params=7_000_000_000, unread=["frobnicator"])
    blocks = request_blocks(make_request(decision=make_decision(request=said)))
    assert any("*Not read*: 'frobnicator'" in json.dumps(b, ensure_ascii=False) for b in blocks)


def test_typed_dates_and_hardware_are_read_as_the_fields() -> None:
    now = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
    assert typed_changes("deadline", "Dec 20", now=now, timezone="America/Los_Angeles") == {
        "deadline": "2026-12-20T17:00:00-08:00"}
    assert typed_changes("instance_type", "4x p5.48xlarge", now=now, timezone="UTC") == {
        "instance_type": "p5.48xlarge", "instances": 4}
    with pytest.raises(ValueError):
        typed_changes("deadline", "whenever", now=now, timezone="UTC")


def test_a_larger_alternative_chosen_with_a_click_is_planned_under_the_stage_in_force(
        asking_bot: BotHarness, slack: FakeSlack, live: Live) -> None:
    """An edit that makes a plan large asks its stage; a click on an alternative keeps the stage it was priced under
    rather than being refused with a question no button can answer."""
    _, blocks = _asked(asking_bot, slack, "fine-tune 7B on 2B tokens, no interruptions")
    fastest = next(b for b in blocks if "accessory" in b and "fastest" in b["text"]["text"])  # type: ignore[index,operator]
    button = fastest["accessory"]
    assert json.loads(str(button["value"]))["gpus"] >= 64  # type: ignore[index]  # 8 or more instances: large
    asking_bot.action(str(button["action_id"]), str(button["value"]), user=USER)  # type: ignore[index]
    asking_bot.drain()
    request_id = json.loads(str(button["value"]))["id"]  # type: ignore[index]
    after = live.get(f"/v1/requests/{request_id}").json()
    assert after["revision"] == 2 and after["decision"]["request"]["stage"] == "experimental"
