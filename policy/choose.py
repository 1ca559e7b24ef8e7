"""The choice among configurations: cheapest that meets the deadline, else the soonest not at any price;
alternatives.

See docs/design.md §Choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from policy.candidates import Option
from policy.decision import PurchaseModel

__all__ = [
    "alternatives",
    "by_cost",
    "by_finish",
    "cheapest",
    "Choice",
    "choose",
    "earliest",
    "FALLBACK_MAX_SLOWDOWN",
    "FASTEST_COST_MULTIPLE",
    "FINISH_SLACK",
    "Key",
    "MAX_ALTERNATIVES",
    "MEANINGFUL_SHARE",
    "preferred",
    "soonest",
]

MAX_ALTERNATIVES = 3
# An alternative must be this much faster (or cheaper) to be worth a person's attention.
MEANINGFUL_SHARE = 0.03
# The fastest alternative may cost at most this many times the plan (and at least $1 × this).
FASTEST_COST_MULTIPLE = 10.0
# "asap", or a deadline nothing meets: the earliest finish, but not at any price: the cheapest plan finishing within
# this share of the earliest (a smoke test that misses its deadline by start-up alone is not put on 16 nodes to land
# a minute sooner).
FINISH_SLACK = 0.10
# With no deadline, a type outside the model's size class is taken only while it takes at most this many times as
# long as the best inside it: cheaper per run, a 13B LoRA on one L40S for 137 h ($136) is no plan over 6.8 h on a p5
# ($185) that a practitioner would sign; a deadline bounds the time itself.
FALLBACK_MAX_SLOWDOWN = 4.0


Key = tuple[float, float, int, str, str, str]


def by_cost(option: Option) -> Key:
    """Cheapest first; ties go to the earlier finish, then fewer instances, then a stable name order."""
    return (option.cost, option.start_hours + option.wall_hours, option.layout.count,
            option.profile.spec.instance_type, option.purchase, option.platform)


def by_finish(option: Option) -> Key:
    """Earliest finish first; ties go to the cheaper, then as ``by_cost``."""
    return (option.start_hours + option.wall_hours, option.cost, option.layout.count,
            option.profile.spec.instance_type, option.purchase, option.platform)


@dataclass(slots=True)
class Choice:
    """The chosen configuration and what a person should know about how it was reached."""

    option: Option
    pool: list[Option]  # the configurations the choice was made among (inside and outside the size class)
    fallback: bool = False  # chosen outside the size class
    late: bool = False  # nothing meets the deadline
    over_runtime: bool = False  # nothing fits the policy's max_runtime_hours: the fastest, which will be denied
    warnings: list[str] = field(default_factory=list)


def cheapest(options: Sequence[Option]) -> Option:
    """``min(options, key=by_cost)``, the whole key compared only among the options tied on cost: pools run to
    hundreds of configurations and a tie is rare."""
    lowest = min(o.cost for o in options)
    return min((o for o in options if o.cost == lowest), key=by_cost)


def earliest(options: Sequence[Option]) -> Option:
    """``min(options, key=by_finish)``, the whole key compared only among the options tied on finish."""
    first = min(o.start_hours + o.wall_hours for o in options)
    return min((o for o in options if o.start_hours + o.wall_hours == first), key=by_finish)


def soonest(options: Sequence[Option]) -> Option:
    """The cheapest of ``options`` finishing within ``FINISH_SLACK`` of the earliest finish among them."""
    first = min(o.finish_hours for o in options)
    return cheapest([o for o in options if o.finish_hours <= first * (1 + FINISH_SLACK)])


def preferred(penalty: float) -> Callable[[Option], tuple[float, Key]]:
    """``by_cost`` with a type outside the model's size class priced ``penalty`` higher: the class is a preference."""
    def key(option: Option) -> tuple[float, Key]:
        return (_preferred_cost(option, penalty), by_cost(option))
    return key


def _preferred_cost(option: Option, penalty: float) -> float:
    return option.cost * (1.0 + penalty) if option.profile.outside_class else option.cost


def _most_preferred(options: Sequence[Option], penalty: float) -> Option:
    """``min(options, key=preferred(penalty))``, the whole key compared only among the options tied on cost."""
    costs = [_preferred_cost(o, penalty) for o in options]
    lowest = min(costs)
    return min((o for o, cost in zip(options, costs, strict=True) if cost == lowest), key=by_cost)


def choose(inside: Sequence[Option], outside: Sequence[Option], *, penalty: float = 0.0,
           deadline_hours: float | None = None) -> Choice | None:
    """The lowest expected cost per run that meets the deadline, across every type whose memory fits (outside the
    size class at ``penalty`` more). When nothing does: the fastest, if it still lands by the deadline itself
    (``deadline_hours`` of wall time, the safety margin not taken off: it keeps the most of the margin); else every
    plan is late and the cheapest of those finishing within ``FINISH_SLACK`` of the earliest (``soonest``)."""
    everything = [*inside, *outside]
    if not everything:
        return None
    in_time = [o for o in everything if o.meets is not False]
    if in_time:
        best = _within_slowdown(_most_preferred(in_time, penalty), in_time,
                                lambda classed: _most_preferred(classed, penalty))
        # the preference never keeps a plan that another beats on both cost and finish
        better = [o for o in in_time if o.cost < best.cost and o.finish_hours < best.finish_hours]
        if better:
            best = cheapest(better)
        return Choice(best, everything, fallback=best.profile.outside_class)
    fastest = earliest(everything)
    if deadline_hours is None or fastest.wall_hours > deadline_hours:
        fastest = soonest(everything)
    return Choice(fastest, everything, fallback=fastest.profile.outside_class, late=True)


def alternatives(choice: Choice, reserved: Sequence[tuple[str, Option]] = (),
                 named: Sequence[tuple[str, Option]] = ()) -> list[tuple[str, Option]]:
    """Up to three configurations that differ from the plan in cost, speed or interruption risk.

    ``reserved``: configurations on reserved capacity the account was offered (capacity blocks, SageMaker training
    plans), best first, with their labels; the first is shown. ``named``: the best configuration of each other piece
    of hardware the request named to choose among ("p5 or p4d"), labelled: what the person asked to compare comes
    before what gpuops adds.
    """
    plan = choice.option
    found: list[tuple[str, Option]] = []
    on_demand = _best_on_demand(choice)
    first = reserved[0] if reserved else None
    candidates: list[tuple[str, Callable[[], Option | None]]] = [
        (first[0] if first else "reserved capacity",
         lambda: first[1] if first is not None and first[1].meets is not False else None),
        *((label, lambda option=option: option) for label, option in named),
        ("no interruptions", lambda: on_demand if plan.purchase is PurchaseModel.SPOT else None),
        # "within policy": the pool holds only what the policy allows (regions, families, sizes), not the market.
        # when nothing fits the policy's max_runtime_hours nothing is within it: the cheapest would run for years
        ("cheapest within policy", lambda: None if choice.over_runtime else _cheaper(choice)),
        ("fastest within policy", lambda: _faster(choice)),
    ]
    for label, make in candidates:
        option = make()
        if option is None or option.key == plan.key or any(option.key == o.key for _, o in found):
            continue
        found.append((label, option))
        if len(found) == MAX_ALTERNATIVES:
            break
    return found


def _within_slowdown(best: Option, options: Sequence[Option],
                     pick: Callable[[Sequence[Option]], Option]) -> Option:
    """``best``, or with no deadline (``meets`` None) the one ``pick`` takes among ``options`` inside the size class
    when ``best`` is outside it and takes more than ``FALLBACK_MAX_SLOWDOWN`` times as long."""
    if not best.profile.outside_class or best.meets is not None:
        return best
    classed = [o for o in options if not o.profile.outside_class]
    held = pick(classed) if classed else None
    return held if held is not None and best.wall_hours > FALLBACK_MAX_SLOWDOWN * held.wall_hours else best


def _best_on_demand(choice: Choice) -> Option | None:
    kept = [o for o in choice.pool if o.purchase is PurchaseModel.ON_DEMAND and o.meets is not False]
    return _within_slowdown(cheapest(kept), kept, cheapest) if kept else None


def _cheaper(choice: Choice) -> Option | None:
    least = cheapest(choice.pool)
    return least if least.cost < choice.option.cost * (1 - MEANINGFUL_SHARE) else None


def _faster(choice: Choice) -> Option | None:
    """The earliest finish among the options costing at most FASTEST_COST_MULTIPLE × the plan: an hour saved on a
    $1 job is not worth $500 of hardware, whatever a pool of 16-instance options would offer."""
    ceiling = max(choice.option.cost, 1.0) * FASTEST_COST_MULTIPLE
    fastest = _pick(choice.pool, lambda o: o.cost <= ceiling, earliest)
    if fastest is None:
        return None
    return fastest if fastest.finish_hours < choice.option.finish_hours * (1 - MEANINGFUL_SHARE) else None


def _pick(options: Sequence[Option], keep: Callable[[Option], bool],
          best: Callable[[Sequence[Option]], Option]) -> Option | None:
    kept = [o for o in options if keep(o)]
    return best(kept) if kept else None
