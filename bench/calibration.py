"""Estimate error before and after calibration on a synthetic history of finished jobs.

Three groups whose real hours differ from the model's by a fixed factor (1.2, 0.85, 1.4), with ±10% log-normal
noise per job and one job in twenty that runs five times longer (a hung node). For each number of finished jobs
per group, the calibration learnt from them corrects the next 200 jobs' estimates; the figures are the median and
P90 of |actual − estimate| / actual over those jobs, without and with the correction.
"""

from __future__ import annotations

import math
import random
import statistics

from policy.calibration import Outcome, calibrate

GROUPS = (("p5", "fine-tune", "3B-15B", 1.2), ("g6e", "lora", "<3B", 0.85), ("p4d", "pretrain", "15B-80B", 1.4))
NOISE_SIGMA = 0.10
OUTLIER_SHARE = 0.05
OUTLIER_FACTOR = 5.0
HELD_OUT = 200
SEED = 7


def _ratio(rng: random.Random, truth: float) -> float:
    ratio = truth * math.exp(rng.gauss(0.0, NOISE_SIGMA))
    return ratio * OUTLIER_FACTOR if rng.random() < OUTLIER_SHARE else ratio


def _errors(rng: random.Random, history: int) -> tuple[list[float], list[float]]:
    outcomes = [Outcome(family=f, task=t, size_band=b, ratio=_ratio(rng, truth))
                for f, t, b, truth in GROUPS for _ in range(history)]
    factors = {(c.family, c.task, c.size_band): c.factor for c in calibrate(outcomes).corrections}
    before, after = [], []
    for family, task, band, truth in GROUPS:
        factor = factors.get((family, task, band), 1.0)
        for _ in range(HELD_OUT):
            raw = rng.uniform(2.0, 200.0)
            actual = raw * truth * math.exp(rng.gauss(0.0, NOISE_SIGMA))  # held-out jobs: noise, no hung nodes
            before.append(abs(actual - raw) / actual)
            after.append(abs(actual - raw * factor) / actual)
    return before, after


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.9 * len(ordered)) - 1)]


def run() -> None:
    rng = random.Random(SEED)
    print(f"{'finished jobs/group':>20}  {'median before':>13}  {'median after':>12}  {'P90 before':>10}  "
          f"{'P90 after':>9}")
    for history in (0, 1, 3, 10, 30):
        before, after = _errors(rng, history)
        print(f"{history:>20}  {statistics.median(before):>13.1%}  {statistics.median(after):>12.1%}  "
              f"{_p90(before):>10.1%}  {_p90(after):>9.1%}")
    steady = calibrate([Outcome("p5", "fine-tune", "3B-15B", 1.2)] * 10).corrections[0].factor
    spiked = calibrate([Outcome("p5", "fine-tune", "3B-15B", 1.2)] * 10
                       + [Outcome("p5", "fine-tune", "3B-15B", 10.0)]).corrections[0].factor
    print(f"10 jobs 20% slow: next estimate ×{steady:.3f} (truth ×1.2, {abs(steady - 1.2) / 1.2:.1%} off); "
          f"with one job 10× slow added: ×{spiked:.3f}")


if __name__ == "__main__":
    run()
