"""Capacity in the choice: options that cannot start ranked down, offerings turned into priced alternatives, and the
actions that would let a plan start (docs/design.md §Capacity).

``policy.tree.decide`` calls ``rank`` on the evaluated configurations before choosing and ``offering_options`` for
the reserved-capacity alternatives; both are pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from policy import rules
from policy.candidates import Option
from policy.capacity import (
    ActionKind,
    CapacityAction,
    CapacityCheck,
    CapacityStatus,
    CapacityView,
    OfferingKind,
    check,
    quota_for,
    summary_line,
)
from policy.decision import Alternative, Plan, Platform, PurchaseModel, TraceStep
from policy.estimate import cents
from policy.pricing import Rate
from policy.timespan import hours_between

__all__ = ["check_option", "committed_options", "labelled", "offering_options", "Outcome", "outcome", "rank", "Ranked",
           "unblocking_actions"]

# Which platforms run in which kind of reserved capacity.
_PLATFORMS = {OfferingKind.CAPACITY_BLOCK: (Platform.EC2, Platform.EKS, Platform.HYPERPOD),
              OfferingKind.TRAINING_PLAN: (Platform.SAGEMAKER,)}
_NOTES_SHOWN = 3



@dataclass(slots=True)
class Ranked:
    """The configurations left to choose among and what capacity said about the others."""

    inside: list[Option]
    outside: list[Option]
    none_fit: bool = False  # every configuration is short: the choice goes on, and the plan says so
    notes: list[str] = field(default_factory=list)


def check_option(view: CapacityView, option: Option) -> CapacityCheck:
    """``option`` against the account."""
    spec = option.profile.spec
    return check(view, instance_type=spec.instance_type, family=spec.family, vcpus=spec.vcpus,
                 count=option.layout.count, platform=option.platform.value, purchase=option.purchase.value,
                 region=option.profile.price.region)


def rank(inside: list[Option], outside: list[Option], view: CapacityView | None) -> Ranked:
    """Choose among the configurations known to fit; else among those not known to be short; else among all.

    A configuration a quota or the spot market says will not start is dropped unless that would drop every one; one
    whose figures were not read ranks below those known to fit (it may not start either).
    """
    if view is None or not view.known:
        return Ranked(inside, outside)
    short: list[tuple[Option, CapacityCheck]] = []
    tiers: dict[CapacityStatus, tuple[list[Option], list[Option]]] = {s: ([], []) for s in CapacityStatus}
    for index, options in enumerate((inside, outside)):
        for option in options:
            result = check_option(view, option)
            tiers[result.status][index].append(option)
            if result.status is CapacityStatus.SHORT:
                short.append((option, result))
    fits, unknown = tiers[CapacityStatus.FITS], tiers[CapacityStatus.UNKNOWN]
    unread = len(unknown[0]) + len(unknown[1])
    if fits[0] or fits[1]:
        kept_in, kept_out = fits
    elif unread:
        kept_in, kept_out = unknown
        unread = 0
    else:
        return Ranked(inside, outside, none_fit=bool(short),
                      notes=["no configuration fits the account's quotas or the spot market"])
    notes = [f"ruled out {o.count}× {o.profile.spec.instance_type} {o.purchase.value} on {o.platform.value} in "
             f"{o.profile.price.region}: {'; '.join(r.reasons)}"
             for o, r in sorted(short, key=lambda pair: pair[0].cost)[:_NOTES_SHOWN]]
    if len(short) > _NOTES_SHOWN:
        notes.append(f"and {len(short) - _NOTES_SHOWN} more configuration(s) for the same reasons")
    if unread:
        notes.append(f"{unread} configuration(s) whose quota or spot score was not read ranked below those known to "
                     "fit")
    return Ranked(kept_in, kept_out, notes=notes)


def unblocking_actions(option: Option, result: CapacityCheck) -> list[CapacityAction]:
    """A quota increase that would let ``option`` start, when a quota is what stops it."""
    spec, region = option.profile.spec, option.profile.price.region
    key = quota_for(instance_type=spec.instance_type, family=spec.family, platform=option.platform.value,
                    purchase=option.purchase.value, region=region)
    if key is None or result.quota_needed is None or result.quota_in_use is None or result.quota_limit is None:
        return []
    if result.quota_needed <= result.quota_limit - result.quota_in_use:
        return []
    desired = result.quota_in_use + result.quota_needed
    return [CapacityAction(
        kind=ActionKind.QUOTA_INCREASE, region=region, instance_type=spec.instance_type, count=option.layout.count,
        quota_service=key.service, quota_name=key.name, quota_code=key.code, desired_value=desired,
        summary=f"request a quota increase: {key.name!r} in {region} from {result.quota_limit:g} to {desired:g} "
                f"{key.unit}")]


def offering_options(pool: Sequence[Option], view: CapacityView | None, *, now: datetime,
                     usable_hours: float | None) -> list[tuple[Option, CapacityCheck]]:
    """Each offering as the configuration it would run, priced at its upfront fee, earliest finish first."""
    if view is None or not view.known:
        return []
    found: list[tuple[Option, CapacityCheck]] = []
    for offering in view.offerings:
        base = _base(pool, offering.instance_type, offering.region, offering.count, _PLATFORMS[offering.kind])
        if base is None or base.compute_hours > offering.duration_hours:
            continue  # nothing here runs on it, or the run does not fit in the reserved window
        start = max(0.0, hours_between(now, offering.start))
        wall = base.compute_hours
        usd = offering.upfront_usd / (offering.count * offering.duration_hours)
        what = "capacity block" if offering.kind is OfferingKind.CAPACITY_BLOCK else "SageMaker training plan"
        basis = (f"{what} offering {offering.offering_id}: ${offering.upfront_usd:,.2f} upfront for "
                 f"{offering.count}× {offering.instance_type}, {offering.duration_hours:g} h from "
                 f"{offering.start:%Y-%m-%d %H:%M} UTC ({offering.source}, read {offering.as_of:%Y-%m-%d %H:%M} UTC)")
        option = Option(base.profile, base.layout, PurchaseModel.CAPACITY_BLOCK, base.platform,
                        Rate(usd, usd, usd, basis, False), base.compute_hours, wall,
                        offering.count * offering.duration_hours, None, start, cents(offering.upfront_usd),
                        None if usable_hours is None else start + wall <= usable_hours,
                        f"reserved capacity ({what}): no interruptions, paid upfront, used or not")
        found.append((option, CapacityCheck(
            status=CapacityStatus.FITS, offering_id=offering.offering_id, offering_kind=offering.kind,
            offering_upfront_usd=offering.upfront_usd, offering_start=offering.start, offering_end=offering.end,
            offering_source=offering.source, offering_as_of=offering.as_of)))
    return sorted(found, key=lambda pair: (pair[0].meets is False, pair[0].finish_hours, pair[0].cost))


def _base(pool: Sequence[Option], instance_type: str, region: str, count: int,
          platforms: tuple[Platform, ...]) -> Option | None:
    """The cheapest on-demand configuration of this shape that the reserved capacity would replace."""
    fits = [o for o in pool if o.purchase is PurchaseModel.ON_DEMAND and o.profile.spec.instance_type == instance_type
            and o.profile.price.region == region and o.layout.job_instances == count and o.layout.jobs == 1
            and o.platform in platforms]
    return min(fits, key=lambda o: o.cost) if fits else None


@dataclass(slots=True)
class Outcome:
    """What capacity adds to a decision: the plans with their checks, and why a person must look."""

    plan: Plan
    alternatives: list[Alternative]
    doubt: str | None = None  # why the plan may not start (unknown or short capacity): never auto-approved
    warnings: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    actions: list[CapacityAction] = field(default_factory=list)
    step: TraceStep | None = None


def labelled(reserved: Sequence[tuple[Option, CapacityCheck]]) -> list[tuple[str, Option]]:
    """The reserved-capacity configurations with the label a person reads."""
    out = []
    for option, result in reserved:
        what = "capacity block" if result.offering_kind is OfferingKind.CAPACITY_BLOCK else "SageMaker training plan"
        out.append((f"{what} {result.offering_id}: reserved, no interruptions", option))
    return out


def outcome(view: CapacityView | None, chosen: Option, plan: Plan, alternatives: Sequence[tuple[Option, Alternative]],
            *, ranked: Ranked, reserved: Sequence[tuple[Option, CapacityCheck]]) -> Outcome:
    """The plan and alternatives with their capacity checks, the doubt that blocks automatic approval, the actions."""
    alts = [a for _, a in alternatives]
    if view is None:
        return Outcome(plan, alts)
    offered = {id(o): r for o, r in reserved}
    result = offered.get(id(chosen)) or check_option(view, chosen)
    plan = plan.model_copy(update={"capacity": result})
    alts = [a.model_copy(update={"capacity": offered.get(id(o)) or check_option(view, o)}) for o, a in alternatives]
    out = Outcome(plan, alts, actions=unblocking_actions(chosen, result) if result.status is CapacityStatus.SHORT
                  else [])
    # an offering chosen as the plan ("reserve a capacity block") is bought as one offered beside it is
    out.actions += [_purchase(o, offered[id(o)]) for o in (chosen, *(o for o, _ in alternatives))
                    if id(o) in offered and not str(offered[id(o)].offering_id).startswith("cr-")]  # held: no buy
    line = summary_line(result, purchase=plan.purchase_model.value, region=plan.region)
    if not view.known:
        out.doubt = f"unknown ({view.reason})"
        out.assumptions.append(f"capacity unknown ({view.reason}): quotas, spot placement scores and reserved-capacity "
                               "offerings were not read, so this plan is not approved automatically")
    elif result.status is not CapacityStatus.FITS:
        out.doubt = f"{result.status.value}: {'; '.join(result.reasons)}"
    if ranked.none_fit:
        why = "; ".join(result.reasons)
        out.warnings.append(f"no configuration fits the account's quotas or the spot market: {why}"
                            + ("; a quota increase can be requested (it needs approval)" if out.actions else ""))
    if view.known and view.offerings_reason:
        out.assumptions.append(f"reserved-capacity offerings unknown: {view.offerings_reason}")
    reason = ("never assumed to fit: a person approves what nobody could check" if not view.known
              else "; ".join(ranked.notes) or ("fits" if result.status is CapacityStatus.FITS
                                               else "; ".join(result.reasons) or line))
    out.step = TraceStep(node="capacity", question="Can the account start it?", answer=line, reason=reason,
                         source=rules.CAPACITY)
    return out


def _purchase(option: Option, result: CapacityCheck) -> CapacityAction:
    spec = option.profile.spec
    block = result.offering_kind is OfferingKind.CAPACITY_BLOCK
    kind = ActionKind.PURCHASE_CAPACITY_BLOCK if block else ActionKind.CREATE_TRAINING_PLAN
    what = "buy capacity block" if block else "create SageMaker training plan from offering"
    return CapacityAction(kind=kind, region=option.profile.price.region, instance_type=spec.instance_type,
                          count=option.layout.job_instances, offering_id=result.offering_id,
                          upfront_usd=result.offering_upfront_usd,
                          summary=f"{what} {result.offering_id} for ${result.offering_upfront_usd or 0:,.2f} upfront")


def committed_options(pool: Sequence[Option], view: CapacityView | None, *, reservation_id: str | None,
                      now: datetime, usable_hours: float | None) -> list[tuple[Option, CapacityCheck]]:
    """The configuration the request's own capacity block runs, when the account holds it and the run fits in it:
    already paid, so it adds no spend."""
    if view is None or not view.known or reservation_id is None:
        return []
    held = next((r for r in view.reservations if r.reservation_id == reservation_id), None)
    if held is None or held.state not in ("active", "scheduled", "payment-pending", "pending"):
        return []
    fits = [o for o in pool if o.purchase is PurchaseModel.ON_DEMAND and o.layout.jobs == 1
            and o.profile.spec.instance_type == held.instance_type and o.profile.price.region == held.region
            and o.platform in _PLATFORMS[OfferingKind.CAPACITY_BLOCK] and o.layout.job_instances <= held.available]
    found: list[tuple[Option, CapacityCheck]] = []
    for base in sorted(fits, key=lambda o: (o.finish_hours, o.layout.count)):
        start = max(0.0, hours_between(now, held.start)) if held.start else 0.0
        if held.end is not None and start + base.compute_hours > hours_between(now, held.end):
            continue  # the run would outlast the block
        until = f" until {held.end:%Y-%m-%d %H:%M} UTC" if held.end else ""
        basis = (f"capacity block {held.reservation_id} already bought: {held.available} of {held.count}× "
                 f"{held.instance_type} free{until} ({held.source}, read {held.as_of:%Y-%m-%d %H:%M} UTC)")
        option = Option(base.profile, base.layout, PurchaseModel.CAPACITY_BLOCK, base.platform,
                        Rate(0.0, 0.0, 0.0, basis, False), base.compute_hours, base.compute_hours,
                        base.layout.count * base.compute_hours, None, start, 0.0,
                        None if usable_hours is None else start + base.compute_hours <= usable_hours,
                        "committed capacity: the team's capacity block, already paid")
        found.append((option, CapacityCheck(
            status=CapacityStatus.FITS, offering_id=held.reservation_id, offering_kind=OfferingKind.CAPACITY_BLOCK,
            offering_upfront_usd=0.0, offering_start=held.start, offering_end=held.end, offering_source=held.source,
            offering_as_of=held.as_of)))
        break
    return found
