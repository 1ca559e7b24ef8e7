"""Helpers for launcher tests: a migrated database, a policy with a launch profile, approved requests, and a
stateful SageMaker stand-in on the fake JSON server."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Engine

from contract.approvals import ApprovalDecision
from contract.requests import RequestCreate
from policy.catalog import load_catalog
from policy.config import PolicyConfig, default_policy
from policy.membership import Filer
from service.planning import Planner
from service.requests.approvals import record_approval
from service.requests.filing import create_request
from service.spend.providers import SpendProvider, UnavailableSpend
from service.store.db import make_engine, new_session
from service.store.migrate import upgrade
from tests.aws.factories import make_profile
from tests.aws.fakeaws import AwsFault, FakeAws
from tests.service.factories import TRUSTED_PRICES

REQUESTER = "slack:T0GPUOPS:U0ALICE"
LEAD = "slack:T0GPUOPS:U0LEAD1"
NOW = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)


def migrated_engine(url: str) -> Engine:
    upgrade(url)
    return make_engine(url)


def launch_policy(**team_updates: Any) -> PolicyConfig:
    """The default policy with team-ml's launch profile, trusting the shipped prices' age (``TRUSTED_PRICES``)."""
    base = default_policy()
    team = base.teams["team-ml"].model_copy(update={"launch": make_profile(), **team_updates})
    return base.model_copy(update={"teams": {**base.teams, "team-ml": team}, **TRUSTED_PRICES})


def write_policy(policy: PolicyConfig, path: str) -> str:
    import yaml

    with open(path, "w", encoding="utf-8") as handle:
        yaml.safe_dump(policy.model_dump(mode="json"), handle)
    return path


def new_request(*, engine: Engine, policy: PolicyConfig, text: str = "fine-tune 7B on 1B tokens",
                approve: bool = True, now: datetime = NOW, spend: SpendProvider | None = None,
                team: str = "team-ml") -> str:
    planner = Planner(catalog=load_catalog(), policy=policy, spend=spend or UnavailableSpend())
    with new_session(engine) as session:
        record, _ = create_request(session=session, planner=planner, body=RequestCreate(text=text, team=team),
                                   actor="token:bot", requester=REQUESTER, filer=Filer(actor=REQUESTER),
                                   idempotency_key=None, now=now)
        request_id = record.id
    if approve:
        with new_session(engine) as session:
            record_approval(session=session, policy=policy, request_id=request_id, approver=LEAD,
                            decision=ApprovalDecision.APPROVE, comment=None, now=now)
    return request_id


@dataclass
class FakeSageMaker:
    """Training jobs by name; a duplicate name is ``ResourceInUse`` unless ``overwrite`` (moto's behaviour)."""

    fake: FakeAws
    overwrite: bool = False
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    hold_create: threading.Event | None = None  # when set: CreateTrainingJob stores the job, then waits on it
    hold_describe: threading.Event | None = None
    entered: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def install(self) -> FakeSageMaker:
        self.fake.on("CreateTrainingJob", self._create)
        self.fake.on("DescribeTrainingJob", self._describe)
        self.fake.on("StopTrainingJob", self._stop)
        return self

    def creates(self) -> int:
        return len(self.fake.calls("CreateTrainingJob"))

    def _create(self, body: dict[str, Any]) -> dict[str, Any]:
        name = body["TrainingJobName"]
        with self.lock:
            if name in self.jobs and not self.overwrite:
                raise AwsFault("ResourceInUse", f"Training job {name} already exists")
            arn = f"arn:aws:sagemaker:us-east-1:123456789012:training-job/{name}"
            self.jobs[name] = {**body, "TrainingJobArn": arn, "TrainingJobStatus": "InProgress",
                               "SecondaryStatus": "Starting", "SecondaryStatusTransitions": [],
                               "CreationTime": NOW.timestamp()}
        if self.hold_create is not None:
            self.entered.set()
            self.hold_create.wait(30)
        return {"TrainingJobArn": arn}

    def _describe(self, body: dict[str, Any]) -> dict[str, Any]:
        if self.hold_describe is not None:
            self.entered.set()
            self.hold_describe.wait(30)
        with self.lock:
            job = self.jobs.get(body["TrainingJobName"])
        if job is None:
            raise AwsFault("ValidationException", "Requested resource not found.")
        return {k: v for k, v in job.items() if k not in ("Tags",)}

    def _stop(self, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.jobs[body["TrainingJobName"]]["TrainingJobStatus"] = "Stopping"
        return {}

    def update(self, name: str, **fields: Any) -> None:
        with self.lock:
            self.jobs[name].update(fields)


def approve(*, engine: Engine, policy: PolicyConfig, request_id: str, now: datetime = NOW) -> float:
    """Approve as the team lead; returns ``time.perf_counter()`` at commit (for latency figures)."""
    import time

    with new_session(engine) as session:
        record_approval(session=session, policy=policy, request_id=request_id, approver=LEAD,
                        decision=ApprovalDecision.APPROVE, comment=None, now=now)
    return time.perf_counter()
