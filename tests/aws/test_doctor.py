"""``gpuops doctor``'s AWS checks against moto (STS, Cost Explorer's GetCostAndUsage), a fake IAM policy simulator
and a fake ListCostAllocationTags (moto has neither), each request checked against botocore's model: every check
passes on a well-set account and fails, with its fix, on one thing wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import boto3
import botocore.session
import pytest
from botocore.validate import ParamValidator

from contract.checks import CheckStatus
from policy.config import default_policy
from service.aws.clients import ClientFactory
from service.doctor.aws import (
    Identity,
    check_cost_allocation_tags,
    check_cost_explorer,
    check_iam_actions,
    check_identity,
    check_team_roles,
    concrete_arn,
    context_entries,
)
from tests.aws.conftest import dummy_session
from tests.aws.fakeaws import AwsFault, FakeAws
from tests.aws.fakeiam import FakeIam
from tests.catalogs import refreshed_today

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "deploy" / "iam-policy.json"
ACTIONS = {a for s in json.loads(DOCUMENT.read_text())["Statement"]
           for a in (s["Action"] if isinstance(s["Action"], list) else [s["Action"]])}
MOTO_USER = "arn:aws:sts::123456789012:user/moto"  # who moto says the dummy credentials are
CE = botocore.session.get_session().get_service_model("ce")


@pytest.fixture
def iam() -> Iterator[FakeIam]:
    fake = FakeIam().start()
    yield fake
    fake.stop()


def _factory(**endpoints: str) -> ClientFactory:
    return ClientFactory(session=dummy_session(), endpoint_urls=endpoints, max_attempts=1)


def _validated(operation: str, answer: dict[str, Any]) -> Any:
    def handler(body: dict[str, Any]) -> dict[str, Any]:
        report = ParamValidator().validate(body, CE.operation_model(operation).input_shape)
        assert not report.has_errors(), report.generate_report()
        return answer
    return handler


def test_identity_is_who_the_credentials_are(moto: str) -> None:
    result, identity = check_identity(_factory(sts=moto))
    assert result.status is CheckStatus.OK and identity == Identity(arn=MOTO_USER, account="123456789012")
    failed, none = check_identity(_factory(sts="http://127.0.0.1:9"))
    assert failed.status is CheckStatus.FAILED and none is None
    assert failed.detail.startswith("sts GetCallerIdentity failed: Could not connect")


def test_without_credentials_every_aws_check_is_skipped() -> None:
    factory = ClientFactory(session=boto3.Session(region_name="us-east-1"))  # the fixtures left no credentials
    result, identity = check_identity(factory)
    assert result.status is CheckStatus.SKIPPED and identity is None
    for check in (check_iam_actions(factory, None, document=DOCUMENT, region="us-east-1"),
                  check_cost_explorer(factory, None, today=date(2026, 11, 30)),
                  check_cost_allocation_tags(factory, None, policy=default_policy())):
        assert check.status is CheckStatus.SKIPPED


def test_an_assumed_role_is_simulated_as_its_role() -> None:
    identity = Identity(arn="arn:aws:sts::123456789012:assumed-role/gpuops-service/i-0abc", account="123456789012")
    assert identity.principal_arn == "arn:aws:iam::123456789012:role/gpuops-service"
    assert Identity(arn=MOTO_USER, account="123456789012").principal_arn == MOTO_USER


def test_every_action_of_the_document_is_simulated_with_its_resources_and_conditions(iam: FakeIam) -> None:
    iam.allowed[MOTO_USER] = set(ACTIONS)
    identity = Identity(arn=MOTO_USER, account="123456789012")
    result = check_iam_actions(_factory(iam=iam.url), identity, document=DOCUMENT, region="us-west-2")
    assert result.status is CheckStatus.OK, result
    assert result.detail.startswith(f"all {len(ACTIONS)} action(s) of iam-policy.json allowed")
    simulated = {a for r in iam.requests for a in r["ActionNames"]}
    assert simulated == ACTIONS
    [create] = [r for r in iam.requests if "sagemaker:CreateTrainingJob" in r["ActionNames"]]
    assert create["ResourceArns"] == ["arn:aws:sagemaker:us-west-2:123456789012:training-job/gpuops-doctor"]
    assert create["ContextEntries"][0]["ContextKeyName"] == "aws:RequestTag/gpuops:request"
    [passrole] = [r for r in iam.requests if "iam:PassRole" in r["ActionNames"]]
    assert passrole["ContextEntries"][0]["ContextKeyValues"] == ["sagemaker.amazonaws.com"]


def test_an_action_the_principal_lacks_fails_naming_it(iam: FakeIam) -> None:
    iam.allowed[MOTO_USER] = ACTIONS - {"sagemaker:StopTrainingJob"}
    result = check_iam_actions(_factory(iam=iam.url), Identity(arn=MOTO_USER, account="123456789012"),
                               document=DOCUMENT, region="us-east-1")
    assert result.status is CheckStatus.FAILED
    assert result.detail == f"{MOTO_USER} may not: sagemaker:StopTrainingJob (implicitDeny)"
    assert result.fix == "attach the policy in iam-policy.json to that principal"


def test_each_teams_training_role_must_be_passable_to_sagemaker(iam: FakeIam) -> None:
    iam.allowed[MOTO_USER] = set(ACTIONS)
    identity = Identity(arn=MOTO_USER, account="123456789012")
    base = default_policy()
    role = "arn:aws:iam::123456789012:role/ml-training"  # not gpuops-training-*: the shipped document refuses it
    team = base.teams["team-ml"]
    policy = base.model_copy(update={"teams": {**base.teams, "team-ml": team.model_copy(
        update={"launch": team.launch.model_copy(update={"role_arn": role})})}})
    passable = check_team_roles(_factory(iam=iam.url), identity, policy=base)
    assert passable.status is CheckStatus.OK
    assert passable.detail == "may pass the training roles of team-ml to SageMaker"
    iam.denied_resources.add(role)
    refused = check_team_roles(_factory(iam=iam.url), identity, policy=policy)
    assert refused.status is CheckStatus.FAILED
    assert refused.detail == f"{MOTO_USER} may not pass the training role of team-ml ({role}) to SageMaker"
    assert refused.fix and refused.fix.startswith("name the role gpuops-training-<team>")
    asked = iam.requests[-1]
    assert (asked["ActionNames"], asked["ResourceArns"]) == (["iam:PassRole"], [role])
    assert asked["ContextEntries"][0]["ContextKeyValues"] == ["sagemaker.amazonaws.com"]
    no_roles = base.model_copy(update={"teams": {"team-nlp": base.teams["team-nlp"]}})
    assert check_team_roles(_factory(iam=iam.url), identity, policy=no_roles).status is CheckStatus.SKIPPED
    assert check_team_roles(_factory(iam=iam.url), None, policy=base).status is CheckStatus.SKIPPED


def test_concrete_arns_and_context() -> None:
    assert concrete_arn("arn:aws:s3:::gpuops-audit-anchors/*", account="1", region="r") == \
        "arn:aws:s3:::gpuops-audit-anchors/doctor"
    assert concrete_arn("*", account="1", region="r") == "*"
    assert context_entries({"Null": {"k": "true"}}) == []


def test_cost_explorer_answers_or_the_fix_is_named(moto: str, fake_aws: FakeAws) -> None:
    identity = Identity(arn=MOTO_USER, account="123456789012")
    ok = check_cost_explorer(_factory(ce=moto), identity, today=date(2026, 11, 30))
    assert ok.status is CheckStatus.OK

    def refuse(_body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("AccessDeniedException", "User is not authorized to perform ce:GetCostAndUsage")

    fake_aws.on("GetCostAndUsage", refuse)
    denied = check_cost_explorer(_factory(ce=fake_aws.url), identity, today=date(2026, 11, 30))
    assert denied.status is CheckStatus.FAILED
    assert denied.detail.startswith("ce GetCostAndUsage failed: AccessDeniedException: User is not authorized")
    assert denied.fix is not None and "ce:GetCostAndUsage" in denied.fix
    [sent] = fake_aws.calls("GetCostAndUsage")
    assert sent["TimePeriod"] == {"Start": "2026-11-29", "End": "2026-11-30"}


def test_the_team_tag_must_be_active_for_billing(fake_aws: FakeAws) -> None:
    identity = Identity(arn=MOTO_USER, account="123456789012")
    policy = default_policy()
    [key] = {t.cost_allocation_tag.key for t in policy.teams.values()}
    fake_aws.on("ListCostAllocationTags", _validated("ListCostAllocationTags", {"CostAllocationTags": [
        {"TagKey": key, "Type": "UserDefined", "Status": "Active"}]}))
    ok = check_cost_allocation_tags(_factory(ce=fake_aws.url), identity, policy=policy)
    assert ok.status is CheckStatus.OK and ok.detail == f"{key} active"
    assert fake_aws.calls("ListCostAllocationTags") == [{"TagKeys": [key], "Type": "UserDefined"}]

    fake_aws.on("ListCostAllocationTags", _validated("ListCostAllocationTags", {"CostAllocationTags": [
        {"TagKey": key, "Type": "UserDefined", "Status": "Inactive"}]}))
    inactive = check_cost_allocation_tags(_factory(ce=fake_aws.url), identity, policy=policy)
    assert inactive.status is CheckStatus.FAILED and inactive.detail == f"{key} inactive"
    assert inactive.fix is not None and inactive.fix.startswith("activate the tag under Billing")

    fake_aws.on("ListCostAllocationTags", _validated("ListCostAllocationTags", {"CostAllocationTags": []}))
    unseen = check_cost_allocation_tags(_factory(ce=fake_aws.url), identity, policy=policy)
    assert unseen.status is CheckStatus.FAILED and unseen.detail == f"{key} never seen in billing data"


def test_gpuops_doctor_all_green_against_the_stand_ins(moto: str, fake_aws: FakeAws, iam: FakeIam, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole command: AWS endpoints from botocore's own variables, Slack from SLACK_API_URL, nothing real."""
    from typer.testing import CliRunner

    from bot.doctor import manifest_scopes
    from bot.settings import get_settings as bot_settings
    from gpuops.cli import app
    from service.settings import get_settings
    from service.store.migrate import upgrade
    from tests.bot.fake_slack import FakeSlack

    slack = FakeSlack().start()
    slack.scopes = sorted(manifest_scopes(ROOT / "deploy" / "slack-app-manifest.yaml"))
    iam.allowed[MOTO_USER] = set(ACTIONS)
    fake_aws.fallback_url = moto  # GetCostAndUsage from moto, ListCostAllocationTags from the fake
    fake_aws.on("ListCostAllocationTags", _validated("ListCostAllocationTags", {"CostAllocationTags": [
        {"TagKey": "team", "Type": "UserDefined", "Status": "Active"}]}))
    url = f"sqlite:///{tmp_path / 'gpuops.db'}"
    upgrade(url)
    for name, value in {"DATABASE_URL": url, "GPUOPS_SPEND": "costexplorer", "AWS_ACCESS_KEY_ID": "testing",
                        "AWS_SECRET_ACCESS_KEY": "testing", "AWS_ENDPOINT_URL_STS": moto,
                        "AWS_ENDPOINT_URL_IAM": iam.url, "AWS_ENDPOINT_URL_COST_EXPLORER": fake_aws.url,
                        "SLACK_BOT_TOKEN": "xoxb-test", "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": slack.api_url,
                        }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("GPUOPS_POLICY", raising=False)
    monkeypatch.setenv("GPUOPS_CATALOG_DIR", refreshed_today(tmp_path / "catalog"))  # prices young enough to trust
    get_settings.cache_clear()
    bot_settings.cache_clear()
    try:
        result = CliRunner().invoke(app, ["doctor"])
    finally:
        slack.stop()
        bot_settings.cache_clear()
    assert result.exit_code == 0, result.output
    marks = [line[0] for line in result.output.splitlines()]
    assert marks == ["✓", "✓", "–", "✓", "✓", "✓", "✓", "✓", "✓", "✓", "✓"], result.output
    assert "✓ team training roles: may pass the training roles of team-ml to SageMaker" in result.output
    assert f"✓ aws identity: {MOTO_USER} (account 123456789012)" in result.output
