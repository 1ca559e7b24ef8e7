"""policy/ reads no clock and does no I/O beyond its packaged data: the caller passes ``now``."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
CLOCK_OR_IO = re.compile(
    r"\b(datetime\.now|datetime\.utcnow|date\.today|time\.time|time\.monotonic|open\(|os\.environ|socket\.|subprocess)"
)


def test_policy_reads_no_clock_and_does_no_io() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{lineno}: {line.strip()}"
        for path in sorted((ROOT / "policy").rglob("*.py"))
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if CLOCK_OR_IO.search(line) and "# io-ok:" not in line
    ]
    assert offenders == []
