"""``POST /v1/plans`` answers a well-formed request without FastAPI's dependency machinery (``PreviewRoute``): every
request, well-formed or not, gets exactly the answer FastAPI's own path gives it (status, headers, body, plan hash)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Response
from starlette.types import Message

from policy.catalog import load_catalog
from service.api import plans
from service.api.app import create_app
from service.api.state import build_state
from service.planning import Planner
from service.settings import Settings
from service.spend.providers import SampleSpend, sample_spend_path
from service.store.db import make_engine
from tests.service.apiclient import TOKENS
from tests.service.conftest import create_sqlite_db
from tests.service.factories import make_policy
from tests.service.live import serve

NOW = "2027-03-03T10:00:00Z"
ADMIN = {"Authorization": f"Bearer {TOKENS['admin']}"}
BOT = {"Authorization": f"Bearer {TOKENS['bot']}"}
JSON = {"content-type": "application/json"}


Overrides = dict[Callable[..., Any], Callable[..., Any]]


def _body(**fields: object) -> str:
    return json.dumps({"now": NOW, **fields})


CASES: dict[str, tuple[dict[str, str], str | bytes]] = {
    "plan": ({**ADMIN, **JSON}, _body(text="fine-tune 7B by Friday")),
    "plan in a time zone": ({**ADMIN, **JSON}, _body(text="pretrain 1.5B on 30B tokens", timezone="Europe/Paris")),
    "needs input": ({**ADMIN, **JSON}, json.dumps({"text": "fine-tune 7B by end of month",
                                                   "now": "2027-03-31T10:00:00Z"})),
    "bot for a person": ({**BOT, **JSON, "X-Gpuops-Actor": "slack:T1:U1"}, _body(text="qlora 70B")),
    "bot, malformed person": ({**BOT, **JSON, "X-Gpuops-Actor": "slack:T1"}, _body(text="qlora 70B")),
    "malformed person, no token": ({**JSON, "X-Gpuops-Actor": "nope"}, _body(text="qlora 70B")),
    "admin for a person": ({**ADMIN, **JSON, "X-Gpuops-Actor": "slack:T1:U1"}, _body(text="qlora 70B")),
    "viewer": ({"Authorization": f"Bearer {TOKENS['viewer']}", **JSON}, _body(text="qlora 70B")),
    "no token": (JSON, _body(text="qlora 70B")),
    "basic auth": ({"Authorization": "Basic abc", **JSON}, _body(text="qlora 70B")),
    "lower-case bearer, padded token": ({"Authorization": f"bearer   {TOKENS['admin']}", **JSON},
                                        _body(text="qlora 70B")),
    "unknown token": ({"Authorization": "Bearer nope", **JSON}, _body(text="qlora 70B")),
    "unknown token, bad body": ({"Authorization": "Bearer nope", **JSON}, json.dumps({"text": 5})),
    "broken JSON": ({**ADMIN, **JSON}, '{"text": '),
    "empty body": ({**ADMIN, **JSON}, ""),
    "a JSON list": ({**ADMIN, **JSON}, "[1]"),
    "no content type": (ADMIN, _body(text="qlora 70B")),
    "text/plain": ({**ADMIN, "content-type": "text/plain"}, _body(text="qlora 70B")),
    "charset": ({**ADMIN, "content-type": "application/json; charset=utf-8"}, _body(text="qlora 70B")),
    "upper case": ({**ADMIN, "content-type": "Application/JSON"}, _body(text="qlora 70B")),
    "+json": ({**ADMIN, "content-type": "application/merge-patch+json"}, _body(text="qlora 70B")),
    "unknown field": ({**ADMIN, **JSON}, _body(text="qlora 70B", zzz=1)),
    "bad field": ({**ADMIN, **JSON}, _body(text="qlora 70B", gpus="many")),
    "NUL in text": ({**ADMIN, **JSON}, _body(text="qlora\u0000 70B")),
    "NaN": ({**ADMIN, **JSON}, '{"text": "qlora 70B", "budget_usd": NaN}'),
    "duplicate key": ({**ADMIN, **JSON}, f'{{"text": "qlora 70B", "text": "fine-tune 7B", "now": "{NOW}"}}'),
    "UTF-16": ({**ADMIN, **JSON}, _body(text="qlora 70B").encode("utf-16")),
    "Latin-1": ({**ADMIN, **JSON}, b'{"text": "qlora 70B \xe9", "now": "2027-03-03T10:00:00Z"}'),
    "too long": ({**ADMIN, **JSON}, _body(text="x" * 5000)),
    "unknown time zone": ({**ADMIN, **JSON}, _body(text="qlora 70B", timezone="Mars/Base")),
    "unknown team": ({**ADMIN, **JSON}, _body(text="qlora 70B", team="nope")),
    "no model size": ({**ADMIN, **JSON}, _body(text="fine-tune by Friday")),
    "past deadline": ({**ADMIN, **JSON}, _body(text="fine-tune 7B by 2020-01-01")),
}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastAPI]:
    """The service with spend read at a fixed time."""
    url = create_sqlite_db(Path(tmp_path_factory.mktemp("preview")))
    settings = Settings(database_url=url, api_tokens=",".join(f"{r}:{t}" for r, t in TOKENS.items()))
    spend = SampleSpend(sample_spend_path(), clock=lambda: datetime(2027, 3, 3, 9, 30, tzinfo=UTC))
    planner = Planner(catalog=load_catalog(), policy=make_policy(rate_limit_per_minute=100_000), spend=spend)
    engine = make_engine(url)
    try:
        yield create_app(state=build_state(settings, engine=engine, planner=planner))
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def service(app: FastAPI) -> Iterator[tuple[httpx.Client, Overrides]]:
    """``app`` over real HTTP; yields a client and the app's dependency overrides."""
    with serve(app) as base, httpx.Client(base_url=base, timeout=30) as client:
        yield client, app.dependency_overrides


def _answer(client: httpx.Client, headers: dict[str, str], content: str | bytes) -> tuple[int, dict[str, str], str]:
    response = client.post("/v1/plans", headers=headers, content=content)
    kept = {k: v for k, v in response.headers.items() if k not in ("x-request-id", "date")}
    return response.status_code, kept, response.text


@pytest.mark.parametrize("case", list(CASES))
def test_each_request_is_answered_as_fastapis_own_path_answers_it(
    service: tuple[httpx.Client, Overrides], case: str,
) -> None:
    client, overrides = service
    headers, content = CASES[case]
    quick = _answer(client, headers, content)
    overrides[_unused] = _unused  # any override sends every request down FastAPI's own path
    try:
        full = _answer(client, headers, content)
    finally:
        overrides.clear()
    assert quick == full


def test_a_well_formed_request_takes_the_short_path(service: tuple[httpx.Client, Overrides],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above would hold trivially if nothing ever took the short path."""
    taken: list[str] = []
    endpoint = plans.preview_plan

    async def counted(*given: Any) -> Response:
        taken.append("short")
        return await endpoint(*given)

    monkeypatch.setattr(plans, "preview_plan", counted)
    status, headers, _ = _answer(service[0], {**BOT, **JSON, "X-Gpuops-Actor": "slack:T1:U1"},
                                 _body(text="fine-tune 7B by Friday"))
    assert (status, len(headers["x-plan-hash"]), taken) == (200, 64, ["short"])
    assert _answer(service[0], {**ADMIN, **JSON}, '{"text": ')[0] == 422 and taken == ["short"]


def test_a_client_gone_mid_body_is_answered_as_fastapis_own_path_answers_it(app: FastAPI) -> None:
    async def answer() -> list[Message]:
        sent: list[Message] = []
        incoming: list[Message] = [{"type": "http.request", "body": b'{"text": "fine', "more_body": True},
                                   {"type": "http.disconnect"}]

        async def receive() -> Message:
            return incoming.pop(0)

        async def send(message: Message) -> None:
            sent.append(message)

        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/v1/plans", "raw_path": b"/v1/plans", "root_path": "", "query_string": b"",
                 "headers": [(b"content-type", b"application/json"),
                             (b"authorization", f"Bearer {TOKENS['admin']}".encode())],
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
        await app(scope, receive, send)
        return [{k: v for k, v in m.items() if k != "headers"} for m in sent]

    quick = asyncio.run(answer())
    app.dependency_overrides[_unused] = _unused
    try:
        full = asyncio.run(answer())
    finally:
        app.dependency_overrides.clear()
    assert quick == full and quick[0]["status"] == 422  # the body that never came whole cannot be read


def _unused() -> None:
    """A dependency no route has."""
