"""Idle GPUs and finished jobs' outcomes: CloudWatch GPUUtilization (moto) below the threshold for the window is
alerted once per episode, Stop stops once, "expected" silences, the state survives a restart; finished jobs leave
their actual hours against the estimate, which the calibration learns from. SQLite and Postgres."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from service.aws.clients import ClientFactory
from service.aws.sagemaker import training_job_name
from service.jobs.outcomes import current_calibration, estimate_accuracy, list_outcomes
from service.jobs.utilisation import IdleRule
from service.launch.worker import WorkerContext, drain, track_once
from service.store.db import make_engine, new_session
from service.store.tables import AuditEvent, IdleWatch, PlanRevision
from tests.aws.conftest import dummy_session
from tests.aws.fakeaws import FakeAws
from tests.aws.launchkit import NOW, REQUESTER, FakeSageMaker, launch_policy, migrated_engine, new_request
from tests.aws.test_launch import _ctx
from tests.service.apiclient import live_service

STRANGER = "slack:T0GPUOPS:U0STRANGER"


@dataclasses.dataclass
class Running:
    engine: Engine
    sagemaker: FakeSageMaker
    request_id: str
    neighbour: str
    ctx: WorkerContext
    cloudwatch: Any
    name: str

    def utilisation(self, percent: float, *, start: datetime, minutes: int, host: int = 1) -> None:
        """Per-GPU ``percent`` each minute, as SageMaker publishes it (summed over the host's GPUs)."""
        gpus = self.ctx.catalog.instance(self.plan_type).accelerator_count
        for i in range(minutes):
            self.cloudwatch.put_metric_data(Namespace="/aws/sagemaker/TrainingJobs", MetricData=[{
                "MetricName": "GPUUtilization", "Dimensions": [{"Name": "Host", "Value": f"{self.name}/algo-{host}"}],
                "Timestamp": start + timedelta(minutes=i), "Value": percent * gpus}])

    @property
    def plan_type(self) -> str:
        return self.sagemaker.jobs[self.name]["ResourceConfig"]["InstanceType"].removeprefix("ml.")

    def check(self, at: datetime) -> None:
        track_once(ctx=dataclasses.replace(self.ctx, clock=lambda: at))

    def events(self, kind: str, request_id: str | None = None) -> list[dict[str, Any]]:
        with new_session(self.engine) as session:
            rows = session.exec(select(AuditEvent).where(AuditEvent.request_id == (request_id or self.request_id),
                                                         AuditEvent.type == kind).order_by(col(AuditEvent.seq)))
            return [dict(e.data) for e in rows]


@pytest.fixture
def running(database_url: str, fake_aws: FakeAws, moto: str) -> Iterator[Running]:
    engine = migrated_engine(database_url)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    neighbour = new_request(engine=engine, policy=policy, text="fine-tune 1B on 1B tokens")
    sagemaker = FakeSageMaker(fake_aws).install()
    factory = ClientFactory(session=dummy_session(), endpoint_urls={"sagemaker": fake_aws.url, "cloudwatch": moto},
                            max_attempts=2)
    ctx = dataclasses.replace(_ctx(engine, policy, factory=factory), idle=IdleRule())
    assert drain(ctx=ctx) == 2
    name = training_job_name(request_id=request_id, revision=1)
    assert name in sagemaker.jobs
    yield Running(engine, sagemaker, request_id, neighbour, ctx, factory.client("cloudwatch"), name)
    engine.dispose()


def _watch(engine: Engine, request_id: str) -> IdleWatch | None:
    with new_session(engine) as session:
        return session.exec(select(IdleWatch).where(IdleWatch.request_id == request_id)).first()


def test_twelve_minutes_at_twenty_percent_alert_once_and_stop_stops_once(running: Running) -> None:
    running.utilisation(90.0, start=NOW, minutes=2)
    running.utilisation(20.0, start=NOW + timedelta(minutes=2), minutes=12)
    running.check(NOW + timedelta(minutes=8))  # six idle minutes: not yet
    assert running.events("job.idle") == []
    running.check(NOW + timedelta(minutes=14))
    running.check(NOW + timedelta(minutes=15))
    [alert] = running.events("job.idle")
    plan_price = alert["price_per_instance_hour_usd"]
    assert alert["job"] == running.name and alert["utilisation_percent"] == 20.0
    assert alert["idle_cost_per_hour_usd"] == round(alert["instances"] * plan_price * 0.8, 2)
    assert running.events("job.idle", running.neighbour) == []  # the neighbour published nothing: no verdict

    with live_service(str(running.engine.url), running.ctx.policy, aws=running.ctx.env.factory,
                      launch="live") as api:
        assert api.post(f"/v1/requests/{running.request_id}/stop", {"reason": "idle GPUs"}, role="bot",
                        actor=REQUESTER).status_code == 202
        assert api.post(f"/v1/requests/{running.request_id}/stop", role="bot", actor=REQUESTER).status_code == 202
    assert running.sagemaker.fake.calls("StopTrainingJob") == [{"TrainingJobName": running.name}]
    running.check(NOW + timedelta(minutes=30))  # a stopping job is not read again
    assert len(running.events("job.idle")) == 1


def test_the_episode_survives_a_restart_and_a_new_episode_alerts_again(running: Running) -> None:
    running.utilisation(20.0, start=NOW, minutes=12)
    running.check(NOW + timedelta(minutes=12))
    engine = make_engine(str(running.engine.url))  # a new process: nothing kept in memory
    try:
        _after_restart(running, dataclasses.replace(running, ctx=dataclasses.replace(running.ctx, engine=engine)))
    finally:
        engine.dispose()


def _after_restart(running: Running, restarted: Running) -> None:
    restarted.check(NOW + timedelta(minutes=12, seconds=30))
    assert len(running.events("job.idle")) == 1
    running.utilisation(85.0, start=NOW + timedelta(minutes=12), minutes=3)
    restarted.check(NOW + timedelta(minutes=15))
    watch = _watch(running.engine, running.request_id)
    assert watch is not None and not watch.idle and watch.episodes == 1
    running.utilisation(10.0, start=NOW + timedelta(minutes=15), minutes=11)
    restarted.check(NOW + timedelta(minutes=26))
    assert [e["utilisation_percent"] for e in running.events("job.idle")] == [20.0, 10.0]


def test_expected_silences_the_job_and_is_recorded_once(running: Running) -> None:
    with live_service(str(running.engine.url), running.ctx.policy, aws=running.ctx.env.factory,
                      launch="live") as api:
        refused = api.post(f"/v1/requests/{running.request_id}/idle-expected", role="bot", actor=STRANGER)
        assert refused.status_code == 403
        for _ in range(2):
            answer = api.post(f"/v1/requests/{running.request_id}/idle-expected", {"reason": "data loading"},
                              role="bot", actor=REQUESTER)
            assert answer.status_code == 200, answer.text
    [expected] = running.events("job.idle_expected")
    assert (expected["by"], expected["reason"]) == (REQUESTER, "data loading")
    running.utilisation(5.0, start=NOW, minutes=12)
    running.check(NOW + timedelta(minutes=12))
    assert running.events("job.idle") == []
    watch = _watch(running.engine, running.request_id)
    assert watch is not None and watch.idle and watch.silenced_by == REQUESTER
    assert running.sagemaker.fake.calls("StopTrainingJob") == []


def test_a_finished_job_leaves_its_outcome_and_the_calibration_learns_from_it(running: Running) -> None:
    with new_session(running.engine) as session:
        revision = session.exec(select(PlanRevision).where(PlanRevision.request_id == running.request_id)).one()
        estimated = float(revision.decision["plan"]["estimated_hours"])
    seconds = int(estimated * 1.5 * 3600)
    running.sagemaker.update(running.name, TrainingJobStatus="Completed", SecondaryStatus="Completed",
                             TrainingTimeInSeconds=seconds)  # no billed time: accuracy is judged on hours
    running.check(NOW + timedelta(hours=5))
    running.check(NOW + timedelta(hours=5, minutes=1))  # recorded once
    [outcome] = list_outcomes(engine=running.engine)
    assert (outcome.request_id, outcome.status, outcome.hours_basis) == (running.request_id, "Completed",
                                                                         "training_seconds")
    assert outcome.actual_hours == pytest.approx(estimated * 1.5, rel=1e-3)
    assert (outcome.task, outcome.size_band, outcome.params) == ("fine-tune", "3B-15B", 7e9)
    [correction] = current_calibration(engine=running.engine).corrections
    assert correction.jobs == 1 and correction.factor == pytest.approx(1.5 ** 0.25, rel=1e-3)
    found = estimate_accuracy(engine=running.engine, since=NOW - timedelta(days=1))
    assert found is not None and found.jobs == 1 and found.median == pytest.approx(0.5, abs=0.01)
