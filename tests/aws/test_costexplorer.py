"""Spend from Cost Explorer: pages, forecast rules, caching, single-flight, stale and unavailable figures."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, date, datetime
from typing import Any

import pytest
import redis
from prometheus_client import REGISTRY

from contract.errors import UpstreamError
from policy.config import default_policy
from policy.spend import SpendStatus
from service.aws.clients import ClientFactory
from service.aws.costexplorer import SpendProvider, SpendQuery
from service.cache import MemoryCache, RedisCache
from tests.aws.conftest import SimClock, five_team_policy, seed_cost_and_usage
from tests.aws.fakeaws import AwsFault, FakeAws

NOW = datetime(2026, 11, 20, 10, 0, tzinfo=UTC)


def _group(keys: tuple[str, str], usd: float) -> dict[str, Any]:
    return {"Keys": list(keys), "Metrics": {"UnblendedCost": {"Amount": str(usd), "Unit": "USD"}}}


def _day(day: str, by_service: dict[tuple[str, str], float]) -> dict[str, Any]:
    groups = [_group(k, v) for k, v in by_service.items()]
    end = date.fromisoformat(day).toordinal() + 1
    return {"TimePeriod": {"Start": day, "End": date.fromordinal(end).isoformat()}, "Total": {}, "Groups": groups,
            "Estimated": False}


def _forecast(amount: float) -> Any:
    return lambda body: {"Total": {"Amount": str(amount), "Unit": "USD"}, "ForecastResultsByTime": []}


def _provider(factory: ClientFactory, clock: SimClock, **kwargs: Any) -> SpendProvider:
    cache = kwargs.pop("cache", None) or MemoryCache(clock=clock.seconds)
    return SpendProvider(factory=factory, cache=cache, clock=clock, **kwargs)


@pytest.fixture
def ce(fake_aws: FakeAws, moto: str) -> FakeAws:
    """Cost Explorer: GetCostAndUsage answered by moto, GetCostForecast by the fake."""
    fake_aws.fallback_url = moto
    return fake_aws


def test_spend_follows_every_page_and_splits_month_to_date_from_the_series(
    ce: FakeAws, moto: str, make_factory: Any
) -> None:
    sagemaker, p5, g5 = "Amazon SageMaker", "ml.p5.48xlarge", "ml.g5.xlarge"
    page1 = {"ResultsByTime": [_day("2026-10-31", {(sagemaker, p5): 100.0})] +
             [_day(f"2026-11-{d:02d}", {(sagemaker, p5): 200.0, ("Amazon EC2", "NoInstanceType"): 50.0})
              for d in range(1, 10)],
             "NextPageToken": "page-2", "DimensionValueAttributes": []}
    page2 = {"ResultsByTime": [_day(f"2026-11-{d:02d}", {(sagemaker, p5): 250.0, (sagemaker, g5): 50.0})
                               for d in range(10, 20)], "DimensionValueAttributes": []}
    seed_cost_and_usage(moto, [page1, page2])
    ce.on("GetCostForecast", _forecast(4321.5))
    factory = make_factory({"ce": ce.url})

    spend = _provider(factory, SimClock(NOW)).get_spend(team="team-ml", policy=default_policy())

    assert spend.status is SpendStatus.OK
    assert spend.month_to_date_usd == 9 * 250.0 + 10 * 300.0
    assert spend.forecast_usd == 4321.5
    assert spend.budget_usd == 50_000
    assert [d.day for d in spend.daily][:2] == ["2026-10-31", "2026-11-01"] and len(spend.daily) == 20
    assert [(d.dimension, d.key, d.usd) for d in spend.drivers] == [
        ("INSTANCE_TYPE", p5, 9 * 200.0 + 10 * 250.0), ("INSTANCE_TYPE", g5, 500.0),
        ("SERVICE", sagemaker, 9 * 200.0 + 10 * 300.0), ("SERVICE", "Amazon EC2", 9 * 50.0)]
    usage_calls = ce.calls("GetCostAndUsage")
    assert [c.get("NextPageToken") for c in usage_calls] == [None, "page-2"]  # one query, every page
    assert usage_calls[0]["Filter"] == {"Tags": {"Key": "team", "Values": ["team-ml"], "MatchOptions": ["EQUALS"]}}
    assert [g["Key"] for g in usage_calls[0]["GroupBy"]] == ["SERVICE", "INSTANCE_TYPE"]
    assert factory.total_calls(service="ce", operation="GetCostAndUsage") == 2
    (forecast,) = ce.calls("GetCostForecast")
    assert forecast["TimePeriod"] == {"Start": "2026-11-20", "End": "2026-12-01"}
    assert forecast["Metric"] == "UNBLENDED_COST"


@pytest.mark.parametrize(
    ("today", "month_start", "month_end"),
    [("2026-11-30", "2026-11-01", "2026-12-01"), ("2026-12-31", "2026-12-01", "2027-01-01"),
     ("2028-02-29", "2028-02-01", "2028-03-01"), ("2026-11-01", "2026-11-01", "2026-12-01")],
)
def test_forecast_window_starts_today_and_ends_after_the_months_last_day(today: str, month_start: str,
                                                                         month_end: str) -> None:
    query = SpendQuery(team="t", tag_key="team", tag_value="t", metric="UnblendedCost", today=date.fromisoformat(today))
    assert (query.month_start.isoformat(), query.month_end.isoformat()) == (month_start, month_end)


def test_first_day_of_month_reads_only_the_series_and_the_forecast(ce: FakeAws, make_factory: Any) -> None:
    ce.on("GetCostForecast", _forecast(10.0))
    clock = SimClock(datetime(2026, 12, 1, 8, 0, tzinfo=UTC))
    spend = _provider(make_factory({"ce": ce.url}), clock).get_spend(team="team-ml", policy=default_policy())
    assert spend.month_to_date_usd == 0.0
    assert len(ce.calls("GetCostAndUsage")) == 1


def test_forecast_without_history_leaves_the_forecast_unknown(ce: FakeAws, make_factory: Any) -> None:
    def no_data(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("DataUnavailableException", "Insufficient amount of historical data")

    ce.on("GetCostForecast", no_data)
    spend = _provider(make_factory({"ce": ce.url}), SimClock(NOW)).get_spend(team="team-ml", policy=default_policy())
    assert spend.status is SpendStatus.OK
    assert spend.forecast_usd is None
    assert spend.reason is not None and "forecast" in spend.reason


def test_cached_figure_is_served_without_calls_and_carries_its_age_and_committed_spend(ce: FakeAws,
                                                                                      make_factory: Any) -> None:
    ce.on("GetCostForecast", _forecast(10.0))
    factory, clock = make_factory({"ce": ce.url}), SimClock(NOW)
    seen: list[tuple[str, datetime]] = []

    def committed(team: str, since: datetime) -> float:
        seen.append((team, since))
        return 1234.567

    provider = _provider(factory, clock, committed_since=committed)
    provider.get_spend(team="team-ml", policy=default_policy())
    clock.advance(3600)
    spend = provider.get_spend(team="team-ml", policy=default_policy())

    assert factory.total_calls(service="ce", operation="GetCostAndUsage") == 1
    assert spend.age_seconds == 3600
    assert spend.committed_usd == 1234.57
    assert seen[-1] == ("team-ml", NOW)


def test_a_figure_whose_committed_spend_cannot_be_read_is_served_stale(ce: FakeAws, make_factory: Any) -> None:
    ce.on("GetCostForecast", _forecast(10.0))

    def committed(team: str, since: datetime) -> float:
        raise UpstreamError("the database did not answer", service="database", operation="committed_spend")

    provider = _provider(make_factory({"ce": ce.url}), SimClock(NOW), committed_since=committed)
    spend = provider.get_spend(team="team-ml", policy=default_policy())

    assert spend.status is SpendStatus.STALE
    assert spend.month_to_date_usd is not None
    assert spend.reason == "spend committed by recent launches is unknown (the database did not answer)"


def test_throttled_after_the_ttl_serves_the_last_good_figure_marked_stale(ce: FakeAws, make_factory: Any) -> None:
    ce.on("GetCostForecast", _forecast(99.0))
    factory, clock = make_factory({"ce": ce.url}, max_attempts=2), SimClock(NOW)
    provider = _provider(factory, clock)
    first = provider.get_spend(team="team-ml", policy=default_policy())

    def throttled(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("ThrottlingException", "Rate exceeded")

    ce.on("GetCostAndUsage", throttled)
    clock.advance(13 * 3600)
    spend = provider.get_spend(team="team-ml", policy=default_policy())

    assert spend.status is SpendStatus.STALE
    assert spend.age_seconds == 13 * 3600
    assert spend.forecast_usd == first.forecast_usd == 99.0
    assert spend.reason is not None and "ThrottlingException" in spend.reason
    # standard retry mode retried once on the wire; the call was counted (and charged) once
    assert len(ce.calls("GetCostAndUsage")) == 1 + 2
    assert factory.total_calls(service="ce", operation="GetCostAndUsage") == 2


def test_failure_with_nothing_cached_is_unavailable_and_not_retried_within_the_error_window(
    ce: FakeAws, make_factory: Any
) -> None:
    def broken(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("AccessDeniedException", "not authorized to perform ce:GetCostAndUsage")

    ce.on("GetCostAndUsage", broken)
    factory = make_factory({"ce": ce.url})
    provider = _provider(factory, SimClock(NOW))
    spend = provider.get_spend(team="team-ml", policy=default_policy())
    again = provider.get_spend(team="team-ml", policy=default_policy())

    assert spend.status is again.status is SpendStatus.UNAVAILABLE
    assert spend.reason is not None and "AccessDeniedException" in spend.reason
    assert spend.budget_usd == 50_000
    assert factory.total_calls(service="ce", operation="GetCostAndUsage") == 1


def test_missing_credentials_make_spend_unavailable_with_that_reason() -> None:
    import boto3

    factory = ClientFactory(session=boto3.Session(region_name="us-east-1"))
    spend = SpendProvider(factory=factory, cache=MemoryCache()).get_spend(team="team-ml", policy=default_policy())
    assert spend.status is SpendStatus.UNAVAILABLE
    assert spend.reason == "AWS credentials not configured"


def test_each_cost_explorer_request_is_metered_at_one_cent(ce: FakeAws, make_factory: Any) -> None:
    ce.on("GetCostForecast", _forecast(1.0))
    before = REGISTRY.get_sample_value("gpuops_costexplorer_dollars_total") or 0.0
    calls_before = REGISTRY.get_sample_value(
        "gpuops_aws_calls_total", {"service": "ce", "operation": "GetCostForecast"}) or 0.0
    _provider(make_factory({"ce": ce.url}), SimClock(NOW)).get_spend(team="team-ml", policy=default_policy())
    after = REGISTRY.get_sample_value("gpuops_costexplorer_dollars_total")
    assert after == pytest.approx(before + 0.02)
    assert REGISTRY.get_sample_value(
        "gpuops_aws_calls_total", {"service": "ce", "operation": "GetCostForecast"}) == calls_before + 1


def _burst(provider: SpendProvider, *, plans: int = 200) -> list[Any]:
    policy = five_team_policy()
    results: list[Any] = [None] * plans
    start = threading.Barrier(plans)

    def plan(i: int) -> None:
        start.wait()
        results[i] = provider.get_spend(team=f"team-{i % 5}", policy=policy)

    threads = [threading.Thread(target=plan, args=(i,)) for i in range(plans)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_burst_of_200_plans_for_5_teams_makes_one_call_per_distinct_query(
    backend: str, ce: FakeAws, make_factory: Any, request: pytest.FixtureRequest
) -> None:
    ce.on("GetCostForecast", _forecast(5.0))
    factory, clock = make_factory({"ce": ce.url}), SimClock(NOW)
    if backend == "redis":
        url = request.getfixturevalue("redis_url")
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=32, timeout=30)
        client = redis.Redis(connection_pool=pool)
        cache: Any = RedisCache(client, prefix=f"test:{uuid.uuid4().hex}:")
    else:
        cache = MemoryCache(clock=clock.seconds)

    try:
        results = _burst(_provider(factory, clock, cache=cache))
    finally:
        if backend == "redis":
            client.close()
            pool.disconnect()

    assert {r.status for r in results} == {SpendStatus.OK}
    bodies = [repr(sorted(c.items())) for c in ce.calls("GetCostAndUsage")]
    assert len(bodies) == len(set(bodies)) == 5  # one grouped daily series per team
    assert factory.total_calls(service="ce", operation="GetCostForecast") == 5
