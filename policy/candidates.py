"""Every configuration a request could run on (docs/design.md §Candidates), each with its expected time and cost.

Types are screened once per request (allow-lists, hints, memory); configurations are then evaluated with plain
floats so a request costs well under a millisecond for a few hundred of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from policy.catalog import AcceleratorSpec, Catalog, InstanceSpec, RegionPrice, scaling_efficiency
from policy.config import EstimateSettings
from policy.decision import Platform, PurchaseModel
from policy.estimate import SpotTime, Workload, billed_hours, cents, min_accelerators, spot_time
from policy.memo import remembered
from policy.pricing import Rate, hourly_rate
from policy.purchase import purchase_models
from policy.request import Stage, Tolerance

__all__ = [
    "counts_for",
    "fixed_option",
    "Layout",
    "layouts",
    "Option",
    "options_for",
    "Profile",
    "profile",
    "Search",
]


@dataclass(frozen=True, slots=True)
class Profile:
    """One priced instance type in the request's region."""

    price: RegionPrice
    spec: InstanceSpec
    accel: AcceleratorSpec
    flops_per_instance: float  # accelerators × peak × MFU, FLOP/s
    min_count: int  # fewest instances whose memory holds the job
    outside_class: bool  # allowed only as a fall-back outside the size class


@dataclass(frozen=True, slots=True)
class Search:
    """What every configuration of one request shares."""

    catalog: Catalog
    work: Workload
    stage: Stage
    tolerance: Tolerance
    usable_hours: float | None  # hours from now to the deadline less the safety margin; None: no deadline
    platforms: tuple[Platform, ...]
    max_instances: int
    settings: EstimateSettings
    gpus: int | None = None
    # Learnt corrections of estimated hours per instance family, (family, factor) (policy.calibration).
    hours_factors: tuple[tuple[str, float], ...] = ()


@dataclass(slots=True)  # not frozen: hundreds are made per request and frozen __init__ is several times slower
class Option:
    """One configuration with its expected time and cost (hours counted from now)."""

    profile: Profile
    layout: Layout
    purchase: PurchaseModel
    platform: Platform
    rate: Rate
    compute_hours: float  # uninterrupted, wall clock
    wall_hours: float
    instance_hours: float  # billed, summed over instances and jobs
    spot: SpotTime | None
    start_hours: float
    cost: float
    meets: bool | None
    purchase_reason: str = field(default="", compare=False)

    @property
    def count(self) -> int:
        return self.layout.count

    @property
    def finish_hours(self) -> float:
        return self.start_hours + self.wall_hours

    @property
    def job_wall_hours(self) -> float:
        """Wall hours of one launched job (a sweep's trials run as separate jobs, ``rounds`` after another)."""
        return self.wall_hours / self.layout.rounds

    @property
    def key(self) -> tuple[str, int, str, str]:
        return (self.profile.spec.instance_type, self.layout.count, self.purchase, self.platform)


def profile(
    price: RegionPrice, *, catalog: Catalog, work: Workload, settings: EstimateSettings, outside: bool
) -> Profile | str:
    """The type's profile, or why it cannot run this job."""
    spec = catalog.instances.get(price.instance_type)
    if spec is None:
        return "not in the catalog's instance list"
    accel = catalog.accelerators[spec.accelerator]
    memory = spec.accelerator_memory_gib or accel.memory_gib
    if accel.peak_bf16_tflops is None or accel.mfu is None or memory is None:
        return f"{accel.name}: no published peak FLOP/s, MFU or memory figure"
    needed = min_accelerators(work, memory_gib=memory, headroom=settings.memory_headroom)
    if needed is None:
        return f"activations alone exceed one {memory:g} GiB {accel.name}"
    flops = spec.accelerator_count * accel.peak_bf16_tflops * 1e12 * accel.mfu
    return Profile(price, spec, accel, flops, math.ceil(needed / spec.accelerator_count), outside)


def counts_for(prof: Profile, search: Search) -> list[int]:
    """Instance counts to try: 1, 2, 4, … up to the policy maximum, from the fewest that hold the job."""
    if search.gpus is not None:
        count, rest = divmod(search.gpus, prof.spec.accelerator_count)
        ok = rest == 0 and prof.min_count <= count <= search.max_instances
        return [count] if ok else []
    counts, n = [], 1
    while n <= search.max_instances:
        if n >= prof.min_count:
            counts.append(n)
        n *= 2
    return counts


@dataclass(slots=True)  # internal and made per count: not frozen, for speed
class Layout:
    """How the work spreads over ``count`` instances: one synchronous job, or independent sweep trials side by side."""

    count: int
    job_instances: int  # instances in one synchronous job
    jobs: int  # jobs run in total (sweep trials run as separate jobs)
    rounds: int  # jobs one after another on the same capacity
    job_hours: float  # uninterrupted hours of one job


def layouts(prof: Profile, search: Search) -> list[Layout]:
    """The layouts to try on this type."""
    work = search.work
    if work.trials > 1 and work.parallel_trials and prof.min_count == 1:
        # Independent trials cost the same however many run at once, so run as many side by side as allowed.
        count = search.gpus // prof.spec.accelerator_count if search.gpus else min(work.trials, search.max_instances)
        if count < 1:
            return []
        hours = _hours(work.flops / work.trials, prof, search, 1)
        return [Layout(count, 1, work.trials, -(-work.trials // count), hours)]
    return [Layout(count, count, 1, 1, _hours(work.flops, prof, search, count))
            for count in counts_for(prof, search)
            # single-GPU sizes have ≤ 25 Gbps and no EFA: one job sharded across them is network-bound
            if count == 1 or prof.spec.accelerator_count >= search.settings.multi_node_min_accelerators]


def _hours(flops: float, prof: Profile, search: Search, count: int) -> float:
    efficiency = scaling_efficiency(search.catalog.scaling, count * prof.spec.accelerator_count)
    hours = flops / (prof.flops_per_instance * count * efficiency) / 3600.0
    # --- calibration: the one place learnt corrections touch the estimate (hours of matching families) ---
    for family, factor in search.hours_factors:
        if family == prof.spec.family:
            return hours * factor
    return hours


def options_for(prof: Profile, search: Search) -> list[Option]:
    """Every (layout, purchase model, platform) of one type that no other of its kind beats on both cost and time.

    An option at least as costly and as slow as a smaller count of the same kind can never be the cheapest, the
    fastest or the cheapest in time, so it is dropped here to keep the choice fast. Which are dropped does not
    depend on the deadline's distance (only on cost and time), so the configurations are worked out once per kind of
    work and only ``meets`` is judged per request.
    """
    has_deadline = search.usable_hours is not None
    key = ("options", prof.price.instance_type, prof.price.region, prof.outside_class, search.work, search.stage,
           search.tolerance, has_deadline, search.platforms, search.max_instances, search.gpus, search.hours_factors)
    priced = remembered(search.catalog, search.settings, key, lambda: _priced_options(prof, search, has_deadline))
    usable = search.usable_hours
    # Fresh objects each time: a decision's options are its own, whatever a caller does with them.
    return [Option(o.profile, o.layout, o.purchase, o.platform, o.rate, o.compute_hours, o.wall_hours,
                   o.instance_hours, o.spot, o.start_hours, o.cost,
                   None if usable is None else o.start_hours + o.wall_hours <= usable, o.purchase_reason)
            for o in priced]


def _priced_options(prof: Profile, search: Search, has_deadline: bool) -> tuple[Option, ...]:
    """``options_for`` before ``meets`` is judged for the request at hand (the copies judge it)."""
    out: list[Option] = []
    rates: dict[tuple[PurchaseModel, Platform], Rate | None] = {}
    best: dict[tuple[PurchaseModel, Platform], Option] = {}
    for layout in layouts(prof, search):
        allowed, why, _ = purchase_models(stage=search.stage, tolerance=search.tolerance,
                                          has_deadline=has_deadline, instances=layout.job_instances)
        for purchase in allowed:
            for platform in search.platforms:
                if (purchase, platform) not in rates:
                    rates[purchase, platform] = _rate(prof, search, purchase, platform)
                rate = rates[purchase, platform]
                option = None if rate is None else _option(prof, search, layout, rate, purchase=purchase,
                                                           platform=platform, why=why)
                if option is None:
                    continue
                kept = best.get((purchase, platform))
                if kept is not None and option.cost >= kept.cost and option.wall_hours >= kept.wall_hours:
                    continue
                best[purchase, platform] = option
                out.append(option)
    return tuple(out)


def _rate(prof: Profile, search: Search, purchase: PurchaseModel, platform: Platform) -> Rate | None:
    if purchase is PurchaseModel.SPOT and platform is Platform.HYPERPOD:
        return None  # a standing HyperPod cluster is on-demand or reserved capacity
    # The same for every kind of work, and its basis is words formatted each time: worked out once per price.
    price, catalog = prof.price, search.catalog
    return remembered(catalog, search.settings, ("rate", price.instance_type, price.region, purchase, platform),
                      lambda: hourly_rate(price, purchase=purchase, platform=platform,
                                          premium=catalog.sagemaker_premium))


def _option(
    prof: Profile, search: Search, layout: Layout, rate: Rate, *, purchase: PurchaseModel, platform: Platform,
    start_hours: float = 0.0, why: str = "",
) -> Option | None:
    spot: SpotTime | None = None
    job_wall = layout.job_hours
    if purchase is PurchaseModel.SPOT:
        mtbi = search.catalog.mtbi_hours(prof.price.interruption_band)
        spot = spot_time(layout.job_hours, work=search.work, instances=layout.job_instances,
                         instance_mtbi_hours=mtbi, settings=search.settings)
        if spot is None:
            return None
        job_wall = spot.wall_hours
    wall = layout.rounds * job_wall
    meets = None if search.usable_hours is None else start_hours + wall <= search.usable_hours
    instance_hours = layout.job_instances * layout.jobs * job_wall
    # the cost the plan will state, so choosing and reporting can never disagree by a rounding
    cost = cents(layout.count * rate.usd * billed_hours(instance_hours / layout.count))
    return Option(prof, layout, purchase, platform, rate, layout.rounds * layout.job_hours, wall, instance_hours,
                  spot, start_hours, cost, meets, why)


def fixed_option(prof: Profile, search: Search, *, count: int, purchase: PurchaseModel,
                 platform: Platform) -> Option | None:
    """One named configuration run as a single synchronous job (the naive baseline)."""
    layout = Layout(count, count, 1, 1, _hours(search.work.flops, prof, search, count))
    rate = _rate(prof, search, purchase, platform)
    return None if rate is None else _option(prof, search, layout, rate, purchase=purchase, platform=platform,
                                             why="naive baseline")
