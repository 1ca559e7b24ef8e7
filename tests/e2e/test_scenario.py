"""The ``make e2e`` story under pytest: service, worker and bot as real subprocesses on Postgres and Redis, Slack
and AWS as stand-ins on 127.0.0.1, from a signed slash command to the completed job's reply and the digest."""

from __future__ import annotations

import uuid
from pathlib import Path

from bench.e2e import run_story
from bench.harness import fresh_database


def test_slash_command_to_completed_job_and_digest(postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    with fresh_database(postgres_url) as database_url:
        outcome = run_story(database_url=database_url, redis_url=redis_url, folder=tmp_path,
                            redis_prefix=f"e2e-{uuid.uuid4().hex[:10]}:")
    failed = [s for s in outcome.steps if not s.ok]
    assert not failed, outcome.report()
    assert [s.name for s in outcome.steps] == [
        "slash command acknowledged", "plan posted in the channel", "non-approver's click refused",
        "approver's click → message updated", "CreateTrainingJob at SageMaker", "launch reply in the thread",
        "tracker records Completed", "reply: actual vs estimate", "digest posted with chart"]
