"""Exactly once under failure: a worker killed mid-launch, then restarted, launches one job; workers racing on
Postgres launch each job once, even against a SageMaker that (like moto) silently overwrites a taken name."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import select

from service.launch.worker import drain
from service.store.db import new_session
from service.store.tables import Job, LaunchTask, RequestRecord
from tests.aws.fakeaws import FakeAws
from tests.aws.launchkit import FakeSageMaker, launch_policy, migrated_engine, new_request, write_policy
from tests.aws.test_launch import _ctx

ROOT = Path(__file__).resolve().parents[2]


def _worker(url: str, fake: FakeAws, policy_file: str, *, lease: float) -> subprocess.Popen[str]:
    env = {**os.environ, "DATABASE_URL": url, "GPUOPS_POLICY": policy_file, "GPUOPS_LAUNCH": "live",
           "AWS_ENDPOINT_URL_SAGEMAKER": fake.url, "AWS_ACCESS_KEY_ID": "testing",
           "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1", "GPUOPS_AWS_MAX_ATTEMPTS": "1",
           "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "from gpuops.cli import app; app()", "worker", "--once",
               "--lease-seconds", str(lease)]
    return subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


@pytest.mark.parametrize("crash_in", ["DescribeTrainingJob", "CreateTrainingJob"])
def test_a_worker_killed_mid_launch_and_restarted_launches_exactly_one_job(
    crash_in: str, database_url: str, fake_aws: FakeAws, tmp_path: Path
) -> None:
    engine = migrated_engine(database_url)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    policy_file = write_policy(policy, str(tmp_path / "policy.yaml"))
    release = threading.Event()
    sagemaker = FakeSageMaker(fake_aws).install()
    if crash_in == "CreateTrainingJob":
        sagemaker.hold_create = release  # AWS has created the job; the worker never hears back
    else:
        sagemaker.hold_describe = release  # claimed and launching, nothing created yet

    first = _worker(database_url, fake_aws, policy_file, lease=300)
    try:
        assert sagemaker.entered.wait(60), first.stdout.read() if first.stdout else ""
        os.kill(first.pid, signal.SIGKILL)
        assert first.wait(30) == -signal.SIGKILL
    finally:
        sagemaker.hold_create = sagemaker.hold_describe = None
        release.set()
        if first.stdout:
            first.stdout.close()

    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None and record.status == "launching"
        assert session.exec(select(Job)).all() == []

    second = _worker(database_url, fake_aws, policy_file, lease=0)  # the dead worker's claim is taken over
    output, _ = second.communicate(timeout=120)
    assert second.returncode == 0, output

    assert sagemaker.creates() == 1 and len(sagemaker.jobs) == 1
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        (task,) = session.exec(select(LaunchTask)).all()
        (job,) = session.exec(select(Job)).all()
    assert record is not None and record.status == "running"
    assert (task.status, task.attempts) == ("done", 2)
    assert job.name in sagemaker.jobs
    engine.dispose()


def test_workers_racing_on_postgres_launch_each_job_once(fresh_postgres_url: str, fake_aws: FakeAws) -> None:
    engine: Engine = migrated_engine(fresh_postgres_url)
    try:
        policy = launch_policy()
        requests = [new_request(engine=engine, policy=policy) for _ in range(6)]
        sagemaker = FakeSageMaker(fake_aws, overwrite=True).install()  # AWS's own duplicate check is off
        contexts = [_ctx(engine, policy, url=fake_aws.url, worker=f"w{i}") for i in range(4)]
        start = threading.Barrier(len(contexts))
        handled: list[int] = []

        def work(index: int) -> None:
            start.wait()
            handled.append(drain(ctx=contexts[index]))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(len(contexts))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)

        names = Counter(body["TrainingJobName"] for body in fake_aws.calls("CreateTrainingJob"))
        assert sum(handled) == 6
        assert len(names) == 6 and set(names.values()) == {1}
        with new_session(engine) as session:
            statuses = {r.id: r.status for r in session.exec(select(RequestRecord)).all()}
            claimers = {t.claimed_by for t in session.exec(select(LaunchTask)).all()}
        assert statuses == dict.fromkeys(requests, "running")
        assert len(claimers) >= 1 and len(sagemaker.jobs) == 6
    finally:
        engine.dispose()
