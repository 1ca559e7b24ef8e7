"""Every configuration a request could run on (docs/design.md §Candidates), each with its expected time and cost.

Types are screened once per request (allow-lists, hints, memory); configurations are then evaluated with plain
floats so a request costs well under a millisecond for a few hundred of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from policy import scaling
from policy.catalog import AcceleratorSpec, Catalog, InstanceSpec, RegionPrice, ScalingCurve, scaling_efficiency
from policy.config import EstimateSettings
from policy.decision import Platform, PurchaseModel
from policy.estimate import (
    GIB,
    MIN_BILLED_HOURS,
    SpotFactors,
    SpotTime,
    Workload,
    billed_hours,
    cents,
    min_accelerators,
    spot_factors,
)
from policy.memo import recent_work, remembered
from policy.pricing import Rate, hourly_rate
from policy.purchase import purchase_models
from policy.request import Stage, Tolerance
from policy.timespan import HOURS_PER_MONTH

__all__ = [
    "counts_for",
    "FALLBACK_INTER_NODE_GBPS",
    "FALLBACK_INTRA_NODE_GBYTEPS",
    "Fit",
    "fits",
    "fixed_option",
    "HOURS_PER_MONTH",
    "instance_mtbi_hours",
    "job_efficiency",
    "Layout",
    "layouts",
    "mfu_for",
    "Option",
    "options_for",
    "profile",
    "Profile",
    "profile_of",
    "REPLICA_MEMORY_SHARE",
    "screened_options",
    "Search",
    "undominated",
]


# Not frozen: a new model makes one for every type priced in every region searched, and a frozen __init__ is several
# times slower. Never changed once made, and hashed by value as a frozen one is.
@dataclass(slots=True, unsafe_hash=True)
class Profile:
    """One priced instance type in the request's region."""

    price: RegionPrice
    spec: InstanceSpec
    accel: AcceleratorSpec
    flops_per_instance: float  # accelerators × peak × MFU, FLOP/s
    min_count: int  # fewest instances whose memory holds the job
    outside_class: bool  # allowed only as a fall-back outside the size class
    context_parallel: int = 1  # accelerators of an instance each sequence is split across (``Fit``)


@dataclass(frozen=True, slots=True)
class Search:
    """What every configuration of one request shares."""

    catalog: Catalog
    work: Workload
    stage: Stage
    tolerance: Tolerance
    usable_hours: float | None  # hours from now to the deadline less the safety margin; None: no deadline
    platforms: tuple[Platform, ...]
    max_instances: int  # the policy's, or the request's ceiling when lower
    settings: EstimateSettings
    gpus: int | None = None
    instances: int | None = None  # an exact instance count the request named ("on 4 nodes")
    max_gpus: int | None = None  # the request's ceiling on accelerators, summed over instances ("at most 16 GPUs")
    min_gpus: int | None = None  # the request's floor on accelerators ("at least 8 GPUs")
    min_instances: int | None = None  # and on instances ("2 nodes or more")
    # Learnt corrections of estimated hours per instance family, (family, factor) (policy.calibration).
    hours_factors: tuple[tuple[str, float], ...] = ()
    multi_node_spot: bool = False  # the team opted in, or the request said spot is fine
    runs_at_once: int | None = None  # of several runs, the most at a time ("back to back": 1); None: any
    # Spot interruptions per instance-month by (region, family), e.g. from spot placement scores; a pair without
    # a figure uses the catalog's interruption band, else its stated default.
    interruption_rates: tuple[tuple[tuple[str, str], float], ...] = ()
    data_region: str | None = None  # where the team's data lives; None: not said
    transfer_usd: float = 0.0  # moving the dataset out of ``data_region`` once


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
    transfer_usd: float = 0.0  # moving the dataset out of its data region, included in ``cost``
    stated: bool = False  # its hours are the request's stated length, not an estimate (``policy.fixed``)

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
    return profile_of(price, fits(catalog=catalog, work=work, settings=settings), outside=outside)


def profile_of(price: RegionPrice, table: dict[str, Fit | str], *, outside: bool) -> Profile | str:
    """The type's profile from a table of ``fits``, or why it cannot run the job."""
    fit = table.get(price.instance_type, "not in the catalog's instance list")
    if isinstance(fit, str):
        return fit
    return Profile(price, fit.spec, fit.accel, fit.flops_per_instance, fit.min_count, outside, fit.context_parallel)


@dataclass(slots=True, unsafe_hash=True)  # not frozen, for speed, as ``Profile``
class Fit:
    """What one instance type brings to a piece of work, in whatever region it is priced."""

    spec: InstanceSpec
    accel: AcceleratorSpec
    flops_per_instance: float  # accelerators × peak × MFU, FLOP/s
    min_count: int  # fewest instances whose memory holds the job
    # A sequence whose activations one accelerator cannot hold is split across this many of an instance's (context
    # parallelism, over the instance's own links); 1: each accelerator holds its sequences whole
    context_parallel: int = 1


def fits(*, catalog: Catalog, work: Workload, settings: EstimateSettings) -> dict[str, Fit | str]:
    """Every catalog type's fit for the work, or why it cannot run it, by type. Regions change only the prices, so
    a search over four regions works each type out once; and only the work's memory and width matter, so it is
    remembered for every run of the same model."""
    return remembered(catalog, settings, ("fits", work.sizing), lambda: {
        name: _fit(spec, catalog=catalog, work=work, settings=settings) for name, spec in catalog.instances.items()})


def _fit(spec: InstanceSpec, *, catalog: Catalog, work: Workload, settings: EstimateSettings) -> Fit | str:
    accel = catalog.accelerators[spec.accelerator]
    memory = spec.accelerator_memory_gib or accel.memory_gib
    if accel.peak_bf16_tflops is None or accel.mfu is None or memory is None:
        return f"{accel.name}: no published peak FLOP/s, MFU or memory figure"
    needed = min_accelerators(work, memory_gib=memory, headroom=settings.memory_headroom)
    split = 1
    if needed is None and work.measured:  # work given as accelerator-hours: one of these holds less than one of those
        return f"memory: one {memory:g} GiB {accel.name} holds less than one {work.measured_on} of the work said"
    while needed is None and split * 2 <= spec.accelerator_count:
        # a long sequence whose activations one accelerator cannot hold: split it across 2, 4, … of the instance's
        # own (context parallelism), never across instances
        split *= 2
        needed = min_accelerators(work, memory_gib=memory, headroom=settings.memory_headroom, context_parallel=split)
    if needed is None:
        across = f", even split across its {spec.accelerator_count}" if spec.accelerator_count > 1 else ""
        return f"activations alone exceed one {memory:g} GiB {accel.name}{across}"
    flops = spec.accelerator_count * accel.peak_bf16_tflops * 1e12 * mfu_for(accel, work)
    return Fit(spec, accel, flops, math.ceil(needed / spec.accelerator_count), split)


def mfu_for(accel: AcceleratorSpec, work: Workload) -> float:
    """The accelerator's MFU, lower for a model too narrow to fill it: × √(width / full width), at most 1."""
    assert accel.mfu is not None
    full = accel.mfu_full_width
    if full is None or work.width <= 0 or work.width >= full:
        return accel.mfu
    return accel.mfu * math.sqrt(work.width / full)


def _held_trials(prof: Profile, search: Search, scales: _Scaling) -> tuple[_Speed, ...]:
    """Sweep layouts for a model one instance cannot hold: each trial a synchronous job of the fewest instances that
    hold it, or 2×, 4×, …, as many trials at a time as the instances allowed (or the exact count asked for) hold.
    None on single-accelerator sizes, which cannot shard one job across instances."""
    if not _shards_across_instances(prof, search):
        return ()
    trials = search.work.trials
    exact = _side_by_side(prof, search) if search.gpus or search.instances is not None else None
    most = exact if exact is not None else _most_instances(prof, search)
    widths, width = [prof.min_count], 1
    while width <= most:
        if width > prof.min_count:
            widths.append(width)
        width *= 2
    if exact is not None and exact % trials == 0 and exact // trials >= prof.min_count:
        widths.append(exact // trials)  # "4 trials on 12 instances": 3 each, no power of two
    layouts = []
    for width in sorted(set(widths)):
        at_once = min(trials, most // width, search.runs_at_once or trials)
        if at_once < 1:
            continue
        # the instances that run trials: an exact count no layout fills leaves the rest out, and says so (tree)
        layouts.append(_speed(prof, scales, count=width * at_once, job_instances=width, jobs=trials,
                              rounds=-(-trials // at_once)))
    filled = tuple(s for s in layouts if s.count == exact)
    return filled or tuple(layouts)


def _shards_across_instances(prof: Profile, search: Search) -> bool:
    """Whether one job may span several instances of the type: single-accelerator sizes have ≤ 25 Gbps and no EFA,
    so a job sharded across them is network-bound."""
    return prof.spec.accelerator_count >= search.settings.multi_node_min_accelerators


def _wide_trials(prof: Profile, search: Search, scales: _Scaling) -> tuple[_Speed, ...]:
    """Sweep layouts with each trial a synchronous job of 2, 4, … instances, as many trials at a time as the most
    instances allowed hold: slower per instance than one instance a trial, so they are chosen only for a deadline.
    None when the request gives an exact count (its trials run one an instance) or the type's single-accelerator
    sizes cannot shard one job across instances."""
    if search.gpus is not None or search.instances is not None or not _shards_across_instances(prof, search):
        return ()
    trials, most = search.work.trials, _most_instances(prof, search)
    layouts, width = [], 2
    while width <= most:
        at_once = min(trials, most // width, search.runs_at_once or trials)
        layouts.append(_speed(prof, scales, count=width * at_once, job_instances=width, jobs=trials,
                              rounds=-(-trials // at_once)))
        width *= 2
    return tuple(layouts)


def counts_for(prof: Profile, search: Search) -> list[int]:
    """Instance counts to try: 1, 2, 4, … up to the most allowed, from the fewest that hold the job and meet the
    request's floor (the request's floor itself too when it is no power of two); only the count an exact number of
    accelerators or instances gives. A ceiling or a floor leaves out what is past it and nothing else, so a plan
    within it is the plan without it."""
    most, fewest = _most_instances(prof, search), _fewest_instances(prof, search)
    if search.gpus is not None or search.instances is not None:
        count, rest = search.instances or 0, 0
        if search.gpus is not None:
            count, rest = divmod(search.gpus, prof.spec.accelerator_count)
        ok = rest == 0 and max(prof.min_count, fewest) <= count <= most and search.instances in (None, count)
        return [count] if ok else []
    least = max(prof.min_count, fewest)
    counts, n = [], 1
    while n <= most:
        if n >= least:
            counts.append(n)
        n *= 2
    if fewest > prof.min_count and fewest <= most and fewest not in counts:  # "at least 3 nodes": 3 too
        counts.insert(0, fewest)
    return counts


def _fewest_instances(prof: Profile, search: Search) -> int:
    """The fewest instances of the type a configuration may have: the request's floors on instances and on
    accelerators (1 without them)."""
    by_gpus = -(-search.min_gpus // prof.spec.accelerator_count) if search.min_gpus is not None else 1
    return max(1, search.min_instances or 1, by_gpus)


def _most_instances(prof: Profile, search: Search) -> int:
    """The most instances of the type a configuration may have: ``max_instances``, and no more accelerators than
    the request's ceiling on them."""
    if search.max_gpus is None:
        return search.max_instances
    return min(search.max_instances, search.max_gpus // prof.spec.accelerator_count)


def _side_by_side(prof: Profile, search: Search) -> int:
    """Instances running independent trials at once: the exact number the request gives, else one per trial up to
    the most allowed and the most runs at a time said."""
    if search.gpus:
        return search.gpus // prof.spec.accelerator_count
    if search.instances is not None:
        return search.instances
    return min(search.work.trials, _most_instances(prof, search), search.runs_at_once or search.work.trials)


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
    flops = search.work.flops
    return [Layout(s.count, s.job_instances, s.jobs, s.rounds, _job_hours(flops, s, prof, search))
            for s in _speeds(prof, search)]


@dataclass(slots=True)  # made per layout of every type of a new model: not frozen, for speed; never changed
class _Speed:
    """One layout of a type before the length of the run is known: how the work spreads and how fast one job of it
    computes. Neither depends on the work's FLOPs, so every run of the same model on the type shares it, and a
    request only scales it by its own FLOPs."""

    count: int
    job_instances: int
    jobs: int
    rounds: int
    job_flop_rate: float  # FLOP/s of one job: its instances' FLOP/s × their parallel efficiency


_Sizing = tuple[_Speed, SpotFactors | None]  # a layout and what spot does to it (None: unworkable on spot)


class _Shared:
    """What every type's options in one search share, worked out once per search instead of once per type: the
    work's FLOPs, the deadline, the start-up hours, the purchase models for one instance and for several, the
    calibration's factors, and the search's own shelves of the memo for layouts and rates, so that a type
    looks its layouts and rates up by a short key of its own."""

    __slots__ = ("allowed", "factors", "flops", "layouts", "rates", "startup", "usable")

    def __init__(self, search: Search) -> None:
        work, catalog, settings = search.work, search.catalog, search.settings
        self.flops, self.usable = work.flops, search.usable_hours
        self.startup = settings.startup_minutes / 60.0  # every job starts before it trains, and is billed for it
        # purchase_models tells one instance from several, nothing finer
        self.allowed = tuple(purchase_models(stage=search.stage, tolerance=search.tolerance,
                                             has_deadline=self.usable is not None, instances=n,
                                             multi_node_spot=search.multi_node_spot) for n in (1, 2))
        self.factors: dict[str, float] = {}
        for family, factor in search.hours_factors:
            self.factors.setdefault(family, factor)  # the first for a family applies, as in ``_calibrated``
        # The layouts with their spot factors hold for every search of the same work, counts and ceilings; the
        # rates for every search on the same platforms.
        self.layouts: dict[tuple[str, float, int, float], tuple[_Sizing, ...]] = remembered(
            catalog, settings, ("spotted", work.sharded_bytes, work.batch_tokens, work.checkpoint_bytes, work.trials,
                                work.parallel_trials, search.gpus, search.max_instances, search.instances,
                                search.max_gpus, search.min_gpus, search.min_instances, search.runs_at_once), dict)
        self.rates: dict[tuple[str, str], _Priced] = remembered(catalog, settings, ("priced", search.platforms), dict)


def _sizings(prof: Profile, search: Search, shared: _Shared) -> tuple[tuple[_Sizing, ...], _Priced]:
    """The type's layouts with what spot does to each, and its rates in its region on the search's platforms.

    Each part is remembered as widely as it holds: the layouts with their spot factors once per model size, type and
    spot interruption rate (regions and teams with the same rate share them), the rates once per type, region and
    set of platforms. A new team or region then prices known layouts, and a new model works its layouts out once
    for all regions alike.
    """
    price = prof.price
    mtbi = instance_mtbi_hours(prof, search)
    key = (price.instance_type, prof.flops_per_instance, prof.min_count, mtbi)
    sizings = shared.layouts.get(key)
    if sizings is None:
        sizings = shared.layouts[key] = tuple(
            (speed, _spot_factors(search, speed.job_instances, mtbi)) for speed in _speeds(prof, search))
    place = (price.instance_type, price.region)
    priced = shared.rates.get(place)
    if priced is None:
        priced = shared.rates[place] = _work_out_priced(prof, search)
    return sizings, priced


def _speeds(prof: Profile, search: Search) -> tuple[_Speed, ...]:
    """The type's layouts and their speed, the same in every region.

    The key holds every figure they are made of (``_work_out_speeds``, ``_Scaling``) and nothing else: not the
    type's name, so the sizes of one machine with the same accelerators and links share them, and not the model's
    memory as such, only the replica group it takes on the type, so a new model whose memory splits alike (a LoRA
    and a QLoRA of one size, or any model one accelerator holds) prices layouts already worked out. Only a job
    across instances reads the links between them, the replica group and the batch."""
    work, spec = search.work, prof.spec
    key: tuple[object, ...] = (
        "speeds", spec.accelerator_count, spec.intra_node_gbyteps, prof.flops_per_instance, prof.min_count,
        work.trials, work.parallel_trials, search.gpus, search.max_instances, search.instances, search.max_gpus,
        search.min_gpus, search.min_instances, search.runs_at_once)
    if _shards_across_instances(prof, search):
        key += (spec.inter_node_gbps or spec.network_gbps, _replica(prof, work), work.batch_tokens)
    return remembered(search.catalog, search.settings, key, lambda: _work_out_speeds(prof, search))


def _work_out_speeds(prof: Profile, search: Search) -> tuple[_Speed, ...]:
    work = search.work
    if work.trials > 1 and work.parallel_trials and prof.min_count > 1:
        # each trial a job of its own, as the launch runs a sweep: never all trials in one job, which the launch
        # would run once (and whose single start-up made a larger model's sweep look cheaper than a smaller one's)
        fewest = _fewest_instances(prof, search)
        return tuple(s for s in _held_trials(prof, search, _Scaling(prof, work, search.catalog)) if s.count >= fewest)
    if work.trials > 1 and work.parallel_trials and prof.min_count == 1:
        # Independent trials cost the same however many run at once, so run as many side by side as allowed; a
        # deadline one instance per trial cannot meet may need each trial spread over several (``_wide_trials``).
        scales = _Scaling(prof, work, search.catalog)
        count = _side_by_side(prof, search)
        at_once = min(work.trials, search.runs_at_once or work.trials)
        if count > at_once:  # an exact count past one a trial: each trial spread over its share
            width = count // at_once if _shards_across_instances(prof, search) else 1
            side_by_side: tuple[_Speed, ...] = (
                _speed(prof, scales, count=width * at_once, job_instances=width, jobs=work.trials,
                       rounds=-(-work.trials // at_once)),)
        else:
            side_by_side = () if count < 1 else (_speed(prof, scales, count=count, job_instances=1, jobs=work.trials,
                                                        rounds=-(-work.trials // count)),)
        fewest = _fewest_instances(prof, search)  # a floor counts every instance of the sweep
        return tuple(s for s in side_by_side + _wide_trials(prof, search, scales) if s.count >= fewest)
    # one job of each count (``_speed`` written out, as it runs for every count of every type of a new model)
    efficiency, flops = _Scaling(prof, work, search.catalog).efficiency, prof.flops_per_instance
    shards = _shards_across_instances(prof, search)
    return tuple(_Speed(count, count, 1, 1, flops * count * efficiency(count))
                 for count in counts_for(prof, search) if count == 1 or shards)


def _speed(prof: Profile, scales: _Scaling, *, count: int, job_instances: int, jobs: int, rounds: int) -> _Speed:
    efficiency = scales.efficiency(job_instances)
    return _Speed(count, job_instances, jobs, rounds, prof.flops_per_instance * job_instances * efficiency)


def _spot_factors(search: Search, instances: int, mtbi: float) -> SpotFactors | None:
    """``spot_factors`` of the search's work, remembered: every type with this interruption rate shares them."""
    work, settings = search.work, search.settings
    return remembered(search.catalog, settings, ("spot", work.checkpoint_bytes, instances, mtbi),
                      lambda: spot_factors(work=work, instances=instances, instance_mtbi_hours=mtbi, settings=settings))


def _job_hours(flops: float, speed: _Speed, prof: Profile, search: Search) -> float:
    """Uninterrupted hours of one job of the layout: its share of the work's FLOPs at the job's FLOP/s."""
    return _calibrated(flops / speed.jobs / speed.job_flop_rate / 3600.0, prof, search)


def _hours(flops: float, prof: Profile, search: Search, count: int) -> float:
    efficiency = job_efficiency(prof, search.work, search.catalog, count)
    return _calibrated(flops / (prof.flops_per_instance * count * efficiency) / 3600.0, prof, search)


def _calibrated(hours: float, prof: Profile, search: Search) -> float:
    """The calibration: the one place learnt corrections touch the estimate (hours of matching families)."""
    for family, factor in search.hours_factors:
        if family == prof.spec.family:
            return hours * factor
    return hours


# A model is split over as many accelerators as its weights and optimizer state need at this share of their memory,
# as tensor/pipeline-parallel layouts do (Narayanan et al. 2021, §3); a model that fits one trains data-parallel.
REPLICA_MEMORY_SHARE = 0.9


def _replica(prof: Profile, work: Workload) -> float:
    """Accelerators of the type one copy of the model is split over (tensor and pipeline parallel), at least 1:
    continuous, not rounded to a power of two, as a step would make a slightly bigger model scale better and cost
    less."""
    memory = (prof.spec.accelerator_memory_gib or prof.accel.memory_gib or 1.0) * GIB * REPLICA_MEMORY_SHARE
    return max(1.0, work.sharded_bytes / memory)


def job_efficiency(prof: Profile, work: Workload, catalog: Catalog, count: int) -> float:
    """Parallel efficiency of one synchronous job on ``count`` instances of this type (policy.scaling)."""
    return _Scaling(prof, work, catalog).efficiency(count)


class _Scaling:
    """How one type scales one piece of work: what does not depend on the instance count is worked out once, so a
    type's layouts (1, 2, 4, … instances) share it."""

    __slots__ = ("_accelerators_per_instance", "_alpha", "_base", "_batch_ratio", "_beta", "_ceiling", "_curve",
                 "_inter_bandwidth", "_node", "_referenced", "_replica", "_throughput")

    def __init__(self, prof: Profile, work: Workload, catalog: Catalog) -> None:
        curve, spec = catalog.scaling, prof.spec
        self._curve = curve
        self._base, self._alpha, self._beta, self._ceiling = (curve.base_accelerators, curve.alpha, curve.beta,
                                                              curve.extrapolate_to)
        self._accelerators_per_instance = spec.accelerator_count
        ref_batch, ref_tflops = curve.reference_batch_tokens, curve.reference_tflops
        self._referenced = ref_batch is not None and ref_tflops is not None
        if ref_batch is None or ref_tflops is None:
            return
        self._throughput = prof.flops_per_instance / spec.accelerator_count / 1e12 / ref_tflops
        # Within one instance the exchange runs over NVLink/NeuronLink/PCIe and overlaps the compute; what the
        # table's 4→8 GPU step loses there follows the link and the accelerator's speed, not the batch.
        self._node = scaling.equivalent_accelerators(spec.accelerator_count, replica=1, batch_ratio=1.0,
                                                     throughput_ratio=self._throughput,
                                                     bandwidth_ratio=_bandwidth_ratio(spec, curve, multi_node=False))
        self._replica = _replica(prof, work)
        self._batch_ratio = ref_batch / work.batch_tokens
        self._inter_bandwidth = _bandwidth_ratio(spec, curve, multi_node=True)

    def efficiency(self, count: int) -> float:
        """Parallel efficiency of one synchronous job on ``count`` instances.

        ``scaling.equivalent_accelerators`` and ``scaling_efficiency`` written out with the same operations in the
        same order, so the figure is theirs to the bit: a new model works this out for every layout of every type,
        and their calls cost more than their arithmetic."""
        accelerators = count * self._accelerators_per_instance
        if accelerators == 1:
            return 1.0  # one accelerator exchanges nothing: no link's speed slows it (a p5.4xlarge was ~0.47)
        if not self._referenced:
            return scaling_efficiency(self._curve, accelerators)
        if count == 1:
            return self._on_curve(max(1.0, self._node * accelerators / self._accelerators_per_instance))
        equivalent = max(1.0, accelerators / self._replica) * self._batch_ratio * self._throughput * \
            self._inter_bandwidth
        # More instances never scale better than one full instance does: the links inside each are still used.
        return self._on_curve(max(1.0, equivalent, self._node))

    def _on_curve(self, accelerators: float) -> float:
        """``scaling_efficiency`` of the catalog's curve, for a count already at least 1."""
        if self._ceiling is not None:
            accelerators = min(accelerators, self._ceiling)
        if accelerators <= self._base:
            return 1.0
        x = math.log2(accelerators / self._base)
        penalty: float = self._alpha * x**self._beta
        return 1.0 / (1.0 + penalty)


# Without a published interconnect figure: a PCIe 4.0 x16 link between accelerators, 25 Gbps between instances.
FALLBACK_INTRA_NODE_GBYTEPS = 32.0
FALLBACK_INTER_NODE_GBPS = 25.0


def _bandwidth_ratio(spec: InstanceSpec, curve: ScalingCurve, *, multi_node: bool) -> float:
    """Reference bandwidth over this type's, across instances for a multi-node job, within one otherwise."""
    if multi_node:
        gbps = spec.inter_node_gbps or spec.network_gbps or FALLBACK_INTER_NODE_GBPS
        ref = curve.reference_inter_node_gbps_per_accelerator
        return 1.0 if ref is None else ref / (gbps / spec.accelerator_count)
    ref = curve.reference_intra_node_gbyteps
    return 1.0 if ref is None else ref / (spec.intra_node_gbyteps or FALLBACK_INTRA_NODE_GBYTEPS)


def options_for(prof: Profile, search: Search) -> list[Option]:
    """Every (layout, purchase model, platform) of one type that no other of its kind beats on both cost and time.

    An option at least as costly and as slow as a smaller count of the same kind can never be the cheapest, the
    fastest or the cheapest in time, so it is dropped here to keep the choice fast. What does not depend on the
    length of the run (layouts, their speed, what spot does to them, the rates) is worked out once per model and
    type; a request only scales it by its FLOPs and prices it. A layout on one purchase model runs as long on every
    platform, so its time is worked out once and only the rate differs. The arithmetic is that of ``_job_hours``,
    ``_run_time`` and ``_cost`` written out in the same order, so the figures are the ones they give, to the bit.
    """
    return _options(prof, search, _Shared(search))


def _options(prof: Profile, search: Search, shared: _Shared) -> list[Option]:
    """``options_for`` with what the search's types share already worked out."""
    flops, usable, startup = shared.flops, shared.usable, shared.startup
    sizings, priced = _sizings(prof, search, shared)
    transfer = _transfer_usd(prof, search)
    factor = shared.factors.get(prof.spec.family)
    out: list[Option] = []
    best: list[Option | None] = [None] * _SLOTS
    for speed, spot in sizings:
        job_hours = flops / speed.jobs / speed.job_flop_rate / 3600.0
        if factor is not None:
            job_hours *= factor
        count, rounds, job_instances = speed.count, speed.rounds, speed.job_instances
        purchases, why, _ = shared.allowed[job_instances > 1]
        instances = job_instances * speed.jobs
        layout: Layout | None = None
        for purchase in purchases:
            spot_time: SpotTime | None = None
            if purchase is PurchaseModel.SPOT:
                if spot is None:
                    continue  # interruptions would dominate the run
                job_wall = job_hours * spot.write_stretch / spot.kept_share  # SpotFactors.time
            else:
                job_wall = job_hours
            job_wall += startup
            instance_hours = instances * job_wall
            wall = rounds * job_wall
            billed = round(instance_hours / count, 3)  # billed_hours
            if billed < MIN_BILLED_HOURS:
                billed = MIN_BILLED_HOURS
            meets = None if usable is None else wall <= usable
            for slot, platform, rate in priced[purchase]:
                cost = round(count * rate.usd * billed, 2)  # cents(cents(…) + transfer), all ≥ 0
                if transfer:
                    cost = round(cost + transfer, 2)  # cents of a figure already in cents is itself
                kept = best[slot]
                if kept is not None and cost >= kept.cost and wall >= kept.wall_hours:
                    continue
                if layout is None:
                    layout = Layout(count, job_instances, speed.jobs, rounds, job_hours)
                if spot_time is None and purchase is PurchaseModel.SPOT:
                    assert spot is not None
                    spot_time = spot.time(job_hours)
                option = Option(prof, layout, purchase, platform, rate, rounds * job_hours, wall, instance_hours,
                                spot_time, 0.0, cost, meets, why, transfer)
                best[slot] = option
                out.append(option)
    return out


# What ``screened_options`` keeps of a decision: the profiles it was made from, and its options inside and outside the
# size class (None while the work has been seen once only).
_Kept = tuple[tuple[tuple[Profile, ...], tuple[Profile, ...]], tuple["Option", ...] | None, tuple["Option", ...] | None]


def screened_options(
    inside: list[Profile], outside: list[Profile], search: Search,
) -> tuple[list[Option], list[Option]]:
    """The options of the screened types inside the size class and outside it, less the types others beat
    outright (``undominated``, ``options_for``).

    A decision soon after with the same work and search, whatever its deadline, remakes them from those the first
    worked out (``policy.memo.recent_work``) and only judges again which meet its deadline: the deadline decides
    nothing else in them but, by whether there is one, the purchase models (``purchase_models``), which the key holds.
    An option is never changed once made (``policy.fixed`` makes new ones), so decisions share those whose
    judgement stands, and what one decision does with its options cannot reach the next.
    """
    usable = search.usable_hours
    # The screened profiles are the catalog memo's own objects (``policy.screen``), so they are named by identity:
    # each entry holds the profiles it was made from, so no other object can take their ids while it is kept.
    screened = (tuple(inside), tuple(outside))
    key = (tuple(map(id, screened[0])), tuple(map(id, screened[1])), search.work, search.platforms, search.stage,
           search.tolerance, usable is not None, search.max_instances, search.gpus, search.instances,
           search.max_gpus, search.min_gpus, search.min_instances, search.hours_factors, search.multi_node_spot,
           search.interruption_rates, search.data_region, search.transfer_usd, search.runs_at_once)
    recent = recent_work(search.catalog, search.settings)
    kept: _Kept | None = recent.get(key)
    if kept is not None and kept[1] is not None:
        assert kept[2] is not None
        return _remade(kept[1], usable), _remade(kept[2], usable)
    shared = _Shared(search)
    found = ([o for p in undominated(inside, search) for o in _options(p, search, shared)],
             [o for p in undominated(outside, search) for o in _options(p, search, shared)])
    # Work seen once is only noted: kept options outlive the decision, which costs the garbage collector more than
    # a decision of new work can save, so they are kept from its second decision on.
    recent.keep(key, (screened, tuple(found[0]), tuple(found[1])) if kept is not None else (screened, None, None))
    return found


def _remade(kept: tuple[Option, ...], usable: float | None) -> list[Option]:
    """``kept`` judged against this deadline: an option whose judgement stands is shared (options are never changed,
    so sharing one is as safe as copying it), the others are copied with the new one. Without a deadline every kept
    option was made without one too (the key says whether there is one), so all are shared."""
    if usable is None:
        return list(kept)
    out = []
    for o in kept:
        meets = o.wall_hours <= usable
        out.append(o if o.meets is meets else Option(
            o.profile, o.layout, o.purchase, o.platform, o.rate, o.compute_hours, o.wall_hours, o.instance_hours,
            o.spot, o.start_hours, o.cost, meets, o.purchase_reason, o.transfer_usd))
    return out


# (slot, platform, rate) of each platform the type is priced on, by purchase model: a slot numbers each (purchase
# model, platform) pair, so the options kept per pair are a list, not a dict
_Priced = dict[PurchaseModel, tuple[tuple[int, Platform, Rate], ...]]


def _work_out_priced(prof: Profile, search: Search) -> _Priced:
    rates = _rates(prof, search)
    return {purchase: tuple((_PURCHASES.index(purchase) * len(_PLATFORMS) + _PLATFORMS.index(platform), platform,
                             rate)
                            for platform in search.platforms if (rate := rates[purchase, platform]) is not None)
            for purchase in _PURCHASES}


_Rates = dict[tuple[PurchaseModel, Platform], Rate | None]


def _rates(prof: Profile, search: Search) -> _Rates:
    """The type's rates in its region, by purchase model and platform of the search. The same for every kind of
    work, and each basis is words formatted each time: worked out once per price and set of platforms."""
    price, catalog = prof.price, search.catalog
    return remembered(catalog, search.settings, ("rates", price.instance_type, price.region, search.platforms),
                      lambda: {(purchase, platform): _hourly_rate(price, catalog, purchase, platform)
                               for purchase in _PURCHASES for platform in search.platforms})


def _hourly_rate(price: RegionPrice, catalog: Catalog, purchase: PurchaseModel, platform: Platform) -> Rate | None:
    if purchase is PurchaseModel.SPOT and platform is Platform.HYPERPOD:
        return None  # a standing HyperPod cluster is on-demand or reserved capacity
    return hourly_rate(price, purchase=purchase, platform=platform, premium=catalog.sagemaker_premium)


def _rate(prof: Profile, search: Search, purchase: PurchaseModel, platform: Platform) -> Rate | None:
    """One rate, also on a platform the search does not use (the naive baseline's)."""
    price, catalog = prof.price, search.catalog
    return remembered(catalog, search.settings, ("rate", price.instance_type, price.region, purchase, platform),
                      lambda: _hourly_rate(price, catalog, purchase, platform))


_RunTime = tuple[SpotTime | None, float, float, float]  # spot time, wall hours, instance-hours, billed hours


def _run_time(layout: Layout, spot: SpotFactors | None, startup_hours: float) -> _RunTime:
    """How long the layout runs and bills on one purchase model, whatever the platform's rate: the spot time (None
    off spot), wall hours, instance-hours summed over instances and jobs, and hours billed per instance."""
    spot_time: SpotTime | None = None
    job_wall = layout.job_hours
    if spot is not None:
        spot_time = spot.time(layout.job_hours)
        job_wall = spot_time.wall_hours
    job_wall += startup_hours
    instance_hours = layout.job_instances * layout.jobs * job_wall
    return spot_time, layout.rounds * job_wall, instance_hours, billed_hours(instance_hours / layout.count)


def _cost(layout: Layout, rate: Rate, billed: float, transfer: float) -> float:
    """The cost the plan will state, so choosing and reporting can never disagree by a rounding."""
    return cents(cents(layout.count * rate.usd * billed) + transfer)


def _transfer_usd(prof: Profile, search: Search) -> float:
    """Moving the dataset to the type's region: paid only away from its data region (the request's, else the
    team's)."""
    moved = search.data_region is not None and prof.price.region != search.data_region
    return search.transfer_usd if moved else 0.0


_PURCHASES = (PurchaseModel.SPOT, PurchaseModel.ON_DEMAND, PurchaseModel.CAPACITY_BLOCK)
_PLATFORMS = tuple(Platform)
_SLOTS = len(_PURCHASES) * len(_PLATFORMS)


_Signature = tuple[tuple[float | None, ...], float, bool]  # rates, MTBI hours, pays the transfer line


def undominated(profiles: list[Profile], search: Search) -> list[Profile]:
    """The profiles less those another profile beats outright, before any configuration is priced.

    Profiles of the same accelerator, count, throughput and fewest instances (the same type in another region, or a
    bigger size of the same machine with more CPUs) compete on price alone: one is dropped when another offers every
    rate no higher (each purchase model on each platform, none missing), links no slower, interruptions no more
    frequent, no more data to move and no worse a place in the size class, and either is strictly cheaper at every
    rate or wins the tie-break anyway (a smaller type name; the same type in an earlier region). Every configuration
    of the one dropped takes as long and costs at least as much, so none can be the plan or an alternative.
    """
    # The answer depends only on which types are where, their place in the size class, which of them are rivals (each
    # named by the position of the first of its group, so models that split the types alike share it), and the
    # search's platforms and prices: the same screened types of the next request reuse it.
    first: dict[tuple[str, int, float, int], int] = {}
    placed = tuple((p.price.instance_type, p.price.region, p.outside_class, first.setdefault(_rivalry(p), i))
                   for i, p in enumerate(profiles))
    key = ("undominated", placed, search.platforms, _moving(search), search.interruption_rates)
    kept = remembered(search.catalog, search.settings, key, lambda: tuple(_undominated(profiles, search)))
    return [profiles[i] for i in kept]


def _moving(search: Search) -> tuple[str | None, bool]:
    """Where moving the dataset costs something: away from its data region, when it has one and there is
    data to move. The amount only matters to the choice, not to which types beat others (``_pays_transfer``), so
    requests of different lengths share what is worked out from it."""
    return search.data_region, search.data_region is not None and search.transfer_usd > 0


def _undominated(profiles: list[Profile], search: Search) -> list[int]:
    """The positions in ``profiles`` of those ``undominated`` keeps."""
    groups: dict[tuple[str, int, float, int], list[int]] = {}
    for i, prof in enumerate(profiles):
        groups.setdefault(_rivalry(prof), []).append(i)
    # only profiles with a rival are compared, each on figures worked out once per type and region
    contested = [i for group in groups.values() if len(group) > 1 for i in group]
    rivals = {i: _rival(profiles[i], search) for i in contested}
    kept = []
    for i, prof in enumerate(profiles):
        group = groups[_rivalry(prof)]
        if len(group) > 1 and _outranked(i, group, rivals):
            continue
        kept.append(i)
    return kept


def _rivalry(prof: Profile) -> tuple[str, int, float, int]:
    """Profiles that compete on price alone: the same accelerator, count, throughput and fewest instances."""
    return prof.spec.accelerator, prof.spec.accelerator_count, prof.flops_per_instance, prof.min_count


_Standing = tuple["_Signature", tuple[float, ...]]  # prices and reliability; bandwidth ratios (lower: faster links)


def _standing(prof: Profile, search: Search) -> _Standing:
    """What a profile is compared with its rivals on, the same for every kind of work: worked out once per type,
    region and the search's platforms, data region and interruption rates."""
    key = ("standing", prof.price.instance_type, prof.price.region, search.platforms, _moving(search),
           search.interruption_rates)
    return remembered(search.catalog, search.settings, key, lambda: (_signature(prof, search), _links(prof, search)))


# What a contested profile is compared with its rivals on: its type, whether it is outside the size class, and its
# standing (``_standing``).
_Rival = tuple[str, bool, "_Standing"]


def _rival(prof: Profile, search: Search) -> _Rival:
    return prof.price.instance_type, prof.outside_class, _standing(prof, search)


def _outranked(i: int, group: list[int], rivals: dict[int, _Rival]) -> bool:
    """Whether another profile of ``group`` beats profile ``i`` outright: links no slower, no worse a place in the
    size class, no more frequent interruptions, no more data to move, and ``_no_dearer`` at every rate ``i`` has,
    strictly unless it comes first among equals (``by_cost`` orders by type name, then list order). Written out as
    plain loops, not generators: a new model searched in every region compares hundreds of pairs."""
    type_b, outside_b, ((rates_b, mtbi_b, moved_b), links_b) = rivals[i]
    for j in group:
        if j == i:
            continue
        type_a, outside_a, ((rates_a, mtbi_a, moved_a), links_a) = rivals[j]
        if outside_a > outside_b or mtbi_a < mtbi_b or moved_a > moved_b:
            continue
        first = type_a < type_b if type_a != type_b else j < i
        # a later region must be strictly cheaper at every rate: on a tie the earlier region's configuration is chosen;
        # the rates first, as they rule out most rivals
        if _no_dearer(rates_a, rates_b, strictly=not first) and _no_slower(links_a, links_b):
            return True
    return False


def _no_slower(links_a: tuple[float, ...], links_b: tuple[float, ...]) -> bool:
    """Whether every bandwidth ratio of ``a`` is no higher than ``b``'s (rivals have as many)."""
    for x, y in zip(links_a, links_b, strict=True):
        if not x <= y:
            return False
    return True


def _no_dearer(rates_a: tuple[float | None, ...], rates_b: tuple[float | None, ...], *, strictly: bool) -> bool:
    """Whether ``a`` has every rate ``b`` has (None: not offered) and none dearer, or (``strictly``) each cheaper."""
    for ra, rb in zip(rates_a, rates_b, strict=True):
        if rb is None:
            continue
        if ra is None or not ra <= rb or (strictly and not ra < rb):
            return False
    return True


def _links(prof: Profile, search: Search) -> tuple[float, ...]:
    """The bandwidth ratios a job on the type runs at (lower is faster): none for a single-accelerator size, which
    runs alone; within the instance; and across instances for sizes that run multi-node. Rivals have the same
    accelerator count, so they compare ratio by ratio."""
    spec, curve = prof.spec, search.catalog.scaling
    if spec.accelerator_count == 1:
        return ()
    intra = _bandwidth_ratio(spec, curve, multi_node=False)
    if spec.accelerator_count < search.settings.multi_node_min_accelerators:
        return (intra,)
    return intra, _bandwidth_ratio(spec, curve, multi_node=True)


def _signature(prof: Profile, search: Search) -> _Signature:
    by_kind = _rates(prof, search)
    rates = tuple(None if (rate := by_kind[purchase, platform]) is None else rate.usd
                  for purchase in _PURCHASES for platform in search.platforms)
    return rates, instance_mtbi_hours(prof, search), _pays_transfer(prof, search)


def _pays_transfer(prof: Profile, search: Search) -> bool:
    """Whether the type's configurations carry the transfer line: every one away from the data region carries the
    same amount, so which do is all a comparison between types needs."""
    moved = search.data_region is not None and prof.price.region != search.data_region
    return moved and search.transfer_usd > 0


def instance_mtbi_hours(prof: Profile, search: Search) -> float:
    """Mean hours between interruptions of one spot instance: the caller's rate for this region and family, else
    the catalog's figure for the type's interruption band (its stated default when the band is unknown)."""
    key = (prof.price.region, prof.spec.family)
    for pair, rate in search.interruption_rates:
        if pair == key:
            # a monthly rate f with a constant hazard: MTBI = 730 h / -ln(1 - f), as the catalog's bands
            return HOURS_PER_MONTH / -math.log(1.0 - min(max(rate, 1e-6), 0.999))
    return search.catalog.mtbi_hours(prof.price.interruption_band)


def fixed_option(prof: Profile, search: Search, *, count: int, purchase: PurchaseModel,
                 platform: Platform) -> Option | None:
    """One named configuration run as a single synchronous job (the naive baseline)."""
    layout = Layout(count, count, 1, 1, _hours(search.work.flops, prof, search, count))
    rate = _rate(prof, search, purchase, platform)
    spot = None
    if purchase is PurchaseModel.SPOT:
        spot = spot_factors(work=search.work, instances=count, instance_mtbi_hours=instance_mtbi_hours(prof, search),
                            settings=search.settings)
        if spot is None:
            return None
    if rate is None:
        return None
    spot_time, wall, instance_hours, billed = _run_time(layout, spot, search.settings.startup_minutes / 60.0)
    transfer = _transfer_usd(prof, search)
    meets = None if search.usable_hours is None else wall <= search.usable_hours
    return Option(prof, layout, purchase, platform, rate, layout.rounds * layout.job_hours, wall, instance_hours,
                  spot_time, 0.0, _cost(layout, rate, billed, transfer), meets, "naive baseline", transfer)
