"""Answers to alerts: a person's word on a Cost Explorer anomaly, sent through the service."""

from __future__ import annotations

from typing import Literal

from contract.base import InputModel, OutputModel

ANOMALY_ID_PATTERN = r"^[A-Za-z0-9-]{1,128}$"


class AnomalyFeedback(InputModel):
    """``expected`` (planned activity) or ``not_expected`` (a real anomaly), as Cost Explorer records it."""

    verdict: Literal["expected", "not_expected"]


class AnomalyFeedbackRecorded(OutputModel):
    anomaly_id: str
    team: str
    verdict: str
    by: str
