"""How good gpuops' own time estimates have been, and the correction they earn (docs/design.md §Calibration).

Each finished job leaves an outcome: the hours it really took against the hours the model estimated before any
correction (``ratio = actual / raw estimate``), with the inputs that produced the estimate. Outcomes are grouped by
(instance family, task, size band); a group's correction factor is a credibility-weighted mean of ``log(ratio)``:

    factor = exp( n / (n + k) · mean(winsorised log ratios) )

``k`` (the prior weight, in jobs) pulls a group with few jobs toward the prior 1.0 (no correction). Before the mean,
each log ratio is clipped to the group's median ± ``clip`` robust deviations (1.4826 · MAD, at least
``min_spread``), so a single job that ran ten times longer than planned (a hung node, a wrong data path) moves the
factor no more than its neighbours do. The factor is kept within [1/``max_factor``, ``max_factor``].

Pure: the service reads the outcomes from its database and passes them in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import median

from policy.decision import TraceStep

__all__ = [
    "accuracy",
    "Accuracy",
    "calibrate",
    "calibrated_step",
    "Calibration",
    "Correction",
    "Outcome",
    "size_band",
    "SIZE_BANDS",
]

# Upper bounds (parameters, exclusive) of the size bands a correction is kept for; the last band is open.
SIZE_BANDS: tuple[tuple[str, float], ...] = (
    ("<3B", 3e9), ("3B-15B", 15e9), ("15B-80B", 80e9), ("80B+", math.inf),
)


def size_band(params: float) -> str:
    """The size band of a model of ``params`` parameters."""
    for name, upper in SIZE_BANDS:
        if params < upper:
            return name
    return SIZE_BANDS[-1][0]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished job: which group it belongs to and actual hours over the uncorrected estimate."""

    family: str
    task: str
    size_band: str
    ratio: float


@dataclass(frozen=True, slots=True)
class Correction:
    """The factor estimated hours of one (family, task, size band) are multiplied by."""

    family: str
    task: str
    size_band: str
    factor: float
    jobs: int
    median_ratio: float  # the group's raw median of actual / estimate, for people reading the table

    @property
    def line(self) -> str:
        """The trace line a person reads: "calibrated on 7 finished jobs: ×1.18"."""
        return f"calibrated on {self.jobs} finished job{'s' if self.jobs != 1 else ''}: ×{self.factor:.2f}"


@dataclass(frozen=True, slots=True)
class Calibration:
    """Every group's correction; a group with no finished job has none (factor 1.0)."""

    corrections: tuple[Correction, ...] = ()

    def correction(self, *, family: str, task: str, params: float) -> Correction | None:
        band = size_band(params)
        for c in self.corrections:
            if (c.family, c.task, c.size_band) == (family, task, band):
                return c
        return None

    def hours_factors(self, *, task: str, params: float) -> tuple[tuple[str, float], ...]:
        """(family, factor) for one request's task and size, sorted: what the candidate search multiplies by."""
        band = size_band(params)
        return tuple(sorted((c.family, c.factor) for c in self.corrections
                            if (c.task, c.size_band) == (task, band) and c.factor != 1.0))


def _winsorised(logs: Sequence[float], *, clip: float, min_spread: float) -> list[float]:
    centre = median(logs)
    spread = max(1.4826 * median(abs(x - centre) for x in logs), min_spread)
    low, high = centre - clip * spread, centre + clip * spread
    return [min(max(x, low), high) for x in logs]


def calibrate(outcomes: Iterable[Outcome], *, prior_jobs: float = 3.0, clip: float = 2.0,
              min_spread: float = 0.05, max_factor: float = 3.0) -> Calibration:
    """The correction of every (family, task, size band) that has finished jobs."""
    groups: dict[tuple[str, str, str], list[float]] = {}
    for o in outcomes:
        if o.ratio > 0 and math.isfinite(o.ratio):
            groups.setdefault((o.family, o.task, o.size_band), []).append(math.log(o.ratio))
    corrections = []
    for (family, task, band), logs in sorted(groups.items()):
        n = len(logs)
        mean = sum(_winsorised(logs, clip=clip, min_spread=min_spread)) / n
        shrunk = n / (n + prior_jobs) * mean
        bound = math.log(max_factor)
        factor = math.exp(min(max(shrunk, -bound), bound))
        corrections.append(Correction(family=family, task=task, size_band=band, factor=round(factor, 4), jobs=n,
                                      median_ratio=round(math.exp(median(logs)), 4)))
    return Calibration(corrections=tuple(corrections))


def calibrated_step(step: TraceStep, correction: Correction | None) -> TraceStep:
    """The compute step with the correction its hours carry, when one applied."""
    if correction is None or correction.factor == 1.0:
        return step
    return step.model_copy(update={"reason": f"{step.reason}; {correction.line} (actual against estimated hours "
                                             f"of {correction.family} {correction.task} {correction.size_band})"})


@dataclass(frozen=True, slots=True)
class Accuracy:
    """How far estimates were from what jobs cost: |actual − estimate| / estimate over ``jobs`` jobs."""

    jobs: int
    median: float
    p90: float


def accuracy(pairs: Iterable[tuple[float, float]]) -> Accuracy | None:
    """Median and P90 (nearest rank) of the relative error of (actual, estimate) pairs; None with none."""
    errors = sorted(abs(actual - est) / est for actual, est in pairs if est > 0)
    if not errors:
        return None
    p90 = errors[min(len(errors) - 1, math.ceil(0.9 * len(errors)) - 1)]
    return Accuracy(jobs=len(errors), median=round(median(errors), 4), p90=round(p90, 4))
