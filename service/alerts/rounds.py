"""One round of team alerts, run by the worker after each tracking round."""

from __future__ import annotations

import logging
from datetime import datetime

from sqlalchemy.engine import Engine

from contract.errors import UpstreamError
from policy.config import PolicyConfig
from service.alerts.anomalies import ClientFor, watch_anomalies
from service.alerts.budget import check_budgets
from service.alerts.commitment import Recommend, advise_commitments
from service.spend.providers import SpendProvider

log = logging.getLogger("gpuops.alerts")


def run_alerts(*, engine: Engine, spend: SpendProvider, policy: PolicyConfig, now: datetime,
               recommend: Recommend | None = None, cost_explorer: ClientFor | None = None) -> int:
    """Budget warnings for every team, and, when Cost Explorer is the spend source, the day's anomalies
    (``cost_explorer`` gives its client) and the month's commitment advice (``recommend``); how many were new. AWS
    trouble skips the rest of the round (the next one retries)."""
    try:
        said = check_budgets(engine=engine, spend=spend, policy=policy, now=now)
        if cost_explorer is not None:
            said += watch_anomalies(engine=engine, client_for=cost_explorer, policy=policy, now=now)
        if recommend is not None:
            said += advise_commitments(engine=engine, policy=policy, recommend=recommend, now=now)
        return said
    except UpstreamError as exc:
        log.warning("alerts skipped this round", extra={"error": str(exc)})
        return 0
