"""The product's promise for recipes over real HTTP: `/gpu fine-tune llama-3-8b on s3://… with recipe sft` in Slack,
the plan message shows exactly what runs, the approver approves it, and the launch's dry-run artifact is the complete
CreateTrainingJob for that job. The service checks the image and data in moto (S3, ECR, IAM); a bad recipe is
answered in Slack naming the field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import boto3
import pytest
import sqlalchemy as sa
import yaml
from sqlmodel import Session, select

from policy.config import default_policy
from service.api.app import create_app
from service.api.state import build_state
from service.launch.worker import build_worker_context, drain
from service.settings import Settings, get_settings
from service.store.migrate import upgrade
from service.store.tables import Artifact
from tests.aws.conftest import moto, moto_url, sqlite_url  # noqa: F401 - the moto server and database fixtures
from tests.bot.factories import LEADS, REQUESTER
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness
from tests.service.live import serve

BOT_TOKEN = "bot-token-recipes-0123456789"
DATA = "s3://e2e-ml-data/datasets/chat-v3/"
IMAGE = "123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft:v1"


def _policy() -> str:
    policy = default_policy().model_dump(mode="json")
    team = policy["teams"]["team-ml"]
    team["launch"] = {"role_arn": "arn:aws:iam::123456789012:role/gpuops-training-e2e",
                      "s3_output": "s3://e2e-ml-data/out/", "s3_checkpoints": "s3://e2e-ml-data/ckpt/"}
    team["default_recipe"] = "sft"
    team["recipes"] = {"sft": {
        "image": IMAGE, "entry_point": "train.py", "distribution": "torchrun",
        "hyperparameters": {"model_id": {"type": "str", "default": "{model_id}"},
                            "max_tokens": {"type": "int", "default": "{tokens}"},
                            "lr": {"type": "float", "default": 2e-5, "minimum": 0, "maximum": 0.01}},
        "data_prefixes": ["s3://e2e-ml-data/datasets/"]}}
    return yaml.safe_dump(policy)


@pytest.fixture
def aws(moto: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:  # noqa: F811 - moto is the fixture above
    for name, value in {"AWS_ENDPOINT_URL": moto, "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null",
                        "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "AWS_EC2_METADATA_DISABLED": "true"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    get_settings.cache_clear()
    session = boto3.Session(aws_access_key_id="testing", aws_secret_access_key="testing", region_name="us-east-1")
    s3 = session.client("s3", endpoint_url=moto)
    s3.create_bucket(Bucket="e2e-ml-data")
    s3.put_object(Bucket="e2e-ml-data", Key="datasets/chat-v3/part-0.jsonl", Body=b"x" * 4_000_000)
    ecr = session.client("ecr", endpoint_url=moto)
    ecr.create_repository(repositoryName="training/sft")
    layer = {"digest": "sha256:" + "5" * 64, "size": 1, "mediaType": "x"}
    ecr.put_image(repositoryName="training/sft", imageTag="v1", imageManifest=json.dumps(
        {"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json", "config": layer,
         "layers": [layer]}))
    session.client("iam", endpoint_url=moto).create_role(RoleName="gpuops-training-e2e", AssumeRolePolicyDocument="{}")
    yield str(ecr.describe_images(repositoryName="training/sft")["imageDetails"][0]["imageDigest"])
    get_settings.cache_clear()


@pytest.fixture
def settings(sqlite_url: str, tmp_path: Path) -> Settings:  # noqa: F811 - the fixture imported above
    upgrade(sqlite_url)
    policy = tmp_path / "policy.yaml"
    policy.write_text(_policy())
    return Settings(database_url=sqlite_url, api_tokens=f"bot:{BOT_TOKEN}", spend="sample", launch="dry-run",
                    policy_file=str(policy))


def test_slack_to_the_exact_create_training_job(aws: str, settings: Settings, slack: FakeSlack) -> None:
    digest = aws
    state = build_state(settings)
    try:
        with serve(create_app(state=state)) as service_url:
            bot = BotHarness(slack_api_url=slack.api_url, service_url=service_url, service_token=BOT_TOKEN,
                             response_url=slack.response_url(), timeout=10,
                             clock=lambda: datetime.now(UTC)).start()
            try:
                assert bot.command(f"fine-tune llama-3-8b on {DATA} with recipe dpo", user=REQUESTER).status_code \
                    == 200
                [refusal] = slack.wait_for("response", timeout=10)
                assert refusal.body["text"].startswith(
                    "I couldn't use that: recipe: team team-ml has no recipe 'dpo'; use one of: sft")

                assert bot.command(f"fine-tune llama-3-8b on {DATA} with recipe sft lr=3e-5 by next Friday",
                                   user=REQUESTER).status_code == 200
                [post] = slack.wait_for("chat.postMessage", timeout=90)
                (shown,) = [b["text"]["text"] for b in post.blocks if "What runs" in b.get("text", {}).get("text", "")]
                assert f"image `{IMAGE.split(':v1')[0]}@{digest}`" in shown
                assert "*Runs* `train.py` (in the image) · torchrun" in shown
                assert f"*Data* `{DATA}` (4 MB)" in shown and "*Model* llama-3-8b" in shown
                assert "*Hyperparameters changed* `lr=3e-05`" in shown
                request_id = post.blocks[-2]["block_id"].removeprefix("req:")
                # The Edit dialog's dataset outside the recipe's prefixes: the service's refusal, beside that input.
                outside = {"dataset": {"dataset": {"type": "plain_text_input", "value": "s3://elsewhere/x/"}}}
                edited = bot.view_submission("edit_view", outside, json.dumps({"id": request_id, "tz": "UTC"}),
                                             user=REQUESTER)
                assert edited.json() == {"response_action": "errors", "errors": {"dataset": (
                    "dataset: s3://elsewhere/x/ is outside what recipe sft may read; use one of: "
                    "s3://e2e-ml-data/datasets/ (or below)")}}
                bot.action("approve_request", post.blocks[-2]["elements"][0]["value"], user=LEADS[0],
                           ts=post.answer["ts"])
                slack.wait_for("chat.update", timeout=60)
            finally:
                bot.stop()
        ctx = build_worker_context(settings=settings)
        assert drain(ctx=ctx) == 1
        ctx.engine.dispose()
    finally:
        state.engine.dispose()
    engine = sa.create_engine(settings.database_url)
    with Session(engine) as session:
        (artifact,) = session.exec(select(Artifact).where(Artifact.request_id == request_id)).all()
    engine.dispose()
    sent = json.loads(artifact.content)
    assert sent["AlgorithmSpecification"]["TrainingImage"] == (
        f"123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft@{digest}")
    assert sent["HyperParameters"] == {"lr": "3e-05", "max_tokens": "1000000", "model_id":
                                       '"meta-llama/Meta-Llama-3-8B"', "sagemaker_program": '"train.py"',
                                       "sagemaker_torch_distributed_enabled": "true"}
    assert [c["DataSource"]["S3DataSource"]["S3Uri"] for c in sent["InputDataConfig"]] == [DATA]
