"""Platforms gpuops renders manifests for but does not launch on itself (HyperPod, EC2, and EKS without a
kubeconfig): a live launch is refused with the reason, and the manifests are attached for a person to apply."""

from __future__ import annotations

from dataclasses import dataclass

from policy.config import PolicyConfig
from policy.errors import RequestError
from service.aws.sagemaker import training_job_name
from service.launch.manifests import render_artifacts
from service.launch.protocol import Guard, JobStatus, LaunchOutcome, LaunchSpec, RenderedArtifact


@dataclass(frozen=True)
class ManualLauncher:
    policy: PolicyConfig
    refusal: str  # why a live launch does not happen, ending "; the plan's manifests are attached as artifacts"

    def job_names(self, spec: LaunchSpec) -> list[str]:
        return [training_job_name(request_id=spec.request_id, revision=spec.revision)]

    def render(self, spec: LaunchSpec) -> list[RenderedArtifact]:
        return render_artifacts(plan=spec.plan, team=spec.team, team_policy=self.policy.team(spec.team),
                                job_name=self.job_names(spec)[0], request_id=spec.request_id,
                                revision=spec.revision, job=spec.job, reservation=spec.reservation,
                                tags=spec.tags(cost_center_key=self.policy.cost_center_tag))

    def launch(self, spec: LaunchSpec, *, guard: Guard) -> LaunchOutcome:  # noqa: ARG002 - nothing is created
        return LaunchOutcome(job_name=self.job_names(spec)[0], job_status="NotLaunched", dry_run=False,
                             error=self.refusal, reason="unsupported", artifacts=self.render(spec))

    def start(self, spec: LaunchSpec, request: RenderedArtifact, *, guard: Guard) -> None:  # noqa: ARG002
        raise RequestError(f"{spec.plan.platform.value} jobs are not launched by gpuops", code="not_launchable")

    def describe(self, spec: LaunchSpec, name: str) -> JobStatus | None:  # noqa: ARG002 - it never launched
        return None

    def stop(self, spec: LaunchSpec, name: str) -> None:  # noqa: ARG002 - it never launched
        raise RequestError(f"{spec.plan.platform.value} jobs are not launched by gpuops; stop this one where it runs",
                           code="not_stoppable")
