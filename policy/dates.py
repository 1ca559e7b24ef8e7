"""Deadline phrases in free text ("by Friday 3pm", "EOD Thursday", "in 3 days", "by Dec 15") → aware datetimes.

A small deterministic grammar on the standard library (re, datetime, zoneinfo, calendar). The general date
libraries either missed forms people type in chat ("end of month", "EOD Thursday") or sent "this Friday" into the
past, and the best of them costs ~120 ms to import and warm up, a tenth of the CLI's whole time budget.

Rules (all in the requester's zone, relative to ``now``):
- A day without a time means 17:00 (end of the business day); "EOD"/"COB" is 17:00, "noon" 12:00, "morning" 09:00,
  "evening" 18:00, "tonight", "night" ("Sunday night") and "midnight" 23:59 of that day; "overnight" 09:00 the next
  morning.
- A bare or "this"/"coming" weekday is the next one whose time is still ahead (today counts until its time passes).
- "next <weekday>" is that weekday in next calendar week (weeks start on Monday): said on Mon 2026-11-30,
  "next Tuesday" is 2026-12-08 and "Tuesday" is 2026-12-01. Every reading is stated in a note.
- "last <weekday>" and "yesterday" are in the past; they count only after a trigger word ("by last Friday").
- "end of week" is Friday 17:00 of this week, "end of month" the month's last calendar day 17:00 (even on a weekend),
  "end of quarter"/"end of year" likewise; one already past rolls to the next, with a note.
- "in N days/weeks/months" is a calendar day at 17:00; "in N hours" is exactly N hours from now. "in the next N
  <unit>", "within the next N <unit>" and "over the next N <unit>" read the same ("in the next week": N is 1), and
  so do "in N days from now", "in N days' time" and "N days from today".
- "over the weekend", "this weekend", "during the weekend": done when the working week starts again, Monday 09:00
  (the weekend in progress if said on one; "next weekend" the one in next calendar week). "by the weekend" is before
  it starts, Friday 17:00 (Monday 09:00 once it has started), and so is work for an event on it, "for a hackathon
  this weekend"; "by the end of the weekend" is Monday 09:00.
- A month by name, "end of February" or "late March", is its last day 17:00 (late: the month's last third, which
  ends with it); "early March" the 10th (the end of its first third); "mid-January" the 15th; "start"/"beginning of
  March" the 1st 09:00. "mid-month", "early/late next month" likewise. "end of Q1"/"end of H1" is the calendar
  quarter's or half's last day. Each is the next one still ahead (a year on, or a month on for "this month"), with
  a note when it rolled.
- A month, quarter or half alone after a trigger ("by June", "by Q1", "due H2 2027") may mean before it starts or by
  its end: the earlier, 17:00 on the day before it starts, is taken (it misses no deadline), both readings are kept
  for ``policy.questions`` to ask when they lie far apart, and the note says how to ask for the end. Once it has
  started, its last day. "before June" is the day before it starts. A past one is next year's.
- A holiday after a trigger ("by Christmas", "before Thanksgiving", "by NYE") is due before it starts, 17:00 the day
  before (as "by the weekend" is Friday 17:00), or at the time given on the day itself; this year's or, once past,
  next year's. Christmas Eve and Day, New Year's Eve and Day, Halloween, and US Thanksgiving (the fourth Thursday of
  November). The year-end break ("the holidays", "the winter break") after a trigger is due before Christmas Eve,
  17:00 on Dec 23, the earlier reading; "over the holidays" is done when work starts again, 09:00 on the first
  weekday after New Year's Day (as "over the weekend" is Monday 09:00).
- "ideally", "preferably", "if possible", "nice to have by", "soft/target deadline" mark a wish; "hard deadline",
  "at the latest", "must be done by", "has to finish by", "<day> is the hard deadline" the hard one
  (``Deadline.firmness``; ``policy.parse`` lets a wish give way to any other date). Those words, "need results by"
  and the like are part of the phrase, so they are read with it ("results needed in two weeks" too).
- "before <day>" without a time is 17:00 the day before: the earlier reading, so a plan never lands late. So is
  "before the board meeting on Dec 10": an event that day, its time not said, and "for the customer launch on the
  15th": work wanted for an event is ready the day before (at the time given, when one is). Only "on the 15th" is
  that phrase when the event's words also say the stage ("customer", "launch"), so the stage reader still reads them.
  Said on the weekday it names ("before Monday", "for Monday's standup" on a Monday), it is next week's: today's
  has come, so there is no day before it left to be ready by.
- A month and day without a year is this year's, or next year's when this year's passed more than 31 days ago.
This module only reads dates; whether a deadline lies in the past is the caller's check.
"""

from __future__ import annotations

import calendar
import difflib
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from policy.errors import RequestError
from policy.patterns import compiled_on_use
from policy.spelled import BELOW_100, VAGUE_COUNTS, below_100

__all__ = ["AWAY_FROM", "day_month_reading", "Deadline", "EOD", "find_deadlines", "MONTH", "month_start", "NAMED_SPAN",
           "OCCASION_RE", "OCCASION_WORDS", "RUN_STOP", "working_day", "zone_of"]

_F = re.IGNORECASE | re.ASCII
EOD = time(17, 0)
_LATE = time(23, 59)
_START_OF_DAY = time(9, 0)
_MAX_AHEAD = timedelta(days=3660)
_RECENT_PAST_DAYS = 31

_WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
_WEEKDAY = r"mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday|s)?|thu(?:rs?(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?"
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_MONTH = (
    r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?"
)
MONTH = _MONTH  # a month's name or abbreviation, as a pattern fragment


def month_start(name: str, *, now: datetime, zone: ZoneInfo) -> datetime:
    """The next start of the month ``name`` names ("January", "jan"), 09:00 in ``zone``; the current month's is
    ``now``: it has started."""
    local = now.astimezone(zone)
    month = _MONTHS[name[:3].lower()]
    if month == local.month:
        return local
    year = local.year + (month < local.month)
    return datetime.combine(date(year, month, 1), _START_OF_DAY, tzinfo=zone)


_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
_NUMBER_WORDS |= {f"{a}{word}{of}": n for word, n in VAGUE_COUNTS.items() for a in ("", "a ") for of in ("", " of")}
# "in ten days", "within twenty-one days": any count below 100 in words
_COUNT = rf"\d{{1,6}}|an?|{BELOW_100}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few"
_UNIT = r"(?P<ru>hours?|hrs?|h|min(?:ute)?s?|(?:business|working)\s+days?|days?|d|weeks?|wks?|w|fortnights?|months?)"

_TIME = (
    r"(?P<h>\d{1,2})(?::(?P<mi>\d{2}))?\s*(?P<ap>[ap])\.?m\.?(?![\w])"
    r"|(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)(?::[0-5]\d(?:\.\d+)?)?(?![\d:])"  # seconds, as ISO 8601 writes them
    r"|(?P<named>noon|midday|midnight|morning|evening|night|eod|cob|eob|first\s+thing(?:\s+in\s+the\s+morning)?"
    # "by this time tomorrow", "same time Friday": the clock time it is now, on the day said after it
    rf"|(?:this|(?:the\s+)?same)\s+time(?=\s+(?:tomorrow|tmrw|tmr|(?:on\s+)?(?:this\s+|next\s+)?(?:{_WEEKDAY})\b))"
    r"|(?:the\s+)?end\s+of\s+(?:the\s+)?(?:business\s+|work(?:ing)?\s+)?day|close\s+of\s+(?:business|play)"
    r"|(?:the\s+)?end\s+of\s+business)(?![\w])"
)
# What makes a break the year-end one: "the winter break", "the end-of-year shutdown" ("the holidays" needs none)
_BREAK_KIND = r"(?:winter|christmas|x-?mas|end[\s-]of[\s-](?:the[\s-])?year|year[\s-]end|holiday)"
_DAY = (
    rf"(?P<iso>(?P<iy>\d{{4}})(?P<isep>[-/.])(?P<im>\d{{1,2}})(?P=isep)(?P<id>\d{{1,2}}))(?![\d-])"
    # "12.12.2026", "09.12.2026": a day, a month and a year between dots, as Europe writes them; "04.12." without the
    # year, closed by its dot and said after a word that makes it a date ("lr 1.5." is no day)
    rf"|(?P<dots>(?P<dtd>\d{{1,2}})\.(?P<dtm>\d{{1,2}})\.(?P<dty>\d{{4}})(?![\d.])"
    r"|(?:(?<=by\s)|(?<=on\s)|(?<=due\s)|(?<=until\s)|(?<=till\s)|(?<=before\s)|(?<=deadline\s)|(?<=deadline:\s))"
    r"(?P<dtd2>0?[1-9]|[12]\d|3[01])\.(?P<dtm2>0?[1-9]|1[0-2])\.(?![\w.]))"
    rf"|(?P<md>(?P<mdm>{_MONTH})\.?\s+(?P<mdd>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<mdy>\d{{4}}))?)(?![\w:])"
    rf"|(?P<dm>(?:the\s+)?(?P<dmd>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dmm>{_MONTH})\.?(?:,?\s+(?P<dmy>\d{{4}}))?)(?![\w])"
    r"|(?P<slash>(?P<sm>\d{1,2})/(?P<sd>\d{1,2})(?:/(?P<sy>\d{4}|\d{2}))?)(?![\w/])"
    # "the 15th"; "by 15th", "due 3rd" without the article, only where a deadline's word comes just before
    r"|(?P<ordinal>(?:the\s+|(?<=by\s)|(?<=due\s)|(?<=until\s)|(?<=till\s)|(?<=before\s)|(?<=on\s))"
    r"(?P<od>\d{1,2})(?:st|nd|rd|th))(?![\w])(?!\s+weeks?\b)"  # "the 3rd week" is no day
    # "by early next week", "mid next week", "late this week": a day within the week, the earliest it may mean
    r"|(?P<wpart>(?:the\s+)?(?P<wpos>early|mid|middle\s+of|late)[\s-]+(?:in\s+)?(?:the\s+)?(?P<wpq>this|next)"
    r"\s+week)"
    r"(?![\w])"
    r"|(?P<endof>(?:the\s+)?end\s+of\s+(?:the\s+)?(?P<eoq>this\s+|next\s+)?(?P<eou>week|wk|month|quarter|year)"
    r"|(?P<eoa>eow|eom|eoq|eoy)|(?P<eou2>week|month|quarter|year)[\s-]end"
    # "before the quarter closes", "by the time the month ends"
    r"|(?:the\s+)?(?P<eou4>month|quarter|year)\s+(?:closes|ends|is\s+over|wraps\s+up)"
    # "can we have it this week?", "within the month": done by its end; "starting this week" is a start
    # ("50% of the budget left this month" speaks of money, not of when)
    r"|(?<!starting\s)(?<!start\s)(?<!from\s)(?<!begin\s)(?<!left\s)(?<!spent\s)(?<!used\s)(?<!remaining\s)"
    r"(?<!budget\s)(?<!spend\s)"  # "$3k left in our budget this month": the money's month
    r"(?<!of\s)"  # "$800 left for the rest of the quarter": a part of it, said of money
    # "$500 budget for the quarter", "$2k for the month": the period an amount is for
    r"(?<!left\sfor\s)(?<!budget\sfor\s)(?<!\d[km]\sfor\s)(?<!\d\d\d\sfor\s)(?<!\d,\d\d\d\sfor\s)"
    # "our remaining $10k this month", "$2,500 this month": an amount's month
    r"(?<!\$\d\s)(?<!\$\d\d\s)(?<!\$\d\d\d\s)(?<!\d[km]\s)(?<!\d,\d\d\d\s)(?<!usd\s)(?<!dollars\s)"
    r"(?:(?:within|sometime|later)\s+)?(?:this|the)\s+"
    r"(?P<eou3>week|month|quarter)(?=\s*(?:$|[,.;!?)]|and\b|please\b|if\b|ideally\b|for\b|on\b|in\b|with\b|using\b"
    r"|within\b|under\b|below\b|or\b)))"
    r"(?![\w])"
    rf"|(?P<wd>(?:(?P<wdq>this|next|nxt|last|coming|the\s+coming|following|the\s+following)\s+)?(?P<wdn>{_WEEKDAY})"
    r"(?:\s+(?:of\s+)?(?P<wdw>next|this)\s+week)?)(?![\w]|'(?!s\b))"  # "Thursday's standup": the day of an event
    r"|(?P<rd>today|tonight|overnight|tomorrow|tmrw|tmr|yesterday|(?:the\s+)?day\s+after\s+tomorrow)(?![\w])"
    # a year: "by end of 2026" (its last day), "before 2027" and "by 2027" (before it starts, as "by June")
    r"|(?P<yr>(?P<yrend>(?:the\s+)?end\s+of\s+)?(?P<yy>20\d\d))(?![\w/.,-]|,\d)"
)
# A day within a month, quarter or half ("end of February", "mid-January", "early next month", "Q1 end") and the
# weekend (``_ANCHOR_WITHIN_RE``). Anchors only: after a clock time ("5pm Friday") the day forms above are enough.
_WITHIN = (
    r"|(?P<mrel>(?:the\s+)?(?P<mpos>end|middle|mid|start|beginning|early|late)(?:\s+of\s+(?:the\s+)?|\s*-\s*|\s+)"
    r"(?P<mnext>this\s+|next\s+)?month"
    r"|(?:(?:the\s+)?(?P<mpos2>end|middle|mid|start|beginning|early|late)(?:\s+of\s+(?:the\s+)?|\s*-\s*|\s+)"
    # "the third week of December", "the last week of January": the end of that week of the month
    r"|(?:the\s+)?(?P<mweek>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+of\s+(?:the\s+)?)?"
    # (a month with its day after it is that date: "start Jan 5" is no start of January)
    rf"(?:(?P<mmon>{_MONTH})\.?(?!\s+\d{{1,2}}(?!\d))|(?P<mhalf>q[1-4]|h[12]))(?:,?\s+(?P<my>\d{{4}}))?"
    r"(?P<mend>[\s-]end)?)(?![\w])"
    r"|(?P<wkend>(?<!last\s)(?<!past\s)(?<!previous\s)(?:(?P<wkp>over|during|through(?:out)?|across|on)\s+)?"
    r"(?:the\s+)?(?P<wkeo>end\s+of\s+(?:the\s+)?)?(?:(?P<wkq>this|next|coming)\s+)?weekend)(?![\w])"
    # ("the Xmas break" is the break's, below)
    r"|(?P<hol>(?:christmas|x-?mas)(?!\s+(?:break|shutdown|holidays))(?:\s+(?P<holeve>eve)|\s+day)?"
    r"|(?:the\s+)?new\s+year(?:['\u2019]?s)?(?:\s+(?P<nye>eve)|\s+day)?|nye|thanksgiving(?:\s+day)?|halloween)"
    r"(?:,?\s+(?P<holy>\d{4}))?(?![\w])"
    # the year-end break, a span of days: "over the holidays", "before the holidays", "by the winter break"
    # ("after the holidays": when work starts again, as "over the holidays" is done by then)
    r"|(?P<hols>(?:(?P<holsp>over|during|through(?:out)?|across|after)\s+)?(?:(?:the|our)\s+"
    rf"(?:(?:{_BREAK_KIND}\s+)?holidays|{_BREAK_KIND}\s+(?:break|shutdown))|{_BREAK_KIND}\s+(?:break|shutdown|holidays)))"
    r"(?![\w])"
)
# "in 2 days", "in 2 days from now", "in 2 days' time", "a week from today": "from now" and "time" add nothing.
_FROM_NOW = r"\s+from\s+(?:now|today)"
# "2 weeks from Monday", "3 days from tomorrow": counted from that day instead of today
_FROM_DAY = rf"\s+(?:from|after)\s+(?P<ranchor>tomorrow|(?:(?P<raq>this|next|coming)\s+)?(?P<rawd>{_WEEKDAY}))"
# "ok to take up to a week", "it can take up to 3 days": as long as that, so done within it
_MAY_TAKE = (r"(?:(?:ok(?:ay)?|fine)\s+(?:to|if\s+it)\s+takes?|(?:it\s+)?(?:can|may|could)\s+take"
             r"|(?:(?:i|we)\s+)?(?:don'?t|do\s+not)\s+mind\s+if\s+it\s+takes?"
             # "we can wait a week", "happy to wait up to 3 days"
             r"|(?:(?:i|we)\s+)?(?:can|could)\s+wait(?:\s+for)?|(?:happy|willing|ok(?:ay)?|fine)\s+to\s+wait(?:\s+for)?)"
             r"(?:\s+(?:up\s+to|at\s+most))?")
# "we have 3 days", "we've only got 2 weeks": the time there is to finish in, as "in 3 days" is
_HAVE = (r"(?:(?:we|i|you|they)\s*(?:'ve|\s+have)|(?:we|i)(?=\s+got))(?:\s+(?:only|just))?(?:\s+got)?"
         r"(?:\s+(?:only|just|about|roughly|around))?")
# A cap on the run's length is the time it has to finish in: "max 12 hours", "cap it at 10 hours of runtime",
# "no longer than 2 days", "12 hours tops"
# A stop said of the run's length: "max runtime 8h", "time limit 1 day", "timeout 12 hours" (``policy.reading`` leaves
# the length after it to the deadline's reader)
RUN_STOP = (r"(?:max(?:imum)?\s+)?(?:run[\s-]?time|wall[\s-]?clock(?:\s+time)?)(?:\s+(?:limit|cap|of))?\s*[:=]?"
            r"|(?:time|run[\s-]?time)\s+(?:limit|cap|budget)(?:\s+(?:of|is))?\s*[:=]?|time-?out(?:\s+(?:of|is|at))?\s*[:=]?")
_CAPPED = (r"(?:cap(?:ped)?(?:\s+(?:it|this|the\s+(?:run|job)))?\s+at|max(?:imum)?(?:\s+of)?|at\s+most"
           r"|no\s+(?:more|longer)\s+than|limit(?:ed)?\s+(?:(?:it|this|the\s+(?:run|job))\s+)?to|under|less\s+than"
           # "the run must not exceed 10 hours", "not to exceed 2 days"
           r"|(?:(?:must|should|may|can)\s*(?:not|n'?t)|not\s+to|won'?t|will\s+not)\s+(?:exceed|go\s+(?:over|beyond)"
           r"|take\s+more\s+than)"
           # "max runtime 8h", "kill it after 12 hours": a stop that ends it
           rf"|{RUN_STOP}|(?:kill|stop|terminate|abort)\s+(?:it|this|the\s+(?:run|job))\s+after)")
_CAP_AFTER = r"\s*,?\s*(?:max(?:imum)?|tops|or\s+less|at\s+(?:the\s+)?most)"
# "a 3 week deadline", "48-hour turnaround": the span is the time to finish in
NAMED_SPAN = r"[\s-]+(?:deadline|turnaround|turn-around|timeline|time[\s-]?frame|window|cut-?off)\b"
# "deadline ~2 weeks", "deadline is 3 days", "timeline: about a week": the span said as the deadline is the time to
# finish in
_SPAN_SAID = (r"(?:deadline|turn-?around|timeline|time[\s-]?frame|target)(?:\s+(?:is|of))?\s*[:=]?\s*"
              r"(?:(?:about|around|roughly|approx(?:\.|imately)?|maybe|~)\s*)?")
_RUNTIME = r"(?:\s+(?:of\s+)?(?:runtime|run[\s-]?time|wall[\s-]?clock(?:\s+time)?|wall\s+time|compute|training))?"
_REL = (
    rf"(?P<rel>(?:(?:in|within|over)\s+(?:(?:the\s+)?(?:next|coming)\s+(?P<rn3>{_COUNT})\s*|the\s+(?:next|coming)\s+"
    r"|(?<!over\s)the\s+(?=h(?:ou)?rs?\b))"  # "within the hour"
    rf"|(?:(?:in|within|{_MAY_TAKE}|{_HAVE}|{_CAPPED})\s+(?:~\s*)?|{_SPAN_SAID})"
    r"(?:(?:under|less\s+than|fewer\s+than|no\s+more\s+than)\s+)?"
    # "within $150 and 10 hours": the amount said between is the budget's, left for its reader (``_read_at``)
    r"(?P<shared>\$\s*\d[\d.,]*\s*[km]?\s+(?:and|&)\s+)?"
    # a count in words is a word of its own: "max and" is no "max a d(ay)"
    rf"(?P<rn>{_COUNT})(?:\s*(?:to|-|or)\s*(?P<rnhi>\d{{1,6}}))?(?:(?<=\d)\s*|\s+)){_UNIT}"
    # "in the next day or two", "within a week or so": the earlier end, as a range's
    r"(?P<rnor>\s+or\s+(?:two|three|2|3|so)|[\s-]?ish\b)?"  # "a week or so", "a week-ish": the span said
    rf"{_RUNTIME}(?:{_FROM_NOW}|{_FROM_DAY}|'?s?\s+time)?"
    r"(?![\w])"
    rf"|(?P<rn2>{_COUNT})[\s-]*(?P<ru2>hours?|hrs?|min(?:ute)?s|days?|weeks?|wks?|months?)(?:{_FROM_NOW}|{_RUNTIME}{_CAP_AFTER}"
    rf"|{NAMED_SPAN})"
    r"(?![\w]))"
)
_ANCHOR_RE = compiled_on_use(rf"(?<![\w./$-])(?:{_REL}|{_DAY}|{_TIME})", _F)
# Texts with one of these words may name a day within a period, a month or quarter, the weekend or a holiday
# ("weekend", "Q1 end", "mid-Feb", "by June", "by Christmas"): they are searched with those forms too
# (``_ANCHOR_WITHIN_RE``).
_WITHIN_HINT_RE = compiled_on_use(
    rf"end|mid|early|late|start|begin|\b(?:{_MONTH}|q[1-4]|h[12])\b|christmas|x-?mas|new\s+year|nye|thanksgiving"
    r"|halloween|holidays|break|shutdown", _F)
_TIME_AFTER_RE = compiled_on_use(
    rf",?\s*(?:(?:at|@)\s*|t)?(?:{_TIME})"
    # after a day only: "Monday AM" (morning), "Monday PM" (end of the day), "by monday 9" (an hour of the working
    # day: 7-11 the morning, 12 noon, 1-6 the afternoon) with nothing after it but the end of a clause
    r"|\s+(?P<half>am|pm)(?![\w])|[ \t]+(?:at\s+)?(?P<bare>[1-9]|1[0-2])(?=\s*(?:$|[,;.!?)]))", _F)
# A zone said after the time: an abbreviation ("3pm ET") or a place's time ("6pm London time", "noon Pacific time").
_CITY_ZONES = {
    "london": "Europe/London", "dublin": "Europe/Dublin", "uk": "Europe/London", "british": "Europe/London",
    "paris": "Europe/Paris", "berlin": "Europe/Berlin", "frankfurt": "Europe/Berlin", "amsterdam": "Europe/Amsterdam",
    "madrid": "Europe/Madrid", "zurich": "Europe/Zurich", "stockholm": "Europe/Stockholm", "european": "Europe/Berlin",
    "new york": "America/New_York", "nyc": "America/New_York", "ny": "America/New_York", "boston": "America/New_York",
    "toronto": "America/Toronto", "eastern": "America/New_York", "east coast": "America/New_York",
    "chicago": "America/Chicago", "central": "America/Chicago", "denver": "America/Denver",
    "mountain": "America/Denver", "seattle": "America/Los_Angeles", "sf": "America/Los_Angeles",
    "san francisco": "America/Los_Angeles", "bay area": "America/Los_Angeles", "la": "America/Los_Angeles",
    "los angeles": "America/Los_Angeles", "pacific": "America/Los_Angeles", "west coast": "America/Los_Angeles",
    "vancouver": "America/Vancouver", "sao paulo": "America/Sao_Paulo", "tokyo": "Asia/Tokyo", "seoul": "Asia/Seoul",
    "singapore": "Asia/Singapore", "hong kong": "Asia/Hong_Kong", "sydney": "Australia/Sydney",
    "india": "Asia/Kolkata", "bangalore": "Asia/Kolkata", "bengaluru": "Asia/Kolkata", "mumbai": "Asia/Kolkata",
    "tel aviv": "Asia/Jerusalem", "israel": "Asia/Jerusalem",
}  # fmt: skip
_DAY_KEYS = ("wd", "rd", "md", "dm", "iso", "dots", "slash", "ordinal")  # the groups that name a day
_ZONES = {
    "utc": "UTC", "gmt": "UTC", "z": "UTC",
    "pt": "America/Los_Angeles", "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles",
    "mt": "America/Denver", "mst": "America/Denver", "mdt": "America/Denver",
    "ct": "America/Chicago", "cst": "America/Chicago", "cdt": "America/Chicago",
    "et": "America/New_York", "est": "America/New_York", "edt": "America/New_York",
    "cet": "Europe/Berlin", "cest": "Europe/Berlin", "bst": "Europe/London", "eet": "Europe/Helsinki",
    # the readings shown with their zone's name ("Thu 09:00 Asia/Kolkata"), so one meant otherwise is seen
    "ist": "Asia/Kolkata", "sgt": "Asia/Singapore", "hkt": "Asia/Hong_Kong", "jst": "Asia/Tokyo", "kst": "Asia/Seoul",
    "aest": "Australia/Sydney", "aedt": "Australia/Sydney",
    # a paper's deadline: "Anywhere on Earth", UTC-12 (the last zone where the day is still on)
    "aoe": "Etc/GMT+12",
}  # fmt: skip
_ZONE_NAMES = "|".join(sorted(_ZONES, key=len, reverse=True))
_ZONE_RE = compiled_on_use(rf"\s*\(?(?P<z>{_ZONE_NAMES})\)?(?![\w])", _F)


# A place's time ("6pm London time"): only a text saying "time" after a deadline uses it.
_CITY_ZONE_PLACES = "|".join(c.replace(" ", r"\s+") for c in _CITY_ZONES)
_CITY_ZONE_RE = compiled_on_use(rf"\s*,?\s*\(?(?P<city>{_CITY_ZONE_PLACES})\s+time\)?(?![\w])", _F)


# The zone every date of a request is said in, said apart from any of them: "UK time, by 9am tomorrow", "all times
# ET", "I'm in Berlin", "we're based in Singapore"
_SAID_ZONE_RE = compiled_on_use(
    rf"\b(?:(?:all\s+)?(?:times?|dates?|deadlines?)\s+(?:are\s+)?(?:in\s+)?)?(?P<city>{_CITY_ZONE_PLACES})\s+time\b"
    r"(?![\s,]*(?:zone\s+)?(?:is\s+)?\d)"
    rf"|\b(?:i'?m|i\s+am|we'?re|we\s+are|(?:our\s+)?team\s+is)\s+(?:based\s+|located\s+|sitting\s+)?in\s+(?:the\s+)?"
    # the place whole, at a clause's end ("we're in central europe" names no zone of "central")
    rf"(?P<city2>{_CITY_ZONE_PLACES})(?:\s+time(?:\s*zone)?)?(?=\s*(?:$|[,.;:!?)]|(?:and|but|so|&)\b))"
    rf"|\b(?:all\s+)?(?:times?|dates?|deadlines?)\s+(?:are\s+)?(?:in\s+)?(?P<z>{_ZONE_NAMES})(?![\w])", _F)


# What ends a date or a time said right before a zone ("6pm London time", "Friday noon UK time"): the date's own zone
_DATE_BEFORE_ZONE_RE = compiled_on_use(
    rf"(?:\d|am|pm|noon|midnight|eod|cob|eob|morning|afternoon|evening|tonight|today|tomorrow|day|week|month|{_MONTH})"
    r"\.?\s*,?\s*\(?$", _F)


def said_zone(text: str) -> tuple[str, re.Match[str]] | None:
    """The time zone a request's dates are said in when it says so apart from them (a zone name, and the words), or
    None; a zone said with a date ("by 6pm London time") is that date's, read with it."""
    m = next((m for m in _SAID_ZONE_RE.finditer(text)
              if not (m["city"] and _DATE_BEFORE_ZONE_RE.search(text, max(0, m.start() - 30), m.start()))), None)
    if m is None:
        return None
    if m["z"]:
        return _ZONES[m["z"].lower()], m
    return _CITY_ZONES[" ".join((m["city"] or m["city2"]).lower().split())], m


# "by 9am Thursday Pacific": the four US zones are said by name alone too, at the end of a clause
_US_ZONE_WORD_RE = compiled_on_use(r"\s+\(?(?P<city>pacific|eastern|central|mountain)\)?(?=\s*(?:$|[,;.!?)]))", _F)


# A place named in brackets right after a deadline is its time: "by COB tomorrow (London)", "Friday 5pm (NYC)"
_CITY_BRACKET_RE = compiled_on_use(rf"\s*\((?P<city>{_CITY_ZONE_PLACES})(?:\s+time)?\)", _F)
# A city named alone at the end of a deadline's clause, as the US zones are: "by Friday noon Berlin" (a name of four
# letters or more, so that no short word is read as a place)
_CITY_WORD_RE = compiled_on_use(
    r"\s+(?P<city>" + "|".join(c.replace(" ", r"\s+") for c in _CITY_ZONES
                              if len(c) >= 4 and c not in ("british", "european", "india", "israel"))
    # (or before the day it is of: "by 9am London Tuesday")
    + r")(?=\s*(?:$|[,;.!?)]|(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b))", _F)


def _zone_at(text: str, end: int) -> re.Match[str] | None:
    """A zone said right after a deadline's phrase: an abbreviation, a place's time (or a place in brackets), or a
    US zone's name."""
    return (_ZONE_RE.match(text, end) or (_CITY_ZONE_RE.match(text, end) if "time" in text[end:end + 40].lower()
                                          else None)
            or (_CITY_BRACKET_RE.match(text, end) if "(" in text[end:end + 3] else None)
            or _US_ZONE_WORD_RE.match(text, end) or _CITY_WORD_RE.match(text, end))


# What the person calls the deadline: the hard one is the deadline; a wish ("ideally", "soft deadline") gives way to
# it, and is the deadline only when it is the only date said (``policy.parse``).
_FIRMNESS = (r"(?:(?P<hard>hard|firm|strict|final|absolute|real|latest)|(?P<soft>soft|flexible|loose|rough|target"
             r"|preferred|ideal))")
# Said before a date: "ideally by Thursday", "preferably done Friday", "nice to have it by Monday"; "must be done by
# Friday" is the hard deadline.
_SAID_BEFORE_RE = compiled_on_use(
    r"\b(?:(?P<wish>ideally|preferably|hopefully|optimally|if\s+possible|at\s+best"
    # "target is end of next week", "target completion: end of December", "target finish date is Friday"
    r"|(?:(?:the|our|my)\s+)?target(?:\s+(?:completion|finish|end))?(?:\s+date)?(?:\s+is)?|aiming\s+for"
    r"|nice\s+to\s+have(?:\s+(?:it|this|them))?"
    r"|(?:it\s+)?(?:would|'d)\s+be\s+(?:nice|great|good|ideal)(?:\s+to\s+have(?:\s+(?:it|this|them))?)?"
    # "would love it by tomorrow", "we'd prefer it done by Friday"
    r"|(?:(?:we|i|they)(?='d))?(?:would|'d)\s+(?:love|like|prefer)(?:\s+(?:it|this|them|results?)|\s+to\s+have"
    r"(?:\s+(?:it|this|them))?)?)"
    # "latest by next Tuesday": the hard one
    r"|(?P<hard>must|(?:has|have|needs?)\s+to|hard\s+stop(?:\s+(?:is|at|on))?|(?:at\s+the\s+)?latest)(?:\s+be)?)"
    r"(?:\s+(?:done|finished|ready|complete|completed|delivered|finish|complete|end|land|wrap\s+up|ship))?\s*[:,]?\s*$",
    _F,
)
# Said after one: "by Friday at the latest", "Friday is the hard deadline", "by Monday if possible", "… if we can".
_FIRMNESS_AFTER_RE = compiled_on_use(
    # "by Friday, hard deadline", "by Friday - it can't slip": no later
    # ("…, latest by Friday" starts the next date: its "latest" is that one's)
    rf"\s*[,-]?\s*(?:(?P<latest>at\s+the\s+(?:very\s+)?latest|latest(?!\s+(?:by|before|on)\b)|tops|(?:a\s+)?(?:hard|firm|strict)\s+deadline(?=\s*(?:$|[.;,!?)]))"
    r"|(?:and\s+|but\s+)?(?:it\s+|that\s+)?(?:can'?t|cannot|must\s+not|mustn'?t|won'?t|shouldn'?t)\s+slip)"
    rf"|(?P<named>(?:is|as)\s+(?:the|our|a|my|your)\s+(?:{_FIRMNESS}\s+)?(?:deadline|cut-?off|due\s+date))"
    # a trailing "ideally" ends the sentence: "by Friday, ideally Thursday" wishes for Thursday, not Friday
    r"|(?P<wish>if\s+(?:at\s+all\s+)?possible|if\s+(?:we|you)\s+can(?![\w'])(?!\s+(?:not|afford|fit|get|do|run)\b)"
    r"|(?:ideally|preferably|hopefully)(?=\s*(?:$|[.;!?)]))"
    # "but Thursday would be better", "Thursday would be ideal": hoped for
    r"|(?:would|'d)\s+be\s+(?:even\s+)?(?:better|nicer|ideal|great|preferable|preferred|good))"
    # "by Friday or sooner", "or earlier": the same deadline, said to be no later
    r"|(?P<sooner>or\s+(?:sooner|earlier|before)))(?![\w-])",
    _F,
)
# The thing wanted by then, said before the trigger: "need results by 9am", "want the numbers before Friday", "ETA
# needed by 12/10". These nouns name the job's outcome (or its arrival), which the deadline accounts for.
_LEAD_RE = compiled_on_use(
    r"(?:\b(?:needs?|needed|wants?|wanted|expects?|expected|expecting|gets?|getting|have|has|see)\s+)?"
    r"(?:\b(?:the|our|my|some)\s+)?\b(?:results?|outputs?|numbers|metrics|answers?|eta)"
    r"(?:\s+(?:(?:are|is)\s+)?(?:needed|wanted|due|expected|required))?\s*$",  # "results needed in two weeks"
    _F,
)
# A bare "May" is a month only where no verb follows ("by May", "by May, please"); "deadline may slip" is not.
_MAY_AFTER_RE = compiled_on_use(
    r"\s*(?:$|[,.;!?)]|(?:and|or|but|at|if|so|then|please|pls|latest|ideally|for)(?![\w]))", _F)
# "before the board meeting on Dec 10": an event on that day, at a time not said. Its head noun names the event, so
# "before the production review on Friday" keeps "production" for the stage reader.
_EVENT_NOUNS = (r"meeting|review|demo|offsite|off-site|presentation|conference|call|sync|readout|read-out|summit"
                r"|workshop|pitch|talk|keynote|all-hands|board|standup|stand-up|retro|retrospective|kickoff|kick-off"
                r"|check-in|planning|onsite|on-site|vacation|leave|pto|trip|ooo|time-off|freeze|code-freeze"
                r"|hackathon|hack-week|bootcamp|meetup|tutorial|lecture|class|flight|departure|travel|sabbatical|interview"
                r"|sprint")
# Words that also say the stage: an event named with them leaves them for the stage reader.
_STAGE_WORDS = r"(?:prod|production|customers?|launch\w*|releases?|go-live)"
_EVENT = (r"before\s+(?:the|our|my|a|an|this|that)\s+"
          rf"(?:(?!{_STAGE_WORDS}\b)[a-z0-9-]+\s+){{0,2}}?(?:{_EVENT_NOUNS})s?"
          r"\s+(?=on\s|at\s|$)")  # the date follows: "on Dec 10", or a day said at once ("next Thursday")
# "by the time I'm back from PTO on the 14th": ready when the person is back, so by the end of the day before, as
# "before my vacation on the 20th" is
_BACK = (r"(?:by\s+the\s+time\s+(?:i'?m|i\s+am|we'?re|we\s+are|(?:i|we)\s+(?:get|come))\s+back"
         rf"(?:\s+(?:from|off)\s+(?:my\s+|our\s+|the\s+)?(?:[a-z0-9-]+\s+){{0,2}}?(?:{_EVENT_NOUNS}|holidays?|break))?"
         # "before I leave on Friday", "before we head out on the 18th": ready the day before, as for an absence
         # "before my vacation starts on the 19th": the absence's start said of it
         r"|before\s+(?:my|our)\s+(?:vacation|pto|leave|holidays?|break|time\s+off|parental\s+leave)\s+(?:starts|begins)"
         r"|before\s+(?:i|we)\s+(?:leave|head\s+out|go\s+(?:on\s+)?(?:leave|vacation|pto|holiday)|am\s+out|'?m\s+out"
         # "before I present on Thursday at 2pm": ready by then (the day before when no time is said)
         r"|present|demo|pitch|give\s+(?:the|my|our)\s+(?:talk|presentation|demo)))"
         r"\s+(?=on\s)")
# "I'm OOO from Dec 20", "we're off starting Friday": the person is away from that day, so the work is ready the day
# before, as for "before I leave on Friday"
AWAY_FROM = (r"(?:i'?m|i\s+am|we'?re|we\s+are|i'?ll\s+be|we'?ll\s+be|i\s+will\s+be|we\s+will\s+be)\s+"
             r"(?:ooo|out(?:\s+of\s+(?:the\s+)?office)?|away|off|on\s+(?:leave|vacation|pto|holiday|holidays))\s+"
             r"(?:from|starting(?:\s+on)?|as\s+of|beginning)")
_AWAY_FROM_RE = compiled_on_use(AWAY_FROM, _F)
# "for the customer launch on the 15th", "for our demo on Friday": work wanted for an event is ready the day before.
# Only "on <date>" is the deadline's phrase, so the words naming the event stay for the other readers ("customer").
_FOR_EVENT_RE = compiled_on_use(
    r"\b(?:for|before|by|ahead\s+of)\s+(?:(?:the|our|my|a|an|this|that)\s+(?P<event>(?:[a-z0-9-]+\s+){0,2}?"
    rf"(?:{_EVENT_NOUNS}|launch|release|go-live|rollout|roll-out|ga|event|deadline|submission))s?"
    # "before the end of the sprint (Dec 11)", "by end of sprint on Dec 11": an end, due that day, not the day before
    r"|(?:the\s+)?(?P<due>end\s+of\s+(?:the\s+|this\s+|our\s+)?(?:sprint|iteration|milestone|cycle)))"
    r"\s+(?P<on>(?:on\s+|\(\s*)?)$", _F)  # "(Dec 18)": the date in brackets after the event's name
_STAGE_WORDS_RE = compiled_on_use(rf"\b{_STAGE_WORDS}\b", _F)
# "before the Dec 18 release", "for our Friday demo", "by the 15th board meeting", "before Thursday's standup": the
# date said inside the event's
# name. The event is on that day, so the work is ready the day before, as for "for the launch on Dec 18"; a deadline
# so named ("before the Dec 18 deadline") is the day itself.
_PERIODS = ("mrel", "hol", "hols", "wkend", "endof", "rel")
_DATED_EVENT_LEAD_RE = compiled_on_use(
    r"\b(?:before|(?:in\s+time\s+)?for|by|ahead\s+of)\s+(?:(?:the|our|my|a|an|this|that)\s+)?$", _F)


# The event's name after a day said inside it: only a day after "before the" and the like uses it.
_DATED_EVENT_RE = compiled_on_use(
    r"(?:'s)?\s+(?P<event>(?:[a-z0-9-]+\s+){0,2}?"  # "before Thursday's standup": the possessive too
    rf"(?:(?P<due>deadline|cut-?off|due\s+date)|{_EVENT_NOUNS}|launch|release|go-live|rollout|roll-out|ga|event"
    rf"|submission))s?(?:\s+(?:{_EVENT_NOUNS})s?)?\b", _F)  # "board meeting": the whole name


# A clock time among the words naming an event ("Monday's 10am meeting", "Friday's 3:30pm review")
_EVENT_CLOCK_RE = compiled_on_use(rf"(?<![\w:])(?:{_TIME})", _F)
# ... or in brackets after its name ("before Thursday standup (10am)")
_EVENT_PAREN_CLOCK_RE = compiled_on_use(rf"\s*\(\s*(?:at\s+)?(?:{_TIME})\s*\)", _F)

# "so we can eval Friday", "so that the team can demo it on Thursday": what the work is for happens that day, so the
# work is ready the day before, as for "before I present on Thursday"
_SO_WE_CAN = (r"so\s+(?:that\s+)?(?:we|i|they|(?:the\s+)?(?:[a-z]+\s+)?team)\s+can\s+(?:eval(?:uate)?|test|demo|present"
              r"|ship|deploy|review|benchmark|compare|use|launch|release|show|run\s+(?:the\s+)?evals?)"
              r"(?:\s+(?:it|them|this|the\s+(?:model|results?|weights|numbers)))?")
_TRIGGER_RE = compiled_on_use(
    rf"\b(?:{_EVENT}|{_BACK}|{AWAY_FROM}|{_SO_WE_CAN}|by|before|(?:(?:it|this|that)\s+)?(?:can|could)\s+wait\s+(?:until|till|til)|until|till|til|due"
    # "for the NeurIPS deadline (May 15)": the deadline's name, with its date said after it
    r"|(?:(?:the|our|this)\s+(?!(?:hard|soft|firm|real|strict|final)\b)[a-z][\w.&-]*\s+(?=deadline\s*\())?"
    rf"(?:{_FIRMNESS}\s+)?deadline(?:\s+(?:is|of|was|were|would\s+be|will\s+be)|'s)?"
    rf"|no\s+later\s+than"
    r"|not\s+later\s+than|latest(?:\s+(?:finish|finish\s+time|completion|end))?"
    r"|(?:needs?|wants?)(?:\s+(?:it|this|them|results?))?(?:\s+back)?(?:\s+by)?|ready|done|finished|eta"
    # "get it tomorrow", "have the results back Friday": the outcome in hand then
    # ("nice to have it by Monday" is a wish's, read with it)
    r"|(?:get|receive)\s+(?:it|this|them|(?:the\s+)?(?:results?|model|weights|numbers))(?:\s+back)?(?:\s+by)?"
    r"|have\s+(?:it|this|them|(?:the\s+)?(?:results?|model|weights|numbers))\s+back(?:\s+by)?)"
    rf"(?P<twd>\s+(?:{_WEEKDAY})\.?,?)?"  # "by fri 12/4": the weekday said with the date it falls on
    r"\s*[:(]?\s*(?:on\s+|at\s+)?$",
    _F,
)
# A strict trigger promises a date, so what follows must read as one; "by using ..." and the like are not dates.
# "before" and "until" are not strict: "before the production run", "until convergence".
# An occasion the work must be done before, with no date: "before the demo", "in time for NeurIPS", "ahead of the
# board meeting". Only the person knows when it is, so it is asked.
_OCCASION = (r"(?:(?:(?:[\w-]+\s+){0,2}(?:demo|demos|meeting|review|offsite|off-site|presentation|all[\s-]hands|talk"
             r"|keynote|summit|conference|workshop|camera[\s-]ready|paper\s+deadline|submission\s+deadline|submission"
             # a deadline known by its name: "by the grant deadline", "by the NeurIPS rebuttal deadline"
             r"|readout|qbr|board\s+deck|sprint|deadline))"
             # the end of something whose dates only the person knows: "before the end of the sprint", "by the end of
             # the project" (the end of a period, "the end of the month", is a date the deadline reader took first)
             r"|(?:the\s+)?end\s+of\s+(?:(?:the|this|our|my)\s+[a-z][\w-]*|sprint|iteration|milestone|project"
             r"|quarter'?s?\s+\w+)"
             # a conference, or its deadline: "in time for NeurIPS", "by the NeurIPS deadline"
             r"|(?:neurips|icml|iclr|cvpr|acl|emnlp|naacl|aaai|kdd|re:?invent)(?:\s+(?:[\w-]+\s+)?deadline)?)(?![\w-])"
             # not what a model is for: "for code review", "for our meeting summarizer"
             r"(?!\s+(?:model|bot|assistant|tool|task|data(?:set)?|use\s+case|summari[sz]er|classifier|agent)s?\b)"
             r"(?:\s+(?:next|this)\s+(?:week|month))?")
# Without one of these no occasion can be said (a look for a few words costs less than the pattern)
OCCASION_WORDS = ("demo", "meeting", "review", "offsite", "off-site", "presentation", "hands", "talk", "keynote",
                  "summit", "conference", "workshop", "camera", "deadline", "submission", "readout", "qbr", "deck",
                  "neurips", "icml", "iclr", "cvpr", "acl", "emnlp", "naacl", "aaai", "kdd", "invent", "sprint",
                  "iteration", "milestone", "end of")
OCCASION_RE = compiled_on_use(
    rf"\b(?:in\s+time\s+for|ahead\s+of|prior\s+to|before)\s+(?P<event>(?:(?:the|our|my|a|an|this|next)\s+)?{_OCCASION})"
    # after "for" and "by", only with its article: "for the demo", "by the sprint review", never "for code review"
    rf"|\b(?:for|by)\s+(?P<event2>(?:(?:the|our|my|this|next)\s+|(?=end\s+of\s))"  # "by end of the sprint" too
    rf"{_OCCASION})", _F)


_STRICT_RE = compiled_on_use(
    # "no deadline but sooner is better", "without a deadline": a deadline said not to be, promising no date
    r"\b(?<!\bno\s)(?<!\bwithout\s)(?<!\bwithout\sa\s)(?<!\bnot\sa\s)"
    # "no hard deadline but ideally within 2 weeks": none said, then a wish
    r"(?<!\bno\shard\s)(?<!\bno\sfirm\s)(?<!\bno\sstrict\s)(?<!\bno\sreal\s)(?<!\bno\sfixed\s)"
    r"(?<!\bhave\sa\s)(?<!\bhave\sany\s)"  # "we don't have a deadline"
    r"(?P<t>by|due|deadline(?:\s+is)?|no\s+later\s+than)(?:\s*:?\s+|\s*\(\s*)"
    r"(?!(?:\w+ing|hand|default|team|the\s+team|the\s+way|me|us|myself|ourselves|way\s+of|means\s+of|via|then|to"
    r"|far|itself|flexible|none|tbd|asap|whenever|anytime|n/a|more|less|about|roughly|around|up\s+to|at\s+least"
    # "the deadline is not strict", "deadline is soft": said of the deadline, no date (``policy.parse`` reads it)
    r"|(?:is\s+)?(?:not\s+(?:strict|hard|firm|fixed|final|set(?:\s+in\s+stone)?)|soft|flexible|negotiable|loose)"
    r"|much|[\d.]+\s*(?:x|%|percent|times|fold)"
    # "deadline ~2 weeks", "deadline is 3 days": a span, the time the work has (``policy.parse`` reads it)
    r"|~\s*\d|\d[\d.]*\s*(?:hours?|hrs?|h|min(?:ute)?s?|days?|d|weeks?|wks?|w|months?))(?![\w-]))(?P<rest>[^\s,;.!?]+(?:\s+[^\s,;.!?]+){0,4})",
    _F,
)
_PASSIVE_RE = compiled_on_use(r"(?!(?:need|want|require|finish|complete)ed)[\w-]+ed|run|led|done\w*|driven|owned"
                               # "responses written by GPT-4o", "data made by our team": who made it, not when
                               r"|written|made|built|drawn|chosen|given|taken|seen|known|held|kept|sent|paid", _F)
_HINT = 'Try "by Friday", "by Friday 3pm", "EOD Thursday", "in 3 days", "by end of month" or "by 2026-12-15".'


@dataclass(frozen=True)
class Deadline:
    """One deadline read from the text: when, where it was said, and how it was read."""

    when: datetime
    start: int
    end: int
    phrase: str
    notes: list[str] = field(default_factory=list)
    # A day named within a period that comes round again ("mid-January" each year, "mid-month" each month): said on
    # that day, or just after it, the person may mean today or tonight; ``policy.questions`` asks.
    recurs: str | None = None
    # "hard" when said to be the hard deadline ("Friday is the hard deadline", "by Friday at the latest"), "wish" when
    # hoped for ("ideally by Thursday", "soft deadline Friday"), None when just said.
    firmness: str | None = None
    # Every reading the phrase admits when it admits two ("by June": before June starts, or by its end?), the one
    # taken first, each with what it means; ``policy.questions`` asks when they lie far apart.
    choices: tuple[tuple[str, datetime], ...] = ()
    # Said as the day of an event the work is for ("for the launch tomorrow"): a deadline, never a start.
    for_event: bool = False
    # That event's own day (the deadline is the day before it): when hardware held for a length is used at the event
    # ("GPUs for the hackathon Friday, 4 H100s for 8 hours"), it starts then.
    event_day: datetime | None = None


def zone_of(tz: str) -> ZoneInfo:
    """The IANA zone named ``tz``, or a RequestError saying how to name one."""
    try:
        return ZoneInfo(tz)
    except (ValueError, KeyError, OSError) as exc:  # ZoneInfoNotFoundError is a KeyError
        raise RequestError(
            f'Unknown time zone "{tz[:60]}": use an IANA name such as "America/Los_Angeles" or "UTC".',
            code="unknown_timezone",
        ) from exc


def find_deadlines(text: str, *, now: datetime, zone: ZoneInfo) -> list[Deadline]:
    """Every deadline phrase in ``text``, resolved against ``now`` in ``zone`` (past ones included)."""
    local_now = now.astimezone(zone)
    anchor = _ANCHOR_WITHIN_RE if _WITHIN_HINT_RE.search(text) else _ANCHOR_RE
    found: list[Deadline] = []
    pos = 0
    while (m := anchor.search(text, pos)) is not None:
        deadline = _read_at(text, m, local_now)
        if deadline is None:
            pos = m.end()
            continue
        found.append(deadline)
        pos = deadline.end
    _check_strict_triggers(text, found)
    return _with_day_of_month(text, _with_weekdays_dated(text, found) if len(found) > 1 else found)


# A weekday said with its date after it ("Fri 12/18", "Friday, December 18th", "Friday the 18th"): one day, not two
_ENDS_WITH_WEEKDAY_RE = compiled_on_use(r"\b(?P<wd>mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?$", _F)
_WEEKDAY_DATE_RE = compiled_on_use(rf"\s*,?\s*(?:the\s+)?(?:{MONTH}|\d)", _F)


# "before 9am Monday the 14th": the day of the month said after the weekday, read as its day
_DAY_OF_MONTH_AFTER_RE = compiled_on_use(r"\s*,?\s*the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)\b", _F)


def _with_day_of_month(text: str, found: list[Deadline]) -> list[Deadline]:
    """``found`` with a weekday's day of the month said after it taken in ("Monday the 14th"): the same day, so the
    words are its; another day is left for a person (unread)."""
    out = []
    for deadline in found:
        day = _ENDS_WITH_WEEKDAY_RE.search(deadline.phrase)
        m = _DAY_OF_MONTH_AFTER_RE.match(text, deadline.end) if day is not None else None
        if m is not None and int(m["d"]) == deadline.when.day:
            phrase = " ".join(text[deadline.start:m.end()].split())
            notes = [n.replace(f"read '{deadline.phrase}' as ", f"read '{phrase}' as ", 1) for n in deadline.notes]
            deadline = replace(deadline, end=m.end(), phrase=phrase, notes=notes)
        out.append(deadline)
    return out


def _with_weekdays_dated(text: str, found: list[Deadline]) -> list[Deadline]:
    """``found`` with each weekday that a date of that weekday follows at once read as that date: "by Fri 12/18"
    said in the week of Fri 12/11 was two deadlines, and the earlier, a week too soon, was taken."""
    out: list[Deadline] = []
    for deadline in found:
        last = out[-1] if out else None
        day = _ENDS_WITH_WEEKDAY_RE.search(last.phrase) if last is not None else None
        # the date after the weekday: its phrase may start after it, or take the weekday's words in with its own
        dated = (_WEEKDAY_DATE_RE.match(text, last.end) if last is not None and last.start <= deadline.start
                 <= last.end + 6 and deadline.end > last.end else None)
        if last is not None and day is not None and dated is not None:
            phrase = " ".join(text[last.start:deadline.end].split())
            when = deadline.when
            said = (_WEEKDAYS[day["wd"].lower()] - when.weekday() + 3) % 7 - 3  # the weekday said, days from the date
            if said:  # "Thursday Dec 18", a Friday: the earlier of the two, which never finishes late
                when = min(when, when + timedelta(days=said))
            notes = [f"read '{phrase}' as {when:%a %Y-%m-%d %H:%M} {_zone_name(when.tzinfo)}"
                     + (f" ({deadline.when:%b %d} is a {deadline.when:%A}, not a "
                        f"{(deadline.when + timedelta(days=said)):%A}: the earlier of the two)" if said else ""),
                     *(n for n in deadline.notes if not n.startswith(f"read '{deadline.phrase}' as "))]
            out[-1] = replace(deadline, when=when, start=last.start, phrase=phrase, notes=notes,
                              firmness=last.firmness or deadline.firmness)
            continue
        out.append(deadline)
    return out


# The anchors with the days within a period and the weekend. Their alternatives slow every search, so they are
# searched only in texts that hint at them.
_ANCHOR_WITHIN_RE = compiled_on_use(rf"(?<![\w./$-])(?:{_REL}|{_DAY}{_WITHIN}|{_TIME})", _F)


# A day after a clock time ("5pm Friday", "EOD Thursday"): every day form again, used by the texts whose deadline
# starts with a time; most start with the day.
_ORDINAL_START_RE = compiled_on_use(
    r"\b(?:(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)?\s+(?:it\s+)?off)(?:\s+(?:it\s+)?(?:after|on|from))?"
    r"|(?:launch(?:es|ing)?|run(?:s|ning)?)\s+(?:it\s+)?(?:after|from))\s*$", _F)
_DAY_AFTER_RE = compiled_on_use(rf",?\s+(?:on\s+)?(?:{_DAY})", _F)


def _read_at(text: str, m: re.Match[str], now: datetime) -> Deadline | None:
    """The deadline anchored at ``m`` (extended by a time, day and zone around it, and by the words that say how firm
    it is), or None if it is not one."""
    trigger = _TRIGGER_RE.search(text[max(0, m.start() - 40) : m.start()])
    groups, end = _extend(text, m)
    if trigger is not None and trigger["twd"] and "wd" in groups:
        trigger = None  # "by Friday Thursday": a weekday is no date for the weekday before it to be said with
    if (trigger is not None and (groups.get("rd") or "").lower() == "yesterday"
            and trigger.group(0).lower().startswith("need")):
        return None  # "need it yesterday": as soon as possible, which the urgency reader takes
    event = None if trigger else _FOR_EVENT_RE.search(text[max(0, m.start() - 60) : m.start()])
    # a day said inside an event's name: "before the Dec 18 release", or with the possessive even after a trigger
    # ("by Friday's demo" is ready the day before, as "by the Friday demo" is)
    possessive = text.startswith("'s", end)
    # "before Thursday standup": a weekday followed at once by the event's name is the event's day, as after a
    # possessive
    named_after = "wd" in groups and _DATED_EVENT_RE.match(text, end) is not None
    dated = _dated_event(text, m.start(), end, groups) if event is None and (
        trigger is None or possessive or named_after) else None
    if possessive and dated is None:
        return None  # "same data as Friday's run": a day that names something else, not when
    start = m.start() - len(trigger.group(0)) if trigger else m.start()
    if m["shared"]:  # "within $150 and 10 hours": the phrase is "10 hours", the words before it the budget's
        start = m.end("shared")
    if event is not None:  # words that also say the stage ("customer launch") are left for the stage reader
        start -= len(event["on"] if _STAGE_WORDS_RE.search(event["event"] or "") else event.group(0))
    if dated is not None:
        start = dated[0].start()
        if not _STAGE_WORDS_RE.search(dated[1]["event"]):  # "release" is left for the stage reader, as above
            end = dated[1].end()
        elif possessive:
            end += 2  # "Friday's launch": the possessive is the day's, "launch" the stage reader's
        if not _time_only(groups) and (clock := _EVENT_CLOCK_RE.search(dated[1]["event"])) is not None:
            # "for Monday's 10am meeting": the event's time is said in its name, so the work is ready by then
            groups |= {k: v for k, v in clock.groupdict().items() if v is not None}
        elif not _time_only(groups) and (clock := _EVENT_PAREN_CLOCK_RE.match(text, end)) is not None:
            groups |= {k: v for k, v in clock.groupdict().items() if v is not None}  # "standup (10am)": its time
            end = clock.end()
        if _time_only(groups) and (day := _DAY_AFTER_RE.match(text, dated[1].end())) is not None:
            # "for our 3:30pm review on Friday", "for the 9am standup tomorrow": the event's day follows its name
            groups |= {k: v for k, v in day.groupdict().items() if v is not None}
            end = day.end()
    bracketed = (trigger is not None and "(" in trigger.group(0)) or (event is not None and "(" in event["on"])
    if bracketed and text.startswith(")", end):
        end += 1  # "deadline (May 15)", "before the code freeze (Dec 18)": the date's parenthesis is the phrase's
    said = _SAID_BEFORE_RE.search(text, max(0, start - 40), start)
    zone_m = _zone_at(text, end)
    day_m = None  # "by noon pacific time tomorrow": the day said after the zone
    if zone_m is not None and _time_only(groups):
        day_m = _DAY_AFTER_RE.match(text, zone_m.end())
        if day_m is not None:
            groups |= {k: v for k, v in day_m.groupdict().items() if v is not None}
    after = _FIRMNESS_AFTER_RE.match(text, day_m.end() if day_m else zone_m.end() if zone_m else end)
    named = after is not None and after["named"] is not None  # "Friday is the hard deadline": said as a deadline
    # a terse request ending on a day ("ft 7b 1b tok fri", "… nxt tues") gives its deadline last, as "by fri" would
    last = ("wd" in groups and (groups.get("wdq") or "next").lower() in ("next", "nxt", "this")
            and _TERSE_END_RE.match(text, end) is not None)
    wished = after is not None and after["wish"] is not None  # "Thursday would be better": a date hoped for
    # "starting the 10th", "start after the 10th": a day of the month said as the start (``policy.reading`` takes it)
    started = "ordinal" in groups and _ORDINAL_START_RE.search(text, max(0, m.start() - 25), m.start()) is not None
    if not _counts(groups, triggered=trigger is not None or said is not None or named or event is not None
                   or dated is not None or last or wished or started):
        return None
    if _bare_may(groups) and not _MAY_AFTER_RE.match(text, end):
        return None
    if zone_m is not None:  # a zone named in the text wins over the requester's
        said_zone = zone_m.groupdict()
        now = now.astimezone(ZoneInfo(_ZONES[said_zone["z"].lower()] if said_zone.get("z") else
                                      _CITY_ZONES[" ".join(said_zone["city"].lower().split())]))
        end = day_m.end() if day_m is not None else zone_m.end()
    lead = (_LEAD_RE.search(text, max(0, start - 40), start)
            if trigger is not None or groups.get("rel") or groups.get("eou3") else None)
    if lead is not None:  # "need results by": the outcome wanted by then
        said = _SAID_BEFORE_RE.search(text, max(0, lead.start() - 40), lead.start()) or said
        start = lead.start()
    if said is not None:
        start = said.start()
    if after is not None:
        end = after.end()
    phrase = " ".join(text[start:end].split())
    notes: list[str] = []
    readings: list[tuple[str, datetime]] = []
    if trigger is not None:
        groups["trigger"] = trigger.group(0)
    elif event is not None and "wkend" in groups:  # "for a hackathon this weekend": ready before it starts
        groups["trigger"] = " ".join(event.group(0).split())
    event_day = None
    try:
        when = _resolve(groups, now, notes, readings)
        before_said = trigger is not None and (trigger.group(0).lower().startswith(("before", "by the time", "so "))
                                               or _AWAY_FROM_RE.match(trigger.group(0)) is not None)
        ready_before = (before_said or (dated is not None and dated[1]["due"] is None)
                        or (event is not None and event["due"] is None))
        if ready_before and when.date() == now.date() and groups.get("wd") and not groups.get("wdq") \
                and _day_before(groups, when, []) != when:
            # "before Monday", "for Monday's standup" said on a Monday: today is no day to be ready the day before
            # of, so the Monday of next week
            when += timedelta(days=7)
            readings.clear()  # today's, one of the readings to choose from, is gone
            notes.append(f"took {when:%A %Y-%m-%d} for the {when:%A} said: today's has come, so ready the day before "
                         "next week's")
        event_day = when if event is not None or dated is not None else None
        if before_said:
            when = _day_before(groups, when, notes)
        elif dated is not None and dated[1]["due"] is None:
            ready = _day_before(groups, when, [])
            if ready != when:
                notes.append(f"read '{' '.join(text[dated[0].start():dated[1].end()].split())}' as an event on "
                             f"{when:%A %b %-d}, ready the day before, by {ready:%A} {ready:%H:%M}")
            when = ready
        elif event is not None and event["due"] is None:
            ready = _day_before(groups, when, [])
            if ready != when:
                said_event = " ".join(event.string[event.start():event.start("on")].split())  # without "on"
                notes.append(f"read '{said_event}' on {when:%A %b %-d} as ready the day before, by {ready:%A} "
                             f"{ready:%H:%M}")
            when = ready
    except (ValueError, OverflowError) as exc:
        raise RequestError(
            f'Could not read the deadline "{phrase}": {exc}. {_HINT}', code="unparseable_deadline"
        ) from exc
    notes.insert(0, f"read '{phrase}' as {when:%a %Y-%m-%d %H:%M} {_zone_name(when.tzinfo)}")
    return Deadline(when=when, start=start, end=end, phrase=phrase, notes=notes, recurs=_recurs(groups),
                    firmness=_firmness(said, trigger, after), choices=tuple(readings),
                    for_event=event is not None or dated is not None, event_day=event_day)


def _zone_name(zone: object) -> str:
    """A zone as a person reads it: "Etc/GMT+12" (POSIX signs, west positive) is "UTC-12 (Anywhere on Earth)"."""
    name = str(zone)
    if name.startswith("Etc/GMT") and len(name) > 7:
        offset = -int(name[7:])
        return f"UTC{offset:+d}" + (" (Anywhere on Earth)" if offset == -12 else "")
    return name


def _time_only(groups: dict[str, str | None]) -> bool:
    """Whether the groups read say a time of day and no day."""
    return any(k in groups for k in ("h", "h24", "named")) and not any(k in groups for k in _DAY_KEYS)


def _dated_event(
    text: str, start: int, end: int, groups: dict[str, str | None],
) -> tuple[re.Match[str], re.Match[str]] | None:
    """The words around a day said inside an event's name ("before the | Dec 18 | release"): the lead before it
    and the event after it, or None when the day is not so said. A period names no day ("the Q1 planning offsite",
    "the Christmas party"), so it is never read so."""
    if any(key in groups for key in _PERIODS):
        return None
    lead = _DATED_EVENT_LEAD_RE.search(text, max(0, start - 20), start)
    if lead is None:
        return None
    event = _DATED_EVENT_RE.match(text, end)
    return None if event is None else (lead, event)


def _firmness(*around: re.Match[str] | None) -> str | None:
    """How firm the words around a date say it is: a hard word anywhere wins ("ideally by Friday, at the latest" is
    still Friday at the latest), then a wish."""
    said = [m.groupdict() for m in around if m is not None]
    if any(g.get("hard") or g.get("latest") for g in said):
        return "hard"
    if any(g.get("wish") or g.get("soft") for g in said):
        return "wish"
    return None


def _bare_may(g: dict[str, str | None]) -> bool:
    """The month "May" said alone, which is as often the verb."""
    return _bare_period(g) and (g.get("mmon") or "").lower() == "may" and not g.get("my")


def _day_before(g: dict[str, str | None], when: datetime, notes: list[str]) -> datetime:
    """'before Friday' (a day without a time) is the end of Thursday's business day; the earlier reading is safer."""
    if any(g.get(k) for k in ("h", "h24", "named", "rel", "endof", "mrel", "wkend", "hol", "hols", "yr")):
        return when
    day = when.date() - timedelta(days=1)
    said = f"{when:%A}" if g.get("wd") else f"{when:%b} {when.day}"  # as said: "before Friday", "before Jan 15"
    notes.append(f"read 'before {said}' as by {day:%A} {EOD:%H:%M}")
    return datetime.combine(day, EOD, tzinfo=when.tzinfo)


def _extend(text: str, m: re.Match[str]) -> tuple[dict[str, str | None], int]:
    """The anchor's groups merged with an adjacent day (after a time) or time (after a day)."""
    groups: dict[str, str | None] = {k: v for k, v in m.groupdict().items() if v is not None}
    is_time = any(k in groups for k in ("h", "h24", "named"))
    exact_hours = (groups.get("ru") or groups.get("ru2") or "x").lower().startswith(("h", "mi"))
    after = (_DAY_AFTER_RE if is_time else _TIME_AFTER_RE).match(text, m.end())
    if after is None or exact_hours:
        return groups, m.end()
    groups |= {k: v for k, v in after.groupdict().items() if v is not None}
    if half := groups.pop("half", None):
        groups["named"] = "morning" if half.lower() == "am" else "eod"
    if bare := groups.pop("bare", None):
        hour = int(bare)
        groups |= {"h24": str(hour + 12 if hour <= 6 else hour), "m24": "00"}
    return groups, after.end()


_TERSE_END_RE = compiled_on_use(r"\s*[.!]?\s*$")


def _counts(groups: dict[str, str | None], *, triggered: bool) -> bool:
    """Whether the match is a deadline: past forms, abbreviations and bare clock times need a trigger word."""
    named = (groups.get("named") or "").lower()
    if "hol" in groups:  # "Christmas" alone is as often a topic or a start as a deadline
        return triggered
    if "hols" in groups:  # "over the holidays" is a span to finish in; "the holidays" alone needs a trigger
        return triggered or bool(groups.get("holsp"))
    if "mrel" in groups:
        pos = (groups.get("mpos") or groups.get("mpos2") or groups.get("mweek")
               or ("end" if groups.get("mend") else "")).lower()
        if not pos:  # a month or quarter alone ("by March", "by Q1") is a deadline only after a trigger
            return triggered
        # "late may" and "the start of March" are as often words or a start as a deadline
        may = (groups.get("mmon") or "").lower().startswith("may") and pos in ("early", "late")
        return triggered or not (may or pos in ("start", "beginning"))
    if triggered or named.startswith(("eod", "cob", "eob", "end", "close")):
        return True
    if any(key in groups for key in ("rel", "iso", "dots", "md", "dm", "endof")):
        return True
    if "wkend" in groups:  # "over the weekend", "this weekend"; "the weekend" alone needs a trigger
        return bool(groups.get("wkp") or groups.get("wkq") or groups.get("wkeo"))
    if "wd" in groups:
        word = (groups.get("wdn") or "").lower()
        past = (groups.get("wdq") or "").lower() == "last"
        return not past and len(word) >= 6 and word.endswith("day")
    if "yr" in groups:  # "2026" alone is as often a budget's or a plan's year
        return triggered or bool(groups.get("yrend"))
    if "rd" in groups:  # "today" alone is as often a start as a deadline; "6pm today" is a time either way
        said = (groups.get("rd") or "").lower()
        return said != "yesterday" and (said != "today" or bool(groups.get("h") or groups.get("h24")))
    return False


def _resolve(
    g: dict[str, str | None], now: datetime, notes: list[str], readings: list[tuple[str, datetime]]
) -> datetime:
    """The aware datetime the merged groups describe; a phrase with two readings adds both to ``readings``."""
    if g.get("rel"):
        return _relative(g, now, notes)
    if g.get("wkend"):
        return _weekend(g, now, notes)
    if g.get("hols"):
        return _year_end_break(g, now, notes)
    at = _clock(g, notes, now)
    if g.get("hol"):
        return _holiday(g, now, at, notes)
    if _bare_period(g):
        return _whole_period(g, now, at or EOD, notes, readings)
    if at is None and (g.get("mpos") or g.get("mpos2") or "").lower() in ("start", "beginning"):
        at = _START_OF_DAY
    if at is None and (g.get("rd") or "").lower() == "tonight":
        notes.append("read 'tonight' as 23:59 today")
        at = _LATE
    if at is None and (g.get("rd") or "").lower() == "overnight":
        at = _START_OF_DAY  # done by the next morning
    day = _day(g, now, at or EOD, notes)
    if day is not None and day == now.date() and g.get("wdn") and not (g.get("wdq") or g.get("wdw")):
        # "by Wednesday" said on a Wednesday, its hour still ahead: today, or a week on? (asked when far apart)
        name = f"{day:%A}"
        readings += [("today", _at(day, at or EOD, now)),
                     (f"next {name}", _at(day + timedelta(days=7), at or EOD, now))]
    if day is None:  # a time alone: today if still ahead, else tomorrow
        day = now.date()
        if _at(day, at or EOD, now) <= now:
            day += timedelta(days=1)
            notes.append(f"{(at or EOD):%H:%M} today has passed; took tomorrow")
    return _at(day, at or EOD, now)


def _at(day: date, at: time, now: datetime) -> datetime:
    return datetime.combine(day, at, tzinfo=now.tzinfo)


def _clock(g: dict[str, str | None], notes: list[str], now: datetime) -> time | None:
    """The time of day the groups name, or None."""
    if g.get("h"):
        hour, minute = int(g["h"] or 0), int(g.get("mi") or 0)
        if not 1 <= hour <= 12 or minute > 59:
            raise ValueError(f"{hour}:{minute:02d} is not a clock time")
        return time(hour % 12 + (12 if (g.get("ap") or "").lower() == "p" else 0), minute)
    if g.get("h24"):
        return time(int(g["h24"] or 0), int(g.get("m24") or 0))
    named = " ".join((g.get("named") or "").lower().split())
    if not named:
        return None
    if named in ("noon", "midday"):
        return time(12, 0)
    if named.endswith("time"):  # "this time tomorrow": now's time of day, to the minute
        at = now.time().replace(second=0, microsecond=0, tzinfo=None)
        notes.append(f"read '{named}' as {at:%H:%M}, the time it is now")
        return at
    if named == "morning" or named.startswith("first thing"):
        notes.append(f"read '{named}' as 09:00")
        return time(9, 0)
    if named == "evening":
        notes.append("read 'evening' as 18:00")
        return time(18, 0)
    if named in ("midnight", "night"):
        notes.append(f"read '{named}' as 23:59 of that day")
        return _LATE
    return EOD


def _day(g: dict[str, str | None], now: datetime, at: time, notes: list[str]) -> date | None:
    """The calendar day the groups name (None when they name only a time)."""
    if g.get("iso"):
        return date(int(g["iy"] or 0), int(g["im"] or 0), int(g["id"] or 0))
    if g.get("dots"):
        if g.get("dty") is None:  # "04.12.": the next such day
            notes.append(f"read '{g['dots']}' as day.month.")
            return _month_day(int(g["dtm2"] or 0), int(g["dtd2"] or 0), None, now, notes)
        notes.append(f"read '{g['dots']}' as day.month.year")
        return date(int(g["dty"] or 0), int(g["dtm"] or 0), int(g["dtd"] or 0))
    if g.get("md") or g.get("dm"):
        month = _MONTHS[(g.get("mdm") or g.get("dmm") or "")[:3].lower()]
        year = g.get("mdy") or g.get("dmy")
        return _month_day(month, int(g.get("mdd") or g.get("dmd") or 0), year, now, notes)
    if g.get("slash"):
        first, second = int(g["sm"] or 0), int(g["sd"] or 0)
        if first > 12 >= second >= 1:  # "15/12": no month 15, so day/month is the only reading
            notes.append(f"read '{g['slash']}' as day/month (there is no month {first})")
            return _month_day(second, first, g.get("sy"), now, notes)
        notes.append(f"read '{g['slash']}' as month/day")
        return _month_day(first, second, g.get("sy"), now, notes)
    if g.get("ordinal"):
        return _ordinal(int(g["od"] or 0), now, at)
    if g.get("wpart"):
        return _part_of_week(g, now, notes)
    if g.get("endof"):
        return _end_of(g, now, at, notes)
    if g.get("mrel"):
        return _within_period(g, now, at, notes)
    if g.get("wd"):
        return _weekday(g, now, at, notes)
    if g.get("rd"):
        return _relative_day(g, now)
    if g.get("yr"):
        said_year = int(g["yy"] or 0)
        if g.get("yrend"):
            return date(said_year, 12, 31)
        notes.append(f"read '{said_year}' as before it starts: by the last day of {said_year - 1}")
        return date(said_year - 1, 12, 31)
    return None


def _month_day(month: int, day: int, year: str | None, now: datetime, notes: list[str]) -> date:
    """A month and day, in the year given, else this year's unless it passed over a month ago (then next year's)."""
    if year is not None:
        return date(int(year) + (2000 if len(year) == 2 else 0), month, day)
    this_year = date(now.year, month, day)
    if (now.date() - this_year).days > _RECENT_PAST_DAYS:
        notes.append(f"{this_year:%b %d} has passed this year; took {now.year + 1}")
        return date(now.year + 1, month, day)
    return this_year


_SLASH_DATE_RE = compiled_on_use(r"(?<![\d/])(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/])")


def day_month_reading(phrase: str, *, now: datetime) -> str:
    """For a past deadline written "11/12" (read month/day): ' Written day/month, 11/12 is Fri 2026-12-11: say "by
    Dec 11".' when that reading lies ahead; else nothing. Month/day stays the reading: a person confirms the other."""
    m = _SLASH_DATE_RE.search(phrase)
    if m is None:
        return ""
    day, month = int(m["a"]), int(m["b"])
    try:
        other = _month_day(month, day, None, now, [])
    except ValueError:
        return ""  # "11/31": no such day the other way round
    if day == month or other <= now.date():  # "5/5" reads the same either way
        return ""
    return f' Written day/month, {m.group(0)} is {other:%a %Y-%m-%d}: say "by {other:%b} {other.day}".'


def _ordinal(day: int, now: datetime, at: time) -> date:
    """'the 15th': this month's if still ahead, else next month's."""
    first = now.date().replace(day=1)
    for months in range(0, 3):
        year, month = divmod(first.month - 1 + months, 12)
        if day <= calendar.monthrange(first.year + year, month + 1)[1]:
            candidate = date(first.year + year, month + 1, day)
            if _at(candidate, at, now) > now:
                return candidate
    raise ValueError(f"no month has a day {day}")


def _end_of(g: dict[str, str | None], now: datetime, at: time, notes: list[str]) -> date:
    """Last business day of the week, or the last calendar day of the month, quarter or year; rolls if past."""
    abbr = {"eow": "week", "eom": "month", "eoq": "quarter", "eoy": "year"}
    unit = (g.get("eou") or g.get("eou2") or g.get("eou3") or g.get("eou4")
            or abbr.get((g.get("eoa") or "").lower(), "")).lower()
    unit = "week" if unit == "wk" else unit  # "by end of next wk"
    step = 1 if (g.get("eoq") or "").strip().lower() == "next" else 0
    day = _period_end(unit, now.date(), step)
    if step == 0 and _at(day, at, now) <= now:
        day = _period_end(unit, now.date(), 1)
        notes.append(f"the end of this {unit} has passed; took the end of next {unit}")
    if unit != "week" and day.weekday() >= 5:
        notes.append(f"the end of the {unit} falls on a {day:%A}; kept the calendar day {day.isoformat()}")
    return day


# The day a part of a week is read as: its earliest, so a plan meeting it is never late for what was meant
_WEEK_PARTS = {"early": 0, "mid": 2, "middle of": 2, "late": 3}  # "later this week" is by its end, Friday


def _part_of_week(g: dict[str, str | None], now: datetime, notes: list[str]) -> date:
    """ "early next week" (Monday), "mid next week" (Wednesday), "late this week" (Thursday)."""
    said = " ".join((g.get("wpos") or "").lower().split())
    monday = now.date() - timedelta(days=now.weekday()) + timedelta(days=7 if (g.get("wpq") or "").lower() == "next"
                                                                    else 0)
    day = monday + timedelta(days=_WEEK_PARTS[said])
    notes.append(f"read '{' '.join((g.get('wpart') or '').split())}' as {day:%A}, the earliest day it may mean (say "
                 "the day if a later one is fine)")
    return day


def _period_end(unit: str, today: date, step: int) -> date:
    """The last day of the week (Friday), month, quarter or year containing ``today``, ``step`` periods on."""
    if unit == "week":
        return today + timedelta(days=4 - today.weekday() + 7 * step)
    months = {"month": 1, "quarter": 3, "year": 12}[unit]
    first_month = (today.month - 1) // months * months + months * step  # zero-based month of the period's start
    year, month = divmod(first_month + months - 1, 12)
    year += today.year
    return date(year, month + 1, calendar.monthrange(year, month + 1)[1])


_MONTH_POINTS = {"early": 10, "mid": 15}  # "early March" ends on the 10th (its first third), "mid-March" is the 15th
# "the third week of December" ends on the 21st; its last week ends with the month
_WEEK_OF_MONTH = {"first": "week1", "1st": "week1", "second": "week2", "2nd": "week2", "third": "week3", "3rd": "week3",
                  "fourth": "week4", "4th": "week4", "last": "end"}


def _within_period(g: dict[str, str | None], now: datetime, at: time, notes: list[str]) -> date:
    """A day within a named month, quarter or half, or within this or next month: the next one still ahead."""
    said = (g.get("mpos") or g.get("mpos2") or "end").lower()
    pos = {"middle": "mid", "beginning": "start", "late": "end"}.get(said, said)
    if g.get("mweek"):  # "the third week of December": the end of the month's third seven days
        pos = _WEEK_OF_MONTH[(g.get("mweek") or "").lower()]
    named = (g.get("mmon") or "").lower()
    half = (g.get("mhalf") or "").lower()
    year = g.get("my")
    today = now.date()
    if named or half:
        months = 1 if named else 3 if half[0] == "q" else 6
        first = _MONTHS[named[:3]] if named else (int(half[1]) - 1) * months + 1
        day = _point(int(year) if year else today.year, first, months, pos)
        if year is None and _at(day, at, now) <= now:
            passed, day = day, _point(today.year + 1, first, months, pos)
            label = calendar.month_name[first] if named else half.upper()
            notes.append(f"{label} {today.year}'s day has passed today; took {day.isoformat()}" if passed == today
                         else f"took {label} {day.year}, the next one ahead")
    else:
        step = 1 if (g.get("mnext") or "").strip().lower() == "next" else 0
        day = _point(*_month_on(today, step), 1, pos)
        if step == 0 and _at(day, at, now) <= now:
            passed, day = day, _point(*_month_on(today, 1), 1, pos)
            notes.append(f"this month's day has passed{' today' if passed == today else ''}; took {day.isoformat()}")
    rule = {"start": "the first day, 09:00", "early": "the end of its first third", "mid": "the middle",
            "end": "the last day", "week1": "the end of its first week", "week2": "the end of its second week",
            "week3": "the end of its third week", "week4": "the end of its fourth week"}[pos]
    notes.append(f"read '{' '.join((g.get('mrel') or '').split())}' as {rule}: {day:%a %Y-%m-%d}")
    if pos == "end" and day.weekday() >= 5:
        notes.append(f"that day falls on a {day:%A}; kept the calendar day {day.isoformat()}")
    return day


def _bare_period(g: dict[str, str | None]) -> bool:
    """A month, quarter or half named alone ("June", "Q1", "H2 2027"), with no day within it."""
    return bool(g.get("mrel") and (g.get("mmon") or g.get("mhalf"))
                and not (g.get("mpos") or g.get("mpos2") or g.get("mweek") or g.get("mend")))


def _named_period(g: dict[str, str | None]) -> tuple[int, int, str]:
    """The first month, the length in months and the name of the month, quarter or half the groups name."""
    named = (g.get("mmon") or "").lower()
    if named:
        first = _MONTHS[named[:3]]
        return first, 1, calendar.month_name[first]
    half = (g.get("mhalf") or "").lower()
    months = 3 if half[0] == "q" else 6
    return (int(half[1]) - 1) * months + 1, months, half.upper()


def _whole_period(
    g: dict[str, str | None], now: datetime, at: time, notes: list[str], readings: list[tuple[str, datetime]]
) -> datetime:
    """"by June", "by Q1": done before it starts, or by its end? A month apart or more, so both readings are kept
    (``policy.questions`` asks when the choice could change the plan); the earlier is taken, as it can miss no
    deadline: 17:00 on the day before it starts. Once it has started only its end is left. "before June" has the
    one reading. Like a day within a period, the next one still ahead, so a past month is next year's."""
    first, months, name = _named_period(g)
    year = int(g.get("my") or now.year)
    ends = _at(_point(year, first, months, "end"), at, now)
    before = (g.get("trigger") or "").lower().startswith("before")
    starts = _at(_point(year, first, months, "start") - timedelta(days=1), at, now)
    if not g.get("my") and (starts if before else ends) <= now:
        year += 1
        ends = _at(_point(year, first, months, "end"), at, now)
        starts = _at(_point(year, first, months, "start") - timedelta(days=1), at, now)
        notes.append(f"took {name} {year}, the next one ahead")
    label = f"{name} {year}"
    if before:
        notes.append(f"read 'before {name}' as by the day before {label} starts: {starts:%a %Y-%m-%d %H:%M}")
        return starts
    if starts <= now:
        notes.append(f"{label} has started: read '{name}' as by its last day, {ends:%a %Y-%m-%d %H:%M}")
        return ends
    readings += [(f"before {label} starts", starts), (f"by the end of {label}", ends)]
    notes.append(f"read '{name}' as before {label} starts: by {starts:%a %Y-%m-%d %H:%M}, the earlier reading (say"
                 f" 'by the end of {name}' for {ends:%a %Y-%m-%d %H:%M})")
    return starts


def _holiday(g: dict[str, str | None], now: datetime, at: time | None, notes: list[str]) -> datetime:
    """"by Christmas", "before Thanksgiving": done before the holiday starts, 17:00 on the day before (as "by the
    weekend" is Friday 17:00), so the work is never due on a day off; with a time, that time on the day itself. This
    year's unless that has passed, then next year's."""
    said = " ".join((g.get("hol") or "").split())
    year = int(g.get("holy") or now.year)
    name, day = _holiday_on(said, g, year)
    when = _holiday_due(day, at, now)
    if not g.get("holy") and when <= now:
        passed = when.date() == now.date()
        name, day = _holiday_on(said, g, year + 1)
        when = _holiday_due(day, at, now)
        notes.append(f"{name} {year}'s day has passed today; took {day.isoformat()}" if passed
                     else f"took {name} {day.year}, the next one ahead")
    if at is None:
        notes.append(f"read '{said}' as before {name} ({day:%a %Y-%m-%d}) starts: by the day before, {EOD:%H:%M}")
    return when


def _year_end_break(g: dict[str, str | None], now: datetime, notes: list[str]) -> datetime:
    """ "before the holidays": 17:00 the day before Christmas Eve, the earlier reading of when a team's break starts.
    "over the holidays": done when work starts again, 09:00 on the first weekday after New Year's Day."""
    said = " ".join((g.get("hols") or "").split())
    if g.get("holsp"):  # said before New Year's Day, or in its first days: that New Year's (when work starts again)
        back = date(now.year + (now.month > 1 or now.day > 3), 1, 2)
        while back.weekday() >= 5:
            back += timedelta(days=1)
        when = _at(back, _START_OF_DAY, now)
        notes.append(f"'{said}' is done when work starts again, on the first weekday after New Year's Day")
        return when
    when = _at(date(now.year + (now.date() > date(now.year, 12, 23)), 12, 23), EOD, now)
    notes.append(f"'{said}' taken to start on Christmas Eve, the earlier reading (give a date if the break starts "
                 "sooner)")
    return when


def _holiday_on(said: str, g: dict[str, str | None], year: int) -> tuple[str, date]:
    """The holiday's name and its day in ``year``: fixed days, and US Thanksgiving, the fourth Thursday of November."""
    said = said.lower()
    if said.startswith(("christmas", "xmas", "x-mas")):
        eve = g.get("holeve") or g.get("holeve2")
        return ("Christmas Eve", date(year, 12, 24)) if eve else ("Christmas Day", date(year, 12, 25))
    if said == "nye" or g.get("nye"):
        return "New Year's Eve", date(year, 12, 31)
    if said.startswith("thanksgiving"):  # the US holiday; Canada's is in October
        november = date(year, 11, 1)
        return "US Thanksgiving", november + timedelta(days=(3 - november.weekday()) % 7 + 21)
    if said == "halloween":
        return "Halloween", date(year, 10, 31)
    return "New Year's Day", date(year, 1, 1)


# The days off nearly every workplace keeps, wherever it is (month, day): New Year's Day and Christmas Day
_DAYS_OFF = frozenset({(1, 1), (12, 25)})


def working_day(day: date) -> bool:
    """Whether ``day`` is a working day: Monday to Friday, and not New Year's Day or Christmas Day. A day offered as
    when work is due is one of these: "as next month starts" in December is Mon Jan 4, not New Year's Day."""
    return day.weekday() < 5 and (day.month, day.day) not in _DAYS_OFF


def _holiday_due(day: date, at: time | None, now: datetime) -> datetime:
    """17:00 the day before the holiday, or the time given on the day itself."""
    if at is None:
        return _at(day - timedelta(days=1), EOD, now)
    return _at(day, at, now)


def _month_on(today: date, step: int) -> tuple[int, int]:
    """(year, month) ``step`` months after ``today``'s."""
    year, month = divmod(today.month - 1 + step, 12)
    return today.year + year, month + 1


def _point(year: int, first: int, months: int, pos: str) -> date:
    """The day ``pos`` names in the ``months`` months from ``first`` of ``year``: a month's 1st, 10th, 15th or last
    day; a quarter's or half's first day, the end of its first third, its middle, or its last day."""
    def last_day(offset: int) -> date:
        y, m = divmod(first - 1 + offset, 12)
        return date(year + y, m + 1, calendar.monthrange(year + y, m + 1)[1])

    if pos == "start":
        return date(year, first, 1)
    if pos == "end":
        return last_day(months - 1)
    if pos.startswith("week"):  # the end of the first month's Nth seven days
        return date(year, first, 7 * int(pos[-1]))
    if months == 1:
        return date(year, first, _MONTH_POINTS[pos])
    if pos == "early":
        return last_day(months // 3 - 1)
    if months % 2:  # the middle month's 15th
        y, m = divmod(first - 1 + months // 2, 12)
        return date(year + y, m + 1, 15)
    return last_day(months // 2 - 1)


def _recurs(g: dict[str, str | None]) -> str | None:
    """How often a day within a period comes round: a named month, quarter or half yearly, "mid-month" monthly."""
    if g.get("hol"):
        return "year"
    if not g.get("mrel"):
        return None
    if g.get("mmon") or g.get("mhalf"):
        return "year"
    return None if (g.get("mnext") or "").strip().lower() == "next" else "month"


def _weekend(g: dict[str, str | None], now: datetime, notes: list[str]) -> datetime:
    """Work over the weekend is done when the working week starts again: Monday 09:00. "by the weekend" is before it
    starts: Friday 17:00, or Monday 09:00 once it has."""
    today = now.date()
    monday = today + timedelta(days=7 - today.weekday())  # the Monday after the coming (or current) weekend
    if (g.get("wkq") or "").lower() == "next":
        monday += timedelta(days=7)
    said = " ".join((g.get("wkend") or "").split())
    at = _clock(g, notes, now)
    if g.get("trigger") is not None and not (g.get("wkp") or g.get("wkeo")):  # "by the weekend"
        when = _at(monday - timedelta(days=3), at or EOD, now)
        if when > now:
            notes.append(f"read '{said}' as before it starts: {when:%a %Y-%m-%d %H:%M}")
            return when
    when = _at(monday, at or _START_OF_DAY, now)
    notes.append(f"read '{said}' as done when the working week starts: {when:%a %Y-%m-%d %H:%M}")
    return when


def _weekday(g: dict[str, str | None], now: datetime, at: time, notes: list[str]) -> date:
    """A named weekday under the rules in the module docstring."""
    target = _WEEKDAYS[(g.get("wdn") or "")[:3].lower()]
    qualifier = " ".join((g.get("wdq") or g.get("wdw") or "").lower().split()).removeprefix("the ")
    qualifier = "next" if qualifier == "nxt" else qualifier  # as chat spells it
    today = now.date()
    monday = today - timedelta(days=today.weekday())
    if qualifier in ("next", "following"):
        day = monday + timedelta(days=7 + target)
        name = f"{day:%A}"
        notes.append(
            f"took {name} {day.isoformat()} for 'next {name}' (the {name} of next week;"
            f" say 'this {name}' for the coming one)"
        )
        return day
    if qualifier == "last":
        return today - timedelta(days=(today.weekday() - target - 1) % 7 + 1)
    if qualifier == "this" and g.get("wdw"):
        return monday + timedelta(days=target)
    day = today + timedelta(days=(target - today.weekday()) % 7)
    if _at(day, at, now) <= now:
        day += timedelta(days=7)
        notes.append(f"{day:%A} {at:%H:%M} this week has passed; took {day:%A %Y-%m-%d}")
    return day


def _relative_day(g: dict[str, str | None], now: datetime) -> date:
    word = " ".join((g.get("rd") or "").lower().split()).removeprefix("the ")
    offsets = {"today": 0, "tonight": 0, "tomorrow": 1, "tmrw": 1, "tmr": 1, "yesterday": -1, "day after tomorrow": 2,
               "overnight": 0 if now.hour < _NIGHT_ENDS else 1}  # said in the small hours: this morning
    return now.date() + timedelta(days=offsets[word])


_NIGHT_ENDS = 5  # before this hour, "overnight" is the night already under way


def _relative(g: dict[str, str | None], now: datetime, notes: list[str]) -> datetime:
    """'in N hours' exactly; 'in N days/weeks/months' on a calendar day at the given time or 17:00."""
    raw = " ".join((g.get("rn") or g.get("rn3") or g.get("rn2") or "1").lower().split())  # "in the next week": 1
    count = int(raw) if raw.isdigit() else _NUMBER_WORDS.get(raw) or below_100(raw)
    unit = " ".join((g.get("ru") or g.get("ru2") or "").lower().split())
    if g.get("rnhi"):  # "in 3 to 5 days": the earlier end, the reading that never finishes late
        notes.append(f"read '{raw} to {g['rnhi']} {unit}' as {raw} {unit}, the earlier end of the range")
    if unit.startswith("fortnight"):  # two weeks
        count, unit = count * 2, "weeks"
    if count <= 0:
        raise ValueError(f"'{count} {unit}' is not ahead")
    if unit.startswith(("h", "mi")):  # "in 6 hours", "within 90 minutes": exactly that long from now
        span = timedelta(hours=count) if unit.startswith("h") else timedelta(minutes=count)
        if span > _MAX_AHEAD:
            raise ValueError("that is more than ten years ahead")
        # Aware arithmetic is wall-clock arithmetic; go through UTC so "in 24 hours" stays 24 hours across DST.
        return (now.astimezone(UTC) + span).astimezone(now.tzinfo)
    at = _clock(g, notes, now) or EOD
    day = _add_days(_anchor(g, now, notes), count, unit)
    if day - now.date() > _MAX_AHEAD:
        raise ValueError("that is more than ten years ahead")
    return _at(day, at, now)


def _anchor(g: dict[str, str | None], now: datetime, notes: list[str]) -> date:
    """The day a span is counted from: today, or the one said ("2 weeks from Monday": the coming Monday)."""
    said = (g.get("ranchor") or "").lower()
    if not said:
        return now.date()
    if said == "tomorrow":
        return now.date() + timedelta(days=1)
    return _weekday({"wdn": g.get("rawd"), "wdq": g.get("raq")}, now, _START_OF_DAY, notes)


def _add_days(today: date, count: int, unit: str) -> date:
    """``count`` units after ``today``; business days skip Saturdays and Sundays."""
    if unit.startswith(("business", "working")):
        day, left = today, min(count, 10_000)
        while left:
            day += timedelta(days=1)
            left -= day.weekday() < 5
        return day
    if unit.startswith("mo"):
        year, month = divmod(today.month - 1 + min(count, 240), 12)
        last = calendar.monthrange(today.year + year, month + 1)[1]
        return date(today.year + year, month + 1, min(today.day, last))
    days = count * (7 if unit.startswith("w") else 1)
    return today + timedelta(days=min(days, 10_000))


def _check_strict_triggers(text: str, found: list[Deadline]) -> None:
    """'by', 'due' and 'deadline' promise a date: refuse one that reads as none ("by the blue moon")."""
    for m in _STRICT_RE.finditer(text):
        rest_at = m.start("rest")
        if any(d.start <= rest_at < d.end for d in found):
            continue
        before = text[: m.start()].split()
        if m["t"].lower() == "by" and before and _PASSIVE_RE.fullmatch(before[-1]):
            continue  # "grouped by model size", "run by team-nlp": not a deadline
        after = text[m.end("t"):].split()[:1]
        if m["t"].lower() == "by" and before and after and before[-1].lower() == after[0].strip(",.;:!?").lower():
            continue  # "side by side", "one by one", "step by step": a manner, not a date
        if m["t"].lower() == "by" and OCCASION_RE.match(text, m.start()) is not None:
            continue  # "by the demo": an occasion with no date, whose date is asked (``policy.parse``)
        if m["t"].lower() == "by" and _BY_LIMIT_RE.match(text, m.end("t")) is not None:
            continue  # "limited to 2 instances by quota": what limits, not when
        phrase = " ".join(m.group(0).split())
        raise RequestError(f'Could not read a deadline in "{phrase}".{_did_you_mean(phrase)}{_whose_end(phrase)} '
                           f'{_HINT}', code="unparseable_deadline")


# "by quota", "by our account's limits", "by policy": what holds a request back, said after "by"
_BY_LIMIT_RE = compiled_on_use(r"\s+(?:(?:the|our|my)\s+)?(?:(?:account'?s?|aws|service|team'?s?)\s+)?"
                               r"(?:quotas?|limits?|policy|policies|budget|capacity)\b", _F)
_END_OF_RE = compiled_on_use(r"\bend\s+of\s+(?P<what>(?:the|our|this|my)\s+[a-z][\w-]*)\s*$", _F)


# "by the NeurIPS deadline", "by our ICML submission deadline", "due the board review cutoff"
_NAMED_DEADLINE_RE = compiled_on_use(
    r"\b(?:the|our|this|my)\s+(?P<what>[a-z0-9][\w.-]*(?:\s+[a-z0-9][\w.-]*){0,2}\s+(?:deadline|cut-?off"
    r"|due\s+date))\s*$",
    _F)


def _whose_end(phrase: str) -> str:
    """ " gpuops does not know when the sprint ends: give its date." for "by the end of the sprint", and the same for a
    deadline known by its name ("by the NeurIPS deadline"); else nothing."""
    m = _END_OF_RE.search(phrase)
    if m:
        return f" gpuops does not know when {m['what']} ends: give its date."
    m = _NAMED_DEADLINE_RE.search(phrase)
    return f" gpuops does not know the date of the {m['what']}: give it." if m else ""


_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow",
              "tonight", "january", "february", "march", "april", "may", "june", "july", "august", "september",
              "october", "november", "december")


def _did_you_mean(phrase: str) -> str:
    """ " Did you mean 'by Friday'?" for a misspelt day or month ("by Firday"), else nothing."""
    words = phrase.split()
    for i, word in enumerate(words):
        close = difflib.get_close_matches(word.lower(), _DAY_NAMES, n=1, cutoff=0.75)
        if close and close[0] != word.lower():
            fixed = " ".join([*words[:i], close[0].capitalize(), *words[i + 1:]])
            return f" Did you mean '{fixed}'?"
    return ""
