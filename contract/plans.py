"""What a plan is asked for with: free text, structured fields, or both (``POST /v1/plans`` and the request bodies)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from contract.base import InputModel
from contract.text import Text
from policy.request import MAX_PARAMS, Stage, Task, Tolerance

MAX_TEXT_CHARS = 20_000


class PlanFields(InputModel):
    """Structured fields of a request; each one wins over what the text says."""

    task: Task | None = None
    params: int | None = Field(default=None, gt=0, le=MAX_PARAMS)
    tokens: int | None = Field(default=None, gt=0, le=10**16)
    trials: int | None = Field(default=None, ge=1, le=10_000)
    deadline: datetime | None = None
    stage: Stage | None = None
    interruption_tolerance: Tolerance | None = None
    seq_len: int | None = Field(default=None, ge=128, le=1_048_576)
    budget_usd: float | None = Field(default=None, gt=0, le=1e12)
    region: Text | None = Field(default=None, min_length=1, max_length=32)
    team: Text | None = Field(default=None, min_length=1, max_length=128)
    accelerator: Text | None = Field(default=None, max_length=64)
    instance_type: Text | None = Field(default=None, max_length=64)
    gpus: int | None = Field(default=None, ge=1, le=100_000)
    capacity_reservation: Text | None = Field(default=None, max_length=32, description=(
        "a capacity block the team holds, to run in: cr- and 8 to 17 hex digits (else 422 invalid_request)"))


class PlanInput(PlanFields):
    """Free text, structured fields, or both; ``timezone`` reads the text's dates, ``now`` is for previews."""

    text: Text | None = Field(default=None, max_length=MAX_TEXT_CHARS)
    timezone: Text | None = Field(default=None, max_length=64, description="IANA zone; default UTC")
    now: datetime | None = Field(default=None, description="previews only: plan as if it were this time")
