"""Schemathesis against the live service over HTTP, on SQLite and Postgres: every answer is one the schema documents.

Two callers: the bot token acting for an approver (``X-Gpuops-Actor``) and the admin token. Each operation gets
generated valid and invalid requests (half of those with a ``{request_id}`` aimed at a real request, so the state
machine answers, not only 404). A 5xx, a status the operation does not declare, a body that does not match the
declared model or an undeclared content type fails the test, and so does a valid request refused by validation
(``invalid_body``: the schema promised more than the service takes). The figures per caller are logged
(``pytest --log-cli-level=INFO``).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import Failure, FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.service.apiclient import TOKENS, Live, live_service
from tests.service.factories import LEADS, make_policy

log = logging.getLogger(__name__)
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance]
EXAMPLES = 6  # per operation, caller and mode: 24 requests per route and database, about half a minute each
PROFILES = {
    "approver": {"Authorization": f"Bearer {TOKENS['bot']}", "X-Gpuops-Actor": LEADS[0]},
    "admin": {"Authorization": f"Bearer {TOKENS['admin']}"},
}
MODES = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)


@dataclass
class Tally:
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


def _code(response: schemathesis.Response) -> str | None:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return None


def _describe(case: schemathesis.Case, mode: GenerationMode, response: schemathesis.Response,
              failure: Failure) -> str:
    return (f"{type(failure).__name__}: {case.method} {case.formatted_path} [{mode.value}] -> "
            f"{response.status_code} {response.text[:200]}")


def _exercise(live: Live, ids: list[str], operation: schemathesis.APIOperation, mode: GenerationMode,
              headers: dict[str, str], tally: Tally) -> None:
    turn = iter(range(1_000_000))

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    def call(case: schemathesis.Case) -> None:
        n = next(turn)
        if "request_id" in (case.path_parameters or {}) and n % 2:
            case.path_parameters = {**(case.path_parameters or {}), "request_id": ids[n % len(ids)]}
        case.headers = {k: v for k, v in (case.headers or {}).items()
                        if k.lower() not in ("authorization", "x-gpuops-actor")}
        response = case.call(base_url=live.url, headers=headers)
        tally.requests += 1
        tally.statuses[response.status_code] += 1
        if mode is GenerationMode.POSITIVE and response.status_code == 422 and _code(response) == "invalid_body":
            tally.failures.append(f"RefusedValidInput: {case.method} {case.formatted_path} "
                                  f"{case.query} {str(case.body)[:200]} -> {response.text[:200]}")
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as group:
            tally.failures += [_describe(case, mode, response, failure) for failure in group.exceptions]
        except Failure as failure:
            tally.failures.append(_describe(case, mode, response, failure))

    try:
        call()
    except Unsatisfiable:  # an operation without inputs has no invalid form
        assert mode is GenerationMode.NEGATIVE


@pytest.mark.parametrize("fresh_database_url", ["sqlite", "postgres"], indirect=True)
def test_every_answer_is_one_the_schema_documents(fresh_database_url: str) -> None:
    with live_service(fresh_database_url, make_policy(rate_limit_per_minute=1_000_000)) as live:
        ids = []
        for text in ("fine-tune 7B production", "pretrain 1B on 20B tokens experimental", "fine-tune 7B"):
            created = live.post("/v1/requests", {"text": text}, role="bot", actor="slack:T1:FUZZ")
            assert created.status_code == 201, created.text
            ids.append(created.json()["id"])
        schema = schemathesis.openapi.from_url(f"{live.url}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 20
        started = time.monotonic()
        tallies = {name: Tally() for name in PROFILES}
        for name, headers in PROFILES.items():
            for operation in operations:
                for mode in MODES:
                    _exercise(live, ids, operation, mode, headers, tallies[name])
        elapsed = time.monotonic() - started

    for name, tally in tallies.items():
        undocumented = sum(1 for f in tally.failures if f.startswith("UndefinedStatusCode"))
        log.info("%s: %d requests, %d 5xx, %d undocumented statuses, %d failures in %.1fs; %s", name, tally.requests,
                 tally.server_errors, undocumented, len(tally.failures), elapsed, dict(sorted(tally.statuses.items())))
    failures = [f for tally in tallies.values() for f in tally.failures]
    assert all(t.requests > 0 for t in tallies.values())
    assert failures == [], "\n".join(failures)
