"""The decision-quality suite: realistic requests against a practitioner's ranges, the seed scaling table and
published large-scale efficiency (docs/design.md §Decision quality). ``make bench`` prints the pass rate."""

from __future__ import annotations

import pytest

from tests.policy.quality.cases import CASES, Case
from tests.policy.quality.grade import grade, large_scale_mfu, published_runs, seed_hours


@pytest.mark.parametrize("case", CASES, ids=[c.text for c in CASES])
def test_plan_is_what_a_practitioner_would_sign(case: Case) -> None:
    assert grade(case) == []


def test_the_seed_scaling_table_reproduces_within_15_percent() -> None:
    for gpus, published, planned in seed_hours():
        assert planned == pytest.approx(published, rel=0.15), f"{gpus} A100s"


@pytest.mark.parametrize(("name", "published", "planned"), published_runs(), ids=lambda v: str(v)[:40])
def test_a_published_whole_run_is_planned_within_20_percent_of_its_time(name: str, published: float,
                                                                       planned: float) -> None:
    # a vision transformer's images as patches, on hardware of another generation than the seed table's
    assert planned == pytest.approx(published, rel=0.20), name


@pytest.mark.parametrize(("name", "mfu", "low", "high"), large_scale_mfu(), ids=lambda v: str(v)[:30])
def test_efficiency_at_scale_matches_published_runs(name: str, mfu: float, low: float, high: float) -> None:
    assert low <= mfu <= high, f"{name}: {mfu:.0%}"
