"""The platform a request names ("on EKS") and the hardware it keeps out ("no H100s"): read, planned on, or refused
naming what to change."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import load_catalog
from policy.config import PolicyConfig, default_policy
from policy.decision import Decision, Platform
from policy.errors import RequestError
from policy.parse import parse_request
from policy.request import TrainingRequest
from policy.spend import SpendSnapshot
from policy.tree import decide

TZ = "America/Los_Angeles"
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=ZoneInfo(TZ))
ASK = "fine-tune 7B on 1B tokens"
UNAVAILABLE = SpendSnapshot.unavailable(team=None, reason="no spend source")


def read(text: str) -> TrainingRequest:
    return parse_request(text, now=NOW, tz=TZ)


def plan(request: TrainingRequest, policy: PolicyConfig | None = None, **kwargs: Any) -> Decision:
    return decide(request, catalog=kwargs.pop("catalog", load_catalog()), policy=policy or default_policy(),
                  spend=UNAVAILABLE, now=NOW, **kwargs)


def with_platforms(**platforms: bool) -> PolicyConfig:
    """The default policy with team-ml's ``platforms`` set as given."""
    policy = default_policy()
    team = policy.teams["team-ml"]
    teams = {**policy.teams, "team-ml": team.model_copy(update={
        "platforms": team.platforms.model_copy(update=platforms)})}
    return policy.model_copy(update={"teams": teams})


# --- the platform named ---

@pytest.mark.parametrize(("text", "platform"), [
    (f"{ASK} on EKS", Platform.EKS),
    (f"{ASK} on our EKS cluster", Platform.EKS),
    (f"{ASK} on kubernetes", Platform.EKS),
    (f"{ASK} on sagemaker", Platform.SAGEMAKER),
    (f"{ASK} as a SageMaker training job", Platform.SAGEMAKER),
    (f"{ASK} with hyperpod", Platform.HYPERPOD),
    (f"{ASK} on SageMaker HyperPod", Platform.HYPERPOD),
    (f"{ASK} on plain EC2", Platform.EC2),
    (f"{ASK} on ec2", Platform.EC2),
])  # fmt: skip
def test_the_platform_named_is_read(text: str, platform: Platform) -> None:
    request = read(text)
    assert request.platform is platform
    assert request.unread == [] and request.instance_type is None


@pytest.mark.parametrize("text", [ASK, f"{ASK} not on EKS", f"{ASK} on EKS or SageMaker"])
def test_no_platform_is_read_from_a_negation_or_a_choice_of_two(text: str) -> None:
    assert read(text).platform is None


def test_a_platform_ruled_out_is_never_planned_on_even_when_the_team_may_use_it() -> None:
    """"not on EKS" was left unread for a person; it now leaves the other platforms to choose among."""
    request = read(f"{ASK} not on EKS")
    assert request.unread == [] and request.exclude_platforms == [Platform.EKS] and request.platform_choice == []
    decision = plan(request, with_platforms(eks=True, ec2=True))
    assert decision.plan.platform is not Platform.EKS
    assert all(a.platform is not Platform.EKS for a in decision.alternatives)


def test_the_platform_the_policy_would_choose_is_passed_over_when_ruled_out() -> None:
    """ "no sagemaker" said "the plan is on another platform" and planned on SageMaker: the team's policy chose it, and
    the words only offered the others for comparison."""
    hyperpod = plan(read(f"{ASK}, not on hyperpod"), with_platforms(hyperpod=True))
    assert hyperpod.plan.platform is Platform.SAGEMAKER
    assert any(s.source == "request:exclude_platforms" for s in hyperpod.trace)
    ec2 = plan(read(f"{ASK}, no sagemaker"), with_platforms(ec2=True))
    assert ec2.plan.platform is Platform.EC2
    assert all(a.platform is not Platform.SAGEMAKER for a in ec2.alternatives)
    with pytest.raises(RequestError) as refused:
        plan(read(f"{ASK}, no sagemaker"))
    assert refused.value.code == "platform_not_allowed"
    assert refused.value.message.startswith("The request rules out SageMaker, and team-ml's policy enables no other "
                                            "platform: drop that, or enable one in the policy file (")


@pytest.mark.parametrize(("platform", "key"), [
    (Platform.EKS, "eks"), (Platform.HYPERPOD, "hyperpod"), (Platform.EC2, "ec2")])
def test_the_decision_plans_on_the_platform_named_when_the_team_may_use_it(platform: Platform, key: str) -> None:
    request = read(ASK).model_copy(update={"platform": platform})
    decision = plan(request, with_platforms(**{key: True}))
    assert decision.plan.platform is platform
    assert {a.platform for a in decision.alternatives} <= {platform}
    step = next(s for s in decision.trace if s.node == "7 platform")
    assert step.answer == platform.value and "the request asked for" in step.reason
    assert f"policy:teams.team-ml.platforms.{key}" in step.source and "request:platform" in step.source


def test_sagemaker_is_planned_when_asked_for_even_where_the_policy_would_pick_ec2_too() -> None:
    decision = plan(read(f"{ASK} on sagemaker"), with_platforms(ec2=True, hyperpod=True))
    assert decision.plan.platform is Platform.SAGEMAKER
    assert all(a.platform is Platform.SAGEMAKER for a in decision.alternatives)
    assert "the request asked for SageMaker" in next(s for s in decision.trace if s.node == "7 platform").reason


@pytest.mark.parametrize(("text", "key"), [
    (f"{ASK} on EKS", "eks"), (f"{ASK} with hyperpod", "hyperpod"), (f"{ASK} on plain EC2", "ec2")])
def test_a_platform_the_team_may_not_use_is_refused_naming_the_policy_key(text: str, key: str) -> None:
    with pytest.raises(RequestError) as caught:
        plan(read(text))  # team-ml enables none of them
    assert caught.value.code == "platform_not_allowed"
    assert f"teams.team-ml.platforms.{key}" in caught.value.message
    assert "Ask for SageMaker instead" in caught.value.message


@pytest.mark.parametrize(("text", "platform"), [
    (f"{ASK}; hyperpod if possible", Platform.HYPERPOD), (f"{ASK}, ideally on EKS", Platform.EKS)])
def test_a_platform_preferred_that_the_team_may_not_use_is_left_to_the_policy(text: str,
                                                                               platform: Platform) -> None:
    request = read(text)
    assert (request.platform, request.platform_preferred, request.unread) == (platform, True, [])
    decision = plan(request)  # team-ml enables neither
    assert decision.plan.platform is Platform.SAGEMAKER
    assert any(a.startswith(f"the platform preferred, {platform.value}, is left to the policy (team-ml may not run")
               for a in decision.assumptions)
    allowed = plan(request, with_platforms(**{platform.value: True}))
    assert allowed.plan.platform is platform  # allowed, the preference is planned on


def test_the_refusal_offers_the_platforms_the_team_may_use() -> None:
    with pytest.raises(RequestError, match="Ask for SageMaker or EKS instead"):
        plan(read(f"{ASK} on plain EC2"), with_platforms(eks=True))


@pytest.mark.parametrize("text", [f"{ASK}, compare SageMaker vs EKS", f"{ASK} on SageMaker or EKS"])
def test_platforms_named_to_compare_keep_the_policys_plan_and_show_the_best_on_each_other(text: str) -> None:
    request = read(text)
    assert (request.platform, request.platform_choice, request.unread) == (
        None, [Platform.SAGEMAKER, Platform.EKS], [])
    policy = with_platforms(eks=True)
    decision = plan(request, policy)
    assert decision.plan == plan(read(ASK), policy).plan  # the policy's choice, SageMaker below the EKS threshold
    [on_eks] = [a for a in decision.alternatives if a.label == "on EKS"]
    eks_plan = plan(read(f"{ASK} on EKS"), policy).plan
    assert (on_eks.platform, on_eks.instance_type, on_eks.instance_count, on_eks.estimated_cost_usd) == (
        Platform.EKS, eks_plan.instance_type, eks_plan.instance_count, eks_plan.estimated_cost_usd)
    assert all(a.platform is Platform.SAGEMAKER for a in decision.alternatives if a is not on_eks)


def test_a_platform_asked_for_is_planned_on_and_the_one_compared_shown_once() -> None:
    request = read(f"{ASK} on EKS").model_copy(
        update={"platform_choice": [Platform.SAGEMAKER, Platform.EKS, Platform.SAGEMAKER]})
    decision = plan(request, with_platforms(eks=True))
    assert decision.plan.platform is Platform.EKS
    assert [a.label for a in decision.alternatives if a.platform is Platform.SAGEMAKER] == ["on SageMaker"]


def test_a_platform_named_to_compare_that_the_team_may_not_use_is_noted_not_refused() -> None:
    decision = plan(read(f"{ASK}, compare SageMaker vs EKS"))  # team-ml enables no EKS
    assert decision.plan == plan(read(ASK)).plan
    assert all(a.platform is Platform.SAGEMAKER for a in decision.alternatives)
    assert ("EKS named to compare, but team-ml's policy does not enable it (teams.team-ml.platforms.eks is false): "
            "not compared") in decision.assumptions


def test_without_a_named_platform_the_policy_still_chooses() -> None:
    decision = plan(read(ASK), with_platforms(hyperpod=True))
    assert decision.plan.platform is Platform.HYPERPOD
    assert "request" not in next(s for s in decision.trace if s.node == "7 platform").source


# --- the hardware kept out ---

@pytest.mark.parametrize(("text", "excluded"), [
    (f"{ASK}, no H100s please", ["H100"]),
    (f"{ASK}, not on p5", ["p5"]),
    (f"{ASK}, avoid g5", ["g5"]),
    (f"{ASK}, anything but A100s", ["A100"]),
    (f"{ASK} without H100s", ["H100"]),
    (f"{ASK} w/o H100s", ["H100"]),
    (f"{ASK}, no p4d", ["p4d"]),
    (f"{ASK}, no p5.48xlarge", ["p5.48xlarge"]),
    (f"{ASK}, no H100s or A100s", ["H100", "A100"]),
    (f"{ASK}, avoid g5 and g6", ["g5", "g6"]),
    (f"{ASK}, don't use p4ds", ["p4d"]),
    (f"{ASK}, except trainium", ["Trainium1", "Trainium2"]),  # either generation
    (f"{ASK} except on p5", ["p5"]),
    (f"{ASK}, not using any H100", ["H100"]),
])  # fmt: skip
def test_excluded_hardware_is_read_and_never_asked_for(text: str, excluded: list[str]) -> None:
    request = read(text)
    assert request.exclude == excluded
    assert request.accelerator is None and request.instance_type is None and request.gpus is None
    assert request.unread == []


@pytest.mark.parametrize("text", [f"{ASK} on no more than 2 p5s", f"{ASK}, no spot", f"{ASK} not for prod"])
def test_negations_of_other_things_exclude_no_hardware(text: str) -> None:
    assert read(text).exclude == []


def test_the_hardware_asked_for_and_the_hardware_excluded_are_read_apart() -> None:
    request = read(f"{ASK} on H100s, no p5e")
    assert (request.accelerator, request.exclude) == ("H100", ["p5e"])


@pytest.mark.parametrize("text", [f"{ASK}, no H100s please", f"{ASK} without H100s", f"{ASK}, not on p5"])
def test_a_plan_never_uses_excluded_hardware_and_says_why_it_was_left_out(text: str) -> None:
    decision = plan(read(text))
    assert decision.plan.accelerator != "H100" and not decision.plan.instance_type.startswith("p5.")
    assert all(not a.instance_type.startswith("p5.") for a in decision.alternatives)
    candidates = next(s for s in decision.trace if s.node == "5 candidates")
    assert "p5.48xlarge, p5.4xlarge: excluded by the request" in candidates.reason


def test_without_the_exclusion_the_same_request_is_planned_on_h100s() -> None:
    assert plan(read(ASK)).plan.instance_type == "p5.48xlarge"  # what "no H100s please" used to get


def test_an_accelerator_name_excludes_every_memory_size_of_it() -> None:
    with pytest.raises(RequestError) as caught:  # p4de has the 80 GB A100
        plan(read(f"{ASK} on p4de, no A100s"))
    assert caught.value.code == "contradiction"


def test_two_requests_that_differ_only_by_the_exclusion_get_different_plans_in_one_process() -> None:
    catalog, policy = load_catalog(), default_policy()  # one memo for both, as in the service
    first = plan(read(ASK), policy, catalog=catalog)
    second = plan(read(f"{ASK}, no H100s"), policy, catalog=catalog)
    third = plan(read(ASK), policy, catalog=catalog)
    assert first.plan.accelerator == third.plan.accelerator == "H100"
    assert second.plan.accelerator != "H100"


def test_naming_hardware_and_excluding_all_of_it_is_a_contradiction() -> None:
    with pytest.raises(RequestError) as caught:
        plan(read(f"{ASK} on p5, no H100s"))
    assert caught.value.code == "contradiction"
    assert "p5" in caught.value.message and "H100" in caught.value.message


def test_naming_a_family_and_excluding_part_of_it_plans_the_rest() -> None:
    decision = plan(read("lora 7B on 1B tokens on p5, no p5.48xlarge"))
    assert decision.plan.instance_type.startswith("p5.") and decision.plan.instance_type != "p5.48xlarge"


def test_excluding_everything_that_holds_the_job_is_refused_naming_the_exclusion() -> None:
    request = read("fine-tune 70B on 1B tokens").model_copy(update={
        "exclude": ["H100", "H200", "B200", "A100", "L40S", "A10G", "L4", "V100", "Trainium1", "Trainium2"]})
    with pytest.raises(RequestError) as caught:
        plan(request)
    assert caught.value.code == "no_configuration"
    assert "allow some of the excluded hardware" in caught.value.message


def test_an_exclusion_the_catalog_does_not_know_is_refused() -> None:
    with pytest.raises(RequestError) as caught:
        plan(read(ASK).model_copy(update={"exclude": ["X9000"]}))
    assert caught.value.code == "unknown_exclusion" and "'X9000'" in caught.value.message
