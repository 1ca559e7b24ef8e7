"""Checks of the AWS account gpuops runs against: who it is (STS), whether its policies allow the actions of the
shipped IAM policy document (IAM policy simulation), Cost Explorer access and the teams' cost-allocation tags."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.checks import CheckResult
from contract.errors import UpstreamError
from policy.config import PolicyConfig
from service.aws.clients import ClientFactory, credentials_configured

NOT_CONFIGURED = "not configured: no AWS credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID, or a role)"


@dataclass(frozen=True)
class Identity:
    arn: str
    account: str

    @property
    def principal_arn(self) -> str:
        """The IAM principal whose policies apply: an assumed role's session ARN names its role.

        A role with a path shows no path in its session ARN; the simulation then names the role without it."""
        found = re.fullmatch(r"arn:(aws[\w-]*):sts::(\d+):assumed-role/([^/]+)/.+", self.arn)
        if found is None:
            return self.arn
        partition, account, role = found.groups()
        return f"arn:{partition}:iam::{account}:role/{role}"


def check_identity(factory: ClientFactory) -> tuple[CheckResult, Identity | None]:
    name = "aws identity"
    if not credentials_configured(factory=factory):
        return CheckResult.skipped(name, NOT_CONFIGURED), None
    try:
        answer = factory.client("sts").get_caller_identity()
    except (ClientError, BotoCoreError, UpstreamError) as exc:
        return CheckResult.failed(name, f"sts GetCallerIdentity failed: {_why(exc)}",
                                  fix="check the credentials (expired session? wrong profile?) and AWS_REGION"), None
    identity = Identity(arn=answer["Arn"], account=answer["Account"])
    return CheckResult.ok(name, f"{identity.arn} (account {identity.account})"), identity


def check_iam_actions(factory: ClientFactory, identity: Identity | None, *, document: Path | None,
                      region: str) -> CheckResult:
    """Simulate each statement of the shipped IAM policy document against the principal's own policies."""
    name = "iam actions"
    if identity is None:
        return CheckResult.skipped(name, "no AWS identity to check")
    if document is None:
        return CheckResult.skipped(name, "no IAM policy document found (pass --iam-policy deploy/iam-policy.json)")
    statements = json.loads(document.read_text(encoding="utf-8"))["Statement"]
    client = factory.client("iam")
    denied: list[str] = []
    checked: set[str] = set()  # an action several statements grant (on different resources) counts once
    for statement in statements:
        answer = _simulate(client, name, identity, actions=_actions(statement),
                           resources=[concrete_arn(r, account=identity.account, region=region)
                                      for r in _listed(statement.get("Resource", "*"))],
                           condition=statement.get("Condition", {}),
                           by_hand="; compare them with the IAM policy document by hand")
        if isinstance(answer, CheckResult):
            return answer
        for result in answer.get("EvaluationResults", []):
            checked.add(str(result["EvalActionName"]))
            if result["EvalDecision"] != "allowed":
                denied.append(f"{result['EvalActionName']} ({result['EvalDecision']})")
    if denied:
        return CheckResult.failed(name, f"{identity.principal_arn} may not: {', '.join(sorted(set(denied)))}",
                                  fix=f"attach the policy in {document.name} to that principal")
    return CheckResult.ok(name, f"all {len(checked)} action(s) of {document.name} allowed for {identity.principal_arn}")


def check_team_roles(factory: ClientFactory, identity: Identity | None, *, policy: PolicyConfig) -> CheckResult:
    """The principal may pass each team's training role (``launch.role_arn``) to SageMaker: the shipped document
    allows ``gpuops-training-*`` roles only, so a role named otherwise fails its first launch, after approval."""
    name = "team training roles"
    if identity is None:
        return CheckResult.skipped(name, "no AWS identity to check")
    roles = {team_name: team.launch.role_arn for team_name, team in sorted(policy.teams.items())
             if team.launch.role_arn}
    if not roles:
        return CheckResult.skipped(name, "no team has a launch profile with a role_arn")
    answer = _simulate(factory.client("iam"), name, identity, actions=["iam:PassRole"],
                       resources=sorted(set(roles.values())),
                       condition={"StringEquals": {"iam:PassedToService": "sagemaker.amazonaws.com"}})
    if isinstance(answer, CheckResult):
        return answer
    refused = {str(r["EvalResourceName"]) for r in answer.get("EvaluationResults", [])
               if r["EvalDecision"] != "allowed"}
    teams = [f"{team_name} ({arn})" for team_name, arn in roles.items() if arn in refused]
    if teams:
        return CheckResult.failed(name, f"{identity.principal_arn} may not pass the training role of "
                                        f"{', '.join(teams)} to SageMaker", fix=(
            "name the role gpuops-training-<team>, or widen the iam:PassRole statement of the IAM policy document "
            "to it (keep the iam:PassedToService condition)"))
    return CheckResult.ok(name, f"may pass the training roles of {', '.join(roles)} to SageMaker")


def _simulate(client: Any, name: str, identity: Identity, *, actions: list[str], resources: list[str],
              condition: dict[str, dict[str, Any]], by_hand: str = "") -> dict[str, Any] | CheckResult:
    """IAM's answer to simulating ``actions`` on ``resources`` for the principal, or the check's result when IAM
    cannot answer (skipped when the principal may not simulate its own policies)."""
    try:
        answer: dict[str, Any] = client.simulate_principal_policy(
            PolicySourceArn=identity.principal_arn, ActionNames=actions, ResourceArns=resources,
            ContextEntries=context_entries(condition))
    except ClientError as exc:
        if _code(exc) in ("AccessDenied", "AccessDeniedException"):
            return CheckResult.skipped(name, f"{identity.principal_arn} may not simulate its own policies "
                                             f"(iam:SimulatePrincipalPolicy){by_hand}")
        return CheckResult.failed(name, f"iam SimulatePrincipalPolicy failed: {_why(exc)}",
                                  fix="check the identity above exists in IAM")
    except BotoCoreError as exc:
        return CheckResult.failed(name, f"iam SimulatePrincipalPolicy failed: {_why(exc)}",
                                  fix="check the network path to IAM")
    return answer


def check_cost_explorer(factory: ClientFactory, identity: Identity | None, *, today: date) -> CheckResult:
    """One tiny GetCostAndUsage (a single day, no grouping; $0.01)."""
    name = "cost explorer"
    if identity is None:
        return CheckResult.skipped(name, "no AWS identity to check")
    try:
        factory.client("ce").get_cost_and_usage(
            TimePeriod={"Start": (today - timedelta(days=1)).isoformat(), "End": today.isoformat()},
            Granularity="DAILY", Metrics=["UnblendedCost"])
    except (ClientError, BotoCoreError) as exc:
        return CheckResult.failed(name, f"ce GetCostAndUsage failed: {_why(exc)}",
                                  fix="allow ce:GetCostAndUsage and ce:GetCostForecast (the IAM policy document); "
                                      "Cost Explorer must be enabled once in the billing console")
    return CheckResult.ok(name, "GetCostAndUsage answers")


def check_cost_allocation_tags(factory: ClientFactory, identity: Identity | None, *,
                               policy: PolicyConfig) -> CheckResult:
    """Each team's cost-allocation tag key is active for billing, or Cost Explorer cannot filter by it."""
    name = "cost allocation tags"
    if identity is None:
        return CheckResult.skipped(name, "no AWS identity to check")
    keys = sorted({team.cost_allocation_tag.key for team in policy.teams.values()})
    try:
        answer = factory.client("ce").list_cost_allocation_tags(TagKeys=keys, Type="UserDefined")
    except ClientError as exc:
        if _code(exc) in ("AccessDenied", "AccessDeniedException"):
            return CheckResult.skipped(name, "not allowed to list them (ce:ListCostAllocationTags); check "
                                             f"{', '.join(keys)} under Billing → Cost allocation tags")
        return CheckResult.failed(name, f"ce ListCostAllocationTags failed: {_why(exc)}",
                                  fix="check Cost Explorer access above")
    except BotoCoreError as exc:
        return CheckResult.failed(name, f"ce ListCostAllocationTags failed: {_why(exc)}",
                                  fix="check the network path to Cost Explorer")
    status = {tag["TagKey"]: tag["Status"] for tag in answer.get("CostAllocationTags", [])}
    problems = [f"{key} {'inactive' if key in status else 'never seen in billing data'}"
                for key in keys if status.get(key) != "Active"]
    if problems:
        return CheckResult.failed(name, "; ".join(problems), fix=(
            "activate the tag under Billing → Cost allocation tags (ce UpdateCostAllocationTagsStatus); spend is "
            "split by it from then on, up to 24 h later. A key never seen needs a tagged resource first"))
    return CheckResult.ok(name, f"{', '.join(keys)} active")


def concrete_arn(resource: str, *, account: str, region: str) -> str:
    """A resource ARN pattern of the document made concrete for a simulation: ``*`` in the region and account
    fields become this region and account, and a trailing wildcard a sample name (``gpuops-*`` → ``gpuops-doctor``)."""
    if resource == "*":
        return "*"
    parts = resource.split(":", 5)
    if len(parts) == 6:
        parts[3] = region if parts[3] == "*" else parts[3]
        parts[4] = account if parts[4] == "*" else parts[4]
        resource = ":".join(parts)
    return resource.replace("*", "doctor")


def context_entries(condition: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Context keys that satisfy a statement's condition, as a real gpuops call would send them."""
    entries: list[dict[str, Any]] = []
    for operator, keys in condition.items():
        for key, value in keys.items():
            if operator == "Null":  # "false": the key must be present
                if str(value).lower() == "false":
                    entries.append({"ContextKeyName": key, "ContextKeyValues": ["doctor"],
                                    "ContextKeyType": "string"})
            else:
                entries.append({"ContextKeyName": key, "ContextKeyValues": [str(v) for v in _listed(value)],
                                "ContextKeyType": "string"})
    return entries


def _actions(statement: dict[str, Any]) -> list[str]:
    return [str(action) for action in _listed(statement["Action"])]


def _listed(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _why(exc: Exception) -> str:
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        return f"{error.get('Code', 'error')}: {error.get('Message', '')}".rstrip(": ")
    if isinstance(exc, UpstreamError):
        return exc.message
    return str(exc)
