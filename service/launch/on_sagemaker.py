"""SageMaker training jobs through the launcher protocol: one CreateTrainingJob per job of the plan, each looked
up by its deterministic name before it is created."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from policy.config import PolicyConfig
from service.aws.clients import ClientFactory
from service.aws.jobstatus import read_progress
from service.aws.sagemaker import (
    JobAlreadyExists,
    build_create_training_jobs,
    create_training_job,
    describe_training_job,
    stop_training_job,
    training_job_name,
)
from service.launch.protocol import (
    Guard,
    JobState,
    JobStatus,
    LaunchOutcome,
    LaunchRejected,
    LaunchSpec,
    LeaseLost,
    RenderedArtifact,
)

log = logging.getLogger("gpuops.launch")


def _request_artifact(request: dict[str, Any]) -> RenderedArtifact:
    return RenderedArtifact("sagemaker.create-training-job", f"{request['TrainingJobName']}.create-training-job.json",
                            "application/json", json.dumps(request, indent=2, sort_keys=True))


def create_once(*, client: Any, request: dict[str, Any], guard: Guard) -> str:
    """The ARN of the job named in ``request``: the existing one if AWS has it, else a new one."""
    job_name = request["TrainingJobName"]
    existing = describe_training_job(client=client, name=job_name)
    if existing is not None:
        log.info("training job already exists, reconciling", extra={"job": job_name})
        return str(existing["TrainingJobArn"])
    if not guard():
        raise LeaseLost(job_name)
    try:
        return create_training_job(client=client, request=request)
    except JobAlreadyExists:
        found = describe_training_job(client=client, name=job_name)
        if found is None:
            raise
        return str(found["TrainingJobArn"])


@dataclass(frozen=True)
class SageMakerLauncher:
    factory: ClientFactory
    policy: PolicyConfig

    def job_names(self, spec: LaunchSpec) -> list[str]:
        """One per training job: a sweep runs each trial as its own job."""
        if spec.plan.jobs <= 1:
            return [training_job_name(request_id=spec.request_id, revision=spec.revision)]
        return [training_job_name(request_id=spec.request_id, revision=spec.revision, trial=i)
                for i in range(1, spec.plan.jobs + 1)]

    def _requests(self, spec: LaunchSpec) -> list[dict[str, Any]]:
        return build_create_training_jobs(plan=spec.plan, team=spec.team, team_policy=self.policy.team(spec.team),
                                          request_id=spec.request_id, revision=spec.revision,
                                          approvers=spec.approvers, job=spec.job,
                                          training_plan_arn=spec.reservation,
                                          tags=spec.tags(cost_center_key=self.policy.cost_center_tag))

    def render(self, spec: LaunchSpec) -> list[RenderedArtifact]:
        return [_request_artifact(r) for r in self._requests(spec)]

    def _client(self, spec: LaunchSpec) -> Any:
        return self.factory.client("sagemaker", region=spec.plan.region)

    def launch(self, spec: LaunchSpec, *, guard: Guard) -> LaunchOutcome:
        requests = self._requests(spec)
        first = requests[:spec.plan.jobs_at_once]  # the rest start as these end (``start``, by the tracker)
        client = self._client(spec)
        arns: list[str] = []
        for request in first:
            try:
                arns.append(create_once(client=client, request=request, guard=guard))
            except LaunchRejected as exc:
                if not arns:
                    raise
                # The request fails as a whole, so the trials already started must not run on untracked.
                started = [r["TrainingJobName"] for r in first[:len(arns)]]
                for started_name in started:
                    stop_training_job(client=client, name=started_name)
                raise LaunchRejected(f"{exc.message}; stopped the {len(started)} job(s) already started: "
                                     f"{', '.join(started)}", service="sagemaker", operation=exc.operation) from exc
        waiting = len(requests) - len(first)
        return LaunchOutcome(job_name=training_job_name(request_id=spec.request_id, revision=spec.revision),
                             job_status=JobState.RUNNING.value, dry_run=False, external_id=arns[0],
                             artifacts=[_request_artifact(r) for r in requests],
                             note=None if not waiting else f"started {len(first)} of {len(requests)} trials; the "
                             f"other {waiting} start one by one as these end, {len(first)} at a time as approved")

    def start(self, spec: LaunchSpec, request: RenderedArtifact, *, guard: Guard) -> None:
        create_once(client=self._client(spec), request=json.loads(request.content), guard=guard)

    def describe(self, spec: LaunchSpec, name: str) -> JobStatus | None:
        described = describe_training_job(client=self._client(spec), name=name)
        return None if described is None else read_progress(described)

    def stop(self, spec: LaunchSpec, name: str) -> None:
        """Stop the job if it is still running: a sweep's trial that has ended, or never started, is left as is
        (SageMaker refuses to stop either)."""
        client = self._client(spec)
        described = describe_training_job(client=client, name=name)
        if described is not None and not read_progress(described).final:
            stop_training_job(client=client, name=name)
