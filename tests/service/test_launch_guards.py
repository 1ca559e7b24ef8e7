"""The launcher's guards, on SQLite and Postgres, in a database that holds other requests.

Each guard stands between a claim and money spent: a worker that lost its claim or its lease creates nothing and
cannot record or fail a task another worker owns; a renewed lease is stored; transient failures are retried exactly
``MAX_ATTEMPTS`` times; a plan changed since its decision, denied, or no longer covered by eligible approvals (checked
again on every claim) is refused. The platform is ``RecordingLauncher``, so every launch asked for is counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from contract.errors import UpstreamError
from policy.catalog import load_catalog
from policy.config import PolicyConfig
from policy.spend import SpendSnapshot, SpendStatus
from service.launch.outbox import (
    MAX_ATTEMPTS,
    begin_launch,
    claim_next_task,
    record_launch,
    release_for_retry,
    renew_lease,
)
from service.launch.protocol import LaunchOutcome, LeaseLost
from service.launch.registry import execute_launch
from service.launch.worker import WorkerContext, drain, launch_once
from service.planning import Planner
from service.spend.providers import SpendProvider, UnavailableSpend
from service.store.db import make_engine, new_session
from service.store.tables import AuditEvent, Job, LaunchTask, PlanRevision, RequestRecord
from tests.aws.launchkit import LEAD, NOW, launch_policy, new_request
from tests.service.conftest import create_postgres_schema, create_sqlite_db, drop_postgres_schema
from tests.service.factories import Neighbours, neighbour_rows, seed_neighbours
from tests.service.recording_launcher import RecordingLauncher, recording_environment

SECOND_LEAD = "slack:T0GPUOPS:U0LEAD2"
POLICY = launch_policy()
LEAD_LEFT = POLICY.model_copy(update={"groups": {**POLICY.groups, "ml-leads": [SECOND_LEAD]}})


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A migrated database of its own: the launcher opens its own sessions and commits."""
    schema = None
    if request.param == "sqlite":
        url = create_sqlite_db(tmp_path)
    else:
        url, schema = create_postgres_schema(request.getfixturevalue("postgres_url"))
    engine = make_engine(url)
    yield engine
    engine.dispose()
    if schema is not None:
        drop_postgres_schema(request.getfixturevalue("postgres_url"), schema)


@pytest.fixture
def neighbours(db: Engine) -> Iterator[Neighbours]:
    """Other requests approved by the same approvers at the same revision, one already launched; whatever the
    test does to its own request, theirs must come out untouched."""
    with new_session(db) as session:
        seeded = seed_neighbours(session, approvers=[LEAD, SECOND_LEAD], now=NOW - timedelta(hours=1))
        before = neighbour_rows(session, seeded)
    yield seeded
    with new_session(db) as session:
        assert neighbour_rows(session, seeded) == before


@pytest.fixture
def recorder() -> RecordingLauncher:
    return RecordingLauncher()


@dataclass
class FixedSpend:
    month_to_date_usd: float

    @property
    def blocks(self) -> bool:
        return False

    def get_spend(self, *, team: str, policy: PolicyConfig) -> SpendSnapshot:
        return SpendSnapshot(status=SpendStatus.OK, team=team, month_to_date_usd=self.month_to_date_usd,
                             forecast_usd=0.0, budget_usd=policy.team(team).monthly_budget_usd, as_of=NOW)


def _planner(policy: PolicyConfig, spend: SpendProvider | None = None) -> Planner:
    return Planner(catalog=load_catalog(), policy=policy, spend=spend or UnavailableSpend())


def _ctx(db: Engine, recorder: RecordingLauncher, *, policy: PolicyConfig = POLICY, worker: str = "worker:1",
         lease: float = 300.0, spend: SpendProvider | None = None) -> WorkerContext:
    return WorkerContext(engine=db, planner=_planner(policy, spend), worker_id=worker, lease_seconds=lease,
                         env=recording_environment(policy=policy, recorder=recorder), clock=lambda: NOW)


def _record(db: Engine, request_id: str) -> RequestRecord:
    with new_session(db) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None
        return record


def _task(db: Engine, request_id: str) -> LaunchTask:
    with new_session(db) as session:
        return session.exec(select(LaunchTask).where(LaunchTask.request_id == request_id)
                            .order_by(col(LaunchTask.id))).first()  # type: ignore[return-value]


def _last_event(db: Engine, request_id: str) -> AuditEvent:
    with new_session(db) as session:
        event = session.exec(select(AuditEvent).where(AuditEvent.request_id == request_id)
                             .order_by(col(AuditEvent.seq).desc())).first()
        assert event is not None
        return event


def _edit_revision(db: Engine, request_id: str, **changes: Any) -> None:
    with new_session(db) as session:
        row = session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)).one()
        for name, value in changes.items():
            setattr(row, name, value)
        session.add(row)
        session.commit()


def test_the_loser_of_a_claim_race_gets_nothing_and_launches_nothing(
    db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    task_id = _task(db, request_id).id
    won: list[int | None] = []

    def another_worker_claims_first(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        # Between this worker's pick and its compare-and-set, another worker claims the same task.
        if statement.lstrip().upper().startswith("UPDATE LAUNCH_TASK") and not won:
            won.append(task_id)
            other = conn.connection.cursor()
            other.execute("UPDATE launch_task SET status = 'claimed', claimed_by = 'worker:fast', "
                          f"attempts = attempts + 1 WHERE id = {task_id}")
            other.close()

    sa.event.listen(db, "before_cursor_execute", another_worker_claims_first)
    try:
        assert launch_once(ctx=_ctx(db, recorder, worker="worker:slow")) is False
    finally:
        sa.event.remove(db, "before_cursor_execute", another_worker_claims_first)

    assert won == [task_id]
    task = _task(db, request_id)
    assert (task.status, task.claimed_by, task.attempts) == ("claimed", "worker:fast", 1)
    assert recorder.asked == [] and _record(db, request_id).status == "approved"


def test_a_worker_whose_lease_was_taken_over_creates_records_and_fails_nothing(
    db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    env = recording_environment(policy=POLICY, recorder=recorder)
    slow = claim_next_task(engine=db, worker_id="worker:slow", now=NOW)
    assert slow is not None
    slow_job = begin_launch(engine=db, task=slow, planner=_planner(POLICY), now=NOW)
    assert slow_job is not None
    fast = claim_next_task(engine=db, worker_id="worker:fast", now=NOW, lease_seconds=0)  # slow's lease lapsed
    assert fast is not None and fast.attempt == slow.attempt + 1

    with pytest.raises(LeaseLost):
        execute_launch(spec=slow_job.spec, env=env,
                       guard=lambda: renew_lease(engine=db, task=slow, worker_id="worker:slow", now=NOW))
    assert recorder.created == []
    # What the slow worker does next must not touch the task the fast one owns.
    release_for_retry(engine=db, task=slow, error="throttled", now=NOW)
    failed = LaunchOutcome(job_name="x", job_status="Rejected", dry_run=False, error="refused", reason="rejected")
    assert record_launch(engine=db, job=slow_job, outcome=failed, now=NOW) is False
    task = _task(db, request_id)
    assert (task.status, task.attempts, task.claimed_by, task.last_error) == ("claimed", 2, "worker:fast", None)
    assert _record(db, request_id).status == "launching"

    fast_job = begin_launch(engine=db, task=fast, planner=_planner(POLICY), now=NOW)
    assert fast_job is not None
    outcome = execute_launch(spec=fast_job.spec, env=env,
                             guard=lambda: renew_lease(engine=db, task=fast, worker_id="worker:fast", now=NOW))
    assert record_launch(engine=db, job=fast_job, outcome=outcome, now=NOW) is True
    assert len(recorder.created) == 1 and _record(db, request_id).status == "running"


def test_a_renewed_lease_is_stored_and_keeps_other_workers_off(db: Engine, neighbours: Neighbours) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    task = claim_next_task(engine=db, worker_id="worker:1", now=NOW, lease_seconds=300)
    assert task is not None
    renewed_at = NOW + timedelta(seconds=200)
    assert renew_lease(engine=db, task=task, worker_id="worker:1", now=renewed_at) is True

    assert _task(db, request_id).claimed_at == renewed_at  # read back in a session of its own
    assert claim_next_task(engine=db, worker_id="worker:2", now=NOW + timedelta(seconds=400),
                           lease_seconds=300) is None
    later = claim_next_task(engine=db, worker_id="worker:2", now=renewed_at + timedelta(seconds=301),
                            lease_seconds=300)
    assert later is not None and later.attempt == 2
    assert renew_lease(engine=db, task=task, worker_id="worker:1", now=renewed_at) is False


def test_a_lease_is_renewed_only_in_the_name_of_the_worker_holding_it(db: Engine, neighbours: Neighbours) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    task = claim_next_task(engine=db, worker_id="worker:2", now=NOW)
    assert task is not None
    assert renew_lease(engine=db, task=task, worker_id="worker:1", now=NOW + timedelta(seconds=200)) is False
    assert _task(db, request_id).claimed_at == NOW


@pytest.mark.parametrize(("failures", "status", "created"), [
    (MAX_ATTEMPTS - 1, "running", 1),  # the last allowed attempt still launches
    (MAX_ATTEMPTS, "failed", 0),  # and no attempt comes after it
])
def test_transient_failures_are_retried_exactly_max_attempts_times(
    failures: int, status: str, created: int, db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    recorder.transient_failures = failures
    ctx = _ctx(db, recorder, lease=0)  # each lease lapses at once: the retries need no waiting

    assert drain(ctx=ctx) == min(failures + 1, MAX_ATTEMPTS)
    assert drain(ctx=ctx) == 0
    assert len(recorder.asked) == min(failures + 1, MAX_ATTEMPTS) and len(recorder.created) == created
    task = _task(db, request_id)
    assert (_record(db, request_id).status, task.attempts) == (status, min(failures + 1, MAX_ATTEMPTS))
    if status == "failed":
        event = _last_event(db, request_id)
        assert event.type == "launch.failed" and task.status == "failed"
        assert event.data["error"].startswith(f"gave up after {MAX_ATTEMPTS} attempts: Rate exceeded")


def test_an_auto_approved_plan_changed_since_its_decision_fails_without_launching(
    db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    policy = launch_policy(monthly_budget_usd=10_000).model_copy(update={"auto_approve_below_usd": 1_000})
    request_id = new_request(engine=db, policy=policy, approve=False, spend=FixedSpend(1_000))
    assert _record(db, request_id).status == "auto_approved"
    with new_session(db) as session:
        decision = session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)).one().decision
    _edit_revision(db, request_id, decision={**decision, "plan": {**decision["plan"], "instance_count": 16}})

    drain(ctx=_ctx(db, recorder, policy=policy, spend=FixedSpend(1_000)))
    assert recorder.asked == []
    event = _last_event(db, request_id)
    assert (_record(db, request_id).status, event.type, _task(db, request_id).status) == (
        "failed", "launch.failed", "failed")
    assert event.data["error"] == "the stored plan no longer matches the plan that was approved"


def test_a_plan_policy_denied_is_not_launched_however_it_was_approved(
    db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    _edit_revision(db, request_id, denied=True)
    drain(ctx=_ctx(db, recorder))
    assert recorder.asked == []
    assert _record(db, request_id).status == "pending_approval"
    assert _last_event(db, request_id).data["reason"] == "policy denied this plan"


def test_approvals_of_other_requests_never_count(db: Engine, neighbours: Neighbours,
                                                 recorder: RecordingLauncher) -> None:
    """The neighbours hold approvals by an approver still in the group, at the same revision; ours was given by
    one who has left it since."""
    request_id = new_request(engine=db, policy=POLICY)
    drain(ctx=_ctx(db, recorder, policy=LEAD_LEFT))
    assert recorder.asked == []
    assert _record(db, request_id).status == "pending_approval"
    assert _last_event(db, request_id).data["reason"] == "0 of 1 required approvals for revision 1 are on record"


def test_a_reclaimed_task_checks_the_approvals_again(db: Engine, neighbours: Neighbours,
                                                     recorder: RecordingLauncher) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    crashed = claim_next_task(engine=db, worker_id="worker:crashed", now=NOW)
    assert crashed is not None
    assert begin_launch(engine=db, task=crashed, planner=_planner(POLICY), now=NOW) is not None
    assert _record(db, request_id).status == "launching"  # then the worker died, and the approver left the group

    assert launch_once(ctx=_ctx(db, recorder, policy=LEAD_LEFT, worker="worker:2", lease=0)) is True
    assert recorder.asked == []
    event = _last_event(db, request_id)
    assert (_record(db, request_id).status, event.type) == ("failed", "launch.failed")
    assert event.data["error"] == "0 of 1 required approvals for revision 1 are on record"
    assert _task(db, request_id).attempts == 2


def test_a_launch_writes_its_own_job_row_beside_the_neighbours_job(db: Engine, neighbours: Neighbours,
                                                                   recorder: RecordingLauncher) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    assert drain(ctx=_ctx(db, recorder)) == 1
    (name,) = recorder.created
    with new_session(db) as session:
        job = session.exec(select(Job).where(Job.request_id == request_id)).one()
        jobs = session.exec(select(Job.request_id)).all()
    assert (job.name, job.external_id, job.revision) == (name, f"arn:recorded:job/{name}", 1)
    assert sorted(jobs) == sorted([request_id, neighbours.launched])
    assert [spec.approvers for spec in recorder.asked] == [(LEAD,)]
    assert _record(db, request_id).status == "running"


@pytest.mark.parametrize("refusal", ["approver_left", "repriced"])
def test_a_plan_sent_back_for_approval_gets_the_policys_approval_window(
    refusal: str, db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    request_id = new_request(engine=db, policy=POLICY)
    worker_policy = (LEAD_LEFT if refusal == "approver_left" else POLICY).model_copy(
        update={"approval_window_hours": 6})
    ctx = _ctx(db, recorder, policy=worker_policy)
    if refusal == "repriced":
        catalog = load_catalog()
        keys = ("on_demand_usd", "spot_usd", "spot_min_usd", "spot_max_usd", "sagemaker_usd")
        prices = [p.model_copy(update={k: getattr(p, k) and getattr(p, k) * 2 for k in keys}) for p in catalog.prices]
        ctx = WorkerContext(engine=db, worker_id=ctx.worker_id, env=ctx.env, clock=ctx.clock, planner=Planner(
            catalog=catalog.model_copy(update={"prices": prices}), policy=worker_policy, spend=UnavailableSpend()))
    drain(ctx=ctx)
    record = _record(db, request_id)
    assert recorder.asked == [] and record.status == "pending_approval"
    assert record.expires_at == NOW + timedelta(hours=6)


def test_an_upstream_error_of_a_stale_attempt_is_not_counted_against_the_owner(
    db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    """A lapsed worker whose AWS call failed leaves its error off the task the next worker holds."""
    request_id = new_request(engine=db, policy=POLICY)
    stale = claim_next_task(engine=db, worker_id="worker:stale", now=NOW)
    assert stale is not None
    for attempt in range(2, MAX_ATTEMPTS + 1):
        owner = claim_next_task(engine=db, worker_id=f"worker:{attempt}", now=NOW, lease_seconds=0)
        assert owner is not None and owner.attempt == attempt
    release_for_retry(engine=db, task=stale, error=str(UpstreamError("x", service="s", operation="o")), now=NOW)
    task = _task(db, request_id)
    assert (task.status, task.last_error, task.claimed_by) == ("claimed", None, f"worker:{MAX_ATTEMPTS}")
    assert _record(db, request_id).status == "approved"


def test_a_task_reclaimed_after_its_last_attempt_gives_up_at_the_next_failure(
    db: Engine, neighbours: Neighbours
) -> None:
    """The worker of the last allowed attempt died without a word; the claim after it must not retry for ever."""
    request_id = new_request(engine=db, policy=POLICY)
    for attempt in range(1, MAX_ATTEMPTS + 2):
        task = claim_next_task(engine=db, worker_id=f"worker:{attempt}", now=NOW, lease_seconds=0)
        assert task is not None and task.attempt == attempt
        if attempt == 1:
            assert begin_launch(engine=db, task=task, planner=_planner(POLICY), now=NOW) is not None
    release_for_retry(engine=db, task=task, error="Rate exceeded", now=NOW)
    event = _last_event(db, request_id)
    assert (_record(db, request_id).status, _task(db, request_id).status, event.type) == (
        "failed", "failed", "launch.failed")
    assert event.data["error"] == f"gave up after {MAX_ATTEMPTS + 1} attempts: Rate exceeded"


def test_a_launch_recorded_twice_is_recorded_once(db: Engine, neighbours: Neighbours,
                                                  recorder: RecordingLauncher) -> None:
    """A worker that records again after a commit it could not confirm changes nothing the second time."""
    request_id = new_request(engine=db, policy=POLICY)
    task = claim_next_task(engine=db, worker_id="worker:1", now=NOW)
    assert task is not None
    job = begin_launch(engine=db, task=task, planner=_planner(POLICY), now=NOW)
    assert job is not None
    env = recording_environment(policy=POLICY, recorder=recorder)
    outcome = execute_launch(spec=job.spec, env=env,
                             guard=lambda: renew_lease(engine=db, task=task, worker_id="worker:1", now=NOW))
    assert record_launch(engine=db, job=job, outcome=outcome, now=NOW) is True
    first = _last_event(db, request_id)
    assert record_launch(engine=db, job=job, outcome=outcome, now=NOW + timedelta(seconds=5)) is False
    assert _last_event(db, request_id).seq == first.seq
    assert (_record(db, request_id).status, _task(db, request_id).status) == ("running", "done")


def test_an_approved_plan_that_starts_later_launches_only_from_its_start(
    db: Engine, neighbours: Neighbours, recorder: RecordingLauncher
) -> None:
    """ "once the code freeze is over on Dec 10": approved today, the plan starts Dec 10, so it launches then."""
    request_id = new_request(engine=db, policy=POLICY,
                             text="fine-tune 7B on 1B tokens once the code freeze is over on dec 10")
    start = _task(db, request_id).not_before
    assert start is not None and start.isoformat() == "2026-12-10T09:00:00+00:00"  # the request's zone: UTC
    before = WorkerContext(engine=db, planner=_planner(POLICY), worker_id="worker:1", lease_seconds=300,
                           env=recording_environment(policy=POLICY, recorder=recorder),
                           clock=lambda: start - timedelta(seconds=1))
    assert launch_once(ctx=before) is False and recorder.asked == []
    assert _task(db, request_id).status == "queued" and _record(db, request_id).status == "approved"
    claimed = claim_next_task(engine=db, worker_id="worker:1", now=start)
    assert claimed is not None and claimed.request_id == request_id
