"""Spend for one team from Cost Explorer: month to date, a daily series, top drivers and the month-end forecast.

Cost Explorer charges $0.01 a request (each page counts) and refreshes a few times a day, so figures are cached
(TTL 12 h by default) with single-flight per query: a burst of plans makes one set of calls. A long-lived "last
good" copy outlives the TTL so that, when AWS fails, the figure is served ``stale`` with its age; with nothing
cached the answer is ``unavailable`` with the reason. ``month_to_date_usd`` counts the complete days of this
month; ``forecast_usd`` is GetCostForecast from today to the month's end, so their sum is the projected month.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from policy.spend import CostDriver, DailySpend, SpendSnapshot, SpendStatus
from service.aws.clients import ClientFactory
from service.cache import Cache

log = logging.getLogger(__name__)

# Cost Explorer's data lands 12–24 h late and is refreshed about daily: two reads a day (the cache key also rolls
# with the UTC day) keep a team at 2 × 2 requests, and gpuops' own jobs count from their live cost in between.
DEFAULT_TTL_SECONDS = 12 * 3600
LAST_GOOD_SECONDS = 40 * 24 * 3600
ERROR_TTL_SECONDS = 60.0
DAILY_SERIES_DAYS = 14
TOP_DRIVERS = 5
NO_INSTANCE_TYPE = "NoInstanceType"  # Cost Explorer's key for usage that has no instance type
CommittedSince = Callable[[str, datetime], float]


@dataclass(frozen=True)
class SpendQuery:
    """Everything that makes two spend lookups the same lookup."""

    team: str
    tag_key: str
    tag_value: str
    metric: str
    today: date

    @property
    def month_start(self) -> date:
        return self.today.replace(day=1)

    @property
    def month_end(self) -> date:
        """The first day of next month (Cost Explorer end dates are exclusive)."""
        return (self.month_start + timedelta(days=32)).replace(day=1)

    @property
    def cache_key(self) -> str:
        raw = json.dumps([self.team, self.tag_key, self.tag_value, self.metric, self.today.isoformat()])
        return "spend:v1:" + hashlib.sha256(raw.encode()).hexdigest()[:24]


def build_spend_query(*, policy: PolicyConfig, team: str, metric: str, today: date) -> SpendQuery:
    name, team_policy = team, policy.team(team)
    tag = team_policy.cost_allocation_tag
    return SpendQuery(team=name, tag_key=tag.key, tag_value=tag.value or name, metric=metric, today=today)


def _cost_filter(query: SpendQuery) -> dict[str, Any]:
    return {"Tags": {"Key": query.tag_key, "Values": [query.tag_value], "MatchOptions": ["EQUALS"]}}


def _pages(client: Any, **params: Any) -> Iterator[dict[str, Any]]:
    """GetCostAndUsage pages, following NextPageToken."""
    token: str | None = None
    while True:
        page: dict[str, Any] = client.get_cost_and_usage(**params, **({"NextPageToken": token} if token else {}))
        yield page
        token = page.get("NextPageToken")
        if not token:
            return


def _amount(metrics: dict[str, Any], metric: str) -> float:
    return float(metrics.get(metric, {}).get("Amount", 0.0))


def fetch_daily_spend(*, client: Any, query: SpendQuery) -> tuple[dict[str, float], dict[str, float],
                                                                   dict[str, float]]:
    """One GetCostAndUsage (every page) grouped by service and instance type: daily totals (ISO day → usd) over the
    series window, and this month's spend per AWS service and per instance type (complete days only)."""
    start = min(query.month_start, query.today - timedelta(days=DAILY_SERIES_DAYS))
    daily: dict[str, float] = defaultdict(float)
    services: dict[str, float] = defaultdict(float)
    instance_types: dict[str, float] = defaultdict(float)
    for page in _pages(
        client,
        TimePeriod={"Start": start.isoformat(), "End": query.today.isoformat()},
        Granularity="DAILY",
        Metrics=[query.metric],
        Filter=_cost_filter(query),
        GroupBy=[{"Type": "DIMENSION", "Key": "SERVICE"}, {"Type": "DIMENSION", "Key": "INSTANCE_TYPE"}],
    ):
        for result in page.get("ResultsByTime", []):
            day = result["TimePeriod"]["Start"]
            groups = result.get("Groups") or []
            daily[day] += sum(_amount(g.get("Metrics", {}), query.metric) for g in groups) if groups else _amount(
                result.get("Total", {}), query.metric
            )
            if day < query.month_start.isoformat():
                continue
            for group in groups:
                keys, usd = group["Keys"], _amount(group.get("Metrics", {}), query.metric)
                services[keys[0]] += usd
                if len(keys) > 1 and keys[1] and keys[1] != NO_INSTANCE_TYPE:
                    instance_types[keys[1]] += usd
    return dict(daily), dict(services), dict(instance_types)


_FORECAST_METRIC = {"UnblendedCost": "UNBLENDED_COST", "AmortizedCost": "AMORTIZED_COST",
                    "BlendedCost": "BLENDED_COST", "NetUnblendedCost": "NET_UNBLENDED_COST",
                    "NetAmortizedCost": "NET_AMORTIZED_COST"}


def fetch_forecast(*, client: Any, query: SpendQuery) -> float | None:
    """Forecast spend from today (the earliest start AWS accepts) to the month's end; None when AWS has too
    little history to forecast (DataUnavailableException)."""
    try:
        answer = client.get_cost_forecast(
            TimePeriod={"Start": query.today.isoformat(), "End": query.month_end.isoformat()},
            Metric=_FORECAST_METRIC.get(query.metric, "UNBLENDED_COST"),
            Granularity="MONTHLY",
            Filter=_cost_filter(query),
        )
    except ClientError as exc:
        if exc.response.get("Error", {}).get("Code") == "DataUnavailableException":
            return None
        raise
    return float(answer["Total"]["Amount"])


def _top(spend: dict[str, float], dimension: str) -> list[CostDriver]:
    ranked = sorted(spend.items(), key=lambda item: (-item[1], item[0]))
    return [CostDriver(key=k, dimension=dimension, usd=round(v, 2)) for k, v in ranked[:TOP_DRIVERS] if v > 0]


def fetch_spend(*, client: Any, query: SpendQuery, as_of: datetime) -> SpendSnapshot:
    """One uncached read of a team's spend (1 GetCostAndUsage query, paginated, and 1 GetCostForecast)."""
    daily, services, instance_types = fetch_daily_spend(client=client, query=query)
    forecast = fetch_forecast(client=client, query=query)
    month = query.month_start.isoformat()
    return SpendSnapshot(
        status=SpendStatus.OK,
        team=query.team,
        month_to_date_usd=round(sum(v for d, v in daily.items() if d >= month), 2),
        forecast_usd=None if forecast is None else round(forecast, 2),
        as_of=as_of,
        reason=None if forecast is not None else "forecast unavailable: not enough cost history",
        daily=[DailySpend(day=d, usd=round(v, 2)) for d, v in sorted(daily.items())],
        drivers=_top(instance_types, "INSTANCE_TYPE") + _top(services, "SERVICE"),
    )


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _describe_failure(exc: Exception) -> str:
    if isinstance(exc, UpstreamError):
        return exc.message
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        return f"Cost Explorer {error.get('Code', 'error')}: {error.get('Message', '')}".strip()
    return f"Cost Explorer unreachable: {exc}"


class SpendProvider:
    """Cached, single-flight spend per team; never raises for AWS trouble, it reports stale or unavailable."""

    blocks = True

    def __init__(
        self,
        *,
        factory: ClientFactory,
        cache: Cache,
        metric: str = "UnblendedCost",
        ttl_seconds: float = DEFAULT_TTL_SECONDS,
        lock_wait_seconds: float = 60.0,
        clock: Callable[[], datetime] = _utcnow,
        committed_since: CommittedSince | None = None,
    ) -> None:
        self._factory = factory
        self._cache = cache
        self._metric = metric
        self._ttl = ttl_seconds
        self._lock_wait = lock_wait_seconds
        self._clock = clock
        self._committed_since = committed_since
        self._client: Any = None
        self._client_lock = threading.Lock()

    def get_spend(self, *, team: str, policy: PolicyConfig) -> SpendSnapshot:
        """The team's spend: cached when fresh, else read once for every concurrent caller."""
        now = self._clock()
        query = build_spend_query(policy=policy, team=team, metric=self._metric, today=now.date())
        budget = policy.team(team).monthly_budget_usd
        snapshot = self._cached(query) or self._read_through(query)
        return self._finish(snapshot, query=query, budget=budget, now=now)

    def _cached(self, query: SpendQuery) -> SpendSnapshot | None:
        raw = self._cache.get(query.cache_key)
        return None if raw is None else SpendSnapshot.model_validate_json(raw)

    def _read_through(self, query: SpendQuery) -> SpendSnapshot:
        with self._cache.lock(query.cache_key, ttl_seconds=2 * self._lock_wait, wait_seconds=self._lock_wait) as held:
            fresh = self._cached(query)
            if fresh is not None:
                return fresh
            if not held:
                return self._fallback(query, reason="spend lookup still in progress")
            failure = self._cache.get("error:" + query.cache_key)
            if failure is not None:
                return self._fallback(query, reason=failure.decode())
            return self._refresh(query)

    def _refresh(self, query: SpendQuery) -> SpendSnapshot:
        try:
            client = self._get_client()
            snapshot = fetch_spend(client=client, query=query, as_of=self._clock())
        except (UpstreamError, ClientError, BotoCoreError) as exc:
            reason = _describe_failure(exc)
            log.warning("spend read failed", extra={"team": query.team, "reason": reason})
            self._cache.set("error:" + query.cache_key, reason.encode(), ttl_seconds=ERROR_TTL_SECONDS)
            return self._fallback(query, reason=reason)
        payload = snapshot.model_dump_json().encode()
        self._cache.set(query.cache_key, payload, ttl_seconds=self._ttl)
        self._cache.set(_last_good_key(query), payload, ttl_seconds=LAST_GOOD_SECONDS)
        return snapshot

    def _get_client(self) -> Any:
        """One Cost Explorer client per provider (building one costs more than the call it makes)."""
        with self._client_lock:
            if self._client is None:
                self._client = self._factory.client("ce")
            return self._client

    def _fallback(self, query: SpendQuery, *, reason: str) -> SpendSnapshot:
        raw = self._cache.get(_last_good_key(query))
        if raw is None:
            return SpendSnapshot.unavailable(team=query.team, reason=reason)
        last = SpendSnapshot.model_validate_json(raw)
        return last.model_copy(update={"status": SpendStatus.STALE, "reason": reason})

    def _finish(
        self, snapshot: SpendSnapshot, *, query: SpendQuery, budget: float | None, now: datetime
    ) -> SpendSnapshot:
        update: dict[str, Any] = {"budget_usd": budget, "team": query.team}
        if snapshot.as_of is not None:
            update["age_seconds"] = max(0.0, (now - snapshot.as_of).total_seconds())
            if self._committed_since is not None:
                try:
                    update["committed_usd"] = round(self._committed_since(query.team, snapshot.as_of), 2)
                except UpstreamError as exc:
                    # Without what recent launches committed the figure understates spend: show it, but as
                    # stale, so nothing is approved automatically on it.
                    update.update(status=SpendStatus.STALE, reason=f"spend committed by recent launches is "
                                                                   f"unknown ({exc.message})")
        return snapshot.model_copy(update=update)


def _last_good_key(query: SpendQuery) -> str:
    """Survives the TTL and the day rolling over (within a month), for serving stale figures."""
    raw = json.dumps([query.team, query.tag_key, query.tag_value, query.metric, query.month_start.isoformat()])
    return "spend-last:v1:" + hashlib.sha256(raw.encode()).hexdigest()[:24]
