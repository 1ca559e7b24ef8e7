"""Which launcher serves which platform, and one launch carried out through it (live or dry run)."""

from __future__ import annotations

from dataclasses import dataclass

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from policy.decision import Platform
from policy.errors import RequestError
from service.aws.clients import ClientFactory
from service.aws.sagemaker import training_job_name
from service.launch.artifacts_only import ManualLauncher
from service.launch.on_sagemaker import SageMakerLauncher
from service.launch.protocol import Guard, Launcher, LaunchOutcome, LaunchRejected, LaunchSpec

ATTACHED = "the plan's manifests are attached as artifacts"


@dataclass(frozen=True)
class LaunchEnvironment:
    mode: str  # "dry-run" | "live"
    factory: ClientFactory
    policy: PolicyConfig
    kubeconfig: str | None = None

    @property
    def live(self) -> bool:
        return self.mode == "live"

    def launcher(self, platform: Platform) -> Launcher:
        if platform is Platform.SAGEMAKER:
            return SageMakerLauncher(factory=self.factory, policy=self.policy)
        if platform is Platform.EKS and self.kubeconfig:
            from service.launch.on_eks import EksLauncher  # the Kubernetes client loads only where it is used

            return EksLauncher(kubeconfig=self.kubeconfig, policy=self.policy)
        if platform is Platform.EKS:
            return ManualLauncher(policy=self.policy,
                                  refusal=f"live launches on eks need GPUOPS_KUBECONFIG set; {ATTACHED}")
        return ManualLauncher(policy=self.policy,
                              refusal=f"live launches on {platform.value} are not supported; {ATTACHED}")


def execute_launch(*, spec: LaunchSpec, env: LaunchEnvironment, guard: Guard) -> LaunchOutcome:
    """Launch ``spec``, or in dry-run mode record what would have been sent; refusals come back as an outcome with
    ``error``, transient trouble raises ``UpstreamError`` (the caller retries later) and a lost claim raises
    ``LeaseLost``."""
    name = training_job_name(request_id=spec.request_id, revision=spec.revision)
    launcher = env.launcher(spec.plan.platform)
    try:
        if not env.live:
            names = launcher.job_names(spec)  # a sweep's row is named for the request, its trials add -t<n>
            return LaunchOutcome(job_name=names[0] if len(names) == 1 else name, job_status="DryRun", dry_run=True,
                                 artifacts=launcher.render(spec),
                                 note="dry run (GPUOPS_LAUNCH=dry-run): the request that would have been sent is "
                                      "attached; nothing was sent")
        return launcher.launch(spec, guard=guard)
    except RequestError as exc:  # launch not configured for the team
        return LaunchOutcome(job_name=name, job_status="NotLaunched", dry_run=not env.live, error=exc.message,
                             reason="not_configured")
    except LaunchRejected as exc:
        return LaunchOutcome(job_name=name, job_status="Rejected", dry_run=False, error=exc.message,
                             reason="rejected")
    except UpstreamError as exc:
        if exc.code == "aws_credentials":
            return LaunchOutcome(job_name=name, job_status="NotLaunched", dry_run=False,
                                 error=f"launch refused: {exc.message}", reason="credentials")
        raise
