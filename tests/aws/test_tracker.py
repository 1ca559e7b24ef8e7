"""The tracker: transitions onto the feed, interruptions counted, actual cost and spot savings at the end."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from policy.catalog import load_catalog, sagemaker_price
from service.jobs.outcomes import current_calibration, list_outcomes, record_outcomes
from service.jobs.tracker import list_jobs, stop_job, track_jobs
from service.launch.worker import drain
from service.store.db import new_session
from service.store.tables import Artifact, AuditEvent, Job, RequestRecord
from tests.aws.fakeaws import AwsFault, FakeAws
from tests.aws.launchkit import NOW, FakeSageMaker, launch_policy, migrated_engine, new_request
from tests.aws.test_launch import _ctx

T0 = datetime(2026, 11, 30, 10, 5, tzinfo=UTC)


def _transitions(*statuses: str) -> list[dict[str, Any]]:
    return [{"Status": s, "StartTime": (T0 + timedelta(minutes=10 * i)).timestamp(), "StatusMessage": s}
            for i, s in enumerate(statuses)]


@pytest.fixture
def launched(sqlite_url: str, fake_aws: FakeAws) -> tuple[Engine, FakeSageMaker, str, Any]:
    engine = migrated_engine(sqlite_url)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    sagemaker = FakeSageMaker(fake_aws).install()
    ctx = _ctx(engine, policy, url=fake_aws.url)
    drain(ctx=ctx)
    return engine, sagemaker, request_id, ctx


def _events(engine: Engine, request_id: str) -> list[AuditEvent]:
    with new_session(engine) as session:
        return list(session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id)
                                 .order_by(col(AuditEvent.seq))).all())


def test_interruptions_and_the_final_cost_reach_the_feed(launched: tuple[Engine, FakeSageMaker, str, Any]) -> None:
    engine, sagemaker, request_id, ctx = launched
    (name,) = sagemaker.jobs
    sagemaker.update(name, SecondaryStatus="Training",
                     SecondaryStatusTransitions=_transitions("Starting", "Training", "Interrupted", "Restarting",
                                                             "Training"))
    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 1
    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 1  # nothing new

    types = [e.type for e in _events(engine, request_id)]
    assert types.count("job.interrupted") == 1
    assert types.count("job.status_changed") == 1 + 4  # the launch's own, then four transitions once each

    sagemaker.update(name, TrainingJobStatus="Completed", SecondaryStatus="Completed",
                     SecondaryStatusTransitions=_transitions("Starting", "Training", "Interrupted", "Restarting",
                                                             "Training", "Uploading", "Completed"),
                     BillableTimeInSeconds=3000, TrainingTimeInSeconds=10_000)
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 0

    with new_session(engine) as session:
        job = session.exec(select(Job)).one()
        record = session.get(RequestRecord, request_id)
    resources = sagemaker.jobs[name]["ResourceConfig"]
    row = ctx.catalog.price(resources["InstanceType"].removeprefix("ml."), "us-east-1")
    assert row is not None
    price, _ = sagemaker_price(row, load_catalog().sagemaker_premium)
    count = resources["InstanceCount"]
    assert record is not None and record.status == "succeeded"
    assert job.actual_cost_usd == round(3000 * count * price / 3600, 2)
    assert (job.spot_savings, job.interruptions, job.status) == (0.7, 1, "Completed")
    completed = _events(engine, request_id)[-1]
    assert completed.type == "job.completed"
    assert completed.data["actual_cost_usd"] == job.actual_cost_usd and completed.data["spot_savings"] == 0.7
    assert list_jobs(engine=engine)[0]["actual_cost_usd"] == job.actual_cost_usd


@pytest.mark.parametrize(("aws_status", "request_status"), [("Failed", "failed"), ("Stopped", "stopped")])
def test_a_job_that_ends_badly_ends_the_request_the_same_way(
    aws_status: str, request_status: str, launched: tuple[Engine, FakeSageMaker, str, Any]
) -> None:
    engine, sagemaker, request_id, ctx = launched
    (name,) = sagemaker.jobs
    sagemaker.update(name, TrainingJobStatus=aws_status, SecondaryStatus=aws_status,
                     FailureReason="AlgorithmError: CUDA out of memory" if aws_status == "Failed" else None)
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
    assert record is not None and record.status == request_status
    if aws_status == "Failed":
        assert _events(engine, request_id)[-1].data["failure_reason"] == "AlgorithmError: CUDA out of memory"


def test_committed_spend_counts_live_jobs_launched_since_the_figure(
    launched: tuple[Engine, FakeSageMaker, str, Any]
) -> None:
    from service.jobs.tracker import committed_spend

    engine, _, _, _ = launched
    with new_session(engine) as session:
        job = session.exec(select(Job)).one()
    since = committed_spend(engine=engine)
    assert since("team-ml", job.created_at - timedelta(minutes=1)) == job.estimated_cost_usd
    assert since("team-ml", job.created_at + timedelta(minutes=1)) == 0.0
    assert since("team-nlp", job.created_at - timedelta(minutes=1)) == 0.0


def test_stop_asks_sagemaker_and_the_tracker_records_the_stop(
    launched: tuple[Engine, FakeSageMaker, str, Any]
) -> None:
    from service.jobs.tracker import stop_job

    engine, sagemaker, request_id, ctx = launched
    name = stop_job(engine=engine, env=ctx.env, request_id=request_id, actor="slack:T0GPUOPS:U0LEAD1",
                    now=NOW)
    assert sagemaker.fake.calls("StopTrainingJob") == [{"TrainingJobName": name}]
    sagemaker.update(name, TrainingJobStatus="Stopped", SecondaryStatus="Stopped")
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
    assert record is not None and record.status == "stopped"


def test_jobs_sagemaker_has_but_the_database_does_not_are_found(sqlite_url: str, moto: str,
                                                                 make_factory: Any) -> None:
    from service.aws.sagemaker import build_create_training_job, create_training_job
    from service.jobs.tracker import find_untracked_jobs
    from tests.aws.factories import make_plan, make_team

    engine = migrated_engine(sqlite_url)
    factory = make_factory({"sagemaker": moto})
    request = build_create_training_job(plan=make_plan(), team="team-ml", team_policy=make_team(),
                                        request_id="req_lost", revision=1, approvers=[])
    create_training_job(client=factory.client("sagemaker"), request=request)
    found = find_untracked_jobs(engine=engine, factory=factory, region="us-east-1")
    assert [j["TrainingJobName"] for j in found] == ["gpuops-req-lost-r1"]


def test_gpuops_jobs_lists_jobs_with_costs(launched: tuple[Engine, FakeSageMaker, str, Any],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gpuops.cli import app
    from service.settings import get_settings

    engine, _, request_id, _ = launched
    monkeypatch.setenv("DATABASE_URL", str(engine.url))
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(app, ["jobs"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    assert request_id in result.output and "InProgress" in result.output and "actual -" in result.output


def _sweep(sqlite_url: str, fake_aws: FakeAws) -> tuple[Engine, FakeSageMaker, str, Any]:
    engine = migrated_engine(sqlite_url)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy,
                             text="sweep of 6 trials of 350M on 200M tokens each, at most 2 instances")
    sagemaker = FakeSageMaker(fake_aws).install()
    ctx = _ctx(engine, policy, url=fake_aws.url)
    drain(ctx=ctx)
    return engine, sagemaker, request_id, ctx


def _request_and_job(engine: Engine, request_id: str) -> tuple[RequestRecord | None, Job]:
    with new_session(engine) as session:
        return session.get(RequestRecord, request_id), session.exec(select(Job)).one()


def _finish(sagemaker: FakeSageMaker, name: str, status: str = "Completed") -> None:
    sagemaker.update(name, TrainingJobStatus=status, SecondaryStatus=status, BillableTimeInSeconds=600,
                     TrainingTimeInSeconds=600)


def test_a_sweep_runs_no_more_trials_at_once_than_approved(sqlite_url: str, fake_aws: FakeAws) -> None:
    engine, sagemaker, request_id, ctx = _sweep(sqlite_url, fake_aws)
    prefix = f"gpuops-{request_id.replace('_', '-')}-r1-t"
    assert sorted(sagemaker.jobs) == [f"{prefix}1", f"{prefix}2"]  # 2 instances approved, one a trial
    described = len(sagemaker.fake.calls("DescribeTrainingJob"))
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert len(sagemaker.jobs) == 2  # none ended: none starts
    # the two running and the first not yet created are read; the three after it are not asked for
    assert len(sagemaker.fake.calls("DescribeTrainingJob")) - described == 3

    _finish(sagemaker, f"{prefix}1")
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert sorted(sagemaker.jobs) == [f"{prefix}{i}" for i in (1, 2, 3)]
    # the later trial is the request rendered at launch, as approved
    with new_session(engine) as session:
        (rendered,) = [a for a in session.exec(select(Artifact).where(Artifact.request_id == request_id))
                       if a.name.startswith(f"{prefix}3.")]
    sent = {k: v for k, v in sagemaker.jobs[f"{prefix}3"].items() if k in json.loads(rendered.content)}
    assert sent == json.loads(rendered.content)

    for round_ in range(3):
        for name, job in list(sagemaker.jobs.items()):
            if job["TrainingJobStatus"] == "InProgress":
                _finish(sagemaker, name)
        track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
        running = [n for n, j in sagemaker.jobs.items() if j["TrainingJobStatus"] == "InProgress"]
        assert len(running) <= 2, (round_, running)
    assert len(sagemaker.jobs) == 6 and sagemaker.creates() == 6  # each trial created once
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    record, job = _request_and_job(engine, request_id)
    assert record is not None and record.status == "succeeded"
    assert job.billable_seconds == 6 * 600
    started = [e.data for e in _events(engine, request_id) if e.type == "job.trial_started"]
    assert [(d["trial"], d["of"], d["at_once"]) for d in started] == [(i, 6, 2) for i in (3, 4, 5, 6)]


def test_a_failed_trial_starts_no_more_and_a_stop_leaves_the_waiting_ones_unstarted(sqlite_url: str,
                                                                                    fake_aws: FakeAws) -> None:
    engine, sagemaker, request_id, ctx = _sweep(sqlite_url, fake_aws)
    prefix = f"gpuops-{request_id.replace('_', '-')}-r1-t"
    _finish(sagemaker, f"{prefix}1", "Failed")
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert sorted(sagemaker.jobs) == [f"{prefix}1", f"{prefix}2"]  # no money for trials of a failing sweep
    _finish(sagemaker, f"{prefix}2")
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    record, job = _request_and_job(engine, request_id)
    assert record is not None and record.status == "failed"
    assert job.billable_seconds == 2 * 600 and job.actual_cost_usd is not None  # the four never started, never billed


def test_stopping_a_sweep_stops_its_running_trials_and_starts_no_more(sqlite_url: str, fake_aws: FakeAws) -> None:
    engine, sagemaker, request_id, ctx = _sweep(sqlite_url, fake_aws)
    prefix = f"gpuops-{request_id.replace('_', '-')}-r1-t"
    _finish(sagemaker, f"{prefix}1")
    stop_job(engine=engine, env=ctx.env, request_id=request_id, actor="slack:T0GPUOPS:U0LEAD", now=NOW)
    stopped = [c["TrainingJobName"] for c in sagemaker.fake.calls("StopTrainingJob")]
    assert stopped == [f"{prefix}2"]  # the ended trial and the waiting ones are not asked
    sagemaker.update(f"{prefix}2", TrainingJobStatus="Stopped", SecondaryStatus="Stopped",
                     BillableTimeInSeconds=300, TrainingTimeInSeconds=300)
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert sorted(sagemaker.jobs) == [f"{prefix}1", f"{prefix}2"]
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
    assert record is not None and record.status == "stopped"


def test_a_refused_later_trial_is_asked_again_while_others_run_then_fails_the_sweep(sqlite_url: str,
                                                                                     fake_aws: FakeAws) -> None:
    engine, sagemaker, request_id, ctx = _sweep(sqlite_url, fake_aws)
    prefix = f"gpuops-{request_id.replace('_', '-')}-r1-t"
    create = sagemaker.fake.handlers["CreateTrainingJob"]

    def over_the_limit(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("ResourceLimitExceeded", "The account-level service limit is 2")

    sagemaker.fake.on("CreateTrainingJob", over_the_limit)
    _finish(sagemaker, f"{prefix}1")
    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 1  # tracking goes on
    with new_session(engine) as session:
        assert session.get(RequestRecord, request_id).status == "running"  # type: ignore[union-attr]
    _finish(sagemaker, f"{prefix}2")
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    record, job = _request_and_job(engine, request_id)
    assert record is not None and record.status == "failed"
    assert sorted(sagemaker.jobs) == [f"{prefix}1", f"{prefix}2"] and job.billable_seconds == 2 * 600
    sagemaker.fake.on("CreateTrainingJob", create)


def _launched(engine: Engine, fake_aws: FakeAws, text: str) -> tuple[FakeSageMaker, str, Any]:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy, text=text)
    sagemaker = FakeSageMaker(fake_aws).install()
    ctx = _ctx(engine, policy, url=fake_aws.url)
    drain(ctx=ctx)
    return sagemaker, request_id, ctx


@pytest.mark.parametrize(("text", "request_status"), [
    # its MaxRuntime is the length asked for: reaching it is the job done
    ("a p4d for 6 hours to debug distributed training", "succeeded"),
    # its MaxRuntime is a cap over an estimate: reaching it is the job cut short
    ("fine-tune 7B on 1B tokens", "stopped"),
])
def test_a_job_of_stated_length_that_reaches_its_runtime_limit_finished_as_asked(
    text: str, request_status: str, sqlite_url: str, fake_aws: FakeAws,
) -> None:
    engine = migrated_engine(sqlite_url)
    sagemaker, request_id, ctx = _launched(engine, fake_aws, text)
    (name,) = sagemaker.jobs
    sagemaker.update(name, TrainingJobStatus="Stopped", SecondaryStatus="MaxRuntimeExceeded",
                     TrainingTimeInSeconds=6 * 3600, BillableTimeInSeconds=6 * 3600)
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
    assert record is not None and record.status == request_status


def test_a_stopped_job_of_stated_length_stays_stopped(sqlite_url: str, fake_aws: FakeAws) -> None:
    engine = migrated_engine(sqlite_url)
    sagemaker, request_id, ctx = _launched(engine, fake_aws, "a p4d for 6 hours to debug distributed training")
    (name,) = sagemaker.jobs
    sagemaker.update(name, TrainingJobStatus="Stopped", SecondaryStatus="Stopped")  # a person stopped it
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
    assert record is not None and record.status == "stopped"


def test_a_job_of_stated_length_teaches_the_calibration_nothing(sqlite_url: str, fake_aws: FakeAws) -> None:
    engine = migrated_engine(sqlite_url)
    sagemaker, request_id, ctx = _launched(engine, fake_aws, "a p4d for 6 hours to debug distributed training")
    (name,) = sagemaker.jobs
    # it ran a third of its length: how long the person's script ran says nothing of how fast work trains
    sagemaker.update(name, TrainingJobStatus="Completed", SecondaryStatus="Completed", TrainingTimeInSeconds=2 * 3600)
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert record_outcomes(engine=engine, catalog=ctx.catalog, now=NOW) == 1
    [outcome] = list_outcomes(engine=engine)
    assert outcome.hours_basis == "stated_length"
    assert current_calibration(engine=engine).corrections == ()
