"""Carry out one approved launch on its platform: SageMaker (live or dry run), or rendered artifacts.

The SageMaker path looks each deterministic job name up before creating it, and asks ``guard`` (which renews the
launcher's claim) right before the irreversible call, so a worker that lost its claim never creates anything.
"""

from __future__ import annotations

import importlib.util
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from policy.decision import Platform
from policy.errors import RequestError
from service.aws.clients import ClientFactory
from service.aws.sagemaker import (
    JobAlreadyExists,
    LaunchRejected,
    build_create_training_jobs,
    create_training_job,
    describe_training_job,
    stop_training_job,
    training_job_name,
)
from service.launch import LaunchJob, LaunchOutcome
from service.manifests import RenderedArtifact, render_artifacts

log = logging.getLogger("gpuops.launch")


class LeaseLost(Exception):
    """Another worker took the task over; this one must not create anything."""


@dataclass(frozen=True)
class LaunchEnvironment:
    mode: str  # "dry-run" | "live"
    factory: ClientFactory
    policy: PolicyConfig
    kubeconfig: str | None = None


def execute_launch(*, job: LaunchJob, env: LaunchEnvironment, guard: Callable[[], bool]) -> LaunchOutcome:
    """Launch ``job``; AWS refusals come back as an outcome with ``error``, transient trouble raises
    ``UpstreamError`` (the caller retries later) and a lost claim raises ``LeaseLost``."""
    name = training_job_name(request_id=job.task.request_id, revision=job.task.revision)
    try:
        if job.platform is Platform.SAGEMAKER:
            return _launch_sagemaker(job, env, guard, name)
        return _launch_rendered(job, env, name)
    except RequestError as exc:  # launch not configured for the team
        return LaunchOutcome(job_name=name, job_status="NotLaunched", dry_run=env.mode != "live", error=exc.message,
                             reason="not_configured")
    except LaunchRejected as exc:
        return LaunchOutcome(job_name=name, job_status="Rejected", dry_run=False, error=exc.message,
                             reason="rejected")
    except UpstreamError as exc:
        if exc.code == "aws_credentials":
            return LaunchOutcome(job_name=name, job_status="NotLaunched", dry_run=False,
                                 error=f"launch refused: {exc.message}", reason="credentials")
        raise


def _request_artifact(request: dict[str, Any]) -> RenderedArtifact:
    return RenderedArtifact("sagemaker.create-training-job", f"{request['TrainingJobName']}.create-training-job.json",
                            "application/json", json.dumps(request, indent=2, sort_keys=True))


def _launch_sagemaker(job: LaunchJob, env: LaunchEnvironment, guard: Callable[[], bool], name: str) -> LaunchOutcome:
    team_policy = env.policy.team(job.team)
    requests = build_create_training_jobs(plan=job.decision.plan, team=job.team, team_policy=team_policy,
                                          request_id=job.task.request_id, revision=job.task.revision,
                                          approvers=job.approvers)
    artifacts = [_request_artifact(r) for r in requests]
    if env.mode != "live":
        return LaunchOutcome(job_name=name, job_status="DryRun", dry_run=True, final=True, artifacts=artifacts,
                             note="dry run (GPUOPS_LAUNCH=dry-run): the request was recorded, nothing was sent")
    client = env.factory.client("sagemaker", region=job.decision.plan.region)
    arns: list[str] = []
    for request in requests:
        try:
            arns.append(create_once(client=client, request=request, guard=guard))
        except LaunchRejected as exc:
            if not arns:
                raise
            # The request fails as a whole, so the trials already started must not run on untracked.
            started = [r["TrainingJobName"] for r in requests[:len(arns)]]
            for started_name in started:
                stop_training_job(client=client, name=started_name)
            raise LaunchRejected(f"{exc.message}; stopped the {len(started)} job(s) already started: "
                                 f"{', '.join(started)}", service="sagemaker", operation=exc.operation) from exc
    return LaunchOutcome(job_name=name, job_status="InProgress", dry_run=False, external_id=arns[0],
                         artifacts=artifacts)


def create_once(*, client: Any, request: dict[str, Any], guard: Callable[[], bool]) -> str:
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


def _launch_rendered(job: LaunchJob, env: LaunchEnvironment, name: str) -> LaunchOutcome:
    team_policy = env.policy.team(job.team)
    artifacts = render_artifacts(plan=job.decision.plan, team=job.team, team_policy=team_policy, job_name=name,
                                 request_id=job.task.request_id, revision=job.task.revision)
    if job.platform is Platform.EKS and env.kubeconfig and env.mode == "live":
        return _apply_eks(env, name, artifacts)
    where = {Platform.EKS: "kubectl apply -f", Platform.HYPERPOD: "sbatch", Platform.EC2: "the AWS CLI"}
    return LaunchOutcome(job_name=name, job_status="Rendered", dry_run=True, final=True, artifacts=artifacts,
                         note=f"rendered for {job.platform.value}; apply with {where.get(job.platform, 'its tool')}")


def _apply_eks(env: LaunchEnvironment, name: str, artifacts: list[RenderedArtifact]) -> LaunchOutcome:
    if importlib.util.find_spec("kubernetes") is None:
        return LaunchOutcome(job_name=name, job_status="Rendered", dry_run=True, final=True, artifacts=artifacts,
                             note="a kubeconfig is set but the kubernetes package is not installed; "
                                  "apply the manifests with kubectl")
    import yaml
    from kubernetes import client as k8s  # type: ignore[import-not-found,import-untyped,unused-ignore]
    from kubernetes import config as k8s_config  # type: ignore[import-not-found,import-untyped,unused-ignore]

    k8s_config.load_kube_config(config_file=env.kubeconfig)
    api = k8s.CustomObjectsApi()
    for artifact in artifacts:
        body = yaml.safe_load(artifact.content)
        if body["kind"] == "NodePool":
            api.create_cluster_custom_object("karpenter.sh", "v1", "nodepools", body)
    job_body = yaml.safe_load(next(a.content for a in artifacts if a.kind == "eks.pytorchjob"))
    api.create_namespaced_custom_object("kubeflow.org", "v1", job_body["metadata"]["namespace"], "pytorchjobs",
                                        job_body)
    return LaunchOutcome(job_name=name, job_status="Submitted", dry_run=False, artifacts=artifacts,
                         note="applied to the cluster in the configured kubeconfig")
