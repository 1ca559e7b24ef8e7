"""Cost Explorer anomaly detection by a team's cost-allocation tag: one custom monitor per team
(CreateAnomalyMonitor), its anomalies (GetAnomalies) and people's word on them (ProvideAnomalyFeedback).

Each is a Cost Explorer request at $0.01; the callers keep them to one monitor per team ever, one read per team per
day, and one feedback per click.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError

# What a person says of an anomaly, as Cost Explorer records it: not expected (a real anomaly), or expected
# (planned activity).
FEEDBACK = {"not_expected": "YES", "expected": "PLANNED_ACTIVITY"}


@dataclass(frozen=True)
class Anomaly:
    anomaly_id: str
    start: str | None
    end: str | None
    total_impact_usd: float
    actual_usd: float
    expected_usd: float
    score: float
    causes: list[dict[str, str]] = field(default_factory=list)  # service, region, usage type
    feedback: str | None = None


def _upstream(exc: ClientError | BotoCoreError, operation: str) -> UpstreamError:
    if isinstance(exc, ClientError):
        error = exc.response.get("Error", {})
        return UpstreamError(f"{error.get('Code', 'error')}: {error.get('Message', '')}", service="ce",
                             operation=operation, code="aws_error")
    return UpstreamError(f"Cost Explorer unreachable: {exc}", service="ce", operation=operation, code="aws_error")


def create_team_monitor(*, client: Any, team: str, tag_key: str, tag_value: str) -> str:
    """A custom monitor over the spend carrying the team's tag; returns its ARN."""
    try:
        answer = client.create_anomaly_monitor(AnomalyMonitor={
            "MonitorName": f"gpuops-{team}"[:1024], "MonitorType": "CUSTOM",
            "MonitorSpecification": {"Tags": {"Key": tag_key, "Values": [tag_value], "MatchOptions": ["EQUALS"]}},
        })
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "CreateAnomalyMonitor") from exc
    return str(answer["MonitorArn"])


def _float(value: object) -> float:
    try:
        return float(str(value)) if value is not None else 0.0
    except ValueError:
        return 0.0


def _anomaly(raw: dict[str, Any]) -> Anomaly:
    impact = raw.get("Impact") or {}
    causes = [{k: str(c[k]) for k in ("Service", "Region", "UsageType", "LinkedAccount") if c.get(k)}
              for c in raw.get("RootCauses") or []]
    return Anomaly(anomaly_id=str(raw["AnomalyId"]), start=raw.get("AnomalyStartDate"),
                   end=raw.get("AnomalyEndDate"), total_impact_usd=_float(impact.get("TotalImpact")),
                   actual_usd=_float(impact.get("TotalActualSpend")),
                   expected_usd=_float(impact.get("TotalExpectedSpend")),
                   score=_float((raw.get("AnomalyScore") or {}).get("MaxScore")), causes=causes,
                   feedback=raw.get("Feedback"))


def get_anomalies(*, client: Any, monitor_arn: str, start: date, end: date) -> list[Anomaly]:
    """The monitor's anomalies between ``start`` and ``end`` (every page)."""
    found: list[Anomaly] = []
    token: str | None = None
    try:
        while True:
            page = client.get_anomalies(MonitorArn=monitor_arn,
                                        DateInterval={"StartDate": start.isoformat(), "EndDate": end.isoformat()},
                                        **({"NextPageToken": token} if token else {}))
            found.extend(_anomaly(a) for a in page.get("Anomalies") or [])
            token = page.get("NextPageToken")
            if not token:
                return found
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "GetAnomalies") from exc


def provide_feedback(*, client: Any, anomaly_id: str, verdict: str) -> None:
    """Tell Cost Explorer whether the anomaly was expected (``expected`` | ``not_expected``)."""
    try:
        client.provide_anomaly_feedback(AnomalyId=anomaly_id, Feedback=FEEDBACK[verdict])
    except (ClientError, BotoCoreError) as exc:
        raise _upstream(exc, "ProvideAnomalyFeedback") from exc
