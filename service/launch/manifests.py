"""Launch artifacts for the platforms gpuops does not call directly: EKS, HyperPod and plain EC2.

Rendered from the approved plan and the team's launch profile as text a person (or ``kubectl``/``sbatch``/the AWS
CLI) can apply: a Kubeflow ``PyTorchJob`` plus a Karpenter ``NodePool`` for EKS, a Slurm batch script for HyperPod,
and a launch template plus a spot-fleet request for EC2.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from policy.config import LaunchProfile, TeamPolicy
from policy.decision import Plan, Platform, PurchaseModel
from policy.errors import RequestError
from policy.jobspec import JobSpec, container_arguments, container_environment, plan_environment
from service.aws.sagemaker import runtime_seconds
from service.launch.protocol import RenderedArtifact

DLAMI_SSM = "resolve:ssm:/aws/service/deeplearning/ami/x86_64/base-oss-nvidia-driver-gpu-ubuntu-22.04/latest/ami-id"
NEURON_DLAMI_SSM = "resolve:ssm:/aws/service/neuron/dlami/multi-framework/ubuntu-22.04/latest/image_id"
CHECKPOINT_DIR = "/checkpoints"


@dataclass(frozen=True)
class LaunchContext:
    plan: Plan
    team: str
    profile: LaunchProfile
    job_name: str
    request_id: str
    revision: int
    job: JobSpec | None = None  # the approved recipe: its image, command, arguments and environment

    @property
    def image(self) -> str:
        return self.job.image if self.job is not None else str(self.profile.image)

    def command(self) -> list[str] | None:
        """The approved job's command and arguments (None: the image's own entry point, as before recipes).
        torchrun reads the node count, rank and rendezvous from the environment the platform sets."""
        if self.job is None:
            return None
        launcher = ["torchrun", f"--nproc_per_node={self.per_instance}"] if self.job.distribution != "none" \
            else ["python"]
        return [*launcher, self.job.entry_point, *container_arguments(self.job)]
    reservation: str | None = None  # a capacity block (cr-…) the instances run in
    tags: Mapping[str, str] = field(default_factory=dict)  # the approved request's own (its cost center)

    @property
    def block(self) -> bool:
        """Whether the instances run in a capacity block bought for the request."""
        return self.reservation is not None and self.reservation.startswith("cr-")

    @property
    def per_instance(self) -> int:
        return max(1, self.plan.accelerators // max(1, self.plan.instance_count))

    @property
    def neuron(self) -> bool:
        return self.plan.accelerator.lower().startswith("trainium")

    @property
    def device_resource(self) -> str:
        return "aws.amazon.com/neuron" if self.neuron else "nvidia.com/gpu"

    @property
    def spot(self) -> bool:
        return self.plan.purchase_model is PurchaseModel.SPOT

    @property
    def checkpoint_uri(self) -> str | None:
        base = self.profile.s3_checkpoints
        return f"{base.rstrip('/')}/{self.job_name}/" if base else None

    def env(self) -> dict[str, str]:
        values = {"GPUOPS_REQUEST_ID": self.request_id, "GPUOPS_REVISION": str(self.revision)}
        if self.job is not None:  # the same variables SageMaker's job gets (docs/training-contract.md)
            values = container_environment(self.job, request_id=self.request_id, revision=self.revision,
                                           checkpoint_minutes=self.plan.checkpoint_interval_minutes,
                                           checkpoint_dir=CHECKPOINT_DIR, context_parallel=self.plan.context_parallel,
                                           precision=self.plan.precision)
            values["GPUOPS_DATASET_URI"] = self.job.dataset
            if self.job.source is not None:
                values["GPUOPS_SOURCE_URI"] = self.job.source
        values |= plan_environment(checkpoint_minutes=self.plan.checkpoint_interval_minutes,
                                   context_parallel=self.plan.context_parallel, precision=self.plan.precision)
        if self.checkpoint_uri:
            values["GPUOPS_CHECKPOINT_S3_URI"] = self.checkpoint_uri
        return values

    def labels(self) -> dict[str, str]:
        # a tag's key is a label key's name part as it is a value's: alphanumerics, '-', '_', '.', at most 63
        return {**{_label(k): _label(v) for k, v in self.tags.items()},
                "gpuops/team": _label(self.team), "gpuops/request": _label(self.request_id),
                "gpuops/revision": str(self.revision)}


def _label(value: str) -> str:
    """A Kubernetes label value: alphanumerics, '-', '_', '.', at most 63, alphanumeric at both ends."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", value)[:63].strip("-_.") or "x"


def _dns_name(value: str) -> str:
    return re.sub(r"[^a-z0-9-]", "-", value.lower()).strip("-")[:63]


def nodepool_name(ctx: LaunchContext) -> str:
    capacity = "spot" if ctx.spot else "on-demand"
    return _dns_name(f"gpuops-{ctx.plan.instance_type}-{capacity}")


def _pod_template(ctx: LaunchContext) -> dict[str, Any]:
    return {
        "metadata": {"labels": ctx.labels()},
        "spec": {
            "nodeSelector": {"karpenter.sh/nodepool": nodepool_name(ctx),
                             "node.kubernetes.io/instance-type": ctx.plan.instance_type},
            "tolerations": [{"key": ctx.device_resource, "operator": "Exists", "effect": "NoSchedule"}],
            "containers": [{
                "name": "pytorch",  # the training operator requires this container name
                "image": ctx.image,
                **({"command": ctx.command()} if ctx.job is not None else {}),
                "env": [{"name": k, "value": v} for k, v in ctx.env().items()],
                "resources": {"limits": {ctx.device_resource: ctx.per_instance}},
                "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}],
            }],
            "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory"}}],
        },
    }


def render_pytorchjob(ctx: LaunchContext) -> str:
    """A Kubeflow training-operator PyTorchJob: one master and ``instance_count - 1`` workers."""
    replica = {"restartPolicy": "OnFailure", "template": _pod_template(ctx)}
    specs: dict[str, Any] = {"Master": {"replicas": 1, **replica}}
    if ctx.plan.instance_count > 1:
        specs["Worker"] = {"replicas": ctx.plan.instance_count - 1, **replica}
    job = {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": {"name": ctx.job_name, "namespace": ctx.profile.eks_namespace, "labels": ctx.labels()},
        "spec": {
            # spot nodes come and go: allow restarts (the job resumes from its checkpoint)
            "runPolicy": {"backoffLimit": 20 if ctx.spot else 3, "activeDeadlineSeconds": runtime_seconds(ctx.plan),
                          "cleanPodPolicy": "None"},
            "nprocPerNode": str(ctx.per_instance),
            "pytorchReplicaSpecs": specs,
        },
    }
    return yaml.safe_dump(job, sort_keys=False)


def render_nodepool(ctx: LaunchContext) -> str:
    """A Karpenter NodePool offering exactly the plan's instance type and capacity type; with a capacity block, only
    nodes of that reservation (Karpenter's ``reserved`` capacity type; the EC2NodeClass must select the
    reservation in its ``capacityReservationSelectorTerms``)."""
    capacity = "reserved" if ctx.block else "spot" if ctx.spot else "on-demand"
    pool = {
        "apiVersion": "karpenter.sh/v1",
        "kind": "NodePool",
        "metadata": {"name": nodepool_name(ctx), "labels": {"gpuops/team": _label(ctx.team)}},
        "spec": {
            "template": {
                "metadata": {"labels": {"gpuops/capacity": capacity}},
                "spec": {
                    "requirements": [
                        {"key": "node.kubernetes.io/instance-type", "operator": "In",
                         "values": [ctx.plan.instance_type]},
                        {"key": "karpenter.sh/capacity-type", "operator": "In", "values": [capacity]},
                        {"key": "topology.kubernetes.io/region", "operator": "In", "values": [ctx.plan.region]},
                        *([{"key": "karpenter.k8s.aws/capacity-reservation-id", "operator": "In",
                            "values": [ctx.reservation]}] if ctx.block else []),
                    ],
                    "nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "gpuops-gpu"},
                    "taints": [{"key": ctx.device_resource, "effect": "NoSchedule"}],
                    "expireAfter": "720h",
                },
            },
            "limits": {ctx.device_resource: ctx.plan.accelerators},
            "disruption": {"consolidationPolicy": "WhenEmpty", "consolidateAfter": "10m"},
        },
    }
    return yaml.safe_dump(pool, sort_keys=False)


def _hms(seconds: int) -> str:
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def render_slurm_script(ctx: LaunchContext) -> str:
    """A HyperPod Slurm batch script: one task per node, torchrun across nodes, auto-resume from checkpoints."""
    env = {**ctx.env(), "GPUOPS_CHECKPOINT_DIR": CHECKPOINT_DIR}
    lines = [
        "#!/bin/bash",
        f"#SBATCH --job-name={ctx.job_name}",
        f"#SBATCH --nodes={ctx.plan.instance_count}",
        "#SBATCH --ntasks-per-node=1",
        "#SBATCH --exclusive",
        f"#SBATCH --time={_hms(runtime_seconds(ctx.plan))}",
        "#SBATCH --output=%x-%j.out",
        f"# gpuops: team {ctx.team}, request {ctx.request_id} revision {ctx.revision}, "
        f"{ctx.plan.instance_count} x {ctx.plan.instance_type}"
        + (f" on HyperPod cluster {ctx.profile.hyperpod_cluster}" if ctx.profile.hyperpod_cluster else ""),
        "set -euo pipefail",
        *(f"export {k}={shlex.quote(v)}" for k, v in env.items()),
        'MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)',
        "export MASTER_ADDR MASTER_PORT=29500",
        "srun --auto-resume=1 --container-image=" + shlex.quote(ctx.image)
        + f" --container-mounts={CHECKPOINT_DIR}:{CHECKPOINT_DIR} \\",
        f"  torchrun --nnodes=\"$SLURM_NNODES\" --nproc_per_node={ctx.per_instance} \\",
        '  --rdzv_id="$SLURM_JOB_ID" --rdzv_backend=c10d --rdzv_endpoint="$MASTER_ADDR:$MASTER_PORT" \\',
        "  " + (" ".join(shlex.quote(a) for a in [ctx.job.entry_point, *container_arguments(ctx.job)])
                if ctx.job is not None else "/opt/train/entrypoint.py"),
    ]
    return "\n".join(lines) + "\n"


def _user_data(ctx: LaunchContext) -> str:
    env_flags = " ".join(f"-e {k}={shlex.quote(v)}" for k, v in ctx.env().items())
    script = "\n".join([
        "#!/bin/bash", "set -euo pipefail",
        f"docker run --gpus all --network host --ipc host {env_flags} {shlex.quote(ctx.image)}"
        + "".join(f" {shlex.quote(a)}" for a in (ctx.command() or [])),
    ])
    return base64.b64encode((script + "\n").encode()).decode()


def _tags(ctx: LaunchContext) -> list[dict[str, str]]:
    own = [{"Key": "gpuops:team", "Value": ctx.team}, {"Key": "gpuops:request", "Value": ctx.request_id},
           {"Key": "gpuops:revision", "Value": str(ctx.revision)}, {"Key": "Name", "Value": ctx.job_name}]
    taken = {t["Key"] for t in own}
    return [{"Key": k, "Value": v} for k, v in ctx.tags.items() if k not in taken] + own


def render_launch_template(ctx: LaunchContext) -> str:
    """EC2 CreateLaunchTemplate parameters: Deep Learning AMI, the instance type, EFA when the VPC is known."""
    data: dict[str, Any] = {
        "ImageId": NEURON_DLAMI_SSM if ctx.neuron else DLAMI_SSM,
        "InstanceType": ctx.plan.instance_type,
        "UserData": _user_data(ctx),
        "MetadataOptions": {"HttpTokens": "required"},
        "BlockDeviceMappings": [{"DeviceName": "/dev/sda1", "Ebs": {"VolumeSize": 500, "VolumeType": "gp3"}}],
        "TagSpecifications": [{"ResourceType": "instance", "Tags": _tags(ctx)}],
    }
    if ctx.profile.vpc is not None:
        data["NetworkInterfaces"] = [{"DeviceIndex": 0, "Groups": list(ctx.profile.vpc.security_group_ids),
                                      "DeleteOnTermination": True}]
    if ctx.block:
        # Instances of a capacity block launch into its reservation, with the capacity-block market type.
        data["InstanceMarketOptions"] = {"MarketType": "capacity-block"}
        data["CapacityReservationSpecification"] = {
            "CapacityReservationTarget": {"CapacityReservationId": ctx.reservation}}
    return json.dumps({"LaunchTemplateName": ctx.job_name, "LaunchTemplateData": data}, indent=2)


def _account(role_arn: str | None) -> str:
    parts = (role_arn or "").split(":")
    return parts[4] if len(parts) > 4 and parts[4] else "ACCOUNT_ID"


def render_spot_fleet(ctx: LaunchContext) -> str:
    """EC2 RequestSpotFleet parameters: the plan's count, spot or on-demand, capacity-optimised across subnets."""
    overrides = [{"SubnetId": s, "InstanceType": ctx.plan.instance_type}
                 for s in (ctx.profile.vpc.subnets if ctx.profile.vpc else [])] or [
        {"InstanceType": ctx.plan.instance_type}]
    config = {
        "IamFleetRole": f"arn:aws:iam::{_account(ctx.profile.role_arn)}:role/aws-ec2-spot-fleet-tagging-role",
        "AllocationStrategy": "capacityOptimized",
        "TargetCapacity": ctx.plan.instance_count,
        "OnDemandTargetCapacity": 0 if ctx.spot else ctx.plan.instance_count,
        "Type": "maintain",
        "TerminateInstancesWithExpiration": True,
        "InstanceInterruptionBehavior": "terminate",
        "LaunchTemplateConfigs": [{"LaunchTemplateSpecification": {"LaunchTemplateName": ctx.job_name,
                                                                   "Version": "$Latest"},
                                   "Overrides": overrides}],
        "TagSpecifications": [{"ResourceType": "spot-fleet-request", "Tags": _tags(ctx)}],
    }
    return json.dumps({"SpotFleetRequestConfig": config}, indent=2)


def render_run_instances(ctx: LaunchContext) -> str:
    """EC2 RunInstances parameters for a capacity block: every instance from the template, into the reservation."""
    count = ctx.plan.job_instances
    return json.dumps({"LaunchTemplate": {"LaunchTemplateName": ctx.job_name, "Version": "$Latest"},
                       "MinCount": count, "MaxCount": count}, indent=2)


def render_artifacts(
    *, plan: Plan, team: str, team_policy: TeamPolicy, job_name: str, request_id: str, revision: int,
    job: JobSpec | None = None,
    reservation: str | None = None, tags: Mapping[str, str] | None = None,
) -> list[RenderedArtifact]:
    """The artifacts for the plan's platform (none for SageMaker, which gpuops calls itself); with ``job`` they
    carry the approved image, command, arguments and environment."""
    if plan.platform is Platform.SAGEMAKER:
        return []
    if job is None and not team_policy.launch.image:
        raise RequestError(f"launch is not configured for {team}: teams.{team}.launch needs image",
                           code="launch_not_configured")
    ctx = LaunchContext(plan=plan, team=team, profile=team_policy.launch, job_name=job_name, request_id=request_id,
                        revision=revision, job=job, reservation=reservation, tags=dict(tags or {}))
    if plan.platform is Platform.EKS:
        return [RenderedArtifact("eks.pytorchjob", f"{job_name}.pytorchjob.yaml", "application/yaml",
                                 render_pytorchjob(ctx)),
                RenderedArtifact("eks.nodepool", f"{nodepool_name(ctx)}.nodepool.yaml", "application/yaml",
                                 render_nodepool(ctx))]
    if plan.platform is Platform.HYPERPOD:
        return [RenderedArtifact("hyperpod.slurm", f"{job_name}.sbatch", "text/x-shellscript",
                                 render_slurm_script(ctx))]
    template = RenderedArtifact("ec2.launch-template", f"{job_name}.launch-template.json", "application/json",
                                render_launch_template(ctx))
    if ctx.block:  # a fleet cannot take a capacity block: its instances are run from the template, all at once
        return [template, RenderedArtifact("ec2.run-instances", f"{job_name}.run-instances.json", "application/json",
                                           render_run_instances(ctx))]
    return [template, RenderedArtifact("ec2.spot-fleet", f"{job_name}.spot-fleet.json", "application/json",
                                       render_spot_fleet(ctx))]
