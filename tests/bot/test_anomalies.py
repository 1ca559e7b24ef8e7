"""A Cost Explorer anomaly, end to end over real HTTP: the worker's daily read posts it once in the team's channel
with Expected / Not expected; an approver's click goes bot → service → ProvideAnomalyFeedback, as botocore's model
of Cost Explorer allows, and the message shows who said what."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3
import botocore.session
import httpx
import pytest
import yaml
from botocore.validate import ParamValidator

from bot.event_follower import FeedConsumer
from service.alerts.anomalies import watch_anomalies
from service.api.app import create_app
from service.api.state import build_state
from service.aws.clients import ClientFactory
from service.settings import Settings
from tests.aws.fakeaws import FakeAws, start_fake_aws
from tests.bot.factories import LEADS
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness
from tests.bot.test_end_to_end import BOT_TOKEN, launchable_policy, service_settings  # noqa: F401 - the fixture
from tests.service.live import serve

NOW = datetime(2026, 11, 30, 7, 0, tzinfo=UTC)
ANOMALY = {"AnomalyId": "4c1e0f5e-22d1-4d9a-a0f4-0c9f6f1b2a77", "AnomalyStartDate": "2026-11-28",
           "AnomalyEndDate": "2026-11-29", "DimensionValue": "team-ml", "MonitorArn": "arn:aws:ce::1:anomalymonitor/m1",
           "AnomalyScore": {"MaxScore": 0.92, "CurrentScore": 0.9},
           "Impact": {"MaxImpact": 2100.0, "TotalImpact": 3400.0, "TotalActualSpend": 5200.0,
                      "TotalExpectedSpend": 1800.0},
           "RootCauses": [{"Service": "Amazon SageMaker", "Region": "us-east-1", "UsageType": "ml.p5.48xlarge"}]}


@pytest.fixture
def cost_explorer() -> Iterator[FakeAws]:
    fake, server = start_fake_aws()
    fake.on("CreateAnomalyMonitor", lambda _body: {"MonitorArn": "arn:aws:ce::1:anomalymonitor/m1"})
    fake.on("GetAnomalies", lambda _body: {"Anomalies": [ANOMALY]})
    fake.on("ProvideAnomalyFeedback", lambda body: {"AnomalyId": body["AnomalyId"]})
    yield fake
    server.shutdown()
    server.server_close()


def _valid(operation: str, body: dict[str, Any]) -> None:
    model = botocore.session.get_session().get_service_model("ce").operation_model(operation)
    report = ParamValidator().validate(body, model.input_shape)
    assert not report.has_errors(), report.generate_report()


def test_an_anomaly_is_posted_once_and_an_approvers_verdict_reaches_cost_explorer(
    service_settings: Settings, slack: FakeSlack, cost_explorer: FakeAws  # noqa: F811
) -> None:
    session = boto3.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
    factory = ClientFactory(session=session, endpoint_urls={"ce": cost_explorer.url}, max_attempts=1)
    state = build_state(service_settings, aws=factory)
    policy = state.policy.model_copy(update={"teams": {"team-ml": state.policy.teams["team-ml"]}})
    try:
        def watch(at: datetime) -> int:
            return watch_anomalies(engine=state.engine, client_for=lambda: factory.client("ce"), policy=policy,
                                   now=at)

        assert watch(NOW - timedelta(days=1)) == 0  # the monitor is created; it has nothing to read that day
        assert watch(NOW) == 1
        assert watch(NOW + timedelta(hours=6)) == 0  # read once a day
        assert watch(NOW + timedelta(days=1)) == 0  # read again the next day: nothing new
        [created] = cost_explorer.calls("CreateAnomalyMonitor")
        assert created["AnomalyMonitor"]["MonitorSpecification"]["Tags"]["Key"] == "team"
        reads = cost_explorer.calls("GetAnomalies")
        assert len(reads) == 2
        for operation, body in [("CreateAnomalyMonitor", created), *[("GetAnomalies", r) for r in reads]]:
            _valid(operation, body)
        with serve(create_app(state=state)) as service_url:
            bot = BotHarness(slack_api_url=slack.api_url, service_url=service_url, service_token=BOT_TOKEN,
                             response_url=slack.response_url(), timeout=10, clock=lambda: NOW).start()
            try:
                feed = FeedConsumer(service=bot.service, client=bot.app.client, clock=lambda: NOW)
                while feed.step():
                    pass
                [post] = slack.of("chat.postMessage")
                assert post.body["channel"] == "C0DIGEST"
                assert post.body["text"].startswith(
                    "🔎 Cost Explorer sees unusual spend on *team-ml* (2026-11-28 to 2026-11-29): $5,200 against "
                    "$1,800 expected, $3,400 more.\nAWS names: Amazon SageMaker · us-east-1 · ml.p5.48xlarge\n")
                assert [e["action_id"] for e in post.blocks[-1]["elements"]] == ["anomaly_expected",
                                                                                  "anomaly_not_expected"]
                anomaly_id = post.blocks[-1]["elements"][1]["value"]

                bot.action("anomaly_not_expected", anomaly_id, user="U0STRANGER", channel="C0DIGEST")
                [refusal] = slack.wait_for("response", timeout=10)
                assert refusal.body["response_type"] == "ephemeral" and "approver of team-ml" in refusal.body["text"]
                assert cost_explorer.calls("ProvideAnomalyFeedback") == []

                bot.action("anomaly_not_expected", anomaly_id, user=LEADS[0], channel="C0DIGEST")
                [update] = slack.wait_for("chat.update", timeout=10)
                said = f"<@{LEADS[0]}> said this was not expected; Cost Explorer has been told."
                assert update.body["text"] == said and update.blocks[-1]["elements"][0]["text"] == said
            finally:
                bot.stop()
        [feedback] = cost_explorer.calls("ProvideAnomalyFeedback")
        _valid("ProvideAnomalyFeedback", feedback)
        assert feedback == {"AnomalyId": ANOMALY["AnomalyId"], "Feedback": "YES"}
    finally:
        state.engine.dispose()


def test_an_approver_admitted_through_a_slack_user_group_may_answer_as_the_bot_vouches(
    service_settings: Settings, cost_explorer: FakeAws, tmp_path: Path  # noqa: F811
) -> None:
    policy = yaml.safe_load(launchable_policy())
    for name in policy["groups"]:
        policy["groups"][name] = [*policy["groups"][name], "usergroup:S0LEADS"]
    policy_file = tmp_path / "groups.yaml"
    policy_file.write_text(yaml.safe_dump(policy))
    session = boto3.Session(aws_access_key_id="test", aws_secret_access_key="test", region_name="us-east-1")
    factory = ClientFactory(session=session, endpoint_urls={"ce": cost_explorer.url}, max_attempts=1)
    state = build_state(service_settings.model_copy(update={"policy_file": str(policy_file)}), aws=factory)
    try:
        watch_anomalies(engine=state.engine, client_for=lambda: factory.client("ce"), policy=state.policy,
                        now=NOW - timedelta(days=1))
        assert watch_anomalies(engine=state.engine, client_for=lambda: factory.client("ce"), policy=state.policy,
                               now=NOW) >= 1
        path = f"/v1/anomalies/{ANOMALY['AnomalyId']}/feedback"
        headers = {"Authorization": f"Bearer {BOT_TOKEN}", "X-Gpuops-Actor": "slack:T0TEST:U0STRANGER"}
        with serve(create_app(state=state)) as service_url, httpx.Client(base_url=service_url) as http:
            unvouched = http.post(path, json={"verdict": "expected"}, headers=headers)
            vouched = http.post(path, json={"verdict": "expected", "approver_groups": ["S0LEADS"]}, headers=headers)
        assert unvouched.status_code == 403 and unvouched.json()["error"]["code"] == "not_allowed_to_answer"
        assert vouched.status_code == 200, vouched.text
        assert vouched.json()["by"] == "slack:T0TEST:U0STRANGER"
        assert cost_explorer.calls("ProvideAnomalyFeedback") == [{"AnomalyId": ANOMALY["AnomalyId"],
                                                                  "Feedback": "PLANNED_ACTIVITY"}]
    finally:
        state.engine.dispose()
