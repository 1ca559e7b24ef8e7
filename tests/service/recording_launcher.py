"""The platform side of a launch kept in memory, so launcher tests can count what the launcher asked for.

``RecordingLauncher`` implements ``service.launch.protocol.Launcher`` the way the real ones do (look the name up,
ask the guard right before creating, take an existing job as success); ``RecordingEnvironment`` is the launch
environment of a worker whose every platform is that launcher.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field

import boto3

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from policy.decision import Platform
from service.aws.clients import ClientFactory
from service.launch.protocol import (
    Guard,
    JobState,
    JobStatus,
    Launcher,
    LaunchOutcome,
    LaunchSpec,
    LeaseLost,
    RenderedArtifact,
)
from service.launch.registry import LaunchEnvironment


@dataclass
class RecordingLauncher:
    """Jobs by name; ``asked`` is every launch the launcher was asked for, ``created`` every job it made."""

    transient_failures: int = 0  # the next this many launches answer as throttled AWS would, creating nothing
    asked: list[LaunchSpec] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    jobs: dict[str, JobStatus] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def job_names(self, spec: LaunchSpec) -> list[str]:
        return [f"gpuops-{spec.request_id.replace('_', '-')}-r{spec.revision}"]

    def render(self, spec: LaunchSpec) -> list[RenderedArtifact]:
        body = {"name": self.job_names(spec)[0], "instance_type": spec.plan.instance_type,
                "approvers": list(spec.approvers)}
        return [RenderedArtifact(kind="recorded.request", name=f"{body['name']}.json",
                                 content_type="application/json", content=json.dumps(body))]

    def launch(self, spec: LaunchSpec, *, guard: Guard) -> LaunchOutcome:
        (name,) = self.job_names(spec)
        with self.lock:
            self.asked.append(spec)
            if self.transient_failures > 0:
                self.transient_failures -= 1
                raise UpstreamError("Rate exceeded (ThrottlingException)", service="recorded",
                                    operation="CreateJob", code="throttled")
            if name not in self.jobs:
                if not guard():
                    raise LeaseLost(name)
                self.created.append(name)
                self.jobs[name] = JobStatus(name=name, state=JobState.RUNNING)
        return LaunchOutcome(job_name=name, job_status=self.jobs[name].state.value, dry_run=False,
                             external_id=f"arn:recorded:job/{name}", artifacts=self.render(spec))

    def describe(self, spec: LaunchSpec, name: str) -> JobStatus | None:
        with self.lock:
            return self.jobs.get(name)

    def stop(self, spec: LaunchSpec, name: str) -> None:
        with self.lock:
            if name in self.jobs:
                self.jobs[name] = self.jobs[name].model_copy(update={"state": JobState.STOPPING})


@dataclass(frozen=True)
class RecordingEnvironment(LaunchEnvironment):
    """A live launch environment whose every platform is ``recorder``."""

    recorder: RecordingLauncher = field(default_factory=RecordingLauncher)

    def launcher(self, platform: Platform) -> Launcher:
        return self.recorder


def recording_environment(*, policy: PolicyConfig, recorder: RecordingLauncher) -> RecordingEnvironment:
    # The client factory is never asked for a client: the recorder is every platform.
    session = boto3.Session(aws_access_key_id="testing", aws_secret_access_key="testing", region_name="us-east-1")
    factory = ClientFactory(session=session, endpoint_urls={}, max_attempts=1)
    return RecordingEnvironment(mode="live", factory=factory, policy=policy, recorder=recorder)
