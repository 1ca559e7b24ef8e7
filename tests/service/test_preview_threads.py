"""``POST /v1/plans`` answers on the event loop only when nothing it reads can wait: a read from AWS or the database
runs in a worker thread, so one preview waiting on S3 or the calibration table never holds up every other request
the service is answering."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from policy.calibration import Calibration
from policy.capacity import CapacityView
from policy.catalog import load_catalog
from policy.config import PolicyConfig
from policy.decision import Decision
from policy.jobspec import JobDraft, JobFacts
from policy.recipes import Recipe
from service.api.app import create_app
from service.api.state import build_state
from service.jobs.outcomes import CachedCalibration
from service.planning import Planner
from service.settings import Settings
from service.spend.providers import SampleSpend, sample_spend_path
from service.store.db import make_engine
from tests.service.apiclient import TOKENS
from tests.service.conftest import create_sqlite_db
from tests.service.factories import make_policy
from tests.service.live import serve

NOW = datetime(2027, 3, 3, 10, 0, tzinfo=UTC)
ADMIN = {"Authorization": f"Bearer {TOKENS['admin']}", "content-type": "application/json"}


def _on_the_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class WatchedCapacity:
    """An account whose reads note whether they ran on the event loop; ``blocks`` as a test states it."""

    def __init__(self, *, blocks: bool) -> None:
        self.blocks = blocks
        self.on_loop: list[bool] = []

    def upfront(self) -> None:
        return None

    def view_for(self, decision: Decision, *, now: datetime, known: CapacityView | None = None) -> CapacityView:
        self.on_loop.append(_on_the_event_loop())
        return CapacityView(known=True, as_of=now)

    def view_of(self, *, instance_type: str, count: int, regions: list[str], now: datetime) -> CapacityView:
        return CapacityView(known=True, as_of=now)


class WatchedInputs:
    """AWS facts about a job's inputs, noting whether each read ran on the event loop."""

    blocks = True

    def __init__(self) -> None:
        self.on_loop: list[bool] = []

    def facts(self, *, draft: JobDraft, role_arn: str | None, region: str) -> JobFacts:
        self.on_loop.append(_on_the_event_loop())
        return JobFacts()


def _preview(planner: Planner, tmp_path: Path, text: str = "fine-tune 7B on 1B tokens") -> int:
    url = create_sqlite_db(tmp_path)
    settings = Settings(database_url=url, api_tokens=",".join(f"{r}:{t}" for r, t in TOKENS.items()))
    engine = make_engine(url)
    try:
        app = create_app(state=build_state(settings, engine=engine, planner=planner))
        with serve(app) as base, httpx.Client(base_url=base, timeout=30) as client:
            body = json.dumps({"text": text, "now": NOW.isoformat()})
            return client.post("/v1/plans", headers=ADMIN, content=body).status_code
    finally:
        engine.dispose()


def _planner(*, policy: PolicyConfig | None = None, capacity: WatchedCapacity | None = None,
             inputs: WatchedInputs | None = None, calibration: CachedCalibration | None = None) -> Planner:
    return Planner(catalog=load_catalog(), policy=policy or make_policy(),
                   spend=SampleSpend(sample_spend_path(), clock=lambda: NOW), capacity=capacity, inputs=inputs,
                   calibration=calibration)


@pytest.mark.parametrize("blocks", [True, False])
def test_capacity_read_from_the_account_is_read_off_the_event_loop(tmp_path: Path, blocks: bool) -> None:
    capacity = WatchedCapacity(blocks=blocks)
    assert _preview(_planner(capacity=capacity), tmp_path) == 200
    # a source that cannot wait is read in place, the quicker way; one that can is never read on the loop
    assert capacity.on_loop and set(capacity.on_loop) == {not blocks}


def _with_recipes() -> PolicyConfig:
    """team-ml with one recipe, its default."""
    base = make_policy()
    recipe = Recipe(image="123456789012.dkr.ecr.us-east-1.amazonaws.com/training/sft:v1", entry_point="train.py",
                    datasets={"chat": "s3://data/chat/"}, default_dataset="chat")
    team = base.teams["team-ml"].model_copy(update={"recipes": {"sft": recipe}, "default_recipe": "sft"})
    return base.model_copy(update={"teams": {**base.teams, "team-ml": team}})


def test_a_recipes_inputs_are_checked_off_the_event_loop(tmp_path: Path) -> None:
    inputs = WatchedInputs()
    assert _preview(_planner(policy=_with_recipes(), inputs=inputs), tmp_path, "team-ml fine-tune 7B on 1B tokens") \
        == 200
    assert inputs.on_loop == [False]


def test_a_policy_without_recipes_plans_on_the_event_loop_though_inputs_could_be_read(tmp_path: Path) -> None:
    """No team has a recipe, so no preview reads a job's inputs: nothing waits, and the preview stays in place."""
    capacity = WatchedCapacity(blocks=False)
    assert _preview(_planner(capacity=capacity, inputs=WatchedInputs()), tmp_path) == 200
    assert capacity.on_loop and set(capacity.on_loop) == {True}


def test_learnt_corrections_due_to_be_read_are_read_off_the_event_loop(tmp_path: Path) -> None:
    (tmp_path / "calibration").mkdir()
    (tmp_path / "again").mkdir()
    engine = make_engine(create_sqlite_db(tmp_path / "calibration"))
    read_on_loop: list[bool] = []

    class WatchedCalibration(CachedCalibration):
        def __call__(self) -> Calibration:
            if self.due:
                read_on_loop.append(_on_the_event_loop())
            return super().__call__()

    calibration = WatchedCalibration(engine=engine, ttl_seconds=3600)
    capacity = WatchedCapacity(blocks=False)
    try:
        assert calibration.due  # nothing read yet
        assert _preview(_planner(calibration=calibration, capacity=capacity), tmp_path) == 200
        assert read_on_loop == [False] and set(capacity.on_loop) == {False} and not calibration.due
        capacity.on_loop.clear()
        assert _preview(_planner(calibration=calibration, capacity=capacity), tmp_path / "again") == 200
        assert read_on_loop == [False] and set(capacity.on_loop) == {True}  # held: the second plans in place
    finally:
        engine.dispose()
