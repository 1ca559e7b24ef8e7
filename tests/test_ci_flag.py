"""Any truthy ``CI`` makes a missing component fail the run instead of skipping its tests."""

from __future__ import annotations

import pytest

from tests.conftest import under_ci


@pytest.mark.parametrize(("value", "expected"), [
    ("true", True), ("TRUE", True), ("1", True), ("yes", True), ("on", True), ("github-actions", True),
    ("", False), ("0", False), ("false", False), ("no", False), ("off", False), (" False ", False),
])
def test_ci_counts_when_set_to_anything_truthy(value: str, expected: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", value)
    assert under_ci() is expected


def test_ci_unset_is_not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    assert under_ci() is False
