"""The HTTP API over real HTTP (uvicorn on 127.0.0.1), with the real parser and engine, on SQLite and Postgres."""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from policy.config import ApprovalTier, SlackAccess
from service.store.tables import LaunchTask
from tests.service.apiclient import Live, auth, live_service
from tests.service.conftest import create_sqlite_db, live_on
from tests.service.factories import FINANCE, LEADS, make_policy

POLICY = make_policy(approval_tiers=[ApprovalTier(min_usd=0, approvals=2)], auto_approve_below_usd=200)
PENDING = "fine-tune 7B production"  # production: never auto-approved
AUTO = "fine-tune 1B"  # experimental and cheap: auto-approved with spend known
DENIED = "pretrain 70B on 1T tokens"  # above deny_above_usd


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def live(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    yield from live_on(request, tmp_path_factory, POLICY, name="api")


def person() -> str:
    return f"slack:T1:U{uuid.uuid4().hex[:10].upper()}"


def create(live: Live, text: str = PENDING, *, actor: str | None = None) -> dict[str, object]:
    response = live.post("/v1/requests", {"text": text}, role="bot", actor=actor or person())
    assert response.status_code == 201, response.text
    return dict(response.json())


def count_requests(live: Live) -> int:
    with live.engine.connect() as conn:
        return int(conn.execute(sa.text("SELECT count(*) FROM training_request")).scalar_one())


def test_auth_roles(live: Live) -> None:
    assert live.client.get("/healthz").status_code == 200
    assert live.client.get("/v1/requests").status_code == 401
    bad = live.client.get("/v1/requests", headers={"Authorization": "Bearer nope"})
    assert (bad.status_code, bad.json()["error"]["code"]) == (401, "unknown_token")
    viewer = live.post("/v1/requests", {"text": PENDING}, role="viewer")
    assert (viewer.status_code, viewer.json()["error"]["code"]) == (403, "read_only_token")
    admin_as_person = live.post("/v1/plans", {"text": AUTO}, role="admin", actor=person())
    assert admin_as_person.status_code == 403
    assert live.get("/v1/policy", role="viewer").status_code == 200


def test_create_read_audit_and_feed(live: Live) -> None:
    requester = person()
    created = create(live, actor=requester)
    assert created["status"] == "pending_approval" and created["requester"] == requester
    assert created["revision"] == 1 and created["approvals_needed"] == 2 and created["approvals_remaining"] == 2
    assert set(LEADS) | set(FINANCE) == set(created["eligible_approvers"])  # type: ignore[arg-type]
    assert live.get(f"/v1/requests/{created['id']}").json()["plan_hash"] == created["plan_hash"]
    audit = live.get(f"/v1/requests/{created['id']}/audit").json()["items"]
    assert [e["type"] for e in audit] == ["request.created"] and len(audit[0]["prev_hash"]) == 64
    feed = live.get("/v1/events", limit=500).json()
    assert any(e["request_id"] == created["id"] and e["type"] == "request.created" for e in feed["items"])
    assert live.get("/v1/events", after=feed["next_cursor"]).json()["items"] == []


def test_initial_status_follows_the_guardrails(live: Live) -> None:
    assert create(live, AUTO)["status"] == "auto_approved"
    denied = create(live, DENIED)
    assert denied["status"] == "denied"
    refused = live.post(f"/v1/requests/{denied['id']}/approvals", {"decision": "approve"}, role="bot",
                        actor=LEADS[0])
    assert (refused.status_code, refused.json()["error"]["current_state"]) == (409, "denied")


def test_a_request_for_an_estimate_only_takes_no_approval_and_never_queues_a_launch(live: Live) -> None:
    """ "just a quote, don't launch" was filed for approval like any plan: approved, it would have launched."""
    for text in (f"{AUTO}, quote only, don't launch it", f"{PENDING}, just a quote, don't launch anything"):
        quoted = create(live, text)
        assert quoted["status"] == "estimate" and quoted["decision"]["request"]["estimate_only"] is True
        assert quoted["decision"]["approval"]["reasons"][0].startswith("an estimate only: nothing launches")
        refused = live.post(f"/v1/requests/{quoted['id']}/approvals", {"decision": "approve"}, role="bot",
                            actor=LEADS[0])
        assert (refused.status_code, refused.json()["error"]["current_state"]) == (409, "estimate")
        assert "estimate only" in refused.json()["error"]["message"]
        with live.engine.connect() as conn:
            tasks = conn.execute(sa.select(LaunchTask.id).where(LaunchTask.request_id == quoted["id"])).all()
        assert tasks == []


def test_approval_rules_and_the_launch_outbox(live: Live) -> None:
    requester = person()
    created = create(live, actor=requester)
    path = f"/v1/requests/{created['id']}/approvals"
    own = live.post(path, {"decision": "approve"}, role="bot", actor=requester)
    assert (own.status_code, own.json()["error"]["code"]) == (403, "own_request")
    stranger = live.post(path, {"decision": "approve"}, role="bot", actor=person())
    assert stranger.status_code == 403 and "ml-leads" in stranger.json()["error"]["message"]
    first = live.post(path, {"decision": "approve", "approver": "ignored-for-bots"}, role="bot", actor=LEADS[0])
    assert first.json()["approvals_remaining"] == 1
    assert live.post(path, {"decision": "approve"}, role="bot", actor=LEADS[0]).json()["approvals_remaining"] == 1
    named = live.post(path, {"decision": "approve", "approver": FINANCE[0]}, role="admin")
    assert (named.status_code, named.json()["error"]["code"]) == (403, "actor_required")
    done = live.post(path, {"decision": "approve"}, role="bot", actor=FINANCE[0])
    assert done.json()["status"] == "approved"
    assert [a["approver"] for a in done.json()["approvals"]] == [LEADS[0], FINANCE[0]]
    with live.engine.connect() as conn:
        tasks = conn.execute(sa.select(LaunchTask.status).where(LaunchTask.request_id == created["id"])).all()
    assert [t[0] for t in tasks] == ["queued"]
    late = live.post(path, {"decision": "approve"}, role="bot", actor=LEADS[1])
    assert (late.status_code, late.json()["error"]["current_state"]) == (409, "approved")


def test_a_bot_token_without_an_actor_cannot_name_the_approver_or_requester(live: Live) -> None:
    created = create(live)
    path = f"/v1/requests/{created['id']}/approvals"
    for approver in (LEADS[0], FINANCE[0]):
        named = live.post(path, {"decision": "approve", "approver": approver}, role="bot")
        assert (named.status_code, named.json()["error"]["code"]) == (403, "actor_required")
    unnamed = live.post(path, {"decision": "approve"}, role="bot")
    assert (unnamed.status_code, unnamed.json()["error"]["code"]) == (403, "not_an_approver")
    after = live.get(f"/v1/requests/{created['id']}").json()
    assert (after["status"], after["approvals"], after["approvals_remaining"]) == ("pending_approval", [], 2)
    before = count_requests(live)
    asked = live.post("/v1/requests", {"text": PENDING, "requester": person()}, role="bot")
    assert (asked.status_code, asked.json()["error"]["code"]) == (403, "actor_required")
    assert count_requests(live) == before


def test_edit_makes_a_new_revision_and_voids_approvals(live: Live) -> None:
    requester = person()
    created = create(live, actor=requester)
    live.post(f"/v1/requests/{created['id']}/approvals", {"decision": "approve"}, role="bot", actor=LEADS[0])
    other = live.client.patch(f"/v1/requests/{created['id']}", json={"seq_len": 8192},
                              headers={"Authorization": "Bearer bot-token-0123456789", "X-Gpuops-Actor": person()})
    assert other.status_code == 403
    edited = live.client.patch(f"/v1/requests/{created['id']}", json={"seq_len": 8192},
                               headers={"Authorization": "Bearer bot-token-0123456789", "X-Gpuops-Actor": requester})
    body = edited.json()
    assert edited.status_code == 200 and body["revision"] == 2 and body["approvals"] == []
    assert body["approvals_remaining"] == 2 and body["plan_hash"] != created["plan_hash"]
    assert body["decision"]["request"]["seq_len"] == 8192
    types = [e["type"] for e in live.get(f"/v1/requests/{created['id']}/audit").json()["items"]]
    assert types == ["request.created", "request.approval_recorded", "request.revised"]
    [listed] = live.get("/v1/requests", requester=requester).json()["items"]
    assert (listed["revision"], listed["approvals"], listed["plan_hash"]) == (2, [], body["plan_hash"])
    other_request = create(live, actor=requester)
    live.post(f"/v1/requests/{other_request['id']}/approvals", {"decision": "approve"}, role="bot", actor=LEADS[1])
    page = live.get("/v1/requests", requester=requester).json()["items"]
    assert [len(r["approvals"]) for r in page] == [1, 0]


def test_an_edit_that_leaves_a_question_is_refused_with_it_and_never_planned_on_a_guess(live: Live) -> None:
    """New text needing an answer ("on 40k conversations": how many tokens?) was planned on the 1B default."""
    requester = person()
    created = create(live, actor=requester)
    headers = {"Authorization": "Bearer bot-token-0123456789", "X-Gpuops-Actor": requester}
    path = f"/v1/requests/{created['id']}"
    refused = live.client.patch(path, json={"text": "fine-tune 7B on 40k conversations"}, headers=headers)
    error = refused.json()["error"]
    assert (refused.status_code, error["code"]) == (422, "needs_input")
    assert error["message"].startswith("tokens: How many tokens are '40k conversations'?")
    after = live.get(path).json()
    assert (after["revision"], after["plan_hash"]) == (1, created["plan_hash"])
    answered = live.client.patch(path, json={"text": "fine-tune 7B on 40k conversations", "tokens": 40_000_000},
                                 headers=headers)
    assert answered.status_code == 200 and answered.json()["decision"]["request"]["tokens"] == 40_000_000


def test_an_approval_of_the_revision_the_approver_saw_is_refused_once_the_plan_changed(live: Live) -> None:
    requester = person()
    created = create(live, actor=requester)
    path = f"/v1/requests/{created['id']}/approvals"
    edited = live.client.patch(f"/v1/requests/{created['id']}", json={"seq_len": 8192},
                               headers={"Authorization": "Bearer bot-token-0123456789", "X-Gpuops-Actor": requester})
    assert edited.json()["revision"] == 2
    stale = live.post(path, {"decision": "approve", "revision": 1}, role="bot", actor=LEADS[0])
    assert stale.status_code == 409, stale.text
    assert (stale.json()["error"]["code"], stale.json()["error"]["current_state"]) == (
        "revision_changed", "pending_approval")
    stranger = live.post(path, {"decision": "approve", "revision": 1}, role="bot", actor=person())
    assert (stranger.status_code, stranger.json()["error"]["code"]) == (403, "not_an_approver")
    assert live.get(f"/v1/requests/{created['id']}").json()["approvals"] == []
    current = live.post(path, {"decision": "approve", "revision": 2}, role="bot", actor=LEADS[0])
    assert current.status_code == 200 and [(a["approver"], a["revision"]) for a in current.json()["approvals"]] == [
        (LEADS[0], 2)]


def test_cancel_then_illegal_cancel(live: Live) -> None:
    requester = person()
    created = create(live, actor=requester)
    path = f"/v1/requests/{created['id']}/cancel"
    first = live.post(path, {"reason": "not needed"}, role="bot", actor=requester)
    assert first.json()["status"] == "cancelled"
    again = live.post(path, {}, role="bot", actor=requester)
    assert (again.status_code, again.json()["error"]["current_state"]) == (409, "cancelled")


def test_idempotency_key(live: Live) -> None:
    actor, key = person(), uuid.uuid4().hex
    first = live.post("/v1/requests", {"text": PENDING}, role="bot", actor=actor, headers={"Idempotency-Key": key})
    again = live.post("/v1/requests", {"text": PENDING}, role="bot", actor=actor, headers={"Idempotency-Key": key})
    assert first.status_code == 201 and again.status_code == 200 and again.json()["id"] == first.json()["id"]
    other = live.post("/v1/requests", {"text": AUTO}, role="bot", actor=actor, headers={"Idempotency-Key": key})
    assert (other.status_code, other.json()["error"]["code"]) == (409, "idempotency_key_reused")


def test_bad_input_is_refused_and_leaves_no_row(live: Live) -> None:
    before = count_requests(live)
    unknown = live.post("/v1/requests", {"text": PENDING, "colour": "red"})
    assert unknown.status_code == 422 and "colour" in unknown.json()["error"]["message"]
    wrong_type = live.post("/v1/requests", {"params": "seven"})
    assert wrong_type.status_code == 422 and "params" in wrong_type.json()["error"]["message"]
    malformed = live.client.post("/v1/requests", content=b"{not json", headers={
        "Authorization": "Bearer admin-token-0123456789", "Content-Type": "application/json"})
    assert malformed.status_code == 422
    latin1 = live.client.post("/v1/requests", content='{"text": "fine-tune 7B café"}'.encode("latin-1"), headers={
        "Authorization": "Bearer admin-token-0123456789", "Content-Type": "application/json"})
    assert (latin1.status_code, latin1.json()["error"]["code"]) == (422, "invalid_body")
    parser = live.post("/v1/requests", {"text": "train something nice"})
    assert (parser.status_code, parser.json()["error"]["code"]) == (422, "missing_model_size")
    big = live.client.post("/v1/requests", content=b'{"text": "' + b"x" * 70_000 + b'"}',
                           headers={"Authorization": "Bearer admin-token-0123456789"})
    assert (big.status_code, big.json()["error"]["code"]) == (413, "body_too_large")
    chunked = live.client.post("/v1/plans", content=(b"x" * 8192 for _ in range(10)),
                               headers={"Authorization": "Bearer admin-token-0123456789"})
    assert (chunked.status_code, chunked.json()["error"]["code"]) == (413, "body_too_large")
    assert live.post("/v1/requests", {"text": PENDING, "timezone": "Mars/Olympus"}).status_code == 422
    assert live.post("/v1/requests", {"text": PENDING, "team": "team-nope"}).json()["error"]["code"] == "unknown_team"
    assert live.get("/v1/requests/req_0000").status_code == 404
    assert live.get("/v1/requests", cursor="garbage").status_code == 422
    assert count_requests(live) == before


def test_a_nul_character_in_text_is_a_422_naming_the_field_not_a_500(live: Live) -> None:
    before = count_requests(live)
    answer = live.post("/v1/requests", {"text": "fine-tune 7B\u0000 production"}, role="bot", actor=person())
    error = answer.json()["error"]
    assert (answer.status_code, error["code"]) == (422, "invalid_body")
    assert error["message"].startswith("body.text: ") and "NUL" in error["message"]
    assert count_requests(live) == before


@pytest.mark.parametrize(("method", "tail", "body", "field"), [
    ("PATCH", "", {"text": "fine-tune 7B\u0000"}, "text"),
    ("POST", "/approvals", {"decision": "approve", "comment": "ok\u0000"}, "comment"),
    ("POST", "/cancel", {"reason": "\u0000"}, "reason"),
    ("PUT", "/slack-message", {"channel": "C1", "ts": "1.2\u0000"}, "ts"),
])
def test_every_free_text_field_refuses_nul(live: Live, method: str, tail: str, body: dict[str, object],
                                           field: str) -> None:
    actor = person()
    created = create(live, actor=actor)
    answer = live.client.request(method, f"/v1/requests/{created['id']}{tail}", json=body,
                                 headers=auth("bot", actor if method != "POST" or tail != "/approvals" else person()))
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["message"].startswith(f"body.{field}: ")
    assert live.get(f"/v1/requests/{created['id']}").json()["revision"] == 1


@pytest.mark.parametrize(("method", "path", "parameter"), [
    ("GET", "/v1/spend?team=%00", "query.team"),
    ("GET", "/v1/requests?team=ml%00", "query.team"),
    ("GET", "/v1/requests?requester=slack:T1:%00", "query.requester"),
    ("GET", "/v1/requests?cursor=%00", "query.cursor"),
    ("GET", "/v1/events?after=%00", "query.after"),
    ("GET", "/v1/requests/%00", "path.request_id"),
    ("GET", "/v1/requests/req_%00/audit", "path.request_id"),
    ("GET", "/v1/requests/%00/artifacts", "path.request_id"),
    ("POST", "/v1/requests/%00/cancel", "path.request_id"),
    ("POST", "/v1/digests/C1%00/2026-01-01/done", "path.channel"),
])
def test_a_nul_in_a_query_or_path_parameter_is_a_422_naming_it(live: Live, method: str, path: str,
                                                               parameter: str) -> None:
    answer = live.client.request(method, path, json={"ok": True} if "digests" in path else None, headers=auth())
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["message"].startswith(f"{parameter}: ")


def test_a_cursor_smuggling_a_nul_request_id_is_refused(live: Live) -> None:
    smuggled = base64.urlsafe_b64encode(json.dumps(["2026-01-01T00:00:00+00:00", "req_\u0000"]).encode()).decode()
    answer = live.get("/v1/requests", cursor=smuggled.rstrip("="))
    assert (answer.status_code, answer.json()["error"]["code"]) == (422, "invalid_cursor")


def test_the_openapi_document_answers_every_error_with_the_error_body(live: Live) -> None:
    document = live.client.get("/openapi.json").json()
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            assert {"413", "500"} <= set(answers), f"{method} {path}"
            if path.startswith("/v1/"):
                assert {"401", "403", "422"} <= set(answers), f"{method} {path}"
            for status, answer in answers.items():
                if int(status) >= 400 and (method, path) != ("get", "/readyz"):
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/ErrorBody"}, f"{method} {path} {status}"


def test_list_pages_with_a_cursor(live: Live) -> None:
    requester = person()
    ids = [create(live, actor=requester)["id"] for _ in range(3)]
    first = live.get("/v1/requests", requester=requester, limit=2).json()
    second = live.get("/v1/requests", requester=requester, limit=2, cursor=first["next_cursor"]).json()
    assert [r["id"] for r in first["items"] + second["items"]] == list(reversed(ids))
    assert second["next_cursor"] is None


def test_slack_message_cursor_and_digests(live: Live) -> None:
    created = create(live)
    put = live.client.put(f"/v1/requests/{created['id']}/slack-message", json={"channel": "C1", "ts": "1.2"},
                          headers={"Authorization": "Bearer bot-token-0123456789"})
    assert put.status_code == 204
    assert live.get(f"/v1/requests/{created['id']}").json()["slack_message"] == {"channel": "C1", "ts": "1.2"}
    consumer = f"bot-{uuid.uuid4().hex[:6]}"
    assert live.get(f"/v1/cursors/{consumer}").status_code == 404
    live.client.put(f"/v1/cursors/{consumer}", json={"cursor": "7"}, headers={"Authorization":
                                                                               "Bearer bot-token-0123456789"})
    assert live.get(f"/v1/cursors/{consumer}").json() == {"consumer": consumer, "cursor": "7"}
    channel = f"C{uuid.uuid4().hex[:6]}"
    claim = {"channel": channel, "date": "2026-11-30", "team": "team-ml"}
    assert live.post("/v1/digests/claim", claim, role="bot").status_code == 201
    assert live.post("/v1/digests/claim", claim, role="bot").status_code == 409
    assert live.post(f"/v1/digests/{channel}/2026-11-30/done", {"ok": False}, role="bot").status_code == 204
    assert live.post("/v1/digests/claim", claim, role="bot").status_code == 201  # a failed run may be retried
    assert live.post(f"/v1/digests/{channel}/2026-12-01/done", {"ok": True}, role="bot").status_code == 404
    for bad, code in (({"date": "2026-13-45"}, "invalid_body"), ({"team": "team-nope"}, "unknown_team")):
        refused = live.post("/v1/digests/claim", {**claim, "channel": f"{channel}X", **bad}, role="bot")
        assert (refused.status_code, refused.json()["error"]["code"]) == (422, code)
    with live.engine.connect() as conn:
        runs = conn.execute(sa.text("SELECT count(*) FROM digest_run WHERE channel = :c"), {"c": f"{channel}X"})
        assert runs.scalar_one() == 0


def test_spend_catalog_policy_health_and_metrics(live: Live) -> None:
    assert live.get("/v1/spend", team="team-ml").json()["status"] == "ok"
    assert live.get("/v1/spend", team="nope").status_code == 422
    assert "instances" in live.get("/v1/catalog").json()
    policy = live.get("/v1/policy").json()
    assert policy["version"] == POLICY.version_hash and policy["policy"]["default_team"] == "team-ml"
    assert live.client.get("/readyz").json() == {"status": "ok", "database": "ok", "cache": "memory"}
    live.get("/v1/jobs")
    assert live.get("/v1/requests/req_nobody").status_code == 404  # counted under its route, not its path
    text = live.client.get("/metrics").text
    assert 'route="/v1/requests/{request_id}"' in text and "gpuops_http_request_duration_seconds_bucket" in text


def test_each_request_is_counted_once_under_its_route_and_status(live: Live) -> None:
    def sample(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, {"method": "POST", "route": "/v1/plans", **labels}) or 0.0

    before = (sample("gpuops_http_requests_total", status="200"), sample("gpuops_http_requests_total", status="401"),
              sample("gpuops_http_request_duration_seconds_count"))
    assert [live.post("/v1/plans", {"text": AUTO}).status_code for _ in range(2)] == [200, 200]
    assert live.client.post("/v1/plans", json={"text": AUTO}).status_code == 401
    after = (sample("gpuops_http_requests_total", status="200"), sample("gpuops_http_requests_total", status="401"),
             sample("gpuops_http_request_duration_seconds_count"))
    assert [a - b for a, b in zip(after, before, strict=True)] == [2, 1, 3]


def test_rate_limit_per_requester(tmp_path: Path) -> None:
    url = create_sqlite_db(tmp_path)
    with live_service(url, make_policy(rate_limit_per_minute=2)) as service:
        actor = person()
        codes = [service.post("/v1/plans", {"text": AUTO}, role="bot", actor=actor).status_code for _ in range(3)]
        assert codes[:2] == [200, 200] and codes[2] == 429
        limited = service.post("/v1/plans", {"text": AUTO}, role="bot", actor=actor)
        assert 1 <= int(limited.headers["Retry-After"]) <= 60
        assert service.post("/v1/plans", {"text": AUTO}, role="bot", actor=person()).status_code == 200


class ExplodingSpend:
    def get_spend(self, *, team: str, policy: object) -> object:
        raise RuntimeError("secret-detail-that-must-not-leak")


def test_unexpected_error_answers_500_with_a_correlation_id(tmp_path: Path,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    url = create_sqlite_db(tmp_path)
    with live_service(url, POLICY, spend=ExplodingSpend()) as service:  # type: ignore[arg-type]
        response = service.post("/v1/plans", {"text": AUTO})
    error = response.json()["error"]
    assert response.status_code == 500 and "secret-detail" not in response.text
    assert set(error) == {"code", "message", "correlation_id"}
    logged = [r for r in caplog.records if getattr(r, "correlation_id", None) == error["correlation_id"]]
    assert logged and logged[0].exc_info is not None


def test_requests_from_a_workspace_or_channel_off_the_lists_are_refused(tmp_path: Path) -> None:
    lists = SlackAccess(workspaces=["T1"], channels=["C0PLANS"])
    with live_service(create_sqlite_db(tmp_path), make_policy(slack=lists)) as service:
        def file(actor: str, channel: str | None) -> httpx.Response:
            return service.post("/v1/requests", {"text": PENDING, "channel": channel}, role="bot", actor=actor)

        assert file(person(), "C0PLANS").status_code == 201
        other_channel = file(person(), "C0RANDOM")
        assert (other_channel.status_code, other_channel.json()["error"]["code"]) == (403, "channel_not_allowed")
        assert "C0RANDOM" in other_channel.json()["error"]["message"]
        assert LEADS[0] in other_channel.json()["error"]["message"]  # who to ask: the approvers
        other_workspace = file("slack:T9:U0STRANGER", "C0PLANS")
        assert (other_workspace.status_code, other_workspace.json()["error"]["code"]) == (403,
                                                                                           "workspace_not_allowed")
        assert file("slack:T9:U0STRANGER", None).json()["error"]["code"] == "workspace_not_allowed"
        assert service.post("/v1/requests", {"text": PENDING}).status_code == 201  # an admin, no Slack place
        assert count_requests(service) == 2
