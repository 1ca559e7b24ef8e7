"""AWS figures: Cost Explorer calls and dollars for a busy hour, spend lookup latency cached vs cold, and the time
from approval to CreateTrainingJob. Everything runs against stand-ins on 127.0.0.1 (no AWS account)."""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3

from policy.config import PolicyConfig, TeamPolicy, default_policy
from service.aws.clients import COST_EXPLORER_USD_PER_REQUEST, ClientFactory
from service.aws.costexplorer import DEFAULT_TTL_SECONDS, SpendProvider
from service.cache import MemoryCache

START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
PLANS, TEAMS = 1000, 5


class _Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def seconds(self) -> float:
        return (self.now - START).total_seconds()


def _policy() -> PolicyConfig:
    teams = {f"team-{i}": TeamPolicy(monthly_budget_usd=50_000) for i in range(TEAMS)}
    return default_policy().model_copy(update={"teams": teams, "default_team": "team-0"})


def _cost_explorer() -> Any:
    from tests.aws.fakeaws import start_fake_aws

    fake, server = start_fake_aws()
    fake.on("GetCostAndUsage", lambda _body: {"ResultsByTime": [], "DimensionValueAttributes": []})
    fake.on("GetCostForecast", lambda _body: {"Total": {"Amount": "1000", "Unit": "USD"}})
    return fake, server


def _factory(url: str) -> ClientFactory:
    session = boto3.Session(aws_access_key_id="bench", aws_secret_access_key="bench", region_name="us-east-1")
    return ClientFactory(session=session, endpoint_urls={"ce": url})


def _busy_hour(url: str, *, ttl: float | None) -> int:
    clock, policy, factory = _Clock(), _policy(), _factory(url)
    provider = SpendProvider(factory=factory, cache=MemoryCache(clock=clock.seconds), clock=clock,
                             ttl_seconds=ttl or 1e-9)
    for i in range(PLANS):
        clock.now = START + timedelta(seconds=3600 * i / PLANS)
        provider.get_spend(team=f"team-{i % TEAMS}", policy=policy)
    return sum(n for (service, _), n in factory.calls.items() if service == "ce")


def _percentile(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100)[int(q) - 1] if len(samples) > 1 else samples[0]


def _latency(url: str) -> tuple[list[float], list[float]]:
    policy, factory, clock = _policy(), _factory(url), _Clock()
    provider = SpendProvider(factory=factory, cache=MemoryCache(clock=clock.seconds), clock=clock)
    provider.get_spend(team="team-0", policy=policy)  # build the client once, as a running service has
    cold, warm = [], []
    for _ in range(200):
        clock.now += timedelta(seconds=DEFAULT_TTL_SECONDS + 1)  # every lookup finds the cache expired
        began = time.perf_counter()
        provider.get_spend(team="team-0", policy=policy)
        cold.append(time.perf_counter() - began)
    for _ in range(2000):
        began = time.perf_counter()
        provider.get_spend(team="team-0", policy=policy)
        warm.append(time.perf_counter() - began)
    return cold, warm


def _approval_to_create(runs: int = 20) -> list[float]:
    from service.launch.worker import drain
    from tests.aws.fakeaws import start_fake_aws
    from tests.aws.launchkit import FakeSageMaker, approve, launch_policy, migrated_engine, new_request
    from tests.aws.test_launch import _ctx

    fake, server = start_fake_aws()
    sagemaker = FakeSageMaker(fake).install()
    created: dict[str, float] = {}
    original = sagemaker._create

    def timed_create(body: dict[str, Any]) -> dict[str, Any]:
        created[body["TrainingJobName"]] = time.perf_counter()
        return original(body)

    fake.on("CreateTrainingJob", timed_create)
    delays = []
    with tempfile.TemporaryDirectory() as folder:
        engine = migrated_engine(f"sqlite:///{folder}/bench.db")
        policy = launch_policy()
        ctx = _ctx(engine, policy, url=fake.url)
        for _ in range(runs):
            request_id = new_request(engine=engine, policy=policy, approve=False)
            approved_at = approve(engine=engine, policy=policy, request_id=request_id)
            drain(ctx=ctx)
            name = next(n for n in created if request_id.replace("_", "-") in n)
            delays.append(created[name] - approved_at)
        engine.dispose()
    server.shutdown()
    server.server_close()
    return delays


def run() -> None:
    fake, server = _cost_explorer()
    try:
        cached = _busy_hour(fake.url, ttl=DEFAULT_TTL_SECONDS)
        uncached = _busy_hour(fake.url, ttl=None)
        print(f"Cost Explorer, {PLANS} plans over 5 teams in one hour (simulated clock, 2 requests per fresh read):")
        print(f"  cached (TTL {DEFAULT_TTL_SECONDS / 3600:g} h, single-flight): {cached} requests = "
              f"${cached * COST_EXPLORER_USD_PER_REQUEST:.2f}")
        print(f"  uncached:                        {uncached} requests = "
              f"${uncached * COST_EXPLORER_USD_PER_REQUEST:.2f}  ({uncached / max(cached, 1):.0f}x)")
        cold, warm = _latency(fake.url)
        print("Spend lookup latency added to a plan (Cost Explorer stand-in on 127.0.0.1, so real AWS adds more):")
        print(f"  cold cache: p50 {statistics.median(cold) * 1000:.1f} ms, p99 {_percentile(cold, 99) * 1000:.1f} ms")
        print(f"  cached:     p50 {statistics.median(warm) * 1e6:.0f} us, p99 {_percentile(warm, 99) * 1e6:.0f} us")
    finally:
        server.shutdown()
        server.server_close()
    delays = _approval_to_create()
    print("Approval to CreateTrainingJob (worker already polling; add up to its poll interval, default 2 s):")
    p50, worst = statistics.median(delays) * 1000, max(delays) * 1000
    print(f"  p50 {p50:.1f} ms, max {worst:.1f} ms over {len(delays)} launches")
