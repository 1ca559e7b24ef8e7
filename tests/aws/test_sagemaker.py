"""CreateTrainingJob from an approved plan, checked by botocore's model and by moto; describe/stop/list."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import botocore.session
import pytest
from botocore.validate import validate_parameters

from policy.decision import PurchaseModel
from policy.errors import RequestError
from service.aws.sagemaker import (
    JOB_NAME_PATTERN,
    JobAlreadyExists,
    LaunchRejected,
    build_create_training_job,
    build_create_training_jobs,
    create_training_job,
    describe_training_job,
    list_training_jobs,
    stop_training_job,
    training_job_name,
)
from tests.aws.factories import make_plan, make_team
from tests.aws.fakeaws import AwsFault, FakeAws

APPROVERS = ["slack:T0GPUOPS:U0LEAD1", "slack:T0GPUOPS:U0FIN1"]


def _request(**plan_overrides: Any) -> dict[str, Any]:
    return build_create_training_job(plan=make_plan(**plan_overrides), team="team-ml", team_policy=make_team(),
                                     request_id="req_01JDX8Z6", revision=3, approvers=APPROVERS)


def _validate(request: dict[str, Any]) -> None:
    model = botocore.session.get_session().get_service_model("sagemaker")
    validate_parameters(request, model.operation_model("CreateTrainingJob").input_shape)


def test_spot_request_is_valid_for_botocore_and_carries_spot_checkpoint_and_tags() -> None:
    request = _request()
    _validate(request)
    assert request["TrainingJobName"] == "gpuops-req-01JDX8Z6-r3"
    assert request["ResourceConfig"]["InstanceType"] == "ml.p5.48xlarge"
    assert request["ResourceConfig"]["InstanceCount"] == 2
    assert request["EnableManagedSpotTraining"] is True
    stopping = request["StoppingCondition"]
    assert stopping["MaxRuntimeInSeconds"] == 15 * 3600
    assert stopping["MaxWaitTimeInSeconds"] >= stopping["MaxRuntimeInSeconds"]
    assert request["CheckpointConfig"] == {
        "S3Uri": "s3://team-ml-artifacts/checkpoints/gpuops-req-01JDX8Z6-r3/", "LocalPath": "/opt/ml/checkpoints"}
    assert request["Environment"]["GPUOPS_CHECKPOINT_INTERVAL_MINUTES"] == "27"
    assert request["VpcConfig"] == {"Subnets": ["subnet-0abc"], "SecurityGroupIds": ["sg-0abc"]}
    tags = {t["Key"]: t["Value"] for t in request["Tags"]}
    assert tags["team"] == "team-ml"  # the cost-allocation tag, so Cost Explorer sees the job's spend
    assert (tags["gpuops:request"], tags["gpuops:revision"]) == ("req_01JDX8Z6", "3")
    assert tags["gpuops:approvers"] == "slack:T0GPUOPS:U0FIN1 slack:T0GPUOPS:U0LEAD1"
    assert tags["cost-center"] == "ml-research"


def test_on_demand_request_has_no_spot_wait() -> None:
    request = _request(purchase_model=PurchaseModel.ON_DEMAND, checkpoint_interval_minutes=None)
    _validate(request)
    assert request["EnableManagedSpotTraining"] is False
    assert "MaxWaitTimeInSeconds" not in request["StoppingCondition"]
    assert "GPUOPS_CHECKPOINT_INTERVAL_MINUTES" not in request["Environment"]


def test_a_plan_that_splits_each_sequence_tells_the_container_across_how_many() -> None:
    assert _request(context_parallel=4)["Environment"]["GPUOPS_CONTEXT_PARALLEL"] == "4"
    assert "GPUOPS_CONTEXT_PARALLEL" not in _request()["Environment"]  # a sequence one accelerator holds


def test_a_plan_that_trains_in_fp8_tells_the_container() -> None:
    assert _request(precision="fp8")["Environment"]["GPUOPS_PRECISION"] == "fp8"
    assert "GPUOPS_PRECISION" not in _request()["Environment"]  # BF16, what every script computes in unless told


@pytest.mark.parametrize(
    ("request_id", "revision"),
    [("req_01JDX8Z6", 1), ("req_" + "x" * 80, 12), ("--weird__id--", 999), ("r", 1), ("ünïcode-ïd", 2)],
)
def test_job_names_are_deterministic_and_follow_sagemakers_rules(request_id: str, revision: int) -> None:
    name = training_job_name(request_id=request_id, revision=revision)
    assert name == training_job_name(request_id=request_id, revision=revision)
    assert len(name) <= 63 and JOB_NAME_PATTERN.match(name)
    assert name.endswith(f"-r{revision}")
    assert name != training_job_name(request_id=request_id, revision=revision + 1)


def test_long_ids_that_share_a_prefix_still_get_distinct_names() -> None:
    a = training_job_name(request_id="req_" + "a" * 70 + "1", revision=1)
    b = training_job_name(request_id="req_" + "a" * 70 + "2", revision=1)
    assert a != b


def test_a_sweep_becomes_one_job_per_trial() -> None:
    requests = build_create_training_jobs(plan=make_plan(jobs=3, instances_per_job=1, instance_count=3),
                                          team="team-ml", team_policy=make_team(), request_id="req_1", revision=1,
                                          approvers=[])
    assert [r["TrainingJobName"] for r in requests] == ["gpuops-req-1-r1-t1", "gpuops-req-1-r1-t2",
                                                        "gpuops-req-1-r1-t3"]
    assert {r["ResourceConfig"]["InstanceCount"] for r in requests} == {1}


def test_tag_values_stay_within_limits_and_allowed_characters() -> None:
    approvers = [f"slack:T0GPUOPS:U{i:08d},<evil>" for i in range(40)]
    request = build_create_training_job(plan=make_plan(), team="team-ml", team_policy=make_team(),
                                        request_id="req_1", revision=1, approvers=approvers)
    value = {t["Key"]: t["Value"] for t in request["Tags"]}["gpuops:approvers"]
    assert len(value) <= 256
    assert re.fullmatch(r"[\w\s.:/=+\-@]*", value)


def test_an_incomplete_profile_is_refused_naming_the_missing_fields() -> None:
    with pytest.raises(RequestError, match="s3_checkpoints") as caught:
        build_create_training_job(plan=make_plan(), team="team-ml", team_policy=make_team(s3_checkpoints=None),
                                  request_id="req_1", revision=1, approvers=[])
    assert caught.value.code == "launch_not_configured"


def test_moto_accepts_the_request_and_describes_the_job(moto: str, make_factory: Any) -> None:
    client = make_factory({"sagemaker": moto}).client("sagemaker")
    request = _request()
    arn = create_training_job(client=client, request=request)
    described = describe_training_job(client=client, name=request["TrainingJobName"])
    assert described is not None and described["TrainingJobArn"] == arn
    assert describe_training_job(client=client, name="gpuops-no-such-job-r1") is None
    names = [j["TrainingJobName"] for j in list_training_jobs(client=client)]
    assert names == [request["TrainingJobName"]]


def _fault(code: str, message: str) -> Any:
    def handler(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault(code, message)

    return handler


def test_a_taken_name_is_reported_as_an_existing_job(fake_aws: FakeAws, make_factory: Any) -> None:
    fake_aws.on("CreateTrainingJob", _fault("ResourceInUse", "Training job names must be unique"))
    client = make_factory({"sagemaker": fake_aws.url}).client("sagemaker")
    with pytest.raises(JobAlreadyExists):
        create_training_job(client=client, request=_request())


@pytest.mark.parametrize("code", ["ValidationException", "ResourceLimitExceeded"])
def test_validation_and_limit_errors_are_rejections_with_awss_message(code: str, fake_aws: FakeAws,
                                                                      make_factory: Any) -> None:
    fake_aws.on("CreateTrainingJob", _fault(code, "The account-level service limit is 0 Instances"))
    client = make_factory({"sagemaker": fake_aws.url}).client("sagemaker")
    with pytest.raises(LaunchRejected, match="service limit is 0 Instances"):
        create_training_job(client=client, request=_request())
    assert len(fake_aws.calls("CreateTrainingJob")) == 1  # not retried


def test_stop_sends_the_job_name(fake_aws: FakeAws, make_factory: Any) -> None:
    fake_aws.on("StopTrainingJob", lambda body: {})
    client = make_factory({"sagemaker": fake_aws.url}).client("sagemaker")
    stop_training_job(client=client, name="gpuops-req-1-r1")
    assert fake_aws.calls("StopTrainingJob") == [{"TrainingJobName": "gpuops-req-1-r1"}]


def test_describe_of_a_missing_job_on_aws_wording_is_none(fake_aws: FakeAws, make_factory: Any) -> None:
    fake_aws.on("DescribeTrainingJob", _fault("ValidationException", "Requested resource not found."))
    client = make_factory({"sagemaker": fake_aws.url}).client("sagemaker")
    assert describe_training_job(client=client, name="gpuops-req-1-r1") is None


def test_created_at_is_a_datetime_in_moto_answers(moto: str, make_factory: Any) -> None:
    client = make_factory({"sagemaker": moto}).client("sagemaker")
    request = _request()
    create_training_job(client=client, request=request)
    described = describe_training_job(client=client, name=request["TrainingJobName"])
    assert described is not None and isinstance(described["CreationTime"], datetime)
    assert described["CreationTime"].tzinfo is not None and described["CreationTime"] <= datetime.now(UTC)
