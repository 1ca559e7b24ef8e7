"""SageMaker training jobs: the exact CreateTrainingJob request for an approved plan, and describe/stop/list.

The job name is a pure function of request id and revision, so a retried launch asks for the same job and the
launcher can look it up before creating it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError
from policy.config import LaunchProfile, TeamPolicy
from policy.decision import Plan, PurchaseModel
from policy.errors import RequestError
from policy.jobspec import JobSpec, container_environment, plan_environment
from service.launch.protocol import LaunchRejected

JOB_NAME_MAX = 63
JOB_NAME_PATTERN = re.compile(r"^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$")
TAG_VALUE_MAX = 256
_TAG_UNSAFE = re.compile(r"[^\w\s.:/=+\-@]", re.UNICODE)
CHECKPOINT_LOCAL_PATH = "/opt/ml/checkpoints"
VOLUME_SIZE_GB = 200
# Beyond the runtime, how long a spot job may wait for capacity: half the runtime, at least an hour.
MIN_SPOT_WAIT_SECONDS = 3600
REJECTING_ERRORS = frozenset({"ValidationException", "ResourceLimitExceeded", "AccessDeniedException"})


class JobAlreadyExists(UpstreamError):
    """CreateTrainingJob found the name taken: the job exists and must be reconciled, not created again."""

    code = "job_exists"


def training_job_name(*, request_id: str, revision: int, trial: int | None = None) -> str:
    """``gpuops-<request id>-r<revision>[-t<trial>]``, sanitised to SageMaker's name rules, at most 63 characters."""
    slug = re.sub(r"-+", "-", re.sub(r"[^a-zA-Z0-9]", "-", request_id)).strip("-") or "request"
    suffix = f"-r{revision}" + (f"-t{trial}" if trial is not None else "")
    name = f"gpuops-{slug}{suffix}"
    if len(name) > JOB_NAME_MAX:
        digest = hashlib.sha256(request_id.encode()).hexdigest()[:8]
        room = JOB_NAME_MAX - len("gpuops--") - len(digest) - len(suffix)
        name = f"gpuops-{slug[:room].rstrip('-')}-{digest}{suffix}"
    return name


def tag_value(value: str) -> str:
    """A value SageMaker accepts as a tag: allowed characters only, at most 256 characters."""
    clean = _TAG_UNSAFE.sub("_", value)
    return clean if len(clean) <= TAG_VALUE_MAX else clean[: TAG_VALUE_MAX - 3] + "..."


def instances_per_job(plan: Plan) -> int:
    return plan.job_instances


def runtime_seconds(plan: Plan) -> int:
    """The plan's MaxRuntime, exactly (a whole number of seconds): the figure its exposure was approved on."""
    return max(60, round(plan.max_runtime_hours * 3600))


def max_wait_seconds(plan: Plan) -> int:
    runtime = runtime_seconds(plan)
    return runtime + max(MIN_SPOT_WAIT_SECONDS, runtime // 2)


def _tags(*, team: str, team_policy: TeamPolicy, request_id: str, revision: int,
          approvers: Sequence[str], requested: Mapping[str, str]) -> list[dict[str, str]]:
    """The team's launch tags, then the request's own (its cost center, which approvers saw), then the team's
    cost-allocation tag and gpuops' own, which neither can replace."""
    allocation = team_policy.cost_allocation_tag
    tags = {**team_policy.launch.tags, **requested, allocation.key: allocation.value or team, "gpuops:team": team,
            "gpuops:request": request_id, "gpuops:revision": str(revision),
            "gpuops:approvers": " ".join(sorted(approvers)) or "auto-approved"}
    return [{"Key": tag_value(k)[:128], "Value": tag_value(v)} for k, v in tags.items()]


def _environment(*, plan: Plan, request_id: str, revision: int) -> dict[str, str]:
    return {"GPUOPS_REQUEST_ID": request_id, "GPUOPS_REVISION": str(revision),
            **plan_environment(checkpoint_minutes=plan.checkpoint_interval_minutes,
                               context_parallel=plan.context_parallel, precision=plan.precision)}


def _checkpoint_uri(profile: LaunchProfile, job_name: str) -> str:
    return f"{str(profile.s3_checkpoints).rstrip('/')}/{job_name}/"


def build_create_training_jobs(
    *, plan: Plan, team: str, team_policy: TeamPolicy, request_id: str, revision: int, approvers: Sequence[str],
    job: JobSpec | None = None,
    training_plan_arn: str | None = None, tags: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """One CreateTrainingJob request per job of the plan (a sweep runs each trial as its own job)."""
    trials: list[int | None] = [None] if plan.jobs <= 1 else list(range(1, plan.jobs + 1))
    return [build_create_training_job(plan=plan, team=team, team_policy=team_policy, request_id=request_id,
                                      revision=revision, approvers=approvers, trial=trial, job=job,
                                      training_plan_arn=training_plan_arn, tags=tags) for trial in trials]


def build_create_training_job(
    *, plan: Plan, team: str, team_policy: TeamPolicy, request_id: str, revision: int, approvers: Sequence[str],
    trial: int | None = None, job: JobSpec | None = None, training_plan_arn: str | None = None,
    tags: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The exact CreateTrainingJob parameters for an approved plan; ``RequestError`` if the profile is incomplete.
    With ``job`` (the approved recipe) its image, entry point, hyperparameters, data and metrics are what runs; with
    ``training_plan_arn`` (a SageMaker training plan bought for the request) the job runs in the plan's reserved
    capacity, never on spot."""
    profile = team_policy.launch
    require_launch_profile(team=team, profile=profile, recipes=job is not None)
    name = training_job_name(request_id=request_id, revision=revision, trial=trial)
    reserved = training_plan_arn is not None and ":training-plan/" in training_plan_arn
    spot = plan.purchase_model is PurchaseModel.SPOT and not reserved
    request: dict[str, Any] = {
        "TrainingJobName": name,
        "RoleArn": profile.role_arn,
        "AlgorithmSpecification": {"TrainingImage": profile.image, "TrainingInputMode": "File"},
        "InputDataConfig": [{"ChannelName": "train", "DataSource": {"S3DataSource": {
            "S3DataType": "S3Prefix", "S3Uri": profile.s3_input, "S3DataDistributionType": "FullyReplicated"}}}],
        "OutputDataConfig": {"S3OutputPath": profile.s3_output},
        "ResourceConfig": {"InstanceType": f"ml.{plan.instance_type}", "InstanceCount": instances_per_job(plan),
                           "VolumeSizeInGB": VOLUME_SIZE_GB},
        "StoppingCondition": {"MaxRuntimeInSeconds": runtime_seconds(plan)},
        "EnableManagedSpotTraining": spot,
        "CheckpointConfig": {"S3Uri": _checkpoint_uri(profile, name), "LocalPath": CHECKPOINT_LOCAL_PATH},
        "Environment": _environment(plan=plan, request_id=request_id, revision=revision),
        "Tags": _tags(team=team, team_policy=team_policy, request_id=request_id, revision=revision,
                      approvers=approvers, requested=tags or {}),
    }
    if spot:
        request["StoppingCondition"]["MaxWaitTimeInSeconds"] = max_wait_seconds(plan)
    if job is not None:
        _apply_job(request, job=job, profile=profile, plan=plan, request_id=request_id, revision=revision)
    if reserved:
        request["ResourceConfig"]["TrainingPlanArn"] = training_plan_arn
    if profile.vpc is not None:
        request["VpcConfig"] = {"Subnets": list(profile.vpc.subnets),
                                "SecurityGroupIds": list(profile.vpc.security_group_ids)}
    return request


# SageMaker's script mode (the training toolkit in its framework containers): which script to run, from where, and
# how to distribute it. Values are JSON, as the toolkit decodes them.
_DISTRIBUTION = {"torchrun": {"sagemaker_torch_distributed_enabled": "true"},
                 "smddp": {"sagemaker_distributed_dataparallel_enabled": "true"}, "none": {}}


def script_hyperparameters(job: JobSpec) -> dict[str, str]:
    """What CreateTrainingJob's HyperParameters carry: the approved values (JSON) and the script-mode keys."""
    values = {name: json.dumps(value) for name, value in sorted(job.hyperparameters.items())}
    values["sagemaker_program"] = json.dumps(job.entry_point)
    if job.source is not None:
        values["sagemaker_submit_directory"] = json.dumps(job.source)
    return {**values, **_DISTRIBUTION[job.distribution]}


def _channel(name: str, uri: str) -> dict[str, Any]:
    return {"ChannelName": name, "DataSource": {"S3DataSource": {
        "S3DataType": "S3Prefix", "S3Uri": uri, "S3DataDistributionType": "FullyReplicated"}}}


def _apply_job(request: dict[str, Any], *, job: JobSpec, profile: LaunchProfile, plan: Plan, request_id: str,
               revision: int) -> None:
    """The approved job in the request: image by digest, script, hyperparameters, channels, output, keys, metrics."""
    request["AlgorithmSpecification"] = {
        "TrainingImage": job.image, "TrainingInputMode": "File",
        "MetricDefinitions": [{"Name": m.name, "Regex": m.regex} for m in job.metric_definitions]}
    request["HyperParameters"] = script_hyperparameters(job)
    request["InputDataConfig"] = [_channel("train", job.dataset)]
    if job.model_source is not None and job.model_source.startswith("s3://"):
        request["InputDataConfig"].append(_channel("model", job.model_source))
    output = f"{str(profile.s3_output).rstrip('/')}/{request_id}/"
    request["OutputDataConfig"] = {"S3OutputPath": output, **({"KmsKeyId": job.kms_key_id} if job.kms_key_id else {})}
    if job.kms_key_id:
        request["ResourceConfig"]["VolumeKmsKeyId"] = job.kms_key_id
    request["Environment"] = container_environment(job, request_id=request_id, revision=revision,
                                                   checkpoint_minutes=plan.checkpoint_interval_minutes,
                                                   checkpoint_dir=CHECKPOINT_LOCAL_PATH,
                                                   context_parallel=plan.context_parallel,
                                                   precision=plan.precision)
    seen = {t["Key"] for t in request["Tags"]}
    request["Tags"] += [{"Key": tag_value(k)[:128], "Value": tag_value(v)} for k, v in job.tags.items()
                        if tag_value(k)[:128] not in seen]
    request["Tags"].append({"Key": "gpuops:recipe", "Value": tag_value(job.recipe)})


def require_launch_profile(*, team: str, profile: LaunchProfile, recipes: bool = False) -> None:
    missing = [m for m in profile.missing() if not (recipes and m in ("image", "s3_input"))]
    if missing:
        raise RequestError(f"launch is not configured for {team}: teams.{team}.launch needs {', '.join(missing)}",
                           code="launch_not_configured")


def _error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _upstream(exc: ClientError | BotoCoreError, operation: str) -> UpstreamError:
    if isinstance(exc, ClientError):
        code, message = _error_code(exc), exc.response.get("Error", {}).get("Message", str(exc))
        if code == "ResourceInUse":
            return JobAlreadyExists(f"{code}: {message}", service="sagemaker", operation=operation)
        if code in REJECTING_ERRORS:
            return LaunchRejected(f"{code}: {message}", service="sagemaker", operation=operation)
        return UpstreamError(f"{code}: {message}", service="sagemaker", operation=operation, code="aws_error")
    return UpstreamError(f"SageMaker unreachable: {exc}", service="sagemaker", operation=operation, code="aws_error")


def _is_missing_job(exc: ClientError) -> bool:
    message = str(exc.response.get("Error", {}).get("Message", "")).lower()
    return _error_code(exc) in ("ResourceNotFound", "ValidationException") and (
        "not found" in message or "could not find" in message)


def describe_training_job(*, client: Any, name: str) -> dict[str, Any] | None:
    """DescribeTrainingJob, or None when no job of that name exists."""
    try:
        answer: dict[str, Any] = client.describe_training_job(TrainingJobName=name)
    except ClientError as exc:
        if _is_missing_job(exc):
            return None
        raise _upstream(exc, "DescribeTrainingJob") from exc
    except BotoCoreError as exc:
        raise _upstream(exc, "DescribeTrainingJob") from exc
    return answer


def create_training_job(*, client: Any, request: dict[str, Any]) -> str:
    """CreateTrainingJob; returns the job ARN. ``LaunchRejected`` for errors a retry cannot fix."""
    try:
        answer = client.create_training_job(**request)
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "CreateTrainingJob") from exc
    return str(answer["TrainingJobArn"])


def stop_training_job(*, client: Any, name: str) -> None:
    try:
        client.stop_training_job(TrainingJobName=name)
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "StopTrainingJob") from exc


def list_training_jobs(*, client: Any, name_prefix: str = "gpuops-") -> list[dict[str, Any]]:
    """Summaries of training jobs whose names contain ``name_prefix`` (all pages)."""
    jobs: list[dict[str, Any]] = []
    try:
        for page in client.get_paginator("list_training_jobs").paginate(NameContains=name_prefix):
            jobs.extend(page.get("TrainingJobSummaries", []))
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "ListTrainingJobs") from exc
    return jobs
