"""Prometheus metrics of the bot (names as deploy/prometheus-alerts.yaml expects them)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

FEED_LAG = Gauge("gpuops_events_feed_lag_seconds", "Age of the oldest event the bot has not handled")
DIGEST_RUNS = Counter("gpuops_digest_runs_total", "Digests by outcome", ["outcome"])
SLACK_REQUESTS = Histogram("gpuops_bot_slack_request_seconds", "Time to answer a Slack request", ["status"])
