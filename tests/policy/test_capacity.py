"""Capacity in the decision: quotas, spot placement scores and reserved-capacity offerings (docs/design.md
§Capacity)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from policy.capacity import (
    ActionKind,
    CapacityCheck,
    CapacityOffering,
    CapacityStatus,
    CapacityView,
    OfferingKind,
    PlacementScore,
    QuotaFigure,
    QuotaKey,
    Reservation,
    check,
    quota_for,
    summary_line,
)
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision
from policy.parse import parse_request
from policy.spend import SpendSnapshot
from policy.tree import decide

TZ = "America/Los_Angeles"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))
READ = NOW.astimezone(UTC)
CATALOG = load_catalog()
POLICY = default_policy()
REGIONS = ("us-east-1", "us-east-2", "us-west-2", "eu-west-1")
OK_SPEND = SpendSnapshot(status="ok", team="team-ml", month_to_date_usd=1_000, forecast_usd=2_000, as_of=NOW)


def quotas(limit: float, *, in_use: float = 0, types: tuple[str, ...] | None = None) -> list[QuotaFigure]:
    """Every quota any option of these types (all in the catalog when None) could consume, at ``limit``."""
    out: dict[QuotaKey, QuotaFigure] = {}
    for name, spec in CATALOG.instances.items():
        if types is not None and name not in types:
            continue
        for platform in ("sagemaker", "hyperpod", "eks", "ec2"):
            for purchase in ("spot", "on-demand"):
                for region in REGIONS:
                    key = quota_for(instance_type=name, family=spec.family, platform=platform, purchase=purchase,
                                    region=region)
                    if key is not None:
                        out[key] = QuotaFigure(key=key, limit=limit, in_use=in_use, source="Service Quotas",
                                               as_of=READ)
    return list(out.values())


def scores(score: int, *, region: str | None = None) -> list[PlacementScore]:
    return [PlacementScore(instance_type=name, count=1, region=r, score=score, source="EC2 spot placement scores",
                           as_of=READ)
            for name in CATALOG.instances for r in REGIONS if region is None or r == region]


def plan_for(text: str, view: CapacityView | None, *, team: str | None = None,
             spend: SpendSnapshot = OK_SPEND) -> Decision:
    request = parse_request(text, now=NOW, tz=TZ, **({"team": team} if team else {}))
    return decide(request, catalog=CATALOG, policy=POLICY, spend=spend, now=NOW, capacity=view)


@pytest.mark.parametrize(("platform", "purchase", "expected"), [
    ("sagemaker", "on-demand", ("sagemaker", "ml.p5.48xlarge for training job usage", "instances")),
    ("sagemaker", "spot", ("sagemaker", "ml.p5.48xlarge for spot training job usage", "instances")),
    ("hyperpod", "on-demand", ("sagemaker", "ml.p5.48xlarge for cluster usage", "instances")),
    ("ec2", "on-demand", ("ec2", "Running On-Demand P instances", "vCPU")),
    ("eks", "spot", ("ec2", "All P Spot Instance Requests", "vCPU")),
])
def test_which_quota_limits_an_option(platform: str, purchase: str, expected: tuple[str, str, str]) -> None:
    key = quota_for(instance_type="p5.48xlarge", family="p5", platform=platform, purchase=purchase,
                    region="us-east-1")
    assert key is not None and (key.service, key.name, key.unit) == expected
    assert quota_for(instance_type="p5.48xlarge", family="p5", platform="ec2", purchase="capacity-block",
                     region="us-east-1") is None


def test_vcpu_quotas_count_vcpus_and_the_line_says_what_is_free() -> None:
    key = quota_for(instance_type="p5.48xlarge", family="p5", platform="ec2", purchase="on-demand",
                    region="us-east-2")
    assert key is not None
    view = CapacityView(known=True, as_of=READ, quotas=[
        QuotaFigure(key=key, limit=960, in_use=192, source="Service Quotas", as_of=READ)])
    fits = check(view, instance_type="p5.48xlarge", family="p5", vcpus=192, count=4, platform="ec2",
                 purchase="on-demand", region="us-east-2")
    assert fits.status is CapacityStatus.FITS and fits.quota_needed == 768
    assert summary_line(fits, purchase="on-demand", region="us-east-2") == "quota ok (768 of 960 vCPU free)"
    short = check(view, instance_type="p5.48xlarge", family="p5", vcpus=192, count=5, platform="ec2",
                  purchase="on-demand", region="us-east-2")
    assert short.status is CapacityStatus.SHORT
    assert "768 free, 960 needed" in short.reasons[0]


def test_quota_of_zero_says_so_and_offers_an_increase() -> None:
    decision = plan_for("fine-tune 7B on 4x p5.48xlarge", CapacityView(known=True, as_of=READ, quotas=quotas(0),
                                                                      scores=scores(9)))
    cap = decision.plan.capacity
    assert cap is not None and cap.status is CapacityStatus.SHORT
    assert cap.quota_limit == 0 and cap.quota_needed == 4
    assert any("no configuration fits the account's quotas" in w and "quota increase" in w
               for w in decision.warnings), decision.warnings
    [action] = decision.capacity_actions
    assert action.kind is ActionKind.QUOTA_INCREASE and action.desired_value == 4
    assert action.quota_name == f"ml.p5.48xlarge for {'spot ' if cap.placement_score else ''}training job usage"
    assert decision.approval.required and any("capacity short" in r for r in decision.approval.reasons)


def test_quota_that_fits_adds_no_noise() -> None:
    view = CapacityView(known=True, as_of=READ, quotas=quotas(64), scores=scores(9))
    without = plan_for("fine-tune 7B", None)
    decision = plan_for("fine-tune 7B", view)
    assert decision.plan.model_dump(exclude={"capacity"}) == without.plan.model_dump(exclude={"capacity"})
    assert decision.warnings == without.warnings and decision.capacity_actions == []
    assert decision.plan.capacity is not None and decision.plan.capacity.status is CapacityStatus.FITS
    assert not any("capacity" in r for r in decision.approval.reasons)
    assert all(a.capacity is not None for a in decision.alternatives)


def test_a_short_quota_ranks_the_cheapest_down_to_one_that_fits() -> None:
    cheapest = plan_for("fine-tune 7B", None).plan
    view = CapacityView(known=True, as_of=READ, quotas=[*quotas(0, types=(cheapest.instance_type,)),
                                                        *quotas(64, types=tuple(t for t in CATALOG.instances
                                                                                if t != cheapest.instance_type))],
                        scores=scores(9))
    decision = plan_for("fine-tune 7B", view)
    assert decision.plan.instance_type != cheapest.instance_type
    assert decision.plan.capacity is not None and decision.plan.capacity.status is CapacityStatus.FITS
    step = next(s for s in decision.trace if s.node == "capacity")
    assert f"ruled out 1× {cheapest.instance_type}" in step.reason


def test_a_low_spot_score_in_one_region_moves_the_plan() -> None:
    before = plan_for("fine-tune 7B", None, team="team-nlp").plan
    assert before.purchase_model == "spot"
    view = CapacityView(known=True, as_of=READ, quotas=quotas(64),
                        scores=[*scores(2, region=before.region),
                                *[s for r in REGIONS if r != before.region for s in scores(8, region=r)]])
    decision = plan_for("fine-tune 7B", view, team="team-nlp")
    moved = decision.plan
    assert moved.region != before.region or moved.purchase_model == "on-demand"
    step = next(s for s in decision.trace if s.node == "capacity")
    assert "spot placement score 2/10" in step.reason and before.region in step.reason
    assert moved.capacity is not None and moved.capacity.status is CapacityStatus.FITS


def test_unknown_capacity_plans_but_is_never_approved_automatically() -> None:
    cheap_policy = POLICY.model_copy(update={"auto_approve_below_usd": 10_000})
    request = parse_request("fine-tune 7B", now=NOW, tz=TZ)
    known = decide(request, catalog=CATALOG, policy=cheap_policy, spend=OK_SPEND, now=NOW,
                   capacity=CapacityView(known=True, as_of=READ, quotas=quotas(64), scores=scores(9)))
    assert not known.approval.required
    unknown = decide(request, catalog=CATALOG, policy=cheap_policy, spend=OK_SPEND, now=NOW,
                     capacity=CapacityView(known=False, reason="no AWS credentials"))
    assert unknown.plan.instance_type == known.plan.instance_type  # planning goes on
    assert unknown.approval.required
    assert any("capacity unknown (no AWS credentials)" in r for r in unknown.approval.reasons)
    assert unknown.plan.capacity is not None and unknown.plan.capacity.status is CapacityStatus.UNKNOWN
    assert summary_line(unknown.plan.capacity, purchase="spot", region="us-east-1") == \
        "capacity unknown (no AWS credentials)"
    assert any(a.startswith("capacity unknown") for a in unknown.assumptions)


def _offering(kind: OfferingKind, *, start_in: float, days: int, usd: float, count: int = 8,
              instance_type: str = "p4d.24xlarge") -> CapacityOffering:
    start = READ + timedelta(hours=start_in)
    return CapacityOffering(kind=kind, offering_id="cb-0123456789abcdef0" if kind is OfferingKind.CAPACITY_BLOCK
                            else "tpo-SHA256-abc", instance_type=instance_type, count=count, region="us-east-1",
                            start=start, end=start + timedelta(days=days), duration_hours=days * 24.0,
                            upfront_usd=usd, source="EC2 DescribeCapacityBlockOfferings", as_of=READ)


def test_offerings_become_alternatives_at_their_upfront_price_and_start() -> None:
    text = "production pretrain 7B on 100B tokens in 20 days"
    plain = plan_for(text, None)
    assert not any(a.purchase_model == "capacity-block" for a in plain.alternatives)  # no offering, no block
    offer = _offering(OfferingKind.TRAINING_PLAN, start_in=30, days=10, usd=123_456.78)
    view = CapacityView(known=True, as_of=READ, quotas=quotas(64), scores=scores(9), offerings=[offer],
                        offerings_known=True)
    decision = plan_for(text, view)
    block = next(a for a in decision.alternatives if a.purchase_model == "capacity-block")
    assert block.label.startswith("SageMaker training plan tpo-SHA256-abc")
    assert block.estimated_cost_usd == 123_456.78 and block.platform == "sagemaker"
    assert block.estimated_finish > offer.start  # starts when the reserved window opens
    assert block.capacity == CapacityCheck(
        status=CapacityStatus.FITS, offering_id=offer.offering_id, offering_kind=offer.kind,
        offering_upfront_usd=offer.upfront_usd, offering_start=offer.start, offering_end=offer.end,
        offering_source=offer.source, offering_as_of=READ)
    [action] = decision.capacity_actions
    assert action.kind is ActionKind.CREATE_TRAINING_PLAN and action.offering_id == offer.offering_id


def test_an_offering_too_short_for_the_run_is_not_offered() -> None:
    offer = _offering(OfferingKind.TRAINING_PLAN, start_in=30, days=2, usd=9_999)
    decision = plan_for("production pretrain 7B on 100B tokens in 20 days",
                        CapacityView(known=True, as_of=READ, quotas=quotas(64), offerings=[offer],
                                     offerings_known=True))
    assert not any(a.purchase_model == "capacity-block" for a in decision.alternatives)


def test_offerings_not_read_are_said_to_be_unknown() -> None:
    decision = plan_for("production pretrain 7B on 100B tokens in 20 days",
                        CapacityView(known=True, as_of=READ, quotas=quotas(64),
                                     offerings_reason="DescribeCapacityBlockOfferings failed: throttled"))
    assert "reserved-capacity offerings unknown: DescribeCapacityBlockOfferings failed: throttled" in \
        decision.assumptions
    assert not any(a.purchase_model == "capacity-block" for a in decision.alternatives)


def _held(**changes: object) -> Reservation:
    values: dict[str, object] = {
        "reservation_id": "cr-0123456789abcdef0", "instance_type": "p4d.24xlarge", "count": 16, "available": 16,
        "region": "us-east-1", "state": "active", "start": READ - timedelta(days=1), "end": READ + timedelta(days=14),
        "source": "EC2 DescribeCapacityReservations", "as_of": READ}
    return Reservation.model_validate({**values, **changes})


EC2_POLICY = POLICY.model_copy(update={"teams": {**POLICY.teams, "team-ml": POLICY.teams["team-ml"].model_copy(
    update={"platforms": POLICY.teams["team-ml"].platforms.model_copy(update={"ec2": True})})}})
HELD_TEXT = "production pretrain 7B on 100B tokens in 20 days, we have cr-0123456789abcdef0"


def _decide_held(view: CapacityView) -> Decision:
    request = parse_request(HELD_TEXT, now=NOW, tz=TZ)
    assert request.capacity_reservation == "cr-0123456789abcdef0"
    return decide(request, catalog=CATALOG, policy=EC2_POLICY, spend=OK_SPEND, now=NOW, capacity=view)


def test_a_capacity_block_the_team_holds_is_used_as_committed_capacity() -> None:
    decision = _decide_held(CapacityView(known=True, as_of=READ, quotas=quotas(64), reservations=[_held()]))
    plan = decision.plan
    assert (plan.purchase_model, plan.platform, plan.instance_type) == ("capacity-block", "ec2", "p4d.24xlarge")
    assert plan.estimated_cost_usd == 0 and plan.instance_count <= 16
    assert plan.capacity is not None and plan.capacity.offering_id == "cr-0123456789abcdef0"
    assert "already bought" in plan.cost_breakdown[0].basis
    assert decision.capacity_actions == []  # nothing to buy


@pytest.mark.parametrize("held", [
    _held(state="expired"), _held(available=1), _held(end=READ + timedelta(hours=5)),
    _held(instance_type="g5.xlarge")])  # one A10G per instance: no count of them trains a 7B pretrain
def test_a_held_block_that_cannot_run_the_job_is_said_and_not_used(held: Reservation) -> None:
    decision = _decide_held(CapacityView(known=True, as_of=READ, quotas=quotas(64), reservations=[held]))
    assert decision.plan.purchase_model != "capacity-block"
    assert any(a.startswith("capacity block cr-0123456789abcdef0: not usable") for a in decision.assumptions)


RESERVE_TEXT = "reserve a capacity block for 16 H100s next week for a 34B fine-tune on 10B tokens, production"


def _decide_reserved(view: CapacityView | None) -> Decision:
    request = parse_request(RESERVE_TEXT, now=NOW, tz=TZ)
    assert request.reserve_capacity is True and request.unread == []
    return decide(request, catalog=CATALOG, policy=EC2_POLICY, spend=OK_SPEND, now=NOW, capacity=view)


def test_reserved_capacity_asked_for_makes_the_offering_that_fits_the_plan_to_buy() -> None:
    offer = _offering(OfferingKind.CAPACITY_BLOCK, start_in=24 * 5, days=7, usd=45_000.0, count=2,
                      instance_type="p5.48xlarge")
    decision = _decide_reserved(CapacityView(known=True, as_of=READ, quotas=quotas(64), scores=scores(9),
                                             offerings=[offer], offerings_known=True))
    plan = decision.plan
    assert (plan.purchase_model, plan.instance_type, plan.instance_count) == ("capacity-block", "p5.48xlarge", 2)
    assert plan.estimated_cost_usd == plan.exposure_usd == 45_000.0  # paid up front; the block's end stops it
    assert plan.capacity is not None and plan.capacity.offering_id == offer.offering_id
    [action] = decision.capacity_actions  # buying it needs its own approval, as an offered alternative's does
    assert action.kind is ActionKind.PURCHASE_CAPACITY_BLOCK and action.upfront_usd == 45_000.0
    cheaper = next(a for a in decision.alternatives if a.label == "cheapest within policy")
    assert cheaper.purchase_model == "on-demand" and cheaper.estimated_cost_usd < 45_000.0
    assert not any("as asked costs" in w for w in decision.warnings)  # the block's fee is not the H100s' price


def test_reserved_capacity_with_no_offering_that_fits_says_why_and_plans_without_interruptions() -> None:
    short = _offering(OfferingKind.CAPACITY_BLOCK, start_in=24 * 5, days=2, usd=15_000.0, count=2,
                      instance_type="p5.48xlarge")
    none_fit = _decide_reserved(CapacityView(known=True, as_of=READ, quotas=quotas(64), scores=scores(9),
                                             offerings=[short], offerings_known=True))
    assert none_fit.plan.purchase_model == "on-demand"
    assert "reserved capacity was asked for, but none of the 1 offerings read runs this job in its window by the " \
           "deadline: the plan is priced without one" in none_fit.warnings
    unread = _decide_reserved(None)
    assert unread.plan.purchase_model == "on-demand"
    assert any(w.startswith("reserved capacity was asked for, but offerings were not read") for w in unread.warnings)


@pytest.mark.parametrize("text", ["book a capacity block of 2 p5s for a 13B fine-tune on 5B tokens",
                                  "pretrain 7B on 100B tokens on a SageMaker training plan",
                                  "reserve 8 H100s for a week to fine-tune 13B on 3B tokens"])
def test_capacity_to_reserve_is_read_apart_from_capacity_held(text: str) -> None:
    request = parse_request(text, now=NOW, tz=TZ)
    assert (request.reserve_capacity, request.reserved, request.unread) == (True, None, [])
    assert request.interruption_tolerance is not None and request.interruption_tolerance.value == "low"
    held = parse_request("fine-tune 7B, we have a capacity block next week for 4x p5.48xlarge", now=NOW, tz=TZ)
    assert (held.reserve_capacity, held.reserved) == (None, True)


def test_a_week_reserved_beside_the_work_is_the_time_it_has() -> None:
    request = parse_request("reserve 8 H100s for a week to fine-tune 13B on 3B tokens", now=NOW, tz=TZ)
    assert request.fixed_hours is None and request.deadline == NOW + timedelta(days=7)
