"""Filing reads the account's capacity before it reads the team's ledger: the ledger is read under the write lock,
and AWS calls under it would hold every other filing back for their whole round trip."""

from __future__ import annotations

from datetime import UTC, datetime

from policy.capacity import CapacityView
from policy.catalog import load_catalog
from policy.config import default_policy
from policy.decision import Decision
from policy.spend import Ledger
from service.planning import PlanContext, Planner
from service.spend.providers import SampleSpend, sample_spend_path

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)


class RecordingCapacity:
    """An account whose reads note what had happened by then."""

    blocks = False

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def upfront(self) -> None:
        return None

    def view_for(self, decision: Decision, *, now: datetime, known: CapacityView | None = None) -> CapacityView:
        self.events.append("capacity read")
        return CapacityView(known=True, as_of=now)

    def view_of(self, *, instance_type: str, count: int, regions: list[str], now: datetime) -> CapacityView:
        return CapacityView(known=True, as_of=now)


def test_filing_reads_capacity_before_the_ledger_and_decides_with_what_it_read() -> None:
    events: list[str] = []
    planner = Planner(catalog=load_catalog(), policy=default_policy(), spend=SampleSpend(sample_spend_path()),
                      capacity=RecordingCapacity(events))

    def ledger(team: str) -> Ledger:
        events.append("ledger read")
        return Ledger()

    context = planner.ask_or_plan(text="fine-tune 7B on 1B tokens", fields={}, timezone="UTC", now=NOW, ledger=ledger)
    assert isinstance(context, PlanContext)
    assert events[-1] == "ledger read" and "capacity read" in events
    assert context.decision.plan.capacity is not None  # the plan carries the view read before the lock
    preview: list[str] = []
    Planner(catalog=load_catalog(), policy=default_policy(), spend=SampleSpend(sample_spend_path()),
            capacity=RecordingCapacity(preview)).ask_or_plan(text="fine-tune 7B on 1B tokens", fields={},
                                                             timezone="UTC", now=NOW)
    assert preview.count("capacity read") == events.count("capacity read")  # no extra AWS reads for filing
