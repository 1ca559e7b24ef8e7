"""Service Quotas and what is in use against them: SageMaker training instances and EC2 GPU vCPUs.

A SageMaker quota is found by its name ("ml.p5.48xlarge for training job usage"), an EC2 vCPU quota by its code.
What is in use is counted from the account: training jobs in progress (by type, spot apart) and running or pending
EC2 instances (vCPUs by class, spot apart).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from policy.capacity import ec2_class
from service.aws.calls import aws_errors

SERVICE = "service-quotas"
SOURCE = "AWS Service Quotas"
# Quota increase request states that are final.
FINAL_STATES = frozenset({"APPROVED", "DENIED", "CLOSED", "CASE_CLOSED", "NOT_APPROVED", "INVALID_REQUEST"})


def list_quotas(*, client: Any, service_code: str) -> dict[str, dict[str, Any]]:
    """The applied quotas of one service in the client's region, by quota name."""
    found: dict[str, dict[str, Any]] = {}
    with aws_errors(SERVICE, "ListServiceQuotas"):
        for page in client.get_paginator("list_service_quotas").paginate(ServiceCode=service_code):
            for quota in page.get("Quotas", []):
                found[str(quota["QuotaName"])] = quota
    return found


def get_quota(*, client: Any, service_code: str, quota_code: str) -> dict[str, Any]:
    """One applied quota by code."""
    with aws_errors(SERVICE, "GetServiceQuota"):
        answer = client.get_service_quota(ServiceCode=service_code, QuotaCode=quota_code)
    return dict(answer["Quota"])


def request_increase(*, client: Any, service_code: str, quota_code: str, desired_value: float) -> dict[str, Any]:
    """RequestServiceQuotaIncrease; the RequestedQuota record (its Id tracks the request)."""
    with aws_errors(SERVICE, "RequestServiceQuotaIncrease"):
        answer = client.request_service_quota_increase(ServiceCode=service_code, QuotaCode=quota_code,
                                                       DesiredValue=float(desired_value))
    return dict(answer["RequestedQuota"])


def requested_change(*, client: Any, request_id: str) -> dict[str, Any]:
    """GetRequestedServiceQuotaChange: where an increase request stands."""
    with aws_errors(SERVICE, "GetRequestedServiceQuotaChange"):
        answer = client.get_requested_service_quota_change(RequestId=request_id)
    return dict(answer["RequestedQuota"])


def sagemaker_training_in_use(*, client: Any) -> Counter[tuple[str, bool]]:
    """Instances held by training jobs in progress, by (instance type without "ml.", managed spot)."""
    used: Counter[tuple[str, bool]] = Counter()
    with aws_errors("sagemaker", "ListTrainingJobs"):
        names = [str(s["TrainingJobName"]) for page in client.get_paginator("list_training_jobs").paginate(
            StatusEquals="InProgress") for s in page.get("TrainingJobSummaries", [])]
    for name in names:
        with aws_errors("sagemaker", "DescribeTrainingJob"):
            job = client.describe_training_job(TrainingJobName=name)
        spot = bool(job.get("EnableManagedSpotTraining"))
        config = job.get("ResourceConfig", {})
        for group in config.get("InstanceGroups") or [config]:
            if group.get("InstanceType"):
                used[str(group["InstanceType"]).removeprefix("ml."), spot] += int(group.get("InstanceCount", 0))
    return used


def ec2_vcpus_in_use(*, client: Any, vcpus_of: Mapping[str, int]) -> Counter[tuple[str, bool]]:
    """vCPUs of pending and running instances, by (quota class "p" / "g" / "trn", spot); an instance whose answer
    lacks its CPU options counts the vCPUs ``vcpus_of`` gives for its type."""
    used: Counter[tuple[str, bool]] = Counter()
    filters = [{"Name": "instance-state-name", "Values": ["pending", "running"]}]
    with aws_errors("ec2", "DescribeInstances"):
        reservations = [r for page in client.get_paginator("describe_instances").paginate(Filters=filters)
                        for r in page.get("Reservations", [])]
    for reservation in reservations:
        for instance in reservation.get("Instances", []):
            cls = ec2_class(str(instance.get("InstanceType", "")).split(".", 1)[0])
            if cls is None:
                continue
            cpu = instance.get("CpuOptions")
            vcpus = (int(cpu.get("CoreCount", 0)) * int(cpu.get("ThreadsPerCore", 1)) if cpu
                     else vcpus_of.get(str(instance["InstanceType"]), 0))
            used[cls, instance.get("InstanceLifecycle") == "spot"] += vcpus
    return used
