"""A live service for API tests: real settings, real planner, a migrated database, uvicorn on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from sqlalchemy.engine import Engine

from policy.catalog import load_catalog
from policy.config import PolicyConfig
from service.api.app import create_app
from service.api.state import build_state
from service.aws.clients import ClientFactory
from service.aws.jobinputs import AwsJobInputs
from service.cache import Cache
from service.planning import Planner
from service.settings import Settings
from service.spend.providers import SampleSpend, SpendProvider, sample_spend_path
from service.store.db import make_engine
from tests.service.live import serve

TOKENS = {"admin": "admin-token-0123456789", "bot": "bot-token-0123456789", "viewer": "viewer-token-0123456789"}


def auth(role: str = "admin", actor: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {TOKENS[role]}"}
    if actor:
        headers["X-Gpuops-Actor"] = actor
    return headers


@dataclass
class Live:
    client: httpx.Client
    engine: Engine
    url: str

    def post(self, path: str, body: Any = None, role: str = "admin", actor: str | None = None,
             headers: dict[str, str] | None = None) -> httpx.Response:
        return self.client.post(path, json=body, headers={**auth(role, actor), **(headers or {})})

    def get(self, path: str, role: str = "admin", **params: Any) -> httpx.Response:
        return self.client.get(path, headers=auth(role), params=params)


@contextmanager
def live_service(
    database_url: str, policy: PolicyConfig, *, spend: SpendProvider | None = None, cache: Cache | None = None,
    aws: ClientFactory | None = None, capacity: Any = None, **settings: Any,
) -> Iterator[Live]:
    """The service on ``database_url`` with ``policy`` (and a capacity provider when given), served over real HTTP."""
    config = Settings(database_url=database_url, api_tokens=",".join(f"{r}:{t}" for r, t in TOKENS.items()),
                      **settings)
    engine = make_engine(database_url)
    planner = Planner(catalog=load_catalog(), policy=policy, spend=spend or SampleSpend(sample_spend_path()),
                      inputs=AwsJobInputs(factory=aws) if aws is not None else None,
                      capacity=capacity)
    state = build_state(config, engine=engine, planner=planner, cache=cache, aws=aws)
    try:
        with serve(create_app(state=state)) as url, httpx.Client(base_url=url, timeout=30) as client:
            yield Live(client=client, engine=engine, url=url)
    finally:
        engine.dispose()
