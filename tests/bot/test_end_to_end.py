"""The whole path over real HTTP: the service (uvicorn on Postgres and Redis), the bot, a fake Slack.

Slash command → plan posted → a non-approver's click refused → the approver's click → message updated in place →
the launch (dry run, by the worker) → a reply in the request's thread.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml

from bot.app import build_web_client
from bot.client import ServiceClient
from bot.event_follower import FeedConsumer
from bot.scheduler import DigestScheduler
from bot.settings import BotSettings
from contract.actors import actor_id
from policy.config import default_policy
from service.api.app import create_app
from service.api.state import build_state
from service.launch.worker import build_worker_context, drain
from service.settings import Settings
from service.store.migrate import upgrade
from tests.bot.factories import LEADS, REQUESTER, TEAM_ID
from tests.bot.fake_slack import FakeSlack
from tests.bot.harness import BotHarness
from tests.service.live import serve

BOT_TOKEN = "bot-token-e2e-0123456789"
REQUEST = "fine-tune 13B on 5B tokens by next Friday"  # above auto-approval: it waits for an approver


def launchable_policy() -> str:
    """The embedded policy with a SageMaker launch profile for team-ml, so a dry-run launch goes through."""
    policy = default_policy().model_dump(mode="json")
    policy["teams"]["team-ml"]["launch"] = {
        "role_arn": "arn:aws:iam::123456789012:role/gpuops-training", "image": "123456789012.dkr.ecr.us-east-1"
        ".amazonaws.com/train:latest", "s3_input": "s3://gpuops-e2e/in/", "s3_output": "s3://gpuops-e2e/out/",
        "s3_checkpoints": "s3://gpuops-e2e/ckpt/"}
    policy["teams"]["team-ml"]["digest"] = {"channel": "C0DIGEST", "time": "00:00", "timezone": "UTC"}
    return yaml.safe_dump(policy)


@pytest.fixture
def service_settings(postgres_url: str, redis_url: str, tmp_path: Path) -> Iterator[Settings]:
    schema = f"bot_e2e_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = f"{postgres_url}?options=-csearch_path%3D{schema}"
    upgrade(url)
    policy = tmp_path / "policy.yaml"
    policy.write_text(launchable_policy())
    yield Settings(database_url=url, redis_url=redis_url, redis_prefix=f"{schema}:", api_tokens=f"bot:{BOT_TOKEN}",
                   spend="sample",
                   launch="dry-run", policy_file=str(policy))
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    admin.dispose()


def test_command_to_thread_reply(service_settings: Settings, slack: FakeSlack) -> None:
    state = build_state(service_settings)
    try:
        with serve(create_app(state=state)) as service_url:
            bot = BotHarness(slack_api_url=slack.api_url, service_url=service_url, service_token=BOT_TOKEN,
                             response_url=slack.response_url(), timeout=10,
                             clock=lambda: datetime.now(UTC)).start()
            try:
                run_the_story(bot, slack, service_settings)
            finally:
                bot.stop()
    finally:
        state.engine.dispose()


def wait_until(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def visible_file_names(blocks: object) -> set[str]:
    """File names a reader would see in ``blocks``: link targets (``<url|label>``) are not shown, their labels are."""
    text = re.sub(r"<(?:https?://|!date\^)[^|>]*\|([^>]*)>", r"\1", json.dumps(blocks, ensure_ascii=False))
    return set(re.findall(r"[\w./-]+\.(?:py|md|ya?ml|json|csv)\b", text))


def run_the_story(bot: BotHarness, slack: FakeSlack, settings: Settings) -> None:
    assert bot.command(REQUEST, user=REQUESTER).status_code == 200
    [post] = slack.wait_for("chat.postMessage", timeout=10)
    ts = post.answer["ts"]
    summary = post.blocks[0]["text"]["text"]
    assert summary.startswith("*") and " · " in summary and REQUEST in summary
    request_id = post.blocks[-2]["block_id"].removeprefix("req:")
    assert [e["action_id"] for e in post.blocks[-2]["elements"]] == [
        "approve_request", "reject_request", "edit_request", "why_request", "cancel_request"]
    # The real service's decision, rendered: no repository path a person could not open, times as date tokens.
    assert visible_file_names(post.blocks) == set()
    assert "<!date^" in summary and len(post.blocks) <= 50
    assert post.blocks[-3]["text"]["text"].startswith(f"⏳ *Waiting for 1 approval* from <@{LEADS[0]}>")
    assert wait_until(lambda: bot.service.get_request(request_id=request_id).slack_message is not None)
    stored = bot.service.get_request(request_id=request_id)
    assert stored.slack_message is not None and stored.slack_message.ts == ts

    bot.action("approve_request", request_id, user="U0STRANGER", ts=ts)
    [refusal] = slack.wait_for("response", timeout=10)
    assert refusal.body["response_type"] == "ephemeral"
    assert refusal.body["text"].startswith("You can't do that: ")
    assert slack.of("chat.update") == []

    bot.action("approve_request", request_id, user=LEADS[0], ts=ts)
    [update] = slack.wait_for("chat.update", timeout=10)
    assert update.body["ts"] == ts
    assert update.blocks[-3]["text"]["text"].startswith(f"✅ *Approved*\n✓ <@{LEADS[0]}> approved")
    dm = slack.wait_for("chat.postMessage", count=2, timeout=10)[1]
    assert dm.body["channel"] == REQUESTER and "was approved" in dm.body["text"]

    ctx = build_worker_context(settings=settings)
    assert drain(ctx=ctx) == 1
    ctx.engine.dispose()
    feed = FeedConsumer(service=bot.service, client=bot.app.client, clock=bot.deps.clock)
    while feed.step():
        pass
    replies = [c for c in slack.of("chat.postMessage") if c.body.get("thread_ts") == ts]
    assert replies, [c.body for c in slack.of("chat.postMessage")]
    job = bot.service.get_request(request_id=request_id).job
    assert job is not None
    assert [r.body["text"] for r in replies] == [
        "🧪 Dry run: nothing was launched; the request that would have been sent is attached."]
    assert bot.service.get_request(request_id=request_id).status == "dry_run"
    assert bot.service.get_cursor("bot") is not None


def test_a_click_on_a_message_showing_an_earlier_revision_approves_nothing(service_settings: Settings,
                                                                          slack: FakeSlack) -> None:
    state = build_state(service_settings)
    try:
        with serve(create_app(state=state)) as service_url:
            bot = BotHarness(slack_api_url=slack.api_url, service_url=service_url, service_token=BOT_TOKEN,
                             response_url=slack.response_url(), timeout=10,
                             clock=lambda: datetime.now(UTC)).start()
            try:
                assert bot.command(REQUEST, user=REQUESTER).status_code == 200
                [post] = slack.wait_for("chat.postMessage", timeout=10)
                request_id = post.blocks[-2]["block_id"].removeprefix("req:")
                shown = post.blocks[-2]["elements"][0]["value"]
                assert shown == f"{request_id}:1"
                bot.service.patch_request(request_id=request_id, actor=actor_id(TEAM_ID, REQUESTER),
                                          changes={"seq_len": 8192})  # revision 2, before the message shows it

                bot.action("approve_request", shown, user=LEADS[0], ts=post.answer["ts"])
                [refusal] = slack.wait_for("response", timeout=10)
                assert refusal.body["response_type"] == "ephemeral"
                assert "the plan changed since you saw it" in refusal.body["text"]
                [update] = slack.wait_for("chat.update", timeout=10)
                assert update.blocks[-2]["elements"][0]["value"] == f"{request_id}:2"
                req = bot.service.get_request(request_id=request_id)
                assert (req.status, req.revision, req.approvals) == ("pending_approval", 2, [])
            finally:
                bot.stop()
    finally:
        state.engine.dispose()


def test_two_bot_replicas_post_one_digest_through_the_real_service(service_settings: Settings,
                                                                    slack: FakeSlack) -> None:
    state = build_state(service_settings)
    try:
        with serve(create_app(state=state)) as service_url:
            clients = [ServiceClient(base_url=service_url, token=BOT_TOKEN, timeout=10) for _ in range(2)]
            settings = BotSettings(SLACK_BOT_TOKEN="xoxb-test", SLACK_API_URL=slack.api_url)
            replicas = [DigestScheduler(service=c, client=build_web_client(settings),
                                        clock=lambda: datetime.now(UTC)) for c in clients]
            barrier = threading.Barrier(2)
            posted: list[list[tuple[str, str]]] = []

            def tick(scheduler: DigestScheduler) -> None:
                barrier.wait()
                posted.append(scheduler.tick())

            threads = [threading.Thread(target=tick, args=(r,)) for r in replicas]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            for client in clients:
                client.close()
    finally:
        state.engine.dispose()
    today = datetime.now(UTC).date().isoformat()
    assert sorted(posted) == [[], [("C0DIGEST", today)]]
    assert [c.method for c in slack.calls if c.method.startswith("files") or c.method == "upload"] == [
        "files.getUploadURLExternal", "upload", "files.completeUploadExternal"]
    [complete] = slack.of("files.completeUploadExternal")  # one post: the chart with the digest as its message
    assert complete.body["channel_id"] == "C0DIGEST" and complete.blocks[0]["text"]["text"].startswith("*AWS spend")
    assert [c for c in slack.of("chat.postMessage") if c.body["channel"] == "C0DIGEST"] == []


def test_only_members_file_for_a_team_that_lists_them(service_settings: Settings, slack: FakeSlack,
                                                       tmp_path: Path) -> None:
    policy = yaml.safe_load(launchable_policy())
    policy["teams"]["team-nlp"]["members"] = ["usergroup:S0NLP", "email:ana@example.com"]
    path = tmp_path / "members.yaml"
    path.write_text(yaml.safe_dump(policy))
    slack.emails["U0ANA"] = "ana@example.com"
    slack.usergroups = {"S0NLP": ["U0GROUPED"]}
    state = build_state(service_settings.model_copy(update={"policy_file": str(path)}))
    try:
        with serve(create_app(state=state)) as service_url:
            bot = BotHarness(slack_api_url=slack.api_url, service_url=service_url, service_token=BOT_TOKEN,
                             response_url=slack.response_url(), timeout=10,
                             clock=lambda: datetime.now(UTC)).start()
            try:
                assert bot.command(f"{REQUEST} for team-nlp", user=REQUESTER).status_code == 200
                [refusal] = slack.wait_for("response", timeout=10)
                assert refusal.body["response_type"] == "ephemeral"
                assert refusal.body["text"].startswith(
                    "You can't do that: only members of team-nlp may file requests for it")
                assert f"ask <@{LEADS[0]}>" in refusal.body["text"]  # an approver of the team, as a mention

                for user in ("U0ANA", "U0GROUPED"):  # a member by e-mail, then one by Slack user group
                    assert bot.command(f"{REQUEST} for team-nlp", user=user).status_code == 200
                posts = slack.wait_for("chat.postMessage", count=2, timeout=10)
                ids = [p.blocks[-2]["block_id"].removeprefix("req:") for p in posts]
                filed = [bot.service.get_request(request_id=i) for i in ids]
                assert sorted((r.requester, r.team) for r in filed) == [
                    (actor_id(TEAM_ID, "U0ANA"), "team-nlp"), (actor_id(TEAM_ID, "U0GROUPED"), "team-nlp")]
                assert len(slack.of("response")) == 1
            finally:
                bot.stop()
    finally:
        state.engine.dispose()
