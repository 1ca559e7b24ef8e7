"""How good the estimates have been: the month's accuracy (``GET /v1/estimates/accuracy``), the learnt corrections
of estimated hours (``GET /v1/estimates/calibration``), and marking a job's idle GPUs as expected."""

from __future__ import annotations

from pydantic import Field

from contract.approvals import MAX_COMMENT_CHARS
from contract.base import InputModel, OutputModel
from contract.text import Text


class EstimateAccuracy(OutputModel):
    """|actual − estimate| / estimate of jobs finished since ``since`` (cost where billed per job, else hours)."""

    team: str | None
    since: str  # ISO date, the first day of the month
    jobs: int
    median: float | None  # None with no finished job
    p90: float | None


class CorrectionPublic(OutputModel):
    family: str
    task: str
    size_band: str
    factor: float
    jobs: int
    median_ratio: float


class CalibrationTable(OutputModel):
    prior_jobs: float
    items: list[CorrectionPublic]


class IdleExpectedBody(InputModel):
    reason: Text | None = Field(default=None, max_length=MAX_COMMENT_CHARS)
