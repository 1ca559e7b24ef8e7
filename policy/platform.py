"""Where the job runs: SageMaker by default, HyperPod, EKS or plain EC2 as the team's policy allows.

See docs/design.md §Platform.
"""

from __future__ import annotations

from collections.abc import Sequence

from policy import rules
from policy.config import PolicyConfig, TeamPolicy
from policy.decision import Platform, TraceStep
from policy.errors import RequestError
from policy.request import PLATFORM_NAMES
from policy.spend import SpendSnapshot, SpendStatus

__all__ = ["allowed_platforms", "choose_platforms", "monthly_training_spend", "PLATFORM_SOURCE"]

PLATFORM_SOURCE = rules.EKS_ABOVE_SPEND


def monthly_training_spend(spend: SpendSnapshot) -> float | None:
    """The month's training spend as known: month to date plus the forecast for the rest, when spend is known."""
    if spend.status is SpendStatus.UNAVAILABLE or spend.month_to_date_usd is None:
        return None
    return spend.month_to_date_usd + (spend.forecast_usd or 0.0)


_QUESTION = "Managed (SageMaker, HyperPod) or DIY (EKS, EC2)?"


def choose_platforms(*, team_name: str, team: TeamPolicy, spend: SpendSnapshot, policy: PolicyConfig,
                     requested: Platform | None = None, excluded: Sequence[Platform] = ()) -> tuple[
        list[Platform], TraceStep]:
    """The platforms candidates may use, the primary one first, and the trace step that says why.

    A platform the request names is the only one, when the team may use it; one the team's policy does not enable is
    refused, never planned elsewhere in silence: a person who asked for EKS gets EKS or a reason. Platforms the
    request rules out ("no SageMaker") are never used: the policy's choice among the rest, and a refusal naming the
    policy keys when none is left."""
    if requested is not None:
        return [requested], _requested_step(team_name, team, requested)
    primary, reason, source = _primary(team_name, team, spend, policy)
    if primary in excluded:
        left = [p for p in allowed_platforms(team) if p not in excluded]
        if not left:
            out = " and ".join(PLATFORM_NAMES[p] for p in excluded)
            keys = ", ".join(f"teams.{team_name}.platforms.{p.value}" for p in Platform
                             if p not in excluded and p is not Platform.SAGEMAKER)
            raise RequestError(
                f"The request rules out {out}, and {team_name}'s policy enables no other platform: drop that, or "
                f"enable one in the policy file ({keys}).", code="platform_not_allowed")
        reason = (f"the request rules out {PLATFORM_NAMES[primary]}: {PLATFORM_NAMES[left[0]]}, which {team_name} "
                  "may use")
        primary, source = left[0], "request:exclude_platforms"
    platforms = [primary]
    if team.platforms.ec2 and primary is not Platform.EC2 and Platform.EC2 not in excluded:
        platforms.append(Platform.EC2)
        reason += "; plain EC2 also allowed (DIY), so it competes on cost"
    answer = " or ".join(p.value for p in platforms)
    step = TraceStep(node="7 platform", question=_QUESTION, answer=answer, reason=reason, source=source)
    return platforms, step


def allowed_platforms(team: TeamPolicy) -> list[Platform]:
    """The platforms ``team`` may run on: SageMaker always, the others as its ``platforms`` policy enables them."""
    enabled = {Platform.HYPERPOD: team.platforms.hyperpod, Platform.EKS: team.platforms.eks,
               Platform.EC2: team.platforms.ec2}
    return [Platform.SAGEMAKER, *(p for p, on in enabled.items() if on)]


def _requested_step(team_name: str, team: TeamPolicy, requested: Platform) -> TraceStep:
    """The trace step of a platform the request named, or the refusal that names the policy key to change."""
    name = PLATFORM_NAMES[requested]
    if requested is Platform.SAGEMAKER:
        return TraceStep(node="7 platform", question=_QUESTION, answer=requested.value,
                         reason="the request asked for SageMaker, which every team may use", source="request:platform")
    key = f"teams.{team_name}.platforms.{requested.value}"
    if requested not in allowed_platforms(team):
        others = " or ".join(PLATFORM_NAMES[p] for p in allowed_platforms(team))
        raise RequestError(
            f"{team_name} may not run on {name}: its policy does not enable it ({key} is false). Ask for {others} "
            f"instead, or leave the platform open; to allow {name}, set {key}: true in the policy file.",
            code="platform_not_allowed")
    return TraceStep(node="7 platform", question=_QUESTION, answer=requested.value,
                     reason=f"the request asked for {name}, which {team_name}'s policy enables",
                     source=f"request:platform; policy:{key}")


def _primary(team_name: str, team: TeamPolicy, spend: SpendSnapshot, policy: PolicyConfig) -> tuple[
    Platform, str, str
]:
    if team.platforms.hyperpod:
        return Platform.HYPERPOD, f"{team_name} runs a standing HyperPod cluster", \
            f"policy:teams.{team_name}.platforms.hyperpod"
    threshold = policy.eks_monthly_spend_threshold_usd
    if team.platforms.eks:
        monthly = monthly_training_spend(spend)
        if monthly is None:
            return Platform.SAGEMAKER, (f"{team_name} has EKS but its monthly spend is unknown, so the EKS threshold "
                                        f"(${threshold:,.0f}) cannot be checked: SageMaker"), PLATFORM_SOURCE
        if monthly > threshold:
            return Platform.EKS, (f"{team_name} has EKS and spends ${monthly:,.0f} a month on training, above "
                                  f"${threshold:,.0f}"), f"{PLATFORM_SOURCE}; policy:eks_monthly_spend_threshold_usd"
        return Platform.SAGEMAKER, (f"{team_name} has EKS but spends ${monthly:,.0f} a month, below the "
                                    f"${threshold:,.0f} at which EKS pays off"), PLATFORM_SOURCE
    if team.platforms.ec2:
        return Platform.SAGEMAKER, "SageMaker managed training by default", PLATFORM_SOURCE
    return Platform.SAGEMAKER, "SageMaker managed training (managed spot with checkpointing) by default", \
        PLATFORM_SOURCE
