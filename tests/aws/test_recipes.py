"""Recipes end to end against moto (S3, ECR, IAM) and the SageMaker stand-in: a request that names a recipe, a model
and data is checked before anyone approves, approved with the exact job in its plan hash, and launched as exactly
that CreateTrainingJob; bad input is refused naming the field, with nothing stored."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator
from typing import Any

import botocore.session
import pytest
import yaml
from botocore.validate import validate_parameters
from sqlalchemy.engine import Engine
from sqlmodel import select

from contract.requests import RequestCreate, RequestPatch
from policy.catalog import load_catalog
from policy.config import PolicyConfig
from policy.decision import Decision, Platform
from policy.errors import RequestError
from policy.jobspec import JobSpec, container_arguments
from policy.membership import Filer
from policy.recipes import Hyperparameter, Recipe
from service.aws.clients import ClientFactory
from service.aws.jobinputs import AwsJobInputs
from service.launch.manifests import render_artifacts
from service.launch.on_sagemaker import SageMakerLauncher
from service.launch.protocol import LaunchSpec
from service.launch.registry import LaunchEnvironment
from service.launch.worker import WorkerContext, drain
from service.planning import Planner
from service.requests.filing import create_request, revise_request
from service.spend.providers import UnavailableSpend
from service.store.db import new_session
from service.store.tables import PlanRevision, RequestRecord
from tests.aws.conftest import dummy_session
from tests.aws.factories import make_plan
from tests.aws.launchkit import NOW, REQUESTER, FakeSageMaker, approve, launch_policy, migrated_engine
from tests.service.apiclient import live_service

IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft:v1"
DATA = "s3://team-ml-data/datasets/chat-v3/"
TEXT = f"fine-tune llama-3-8b on {DATA} with recipe sft lr=3e-5 by Friday"


def _recipe(**overrides: Any) -> Recipe:
    fields: dict[str, Any] = {
        "image": IMAGE, "entry_point": "train.py", "source": "s3://team-ml-data/code/sft.tar.gz",
        "hyperparameters": {
            "model_id": Hyperparameter(type="str", default="{model_id}"),
            "max_tokens": Hyperparameter(type="int", default="{tokens}", minimum=1),
            "epochs": Hyperparameter(type="int", default=2, minimum=1, maximum=20),
            "lr": Hyperparameter(type="float", default=2e-5, minimum=0, maximum=0.01),
        },
        "datasets": {"chat-v3": DATA}, "default_dataset": "chat-v3",
        "data_prefixes": ["s3://team-ml-data/datasets/"], "environment": {"HF_HUB_OFFLINE": "1"},
    }
    return Recipe.model_validate({**fields, **overrides})


def recipe_policy(**recipe_overrides: Any) -> PolicyConfig:
    return launch_policy(recipes={"sft": _recipe(**recipe_overrides)}, default_recipe="sft")


@pytest.fixture
def aws(moto: str) -> Iterator[ClientFactory]:
    """moto with the team's data (8 MB under the prefix), source tarball, image and launch role."""
    factory = ClientFactory(session=dummy_session(), max_attempts=2,
                            endpoint_urls={"s3": moto, "ecr": moto, "iam": moto})
    s3 = factory.client("s3", region="us-east-1")
    s3.create_bucket(Bucket="team-ml-data")
    s3.put_object(Bucket="team-ml-data", Key="datasets/chat-v3/part-0.jsonl", Body=b"x" * 6_000_000)
    s3.put_object(Bucket="team-ml-data", Key="datasets/chat-v3/part-1.jsonl", Body=b"y" * 2_000_000)
    s3.put_object(Bucket="team-ml-data", Key="code/sft.tar.gz", Body=b"tarball")
    ecr = factory.client("ecr", region="us-east-1")
    ecr.create_repository(repositoryName="training/sft")
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                "config": {"digest": "sha256:" + "1" * 64, "size": 1, "mediaType": "x"},
                "layers": [{"digest": "sha256:" + "1" * 64, "size": 1, "mediaType": "x"}]}  # moto hashes the layers
    ecr.put_image(repositoryName="training/sft", imageManifest=json.dumps(manifest), imageTag="v1")
    factory.client("iam").create_role(RoleName="gpuops-training-team-ml", AssumeRolePolicyDocument="{}")
    yield factory


@pytest.fixture
def engine(sqlite_url: str) -> Engine:
    return migrated_engine(sqlite_url)


@pytest.fixture
def sagemaker(fake_aws: Any) -> FakeSageMaker:
    return FakeSageMaker(fake_aws).install()


def _planner(policy: PolicyConfig, aws: ClientFactory) -> Planner:
    return Planner(catalog=load_catalog(), policy=policy, spend=UnavailableSpend(), inputs=AwsJobInputs(factory=aws))


def _file(engine: Engine, planner: Planner, **body: Any) -> str:
    with new_session(engine) as session:
        record, _ = create_request(session=session, planner=planner, body=RequestCreate(team="team-ml", **body),
                                   actor="token:bot", requester=REQUESTER, filer=Filer(actor=REQUESTER),
                                   idempotency_key=None, now=NOW)
        return record.id


def _revision(engine: Engine, request_id: str) -> PlanRevision:
    with new_session(engine) as session:
        return session.exec(select(PlanRevision).where(PlanRevision.request_id == request_id)
                            .order_by(PlanRevision.revision.desc())).first()  # type: ignore[attr-defined]


def _worker(engine: Engine, planner: Planner, sagemaker: FakeSageMaker) -> WorkerContext:
    factory = ClientFactory(session=dummy_session(), endpoint_urls={"sagemaker": sagemaker.fake.url}, max_attempts=2)
    return WorkerContext(engine=engine, planner=planner,
                         env=LaunchEnvironment(mode="live", factory=factory, policy=planner.policy), worker_id="w1",
                         lease_seconds=300.0, clock=lambda: NOW)


def _digest(aws: ClientFactory) -> str:
    images = aws.client("ecr", region="us-east-1").describe_images(repositoryName="training/sft")["imageDetails"]
    return str(images[0]["imageDigest"])


def test_the_approved_job_is_exactly_the_create_training_job_sent(
    engine: Engine, aws: ClientFactory, sagemaker: FakeSageMaker,
) -> None:
    policy = recipe_policy()
    planner = _planner(policy, aws)
    request_id = _file(engine, planner, text=TEXT)
    job = _revision(engine, request_id).decision["job"]
    digest = _digest(aws)
    assert job["image"] == f"123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft@{digest}"
    assert (job["image_digest"], job["model"], job["model_source"]) == (digest, "llama-3-8b",
                                                                          "meta-llama/Meta-Llama-3-8B")
    assert (job["dataset"], job["dataset_bytes"], job["overrides"]) == (DATA, 8_000_000, ["lr"])
    # 8 MB at ~4 bytes per token is 2M tokens, × the recipe's 2 epochs: the workload the plan is priced on.
    assert job["hyperparameters"] == {"model_id": "meta-llama/Meta-Llama-3-8B", "max_tokens": 4_000_000,
                                      "epochs": 2, "lr": 3e-5}
    assert any("4 bytes per token" in a for a in _revision(engine, request_id).decision["assumptions"])

    approve(engine=engine, policy=policy, request_id=request_id)
    assert drain(ctx=_worker(engine, planner, sagemaker)) == 1
    (sent,) = [body for op, body in sagemaker.fake.requests if op == "CreateTrainingJob"]
    model = botocore.session.get_session().get_service_model("sagemaker")
    validate_parameters(sent, model.operation_model("CreateTrainingJob").input_shape)
    assert sent["AlgorithmSpecification"]["TrainingImage"] == job["image"]
    assert [m["Name"] for m in sent["AlgorithmSpecification"]["MetricDefinitions"]] == ["train_loss",
                                                                                       "tokens_per_second"]
    assert sent["HyperParameters"] == {
        "model_id": '"meta-llama/Meta-Llama-3-8B"', "max_tokens": "4000000", "epochs": "2", "lr": "3e-05",
        "sagemaker_program": '"train.py"', "sagemaker_submit_directory": '"s3://team-ml-data/code/sft.tar.gz"',
        "sagemaker_torch_distributed_enabled": "true"}
    assert sent["InputDataConfig"][0]["DataSource"]["S3DataSource"]["S3Uri"] == DATA
    assert sent["OutputDataConfig"]["S3OutputPath"] == f"s3://team-ml-artifacts/output/{request_id}/"
    env = sent["Environment"]
    assert (env["GPUOPS_RECIPE"], env["GPUOPS_MODEL_ID"], env["HF_HUB_OFFLINE"]) == (
        "sft", "meta-llama/Meta-Llama-3-8B", "1")
    assert json.loads(env["GPUOPS_HYPERPARAMETERS"]) == job["hyperparameters"]


def test_a_request_without_a_recipe_gets_the_teams_default_and_structured_fields_fill_the_same_job(
    engine: Engine, aws: ClientFactory,
) -> None:
    planner = _planner(recipe_policy(), aws)
    from_text = _file(engine, planner, text=TEXT)
    from_fields = _file(engine, planner, text="fine-tune by Friday", model="llama-3-8b", dataset="chat-v3",
                        hyperparameters={"lr": 3e-5})
    assert _revision(engine, from_fields).decision["job"] == _revision(engine, from_text).decision["job"]


def _change_data(aws: ClientFactory) -> None:
    aws.client("s3", region="us-east-1").put_object(Bucket="team-ml-data", Key="datasets/chat-v3/part-1.jsonl",
                                                    Body=b"z" * 2_000_000)  # same size, other content


def _push_new_image_under_the_same_tag(aws: ClientFactory) -> None:
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                "config": {"digest": "sha256:" + "3" * 64, "size": 1, "mediaType": "x"},
                "layers": [{"digest": "sha256:" + "3" * 64, "size": 1, "mediaType": "x"}]}
    ecr = aws.client("ecr", region="us-east-1")
    ecr.batch_delete_image(repositoryName="training/sft", imageIds=[{"imageTag": "v1"}])
    ecr.put_image(repositoryName="training/sft", imageManifest=json.dumps(manifest), imageTag="v1")


@pytest.mark.parametrize(("change", "field"), [(_change_data, "dataset_fingerprint"),
                                               (_push_new_image_under_the_same_tag, "image_digest")])
def test_data_or_image_changed_after_approval_sends_the_request_back_for_approval_and_launches_nothing(
    engine: Engine, aws: ClientFactory, sagemaker: FakeSageMaker, change: Any, field: str,
) -> None:
    policy = recipe_policy()
    planner = _planner(policy, aws)
    request_id = _file(engine, planner, text=TEXT + " on 1B tokens")
    approve(engine=engine, policy=policy, request_id=request_id)
    before = _revision(engine, request_id).decision["job"]
    change(aws)
    drain(ctx=_worker(engine, planner, sagemaker))

    assert sagemaker.creates() == 0
    with new_session(engine) as session:
        record = session.get(RequestRecord, request_id)
        assert record is not None and (record.status, record.revision) == ("pending_approval", 2)
    after = _revision(engine, request_id).decision["job"]
    assert after[field] != before[field]
    assert {k for k in before if before[k] != after[k]} <= {field, "image"}


BAD: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
    ("unknown recipe", {"text": TEXT.replace("recipe sft", "recipe dpo")}, {}, "unknown_recipe", "recipe: "),
    ("data outside the prefixes", {"text": TEXT.replace(DATA, "s3://other-bucket/secret/")}, {},
     "dataset_not_allowed", "dataset: "),
    ("data that is not there", {"text": TEXT.replace(DATA, "s3://team-ml-data/datasets/empty/")}, {},
     "dataset_missing", "dataset: "),
    ("missing image", {"text": TEXT}, {"image": IMAGE.replace(":v1", ":v2")}, "image_missing", "image: "),
    ("hyperparameter of the wrong type", {"text": TEXT.replace("lr=3e-5", "lr=fast")}, {},
     "invalid_hyperparameter", "hyperparameters.lr: "),
    ("hyperparameter out of range", {"text": TEXT.replace("lr=3e-5", "lr=0.5")}, {}, "invalid_hyperparameter",
     "hyperparameters.lr: 0.5 is outside 0..0.01"),
    ("hyperparameter the recipe lacks", {"text": TEXT.replace("lr=3e-5", "momentum=0.9")}, {},
     "unknown_hyperparameter", "hyperparameters.momentum: "),
    ("model the table does not know", {"text": TEXT, "model": "llama-9-1b"}, {}, "unknown_model", "model: "),
    ("model of a kind the recipe does not train", {"text": TEXT, "model": "whisper-large-v3"},
     {"model_kinds": ["causal-lm"]}, "model_not_trainable", "model: whisper-large-v3 is a speech model"),
    ("a recipe that needs a model and none named", {"text": f"fine-tune 7B on {DATA}"}, {}, "model_required",
     "model: "),
]


@pytest.mark.parametrize(("body", "recipe", "code", "starts"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_refused_naming_the_field_and_nothing_is_stored(
    engine: Engine, aws: ClientFactory, body: dict[str, Any], recipe: dict[str, Any], code: str, starts: str,
) -> None:
    planner = _planner(recipe_policy(**recipe), aws)
    with pytest.raises(RequestError) as caught:
        _file(engine, planner, **body)
    assert caught.value.code == code and str(caught.value).startswith(starts), str(caught.value)
    with new_session(engine) as session:
        assert session.exec(select(RequestRecord)).all() == []
        assert session.exec(select(PlanRevision)).all() == []


def test_a_team_without_recipes_plans_job_details_as_not_read_and_otherwise_launches_as_before(
    engine: Engine, aws: ClientFactory,
) -> None:
    planner = _planner(launch_policy(), aws)
    decision = _revision(engine, _file(engine, planner, text=TEXT)).decision
    assert decision["job"] is None  # the launch profile runs as configured: nothing of the text reaches it
    assert decision["request"]["unread"] == ["recipe sft", DATA, "lr=3e-5"]
    assert any(n.startswith("not passed to the job, team team-ml having no recipes: recipe sft")
               for n in decision["request"]["notes"])
    assert decision["approval"]["required"] is True
    request_id = _file(engine, planner, text="fine-tune 7B on 1B tokens")
    assert _revision(engine, request_id).decision["job"] is None


def test_the_dry_run_artifact_is_the_complete_request_with_the_job(engine: Engine, aws: ClientFactory) -> None:
    policy = recipe_policy()
    planner = _planner(policy, aws)
    request_id = _file(engine, planner, text=TEXT)
    approve(engine=engine, policy=policy, request_id=request_id)
    decision = Decision.model_validate(_revision(engine, request_id).decision)
    spec = LaunchSpec(request_id=request_id, revision=1, team="team-ml", plan=decision.plan, job=decision.job)
    (artifact,) = SageMakerLauncher(factory=aws, policy=policy).render(spec)
    sent = json.loads(artifact.content)
    assert sent["AlgorithmSpecification"]["TrainingImage"].endswith(f"@{_digest(aws)}")
    assert json.loads(sent["HyperParameters"]["lr"]) == 3e-5


def test_eks_and_hyperpod_renderings_carry_the_same_container_command_arguments_and_environment() -> None:
    digest = "sha256:" + "2" * 64
    job = JobSpec(recipe="sft", image=f"123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft@{digest}",
                  image_digest=digest, entry_point="train.py", source=None, distribution="torchrun",
                  model="llama-3-8b", model_source="meta-llama/Meta-Llama-3-8B", dataset=DATA, dataset_bytes=8,
                  dataset_fingerprint="f", hyperparameters={"lr": 3e-5, "epochs": 2}, overrides=["lr"],
                  environment={"HF_HUB_OFFLINE": "1"}, metric_definitions=[])
    team = recipe_policy().teams["team-ml"]
    kwargs: dict[str, Any] = {"team": "team-ml", "team_policy": team, "job_name": "gpuops-req-1-r1",
                              "request_id": "req_1", "revision": 1, "job": job}
    eks = render_artifacts(plan=make_plan(platform=Platform.EKS), **kwargs)
    pytorchjob = yaml.safe_load(eks[0].content)
    (container,) = pytorchjob["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["containers"]
    assert container["image"] == job.image
    assert container["command"] == ["torchrun", "--nproc_per_node=8", "train.py", "--epochs", "2", "--lr", "3e-05"]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert json.loads(env["GPUOPS_HYPERPARAMETERS"]) == job.hyperparameters
    assert (env["GPUOPS_DATASET_URI"], env["GPUOPS_MODEL_ID"], env["HF_HUB_OFFLINE"]) == (
        DATA, "meta-llama/Meta-Llama-3-8B", "1")

    (slurm,) = render_artifacts(plan=make_plan(platform=Platform.HYPERPOD), **kwargs)
    assert f"--container-image={job.image}" in slurm.content
    assert " ".join(shlex.quote(a) for a in ["train.py", *container_arguments(job)]) in slurm.content
    assert "export GPUOPS_HYPERPARAMETERS=" in slurm.content


def test_the_api_takes_the_job_as_structured_fields_and_refuses_bad_ones_with_a_422_naming_the_field(
    sqlite_url: str, aws: ClientFactory,
) -> None:
    migrated_engine(sqlite_url).dispose()
    with live_service(sqlite_url, recipe_policy(), aws=aws) as live:
        fields = {"text": "fine-tune", "team": "team-ml", "model": "llama-3-8b", "recipe": "sft",
                  "dataset": DATA, "hyperparameters": {"lr": 3e-5, "epochs": 1}}
        preview = live.post("/v1/plans", fields, role="bot", actor=REQUESTER)
        assert preview.status_code == 200, preview.text
        filed = live.post("/v1/requests", fields, role="bot", actor=REQUESTER)
        assert filed.status_code == 201, filed.text
        job = filed.json()["decision"]["job"]
        assert job == preview.json()["job"]
        assert (job["overrides"], job["hyperparameters"]["epochs"], job["image_digest"]) == (
            ["epochs", "lr"], 1, _digest(aws))

        refused = live.post("/v1/requests", {**fields, "dataset": "s3://elsewhere/data/"}, role="bot",
                            actor=REQUESTER)
        assert refused.status_code == 422
        error = refused.json()["error"]
        assert error["code"] == "dataset_not_allowed"
        assert error["message"] == ("dataset: s3://elsewhere/data/ is outside what recipe sft may read; use one of: "
                                    "chat-v3, s3://team-ml-data/datasets/ (or below)")
        wrong_type = live.post("/v1/requests", {**fields, "hyperparameters": {"epochs": 1.5}}, role="bot",
                               actor=REQUESTER)
        assert (wrong_type.status_code, wrong_type.json()["error"]["code"]) == (422, "invalid_hyperparameter")
        assert [r["id"] for r in live.get("/v1/requests").json()["items"]] == [filed.json()["id"]]


def test_editing_the_data_after_approval_voids_the_approval_and_the_new_data_launches_only_once_approved(
    engine: Engine, aws: ClientFactory, sagemaker: FakeSageMaker,
) -> None:
    policy = recipe_policy()
    planner = _planner(policy, aws)
    request_id = _file(engine, planner, text=TEXT + " on 1B tokens")
    approve(engine=engine, policy=policy, request_id=request_id)
    aws.client("s3", region="us-east-1").put_object(Bucket="team-ml-data", Key="datasets/chat-v4/part-0.jsonl",
                                                    Body=b"v4")
    with new_session(engine) as session:
        record = revise_request(session=session, planner=planner, request_id=request_id,
                                patch=RequestPatch(dataset="s3://team-ml-data/datasets/chat-v4/"), actor=REQUESTER,
                                is_admin=False, filer=Filer(actor=REQUESTER), now=NOW)
        assert (record.status, record.revision) == ("pending_approval", 2)
    assert drain(ctx=_worker(engine, planner, sagemaker)) == 1  # the first revision's launch: superseded
    assert sagemaker.creates() == 0

    approve(engine=engine, policy=policy, request_id=request_id)
    drain(ctx=_worker(engine, planner, sagemaker))
    (sent,) = [body for op, body in sagemaker.fake.requests if op == "CreateTrainingJob"]
    assert sent["InputDataConfig"][0]["DataSource"]["S3DataSource"]["S3Uri"] == "s3://team-ml-data/datasets/chat-v4/"
    assert sent["TrainingJobName"].endswith("-r2")
