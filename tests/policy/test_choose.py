"""The choice among configurations and its alternatives, on hand-built options (docs/design.md §Choice)."""

from __future__ import annotations

from typing import Any

import pytest

from policy.candidates import Layout, Option, Profile, Search
from policy.catalog import AcceleratorSpec, Catalog, InstanceSpec, RegionPrice, SageMakerPremium, ScalingCurve
from policy.choose import MAX_ALTERNATIVES, alternatives, choose
from policy.config import EstimateSettings
from policy.decision import Platform, PurchaseModel
from policy.estimate import workload
from policy.pricing import Rate
from policy.request import Stage, Task, Tolerance

SOURCE = {"source": "test", "as_of": "2026-11-30"}
SETTINGS = EstimateSettings()
ACCEL = AcceleratorSpec(name="X", vendor="nvidia", memory_gib=80, peak_bf16_tflops=100, mfu=0.5, **SOURCE)
SPOT, ON_DEMAND, CAPACITY_BLOCK = PurchaseModel.SPOT, PurchaseModel.ON_DEMAND, PurchaseModel.CAPACITY_BLOCK
TYPES = ("p5.a", "p5.b", "p5.c", "p5.d", "g6.x", "g6.y")  # p5 takes capacity blocks (the default families), g6 not


def _price(name: str) -> RegionPrice:
    return RegionPrice(instance_type=name, region="r-1", on_demand_usd=10.0, spot_usd=4.0, **SOURCE)


def _spec(name: str) -> InstanceSpec:
    return InstanceSpec(instance_type=name, family=name.split(".")[0], accelerator="X", accelerator_count=8,
                        accelerator_memory_gib=80, vcpus=96, memory_gib=1024, **SOURCE)


CATALOG = Catalog(
    snapshot="2026-11-30", source="test", accelerators={"X": ACCEL}, instances={t: _spec(t) for t in TYPES},
    prices=[_price(t) for t in TYPES], scaling=ScalingCurve(base_accelerators=8, alpha=0.0, beta=1.0, **SOURCE),
    sagemaker_premium=SageMakerPremium(fraction=0.0, **SOURCE), interruption_mtbi_hours={"default": 100.0},
)


def search(usable_hours: float | None = None) -> Search:
    work = workload(task=Task.FINE_TUNE, params=1_000_000_000, tokens=1_000_000_000, trials=1, seq_len=2048)
    return Search(catalog=CATALOG, work=work, stage=Stage.EXPERIMENTAL, tolerance=Tolerance.HIGH,
                  usable_hours=usable_hours, platforms=(Platform.EC2,), max_instances=8, settings=SETTINGS)


def opt(name: str, cost: float, finish: float, *, purchase: PurchaseModel = SPOT, count: int = 1,
        meets: bool | None = None, outside: bool = False) -> Option:
    """``name`` is the instance type; the option starts now and runs ``finish`` hours."""
    prof = Profile(_price(name), _spec(name), ACCEL, 8 * 100e12 * 0.5, 1, outside)
    rate = Rate(4.0 if purchase is SPOT else 10.0, 4.0, 4.0, "test", False)
    return Option(prof, Layout(count, count, 1, 1, finish), purchase, Platform.EC2, rate, finish, finish,
                  count * finish, None, 0.0, cost, meets)


def label(option: Option) -> str:
    return f"{option.profile.spec.instance_type}×{option.count} {option.purchase}"


# --- choose -------------------------------------------------------------------------------------------------

# The size class is a preference: a type outside it is compared at its cost × (1 + PENALTY).
PENALTY = 0.10

CHOOSE: list[tuple[str, list[Option], list[Option], dict[str, Any]]] = [
    ("cheapest in time of all: outside the class when clearly cheaper, flagged",
     [opt("p5.a", 100, 10, meets=True), opt("p5.b", 90, 20, meets=True), opt("p5.c", 80, 30, meets=False)],
     [opt("g6.x", 10, 5, meets=True, outside=True)],
     {"chosen": "g6.x×1 spot", "fallback": True, "late": False}),
    ("outside the class but within the penalty and slower: the one inside",
     [opt("p5.a", 100, 10, meets=True)], [opt("g6.x", 95, 12, meets=True, outside=True)],
     {"chosen": "p5.a×1 spot", "fallback": False, "late": False}),
    ("outside the class within the penalty but cheaper and sooner: the one outside",
     [opt("p5.a", 100, 10, meets=True)], [opt("g6.x", 95, 5, meets=True, outside=True)],
     {"chosen": "g6.x×1 spot", "fallback": True, "late": False}),
    ("outside the class by more than the penalty: the one outside",
     [opt("p5.a", 100, 10, meets=True)], [opt("g6.x", 90, 5, meets=True, outside=True)],
     {"chosen": "g6.x×1 spot", "fallback": True, "late": False}),
    ("cheapest in time inside the class, not the cheapest late one",
     [opt("p5.a", 100, 10, meets=True), opt("p5.b", 90, 20, meets=True), opt("p5.c", 80, 30, meets=False)], [],
     {"chosen": "p5.b×1 spot", "fallback": False, "late": False}),
    ("no deadline: every option is in time",
     [opt("p5.a", 100, 10), opt("p5.b", 90, 20)], [],
     {"chosen": "p5.b×1 spot", "fallback": False, "late": False}),
    ("nothing inside in time: the cheapest in time outside, flagged as a fall-back",
     [opt("p5.a", 50, 30, meets=False)],
     [opt("g6.x", 100, 10, meets=True, outside=True), opt("g6.y", 80, 12, meets=True, outside=True),
      opt("p5.d", 20, 40, meets=False, outside=True)],
     {"chosen": "g6.y×1 spot", "fallback": True, "late": False}),
    ("nothing inside the class at all, no deadline: the cheapest outside",
     [], [opt("g6.x", 100, 10, outside=True), opt("g6.y", 80, 12, outside=True)],
     {"chosen": "g6.y×1 spot", "fallback": True, "late": False}),
    ("no deadline, outside the class cheaper but more than 4x as long: the one inside",
     [opt("p5.a", 100, 10)], [opt("g6.x", 50, 40.01, outside=True)],
     {"chosen": "p5.a×1 spot", "fallback": False, "late": False}),
    ("no deadline, outside the class cheaper and exactly 4x as long: the one outside",
     [opt("p5.a", 100, 10)], [opt("g6.x", 50, 40, outside=True)],
     {"chosen": "g6.x×1 spot", "fallback": True, "late": False}),
    ("a deadline bounds the time itself: outside the class, 10x as long but in time, is taken",
     [opt("p5.a", 100, 10, meets=True)], [opt("g6.x", 50, 100, meets=True, outside=True)],
     {"chosen": "g6.x×1 spot", "fallback": True, "late": False}),
    ("nothing in time anywhere, fastest inside: late, not a fall-back",
     [opt("p5.a", 50, 30, meets=False), opt("p5.b", 500, 11, meets=False)],
     [opt("g6.x", 100, 13, meets=False, outside=True)],
     {"chosen": "p5.b×1 spot", "fallback": False, "late": True}),
    ("nothing in time anywhere: the cheapest finishing within 10% of the earliest, not the fastest at any price",
     [opt("p5.a", 5, 0.27, meets=False), opt("p5.b", 570, 0.25, count=16, meets=False),
      opt("g6.x", 1, 0.5, meets=False)], [],
     {"chosen": "p5.a×1 spot", "late": True}),
    ("nothing in time anywhere, fastest outside: late and a fall-back",
     [opt("p5.a", 50, 30, meets=False)], [opt("g6.x", 100, 12, meets=False, outside=True)],
     {"chosen": "g6.x×1 spot", "fallback": True, "late": True}),
    ("equal cost: the earlier finish",
     [opt("p5.a", 100, 12, meets=True), opt("p5.b", 100, 10, meets=True)], [],
     {"chosen": "p5.b×1 spot"}),
    ("equal cost and finish: fewer instances",
     [opt("p5.a", 100, 10, count=4, meets=True), opt("p5.b", 100, 10, count=2, meets=True)], [],
     {"chosen": "p5.b×2 spot"}),
    ("equal cost, finish and count: the first type by name",
     [opt("p5.b", 100, 10, meets=True), opt("p5.a", 100, 10, meets=True)], [],
     {"chosen": "p5.a×1 spot"}),
    ("late, equal finish: the cheaper",
     [opt("p5.a", 100, 10, meets=False), opt("p5.b", 90, 10, meets=False)], [],
     {"chosen": "p5.b×1 spot", "late": True}),
]


@pytest.mark.parametrize(("name", "inside", "outside", "expected"), CHOOSE, ids=[c[0] for c in CHOOSE])
def test_choose(name: str, inside: list[Option], outside: list[Option], expected: dict[str, Any]) -> None:
    choice = choose(inside, outside, penalty=PENALTY)
    assert choice is not None
    assert label(choice.option) == expected["chosen"]
    assert [label(o) for o in choice.pool] == [label(o) for o in [*inside, *outside]]
    for key in ("fallback", "late"):
        if key in expected:
            assert getattr(choice, key) is expected[key], key


def test_a_plan_missing_only_the_safety_margin_is_the_fastest_so_it_keeps_most_of_it() -> None:
    # 10 h to the deadline: p5.b lands inside it (not inside its margin), p5.a 10% later lands after it
    options = [opt("p5.a", 100, 10.5, meets=False), opt("p5.b", 500, 9.8, meets=False)]
    assert label(choose(options, [], deadline_hours=10.0).option) == "p5.b×1 spot"  # type: ignore[union-attr]
    assert label(choose(options, [], deadline_hours=9.0).option) == "p5.a×1 spot"  # type: ignore[union-attr]


def test_nothing_to_choose_from() -> None:
    assert choose([], []) is None


# --- alternatives -------------------------------------------------------------------------------------------

PLAN = opt("g6.x", 100, 10, meets=True)  # spot, no capacity block for its family

ALTERNATIVES: list[tuple[str, list[Option], list[str]]] = [
    ("a spot plan offers the cheapest on-demand option in time as 'no interruptions'",
     [PLAN, opt("g6.y", 150, 10, purchase=ON_DEMAND, meets=True), opt("g6.x", 140, 12, purchase=ON_DEMAND,
                                                                      meets=False)],
     ["no interruptions: g6.y×1 on-demand"]),
    ("more than 3% cheaper (late) is offered",
     [PLAN, opt("g6.y", 96.99, 30, meets=False)], ["cheapest within policy: g6.y×1 spot"]),
    ("exactly 3% cheaper is not worth a person's attention",
     [PLAN, opt("g6.y", 97.0, 30, meets=False)], []),
    ("more than 3% faster is offered",
     [PLAN, opt("g6.y", 300, 9.69, meets=True)], ["fastest within policy: g6.y×1 spot"]),
    ("exactly 3% faster is not",
     [PLAN, opt("g6.y", 300, 9.7, meets=True)], []),
    ("faster at more than 10x the plan's cost is not; the fastest within it is",
     [PLAN, opt("g6.y", 1000.01, 1, meets=True), opt("p5.a", 1000, 5, meets=True)],
     ["fastest within policy: p5.a×1 spot"]),
    ("the on-demand option that is also the fastest is offered once, under its first label",
     [PLAN, opt("g6.y", 300, 5, purchase=ON_DEMAND, meets=True)], ["no interruptions: g6.y×1 on-demand"]),
]


@pytest.mark.parametrize(("name", "pool", "expected"), ALTERNATIVES, ids=[c[0] for c in ALTERNATIVES])
def test_alternatives(name: str, pool: list[Option], expected: list[str]) -> None:
    choice = choose(pool, [])
    assert choice is not None and choice.option is PLAN
    assert [f"{why}: {label(o)}" for why, o in alternatives(choice)] == expected


def test_no_interruptions_keeps_to_the_size_class_when_the_cheaper_one_outside_takes_over_4x_as_long() -> None:
    plan = opt("p5.a", 100, 10)  # spot, no deadline
    inside = opt("p5.b", 250, 10, purchase=ON_DEMAND)
    slow = opt("g6.x", 120, 40.01, purchase=ON_DEMAND, outside=True)
    choice = choose([plan, inside], [slow])
    assert choice is not None and choice.option is plan
    assert ("no interruptions", inside) in alternatives(choice)
    within = opt("g6.x", 120, 40, purchase=ON_DEMAND, outside=True)  # at most 4x as long: the cheaper is kept
    assert ("no interruptions", within) in alternatives(choose([plan, inside], [within]))  # type: ignore[arg-type]


def test_an_on_demand_plan_offers_no_no_interruptions_alternative() -> None:
    plan = opt("g6.x", 100, 10, purchase=ON_DEMAND, meets=True)
    choice = choose([plan, opt("g6.y", 120, 10, purchase=ON_DEMAND, meets=True)], [])
    assert choice is not None and choice.option is plan
    assert alternatives(choice) == []


def test_at_most_three_alternatives_in_order_reserved_capacity_first() -> None:
    # Four distinct candidates: a capacity block the account was offered, on-demand, a cheaper late option and a
    # faster one; the fourth is dropped.
    plan = opt("p5.a", 100, 30, count=2, meets=True)
    pool = [plan, opt("p5.b", 150, 30, purchase=ON_DEMAND, count=2, meets=True), opt("p5.c", 50, 300, meets=False),
            opt("p5.d", 400, 8, purchase=ON_DEMAND, count=8, meets=True)]
    choice = choose(pool, [])
    assert choice is not None and choice.option is plan
    block = opt("p5.b", 900, 30, purchase=CAPACITY_BLOCK, count=2, meets=True)
    found = alternatives(choice, [("capacity block cr-1: reserved", block)])
    assert len(found) == MAX_ALTERNATIVES == 3
    assert [f"{why}: {label(o)}" for why, o in found] == [
        "capacity block cr-1: reserved: p5.b×2 capacity-block",
        "no interruptions: p5.b×2 on-demand", "cheapest within policy: p5.c×1 spot"]


def test_no_reserved_capacity_alternative_without_an_offering_or_when_it_lands_late() -> None:
    plan = opt("p5.a", 100, 30, count=2, meets=True)
    choice = choose([plan, opt("p5.b", 150, 30, purchase=ON_DEMAND, count=2, meets=True)], [])
    assert choice is not None
    assert [why for why, _ in alternatives(choice)] == ["no interruptions"]
    late = opt("p5.b", 900, 30, purchase=CAPACITY_BLOCK, count=2, meets=False)
    assert [why for why, _ in alternatives(choice, [("capacity block", late)])] == ["no interruptions"]


def test_a_late_plan_the_fastest_still_offers_the_cheaper_option() -> None:
    choice = choose([opt("g6.x", 100, 50, meets=False), opt("g6.y", 400, 20, meets=False)], [])
    assert choice is not None and choice.late
    offered = [f"{why}: {label(o)}" for why, o in alternatives(choice)]
    assert offered == ["cheapest within policy: g6.x×1 spot"]
