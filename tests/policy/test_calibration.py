"""Estimates that learn: corrections of estimated hours from finished jobs, shrunk toward 1.0 and robust to outliers."""

from __future__ import annotations

import math
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from policy.calibration import Calibration, Correction, Outcome, accuracy, calibrate, size_band
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision
from policy.parse import parse_request
from policy.request import Task
from policy.spend import SpendSnapshot
from policy.tree import decide

TZ = "UTC"
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=ZoneInfo(TZ))
TEXT = "production fine-tune 7B on 2B tokens on p4d"
FREE = "production fine-tune 7B on 2B tokens on 8 GPUs"


def _history(ratios: list[float], *, family: str = "p5", task: str = "fine-tune",
             band: str = "3B-15B") -> list[Outcome]:
    return [Outcome(family=family, task=task, size_band=band, ratio=r) for r in ratios]


@pytest.mark.parametrize(("params", "band"), [(1e9, "<3B"), (7e9, "3B-15B"), (15e9, "15B-80B"), (70e9, "15B-80B"),
                                              (405e9, "80B+")])
def test_size_bands(params: float, band: str) -> None:
    assert size_band(params) == band


def test_ten_jobs_twenty_percent_slow_bring_the_next_estimate_within_five_percent() -> None:
    raw = 10.0  # hours the model says
    truth = raw * 1.2
    history: list[Outcome] = []
    errors = []
    for _ in range(10):
        factor = calibrate(history).hours_factors(task="fine-tune", params=7e9)
        estimate = raw * (dict(factor).get("p5", 1.0))
        errors.append(abs(estimate - truth) / truth)
        history.append(Outcome(family="p5", task="fine-tune", size_band="3B-15B", ratio=truth / raw))
    final = raw * calibrate(history).hours_factors(task="fine-tune", params=7e9)[0][1]
    assert abs(final - truth) / truth < 0.05
    assert errors[0] == pytest.approx(1 / 6) and errors == sorted(errors, reverse=True)  # better with every job


def test_one_outlier_among_ten_barely_moves_the_factor() -> None:
    steady = calibrate(_history([1.2] * 10)).corrections[0].factor
    with_outlier = calibrate(_history([1.2] * 10 + [10.0])).corrections[0].factor
    assert abs(with_outlier - steady) / steady < 0.02


def test_a_single_job_cannot_swing_the_factor_far() -> None:
    [only] = calibrate(_history([10.0])).corrections
    assert only.jobs == 1 and only.median_ratio == 10.0
    assert only.factor == pytest.approx(10.0 ** 0.25, abs=1e-4)  # one job weighs 1/(1+3) of its log ratio
    assert only.line == f"calibrated on 1 finished job: ×{only.factor:.2f}"


def test_groups_are_kept_apart_and_bad_ratios_ignored() -> None:
    history = [*_history([1.5] * 4), *_history([0.8] * 4, family="g6e"), *_history([2.0] * 4, task="lora"),
               *_history([0.0, -1.0, math.inf])]
    table = calibrate(history)
    assert [(c.family, c.task, c.jobs) for c in table.corrections] == [("g6e", "fine-tune", 4), ("p5", "fine-tune", 4),
                                                                       ("p5", "lora", 4)]
    assert dict(table.hours_factors(task="fine-tune", params=7e9)) == {
        "g6e": pytest.approx(0.8 ** (4 / 7), abs=1e-4), "p5": pytest.approx(1.5 ** (4 / 7), abs=1e-4)}
    assert table.hours_factors(task="fine-tune", params=70e9) == ()  # another size band learnt nothing
    assert calibrate(_history([100.0] * 50)).corrections[0].factor == pytest.approx(3.0)  # the bound


def test_accuracy_is_median_and_p90_of_relative_error() -> None:
    pairs = [(110.0, 100.0)] * 9 + [(300.0, 100.0)]
    found = accuracy(pairs)
    assert found is not None and (found.jobs, found.median, found.p90) == (10, 0.1, 0.1)
    assert accuracy([]) is None


def _decide(calibration: Calibration | None, text: str = TEXT) -> Decision:
    request = parse_request(text, now=NOW, tz=TZ)
    return decide(request, catalog=load_catalog(), policy=default_policy(),
                  spend=SpendSnapshot.unavailable(team=None, reason="no spend source"), now=NOW,
                  calibration=calibration)


def test_decide_applies_the_factor_of_the_chosen_family_and_says_so() -> None:
    before = _decide(None)
    family = load_catalog().instance(before.plan.instance_type).family
    table = Calibration(corrections=(Correction(family=family, task="fine-tune", size_band="3B-15B", factor=1.18,
                                                jobs=7, median_ratio=1.2),))
    after = _decide(table)
    assert after.plan.instance_type == before.plan.instance_type
    compute = next(s for s in after.trace if s.node == "4 compute")
    assert "calibrated on 7 finished jobs: ×1.18" in compute.reason
    assert after.plan.estimated_hours == pytest.approx(before.plan.estimated_hours * 1.18, rel=0.02)
    assert after.plan.estimated_cost_usd > before.plan.estimated_cost_usd
    other = Calibration(corrections=(Correction(family=family, task="lora", size_band="3B-15B", factor=1.5, jobs=7,
                                                median_ratio=1.5),))
    assert _decide(other) == before  # another task's correction changes nothing


def test_decide_converges_on_a_synthetic_history() -> None:
    before = _decide(None)
    family = load_catalog().instance(before.plan.instance_type).family
    truth = before.plan.estimated_hours * 1.2
    table = calibrate(_history([1.2] * 10, family=family))
    after = _decide(table)
    assert after.plan.instance_type == before.plan.instance_type
    assert abs(after.plan.estimated_hours - truth) / truth < 0.05


def test_a_family_slower_than_thought_loses_the_choice_to_one_that_is_not() -> None:
    before = _decide(None, FREE)
    family = load_catalog().instance(before.plan.instance_type).family
    slow = Calibration(corrections=(Correction(family=family, task="fine-tune", size_band="3B-15B", factor=2.0,
                                               jobs=20, median_ratio=2.0),))
    after = _decide(slow, FREE)
    assert load_catalog().instance(after.plan.instance_type).family != family
    assert "calibrated" not in next(s for s in after.trace if s.node == "4 compute").reason


def test_a_job_of_stated_length_is_planned_as_said_whatever_was_learnt() -> None:
    families = {spec.family for spec in load_catalog().instances.values()}
    learnt = Calibration(corrections=tuple(
        Correction(family=f, task=t.value, size_band=b, factor=1.3, jobs=10, median_ratio=1.3)
        for f in sorted(families) for t in Task for b in ("<3B", "3B-15B", "15B-80B", "80B+")))
    said = _decide(None, "eval run 7b 2h")
    calibrated = _decide(learnt, "eval run 7b 2h")
    assert calibrated.plan.estimated_hours == said.plan.estimated_hours
    assert calibrated.plan.estimated_cost_usd == said.plan.estimated_cost_usd
