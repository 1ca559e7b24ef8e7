"""One round of team alerts, run by the worker after each tracking round."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.engine import Engine

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from service.alerts.budget import check_budgets
from service.spend.providers import SpendProvider

log = logging.getLogger("gpuops.alerts")


def run_alerts(*, engine: Engine, spend: SpendProvider, policy: PolicyConfig, now: datetime) -> int:
    """Budget warnings for every team; how many were new. AWS trouble skips the round (the next one retries)."""
    try:
        return check_budgets(engine=engine, spend=spend, policy=policy, now=now)
    except UpstreamError as exc:
        log.warning("alerts skipped this round", extra={"error": str(exc)})
        return 0
