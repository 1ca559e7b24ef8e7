"""POST /v1/requests/{id}/stop: SageMaker is asked to stop the job and the tracker records ``stopped``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from policy.request import Stage
from service.jobs.tracker import track_jobs
from service.launch.worker import WorkerContext, drain
from service.store.db import new_session
from service.store.tables import AuditEvent
from tests.aws.fakeaws import FakeAws
from tests.aws.launchkit import LEAD, NOW, REQUESTER, FakeSageMaker, launch_policy, migrated_engine, new_request
from tests.aws.test_launch import _ctx
from tests.service.apiclient import Live, live_service

STRANGER = "slack:T0GPUOPS:U0STRANGER"


@pytest.fixture
def launched(sqlite_url: str, fake_aws: FakeAws) -> tuple[Engine, FakeSageMaker, str, WorkerContext]:
    engine = migrated_engine(sqlite_url)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    sagemaker = FakeSageMaker(fake_aws).install()
    ctx = _ctx(engine, policy, url=fake_aws.url)
    assert drain(ctx=ctx) == 1
    return engine, sagemaker, request_id, ctx


def _service(ctx: WorkerContext, *, launch: str = "live") -> Any:
    return live_service(str(ctx.engine.url), ctx.policy, aws=ctx.env.factory, launch=launch)


@pytest.fixture
def api(launched: tuple[Engine, FakeSageMaker, str, WorkerContext]) -> Iterator[Live]:
    with _service(launched[3]) as live:
        yield live


def _stop_events(engine: Engine, request_id: str) -> list[dict[str, Any]]:
    with new_session(engine) as session:
        rows = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id,
                                                     AuditEvent.type == "job.stop_requested")
                            .order_by(col(AuditEvent.seq))).all()
        return [dict(e.data) for e in rows]


def test_the_requester_stops_a_running_job_and_the_tracker_records_stopped(
    launched: tuple[Engine, FakeSageMaker, str, WorkerContext], api: Live
) -> None:
    engine, sagemaker, request_id, ctx = launched
    (name,) = sagemaker.jobs
    answer = api.post(f"/v1/requests/{request_id}/stop", {"reason": "loss diverged"}, role="bot", actor=REQUESTER)
    assert answer.status_code == 202, answer.text
    assert answer.json()["status"] == "running"  # until SageMaker reports the job stopped
    assert sagemaker.fake.calls("StopTrainingJob") == [{"TrainingJobName": name}]
    [event] = _stop_events(engine, request_id)
    assert (event["job"], event["reason"], event["dry_run"]) == (name, "loss diverged", False)

    again = api.post(f"/v1/requests/{request_id}/stop", role="bot", actor=REQUESTER)
    assert again.status_code == 202 and len(sagemaker.fake.calls("StopTrainingJob")) == 1  # already stopping

    sagemaker.update(name, TrainingJobStatus="Stopped", SecondaryStatus="Stopped")
    assert track_jobs(engine=engine, env=ctx.env, catalog=ctx.catalog, now=NOW) == 1
    assert api.get(f"/v1/requests/{request_id}").json()["status"] == "stopped"
    late = api.post(f"/v1/requests/{request_id}/stop", role="bot", actor=REQUESTER)
    assert late.status_code == 409
    assert late.json()["error"]["current_state"] == "stopped"


@pytest.mark.parametrize(("role", "actor", "status", "code"), [
    ("admin", None, 202, None),
    ("bot", LEAD, 202, None),
    ("bot", STRANGER, 403, "not_allowed_to_stop"),
    ("bot", None, 403, "not_allowed_to_stop"),
    ("viewer", None, 403, "read_only_token"),
])
def test_only_the_requester_an_approver_or_an_admin_may_stop(
    role: str, actor: str | None, status: int, code: str | None,
    launched: tuple[Engine, FakeSageMaker, str, WorkerContext], api: Live,
) -> None:
    _, sagemaker, request_id, _ = launched
    answer = api.post(f"/v1/requests/{request_id}/stop", role=role, actor=actor)
    assert answer.status_code == status, answer.text
    if code is not None:
        assert answer.json()["error"]["code"] == code
    assert len(sagemaker.fake.calls("StopTrainingJob")) == (1 if status == 202 else 0)


def test_a_request_that_is_not_running_is_a_409_and_nothing_is_sent(sqlite_url: str, fake_aws: FakeAws) -> None:
    engine = migrated_engine(sqlite_url)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy, approve=False)
    sagemaker = FakeSageMaker(fake_aws).install()
    with live_service(sqlite_url, policy, aws=_ctx(engine, policy, url=fake_aws.url).env.factory,
                      launch="live") as api:
        answer = api.post(f"/v1/requests/{request_id}/stop", role="bot", actor=REQUESTER)
        missing = api.post("/v1/requests/req_0000000000000000/stop")
    assert answer.status_code == 409
    assert answer.json()["error"] | {"message": ""} == {"code": "not_running", "message": "",
                                                        "current_state": "pending_approval"}
    assert missing.status_code == 404
    assert sagemaker.fake.requests == []


def test_in_dry_run_the_stop_is_recorded_and_nothing_is_sent(
    launched: tuple[Engine, FakeSageMaker, str, WorkerContext]
) -> None:
    engine, sagemaker, request_id, ctx = launched
    (name,) = sagemaker.jobs
    with _service(ctx, launch="dry-run") as api:
        answer = api.post(f"/v1/requests/{request_id}/stop", {"reason": "wrong data"})
    assert answer.status_code == 202 and answer.json()["status"] == "running"
    assert sagemaker.fake.calls("StopTrainingJob") == []
    [event] = _stop_events(engine, request_id)
    assert (event["jobs"], event["dry_run"], event["reason"]) == ([name], True, "wrong data")


def test_an_approver_admitted_through_a_slack_user_group_may_stop_as_the_bot_vouches(
    launched: tuple[Engine, FakeSageMaker, str, WorkerContext],
) -> None:
    _, sagemaker, request_id, ctx = launched
    record_team, record_stage = "team-ml", Stage.EXPERIMENTAL
    groups = {name: [*ctx.policy.groups.get(name, []), "usergroup:S0LEADS"]
              for name in ctx.policy.approver_groups(record_team, record_stage)}
    policy = ctx.policy.model_copy(update={"groups": {**ctx.policy.groups, **groups}})
    with live_service(str(ctx.engine.url), policy, aws=ctx.env.factory, launch="live") as api:
        unvouched = api.post(f"/v1/requests/{request_id}/stop", role="bot", actor=STRANGER)
        vouched = api.post(f"/v1/requests/{request_id}/stop", {"approver_groups": ["S0LEADS"]}, role="bot",
                           actor=STRANGER)
    assert unvouched.status_code == 403 and unvouched.json()["error"]["code"] == "not_allowed_to_stop"
    assert vouched.status_code == 202, vouched.text
    assert len(sagemaker.fake.calls("StopTrainingJob")) == 1
