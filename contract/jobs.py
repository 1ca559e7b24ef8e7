"""The training job a request launched, as the request and ``GET /v1/jobs`` show it."""

from __future__ import annotations

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
