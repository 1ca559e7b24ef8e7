"""Decision quality: the share of realistic requests whose plan a practitioner would sign, the seed scaling table
and published efficiency at scale (the cases live in tests/policy/quality)."""

from __future__ import annotations

from tests.policy.quality.cases import CASES
from tests.policy.quality.grade import grade, large_scale_mfu, published_runs, seed_hours


def run() -> None:
    failed = [(case.text, wrong) for case in CASES if (wrong := grade(case))]
    passed = len(CASES) - len(failed)
    print(f"realistic requests: {passed}/{len(CASES)} acceptable ({passed / len(CASES):.0%})")
    for text, wrong in failed:
        print(f"  ✗ {text}: {'; '.join(wrong)}")
    for gpus, published, planned in seed_hours():
        print(f"seed table, 1.5B on {gpus} A100: planned {planned:.2f} h, published {published:g} h "
              f"({planned / published - 1:+.0%})")
    for name, published, planned in published_runs():
        print(f"{name}: planned {planned:.1f} h, published {published:g} h ({planned / published - 1:+.0%})")
    for name, mfu, low, high in large_scale_mfu():
        mark = "✓" if low <= mfu <= high else "✗"
        print(f"{mark} {name}: planned MFU {mfu:.0%} (published range {low:.0%}-{high:.0%})")
