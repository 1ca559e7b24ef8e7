"""Every policy test also checks the parser's word guards: ``_Scan.take_if`` skips a pattern when the text holds none
of its words, so a guard missing a word would silently drop a reading. Here a skipped pattern is run anyway, and any
match it would have made fails the test that typed the text."""

from __future__ import annotations

import re

import pytest

from policy.parse import _Scan


def _checked_take_if(self: _Scan, words: tuple[str, ...], pattern: re.Pattern[str]) -> list[re.Match[str]]:
    if self.holds(words):
        return self.take(pattern)
    found = pattern.search(self.text)
    assert found is None, (f"the guard {words} skipped {found.group(0)!r}, a match of {pattern.pattern[:80]!r}: add "
                           "the word that makes it to the guard")
    return []


@pytest.fixture(autouse=True)
def _guards_never_skip_a_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_Scan, "take_if", _checked_take_if)
