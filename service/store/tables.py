"""The tables of docs/design.md §State. Wire formats live in ``contract``; these rows never leave the service."""

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from service.clock import utcnow
from service.store.types import UTCDateTime


def _ts(*, index: bool = False) -> Any:
    return Field(default_factory=utcnow, sa_column=sa.Column(UTCDateTime(), nullable=False, index=index))


def _opt_ts() -> Any:
    return Field(default=None, sa_column=sa.Column(UTCDateTime(), nullable=True))


def _json() -> Any:
    return Field(default_factory=dict, sa_column=sa.Column(sa.JSON(), nullable=False))


def _text(*, nullable: bool = False) -> Any:
    return Field(default=None if nullable else "", sa_column=sa.Column(sa.Text(), nullable=nullable))


def _request_fk(*, unique: bool = False) -> Any:
    return Field(foreign_key="training_request.id", index=not unique, unique=unique, max_length=40)


class RequestRecord(SQLModel, table=True):
    """One training request; its plan lives in ``plan_revision`` rows, its history in ``audit_event``."""

    __tablename__ = "training_request"
    __table_args__ = (
        sa.Index("ix_training_request_created", "created_at", "id"),
        sa.Index("ix_training_request_status_expires", "status", "expires_at"),
        # the budget ledger's running and reserved room: a team's requests in a few statuses, read under the write
        # lock on every filing, found by status first without passing the team's finished history
        # (service.spend.ledger)
        sa.Index("ix_training_request_status_team", "status", "team"),
    )

    id: str = Field(primary_key=True, max_length=40)
    status: str = Field(max_length=32)  # indexed with the team (ix_training_request_status_team)
    team: str = Field(max_length=128, index=True)
    requester: str = Field(max_length=256, index=True)
    channel: str | None = Field(default=None, max_length=256)
    timezone: str = Field(default="UTC", max_length=64)
    stage: str = Field(max_length=32)
    text: str = _text()
    revision: int = 1
    approvals_needed: int = 0
    expires_at: datetime | None = _opt_ts()
    created_at: datetime = _ts()
    updated_at: datetime = _ts()
    # Approval reminders sent in the approval window that ends at ``reminded_for`` (a new window starts the count
    # again), and the window whose escalation went out: stored, so a restarted worker neither repeats nor skips one.
    reminders_sent: int = 0
    reminded_for: datetime | None = _opt_ts()
    escalated_for: datetime | None = _opt_ts()


class PlanRevision(SQLModel, table=True):
    """An immutable plan: the inputs, the decision and everything it was computed from."""

    __tablename__ = "plan_revision"
    __table_args__ = (
        sa.UniqueConstraint("request_id", "revision", name="uq_plan_revision_request_revision"),
        # today's automatic approvals, which the ledger sums for the daily caps under the write lock: a day's
        # plans approved automatically, however long the history before them (service.spend.ledger)
        sa.Index("ix_plan_revision_automatic", "approvals_needed", "created_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = _request_fk()
    revision: int
    inputs: dict[str, Any] = _json()
    training_request: dict[str, Any] = _json()
    decision: dict[str, Any] = _json()
    plan_hash: str = Field(max_length=64)
    policy_version: str = Field(max_length=64)
    price_snapshot: str = Field(max_length=128)
    spend: dict[str, Any] = _json()
    estimated_cost_usd: float
    # The larger of estimate and exposure: what an approval lets loose (the budget ledger sums it).
    judged_usd: float | None = None
    # The learnt correction the plan's hours carry (policy.calibration); None: none applied.
    calibration_factor: float | None = None
    approvals_needed: int
    denied: bool
    created_by: str = Field(max_length=256)
    created_at: datetime = _ts()


class Approval(SQLModel, table=True):
    """An approval or rejection, bound to one revision; append-only."""

    __tablename__ = "approval"
    __table_args__ = (
        sa.UniqueConstraint("request_id", "revision", "approver", name="uq_approval_request_revision_approver"),
    )

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = _request_fk()
    revision: int
    approver: str = Field(max_length=256)
    decision: str = Field(max_length=16)
    comment: str | None = _text(nullable=True)
    created_at: datetime = _ts()
    # The approver-group entry that admitted the approver when it is not their own actor id: ``usergroup:S…`` or
    # ``email:…`` as the bot vouched. It counts while the policy still lists that entry.
    eligible_via: str | None = Field(default=None, max_length=320)


class Job(SQLModel, table=True):
    """The training job launched for a request (written by the launcher and the tracker)."""

    __tablename__ = "job"

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = _request_fk(unique=True)
    revision: int
    name: str = Field(max_length=63, unique=True)
    platform: str = Field(max_length=32)
    status: str = Field(max_length=32, index=True)
    secondary_status: str | None = Field(default=None, max_length=64)
    external_id: str | None = Field(default=None, max_length=512)
    dry_run: bool = True
    estimated_cost_usd: float
    actual_cost_usd: float | None = None
    billable_seconds: int | None = None
    training_seconds: int | None = None
    spot_savings: float | None = None
    interruptions: int = 0
    # While it runs, refreshed by the tracker every round: what it has cost and is expected to cost to finish.
    cost_so_far_usd: float | None = None
    projected_cost_usd: float | None = None
    cost_as_of: datetime | None = _opt_ts()
    started_at: datetime | None = _opt_ts()
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


class LaunchTask(SQLModel, table=True):
    """Outbox row: written with the approval that makes a request launchable; a worker claims and runs it."""

    __tablename__ = "launch_task"
    __table_args__ = (sa.UniqueConstraint("request_id", "revision", name="uq_launch_task_request_revision"),)

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = _request_fk()
    revision: int
    status: str = Field(default="queued", max_length=16, index=True)  # queued | claimed | done | failed | cancelled
    attempts: int = 0
    claimed_by: str | None = Field(default=None, max_length=256)
    claimed_at: datetime | None = _opt_ts()
    # the start the approved plan was made for (its request's start_after): no worker claims the task before it
    not_before: datetime | None = _opt_ts()
    last_error: str | None = _text(nullable=True)
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


class CapacityActionRow(SQLModel, table=True):
    """An action that adds capacity for a request's plan (quota increase, capacity block, training plan): proposed,
    approved, then done exactly once (``service.capacity.actions``)."""

    __tablename__ = "capacity_action"
    __table_args__ = (sa.UniqueConstraint("request_id", "revision", "position", name="uq_capacity_action_position"),)

    id: str = Field(primary_key=True, max_length=40)
    request_id: str = _request_fk()
    revision: int
    position: int  # index into the revision's decision.capacity_actions
    kind: str = Field(max_length=32)
    action: dict[str, Any] = _json()  # the policy.capacity.CapacityAction as proposed
    # pending_approval | approved | executing | done | failed | rejected
    status: str = Field(default="pending_approval", max_length=20, index=True)
    proposed_by: str = Field(max_length=256)
    approvals_needed: int = 1
    approvers: list[str] = Field(default_factory=list, sa_column=sa.Column(sa.JSON(), nullable=False))
    attempts: int = 0
    claimed_by: str | None = Field(default=None, max_length=256)
    claimed_at: datetime | None = _opt_ts()
    result: dict[str, Any] = _json()  # what AWS answered: reservation id, training plan ARN, quota request and status
    last_error: str | None = _text(nullable=True)
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


class AuditEvent(SQLModel, table=True):
    """Append-only history chained by keyed hashes; also the events feed (``seq`` is the cursor)."""

    __tablename__ = "audit_event"

    seq: int = Field(sa_column=sa.Column(sa.BigInteger(), primary_key=True, autoincrement=False))
    request_id: str | None = Field(default=None, max_length=40, index=True)
    type: str = Field(max_length=64)
    actor: str = Field(max_length=256)
    data: dict[str, Any] = _json()
    created_at: datetime = _ts()
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64, unique=True)
    # Which audit key signed the hash (service.audit.keys.key_id); None on events from before the chain was keyed.
    key_id: str | None = Field(default=None, max_length=16)


class AuditHead(SQLModel, table=True):
    """The single chain-head row; locking it orders every append across replicas."""

    __tablename__ = "audit_head"

    id: int = Field(default=1, primary_key=True)
    seq: int = Field(default=0, sa_column=sa.Column(sa.BigInteger(), nullable=False))
    hash: str = Field(max_length=64)


class DigestRun(SQLModel, table=True):
    """One daily digest per channel and date, claimed by exactly one bot replica."""

    __tablename__ = "digest_run"
    __table_args__ = (sa.UniqueConstraint("channel", "date", name="uq_digest_run_channel_date"),)

    id: int | None = Field(default=None, primary_key=True)
    channel: str = Field(max_length=256)
    date: str = Field(max_length=10)
    team: str = Field(max_length=128)
    status: str = Field(default="claimed", max_length=16)  # claimed | done | failed
    detail: str | None = _text(nullable=True)
    claimed_by: str = Field(max_length=256)
    claimed_at: datetime = _ts()
    finished_at: datetime | None = _opt_ts()


class SlackMessage(SQLModel, table=True):
    """Where the bot posted a request, so later updates edit that message."""

    __tablename__ = "slack_message"

    request_id: str = Field(primary_key=True, foreign_key="training_request.id", max_length=40)
    channel: str = Field(max_length=256)
    ts: str = Field(max_length=64)
    updated_at: datetime = _ts()


class RequestQuestions(SQLModel, table=True):
    """What a request in ``needs_input`` asks and what it was given so far; gone once it is planned."""

    __tablename__ = "request_question"

    request_id: str = Field(primary_key=True, foreign_key="training_request.id", max_length=40)
    inputs: dict[str, Any] = _json()  # what the person gave (text, fields, time zone), answers laid over it
    questions: list[dict[str, Any]] = Field(default_factory=list, sa_column=sa.Column(sa.JSON(), nullable=False))
    training_request: dict[str, Any] = _json()  # what was read so far
    updated_at: datetime = _ts()


class ConsumerCursor(SQLModel, table=True):
    """How far a feed consumer has read."""

    __tablename__ = "consumer_cursor"

    consumer: str = Field(primary_key=True, max_length=128)
    cursor: str = Field(max_length=64)
    updated_at: datetime = _ts()


class IdempotencyKey(SQLModel, table=True):
    """An ``Idempotency-Key`` seen on ``POST /v1/requests``, per actor."""

    __tablename__ = "idempotency_key"
    __table_args__ = (sa.UniqueConstraint("scope", "key", name="uq_idempotency_scope_key"),)

    id: int | None = Field(default=None, primary_key=True)
    scope: str = Field(max_length=256)
    key: str = Field(max_length=256)
    body_hash: str = Field(max_length=64)
    request_id: str = _request_fk()
    created_at: datetime = _ts()


class Artifact(SQLModel, table=True):
    """A launch artifact: the request sent to SageMaker, a rendered manifest, a command."""

    __tablename__ = "artifact"

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = _request_fk()
    kind: str = Field(max_length=64)
    name: str = Field(max_length=256)
    content_type: str = Field(max_length=128)
    content: str = _text()
    created_at: datetime = _ts()


class AlertMark(SQLModel, table=True):
    """An alert level already reported, so that each is said once: a job's share of its estimate, a team's month
    against its budget, an anomaly Cost Explorer found. Unique per kind, subject, period and level."""

    __tablename__ = "alert_mark"
    __table_args__ = (sa.UniqueConstraint("kind", "subject", "period", "level", name="uq_alert_mark"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=32)  # job_cost | budget | anomaly | commitment | anomaly_monitor
    subject: str = Field(max_length=256)  # request id, team, anomaly id
    period: str = Field(default="", max_length=16)  # e.g. the month, 2026-11; "" when once for ever
    level: str = Field(max_length=256)  # the percent level, or the anomaly's / monitor's id
    detail: dict[str, Any] = _json()
    created_at: datetime = _ts()
class EstimateOutcome(SQLModel, table=True):
    """A finished job's actual hours and cost against its estimate, with the inputs that produced the estimate."""

    __tablename__ = "estimate_outcome"

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = _request_fk(unique=True)
    job_name: str = Field(max_length=63)
    status: str = Field(max_length=32)  # the job's final status; only completed jobs teach the calibration
    team: str = Field(max_length=128, index=True)
    platform: str = Field(max_length=32)
    instance_type: str = Field(max_length=64)
    family: str = Field(max_length=32)
    accelerator: str = Field(max_length=64)
    accelerators: int
    instance_count: int
    task: str = Field(max_length=32)
    params: float
    size_band: str = Field(max_length=16)
    tokens: float
    seq_len: int
    recipe: str | None = Field(default=None, max_length=256)
    estimated_hours: float  # as planned, with any correction applied
    calibration_factor: float = 1.0  # the correction the estimate carried: raw estimate = estimated / factor
    actual_hours: float
    hours_basis: str = Field(max_length=32)  # training_seconds | wall_clock | stated_length (teaches nothing)
    estimated_cost_usd: float
    actual_cost_usd: float | None = None
    finished_at: datetime = _ts(index=True)


class IdleWatch(SQLModel, table=True):
    """GPU utilisation of one live job: whether it is in an idle episode, when it was alerted, who silenced it."""

    __tablename__ = "idle_watch"

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = _request_fk(unique=True)
    job_name: str = Field(max_length=63)
    idle: bool = False
    idle_since: datetime | None = _opt_ts()
    alerted_at: datetime | None = _opt_ts()
    episodes: int = 0  # idle episodes alerted so far
    last_utilisation: float | None = None  # percent, mean over the last window read
    silenced_by: str | None = Field(default=None, max_length=256)
    silenced_at: datetime | None = _opt_ts()
    updated_at: datetime = _ts()
