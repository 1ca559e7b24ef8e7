"""What a request fixes beyond the work itself: a later start, a stated length, capacity already held.

- ``start_after`` ("64 H100s tomorrow"): every configuration starts then, so it finishes that much later.
- ``fixed_hours`` ("eval run 7B 2h"): the job runs that long on whatever it is given; cost is instances × price ×
  (hours + start-up), the start-up being the same provisioning, image pull and load as a spot restart's.
- ``reserved`` ("we have a capacity block for 4x p5.48xlarge"): only that hardware, uninterrupted, at the block's
  rate; the plan says whether the job fits the capacity and the time it has.
See docs/design.md §What a request fixes.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from policy.candidates import Option, Profile
from policy.catalog import SageMakerPremium
from policy.config import EstimateSettings
from policy.decision import PurchaseModel
from policy.estimate import billed_hours, cents
from policy.pricing import hourly_rate
from policy.request import TrainingRequest
from policy.screen import NOT_ASKED
from policy.timespan import hours_between

__all__ = ["does_not_fit", "fit_verdict", "fixed_length", "held_capacity", "HELD_REASON", "SIZING_PARAMS",
           "started_later", "startup_within"]

HELD_REASON = "capacity already held: uninterrupted, already paid"

# A job of a stated length on stated hardware has no model size to hold; sized as a tiny model so memory never
# rules the named hardware out (its hours are given, not estimated).
SIZING_PARAMS = 1_000_000


def started_later(options: list[Option], *, request: TrainingRequest, now: datetime,
                  usable_hours: float | None) -> list[Option]:
    """Every option starting at ``start_after`` (when that is ahead), ``meets`` judged again: new options, since the
    ones given may be kept for the next decision of the same work (``policy.candidates.screened_options``)."""
    if request.start_after is None:
        return options
    offset = max(0.0, hours_between(now, request.start_after))
    return [dataclasses.replace(o, start_hours=o.start_hours + offset,
                                meets=None if usable_hours is None else o.start_hours + offset + o.wall_hours
                                <= usable_hours) for o in options]


def fixed_length(options: list[Option], *, hours: float, settings: EstimateSettings, usable_hours: float | None,
                 cap: float) -> list[Option]:
    """Each configuration run for exactly ``hours`` plus start-up, priced at its rate; spot adds no estimate of
    interruptions (an interrupted run of a stated length is run again, which the person knows best). A sweep's runs
    side by side each run that long ("8 configs on 8 A10Gs for 24h"); runs one after another on the same instances
    would not fit a stated length, so those layouts are left out while any layout runs them all at once. When none
    does ("30 runs of 1 hour each on a g5.xlarge", more runs than the policy lets run at once), the runs go in rounds,
    each run as long as stated, one round after another. A length the policy's longest job (``cap``) holds but not
    with its start-up takes the start-up out of the length (``startup_within``)."""
    startup = settings.spot_restart_minutes / 60
    wall = hours + startup - startup_within(hours, settings=settings, cap=cap)
    at_once = [o for o in options if o.layout.rounds == 1]
    out = []
    for o in at_once or options:
        rounds, jobs = o.layout.rounds, o.layout.jobs
        layout = dataclasses.replace(o.layout, job_hours=wall - startup)
        # every job runs its stated length on its own instances; in rounds, the last may leave some of them idle,
        # which is not billed (as ``options_for`` prices a sweep)
        instance_hours = o.count * wall if rounds == 1 else jobs * o.layout.job_instances * wall
        cost = cents(o.count * o.rate.usd * billed_hours(instance_hours / o.count))
        meets = None if usable_hours is None else o.start_hours + rounds * wall <= usable_hours
        out.append(dataclasses.replace(o, layout=layout, compute_hours=rounds * (wall - startup),
                                       wall_hours=rounds * wall, instance_hours=instance_hours, spot=None, cost=cost,
                                       meets=meets, stated=True))
    return out


def filling(options: list[Option], *, gpus: int | None, instances: int | None) -> list[Option]:
    """Of a stated length on an exact count ("3 seeds of 8 H100 for 6 hours"), the layouts that hold all of it: the
    hardware is what is asked for those hours, so a sweep on fewer, smaller instances (3 single-H100 ones) is no
    cheaper way to do it. When no layout holds the count, all stay (the plan says what is left idle)."""
    if gpus is None and instances is None:
        return options
    held = [o for o in options if (o.count * o.profile.spec.accelerator_count == gpus if gpus is not None
                                   else o.count == instances)]
    return held or options


def startup_within(hours: float, *, settings: EstimateSettings, cap: float) -> float:
    """Hours of start-up a stated length takes out of itself: those past ``cap`` (max_runtime_hours) of a length
    within it. "8 p5 for 2 weeks" under a 336 h cap holds the instances 336 h, start-up included, rather than being
    denied for 15 minutes; a length past the cap is longer than any job may run, and is denied as it is."""
    if hours > cap:
        return 0.0
    return max(0.0, hours + settings.spot_restart_minutes / 60 - cap)


def held_capacity(options: list[Option], *, premium: SageMakerPremium) -> list[Option]:
    """Only uninterrupted configurations, valued at the on-demand rate: the hardware is already held, so these hours
    are what it would cost to buy them now, not new spend (the catalog has no price for a block the team bought)."""
    out = []
    for o in options:
        on_demand = hourly_rate(o.profile.price, purchase=PurchaseModel.ON_DEMAND, platform=o.platform,
                                premium=premium)
        if o.purchase is not PurchaseModel.ON_DEMAND or on_demand is None:
            continue
        rate = dataclasses.replace(on_demand, basis="held capacity valued at the on-demand rate; " + on_demand.basis)
        cost = cents(o.count * rate.usd * billed_hours(o.wall_hours))
        out.append(dataclasses.replace(o, purchase=PurchaseModel.CAPACITY_BLOCK, rate=rate, cost=cost,
                                       purchase_reason=HELD_REASON))
    return out


def fit_verdict(option: Option, *, request: TrainingRequest, deadline_met: bool | None) -> str:
    """ "fits" or "does not fit" the held capacity, and why, for the plan's first warning."""
    held = f"{option.count}× {option.profile.spec.instance_type}"
    hours = option.wall_hours
    if deadline_met is False:
        return (f"does not fit: the job needs {hours:,.1f} h on the held {held} and finishes after the deadline; "
                "the cost is already committed, so the question is time, not money")
    when = "" if request.start_after is None else f" from {request.start_after:%a %Y-%m-%d %H:%M}"
    return (f"fits: the job takes {hours:,.1f} h ({hours / 24:,.1f} days) on the held {held}{when}; its cost "
            "is already committed (valued at the on-demand rate, not new spend), though approvals still judge it at "
            "that value; name the reservation (cr-…) and gpuops checks it in the account and plans it at no new spend")


def does_not_fit(request: TrainingRequest, profiles: list[Profile], ruled_out: dict[str, str]) -> str:
    """Why the held capacity cannot run the job: too few instances for its memory, or the type cannot at all."""
    held = f"{request.instances or 1}× {request.instance_type}"
    count = request.instances or 1
    needs = [f"at least {p.min_count}× {p.spec.instance_type}" for p in profiles if p.min_count > count]
    if needs:
        return f"Does not fit: this job's memory needs {needs[0]}; the held capacity is {held}."
    why = "; ".join(f"{t}: {r}" for t, r in sorted(ruled_out.items()) if r != NOT_ASKED)
    return f"Does not fit: the held {held} cannot run this job" + (f" ({why})." if why else ".")
