"""Commitment advice on a synthetic three-month history: the baseline of on-demand SageMaker hours, the seed rule's
plan against Cost Explorer's SAGEMAKER_SP recommendation (asked as botocore's model allows), once a month."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import botocore.session
import pytest
from botocore.validate import ParamValidator
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from bot.alerts import commitment_text
from contract.errors import UpstreamError
from service.alerts.commitment import advise_commitments, hourly_on_demand_usage
from service.aws.savingsplans import fetch_sagemaker_recommendation
from service.store.db import new_session
from service.store.tables import AuditEvent, Job, PlanRevision, RequestRecord
from tests.aws.fakeaws import AwsFault, FakeAws
from tests.aws.launchkit import launch_policy, migrated_engine, new_request

NOW = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
START = NOW - timedelta(days=90)


def _add_job(engine: Engine, template: PlanRevision, *, key: str, team: str, began: datetime, hours: float,
             instances: int, price: float, purchase: str = "on-demand", status: str = "Completed") -> None:
    decision = dict(template.decision)
    decision["plan"] = {**decision["plan"], "instance_count": instances, "price_per_instance_hour_usd": price,
                        "purchase_model": purchase, "platform": "sagemaker"}
    with new_session(engine) as session:
        session.add(RequestRecord(id=key, status="succeeded", team=team, requester="slack:T0GPUOPS:U0ALICE",
                                  stage="production", created_at=began, updated_at=began))
        session.flush()
        session.add(PlanRevision(request_id=key, revision=1, decision=decision, plan_hash="x", policy_version="x",
                                 price_snapshot="x", estimated_cost_usd=1.0, approvals_needed=1, denied=False,
                                 created_by="x", created_at=began))
        session.add(Job(request_id=key, revision=1, name=f"gpuops-{key}", platform="sagemaker", status=status,
                        dry_run=False, estimated_cost_usd=1.0, started_at=began, created_at=began,
                        updated_at=began + timedelta(hours=hours)))
        session.commit()


@pytest.fixture
def history(sqlite_url: str) -> Engine:
    """team-ml: one on-demand instance all quarter ($10/h, the baseline), ten 2-day bursts of 4 more, a spot job
    (not eligible); team-nlp: a neighbour's job that must not count."""
    engine = migrated_engine(sqlite_url)
    policy = launch_policy()
    new_request(engine=engine, policy=policy, approve=False)
    with new_session(engine) as session:
        template = session.exec(select(PlanRevision)).one()
    _add_job(engine, template, key="req_steady", team="team-ml", began=START - timedelta(days=5), hours=24 * 95,
             instances=1, price=10.0, status="InProgress")
    for i in range(10):
        _add_job(engine, template, key=f"req_burst{i}", team="team-ml", began=START + timedelta(days=8 * i + 1),
                 hours=48, instances=4, price=10.0)
    _add_job(engine, template, key="req_spot", team="team-ml", began=START, hours=24 * 90, instances=8, price=5.0,
             purchase="spot")
    _add_job(engine, template, key="req_nlp", team="team-nlp", began=START, hours=24 * 90, instances=8, price=30.0)
    return engine


RECOMMENDATION = {"SavingsPlansPurchaseRecommendation": {
    "SavingsPlansType": "SAGEMAKER_SP", "TermInYears": "ONE_YEAR", "PaymentOption": "NO_UPFRONT",
    "LookbackPeriodInDays": "SIXTY_DAYS",
    "SavingsPlansPurchaseRecommendationDetails": [
        {"HourlyCommitmentToPurchase": "4.2", "EstimatedSavingsPercentage": "30", "EstimatedAverageUtilization": "99",
         "EstimatedMonthlySavingsAmount": "1533", "CurrentAverageHourlyOnDemandSpend": "16.1",
         "CurrentMinimumHourlyOnDemandSpend": "6.0"},
        {"HourlyCommitmentToPurchase": "9.8", "EstimatedSavingsPercentage": "30", "EstimatedAverageUtilization": "95",
         "EstimatedMonthlySavingsAmount": "2890", "CurrentAverageHourlyOnDemandSpend": "16.1",
         "CurrentMinimumHourlyOnDemandSpend": "6.0"}]}}


def _valid(operation: str, body: dict[str, Any]) -> None:
    model = botocore.session.get_session().get_service_model("ce").operation_model(operation)
    report = ParamValidator().validate(body, model.input_shape)
    assert not report.has_errors(), report.generate_report()


def test_the_baseline_counts_only_the_teams_eligible_on_demand_hours(history: Engine) -> None:
    with new_session(history) as session:
        usage = hourly_on_demand_usage(session=session, team="team-ml", start=START, end=NOW)
    assert len(usage) == 90 * 24
    assert min(usage) == pytest.approx(10.0) and max(usage) == pytest.approx(50.0)
    assert sum(usage) == pytest.approx(10.0 * 90 * 24 + 10 * 48 * 40.0)


def test_the_monthly_advice_sets_the_seed_rule_against_cost_explorer(history: Engine, fake_aws: FakeAws,
                                                                     make_factory: Any) -> None:
    fake_aws.on("GetSavingsPlansPurchaseRecommendation", lambda _body: RECOMMENDATION)
    client = make_factory({"ce": fake_aws.url}).client("ce")
    policy = launch_policy()

    def recommend() -> Any:
        return fetch_sagemaker_recommendation(client=client)

    assert advise_commitments(engine=history, policy=policy, recommend=recommend, now=NOW) == 2  # ml and nlp
    assert advise_commitments(engine=history, policy=policy, recommend=recommend, now=NOW + timedelta(days=3)) == 0
    [asked] = fake_aws.calls("GetSavingsPlansPurchaseRecommendation")  # once a month, whatever the teams
    _valid("GetSavingsPlansPurchaseRecommendation", asked)
    assert asked["SavingsPlansType"] == "SAGEMAKER_SP" and asked["LookbackPeriodInDays"] == "SIXTY_DAYS"
    with new_session(history) as session:
        ml, nlp = session.exec(select(AuditEvent).where(AuditEvent.type == "commitment.advice")
                               .order_by(col(AuditEvent.seq))).all()
    assert nlp.data["team"] == "team-nlp" and nlp.data["baseline_per_hour_usd"] == 240.0
    data = ml.data
    assert (data["team"], data["channel"], data["baseline_per_hour_usd"]) == ("team-ml", "C0GPUOPSML", 10.0)
    seed = data["seed"]
    # 90% of the baseline is the 10th-percentile hour: $10/h on demand, bought at 30% off = $7/h.
    assert (seed["commitment_per_hour_usd"], seed["covers_per_hour_usd"], seed["coverage"]) == (7.0, 10.0, 0.5294)
    assert seed["savings_usd"] == pytest.approx(3.0 * 90 * 24)
    text = commitment_text(data)
    assert text == (
        "💡 *team-ml* commitment advice for 2026-12 (a recommendation: gpuops buys nothing).\n"
        "Steady baseline: $10/h of on-demand SageMaker jobs (the 10th-percentile hour over the last 90 days; "
        "average $19/h).\n"
        "Seed rule, cover ~90% of the baseline: commit $7.00/h ($61,320 a year) at the 30% discount Cost Explorer "
        "quotes. Over the last 90 days it would have saved $6,480 ($2,190/month), covering 53% of eligible spend at "
        "100% utilisation.\n"
        "Break-even: it pays off while at least 70% of the commitment is used on average, i.e. eligible usage "
        "averaging $7.00/h.\n"
        "Risk: the commitment bills every hour for the whole term, used or not; in the last 90 days usage fell "
        "below the $10/h it covers in 0% of hours. Spot, capacity-block, EKS and EC2 jobs are not covered.\n"
        "_Source: rule: cover about 90% of the three-month baseline with a Savings Plan "
        "(docs/sources.md#savings-plan-baseline)._\n"
        "Cost Explorer recommends (whole account, 60-day lookback, one year, no upfront): $9.80/h, saving about "
        "$2,890/month (30%) at 95% utilisation.")


def test_without_cost_explorer_the_advice_says_why_and_is_not_retried_all_month(history: Engine, fake_aws: FakeAws,
                                                                                make_factory: Any) -> None:
    def denied(_body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("AccessDeniedException", "not authorized to perform ce:GetSavingsPlansPurchaseRecommendation")

    fake_aws.on("GetSavingsPlansPurchaseRecommendation", denied)
    client = make_factory({"ce": fake_aws.url}, max_attempts=1).client("ce")
    policy = launch_policy()
    with pytest.raises(UpstreamError):
        fetch_sagemaker_recommendation(client=client)
    assert advise_commitments(engine=history, policy=policy, now=NOW,
                              recommend=lambda: fetch_sagemaker_recommendation(client=client)) == 2
    assert advise_commitments(engine=history, policy=policy, now=NOW + timedelta(hours=1),
                              recommend=lambda: fetch_sagemaker_recommendation(client=client)) == 0
    assert len(fake_aws.calls("GetSavingsPlansPurchaseRecommendation")) == 2  # the direct call and one round's
    with new_session(history) as session:
        event = session.exec(select(AuditEvent).where(AuditEvent.type == "commitment.advice")
                             .order_by(col(AuditEvent.seq))).first()
    assert event is not None and event.data["seed"] is None and "AccessDeniedException" in event.data["aws_error"]
    assert "cannot be priced without Cost Explorer's discount" in commitment_text(event.data)
