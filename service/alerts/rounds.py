"""One round of team alerts, run by the worker after each tracking round."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.engine import Engine

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from service.alerts.budget import check_budgets
from service.alerts.commitment import Recommend, advise_commitments
from service.spend.providers import SpendProvider

log = logging.getLogger("gpuops.alerts")


def run_alerts(*, engine: Engine, spend: SpendProvider, policy: PolicyConfig, now: datetime,
               recommend: Recommend | None = None) -> int:
    """Budget warnings for every team, and the month's commitment advice when Cost Explorer is the spend source
    (``recommend``); how many were new. AWS trouble skips the round (the next one retries)."""
    try:
        said = check_budgets(engine=engine, spend=spend, policy=policy, now=now)
        if recommend is not None:
            said += advise_commitments(engine=engine, policy=policy, recommend=recommend, now=now)
        return said
    except UpstreamError as exc:
        log.warning("alerts skipped this round", extra={"error": str(exc)})
        return 0
