"""EKS through the launcher protocol: a Kubeflow ``PyTorchJob`` (plus the Karpenter ``NodePool`` it schedules on)
created through the Kubernetes API of the configured kubeconfig.

The job's name is deterministic and looked up before it is created, a 409 AlreadyExists is the job we meant, its
status is read from the PyTorchJob's conditions, and stopping it is deleting it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import yaml
from kubernetes import client as k8s
from kubernetes import config as k8s_config
from kubernetes.client.exceptions import ApiException
from urllib3.exceptions import HTTPError

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from policy.errors import RequestError
from service.aws.sagemaker import training_job_name
from service.launch.manifests import render_artifacts
from service.launch.protocol import (
    Guard,
    JobState,
    JobStatus,
    LaunchOutcome,
    LaunchRejected,
    LaunchSpec,
    LeaseLost,
    RenderedArtifact,
    Transition,
)

log = logging.getLogger("gpuops.launch")
GROUP, VERSION, PLURAL = "kubeflow.org", "v1", "pytorchjobs"
# Kubernetes' answers that say the object as sent is wrong or not allowed: sending it again cannot help.
REJECTING_STATUSES = frozenset({400, 403, 422})
CONDITION_STATES = {"Created": JobState.RUNNING, "Running": JobState.RUNNING, "Restarting": JobState.RUNNING,
                    "Succeeded": JobState.SUCCEEDED, "Failed": JobState.FAILED}


def _upstream(exc: ApiException | HTTPError, operation: str) -> UpstreamError:
    if isinstance(exc, ApiException):
        message = _api_message(exc)
        if exc.status in REJECTING_STATUSES:
            return LaunchRejected(message, service="eks", operation=operation)
        return UpstreamError(message, service="eks", operation=operation, code="kubernetes_error")
    return UpstreamError(f"the Kubernetes API did not answer: {type(exc).__name__}", service="eks",
                         operation=operation, code="kubernetes_error")


def _api_message(exc: ApiException) -> str:
    try:
        detail = str(json.loads(exc.body or "{}").get("message", ""))
    except (ValueError, AttributeError):
        detail = ""
    return f"{exc.status} {exc.reason}" + (f": {detail}" if detail else "")


def _time(value: object) -> datetime | None:
    return datetime.fromisoformat(str(value)) if value else None


def _transition(condition: dict[str, Any]) -> Transition:
    return Transition(status=str(condition["type"]), start_time=datetime.fromisoformat(condition["lastTransitionTime"]),
                      message=str(condition.get("message") or ""))


def read_pytorchjob(body: dict[str, Any]) -> JobStatus:
    """A ``JobStatus`` from a PyTorchJob: the latest true condition says where it is."""
    status = body.get("status") or {}
    conditions = [c for c in status.get("conditions") or [] if c.get("lastTransitionTime")]
    conditions.sort(key=lambda c: str(c["lastTransitionTime"]))
    current = next((c for c in reversed(conditions) if c.get("status") == "True"), None)
    kind = str(current["type"]) if current else "Created"
    state = CONDITION_STATES.get(kind, JobState.RUNNING)
    if (body.get("metadata") or {}).get("deletionTimestamp") and state not in (JobState.SUCCEEDED, JobState.FAILED):
        state = JobState.STOPPING
    start, end = _time(status.get("startTime")), _time(status.get("completionTime"))
    replicas = body.get("spec", {}).get("pytorchReplicaSpecs", {})
    return JobStatus(
        name=str(body["metadata"]["name"]), state=state, secondary_status=kind,
        instance_count=sum(int(r.get("replicas", 1)) for r in replicas.values()) or 1,
        training_seconds=int((end - start).total_seconds()) if start and end else None,
        started_at=start,
        failure_reason=str(current.get("message") or current.get("reason")) if current and kind == "Failed" else None,
        transitions=[_transition(c) for c in conditions],
    )


@dataclass(frozen=True)
class EksLauncher:
    kubeconfig: str
    policy: PolicyConfig

    def job_names(self, spec: LaunchSpec) -> list[str]:
        # Kubernetes names are lower-case DNS labels; the name is otherwise SageMaker's, just as deterministic.
        return [training_job_name(request_id=spec.request_id, revision=spec.revision).lower()]

    def _namespace(self, spec: LaunchSpec) -> str:
        return self.policy.team(spec.team).launch.eks_namespace

    def render(self, spec: LaunchSpec) -> list[RenderedArtifact]:
        return render_artifacts(plan=spec.plan, team=spec.team, team_policy=self.policy.team(spec.team),
                                job_name=self.job_names(spec)[0], request_id=spec.request_id,
                                revision=spec.revision, job=spec.job, reservation=spec.reservation,
                                tags=spec.tags(cost_center_key=self.policy.cost_center_tag))

    def _api(self) -> Any:
        # A client of its own per call: no process-wide configuration is loaded or changed.
        return k8s.CustomObjectsApi(k8s_config.new_client_from_config(config_file=self.kubeconfig))

    def _get(self, api: Any, namespace: str, name: str) -> dict[str, Any] | None:
        try:
            found: dict[str, Any] = api.get_namespaced_custom_object(GROUP, VERSION, namespace, PLURAL, name)
        except ApiException as exc:
            if exc.status == 404:
                return None
            raise _upstream(exc, "GetPyTorchJob") from exc
        except HTTPError as exc:
            raise _upstream(exc, "GetPyTorchJob") from exc
        return found

    def launch(self, spec: LaunchSpec, *, guard: Guard) -> LaunchOutcome:
        artifacts = self.render(spec)
        name, namespace, api = self.job_names(spec)[0], self._namespace(spec), self._api()
        job = self._get(api, namespace, name)
        if job is not None:
            log.info("PyTorchJob already exists, reconciling", extra={"job": name})
        else:
            if not guard():
                raise LeaseLost(name)
            job = self._create(api, namespace, name, artifacts)
        return LaunchOutcome(job_name=name, job_status=JobState.RUNNING.value, dry_run=False,
                             external_id=f"{namespace}/{name}", artifacts=artifacts,
                             note=f"PyTorchJob {namespace}/{name} created in the cluster of the configured kubeconfig")

    def _create(self, api: Any, namespace: str, name: str, artifacts: list[RenderedArtifact]) -> dict[str, Any]:
        bodies = {a.kind: yaml.safe_load(a.content) for a in artifacts}
        try:
            # NodePools are shared by every job of the same type and capacity: one that exists is the one we need.
            self._create_ignoring_conflict(lambda: api.create_cluster_custom_object(
                "karpenter.sh", "v1", "nodepools", bodies["eks.nodepool"]))
            created = self._create_ignoring_conflict(lambda: api.create_namespaced_custom_object(
                GROUP, VERSION, namespace, PLURAL, bodies["eks.pytorchjob"]))
        except (ApiException, HTTPError) as exc:
            raise _upstream(exc, "CreatePyTorchJob") from exc
        return created if created is not None else self._get(api, namespace, name) or {}

    @staticmethod
    def _create_ignoring_conflict(create: Any) -> dict[str, Any] | None:
        try:
            return dict(create())
        except ApiException as exc:
            if exc.status == 409:  # AlreadyExists: created by an earlier attempt
                return None
            raise

    def start(self, spec: LaunchSpec, request: RenderedArtifact, *, guard: Guard) -> None:  # noqa: ARG002
        raise RequestError("an EKS launch is one PyTorchJob, created whole by launch", code="not_launchable")

    def describe(self, spec: LaunchSpec, name: str) -> JobStatus | None:
        found = self._get(self._api(), self._namespace(spec), name)
        return None if found is None else read_pytorchjob(found)

    def stop(self, spec: LaunchSpec, name: str) -> None:
        try:
            self._api().delete_namespaced_custom_object(GROUP, VERSION, self._namespace(spec), PLURAL, name)
        except ApiException as exc:
            if exc.status != 404:
                raise _upstream(exc, "DeletePyTorchJob") from exc
        except HTTPError as exc:
            raise _upstream(exc, "DeletePyTorchJob") from exc
