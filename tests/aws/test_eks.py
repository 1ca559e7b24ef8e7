"""EKS launches through the real Kubernetes client against a fake API server: one PyTorchJob per revision however
often the launch runs, followed by the tracker to its end, stopped by deleting it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from policy.config import PolicyConfig
from policy.decision import Decision
from service.aws.clients import ClientFactory
from service.jobs.tracker import track_jobs
from service.launch.outbox import begin_launch, claim_next_task
from service.launch.protocol import LaunchSpec
from service.launch.registry import LaunchEnvironment, execute_launch
from service.launch.worker import WorkerContext, drain, launch_once
from service.requests.records import get_revision
from service.store.db import new_session
from service.store.tables import AuditEvent, Job, LaunchTask, RequestRecord
from tests.aws.conftest import dummy_session
from tests.aws.fakekube import FakeKubernetes
from tests.aws.launchkit import NOW, REQUESTER, launch_policy, migrated_engine, new_request
from tests.aws.test_launch import _planner, allowing, on_platform
from tests.service.apiclient import live_service


@pytest.fixture
def kube() -> Iterator[FakeKubernetes]:
    server = FakeKubernetes().start()
    yield server
    server.stop()


@pytest.fixture
def engine(sqlite_url: str) -> Engine:
    return migrated_engine(sqlite_url)


def _ctx(engine: Engine, policy: PolicyConfig, kubeconfig: str, *, worker: str = "w1",
         lease: float = 300.0) -> WorkerContext:
    # SageMaker points nowhere: an EKS launch must not touch it.
    factory = ClientFactory(session=dummy_session(), endpoint_urls={"sagemaker": "http://127.0.0.1:9"})
    env = LaunchEnvironment(mode="live", factory=factory, policy=policy, kubeconfig=kubeconfig)
    return WorkerContext(engine=engine, planner=_planner(policy), env=env, worker_id=worker, lease_seconds=lease,
                         clock=lambda: NOW)


def _eks_request(engine: Engine, policy: PolicyConfig) -> str:
    request_id = new_request(engine=engine, policy=policy)
    on_platform(engine, request_id, "eks")
    return request_id


def _status(engine: Engine, request_id: str) -> str:
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None
        return record.status


def _job(engine: Engine, request_id: str) -> Job:
    with new_session(engine) as session:
        return session.exec(select(Job).where(Job.request_id == request_id)).one()


def _events(engine: Engine, request_id: str) -> list[AuditEvent]:
    with new_session(engine) as session:
        return list(session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id)
                                 .order_by(col(AuditEvent.seq))).all())


@pytest.fixture
def launched(engine: Engine, kube: FakeKubernetes, tmp_path: Path) -> tuple[str, str, WorkerContext]:
    """An approved EKS request launched by the worker, beside a neighbour still waiting for approval."""
    policy = allowing(launch_policy(), "eks")  # a team that may run on EKS
    new_request(engine=engine, policy=policy, approve=False)
    request_id = _eks_request(engine, policy)
    ctx = _ctx(engine, policy, kube.kubeconfig(tmp_path))
    assert drain(ctx=ctx) == 1
    (name,) = kube.pytorchjobs()
    return request_id, name, ctx


def test_a_live_eks_launch_creates_one_pytorchjob_and_the_request_runs(
    engine: Engine, kube: FakeKubernetes, launched: tuple[str, str, WorkerContext]
) -> None:
    request_id, name, ctx = launched
    assert _status(engine, request_id) == "running"
    job = _job(engine, request_id)
    assert (job.name, job.status, job.dry_run, job.external_id) == (name, "InProgress", False, f"training/{name}")
    assert name == f"gpuops-{request_id.replace('_', '-')}-r1"
    created = kube.pytorchjobs()[name]
    assert created["metadata"]["labels"]["gpuops/request"] == request_id
    assert kube.calls("GET", "pytorchjobs") == [f"/apis/kubeflow.org/v1/namespaces/training/pytorchjobs/{name}"]
    assert len(kube.calls("POST", "nodepools")) == 1

    # The same revision launched again (a retried task) finds its job and creates nothing.
    outcome = execute_launch(spec=_spec(engine, request_id), env=ctx.env, guard=lambda: True)
    assert (outcome.job_name, outcome.error) == (name, None)
    assert len(kube.calls("POST", "pytorchjobs")) == 1 and list(kube.pytorchjobs()) == [name]


def _spec(engine: Engine, request_id: str) -> LaunchSpec:
    with new_session(engine) as session:
        decision = get_revision(session=session, request_id=request_id, revision=1).decision
    return LaunchSpec(request_id=request_id, revision=1, team="team-ml", plan=Decision.model_validate(decision).plan)


def test_a_launch_that_crashed_after_creating_finds_the_job_when_it_runs_again(
    engine: Engine, kube: FakeKubernetes, tmp_path: Path
) -> None:
    policy = allowing(launch_policy(), "eks")  # a team that may run on EKS
    request_id = _eks_request(engine, policy)
    kubeconfig = kube.kubeconfig(tmp_path)
    task = claim_next_task(engine=engine, worker_id="crashed", now=NOW, lease_seconds=300)
    assert task is not None
    job = begin_launch(engine=engine, task=task, planner=_planner(policy), now=NOW)
    assert job is not None
    execute_launch(spec=job.spec, env=_ctx(engine, policy, kubeconfig).env, guard=lambda: True)  # then "crashed"
    assert list(kube.pytorchjobs()) and _status(engine, request_id) == "launching"

    assert launch_once(ctx=_ctx(engine, policy, kubeconfig, worker="w2", lease=0)) is True
    assert len(kube.calls("POST", "pytorchjobs")) == 1
    assert _status(engine, request_id) == "running"
    with new_session(engine) as session:
        (row,) = session.exec(select(LaunchTask).where(LaunchTask.request_id == request_id)).all()
    assert (row.attempts, row.status) == (2, "done")


def test_the_tracker_follows_the_pytorchjob_from_running_to_succeeded(
    engine: Engine, kube: FakeKubernetes, launched: tuple[str, str, WorkerContext]
) -> None:
    request_id, name, ctx = launched
    kube.set_conditions(name, ("Created", "2026-11-30T10:01:00Z", "created"),
                        ("Running", "2026-11-30T10:03:00Z", "running"), start="2026-11-30T10:02:00Z")
    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 1
    assert _status(engine, request_id) == "running"
    assert _job(engine, request_id).secondary_status == "Running"
    steps = [e.data["secondary_status"] for e in _events(engine, request_id) if "transition_start" in e.data]
    assert steps == ["Created", "Running"]

    kube.set_conditions(name, ("Created", "2026-11-30T10:01:00Z", "created"),
                        ("Running", "2026-11-30T10:03:00Z", "running"),
                        ("Succeeded", "2026-11-30T14:02:00Z", "PyTorchJob succeeded"),
                        start="2026-11-30T10:02:00Z", completion="2026-11-30T14:02:00Z")
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 0  # nothing left to follow
    assert _status(engine, request_id) == "succeeded"
    job = _job(engine, request_id)
    assert (job.status, job.training_seconds, job.actual_cost_usd) == ("Completed", 4 * 3600, None)
    assert _events(engine, request_id)[-1].type == "job.completed"


def test_a_failed_pytorchjob_fails_the_request_with_its_message(
    engine: Engine, kube: FakeKubernetes, launched: tuple[str, str, WorkerContext]
) -> None:
    request_id, name, ctx = launched
    kube.set_conditions(name, ("Created", "2026-11-30T10:01:00Z", "created"),
                        ("Running", "2026-11-30T10:03:00Z", "running"),
                        ("Failed", "2026-11-30T10:30:00Z", "Master replica exited with code 137 (OOMKilled)"))
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert _status(engine, request_id) == "failed"
    completed = _events(engine, request_id)[-1]
    assert completed.type == "job.completed"
    assert completed.data["failure_reason"] == "Master replica exited with code 137 (OOMKilled)"


def test_stopping_deletes_the_pytorchjob_and_the_request_ends_stopped(
    engine: Engine, kube: FakeKubernetes, launched: tuple[str, str, WorkerContext]
) -> None:
    request_id, name, ctx = launched
    kubeconfig = ctx.env.kubeconfig
    with live_service(str(engine.url), ctx.policy, aws=ctx.env.factory, launch="live", kubeconfig=kubeconfig) as api:
        answer = api.post(f"/v1/requests/{request_id}/stop", {"reason": "loss diverged"}, role="bot",
                          actor=REQUESTER)
    assert answer.status_code == 202, answer.text
    assert kube.calls("DELETE", "pytorchjobs") == [f"/apis/kubeflow.org/v1/namespaces/training/pytorchjobs/{name}"]
    assert kube.pytorchjobs() == {}
    assert _status(engine, request_id) == "running" and _job(engine, request_id).status == "Stopping"

    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 1
    assert _status(engine, request_id) == "stopped"
    types = [e.type for e in _events(engine, request_id)]
    assert types[-2:] == ["job.stop_requested", "job.completed"]


def test_a_pytorchjob_deleted_behind_gpuops_back_fails_the_request_instead_of_running_for_ever(
    engine: Engine, kube: FakeKubernetes, launched: tuple[str, str, WorkerContext]
) -> None:
    request_id, name, ctx = launched
    with kube.lock:
        kube.objects.clear()
    track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW)
    assert _status(engine, request_id) == "failed"
    assert name in str(_events(engine, request_id)[-1].data["failure_reason"])
