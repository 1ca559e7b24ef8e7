"""deploy/iam-policy.json grants exactly the AWS actions the service's code calls, scoped as tightly as it can be.

The calls are found by reading the code: every ``<something>client.<operation>(…)`` and ``get_paginator("…")`` in
``service/`` whose name is an operation of a service the code builds clients for (``.client("ce")`` etc.).
"""

from __future__ import annotations

import ast
import fnmatch
import json
from pathlib import Path

import botocore.session
from botocore import xform_name

from policy.config import load_policy_file

ROOT = Path(__file__).resolve().parents[2]
IAM_PREFIX = {"ce": "ce", "pricing": "pricing", "ec2": "ec2", "sagemaker": "sagemaker", "s3": "s3", "ecr": "ecr",
              "iam": "iam", "cloudwatch": "cloudwatch", "service-quotas": "servicequotas"}
# Operations whose IAM action has another name.
ACTION_NAME = {"s3:ListObjectsV2": "s3:ListBucket", "s3:HeadObject": "s3:GetObject"}
# Actions AWS checks on top of the call itself: tagging on create, handing the team role to SageMaker, and setting
# an object's lock on upload.
IMPLIED = {"sagemaker:CreateTrainingJob": {"sagemaker:AddTags", "iam:PassRole"},
           "sagemaker:CreateTrainingPlan": {"sagemaker:AddTags"}, "ec2:PurchaseCapacityBlock": {"ec2:CreateTags"},
           "s3:PutObject": {"s3:PutObjectRetention"}}


# `gpuops doctor` checks the account as whoever runs it (IAM policy simulation, the cost-allocation tags); the
# service never makes those calls, so they are not part of its policy, and the doctor skips them when refused.
DOCTOR = ROOT / "service" / "doctor"


def _trees() -> list[ast.AST]:
    return [ast.parse(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "service").rglob("*.py"))
            if DOCTOR not in p.parents]


def _client_services(trees: list[ast.AST]) -> set[str]:
    services = set()
    for tree in trees:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "client"
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                services.add(node.args[0].value)
    return services


def _called_names(trees: list[ast.AST]) -> set[tuple[str, str]]:
    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            receiver = node.func.value
            if not (isinstance(receiver, ast.Name) and receiver.id.endswith("client")):
                continue
            # ``ecr_client.describe_images`` is ECR's operation, not EC2's of the same name.
            owner = receiver.id.removesuffix("_client") if receiver.id.endswith("_client") else ""
            if node.func.attr == "get_paginator" and node.args and isinstance(node.args[0], ast.Constant):
                names.add((owner, str(node.args[0].value)))
            else:
                names.add((owner, node.func.attr))
    return names


def code_actions() -> set[str]:
    trees = _trees()
    session = botocore.session.get_session()
    called = _called_names(trees)
    actions: set[str] = set()
    for service in _client_services(trees):
        model = session.get_service_model(service)
        for operation in model.operation_names:
            if (service, xform_name(operation)) in called or ("", xform_name(operation)) in called:
                action = ACTION_NAME.get(f"{IAM_PREFIX[service]}:{operation}", f"{IAM_PREFIX[service]}:{operation}")
                actions |= {action, *IMPLIED.get(action, set())}
    return actions


def _policy() -> dict[str, object]:
    return json.loads((ROOT / "deploy" / "iam-policy.json").read_text(encoding="utf-8"))


def policy_actions() -> set[str]:
    statements = _policy()["Statement"]
    assert isinstance(statements, list)
    return {action for s in statements for action in s["Action"]}


def test_the_code_calls_the_operations_the_design_names() -> None:
    assert code_actions() >= {"ce:GetCostAndUsage", "ce:GetCostForecast", "pricing:GetProducts",
                              "ec2:DescribeSpotPriceHistory", "sagemaker:CreateTrainingJob",
                              "sagemaker:DescribeTrainingJob", "servicequotas:ListServiceQuotas",
                              "servicequotas:GetServiceQuota", "servicequotas:RequestServiceQuotaIncrease",
                              "servicequotas:GetRequestedServiceQuotaChange", "ec2:GetSpotPlacementScores",
                              "ec2:DescribeInstances", "ec2:DescribeCapacityBlockOfferings",
                              "ec2:PurchaseCapacityBlock", "ec2:DescribeCapacityReservations",
                              "sagemaker:SearchTrainingPlanOfferings", "sagemaker:CreateTrainingPlan",
                              "sagemaker:DescribeTrainingPlan"}


def test_the_policy_grants_exactly_the_actions_the_code_calls() -> None:
    assert policy_actions() == code_actions()


def test_no_statement_uses_wildcard_actions_and_writes_are_scoped_to_gpuops_jobs() -> None:
    for statement in _policy()["Statement"]:  # type: ignore[attr-defined]
        assert all("*" not in action for action in statement["Action"])
        if any(a in statement["Action"] for a in ("sagemaker:CreateTrainingJob", "sagemaker:StopTrainingJob")):
            assert statement["Resource"] == "arn:aws:sagemaker:*:*:training-job/gpuops-*"
        if any(a in statement["Action"] for a in ("sagemaker:CreateTrainingPlan", "ec2:PurchaseCapacityBlock")):
            # buying capacity only ever with the tag naming the approved action it carries out
            assert statement["Condition"] == {"Null": {"aws:RequestTag/gpuops:capacity-action": "false"}}


def test_pass_role_is_limited_to_team_roles_passed_to_sagemaker() -> None:
    (statement,) = [s for s in _policy()["Statement"] if s["Action"] == ["iam:PassRole"]]  # type: ignore[attr-defined]
    assert statement["Condition"] == {"StringEquals": {"iam:PassedToService": "sagemaker.amazonaws.com"}}
    example = load_policy_file(str(ROOT / "deploy" / "policy.example.yaml"))
    roles = [t.launch.role_arn for t in example.teams.values() if t.launch.role_arn]
    assert roles and all(fnmatch.fnmatchcase(role, statement["Resource"]) for role in roles)


def test_the_data_check_covers_the_example_teams_recipe_buckets() -> None:
    """Before approval gpuops reads each recipe's data, source and model copies: their buckets must be granted."""
    (statement,) = [s for s in _policy()["Statement"] if s["Sid"] == "CheckTeamTrainingDataExists"]  # type: ignore[attr-defined]
    example = load_policy_file(str(ROOT / "deploy" / "policy.example.yaml"))
    uris = [u for t in example.teams.values() for r in t.recipes.values()
            for u in [*r.datasets.values(), *r.data_prefixes, *r.models.values(), *([r.source] if r.source else [])]]
    buckets = {u.removeprefix("s3://").split("/")[0] for u in uris}
    assert buckets and all(f"arn:aws:s3:::{b}" in statement["Resource"] for b in buckets)
    assert all(f"arn:aws:s3:::{b}/*" in statement["Resource"] for b in buckets)


def test_job_names_the_launcher_makes_fall_under_the_policy_resource() -> None:
    from service.aws.sagemaker import training_job_name

    name = training_job_name(request_id="req_0123456789abcdef", revision=4)
    assert fnmatch.fnmatchcase(f"arn:aws:sagemaker:us-east-1:123456789012:training-job/{name}",
                               "arn:aws:sagemaker:*:*:training-job/gpuops-*")
