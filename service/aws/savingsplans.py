"""Cost Explorer's SageMaker Savings Plans purchase recommendation (GetSavingsPlansPurchaseRecommendation).

Account-wide, refreshed by AWS about daily; gpuops asks once a month per term (it costs $0.01 a request, like every
Cost Explorer call). Read only: gpuops never buys a Savings Plan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError


@dataclass(frozen=True)
class SavingsPlanRecommendation:
    """Cost Explorer's answer, in numbers (AWS sends them as strings); zero commitment when it recommends none."""

    term: str  # ONE_YEAR | THREE_YEARS
    payment: str  # NO_UPFRONT | PARTIAL_UPFRONT | ALL_UPFRONT
    lookback_days: int
    hourly_commitment_usd: float
    estimated_savings_percent: float
    estimated_monthly_savings_usd: float
    estimated_utilisation_percent: float
    current_average_hourly_on_demand_usd: float
    current_minimum_hourly_on_demand_usd: float

    @property
    def discount(self) -> float | None:
        """The discount the recommendation implies (savings over the on-demand cost it covers); None without one."""
        return self.estimated_savings_percent / 100.0 if self.estimated_savings_percent > 0 else None


LOOKBACK = {7: "SEVEN_DAYS", 30: "THIRTY_DAYS", 60: "SIXTY_DAYS"}


def _number(details: dict[str, Any], key: str) -> float:
    try:
        return float(details.get(key) or 0.0)
    except ValueError:
        return 0.0


def fetch_sagemaker_recommendation(*, client: Any, term: str = "ONE_YEAR", payment: str = "NO_UPFRONT",
                                   lookback_days: int = 60) -> SavingsPlanRecommendation:
    """The largest SAGEMAKER_SP recommendation for the payer account over the longest lookback AWS offers."""
    try:
        answer = client.get_savings_plans_purchase_recommendation(
            SavingsPlansType="SAGEMAKER_SP", TermInYears=term, PaymentOption=payment,
            LookbackPeriodInDays=LOOKBACK[lookback_days], AccountScope="PAYER")
    except ClientError as exc:
        error = exc.response.get("Error", {})
        raise UpstreamError(f"{error.get('Code', 'error')}: {error.get('Message', '')}", service="ce",
                            operation="GetSavingsPlansPurchaseRecommendation", code="aws_error") from exc
    except BotoCoreError as exc:
        raise UpstreamError(f"Cost Explorer unreachable: {exc}", service="ce",
                            operation="GetSavingsPlansPurchaseRecommendation", code="aws_error") from exc
    body = answer.get("SavingsPlansPurchaseRecommendation") or {}
    details = body.get("SavingsPlansPurchaseRecommendationDetails") or []
    best: dict[str, Any] = max(details, key=lambda d: _number(d, "HourlyCommitmentToPurchase"), default={})
    return SavingsPlanRecommendation(
        term=term, payment=payment, lookback_days=lookback_days,
        hourly_commitment_usd=_number(best, "HourlyCommitmentToPurchase"),
        estimated_savings_percent=_number(best, "EstimatedSavingsPercentage"),
        estimated_monthly_savings_usd=_number(best, "EstimatedMonthlySavingsAmount"),
        estimated_utilisation_percent=_number(best, "EstimatedAverageUtilization"),
        current_average_hourly_on_demand_usd=_number(best, "CurrentAverageHourlyOnDemandSpend"),
        current_minimum_hourly_on_demand_usd=_number(best, "CurrentMinimumHourlyOnDemandSpend"),
    )
