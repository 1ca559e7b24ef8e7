"""The launcher: approved revisions launch exactly once, refusals and AWS errors land on the request's feed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import botocore.session
import pytest
from botocore.validate import validate_parameters
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from policy.catalog import Catalog, load_catalog
from policy.config import Platforms, PolicyConfig
from policy.spend import SpendSnapshot, SpendStatus
from service.aws.clients import ClientFactory
from service.launch.outbox import begin_launch, claim_next_task
from service.launch.registry import LaunchEnvironment
from service.launch.worker import WorkerContext, drain, launch_once
from service.planning import Planner
from service.spend.providers import SpendProvider, UnavailableSpend
from service.store.db import new_session
from service.store.tables import Approval, Artifact, AuditEvent, Job, LaunchTask, PlanRevision, RequestRecord
from tests.aws.conftest import dummy_session
from tests.aws.factories import make_profile
from tests.aws.fakeaws import AwsFault, FakeAws
from tests.aws.launchkit import LEAD, NOW, FakeSageMaker, approve, launch_policy, migrated_engine, new_request
from tests.service.factories import neighbour_rows, seed_neighbours


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    """A database that already holds other requests approved by the same approvers, one launched; the launcher
    must leave them as they were."""
    engine = migrated_engine(sqlite_url)
    with new_session(engine) as session:
        neighbours = seed_neighbours(session, approvers=[LEAD, "slack:T0GPUOPS:U0LEAD2"], now=NOW)
        before = neighbour_rows(session, neighbours)
    yield engine
    with new_session(engine) as session:
        assert neighbour_rows(session, neighbours) == before


@pytest.fixture
def sagemaker(fake_aws: FakeAws) -> FakeSageMaker:
    return FakeSageMaker(fake_aws).install()


def _planner(policy: PolicyConfig, *, catalog: Catalog | None = None, spend: SpendProvider | None = None) -> Planner:
    return Planner(catalog=catalog or load_catalog(), policy=policy, spend=spend or UnavailableSpend())


def _ctx(engine: Engine, policy: PolicyConfig, *, mode: str = "live", url: str = "", lease: float = 300.0,
         worker: str = "w1", factory: ClientFactory | None = None, catalog: Catalog | None = None,
         spend: SpendProvider | None = None) -> WorkerContext:
    factory = factory or ClientFactory(session=dummy_session(), endpoint_urls={"sagemaker": url}, max_attempts=2)
    return WorkerContext(engine=engine, planner=_planner(policy, catalog=catalog, spend=spend),
                         env=LaunchEnvironment(mode=mode, factory=factory, policy=policy), worker_id=worker,
                         lease_seconds=lease, clock=lambda: NOW)


def _state(engine: Engine, request_id: str) -> tuple[str, list[str], list[LaunchTask]]:
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None
        events = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id)
                              .order_by(col(AuditEvent.seq))).all()
        tasks = session.exec(select(LaunchTask).where(LaunchTask.request_id == request_id)).all()
        return record.status, [e.type for e in events], list(tasks)


def _event(engine: Engine, request_id: str, type_: str) -> dict[str, Any]:
    with new_session(engine) as session:
        event = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id, AuditEvent.type == type_)
                             .order_by(col(AuditEvent.seq).desc())).first()
        assert event is not None, type_
        return dict(event.data)


def test_dry_run_ends_in_dry_run_with_the_exact_request_as_an_artifact_and_sends_nothing(
    engine: Engine, sagemaker: FakeSageMaker
) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    assert drain(ctx=_ctx(engine, policy, mode="dry-run", url=sagemaker.fake.url)) == 1

    status, events, tasks = _state(engine, request_id)
    assert status == "dry_run"
    assert events[-2:] == ["launch.started", "launch.dry_run"]
    assert [t.status for t in tasks] == ["done"]
    assert sagemaker.fake.requests == []
    with new_session(engine) as session:
        (artifact,) = session.exec(select(Artifact).where(Artifact.request_id == request_id)).all()
        job = session.exec(select(Job).where(Job.request_id == request_id)).one()
    request = json.loads(artifact.content)
    model = botocore.session.get_session().get_service_model("sagemaker")
    validate_parameters(request, model.operation_model("CreateTrainingJob").input_shape)
    assert artifact.kind == "sagemaker.create-training-job"
    assert {t["Key"]: t["Value"] for t in request["Tags"]}["gpuops:approvers"] == "slack:T0GPUOPS:U0LEAD1"
    assert (job.status, job.dry_run, job.name) == ("DryRun", True, request["TrainingJobName"])


def test_the_launch_takes_the_role_and_buckets_of_the_team_stored_on_the_request(
    engine: Engine, sagemaker: FakeSageMaker
) -> None:
    nlp_profile = make_profile(role_arn="arn:aws:iam::123456789012:role/gpuops-training-team-nlp",
                               s3_input="s3://team-nlp-data/corpus/", s3_output="s3://team-nlp-artifacts/output/",
                               s3_checkpoints="s3://team-nlp-artifacts/checkpoints/")
    base = launch_policy()
    nlp = base.teams["team-nlp"].model_copy(update={"launch": nlp_profile, "platforms": Platforms()})
    policy = base.model_copy(update={"teams": {**base.teams, "team-nlp": nlp}})
    # The text names team-nlp; the checked team stored on the request is team-ml (the structured field wins).
    ml_request = new_request(engine=engine, policy=policy, text="fine-tune 7B on 1B tokens for team-nlp")
    nlp_request = new_request(engine=engine, policy=policy, team="team-nlp")
    assert drain(ctx=_ctx(engine, policy, mode="dry-run", url=sagemaker.fake.url)) == 2

    def launched(request_id: str) -> dict[str, Any]:
        with new_session(engine) as session:
            record = session.get(RequestRecord, request_id)
            (artifact,) = session.exec(select(Artifact).where(Artifact.request_id == request_id)).all()
        assert record is not None and record.status == "dry_run"
        return dict(json.loads(artifact.content))

    ml, nlp_job = launched(ml_request), launched(nlp_request)
    assert ml["RoleArn"] == "arn:aws:iam::123456789012:role/gpuops-training-team-ml"
    assert ml["OutputDataConfig"]["S3OutputPath"].startswith("s3://team-ml-artifacts/")
    assert {t["Key"]: t["Value"] for t in ml["Tags"]}["gpuops:team"] == "team-ml"
    assert nlp_job["RoleArn"] == nlp_profile.role_arn
    assert nlp_job["OutputDataConfig"]["S3OutputPath"].startswith("s3://team-nlp-artifacts/")


def test_live_launch_creates_the_job_once_and_the_request_runs(engine: Engine, sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    ctx = _ctx(engine, policy, url=sagemaker.fake.url)
    assert drain(ctx=ctx) == 1
    assert drain(ctx=ctx) == 0

    status, events, _ = _state(engine, request_id)
    assert status == "running" and events[-2:] == ["launch.started", "job.status_changed"]
    assert sagemaker.creates() == 1
    (describe, create) = [op for op, _ in sagemaker.fake.requests]
    assert (describe, create) == ("DescribeTrainingJob", "CreateTrainingJob")
    with new_session(engine) as session:
        job = session.exec(select(Job).where(Job.request_id == request_id)).one()
    assert job.status == "InProgress" and not job.dry_run
    assert job.external_id is not None and job.external_id.endswith(job.name)


def test_the_cost_center_the_approvers_saw_is_tagged_on_the_launched_job(engine: Engine,
                                                                         sagemaker: FakeSageMaker) -> None:
    base = launch_policy()
    team = base.teams["team-ml"]
    # the team's own launch tags default a cost center; the request's, which the approvers saw, wins over it
    ml = team.model_copy(update={"launch": team.launch.model_copy(update={"tags": {"CostCenter": "ML-0000"}})})
    policy = base.model_copy(update={"teams": {**base.teams, "team-ml": ml}})
    request_id = new_request(engine=engine, policy=policy, text="fine-tune 7B on 1B tokens, cost center ML-4411")
    assert drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url)) == 1
    (_, create) = sagemaker.fake.requests
    tags = {t["Key"]: t["Value"] for t in create[1]["Tags"]}
    assert tags["CostCenter"] == "ML-4411"
    assert (tags["team"], tags["gpuops:team"], tags["gpuops:request"]) == ("team-ml", "team-ml", request_id)


def test_a_task_reclaimed_after_a_crash_reconciles_with_the_existing_job(engine: Engine,
                                                                         sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    crashed = _ctx(engine, policy, url=sagemaker.fake.url, worker="crashed")
    task = claim_next_task(engine=engine, worker_id="crashed", now=NOW, lease_seconds=300)
    assert task is not None
    job = begin_launch(engine=engine, task=task, planner=_planner(policy), now=NOW)
    assert job is not None
    from service.launch.registry import execute_launch

    execute_launch(spec=job.spec, env=crashed.env, guard=lambda: True)  # created at AWS, "crashed" before recording
    assert launch_once(ctx=_ctx(engine, policy, url=sagemaker.fake.url, worker="w2")) is False  # lease holds
    assert launch_once(ctx=_ctx(engine, policy, url=sagemaker.fake.url, worker="w2", lease=0)) is True

    assert sagemaker.creates() == 1
    status, _, tasks = _state(engine, request_id)
    assert status == "running" and tasks[0].attempts == 2 and tasks[0].status == "done"


def test_a_worker_whose_claim_was_taken_over_creates_nothing(engine: Engine, sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    new_request(engine=engine, policy=policy)
    slow = claim_next_task(engine=engine, worker_id="slow", now=NOW, lease_seconds=300)
    assert slow is not None
    job = begin_launch(engine=engine, task=slow, planner=_planner(policy), now=NOW)
    assert job is not None
    fast = claim_next_task(engine=engine, worker_id="fast", now=NOW, lease_seconds=0)  # slow's lease lapsed
    assert fast is not None and fast.attempt == 2

    from service.launch.outbox import renew_lease
    from service.launch.protocol import LeaseLost
    from service.launch.registry import execute_launch

    with pytest.raises(LeaseLost):
        execute_launch(spec=job.spec, env=_ctx(engine, policy, url=sagemaker.fake.url).env,
                       guard=lambda: renew_lease(engine=engine, task=slow, worker_id="slow", now=NOW))
    assert sagemaker.creates() == 0
    assert renew_lease(engine=engine, task=fast, worker_id="fast", now=NOW)


def test_revoked_approval_sends_the_request_back_for_approval_without_launching(engine: Engine,
                                                                               sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    with new_session(engine) as session:  # the approver left the group between approval and launch
        for approval in session.exec(select(Approval).where(Approval.request_id == request_id)).all():
            approval.approver = "slack:T0GPUOPS:U0GONE"
            session.add(approval)
        session.commit()
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url))

    status, events, tasks = _state(engine, request_id)
    assert status == "pending_approval" and events[-1] == "request.reapproval_required"
    assert "0 of 1 required approvals" in _event(engine, request_id, "request.reapproval_required")["reason"]
    assert tasks[0].status == "failed" and sagemaker.fake.requests == []


def test_a_plan_changed_after_approval_is_not_launched(engine: Engine, sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    with new_session(engine) as session:
        row = session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)).one()
        row.decision = {**row.decision, "plan": {**row.decision["plan"], "instance_count": 16}}
        session.add(row)
        session.commit()
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url))
    status, _, _ = _state(engine, request_id)
    assert status == "pending_approval" and sagemaker.fake.requests == []


def test_a_team_removed_from_the_policy_is_not_launched_with_another_teams_profile(
    engine: Engine, sagemaker: FakeSageMaker
) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None
        record.team = "team-disbanded"
        session.add(record)
        session.commit()
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url))
    status, _, _ = _state(engine, request_id)
    assert status == "pending_approval" and sagemaker.fake.requests == []
    assert "team 'team-disbanded' is not in the policy" in _event(engine, request_id, "request.reapproval_required")[
        "reason"]


def test_a_task_for_a_replaced_revision_is_cancelled(engine: Engine, sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None
        record.revision = 2
        session.add(record)
        session.commit()
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url))
    status, _, tasks = _state(engine, request_id)
    assert status == "approved" and tasks[0].status == "cancelled" and sagemaker.fake.requests == []


@pytest.mark.parametrize("code", ["ValidationException", "ResourceLimitExceeded"])
def test_aws_refusal_fails_the_request_with_awss_message_and_is_not_retried(
    code: str, engine: Engine, sagemaker: FakeSageMaker
) -> None:
    def refuse(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault(code, "The account-level service limit 'ml.g6e.24xlarge for spot training job usage' is 0")

    sagemaker.fake.on("CreateTrainingJob", refuse)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    ctx = _ctx(engine, policy, url=sagemaker.fake.url, lease=0)
    drain(ctx=ctx)
    drain(ctx=ctx)

    status, events, tasks = _state(engine, request_id)
    assert status == "failed" and events[-1] == "launch.failed"
    assert "service limit" in _event(engine, request_id, "launch.failed")["error"]
    assert sagemaker.creates() == 1 and tasks[0].status == "failed"


def test_a_sweep_refused_part_way_stops_the_trials_already_started(engine: Engine,
                                                                    sagemaker: FakeSageMaker) -> None:
    create = sagemaker.fake.handlers["CreateTrainingJob"]

    def refuse_the_second(body: dict[str, Any]) -> dict[str, Any]:
        if body["TrainingJobName"].endswith("-t2"):
            raise AwsFault("ResourceLimitExceeded", "The account-level service limit is 1")
        return create(body)

    sagemaker.fake.on("CreateTrainingJob", refuse_the_second)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy,
                             text="hyperparameter sweep of 7B with 4 trials on 1B tokens each")
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url))

    status, events, tasks = _state(engine, request_id)
    first = f"gpuops-{request_id.replace('_', '-')}-r1-t1"
    assert status == "failed" and events[-1] == "launch.failed" and tasks[0].status == "failed"
    error = _event(engine, request_id, "launch.failed")["error"]
    assert "service limit is 1" in error and f"stopped the 1 job(s) already started: {first}" in error
    assert [c["TrainingJobName"] for c in sagemaker.fake.calls("StopTrainingJob")] == [first]
    assert {name: job["TrainingJobStatus"] for name, job in sagemaker.jobs.items()} == {first: "Stopping"}


def test_throttling_backs_off_and_a_later_attempt_launches(engine: Engine, sagemaker: FakeSageMaker) -> None:
    def throttled(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("ThrottlingException", "Rate exceeded")

    sagemaker.fake.on("CreateTrainingJob", throttled)
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url))
    status, _, tasks = _state(engine, request_id)
    assert status == "launching" and tasks[0].status == "claimed" and "Throttling" in str(tasks[0].last_error)
    assert sagemaker.creates() == 2  # botocore's standard mode retried once, with backoff

    sagemaker.install()
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url, lease=0))
    assert _state(engine, request_id)[0] == "running"
    assert len(sagemaker.jobs) == 1


def test_missing_credentials_refuse_the_launch_with_that_reason(engine: Engine) -> None:
    import boto3

    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    drain(ctx=_ctx(engine, policy, factory=ClientFactory(session=boto3.Session(region_name="us-east-1"))))
    assert _state(engine, request_id)[0] == "failed"
    assert _event(engine, request_id, "launch.failed")["error"] == "launch refused: AWS credentials not configured"


def test_an_incomplete_profile_fails_the_launch_naming_what_is_missing(engine: Engine,
                                                                       sagemaker: FakeSageMaker) -> None:
    ready = launch_policy()
    request_id = new_request(engine=engine, policy=ready)
    broken = launch_policy(launch=ready.teams["team-ml"].launch.model_copy(update={"role_arn": None}))
    drain(ctx=_ctx(engine, broken, url=sagemaker.fake.url))
    assert _state(engine, request_id)[0] == "failed"
    assert "needs role_arn" in _event(engine, request_id, "launch.failed")["error"]
    assert sagemaker.fake.requests == []


def allowing(policy: PolicyConfig, platform: str) -> PolicyConfig:
    """``policy`` with team-ml allowed to run on ``platform`` (a plan there is re-checked against the policy in force
    before it launches, and a platform the team may not use sends it back for approval)."""
    team = policy.teams["team-ml"]
    platforms = team.platforms.model_copy(update={platform: True}) if platform != "sagemaker" else team.platforms
    return policy.model_copy(update={"teams": {**policy.teams,
                                               "team-ml": team.model_copy(update={"platforms": platforms})}})


def on_platform(engine: Engine, request_id: str, platform: str) -> None:
    """As if the decision had chosen ``platform`` for the request's plan (re-hashed, so it is still launchable); the
    worker's policy must let the team run there (``allowing``)."""
    from service.launch.outbox import plan_hash

    with new_session(engine) as session:
        row = session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)).one()
        row.decision = {**row.decision, "plan": {**row.decision["plan"], "platform": platform}}
        row.plan_hash = plan_hash(row.decision)
        session.add(row)
        session.commit()


def _artifact_kinds(engine: Engine, request_id: str) -> list[str]:
    with new_session(engine) as session:
        return [a.kind for a in session.exec(select(Artifact).where(Artifact.request_id == request_id))]


@pytest.mark.parametrize(("platform", "kinds", "refusal"), [
    ("eks", ["eks.pytorchjob", "eks.nodepool"], "live launches on eks need GPUOPS_KUBECONFIG set"),
    ("hyperpod", ["hyperpod.slurm"], "live launches on hyperpod are not supported"),
    ("ec2", ["ec2.launch-template", "ec2.spot-fleet"], "live launches on ec2 are not supported"),
])
def test_a_live_launch_gpuops_cannot_make_fails_saying_so_with_the_manifests_attached(
    platform: str, kinds: list[str], refusal: str, engine: Engine, sagemaker: FakeSageMaker
) -> None:
    policy = allowing(launch_policy(), platform)
    request_id = new_request(engine=engine, policy=policy)
    neighbour = new_request(engine=engine, policy=policy)
    on_platform(engine, request_id, platform)
    on_platform(engine, neighbour, "sagemaker")  # whatever the policy chose for it: SageMaker launches for real
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url))

    status, events, tasks = _state(engine, request_id)
    assert (status, events[-1], tasks[0].status) == ("failed", "launch.failed", "failed")
    failed = _event(engine, request_id, "launch.failed")
    assert failed["error"] == f"{refusal}; the plan's manifests are attached as artifacts"
    assert failed["reason"] == "unsupported"
    assert _artifact_kinds(engine, request_id) == kinds
    assert _state(engine, neighbour)[0] == "running" and sagemaker.creates() == 1  # only the SageMaker neighbour


def test_an_eks_dry_run_ends_in_dry_run_with_the_manifests_attached(engine: Engine,
                                                                    sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    on_platform(engine, request_id, "eks")
    drain(ctx=_ctx(engine, allowing(policy, "eks"), mode="dry-run", url=sagemaker.fake.url))

    assert _state(engine, request_id)[0] == "dry_run"
    assert _artifact_kinds(engine, request_id) == ["eks.pytorchjob", "eks.nodepool"]
    assert "nothing was sent" in _event(engine, request_id, "launch.dry_run")["note"]
    assert sagemaker.fake.requests == []


def _repriced(factor: float, plan: dict[str, Any]) -> Catalog:
    shipped = load_catalog()
    rows = []
    for row in shipped.prices:
        data = row.model_dump()
        if (row.instance_type, row.region) == (plan["instance_type"], plan["region"]):
            for key in ("on_demand_usd", "spot_usd", "spot_min_usd", "spot_max_usd"):
                data[key] = data[key] * factor if data[key] is not None else None
        rows.append(data)
    return Catalog.model_validate({**shipped.model_dump(), "prices": rows, "snapshot": "2026-12-01+refresh-090000"})


@pytest.mark.parametrize(("factor", "status"), [(1.5, "pending_approval"), (1.05, "running")])
def test_prices_that_moved_beyond_tolerance_since_approval_need_approving_again(
    factor: float, status: str, engine: Engine, sagemaker: FakeSageMaker
) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    with new_session(engine) as session:
        plan = session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)).one().decision["plan"]
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url, catalog=_repriced(factor, plan)))
    assert _state(engine, request_id)[0] == status
    if status == "pending_approval":
        reason = _event(engine, request_id, "request.reapproval_required")["reason"]
        assert "the estimate moved" in reason and "10% tolerance" in reason
        assert sagemaker.creates() == 0


def test_a_plan_back_for_approval_is_a_new_revision_whose_approval_launches_it(engine: Engine,
                                                                               sagemaker: FakeSageMaker) -> None:
    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    with new_session(engine) as session:
        plan = session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)).one().decision["plan"]
    repriced = _ctx(engine, policy, url=sagemaker.fake.url, catalog=_repriced(1.5, plan))
    assert drain(ctx=repriced) == 1

    status, events, tasks = _state(engine, request_id)
    assert status == "pending_approval" and events[-2:] == ["request.revised", "request.reapproval_required"]
    assert _event(engine, request_id, "request.revised")["approvals_voided"] is True
    assert [(t.revision, t.status) for t in tasks] == [(1, "cancelled")]  # closed, not failed
    assert str(tasks[0].last_error).startswith("back for approval: the estimate moved")
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        revisions = session.exec(select(PlanRevision.revision).where(PlanRevision.request_id == request_id)).all()
    assert record is not None and record.revision == 2 and sorted(revisions) == [1, 2]  # bumped exactly once

    approve(engine=engine, policy=policy, request_id=request_id)
    assert drain(ctx=repriced) == 1
    status, _, tasks = _state(engine, request_id)
    assert status == "running" and sagemaker.creates() == 1
    assert sorted((t.revision, t.status) for t in tasks) == [(1, "cancelled"), (2, "done")]
    with new_session(engine) as session:
        job = session.exec(select(Job).where(Job.request_id == request_id)).one()
    assert job.revision == 2


@dataclass
class FixedSpend:
    """The team's month-to-date spend, as fresh as ``NOW``."""

    month_to_date_usd: float

    def get_spend(self, *, team: str, policy: PolicyConfig) -> SpendSnapshot:
        return SpendSnapshot(status=SpendStatus.OK, team=team, month_to_date_usd=self.month_to_date_usd,
                             forecast_usd=0.0, budget_usd=policy.team(team).monthly_budget_usd, as_of=NOW)


def test_spend_that_now_exceeds_the_budget_sends_an_auto_approved_plan_back_for_approval(
    engine: Engine, sagemaker: FakeSageMaker
) -> None:
    policy = launch_policy(monthly_budget_usd=10_000).model_copy(update={"auto_approve_below_usd": 1_000})
    request_id = new_request(engine=engine, policy=policy, approve=False, spend=FixedSpend(1_000))
    assert _state(engine, request_id)[0] == "auto_approved"

    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url, spend=FixedSpend(9_990)))  # spent since the decision
    status, events, tasks = _state(engine, request_id)
    assert status == "pending_approval" and events[-2:] == ["request.revised", "request.reapproval_required"]
    reason = _event(engine, request_id, "request.reapproval_required")["reason"]
    assert reason.startswith("it would no longer be approved automatically") and "over budget" in reason
    assert [t.status for t in tasks] == ["cancelled"] and sagemaker.fake.requests == []


def test_spend_still_within_the_budget_launches_an_auto_approved_plan(engine: Engine,
                                                                      sagemaker: FakeSageMaker) -> None:
    policy = launch_policy(monthly_budget_usd=10_000).model_copy(update={"auto_approve_below_usd": 1_000})
    request_id = new_request(engine=engine, policy=policy, approve=False, spend=FixedSpend(1_000))
    drain(ctx=_ctx(engine, policy, url=sagemaker.fake.url, spend=FixedSpend(2_000)))
    assert _state(engine, request_id)[0] == "running" and sagemaker.creates() == 1


def test_live_launch_against_moto_creates_a_job_moto_accepts(engine: Engine, moto: str) -> None:
    from service.aws.sagemaker import describe_training_job

    policy = launch_policy()
    request_id = new_request(engine=engine, policy=policy)
    ctx = _ctx(engine, policy, url=moto)
    drain(ctx=ctx)
    with new_session(engine) as session:
        job = session.exec(select(Job).where(Job.request_id == request_id)).one()
    region = (job.external_id or "").split(":")[3]  # the plan's region, where the job was created
    described = describe_training_job(client=ctx.env.factory.client("sagemaker", region=region), name=job.name)
    assert described is not None and described["TrainingJobArn"] == job.external_id
    assert described["ResourceConfig"]["InstanceType"].startswith("ml.")
    assert _state(engine, request_id)[0] == "running"
