"""Spot a practitioner would accept, interruption rates as an input, spot prices per zone and the data region's
transfer line (docs/design.md §Purchase model, §Candidates)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from policy.catalog import RegionPrice, SageMakerPremium, load_catalog
from policy.config import PolicyConfig, default_policy
from policy.decision import Decision, Platform, PurchaseModel
from policy.errors import RequestError
from policy.parse import parse_request
from policy.pricing import hourly_rate
from policy.purchase import purchase_models
from policy.request import Stage, Tolerance
from policy.spend import SpendSnapshot
from policy.tree import decide

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)
SPEND = SpendSnapshot.unavailable(team=None, reason="not needed")


def _policy(team: str = "team-ml", **changes: object) -> PolicyConfig:
    policy = default_policy()
    launch = policy.teams[team].launch.model_copy(update={"regions": list(policy.regions)})
    updated = policy.teams[team].model_copy(update={"launch": launch, **changes})
    return policy.model_copy(update={"teams": {**policy.teams, team: updated}})


def _decide(text: str, policy: PolicyConfig, **kwargs: object) -> Decision:
    request = parse_request(text, now=NOW, tz="UTC", team="team-ml")
    return decide(request, catalog=load_catalog(), policy=policy, spend=SPEND, now=NOW, **kwargs)  # type: ignore[arg-type]


def test_multi_node_stays_on_demand_unless_the_team_opts_in() -> None:
    text = "fine-tune 70B on 2B tokens on 4 p5.48xlarge"
    default = _decide(text, _policy())
    assert default.plan.instance_count == 4 and default.plan.purchase_model is PurchaseModel.ON_DEMAND
    assert "opts in" in next(s.reason for s in default.trace if s.node == "6 purchase model")
    opted = _decide(text, _policy(multi_node_spot=True))
    assert opted.plan.purchase_model is PurchaseModel.SPOT
    assert any("multi-node spot" in w for w in opted.warnings)


@pytest.mark.parametrize("stage", list(Stage))
@pytest.mark.parametrize("tolerance", list(Tolerance))
def test_purchase_models_tell_one_instance_from_several_and_nothing_finer(stage: Stage, tolerance: Tolerance) -> None:
    """What ``options_for`` asks once per search for one instance and once for several."""
    for has_deadline in (False, True):
        for multi_node_spot in (False, True):
            answers = {purchase_models(stage=stage, tolerance=tolerance, has_deadline=has_deadline, instances=n,
                                       multi_node_spot=multi_node_spot) for n in range(2, 65)}
            assert len(answers) == 1


def test_saying_spot_is_fine_allows_multi_node_spot() -> None:
    decision = _decide("fine-tune 70B on 2B tokens on 4 p5.48xlarge, spot ok", _policy())
    assert decision.plan.purchase_model is PurchaseModel.SPOT


@pytest.mark.parametrize("said", ["no multi-node spot", "spot ok but no multi-node spot",
                                  "multi-node spot isn't ok", "spot only on a single node"])
def test_ruling_out_multi_node_spot_keeps_several_instances_on_demand_even_where_the_team_opts_in(said: str) -> None:
    decision = _decide(f"fine-tune 70B on 2B tokens on 4 p5.48xlarge, {said}", _policy(multi_node_spot=True))
    assert decision.request.multi_node_spot is False and decision.request.max_instances is None
    assert decision.plan.instance_count == 4 and decision.plan.purchase_model is PurchaseModel.ON_DEMAND
    assert not any(w.startswith("if spot is fine") for w in decision.warnings)


def test_allowing_multi_node_spot_in_words_plans_it_where_the_team_does_not_opt_in() -> None:
    decision = _decide("fine-tune 70B on 2B tokens on 4 p5.48xlarge, multi-node spot is fine", _policy())
    assert decision.request.multi_node_spot is True and decision.plan.purchase_model is PurchaseModel.SPOT


def test_allowing_and_ruling_out_multi_node_spot_together_is_refused() -> None:
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 70B on 2B tokens, multi-node spot is fine, no multi-node spot", _policy())
    assert refused.value.code == "contradiction"


def test_interruption_rates_given_by_the_caller_change_the_spot_estimate() -> None:
    text = "fine-tune 7B on 1B tokens on p5 in us-east-1"
    calm = _decide(text, _policy())
    assert calm.plan.purchase_model is PurchaseModel.SPOT
    stormy = _decide(text, _policy(), interruption_rates={("us-east-1", "p5"): 0.99})
    assert stormy.plan.purchase_model is PurchaseModel.ON_DEMAND or (
        stormy.plan.estimated_hours > calm.plan.estimated_hours)


def test_checkpoints_come_at_least_every_30_minutes() -> None:
    decision = _decide("pretrain 1.5B on 30B tokens, spot ok", _policy())
    for plan in [decision.plan, *decision.alternatives]:
        assert plan.checkpoint_interval_minutes is None or plan.checkpoint_interval_minutes <= 30


def test_a_plan_away_from_the_data_region_pays_to_move_the_data_and_says_so() -> None:
    policy = _policy(data_region="us-east-1")
    away = _decide("fine-tune 7B on 1B tokens in us-west-2", policy)
    line = next(i for i in away.plan.cost_breakdown if i.item.startswith("data transfer"))
    assert line.usd == round(1e9 * 4 / 1e9 * 0.02, 2)  # 1B tokens × 4 B at $0.02/GB
    assert away.plan.estimated_cost_usd == round(sum(i.usd for i in away.plan.cost_breakdown), 2)
    assert any("away from the team's data in us-east-1" in w for w in away.warnings)
    home = _decide("fine-tune 7B on 1B tokens in us-east-1", policy)
    assert not any(i.item.startswith("data transfer") for i in home.plan.cost_breakdown)


def test_a_dataset_size_said_is_what_a_move_to_another_region_moves() -> None:
    """'a 4TB dataset' with 1B tokens said: moving it costs its 4 TB ($80), not the tokens' 4 GB ($0.08)."""
    policy = _policy(data_region="us-east-1")
    away = _decide("fine-tune 7B on 1B tokens in us-west-2, our dataset is 4TB", policy)
    assert (away.request.tokens, away.request.dataset_bytes) == (1_000_000_000, 4_000_000_000_000)
    line = next(i for i in away.plan.cost_breakdown if i.item.startswith("data transfer"))
    assert line.usd == 80.0 and line.basis.endswith("its 4,000.0 GB as said")
    assert away.plan.estimated_cost_usd == round(sum(i.usd for i in away.plan.cost_breakdown), 2)


def test_a_transfer_from_a_data_region_the_request_says_names_it_as_the_requests() -> None:
    away = _decide("fine-tune 7B on 1B tokens in us-east-2, the data is in us-west-2", _policy(data_region="us-east-1"))
    line = next(i for i in away.plan.cost_breakdown if i.item.startswith("data transfer"))
    assert line.basis.startswith("the dataset copied once from the data's region the request says, us-west-2, at ")


@pytest.mark.parametrize("said", ["data is in s3://ml-data/eu/ (eu-west-1)", "data is in s3://ml-data/eu/, eu-west-1"])
def test_the_region_said_of_a_buckets_address_is_where_the_data_is(said: str) -> None:
    kept = _decide(f"fine-tune 7B on 1B tokens, {said}", _policy(data_region="us-east-1"))
    assert (kept.request.data_region, kept.plan.region) == ("eu-west-1", "eu-west-1")
    assert not any(i.item.startswith("data transfer") for i in kept.plan.cost_breakdown)


def test_every_region_the_team_can_launch_in_is_searched() -> None:
    decision = _decide("fine-tune 7B on 1B tokens", _policy())
    candidates = next(s for s in decision.trace if s.node == "5 candidates")
    assert all(region in candidates.answer for region in ("us-east-1", "us-east-2", "us-west-2"))


PREMIUM = SageMakerPremium(fraction=0.25, source="test", as_of="2026-11-30")


def _price(zones: int) -> RegionPrice:
    return RegionPrice(instance_type="x", region="r", on_demand_usd=100.0, spot_usd=40.0, spot_min_usd=30.0,
                       spot_max_usd=50.0, spot_zones=zones, source="test", as_of="2026-11-30")


def test_spot_is_priced_per_zone_where_the_zone_can_be_pinned_and_per_region_where_not() -> None:
    ec2 = hourly_rate(_price(3), purchase=PurchaseModel.SPOT, platform=Platform.EC2, premium=PREMIUM)
    managed = hourly_rate(_price(3), purchase=PurchaseModel.SPOT, platform=Platform.SAGEMAKER, premium=PREMIUM)
    assert ec2 is not None and managed is not None
    assert ec2.usd == 30.0 and "pins" in ec2.basis  # the cheapest zone
    assert managed.usd == 40.0 * 1.25 and "SageMaker picks the zone" in managed.basis  # the region's median


def test_a_spot_price_seen_in_one_zone_is_taken_halfway_to_on_demand() -> None:
    rate = hourly_rate(_price(1), purchase=PurchaseModel.SPOT, platform=Platform.EC2, premium=PREMIUM)
    assert rate is not None and rate.usd == 70.0 and "thin pool" in rate.basis


def test_an_area_searches_only_the_policy_regions_in_it() -> None:
    us = _decide("fine-tune 7B on 1B tokens in the US", _policy())
    candidates = next(s for s in us.trace if s.node == "5 candidates").answer
    assert all(region in candidates for region in ("us-east-1", "us-east-2", "us-west-2"))
    assert "eu-west-1" not in candidates and us.plan.region.startswith("us-")
    assert any("the policy's regions in the US" in a for a in us.assumptions)
    europe = _decide("fine-tune 7B on 1B tokens in europe", _policy())
    assert europe.plan.region == "eu-west-1"
    assert "us-east-1" not in next(s for s in europe.trace if s.node == "5 candidates").answer
    assert "read 'europe' as: only the policy's regions in Europe" in europe.assumptions


def test_several_areas_said_together_search_the_policy_regions_in_any_of_them() -> None:
    wider = default_policy().model_copy(update={"regions": ["us-east-1", "eu-west-1", "ap-northeast-1"]})
    policy = _policy().model_copy(update={"regions": wider.regions})
    launch = policy.teams["team-ml"].launch.model_copy(update={"regions": wider.regions})
    policy = policy.model_copy(update={"teams": {**policy.teams, "team-ml": policy.teams["team-ml"].model_copy(
        update={"launch": launch})}})
    either = _decide("fine-tune 7B on 1B tokens in the US or EU", policy)
    assert either.request.area == "us|eu"
    candidates = next(s for s in either.trace if s.node == "5 candidates").answer
    assert "us-east-1" in candidates and "eu-west-1" in candidates and "ap-northeast-1" not in candidates
    assert "read 'US or EU' as: only the policy's regions in the US or the EU" in either.assumptions
    tokyo = _decide("fine-tune 7B on 1B tokens in the EU or Japan", policy)
    assert tokyo.request.area == "eu|japan" and tokyo.plan.region in ("eu-west-1", "ap-northeast-1")
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 7B on 1B tokens in south america or africa", policy)
    assert "no region in South America or Africa" in refused.value.message


def test_an_area_the_policy_has_no_region_in_is_refused_naming_its_regions() -> None:
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 7B on 1B tokens in asia", _policy())
    assert refused.value.code == "no_region_in_area"
    assert "no region in Asia" in refused.value.message
    assert all(region in refused.value.message for region in default_policy().regions)


def test_a_region_outside_the_area_said_with_it_contradicts() -> None:
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 7B on 1B tokens in us-west-2, EU only", _policy())
    assert refused.value.code == "contradiction"
    assert "us-west-2 (US West (Oregon)) is not in the EU" in refused.value.message


def test_a_place_is_its_region_and_one_the_policy_lacks_is_refused_by_its_place() -> None:
    dublin = _decide("fine-tune 7B on 1B tokens in dublin", _policy())
    assert dublin.plan.region == "eu-west-1" and "read 'dublin' as eu-west-1" in dublin.assumptions
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 7B on 1B tokens in frankfurt", _policy())
    assert refused.value.code == "region_not_allowed"
    assert "eu-central-1 (Europe (Frankfurt)) is not allowed" in refused.value.message


@pytest.mark.parametrize("said", ["avoid cross-region data transfer", "no egress", "keep the compute next to the data",
                                  "in the same region as our bucket", "without moving the data"])
def test_staying_with_the_data_searches_only_its_region(said: str) -> None:
    policy = _policy()  # team-ml may launch in every region of the policy; its data is in us-east-1
    kept = _decide(f"fine-tune 7B on 2B tokens, {said}", policy)
    assert kept.request.keep_with_data is True and kept.plan.region == "us-east-1"
    candidates = next(s for s in kept.trace if s.node == "5 candidates").answer
    assert not any(region in candidates for region in ("us-east-2", "us-west-2", "eu-west-1"))
    assert "region: us-east-1 only, where team-ml's data is, so nothing is copied between regions" in kept.assumptions
    free = _decide("fine-tune 7B on 2B tokens", policy)
    assert "us-west-2" in next(s for s in free.trace if s.node == "5 candidates").answer


def test_staying_with_data_said_to_be_elsewhere_runs_there() -> None:
    kept = _decide("avoid cross-region data transfer, data is in eu-west-1, fine-tune 7B on 2B tokens", _policy())
    assert kept.plan.region == "eu-west-1" and kept.request.data_region == "eu-west-1"


@pytest.mark.parametrize(("text", "code", "says"), [
    ("fine-tune 7B on 2B tokens in us-west-2, avoid cross-region transfer", "contradiction",
     "names us-west-2 and asks to stay with team-ml's data in us-east-1"),
    ("fine-tune 7B on 2B tokens, no egress, not in us-east-1", "contradiction",
     "rules out us-east-1, where team-ml's data is"),
])
def test_staying_with_the_data_and_running_elsewhere_contradict(text: str, code: str, says: str) -> None:
    with pytest.raises(RequestError) as refused:
        _decide(text, _policy())
    assert refused.value.code == code and says in refused.value.message


def test_staying_with_data_nobody_placed_asks_where_it_is() -> None:
    policy = _policy(data_region=None)
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 7B on 2B tokens, no egress", policy)
    assert refused.value.code == "unknown_data_region" and 'e.g. "the data is in us-west-2"' in refused.value.message


def test_regions_named_that_the_policy_does_not_allow_are_left_out_when_another_is_named() -> None:
    either = _decide("fine-tune 7B on 1B tokens in eu-central-1 or eu-west-1, whichever is cheaper", _policy())
    assert either.plan.region == "eu-west-1" and either.request.regions == ["eu-west-1"]
    assert "region eu-central-1 left out of those named: the policy does not allow it" in either.assumptions
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 7B on 1B tokens in eu-central-1 or eu-north-1", _policy())
    assert refused.value.code == "region_not_allowed" and "eu-central-1" in refused.value.message


@pytest.mark.parametrize(("text", "how"), [
    ("pretrain 3B on 60B tokens by Wednesday, experimental, budget $8k", "within the $8,000 budget"),
    ("pretrain 3B on 60B tokens by Wednesday, experimental", "% less"),
])
def test_a_multi_node_experiment_on_on_demand_says_what_spot_would_plan(text: str, how: str) -> None:
    decision = _decide(text, default_policy())
    assert (decision.plan.purchase_model, decision.plan.instance_count > 1) == (PurchaseModel.ON_DEMAND, True)
    [said] = [w for w in decision.warnings if w.startswith("if spot is fine (say 'spot ok'), the same ")]
    assert how in said and "multi-node spot is off by default" in said
    spot = _decide(text + ", spot ok", default_policy()).plan
    assert spot.purchase_model is PurchaseModel.SPOT and f"~${spot.estimated_cost_usd:,.2f}" in said


@pytest.mark.parametrize("text", ["pretrain 3B on 60B tokens by Wednesday, production",  # never spot
                                  "pretrain 3B on 60B tokens by Wednesday, no interruptions",  # said: nothing to add
                                  "fine-tune 7B by Friday"])  # one instance: spot is the plan already
def test_no_spot_hint_where_spot_is_ruled_out_said_against_or_already_planned(text: str) -> None:
    assert not any(w.startswith("if spot is fine") for w in _decide(text, default_policy()).warnings)


def test_work_kept_in_an_area_away_from_the_teams_data_says_the_data_may_live_there_already() -> None:
    """"EU data residency" priced copying the team's us-east-1 data into the EU without a word: whether the data
    lives in the EU already only the person knows, so the warning asks where it is."""
    warnings = _decide("fine-tune 7B on 1B tokens, EU data residency", default_policy()).warnings
    [away] = [w for w in warnings if w.startswith("runs in eu-west-1, away from the team's data in us-east-1")]
    assert away.endswith("; the request keeps the work in the EU, so its data may live there already: say where "
                         "(\"data in eu-west-1\") and no copy out of us-east-1 is priced")
    said = _decide("fine-tune 7B on 1B tokens, EU data residency, data in eu-west-1", default_policy())
    assert not any("away from" in w for w in said.warnings)
    named = _decide("fine-tune 7B on 1B tokens in eu-west-1", default_policy())
    assert not any("may live there already" in w for w in named.warnings)  # no area said: the region is a choice


def test_the_spot_hint_for_a_stated_length_prices_that_length() -> None:
    """"16 H100s for a 3-day debug session" was told its 2 nodes would cost ~$9.39 on spot "in 0.3 h": the hint
    priced training of the stand-in size instead of the 72 h asked for, a 1000-fold understatement."""
    decision = _decide("need 16 H100s for a 3-day distributed training debug session", default_policy())
    plan = decision.plan
    assert plan.purchase_model is PurchaseModel.ON_DEMAND and plan.estimated_hours == pytest.approx(72.25)
    [hint] = [w for w in decision.warnings if w.startswith("if spot is fine (say 'spot ok'), the same 2× p5.48xlarge")]
    cost = float(re.search(r"would cost ~\$([\d,.]+) on spot", hint).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert cost > 0.25 * plan.estimated_cost_usd and "in 72.2 h" in hint


def test_a_region_preferred_that_the_policy_does_not_allow_is_left_open_and_one_required_is_refused() -> None:
    """ "in eu-central-1 if possible" was refused outright, as if the region had been required."""
    policy = _policy()
    preferred = _decide("fine-tune 7B on 1B tokens, in eu-central-1 if possible", policy)
    assert preferred.plan.region in policy.regions
    assert "the region preferred, eu-central-1, is left open: the policy does not allow it" in preferred.request.notes
    with pytest.raises(RequestError) as refused:
        _decide("fine-tune 7B on 1B tokens in eu-central-1", policy)
    assert refused.value.code == "region_not_allowed"


def test_where_the_data_lives_is_said_once_as_why_the_plan_is_there() -> None:
    decision = _decide("fine-tune 7B on 1B tokens, the data lives in eu-west-1", default_policy())
    assert decision.plan.region == "eu-west-1" and decision.request.region_preferred
    assert [a for a in decision.assumptions if a.startswith("read 'eu-west-1'")] == [
        "read 'eu-west-1' as where the data lives: planned there, as no other region is said, with what the cheapest "
        "region would save with the data copied to it"]


def test_a_preferred_region_gives_way_where_its_price_condition_says_and_only_there() -> None:
    """ "prefer eu-west-1, but the US is fine if much cheaper": the preference was planned whatever the saving, and the
    condition left unread for a person."""
    policy = default_policy()
    moved = _decide("fine-tune 7B on 1B tokens, prefer eu-west-1 for GDPR but us ok if much cheaper", policy)
    kept = _decide("fine-tune 7B on 1B tokens, prefer eu-west-1", policy)
    assert kept.plan.region == "eu-west-1" and moved.request.unread == []
    assert moved.plan.region in ("us-east-1", "us-east-2", "us-west-2")  # the US, as the condition said
    assert moved.plan.estimated_cost_usd < kept.plan.estimated_cost_usd / 1.2
    assert any(n.startswith("the region preferred, eu-west-1, gives way to ") for n in moved.request.notes)
    # a share said sets the condition: a saving short of it keeps the preferred region
    saving = 1 - moved.plan.estimated_cost_usd / kept.plan.estimated_cost_usd
    short = _decide(f"fine-tune 7B on 1B tokens, prefer eu-west-1 unless another region is {saving * 100 + 5:.0f}% "
                    "cheaper", policy)
    assert short.plan.region == "eu-west-1" and short.request.region_premium_max is not None
    met = _decide(f"fine-tune 7B on 1B tokens, prefer eu-west-1 unless another region is {saving * 100 - 5:.0f}% "
                  "cheaper", policy)
    assert met.plan.region != "eu-west-1"
