"""The capacity view read from the account: Service Quotas, training jobs and instances in use, spot placement
scores and reserved-capacity offerings, over the real wire protocols (moto for EC2 instances, the loopback fake,
checked against botocore's service model, for what moto lacks)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import boto3
import httpx
import pytest

from policy.capacity import CapacityStatus, OfferingKind, summary_line
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.parse import parse_request
from policy.spend import SpendSnapshot
from service.aws.clients import ClientFactory
from service.cache import MemoryCache
from service.capacity.view import AwsCapacity, UnknownCapacity, block_duration_hours
from service.planning import Planner
from service.spend.providers import UnavailableSpend
from tests.aws.conftest import dummy_session
from tests.aws.fakeaws import AwsFault, FakeAws

TZ = "America/Los_Angeles"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))
OK_SPEND = SpendSnapshot(status="ok", team="team-ml", month_to_date_usd=1_000, forecast_usd=2_000, as_of=NOW)


def sagemaker_quotas(values: dict[str, float]) -> Any:
    def handler(body: dict[str, Any]) -> dict[str, Any]:
        assert body["ServiceCode"] == "sagemaker"
        return {"Quotas": [{"ServiceCode": "sagemaker", "QuotaCode": f"L-{i:08d}", "QuotaName": name, "Value": value}
                           for i, (name, value) in enumerate(sorted(values.items()))]}
    return handler


def ec2_quotas(value: float) -> Any:
    def handler(body: dict[str, Any]) -> dict[str, Any]:
        return {"Quota": {"ServiceCode": "ec2", "QuotaCode": body["QuotaCode"], "QuotaName": "vCPU", "Value": value}}
    return handler


def no_jobs(_: dict[str, Any]) -> dict[str, Any]:
    return {"TrainingJobSummaries": []}


def scores(by_region: dict[str, int]) -> Any:
    def handler(form: dict[str, Any]) -> dict[str, Any]:
        return {"SpotPlacementScores": [{"Region": r, "Score": s} for r, s in sorted(by_region.items())]}
    return handler


@pytest.fixture
def aws(fake_aws: FakeAws, moto: str) -> FakeAws:
    fake_aws.fallback_url = moto
    fake_aws.on("ListTrainingJobs", no_jobs)
    fake_aws.on("GetServiceQuota", ec2_quotas(0))
    return fake_aws


def capacity(fake: FakeAws) -> AwsCapacity:
    factory = ClientFactory(session=dummy_session(), max_attempts=3, endpoint_urls={
        "service-quotas": fake.url, "sagemaker": fake.url, "ec2": fake.url})
    return AwsCapacity(factory=factory, cache=MemoryCache(), catalog=load_catalog(), policy=default_policy())


def planner(provider: Any) -> Planner:
    return Planner(catalog=load_catalog(), policy=default_policy(), spend=UnavailableSpend(), capacity=provider)


def plan(provider: Any, text: str, **kwargs: Any) -> Any:
    request = parse_request(text, now=NOW, tz=TZ, **kwargs)
    return planner(provider).plan(request, now=NOW, spend=OK_SPEND).decision


def test_quota_of_zero_is_read_and_the_plan_offers_an_increase(aws: FakeAws) -> None:
    aws.on("ListServiceQuotas", sagemaker_quotas({"ml.p5.48xlarge for training job usage": 0,
                                                  "ml.p5.48xlarge for spot training job usage": 0}))
    aws.on("GetSpotPlacementScores", scores({"us-east-1": 9}))
    decision = plan(capacity(aws), "fine-tune 7B on 4x p5.48xlarge, spot ok")
    check = decision.plan.capacity
    assert check.status is CapacityStatus.SHORT and check.quota_limit == 0 and check.quota_needed == 4
    assert check.quota_source == "AWS Service Quotas" and check.quota_as_of == NOW.astimezone(UTC)
    assert [a.kind.value for a in decision.capacity_actions] == ["quota-increase"]
    assert decision.approval.required
    # the placement score was asked for the plan's type and count, in every region the policy allows
    [asked] = aws.calls("GetSpotPlacementScores")
    assert asked["InstanceType.1"] == "p5.48xlarge" and asked["TargetCapacity"] == "4"
    assert asked["SingleAvailabilityZone"] == "true"


def test_a_quota_that_fits_reads_usage_and_says_what_is_free(aws: FakeAws) -> None:
    aws.on("ListServiceQuotas", sagemaker_quotas({"ml.p5.48xlarge for training job usage": 8,
                                                  "ml.p5.48xlarge for spot training job usage": 12}))
    aws.on("ListTrainingJobs", lambda body: {"TrainingJobSummaries": [
        {"TrainingJobName": "other-team-job", "TrainingJobArn": "arn:aws:sagemaker:us-east-1:1:training-job/x",
         "CreationTime": 0, "TrainingJobStatus": "InProgress"}]})
    aws.on("DescribeTrainingJob", lambda body: {
        "TrainingJobName": body["TrainingJobName"], "TrainingJobArn": "arn:aws:sagemaker:us-east-1:1:training-job/x",
        "TrainingJobStatus": "InProgress", "SecondaryStatus": "Training", "CreationTime": 0,
        "AlgorithmSpecification": {"TrainingInputMode": "File"}, "StoppingCondition": {},
        "ModelArtifacts": {"S3ModelArtifacts": "s3://b/m"}, "EnableManagedSpotTraining": True,
        "ResourceConfig": {"InstanceType": "ml.p5.48xlarge", "InstanceCount": 2, "VolumeSizeInGB": 100}})
    aws.on("GetSpotPlacementScores", scores({"us-east-1": 8, "us-west-2": 3}))
    decision = plan(capacity(aws), "fine-tune 7B on 4x p5.48xlarge, spot ok")
    check = decision.plan.capacity
    assert check.status is CapacityStatus.FITS
    assert (check.quota_limit, check.quota_in_use, check.quota_needed) == (12, 2, 4)
    assert summary_line(check, purchase="spot", region="us-east-1") == \
        "quota ok (10 of 12 instances free) · spot score 8/10 in us-east-1"
    assert decision.capacity_actions == [] and not any("capacity" in w for w in decision.warnings)


def test_ec2_vcpus_in_use_come_from_running_instances(aws: FakeAws, moto: str) -> None:
    ec2 = boto3.client("ec2", region_name="us-east-1", endpoint_url=moto, aws_access_key_id="t",
                       aws_secret_access_key="t")
    image = ec2.describe_images()["Images"][0]["ImageId"]
    ec2.run_instances(ImageId=image, InstanceType="p5.48xlarge", MinCount=1, MaxCount=1)
    ec2.run_instances(ImageId=image, InstanceType="g6e.12xlarge", MinCount=1, MaxCount=1,
                      InstanceMarketOptions={"MarketType": "spot"})
    from service.aws.quotas import ec2_vcpus_in_use

    client = capacity(aws).factory.client("ec2")
    used = ec2_vcpus_in_use(client=client, vcpus_of={"p5.48xlarge": 192, "g6e.12xlarge": 48})
    assert used == {("p", False): 192, ("g", True): 48}


def test_offerings_are_asked_with_the_plan_shape_and_priced_as_alternatives(aws: FakeAws) -> None:
    aws.on("ListServiceQuotas", sagemaker_quotas({"ml.p4d.24xlarge for training job usage": 64}))
    start = datetime(2026, 12, 2, 11, 30, tzinfo=UTC)
    aws.on("SearchTrainingPlanOfferings", lambda body: {"TrainingPlanOfferings": [{
        "TrainingPlanOfferingId": "tpo-SHA256-offer1", "TargetResources": ["training-job"],
        "DurationHours": body["DurationHours"], "UpfrontFee": "210000.00", "CurrencyCode": "USD",
        "ReservedCapacityOfferings": [{"InstanceType": body["InstanceType"], "InstanceCount": body["InstanceCount"],
                                       "AvailabilityZone": "us-east-1a", "DurationHours": body["DurationHours"],
                                       "StartTime": start.timestamp(),
                                       "EndTime": (start + timedelta(hours=body["DurationHours"])).timestamp()}]}]})
    decision = plan(capacity(aws), "production pretrain 7B on 100B tokens in 20 days")
    [asked] = aws.calls("SearchTrainingPlanOfferings")
    assert asked["InstanceType"] == f"ml.{decision.plan.instance_type}"
    assert asked["InstanceCount"] == decision.plan.instance_count
    assert asked["DurationHours"] == block_duration_hours(decision.plan.estimated_hours)
    assert asked["TargetResources"] == ["training-job"]
    block = next(a for a in decision.alternatives if a.purchase_model == "capacity-block")
    assert block.estimated_cost_usd == 210_000.0 and block.capacity.offering_id == "tpo-SHA256-offer1"
    assert block.capacity.offering_kind is OfferingKind.TRAINING_PLAN


def test_a_failed_offering_lookup_is_said_and_prices_nothing(aws: FakeAws) -> None:
    aws.on("ListServiceQuotas", sagemaker_quotas({"ml.p4d.24xlarge for training job usage": 64}))

    def throttled(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("ThrottlingException", "Rate exceeded")

    aws.on("SearchTrainingPlanOfferings", throttled)
    decision = plan(capacity(aws), "production pretrain 7B on 100B tokens in 20 days")
    assert not any(a.purchase_model == "capacity-block" for a in decision.alternatives)
    assert any(a.startswith("reserved-capacity offerings unknown: SearchTrainingPlanOfferings failed")
               for a in decision.assumptions)


def test_a_quota_read_aws_refuses_is_not_asked_again_by_the_next_capacity_round_or_plan(aws: FakeAws) -> None:
    def failing(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("ServiceException", "internal failure", status=500)

    aws.on("ListServiceQuotas", failing)
    provider = capacity(aws)
    first = plan(provider, "fine-tune 7B", team="team-nlp")
    # the factory's 3 attempts once per region read, though the plan reads capacity in several rounds (18 before)
    asked = len(aws.calls("ListServiceQuotas"))
    assert asked == 6
    second = plan(provider, "fine-tune 7B", team="team-nlp")
    assert len(aws.calls("ListServiceQuotas")) == asked  # 36 before
    for decision in (first, second):
        assert decision.approval.required and decision.plan.capacity.status is CapacityStatus.UNKNOWN
        assert any(r.startswith("quota 'ml.") and r.endswith(": not read") for r in decision.plan.capacity.reasons)


def test_a_low_spot_score_moves_the_plan_to_another_region_or_on_demand(aws: FakeAws) -> None:
    aws.on("ListServiceQuotas", lambda body: {"Quotas": [
        {"QuotaName": f"ml.{t} for {use}", "QuotaCode": "L-1", "Value": 64, "ServiceCode": "sagemaker"}
        for t in load_catalog().instances for use in ("training job usage", "spot training job usage")]})
    first = plan(UnknownCapacity(), "fine-tune 7B", team="team-nlp")
    assert first.plan.purchase_model == "spot"
    low = {r: (2 if r == first.plan.region else 9) for r in default_policy().regions}
    aws.on("GetSpotPlacementScores", scores(low))
    decision = plan(capacity(aws), "fine-tune 7B", team="team-nlp")
    assert decision.plan.region != first.plan.region or decision.plan.purchase_model == "on-demand"
    step = next(s for s in decision.trace if s.node == "capacity")
    assert "spot placement score 2/10" in step.reason


def test_aws_out_of_reach_makes_capacity_unknown_not_fine() -> None:
    factory = ClientFactory(session=dummy_session(), max_attempts=1, connect_timeout=0.5,
                            endpoint_urls={"service-quotas": "http://127.0.0.1:9", "sagemaker": "http://127.0.0.1:9",
                                           "ec2": "http://127.0.0.1:9"})
    provider = AwsCapacity(factory=factory, cache=MemoryCache(), catalog=load_catalog(), policy=default_policy())
    decision = plan(provider, "fine-tune 7B")
    assert decision.plan.capacity.status is CapacityStatus.UNKNOWN
    assert decision.approval.required
    assert any(a.startswith("capacity unknown (AWS unreachable") for a in decision.assumptions)


def test_the_fake_refuses_a_misspelt_parameter(aws: FakeAws) -> None:
    aws.on("PurchaseCapacityBlock", lambda form: {"CapacityReservation": {"CapacityReservationId": "cr-1"}})
    answer = httpx.post(aws.url, data={"Action": "PurchaseCapacityBlock", "Version": "2016-11-15",
                                       "CapacityBlockOfferingID": "cb-1", "InstancePlatform": "Linux/UNIX"})
    assert answer.status_code == 400
    assert "CapacityBlockOfferingID: not a parameter of PurchaseCapacityBlock" in answer.text
    assert "CapacityBlockOfferingId: required by PurchaseCapacityBlock" in answer.text


def test_cli_capacity_show_prints_what_the_account_has(aws: FakeAws, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from gpuops.cli import app

    aws.on("ListServiceQuotas", sagemaker_quotas({"ml.p5.48xlarge for training job usage": 2,
                                                  "ml.p5.48xlarge for spot training job usage": 8}))
    aws.on("GetServiceQuota", ec2_quotas(1536))
    aws.on("GetSpotPlacementScores", scores({"us-east-2": 7}))
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_ENDPOINT_URL": aws.url}.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(app, ["capacity", "show", "--type", "p5.48xlarge", "--count", "4",
                                      "--region", "us-east-2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("4× p5.48xlarge (768 vCPU) · read ")
    assert "  SageMaker training, on-demand: SHORT · quota short (2 of 2 instances free, 4 needed) — " \
           "ml.p5.48xlarge for training job usage" in lines
    assert "  SageMaker training, spot: fits · quota ok (8 of 8 instances free) · spot score 7/10 in us-east-2 — " \
           "ml.p5.48xlarge for spot training job usage" in lines
    assert "  EC2 / EKS, on-demand: fits · quota ok (1536 of 1536 vCPU free) — Running On-Demand P instances" in lines
    assert "  spot placement score: 7/10 for 4 instance(s)" in lines


def test_cli_capacity_show_without_credentials_says_unknown() -> None:
    from typer.testing import CliRunner

    from gpuops.cli import app

    result = CliRunner().invoke(app, ["capacity", "show", "--type", "p5.48xlarge", "--count", "4"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "4× p5.48xlarge (768 vCPU): capacity unknown (no AWS credentials)"


def test_a_held_capacity_block_is_read_and_the_plan_runs_in_it(aws: FakeAws) -> None:
    from policy.config import Platforms

    base = default_policy()
    policy = base.model_copy(update={"teams": {**base.teams, "team-ml": base.teams["team-ml"].model_copy(
        update={"platforms": Platforms(ec2=True)})}})
    aws.on("ListServiceQuotas", sagemaker_quotas({"ml.p4d.24xlarge for training job usage": 64}))
    aws.on("GetServiceQuota", ec2_quotas(10_000))
    owner = ["team-ml"]
    aws.on("DescribeCapacityReservations", lambda form: {"CapacityReservations": [{
        "CapacityReservationId": form["CapacityReservationId.1"], "InstanceType": "p4d.24xlarge",
        "TotalInstanceCount": 16, "AvailableInstanceCount": 16, "State": "active",
        "StartDate": datetime(2026, 11, 29, tzinfo=UTC), "EndDate": datetime(2026, 12, 20, tzinfo=UTC),
        "Tags": [{"Key": "gpuops:team", "Value": owner[0]}]}]})
    aws.on("SearchTrainingPlanOfferings", lambda body: {"TrainingPlanOfferings": []})
    aws.on("DescribeCapacityBlockOfferings", lambda form: {"CapacityBlockOfferings": []})
    provider = capacity(aws)
    provider.policy = policy
    request = parse_request("production pretrain 7B on 100B tokens in 20 days, use cr-0123456789abcdef0",
                            now=NOW, tz=TZ)
    decision = Planner(catalog=load_catalog(), policy=policy, spend=UnavailableSpend(),
                       capacity=provider).plan(request, now=NOW, spend=OK_SPEND).decision
    assert decision.plan.purchase_model == "capacity-block" and decision.plan.estimated_cost_usd == 0
    assert decision.plan.capacity.offering_id == "cr-0123456789abcdef0"
    assert aws.calls("DescribeCapacityReservations")[0]["CapacityReservationId.1"] == "cr-0123456789abcdef0"
    # Another team's block is theirs: not run in at no cost, and the plan says why.
    owner[0] = "team-nlp"
    elsewhere = Planner(catalog=load_catalog(), policy=policy, spend=UnavailableSpend(),
                        capacity=capacity(aws)).plan(request, now=NOW, spend=OK_SPEND).decision
    assert elsewhere.plan.purchase_model != "capacity-block" and elsewhere.plan.estimated_cost_usd > 0
    assert any("not tagged gpuops:team" in a for a in elsewhere.assumptions)
