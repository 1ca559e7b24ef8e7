"""Schemathesis over the OpenAPI schema, against the live service on SQLite: no generated request gets a 5xx."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.service.apiclient import TOKENS, Live, live_service
from tests.service.conftest import create_sqlite_db
from tests.service.factories import make_policy


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    url = create_sqlite_db(tmp_path_factory.mktemp("fuzz"))
    with live_service(url, make_policy(rate_limit_per_minute=100_000)) as service:
        created = service.post("/v1/requests", {"text": "fine-tune 7B production"}, role="bot",
                               actor="slack:T1:FUZZ")
        assert created.status_code == 201
        yield service


MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]


@pytest.mark.parametrize("mode", MODES, ids=[m.value for m in MODES])
def test_no_generated_request_gets_a_server_error(live: Live, mode: GenerationMode) -> None:
    schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
    failures: list[str] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20

    for operation in operations:
        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def call(case: schemathesis.Case) -> None:
            headers = {k: v for k, v in (case.headers or {}).items() if k.lower() != "x-gpuops-actor"}
            headers.setdefault("Authorization", f"Bearer {TOKENS['admin']}")
            case.headers = headers
            response = case.call(base_url=live.url)
            if response.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path}: {response.status_code} {response.text[:200]}")

        try:
            call()
        except Unsatisfiable:  # an operation with no input has no invalid form to generate
            assert mode is GenerationMode.NEGATIVE
    assert failures == []
