"""Prometheus metrics of the service, registered once per process on the default registry (which the AWS
adapters use too), so ``/metrics`` shows everything the process counts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from prometheus_client import Counter, Gauge, Histogram

LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass(frozen=True)
class Metrics:
    http_requests: Counter
    http_latency: Histogram
    decisions: Counter
    approvals: Counter
    transitions: Counter
    rate_limited: Counter
    cache: Counter
    cache_degraded: Gauge
    spend_status: Gauge


@cache
def get_metrics() -> Metrics:
    """The service's metrics (created on first use, never at import)."""
    return Metrics(
        http_requests=Counter("gpuops_http_requests", "HTTP requests served", ["method", "route", "status"]),
        http_latency=Histogram("gpuops_http_request_duration_seconds", "HTTP request latency", ["method", "route"],
                               buckets=LATENCY_BUCKETS),
        decisions=Counter("gpuops_decisions", "Decisions made", ["outcome"]),
        approvals=Counter("gpuops_approvals", "Approval attempts", ["decision", "result"]),
        transitions=Counter("gpuops_request_transitions", "Request state transitions", ["to"]),
        rate_limited=Counter("gpuops_rate_limited", "Requests refused by the per-requester rate limit"),
        cache=Counter("gpuops_cache_lookups", "Cache lookups", ["name", "result"]),
        cache_degraded=Gauge("gpuops_cache_degraded", "1 while Redis is unreachable and the in-process cache serves"),
        spend_status=Gauge("gpuops_spend_status", "1 for the team's current spend status, 0 for the others",
                           ["team", "status"]),
    )
