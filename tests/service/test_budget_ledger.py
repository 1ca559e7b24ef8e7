"""A burst of automatic approvals never spends the same budget room twice (real HTTP, Postgres and SQLite)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import httpx
import pytest
from sqlmodel import select

from policy.config import PolicyConfig
from service.spend.ledger import judged_usd
from service.spend.providers import SampleSpend, sample_spend_path
from service.store.db import new_session
from service.store.tables import PlanRevision, RequestRecord
from tests.service.apiclient import Live, auth, live_service
from tests.service.factories import make_policy

TEXT = "fine-tune 7B on 100M tokens"  # about $23 of exposure (start-up included): below auto_approve_below_usd
ROOM_USD = 100.0  # budget room left in the month for team-ml: five or so such plans, not fifty
REQUESTERS = [f"slack:T1:ENG{i}" for i in range(5)]


def _policy(**changes: object) -> PolicyConfig:
    spend = SampleSpend(sample_spend_path()).get_spend(team="team-ml", policy=make_policy())
    assert spend.month_to_date_usd is not None and spend.forecast_usd is not None
    budget = spend.month_to_date_usd + spend.forecast_usd + ROOM_USD
    base = make_policy(**{"rate_limit_per_minute": 1000, "auto_approve_daily_per_requester_usd": None,
                          "auto_approve_daily_per_team_usd": None, **changes})
    teams = {**base.teams, "team-ml": base.teams["team-ml"].model_copy(update={"monthly_budget_usd": budget})}
    return base.model_copy(update={"teams": teams})


BACKENDS = pytest.mark.parametrize("fresh_database_url", ["postgres", "sqlite"], indirect=True)


def _burst(live: Live, requests_each: int) -> list[dict[str, object]]:
    senders = [who for who in REQUESTERS for _ in range(requests_each)]
    barrier = threading.Barrier(len(senders))

    def send(who: str) -> dict[str, object]:
        with httpx.Client(base_url=live.url, timeout=60) as client:
            barrier.wait()
            answer = client.post("/v1/requests", json={"text": TEXT, "team": "team-ml"}, headers=auth("bot", who))
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    with ThreadPoolExecutor(max_workers=len(senders)) as pool:
        return list(pool.map(send, senders))


def _auto_approved_usd(live: Live) -> float:
    with new_session(live.engine) as session:
        rows = session.exec(select(RequestRecord.status, PlanRevision.decision)
                            .join(PlanRevision, PlanRevision.request_id == RequestRecord.id)  # type: ignore[arg-type]
                            .where(RequestRecord.status == "auto_approved"))
        return sum(judged_usd(decision) for _, decision in rows)


@BACKENDS
def test_a_burst_of_automatic_approvals_stays_within_the_budget_room(fresh_database_url: str) -> None:
    with live_service(fresh_database_url, _policy(), db_pool_size=30) as live:
        answers = _burst(live, requests_each=6)
        statuses = [a["status"] for a in answers]
        assert 0 < statuses.count("auto_approved") < len(answers)
        assert set(statuses) == {"auto_approved", "pending_approval"}
        assert _auto_approved_usd(live) <= ROOM_USD
        waiting = next(a for a in answers if a["status"] == "pending_approval")
        reasons = waiting["decision"]["approval"]["reasons"]  # type: ignore[index]
        assert any("over budget" in r and "reserved" in r for r in reasons), reasons


@BACKENDS
def test_the_daily_cap_per_requester_hands_the_rest_to_a_person(fresh_database_url: str) -> None:
    with live_service(fresh_database_url, _policy(auto_approve_daily_per_requester_usd=50.0,
                                                auto_approve_daily_per_team_usd=1_000.0)) as live:
        answers = [live.post("/v1/requests", {"text": TEXT}, role="bot", actor=REQUESTERS[0]).json()
                   for _ in range(4)]
        assert [a["status"] for a in answers] == ["auto_approved", "auto_approved", "pending_approval",
                                                  "pending_approval"]
        reasons = answers[2]["decision"]["approval"]["reasons"]
        assert any("already approved automatically today for you" in r for r in reasons), reasons
        other = live.post("/v1/requests", {"text": TEXT}, role="bot", actor=REQUESTERS[1]).json()
        assert other["status"] == "auto_approved"  # the cap is per person
        assert datetime.now(UTC).date().isoformat() in other["created_at"]
