"""The training job a request launched, as the request and ``GET /v1/jobs`` show it."""

from __future__ import annotations

from datetime import datetime

from contract.base import OutputModel


class JobPublic(OutputModel):
    name: str
    status: str  # the platform's own word (SageMaker's TrainingJobStatus), not a request status
    secondary_status: str | None
    platform: str
    estimated_cost_usd: float
    actual_cost_usd: float | None
    billable_seconds: int | None
    training_seconds: int | None
    spot_savings: float | None
    interruptions: int
    # While it runs (refreshed by the tracker every few minutes): cost so far, projected cost to finish, when.
    cost_so_far_usd: float | None = None
    projected_cost_usd: float | None = None
    cost_as_of: datetime | None = None
