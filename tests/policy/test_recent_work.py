"""A decision soon after another of the same work reuses the options the first worked out: its plan is the one a
decision worked out afresh gives, to the cent and the minute, its own deadline is judged, and nothing a caller does
with the options it got reaches the next decision."""

from __future__ import annotations

import sys
import threading
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from policy.catalog import Catalog, load_catalog
from policy.config import default_policy
from policy.decision import Decision
from policy.memo import RECENT_ENTRIES, recent_work
from policy.parse import parse_request
from policy.spend import SpendSnapshot
from policy.tree import decide

TZ = "America/Los_Angeles"
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=ZoneInfo(TZ))  # a Tuesday


def decided(text: str, catalog: Catalog) -> Decision:
    spend = SpendSnapshot.unavailable(team=None, reason="no spend source")
    return decide(parse_request(text, now=NOW, tz=TZ), catalog=catalog, policy=default_policy(), spend=spend,
                  now=NOW)


def afresh() -> Catalog:
    """The shipped catalog with nothing remembered: a copy starts its own memo."""
    return load_catalog().model_copy()


# the same work one after another, with deadlines that change which options meet them, and a start that moves them
SAME_WORK = [
    ["fine-tune 7B on 2B tokens", "fine-tune 7B on 2B tokens by Friday", "fine-tune 7B on 2B tokens in 8 hours",
     "fine-tune 7B on 2B tokens in 30 hours"],
    ["sweep of 20 trials on 350M by Friday", "sweep of 20 trials on 350M in 10 hours", "sweep of 20 trials on 350M"],
    ["pretrain 7B on 64 H100s tomorrow, 100B tokens", "pretrain 7B on 64 H100s, 100B tokens"],
    ["lora 70B on 1B tokens, spot ok", "lora 70B on 1B tokens, spot ok, by Thursday 9am"],
]


@pytest.mark.parametrize("texts", SAME_WORK, ids=[t[0] for t in SAME_WORK])
def test_a_decision_of_the_same_work_plans_as_one_worked_out_afresh(texts: list[str]) -> None:
    shared = afresh()
    for text in texts:  # work seen twice is kept; the deadlines of the later texts are judged on the kept options
        decided(text, shared), decided(text, shared)
    for text in reversed(texts):
        again = decided(text, shared)
        assert again.model_dump() == decided(text, afresh()).model_dump(), text


def test_what_a_caller_changes_in_its_options_never_reaches_the_next_decision() -> None:
    """A later start judges each option's deadline again on the options it was given (``policy.fixed``)."""
    shared = afresh()
    decided("fine-tune 7B on 2B tokens starting Thursday, by Friday", shared)
    later = decided("fine-tune 7B on 2B tokens starting Thursday, by Friday", shared)
    assert later.request.start_after is not None
    now = decided("fine-tune 7B on 2B tokens by Friday", shared)
    assert now.model_dump() == decided("fine-tune 7B on 2B tokens by Friday", afresh()).model_dump()
    assert now.plan.deadline_met


def test_only_the_latest_decisions_are_kept_oldest_first_out() -> None:
    catalog = afresh()
    recent = recent_work(catalog, default_policy().estimate)
    for n in range(RECENT_ENTRIES + 3):
        recent.keep(("work", n), n)
    assert recent.get(("work", 0)) is None and recent.get(("work", 2)) is None
    assert recent.get(("work", 3)) == 3 and recent.get(("work", RECENT_ENTRIES + 2)) == RECENT_ENTRIES + 2


def test_decisions_in_several_threads_share_what_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The service plans in worker threads: entries kept and dropped at once by several never break a decision."""
    import policy.memo

    monkeypatch.setattr(policy.memo, "RECENT_ENTRIES", 2)  # every thread drops what the others kept
    texts = [work[0] for work in SAME_WORK]
    expected = {text: decided(text, afresh()).model_dump() for text in texts}
    shared = afresh()
    failures: list[str] = []

    def decide_all() -> None:
        try:
            for _ in range(8):
                for text in texts:
                    if decided(text, shared).model_dump() != expected[text]:
                        failures.append(text)
        except Exception as exc:  # noqa: BLE001 - an error in any thread is what this test looks for
            failures.append(repr(exc))

    threads = [threading.Thread(target=decide_all) for _ in range(4)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns as often as the interpreter allows
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
