"""The launcher protocol and the values a launcher returns.

Every platform gpuops launches on implements ``Launcher``: render the exact request(s) for a plan, create the job
exactly once under a deterministic name, describe it, stop it. The launcher (``service.launch.outbox``), the tracker and
the stop route drive platforms only through it, and the values here are all they get back, so the platform
adapters never import the code that orchestrates them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from contract.errors import UpstreamError
from policy.decision import Plan
from policy.jobspec import JobSpec

Guard = Callable[[], bool]  # renews the launcher's claim right before an irreversible call; False: claim lost


class LaunchRejected(UpstreamError):
    """The platform refused the request as sent (validation, limits, permissions); retrying it cannot help."""

    code = "launch_rejected"


class LeaseLost(Exception):
    """Another worker took the launch over; this one must not create anything."""


@dataclass(frozen=True)
class LaunchSpec:
    """What one approved revision asks a platform to run."""

    request_id: str
    revision: int
    team: str
    plan: Plan
    approvers: Sequence[str] = ()
    job: JobSpec | None = None  # the approved recipe, image, data and hyperparameters; None: the launch profile's
    # Reserved capacity bought for this request that the launch runs in: a capacity block's reservation id
    # (cr-…, EC2/EKS/HyperPod) or a SageMaker training plan's ARN (ResourceConfig.TrainingPlanArn).
    reservation: str | None = None
    cost_center: str | None = None  # who pays, as the approved request names it: a tag on what is launched

    def tags(self, *, cost_center_key: str) -> dict[str, str]:
        """The tags the approved request adds to what is launched (its cost center under the policy's key)."""
        return {cost_center_key: self.cost_center} if self.cost_center else {}


@dataclass(frozen=True)
class RenderedArtifact:
    """A request or manifest kept with the request (the exact thing sent, or to be applied by hand)."""

    kind: str
    name: str
    content_type: str
    content: str


@dataclass
class LaunchOutcome:
    job_name: str
    job_status: str  # a JobState value once created, or DryRun / NotLaunched / Rejected
    dry_run: bool  # nothing was sent: the request ends in dry_run, with nothing to track
    external_id: str | None = None
    error: str | None = None
    artifacts: list[RenderedArtifact] = field(default_factory=list)
    note: str | None = None
    reason: str | None = None  # why it failed, as a short label: rejected, not_configured, unsupported, ...


class JobState(StrEnum):
    """Where a job is, on any platform. The values are the job statuses stored on job rows and shown in Slack
    (SageMaker's words, which were gpuops' first); the platform's own word is ``JobStatus.secondary_status``."""

    RUNNING = "InProgress"
    STOPPING = "Stopping"
    SUCCEEDED = "Completed"
    FAILED = "Failed"
    STOPPED = "Stopped"


FINAL_STATES = frozenset({JobState.SUCCEEDED, JobState.FAILED, JobState.STOPPED})
INTERRUPTED = "Interrupted"
RESTARTING = "Restarting"


class Transition(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: str
    start_time: datetime
    end_time: datetime | None = None
    message: str = ""


class JobStatus(BaseModel):
    """One reading of one job."""

    model_config = ConfigDict(frozen=True)

    name: str
    state: JobState
    secondary_status: str | None = None
    instance_count: int = 1
    spot: bool = False
    billable_seconds: int | None = None  # None where the platform does not bill per job (EKS: the nodes are)
    training_seconds: int | None = None
    started_at: datetime | None = None  # when training (and billing) began; None while still starting
    failure_reason: str | None = None
    transitions: list[Transition] = Field(default_factory=list)
    # The last value of each metric the recipe's definitions read from the log (tokens_per_second, train_loss).
    metrics: dict[str, float] = Field(default_factory=dict)

    @property
    def final(self) -> bool:
        return self.state in FINAL_STATES

    @property
    def interruptions(self) -> int:
        return sum(1 for t in self.transitions if t.status == INTERRUPTED)

    @property
    def restarts(self) -> int:
        return sum(1 for t in self.transitions if t.status == RESTARTING)


class Launcher(Protocol):
    """One platform's way to run an approved plan."""

    def job_names(self, spec: LaunchSpec) -> list[str]:
        """The deterministic name of each job the plan runs (a pure function of request id, revision, trial)."""
        ...

    def render(self, spec: LaunchSpec) -> list[RenderedArtifact]:
        """The exact request(s) a live launch sends; ``RequestError`` when the team's launch profile is
        incomplete."""
        ...

    def launch(self, spec: LaunchSpec, *, guard: Guard) -> LaunchOutcome:
        """Create the jobs that run first (every job, or a sweep's first ``Plan.jobs_at_once``) exactly once: look each
        name up first, create only what is missing (asking ``guard`` right before), and take "already exists" as
        success with the existing job. The outcome's artifacts are every job's request, later ones included.
        ``LaunchRejected`` for refusals, ``UpstreamError`` for transient trouble, ``LeaseLost`` when ``guard`` says
        no."""
        ...

    def start(self, spec: LaunchSpec, request: RenderedArtifact, *, guard: Guard) -> None:
        """Create a later job of the plan (a sweep's next trial) from the request ``launch`` rendered for it, exactly
        once as ``launch`` does. Asked only of launchers whose plans run jobs one after another."""
        ...

    def describe(self, spec: LaunchSpec, name: str) -> JobStatus | None:
        """The job's status now; None when the platform has no job of that name."""
        ...

    def stop(self, spec: LaunchSpec, name: str) -> None:
        """Ask the platform to stop the job (a job already gone is not an error)."""
        ...
