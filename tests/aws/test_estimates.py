"""Estimates that learn, through the service: the calibration in force shapes new plans and is recorded with them;
GET /v1/estimates/calibration and /accuracy and `gpuops calibration show` read the stored outcomes."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select
from typer.testing import CliRunner

from contract.requests import RequestCreate
from gpuops.cli import app
from policy.catalog import load_catalog
from policy.membership import Filer
from service.jobs.outcomes import CachedCalibration
from service.launch.worker import drain
from service.planning import Planner
from service.requests.filing import create_request
from service.settings import get_settings
from service.spend.providers import UnavailableSpend
from service.store.db import new_session
from service.store.tables import EstimateOutcome, PlanRevision, RequestRecord
from tests.aws.fakeaws import FakeAws
from tests.aws.launchkit import NOW, REQUESTER, FakeSageMaker, launch_policy, new_request
from tests.aws.test_launch import _ctx
from tests.service.apiclient import live_service

TEXT = "production fine-tune 7B on 2B tokens on p4d"


def _history(engine: Engine, ratios: list[float], *, family: str = "p4d", status: str = "Completed") -> None:
    """Finished jobs of 7B fine-tunes on ``family`` that took ``ratio`` × their estimate."""
    policy = launch_policy()
    requests = [new_request(engine=engine, policy=policy, approve=False) for _ in ratios]
    with new_session(engine) as session:
        for i, (request_id, ratio) in enumerate(zip(requests, ratios, strict=True)):
            session.add(EstimateOutcome(
                request_id=request_id, job_name=f"gpuops-{i}", status=status, team="team-ml", platform="sagemaker",
                instance_type=f"{family}.24xlarge", family=family, accelerator="A100", accelerators=8,
                instance_count=1, task="fine-tune", params=7e9, size_band="3B-15B", tokens=2e9, seq_len=4096,
                estimated_hours=10.0, actual_hours=10.0 * ratio, hours_basis="training_seconds",
                estimated_cost_usd=100.0, actual_cost_usd=100.0 * ratio, finished_at=NOW - timedelta(hours=i)))
        session.commit()


def _file(engine: Engine, planner: Planner) -> PlanRevision:
    with new_session(engine) as session:
        record, _ = create_request(session=session, planner=planner, body=RequestCreate(text=TEXT, team="team-ml"),
                                   actor="token:bot", requester=REQUESTER, filer=Filer(actor=REQUESTER),
                                   idempotency_key=None, now=NOW)
        revision = session.exec(select(PlanRevision).where(PlanRevision.request_id == record.id)).one()
        session.expunge(revision)
        return revision


def test_a_new_plan_carries_the_learnt_correction_and_records_it(engine: Engine) -> None:
    base = Planner(catalog=load_catalog(), policy=launch_policy(), spend=UnavailableSpend())
    before = _file(engine, base)
    _history(engine, [1.2] * 10 + [9.0])  # ten jobs 20% slow, one hung
    _history(engine, [3.0] * 5, status="Stopped")  # stopped jobs teach nothing
    calibration = CachedCalibration(engine=engine, ttl_seconds=3600)
    after = _file(engine, Planner(catalog=base.catalog, policy=base.policy, spend=base.spend,
                                  calibration=calibration))
    assert before.calibration_factor is None and after.calibration_factor is not None
    plan_before, plan_after = before.decision["plan"], after.decision["plan"]
    assert plan_after["instance_type"] == plan_before["instance_type"]
    truth = plan_before["estimated_hours"] * 1.2
    assert abs(plan_after["estimated_hours"] - truth) / truth < 0.05
    compute = next(s for s in after.decision["trace"] if s["node"] == "4 compute")
    assert f"calibrated on 11 finished jobs: ×{after.calibration_factor:.2f}" in compute["reason"]


def test_the_service_and_the_command_show_the_calibration_and_the_months_accuracy(
    engine: Engine, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _history(engine, [1.1] * 9 + [2.0])
    with live_service(database_url, launch_policy()) as api:
        table = api.get("/v1/estimates/calibration").json()
        accuracy = api.get("/v1/estimates/accuracy", team="team-ml", since="2026-11-01")
        later = api.get("/v1/estimates/accuracy", since="2026-12-01")
        unknown = api.get("/v1/estimates/accuracy", team="team-nobody")
    [row] = table["items"]
    assert (row["family"], row["task"], row["size_band"], row["jobs"]) == ("p4d", "fine-tune", "3B-15B", 10)
    assert row["factor"] == pytest.approx(1.1 ** (10 / 13), abs=0.01)
    assert unknown.status_code == 422
    assert accuracy.json() == {"team": "team-ml", "since": "2026-11-01", "jobs": 10, "median": pytest.approx(0.1),
                               "p90": pytest.approx(0.1)}  # nine jobs 10% over and one 100% over
    assert later.json() == {"team": None, "since": "2026-12-01", "jobs": 0, "median": None, "p90": None}
    monkeypatch.setenv("DATABASE_URL", database_url)
    get_settings.cache_clear()
    shown = CliRunner().invoke(app, ["calibration", "show"])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0].split() == ["family", "task", "size", "jobs", "median", "actual/estimate", "correction"]
    assert lines[1].split() == ["p4d", "fine-tune", "3B-15B", "10", "1.10", f"×{row['factor']:.2f}"]


def test_the_worker_launches_with_a_calibration_read_on_every_plan(engine: Engine, fake_aws: FakeAws) -> None:
    """The pre-launch re-check decides under the request's lock; the calibration is read before it, not under it
    (on SQLite a read under the lock would wait for the lock)."""
    _history(engine, [1.2] * 10)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    sagemaker = FakeSageMaker(fake_aws).install()
    ctx = _ctx(engine, policy, url=fake_aws.url)
    always = CachedCalibration(engine=engine, ttl_seconds=0)
    ctx = dataclasses.replace(ctx, planner=dataclasses.replace(ctx.planner, calibration=always), calibration=always)
    assert drain(ctx=ctx) == 1
    assert sagemaker.creates() == 1
    with new_session(engine) as session:
        assert session.get(RequestRecord, request_id).status == "running"  # type: ignore[union-attr]
