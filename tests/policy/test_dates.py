"""Deadline phrases against fixed clocks: which day and time each one means, and what the notes say."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policy.dates import find_deadlines, zone_of
from policy.errors import RequestError

LA = ZoneInfo("America/Los_Angeles")
MONDAY = datetime(2026, 11, 30, 9, 0, tzinfo=LA)
FRIDAY_MORNING = datetime(2026, 12, 4, 8, 0, tzinfo=LA)
FRIDAY_EVENING = datetime(2026, 12, 4, 18, 30, tzinfo=LA)
SATURDAY = datetime(2026, 12, 5, 11, 0, tzinfo=LA)
SUNDAY = datetime(2026, 12, 6, 10, 0, tzinfo=LA)
MONTH_END_EVENING = datetime(2026, 11, 30, 18, 0, tzinfo=LA)
YEAR_END_EVENING = datetime(2026, 12, 31, 20, 0, tzinfo=LA)
MID_JANUARY = datetime(2027, 1, 10, 9, 0, tzinfo=LA)  # January 2027 ends on a Sunday
BEFORE_DST_END = datetime(2026, 10, 31, 12, 0, tzinfo=LA)  # clocks go back at 02:00 on Sun 2026-11-01
TUESDAY = datetime(2026, 12, 1, 10, 0, tzinfo=LA)  # December and Q4 have started

# (phrase, now, expected deadline as ISO 8601 in the requester's zone unless the phrase names another)
READINGS: list[tuple[str, datetime, str]] = [
    ("by Friday", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("by friday", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("by Fri", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("by Friday 3pm", MONDAY, "2026-12-04T15:00:00-08:00"),
    ("by Friday at 3 p.m.", MONDAY, "2026-12-04T15:00:00-08:00"),
    ("by 3pm Friday", MONDAY, "2026-12-04T15:00:00-08:00"),
    ("by Friday 15:30", MONDAY, "2026-12-04T15:30:00-08:00"),
    ("EOD Thursday", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("Thursday EOD", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("COB Wednesday", MONDAY, "2026-12-02T17:00:00-08:00"),
    ("end of day Friday", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("by end of business tomorrow", MONDAY, "2026-12-01T17:00:00-08:00"),
    # a date as Europe writes it, and the year first with slashes or dots
    ("deadline 12.12.2026", MONDAY, "2026-12-12T17:00:00-08:00"),
    ("due 09.12.2026", MONDAY, "2026-12-09T17:00:00-08:00"),
    ("due 2026/12/09", MONDAY, "2026-12-09T17:00:00-08:00"),
    ("by 2026.12.09", MONDAY, "2026-12-09T17:00:00-08:00"),
    # without the year, closed by its dot after a word that makes it a date: the next such day
    ("by 04.12.", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("deadline 24.12.", MONDAY, "2026-12-24T17:00:00-08:00"),
    # minutes, exactly as hours are
    ("done within 90 minutes", MONDAY, "2026-11-30T10:30:00-08:00"),
    ("in 45 min", MONDAY, "2026-11-30T09:45:00-08:00"),
    ("90 minutes max", MONDAY, "2026-11-30T10:30:00-08:00"),
    ("by EOD", MONDAY, "2026-11-30T17:00:00-08:00"),
    ("by tomorrow 9am", MONDAY, "2026-12-01T09:00:00-08:00"),
    ("by 9am tomorrow", MONDAY, "2026-12-01T09:00:00-08:00"),
    ("by tomorrow", MONDAY, "2026-12-01T17:00:00-08:00"),
    ("tomorrow morning", MONDAY, "2026-12-01T09:00:00-08:00"),
    ("by noon tomorrow", MONDAY, "2026-12-01T12:00:00-08:00"),
    ("the day after tomorrow", MONDAY, "2026-12-02T17:00:00-08:00"),
    ("by tonight", MONDAY, "2026-11-30T23:59:00-08:00"),
    ("by 3pm", MONDAY, "2026-11-30T15:00:00-08:00"),
    ("by 8am", MONDAY, "2026-12-01T08:00:00-08:00"),  # today's 08:00 has passed
    ("in 3 days", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("within 2 weeks", MONDAY, "2026-12-14T17:00:00-08:00"),
    # any count below 100 in words ("in ten days" was unread, "deadline in ten days" refused)
    ("within ten days", MONDAY, "2026-12-10T17:00:00-08:00"),
    ("deadline in eight days", MONDAY, "2026-12-08T17:00:00-08:00"),
    ("in twenty-one days", MONDAY, "2026-12-21T17:00:00-08:00"),
    ("in twelve hours", MONDAY, "2026-11-30T21:00:00-08:00"),
    ("in a week", MONDAY, "2026-12-07T17:00:00-08:00"),
    ("in a couple of days", MONDAY, "2026-12-02T17:00:00-08:00"),
    ("in 3 business days", FRIDAY_MORNING, "2026-12-09T17:00:00-08:00"),
    ("in 48 hours", MONDAY, "2026-12-02T09:00:00-08:00"),
    ("in 36h", MONDAY, "2026-12-01T21:00:00-08:00"),
    ("in 24 hours", BEFORE_DST_END, "2026-11-01T11:00:00-08:00"),  # 24 real hours across the clock change
    ("in 2 months", MONDAY, "2027-01-30T17:00:00-08:00"),
    ("5 days from now", MONDAY, "2026-12-05T17:00:00-08:00"),
    ("by 2026-12-15", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("by 2026-12-15 14:00", MONDAY, "2026-12-15T14:00:00-08:00"),
    ("by 2026-12-15T14:00Z", MONDAY, "2026-12-15T14:00:00+00:00"),
    ("by Dec 15", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("by December 15th", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("by 15 Dec", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("by the 15th of December", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("before Dec 2nd, 2026", MONDAY, "2026-12-01T17:00:00-08:00"),
    ("by Jan 5", YEAR_END_EVENING, "2027-01-05T17:00:00-08:00"),
    ("by Mar 1", MONDAY, "2027-03-01T17:00:00-08:00"),
    ("by 12/24", MONDAY, "2026-12-24T17:00:00-08:00"),
    ("by the 15th", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("by the 31st", MONDAY, "2026-12-31T17:00:00-08:00"),
    # a day of the month without its article, after a deadline's word
    ("needs to finish by 15th", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("due 3rd", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("by 1st", MONDAY, "2026-12-01T17:00:00-08:00"),  # said on Nov 30: the coming 1st
    ("by Dec 15 at noon ET", MONDAY, "2026-12-15T12:00:00-05:00"),
    ("by Friday 5pm UTC", MONDAY, "2026-12-04T17:00:00+00:00"),
    # a week of a month: the end of its Nth seven days ("the 3rd" there is no day)
    ("by the 3rd week of December", MONDAY, "2026-12-21T17:00:00-08:00"),
    ("by the first week of january", MONDAY, "2027-01-07T17:00:00-08:00"),
    ("by the last week of January", MONDAY, "2027-01-31T17:00:00-08:00"),
    # ISO 8601, as a script or a copied timestamp writes it: seconds and the UTC designator
    ("by 2026-12-31T23:59:00Z", MONDAY, "2026-12-31T23:59:00+00:00"),
    ("by 2026-12-31 23:59:30 UTC", MONDAY, "2026-12-31T23:59:00+00:00"),
    ("by 2026-12-31T18:00", MONDAY, "2026-12-31T18:00:00-08:00"),
    ("by end of week", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("by EOW", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("by end of week", SATURDAY, "2026-12-11T17:00:00-08:00"),  # this week's Friday is gone: next week's
    ("by end of next week", MONDAY, "2026-12-11T17:00:00-08:00"),
    ("by end of month", MONDAY, "2026-11-30T17:00:00-08:00"),
    ("by the end of the month", MONDAY, "2026-11-30T17:00:00-08:00"),
    ("by EOM", MONDAY, "2026-11-30T17:00:00-08:00"),
    ("by end of month", MONTH_END_EVENING, "2026-12-31T17:00:00-08:00"),
    ("by end of month", MID_JANUARY, "2027-01-31T17:00:00-08:00"),
    ("end of next month", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by end of quarter", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by end of year", YEAR_END_EVENING, "2027-12-31T17:00:00-08:00"),
    ("by Friday", FRIDAY_MORNING, "2026-12-04T17:00:00-08:00"),  # today, still ahead
    ("by Friday", FRIDAY_EVENING, "2026-12-11T17:00:00-08:00"),  # today's 17:00 has passed
    ("by this Friday", SUNDAY, "2026-12-11T17:00:00-08:00"),  # the coming one, never the past one
    ("by Friday", SUNDAY, "2026-12-11T17:00:00-08:00"),
    ("by Monday", SUNDAY, "2026-12-07T17:00:00-08:00"),
    ("by next Tuesday", MONDAY, "2026-12-08T17:00:00-08:00"),
    ("by Tuesday", MONDAY, "2026-12-01T17:00:00-08:00"),
    ("by next Monday", FRIDAY_EVENING, "2026-12-07T17:00:00-08:00"),
    ("Tuesday next week", MONDAY, "2026-12-08T17:00:00-08:00"),
    ("by Tuesday of next week", MONDAY, "2026-12-08T17:00:00-08:00"),
    ("Thursday of this week", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("by next Tuesday", SUNDAY, "2026-12-08T17:00:00-08:00"),  # Sunday ends the week: next week starts tomorrow
    ("by next Tuesday", YEAR_END_EVENING, "2027-01-05T17:00:00-08:00"),
    ("in 2 months", YEAR_END_EVENING, "2027-02-28T17:00:00-08:00"),  # no Feb 31: the month's last day
    ("by next Friday 5pm", MONDAY, "2026-12-11T17:00:00-08:00"),
    ("by Monday", YEAR_END_EVENING, "2027-01-04T17:00:00-08:00"),
    ("by last Friday", MONDAY, "2026-11-27T17:00:00-08:00"),  # read, and left to the caller to refuse
    ("by yesterday", MONDAY, "2026-11-29T17:00:00-08:00"),
    ("due Friday", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("deadline: Friday", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("no later than Thursday noon", MONDAY, "2026-12-03T12:00:00-08:00"),
    ("need it Wednesday", MONDAY, "2026-12-02T17:00:00-08:00"),
    ("before Friday", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("before Friday 3pm", MONDAY, "2026-12-04T15:00:00-08:00"),
    # said on a Monday, "before Monday" is next week's, ready the day before it: today's has come
    ("before Monday", MONDAY, "2026-12-06T17:00:00-08:00"),
    ("for Monday's standup", MONDAY, "2026-12-06T17:00:00-08:00"),
    ("before Tuesday", MONDAY, "2026-11-30T17:00:00-08:00"),
    ("before end of month", MONDAY, "2026-11-30T17:00:00-08:00"),
    # "in the next N <unit>", "within the next N <unit>": a deadline N ahead, read as "in N <unit>"
    ("in the next 48 hours", MONDAY, "2026-12-02T09:00:00-08:00"),
    ("within the next 36h", MONDAY, "2026-12-01T21:00:00-08:00"),
    ("over the next 3 days", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("in the next couple of days", MONDAY, "2026-12-02T17:00:00-08:00"),
    ("in the coming week", MONDAY, "2026-12-07T17:00:00-08:00"),
    ("within the next 2 weeks", MONDAY, "2026-12-14T17:00:00-08:00"),
    # the weekend: done when the working week starts; "by the weekend" before it starts
    ("over the weekend", MONDAY, "2026-12-07T09:00:00-08:00"),
    ("during the weekend", FRIDAY_EVENING, "2026-12-07T09:00:00-08:00"),
    ("this weekend", SATURDAY, "2026-12-07T09:00:00-08:00"),  # the weekend in progress
    ("over next weekend", MONDAY, "2026-12-14T09:00:00-08:00"),
    ("by the weekend", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("before the weekend", MONDAY, "2026-12-04T17:00:00-08:00"),  # not the day before: the weekend has no 17:00
    ("by the weekend", SATURDAY, "2026-12-07T09:00:00-08:00"),  # it has started: its end
    ("by the end of the weekend", MONDAY, "2026-12-07T09:00:00-08:00"),
    # a day within a month, quarter or half: the next one ahead
    ("by end of february", MONDAY, "2027-02-28T17:00:00-08:00"),
    ("by the end of Feb", MONDAY, "2027-02-28T17:00:00-08:00"),
    ("by feb end", MONDAY, "2027-02-28T17:00:00-08:00"),
    ("by mid-january", MONDAY, "2027-01-15T17:00:00-08:00"),
    ("by the middle of Jan", MONDAY, "2027-01-15T17:00:00-08:00"),
    ("by mid December", MONDAY, "2026-12-15T17:00:00-08:00"),
    ("by early march", MONDAY, "2027-03-10T17:00:00-08:00"),
    ("by late March", MONDAY, "2027-03-31T17:00:00-07:00"),
    ("by the start of April", MONDAY, "2027-04-01T09:00:00-07:00"),
    ("by end of June 2028", MONDAY, "2028-06-30T17:00:00-07:00"),
    ("by end of november", MONTH_END_EVENING, "2027-11-30T17:00:00-08:00"),  # today's 17:00 passed: a year on
    ("by end of Q1", MONDAY, "2027-03-31T17:00:00-07:00"),
    ("by Q2 end", MONDAY, "2027-06-30T17:00:00-07:00"),
    ("by end of Q4 2026", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by the end of H1", MONDAY, "2027-06-30T17:00:00-07:00"),
    ("by mid-month", MONDAY, "2026-12-15T17:00:00-08:00"),  # this month's 15th is past
    ("by mid-month", MID_JANUARY, "2027-01-15T17:00:00-08:00"),
    ("by early next month", MONDAY, "2026-12-10T17:00:00-08:00"),
    ("by the end of next month", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by the end of the year", MONDAY, "2026-12-31T17:00:00-08:00"),
    # a month, quarter or half alone: before it starts (the earlier reading), its end once it has started
    ("by June", MONDAY, "2027-05-31T17:00:00-07:00"),
    ("by june 2028", MONDAY, "2028-05-31T17:00:00-07:00"),
    ("before June", MONDAY, "2027-05-31T17:00:00-07:00"),
    ("due March", MONDAY, "2027-02-28T17:00:00-08:00"),
    ("by may", MONDAY, "2027-04-30T17:00:00-07:00"),
    ("by December", MONDAY, "2026-11-30T17:00:00-08:00"),
    ("by December", TUESDAY, "2026-12-31T17:00:00-08:00"),  # December has started: its end
    ("by November", TUESDAY, "2027-10-31T17:00:00-07:00"),  # November has ended: next year's
    ("by Q1", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by Q1 2027", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by Q4", TUESDAY, "2026-12-31T17:00:00-08:00"),
    ("by H2 2027", MONDAY, "2027-06-30T17:00:00-07:00"),
    # holidays: before the day starts, 17:00 the day before
    ("by Christmas", MONDAY, "2026-12-24T17:00:00-08:00"),
    ("by xmas", MONDAY, "2026-12-24T17:00:00-08:00"),
    ("before Christmas", MONDAY, "2026-12-24T17:00:00-08:00"),
    ("by Christmas", YEAR_END_EVENING, "2027-12-24T17:00:00-08:00"),
    ("by Christmas Eve", MONDAY, "2026-12-23T17:00:00-08:00"),
    ("by Christmas Eve 3pm", MONDAY, "2026-12-24T15:00:00-08:00"),  # a time given: that time on the day
    ("by NYE", MONDAY, "2026-12-30T17:00:00-08:00"),
    ("by New Year's", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by the new year", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("by Thanksgiving", BEFORE_DST_END, "2026-11-25T17:00:00-08:00"),  # the fourth Thursday of November
    ("by Thanksgiving", MONDAY, "2027-11-24T17:00:00-08:00"),
    # "from now" and "time" add nothing to "in N days"
    ("in 2 days from now", MONDAY, "2026-12-02T17:00:00-08:00"),
    ("a week from today", MONDAY, "2026-12-07T17:00:00-08:00"),
    ("in 3 days' time", MONDAY, "2026-12-03T17:00:00-08:00"),
    # the words that say how firm a date is, and what is wanted by then, belong to the phrase
    ("need results by 9am tomorrow", MONDAY, "2026-12-01T09:00:00-08:00"),
    ("by Friday at the latest", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("Friday is the hard deadline", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("Fri is the deadline", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("hard deadline: Friday", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("ideally by Thursday", MONDAY, "2026-12-03T17:00:00-08:00"),
    # "can wait till" is the trigger; "this time"/"same time" before a day is the clock time it is now
    ("it can wait till Friday", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("by this time tomorrow", MONDAY, "2026-12-01T09:00:00-08:00"),
    ("same time Friday", MONDAY, "2026-12-04T09:00:00-08:00"),
    ("ETA thursday", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("for the NeurIPS deadline (May 15)", MONDAY, "2027-05-15T17:00:00-07:00"),  # the name read with its date
    # away from a day: ready the day before, as "before I leave on Friday"
    ("I'm OOO from Dec 20 so must finish before", MONDAY, "2026-12-19T17:00:00-08:00"),
    ("we're off starting Friday", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("have it ready first thing tomorrow", MONDAY, "2026-12-01T09:00:00-08:00"),
    ("it has to be done before I present on Thursday at 2pm", MONDAY, "2026-12-03T14:00:00-08:00"),
    ("before the quarter closes", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("we need it back by the 3rd", MONDAY, "2026-12-03T17:00:00-08:00"),
    ("in time for the Jan 5 offsite", MONDAY, "2027-01-04T17:00:00-08:00"),  # ready the day before the event
    ("latest finish Thu 6pm PT", MONDAY, "2026-12-03T18:00:00-08:00"),
    ("by 15/12", MONDAY, "2026-12-15T17:00:00-08:00"),  # no month 15: day/month
    # a weekday with its date after it is that date, one deadline (said in the week of Fri Dec 4, "by Fri" was Dec 4
    # and "Dec 11" a second deadline, the earlier taken)
    ("Hard deadline Fri 12/11 noon PT", MONDAY, "2026-12-11T12:00:00-08:00"),
    ("by Friday, December 11", MONDAY, "2026-12-11T17:00:00-08:00"),
    ("by Friday Dec 11th", MONDAY, "2026-12-11T17:00:00-08:00"),
    ("by Friday the 11th", MONDAY, "2026-12-11T17:00:00-08:00"),
    ("by Friday, Dec 4", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("before 9am Monday the 7th", MONDAY, "2026-12-07T09:00:00-08:00"),  # the time first, the day of the month last
    # as written in a hurry: "wk", "wks", "hrs"; and this quarter, as this week and this month
    ("by end of next wk", MONDAY, "2026-12-11T17:00:00-08:00"),
    ("by end of wk", MONDAY, "2026-12-04T17:00:00-08:00"),
    ("2 wks max", MONDAY, "2026-12-14T17:00:00-08:00"),
    ("10 hrs max", MONDAY, "2026-11-30T19:00:00-08:00"),
    ("must be done this quarter", MONDAY, "2026-12-31T17:00:00-08:00"),
    ("this quarter within budget", MONDAY, "2026-12-31T17:00:00-08:00"),
    # a weekday the date is not: the earlier of the two, noted
    ("by Thursday Dec 11", MONDAY, "2026-12-10T17:00:00-08:00"),
    # a city's time said between the clock and its day: that city's (it was Pacific, 'London' left unread)
    ("by 9am London Tuesday", MONDAY, "2026-12-01T09:00:00+00:00"),
    ("by 5pm Berlin on Thursday", MONDAY, "2026-12-03T17:00:00+01:00"),
]


@pytest.mark.parametrize(("phrase", "now", "expected"), READINGS)
def test_phrase_reads_as(phrase: str, now: datetime, expected: str) -> None:
    (deadline,) = find_deadlines(phrase, now=now, zone=LA)
    assert deadline.when.isoformat() == expected
    assert deadline.when.tzinfo is not None


# (phrase, now, words the notes must contain)
NOTES: list[tuple[str, datetime, str]] = [
    ("by Friday", MONDAY, "read 'by Friday' as Fri 2026-12-04 17:00 America/Los_Angeles"),
    ("by Thursday Dec 11", MONDAY, "read 'by Thursday Dec 11' as Thu 2026-12-10 17:00 America/Los_Angeles (Dec 11 is "
     "a Friday, not a Thursday: the earlier of the two)"),
    ("by next Tuesday", MONDAY, "took Tuesday 2026-12-08 for 'next Tuesday'"),
    ("by end of month", MID_JANUARY, "falls on a Sunday; kept the calendar day 2027-01-31"),
    ("by end of month", MONTH_END_EVENING, "the end of this month has passed"),
    ("by Friday", FRIDAY_EVENING, "took Friday 2026-12-11"),
    ("by 12/24", MONDAY, "month/day"),
    ("by 15/12", MONDAY, "read '15/12' as day/month (there is no month 15)"),
    ("by Mar 1", MONDAY, "took 2027"),
    ("before Friday", MONDAY, "read 'before Friday' as by Thursday 17:00"),
    ("before Monday", MONDAY, "took Monday 2026-12-07 for the Monday said: today's has come"),
    # POSIX's "Etc/GMT+12" reads as the opposite sign: the note names the offset as a person does
    ("by Jan 15 AoE", MONDAY, "read 'by Jan 15 AoE' as Fri 2027-01-15 17:00 UTC-12 (Anywhere on Earth)"),
    ("before Jan 15", MONDAY, "read 'before Jan 15' as by Thursday 17:00"),  # the day as said, not its weekday
    ("over the weekend", MONDAY, "as done when the working week starts: Mon 2026-12-07 09:00"),
    ("by the weekend", MONDAY, "as before it starts: Fri 2026-12-04 17:00"),
    ("by early march", MONDAY, "as the end of its first third: Wed 2027-03-10"),
    ("by end of february", MONDAY, "took February 2027, the next one ahead"),
    ("by end of february", MONDAY, "falls on a Sunday; kept the calendar day 2027-02-28"),
    ("by end of november", MONTH_END_EVENING, "November 2026's day has passed today"),
    ("by June", MONDAY, "read 'June' as before June 2027 starts: by Mon 2027-05-31 17:00, the earlier reading"),
    ("by December", TUESDAY, "December 2026 has started: read 'December' as by its last day, Thu 2026-12-31 17:00"),
    ("before June", MONDAY, "read 'before June' as by the day before June 2027 starts"),
    ("by Christmas", MONDAY, "as before Christmas Day (Fri 2026-12-25) starts: by the day before, 17:00"),
    ("by Thanksgiving", BEFORE_DST_END, "before US Thanksgiving (Thu 2026-11-26) starts"),
    ("by Christmas", YEAR_END_EVENING, "took Christmas Day 2027, the next one ahead"),
]

@pytest.mark.parametrize(("phrase", "now", "note"), NOTES)
def test_interpretation_is_noted(phrase: str, now: datetime, note: str) -> None:
    (deadline,) = find_deadlines(phrase, now=now, zone=LA)
    assert any(note in n for n in deadline.notes), deadline.notes


# (text, how firm its words say the date is, the words the deadline takes)
FIRMNESS: list[tuple[str, str | None, str]] = [
    ("fine-tune 7B by Friday", None, "by Friday"),
    ("fine-tune 7B ideally by Thursday", "wish", "ideally by Thursday"),
    ("fine-tune 7B, preferably Friday", "wish", "preferably Friday"),
    ("nice to have it by Monday", "wish", "nice to have it by Monday"),
    ("fine-tune 7B by Friday if possible", "wish", "by Friday if possible"),
    ("fine-tune 7B, soft deadline Friday", "wish", "soft deadline Friday"),
    ("fine-tune 7B, ideally done by Friday", "wish", "ideally done by Friday"),
    ("fine-tune 7B by Friday at the latest", "hard", "by Friday at the latest"),
    ("fine-tune 7B, must be done by Friday", "hard", "must be done by Friday"),
    ("fine-tune 7B, must finish before Friday", "hard", "must finish before Friday"),
    ("fine-tune 7B, has to finish by Friday", "hard", "has to finish by Friday"),
    ("fine-tune 7B, needs to be done by Friday", "hard", "needs to be done by Friday"),
    ("fine-tune 7B, hard deadline is Friday 3pm", "hard", "hard deadline is Friday 3pm"),
    ("but Friday is the hard deadline", "hard", "Friday is the hard deadline"),
    ("we need results by 9am tomorrow", None, "need results by 9am tomorrow"),
    ("want the numbers before Friday", None, "want the numbers before Friday"),
    ("fine-tune 7B, results by Friday", None, "results by Friday"),
    ("fine-tune 7B on 1B tokens, ETA needed by Friday", None, "ETA needed by Friday"),
    ("Mistral 7B, 20B tokens. Target completion: Friday.", "wish", "Target completion: Friday"),
    ("fine-tune 7B, target finish date is Friday", "wish", "target finish date is Friday"),
]


@pytest.mark.parametrize(("text", "firmness", "said"), FIRMNESS)
def test_the_words_around_a_date_say_how_firm_it_is(text: str, firmness: str | None, said: str) -> None:
    (deadline,) = find_deadlines(text, now=MONDAY, zone=LA)
    assert (deadline.firmness, text[deadline.start : deadline.end]) == (firmness, said)


@pytest.mark.parametrize(("phrase", "now", "readings"), [
    ("by June", MONDAY, ["2027-05-31T17:00:00-07:00", "2027-06-30T17:00:00-07:00"]),
    ("by Q1", MONDAY, ["2026-12-31T17:00:00-08:00", "2027-03-31T17:00:00-07:00"]),
    ("by December", TUESDAY, []),  # it has started: only its end is left
    ("before June", MONDAY, []),
    ("by end of June", MONDAY, []),
    ("by Christmas", MONDAY, []),
])
def test_a_month_or_quarter_alone_keeps_both_readings(phrase: str, now: datetime, readings: list[str]) -> None:
    (deadline,) = find_deadlines(phrase, now=now, zone=LA)
    assert [when.isoformat() for _, when in deadline.choices] == readings


# Text that holds no deadline: words that look like dates only after a trigger, and "by" that is no deadline.
NOT_DEADLINES = [
    "fine-tune 7B",
    "like the run we did last Friday",
    "grouped by model size",
    "by using LoRA",
    "improve loss by 10%",
    "speed it up by 2x",
    "run by team-nlp",
    "llama-3 8b on 8xH100 in us-west-2",
    "seq len 32768",
    "a 16:9 image model",
    "train until convergence",
    "before the production run",
    "like the run we did last weekend",
    "the weekend crew reruns it",  # "the weekend" with no trigger or "over"/"this": listed as unread instead
    "for the next 48 hours",  # a length ("8 H100 for the next 48 hours"), not a deadline
    "a mid-size model",
    "fine-tune 7B in March",  # a month with no trigger may be a start: listed as unread
    "the christmas party photos",
    "deadline is not strict",
    "the deadline is flexible",
    "fine-tune 7B, the holidays are coming",  # "the holidays" with no trigger or "over": listed as unread
    "fine-tune 7B before the break",  # which break is not said
    "but in us-west-2 this time",  # said against an earlier run, with no day after it
    "the 2nd run of the sweep",  # an ordinal with no deadline's word before it is no day
    "on 4th gen hardware",
]


@pytest.mark.parametrize("text", NOT_DEADLINES)
def test_no_deadline_in(text: str) -> None:
    assert find_deadlines(text, now=MONDAY, zone=LA) == []


UNREADABLE = [
    "by the blue moon",
    "by next week",
    "by Feb 30",
    "by 2026-13-45",
    "by 13pm Friday",
    "in 0 days",
    "in 999999 hours",
    "by mid jan 0000",
    "deadline may slip",  # "may" followed by a verb is no month
]


@pytest.mark.parametrize("text", UNREADABLE)
def test_unreadable_deadline_is_refused(text: str) -> None:
    with pytest.raises(RequestError) as caught:
        find_deadlines(text, now=MONDAY, zone=LA)
    assert caught.value.code == "unparseable_deadline"
    assert "by Friday" in caught.value.message  # says what to type instead


@pytest.mark.parametrize(("phrase", "recurs"), [("by end of february", "year"), ("by end of Q1", "year"),
                                               ("by mid-month", "month"), ("by early next month", None),
                                               ("by end of month", None), ("over the weekend", None)])
def test_a_day_within_a_named_period_says_how_often_it_comes_round(phrase: str, recurs: str | None) -> None:
    (deadline,) = find_deadlines(phrase, now=MONDAY, zone=LA)
    assert deadline.recurs == recurs


def test_phrase_span_covers_trigger_and_time() -> None:
    text = "fine-tune 7B by Friday 3pm PT, spot ok"
    (deadline,) = find_deadlines(text, now=MONDAY, zone=LA)
    assert text[deadline.start : deadline.end] == "by Friday 3pm PT"


@pytest.mark.parametrize(("text", "phrase"), [
    ("pretrain 1B on 20B tokens, deadline (May 15)", "deadline (May 15)"),
    ("fine-tune 7B, due (Friday), spot ok", "due (Friday)"),
])
def test_a_date_in_parentheses_after_its_trigger_is_the_deadline(text: str, phrase: str) -> None:
    (deadline,) = find_deadlines(text, now=MONDAY, zone=LA)
    assert text[deadline.start : deadline.end] == phrase


@pytest.mark.parametrize("name", ["Mars/Olympus_Mons", "", "../../etc/passwd", "America/Los_Angeles\x00"])
def test_unknown_zone_is_a_request_error(name: str) -> None:
    with pytest.raises(RequestError) as caught:
        zone_of(name)
    assert caught.value.code == "unknown_timezone"


@given(name=st.text(max_size=80))
def test_any_zone_name_is_a_zone_or_a_request_error(name: str) -> None:
    try:
        zone = zone_of(name)
    except RequestError as exc:
        assert exc.code == "unknown_timezone"
    else:
        assert isinstance(zone, ZoneInfo)


@pytest.mark.parametrize(("text", "day", "wish"), [
    ("fine-tune 7B by Friday, but Thursday would be better", 4, "Thursday would be better"),
    ("fine-tune 7B by Friday, Thursday would be ideal", 4, "Thursday would be ideal"),
    ("fine-tune 7B by Friday or sooner", 4, None),
])
def test_a_date_hoped_for_beside_the_deadline_gives_way_to_it(text: str, day: int, wish: str | None) -> None:
    found = find_deadlines(text, now=MONDAY, zone=LA)
    firm = [d for d in found if d.firmness != "wish"]
    assert [d.when.day for d in firm] == [day]
    assert [d.phrase for d in found if d.firmness == "wish"] == ([wish] if wish else [])
