"""Early budget warnings: the month's projection from spend, running jobs, reservations and the forecast; each
level said once a month in the team's channel, across restarts, on SQLite and Postgres."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from service.alerts.budget import check_budgets, check_team_budget
from service.launch.worker import drain
from service.spend.providers import FileSpend
from service.store.db import make_engine, new_session
from service.store.tables import AuditEvent, PlanRevision
from tests.aws.fakeaws import FakeAws
from tests.aws.launchkit import NOW, FakeSageMaker, launch_policy, migrated_engine, new_request
from tests.aws.test_launch import _ctx


class Spend:
    """A spend file the test rewrites, read through the real file provider on the test's clock."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "spend.json"
        self.now = NOW

    def write(self, *, spent: float, forecast: float | None, nlp_spent: float = 1_000.0) -> FileSpend:
        teams: dict[str, Any] = {"team-ml": {"month_to_date_usd": spent},
                                 "team-nlp": {"month_to_date_usd": nlp_spent, "forecast_usd": 0.0}}
        if forecast is not None:
            teams["team-ml"]["forecast_usd"] = forecast
        else:
            teams["team-ml"]["daily"] = [{"day": (NOW.date() - timedelta(days=d)).isoformat(), "usd": 1_000.0}
                                         for d in range(1, 8)]
        self.path.write_text(json.dumps({"as_of": self.now.isoformat(), "teams": teams}))
        return FileSpend(str(self.path), clock=lambda: self.now)


def _warnings(engine: Engine) -> list[AuditEvent]:
    with new_session(engine) as session:
        return list(session.exec(select(AuditEvent).where(AuditEvent.type == "budget.threshold")
                                 .order_by(col(AuditEvent.seq))))


def _judged(engine: Engine, request_id: str) -> float:
    with new_session(engine) as session:
        revision = session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)).one()
        assert revision.judged_usd is not None
        return revision.judged_usd


def _once_a_month_across_a_restart(url: str, fake_aws: FakeAws, folder: Path) -> None:
    engine = migrated_engine(url)
    policy = launch_policy()
    running = new_request(engine=engine, policy=policy)
    FakeSageMaker(fake_aws).install()
    drain(ctx=_ctx(engine, policy, url=fake_aws.url))
    reserved = new_request(engine=engine, policy=policy, text="fine-tune 13B on 2B tokens")  # approved, queued
    spend = Spend(folder)

    assert check_budgets(engine=engine, spend=spend.write(spent=18_000, forecast=4_000), policy=policy, now=NOW) == 0
    assert check_budgets(engine=engine, spend=spend.write(spent=22_000, forecast=4_000), policy=policy, now=NOW) == 1
    assert check_budgets(engine=engine, spend=spend.write(spent=22_500, forecast=4_000), policy=policy, now=NOW) == 0
    [first] = _warnings(engine)
    data = first.data
    assert (data["team"], data["channel"], data["levels"], data["month"]) == ("team-ml", "C0GPUOPSML", [50],
                                                                              "2026-11")
    assert data["projected_usd"] == pytest.approx(data["spent_usd"] + data["running_usd"] + data["reserved_usd"]
                                                  + data["forecast_usd"], abs=0.01)
    # Before any tracking round a running job counts at what its approval let loose, as does a queued one.
    assert data["running_usd"] == pytest.approx(_judged(engine, running), abs=0.01)
    assert data["reserved_usd"] == pytest.approx(_judged(engine, reserved), abs=0.01)
    assert {j["request_id"] for j in data["jobs"]} == {running, reserved}
    engine.dispose()

    restarted = make_engine(url)
    spend.now = NOW + timedelta(hours=6)
    assert check_budgets(engine=restarted, spend=spend.write(spent=23_000, forecast=4_000), policy=policy,
                         now=spend.now) == 0
    assert check_budgets(engine=restarted, spend=spend.write(spent=41_000, forecast=4_000), policy=policy,
                         now=spend.now) == 1
    assert [w.data["levels"] for w in _warnings(restarted)] == [[50], [75, 90]]
    december = NOW + timedelta(days=2)
    spend.now = december
    assert check_budgets(engine=restarted, spend=spend.write(spent=26_000, forecast=0.0), policy=policy,
                         now=december) == 1  # a new month starts its levels again
    assert _warnings(restarted)[-1].data["month"] == "2026-12"
    restarted.dispose()


def test_levels_are_said_once_a_month_and_survive_a_restart_on_sqlite(sqlite_url: str, fake_aws: FakeAws,
                                                                      tmp_path: Path) -> None:
    _once_a_month_across_a_restart(sqlite_url, fake_aws, tmp_path)


def test_levels_are_said_once_a_month_and_survive_a_restart_on_postgres(fresh_postgres_url: str, fake_aws: FakeAws,
                                                                        tmp_path: Path) -> None:
    _once_a_month_across_a_restart(fresh_postgres_url, fake_aws, tmp_path)


def test_without_a_forecast_the_rest_of_the_month_runs_at_the_last_weeks_rate(sqlite_url: str,
                                                                              tmp_path: Path) -> None:
    engine = migrated_engine(sqlite_url)
    policy = launch_policy()
    spend = Spend(tmp_path)
    data = check_team_budget(engine=engine, spend=spend.write(spent=24_000, forecast=None), policy=policy,
                             team="team-ml", now=NOW)
    assert data is not None
    assert data["forecast_usd"] == 1_000.0  # one day left in November at $1,000 a day
    assert "run-rate" in data["forecast_basis"] and data["levels"] == [50]
