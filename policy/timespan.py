"""Elapsed-time arithmetic on aware datetimes that stays right across daylight-saving changes.

Python subtracts and adds datetimes that share a tzinfo by wall clock, so a week spanning a DST change would be
an hour off; these go through UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

__all__ = ["add_hours", "hours_between", "HOURS_PER_MONTH"]

# A month as AWS bills one: 8,760 h a year / 12
HOURS_PER_MONTH = 730.0


def hours_between(start: datetime, end: datetime) -> float:
    """Elapsed hours from ``start`` to ``end``."""
    return (end.astimezone(UTC) - start.astimezone(UTC)).total_seconds() / 3600.0


def add_hours(moment: datetime, hours: float) -> datetime:
    """``moment`` plus elapsed ``hours``, in ``moment``'s time zone."""
    return (moment.astimezone(UTC) + timedelta(hours=hours)).astimezone(moment.tzinfo)
