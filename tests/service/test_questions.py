"""Asking instead of guessing, over real HTTP on SQLite and Postgres: a preview answers with questions, a filed
request waits in needs_input, and answering it plans it as usual, every step audited."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.service.apiclient import Live, auth
from tests.service.conftest import live_on
from tests.service.factories import FINANCE, LEADS, make_policy

POLICY = make_policy(auto_approve_below_usd=200)
ASKS = "train 7B"  # pretrain or fine-tune: the default tokens differ 140x


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    yield from live_on(request, tmp_path_factory, POLICY, name="questions")


def person() -> str:
    return f"slack:T1:U{uuid.uuid4().hex[:10].upper()}"


def patch(live: Live, request_id: str, body: dict[str, Any], actor: str) -> Any:
    return live.client.patch(f"/v1/requests/{request_id}", json=body, headers=auth("bot", actor))


def test_a_preview_answers_with_questions_and_a_field_answers_them(live: Live) -> None:
    asked = live.post("/v1/plans", {"text": ASKS})
    assert asked.status_code == 200, asked.text
    body = asked.json()
    assert body["status"] == "needs_input" and "X-Plan-Hash" not in asked.headers
    assert [q["field"] for q in body["questions"]] == ["task"]
    assert {c["value"] for c in body["questions"][0]["choices"]} == {"fine-tune", "pretrain"}
    assert body["request"]["params"] == 7_000_000_000
    answered = live.post("/v1/plans", {"text": ASKS, "task": "fine-tune"})
    assert answered.status_code == 200 and answered.json()["plan"]["instance_count"] >= 1
    assert answered.headers["X-Plan-Hash"]


def test_a_filed_request_waits_for_answers_then_is_planned_and_audited(live: Live) -> None:
    requester = person()
    neighbour = live.post("/v1/requests", {"text": "fine-tune 1B"}, role="bot", actor=person())
    assert neighbour.status_code == 201
    filed = live.post("/v1/requests", {"text": ASKS}, role="bot", actor=requester)
    assert filed.status_code == 201, filed.text
    waiting = filed.json()
    assert waiting["status"] == "needs_input" and waiting["questions"][0]["field"] == "task"
    request_id = waiting["id"]
    assert live.get(f"/v1/requests/{request_id}").json()["status"] == "needs_input"
    listed = [r["id"] for r in live.get("/v1/requests").json()["items"]]
    assert request_id not in listed and neighbour.json()["id"] in listed  # no plan to list yet
    assert patch(live, request_id, {"task": "fine-tune"}, person()).status_code == 403  # not the requester
    planned = patch(live, request_id, {"task": "fine-tune"}, requester)
    assert planned.status_code == 200, planned.text
    after = planned.json()
    assert after["status"] in ("pending_approval", "auto_approved") and after["revision"] == 1
    assert after["decision"]["request"]["task"] == "fine-tune" and after["plan_hash"]
    events = [e["type"] for e in live.get(f"/v1/requests/{request_id}/audit").json()["items"]]
    assert events[:4] == ["request.created", "request.needs_input", "request.questions_answered", "request.planned"]
    # An edit of a planned request (a new revision), never an answer again; one that leaves a question (pretraining
    # 7B is a large plan: experiment or production?) is refused with it, and the plan in force stays.
    asked = patch(live, request_id, {"task": "pretrain"}, requester)
    assert (asked.status_code, asked.json()["error"]["code"]) == (422, "needs_input")
    assert asked.json()["error"]["message"].startswith("stage: This plan is large")
    again = patch(live, request_id, {"task": "pretrain", "stage": "experimental"}, requester)
    assert again.status_code == 200, again.text
    assert again.json()["revision"] == 2 and again.json()["decision"]["request"]["task"] == "pretrain"
    events = [e["type"] for e in live.get(f"/v1/requests/{request_id}/audit").json()["items"]]
    assert events.count("request.questions_answered") == 1
    assert neighbour.json()["status"] == live.get(f"/v1/requests/{neighbour.json()['id']}").json()["status"]


def test_an_answer_that_leaves_a_question_keeps_it_waiting(live: Live) -> None:
    requester = person()
    filed = live.post("/v1/requests", {"text": "eval 7B, train it"}, role="bot", actor=requester).json()
    assert filed["status"] == "needs_input"
    assert {q["field"] for q in filed["questions"]} == {"fixed_hours", "task"}
    half = patch(live, filed["id"], {"fixed_hours": 2}, requester)
    assert half.status_code == 200 and half.json()["status"] == "needs_input"
    assert [q["field"] for q in half.json()["questions"]] == ["task"]
    done = patch(live, filed["id"], {"task": "fine-tune"}, requester).json()
    assert done["status"] != "needs_input" and done["decision"]["request"]["fixed_hours"] == 2


def test_a_waiting_request_can_be_cancelled(live: Live) -> None:
    requester = person()
    filed = live.post("/v1/requests", {"text": ASKS}, role="bot", actor=requester).json()
    cancelled = live.post(f"/v1/requests/{filed['id']}/cancel", {}, role="bot", actor=requester)
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "cancelled"
    assert patch(live, filed["id"], {"task": "fine-tune"}, requester).status_code == 409


def test_out_of_scope_work_is_refused_with_one_code(live: Live) -> None:
    refused = live.post("/v1/plans", {"text": "serve llama 70b for inference, 100 qps"})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "out_of_scope"
    assert "gpuops plans training runs" in refused.json()["error"]["message"]


BIG = "pretrain 7B on 140B tokens, experimental"  # ~$35k: above finance_above_usd ($25k), one approval by tier


def test_money_above_the_finance_threshold_waits_for_finance_whatever_the_stage(live: Live) -> None:
    filed = live.post("/v1/requests", {"text": BIG}, role="bot", actor=person())
    assert filed.status_code == 201, filed.text
    created = filed.json()
    approval = created["decision"]["approval"]
    assert created["status"] == "pending_approval" and approval["required_groups"] == ["finance"]
    assert "finance" in approval["approver_groups"] and FINANCE[0] in created["eligible_approvers"]
    path = f"/v1/requests/{created['id']}/approvals"
    lead = live.post(path, {"decision": "approve"}, role="bot", actor=LEADS[0]).json()
    assert lead["status"] == "pending_approval" and lead["approvals_remaining"] == 1  # the lead alone is not enough
    done = live.post(path, {"decision": "approve"}, role="bot", actor=FINANCE[0]).json()
    assert done["status"] == "approved"


def test_finance_sign_off_asked_for_in_the_request_waits_for_finance_on_a_small_plan(live: Live) -> None:
    """"needs finance approval" on a ~$40 experiment, which would have been approved automatically."""
    filed = live.post("/v1/requests", {"text": "fine-tune mistral 7B on 300M tokens, needs finance approval"},
                      role="bot", actor=person())
    assert filed.status_code == 201, filed.text
    created = filed.json()
    assert created["status"] == "pending_approval"
    assert created["decision"]["approval"]["required_groups"] == ["finance"]
    path = f"/v1/requests/{created['id']}/approvals"
    lead = live.post(path, {"decision": "approve"}, role="bot", actor=LEADS[0]).json()
    assert lead["status"] == "pending_approval" and lead["approvals_remaining"] == 1  # the lead alone is not enough
    assert live.post(path, {"decision": "approve"}, role="bot", actor=FINANCE[0]).json()["status"] == "approved"


def test_a_request_for_an_estimate_only_answered_is_filed_as_an_estimate_and_stays_one(live: Live) -> None:
    requester = person()
    filed = live.post("/v1/requests", {"text": f"{ASKS}, quote only, don't launch"}, role="bot", actor=requester)
    assert filed.status_code == 201 and filed.json()["status"] == "needs_input", filed.text
    answered = patch(live, filed.json()["id"], {"task": "fine-tune"}, requester)
    assert answered.status_code == 200 and answered.json()["status"] == "estimate", answered.text
    # an estimate never becomes a plan to approve: running the job is a new request
    edited = patch(live, filed.json()["id"], {"estimate_only": False}, requester)
    assert (edited.status_code, edited.json()["error"]["current_state"]) == (409, "estimate"), edited.text
