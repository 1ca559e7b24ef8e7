"""Time and intent words ``policy.parse`` hands over: when a job starts, a job of a stated length, capacity already
held, what needs a question, and every phrase nothing used (``unread``).

- "64 H100s tomorrow", "starting Monday": a start, not a deadline (``start_after``); "next week" starts Monday.
- "eval run 7B 2h", "8 H100 for 6 hours": a job of that length (``fixed_hours``), priced as instances × price × hours.
- "we have a capacity block / reservation for 4x p5.48xlarge", "we have 2 p4d reserved", "on our reserved p5s": the
  capacity is fixed and paid (``reserved``); the plan says whether the job fits it.
- Words that carry no request ("please", "the", "model") are skipped; every other phrase left once all readers have
  taken theirs is listed in ``unread``, and a plan with unread words is never approved automatically. Words that
  describe the work ("10B tokens of code", "for classification", "bf16") are read just before, with a note, and
  recurring work ("nightly") is noted first and stays unread (``policy.describing``).
"""

from __future__ import annotations

import calendar
import dataclasses
import difflib
import math
import re
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from policy.datasets import dataset_in_text
from policy.dates import (
    AWAY_FROM,
    EOD,
    MONTH,
    NAMED_SPAN,
    RUN_STOP,
    Deadline,
    find_deadlines,
    month_start,
    working_day,
)
from policy.defaults import format_count
from policy.describing import BENCHMARK, DATA_ITEMS, TextScan, cadence, read_descriptions, read_recurring
from policy.errors import RequestError
from policy.models import find_model
from policy.patterns import compiled_on_use
from policy.questions import Choice, Question
from policy.regions import ALL_REGIONS
from policy.request import Task, measures_work
from policy.spelled import BELOW_100, VAGUE_COUNTS, below_100
from policy.timespan import HOURS_PER_MONTH

__all__ = ["did_you_mean", "EACH_RUN", "EPOCHS_WAITING", "EVAL_RE", "EVENT_CUE", "EVENT_NAMED", "example_date",
           "FILLER_WORDS", "MIN_ITERATIONS_AS_STEPS", "PAIRED_TOKENS", "PRODUCT_LAUNCH", "read_back_reference",
           "read_held", "read_intent", "read_timing", "read_to_reserve", "read_today", "ready_by_choices",
           "RL_ROLLOUTS", "Scan", "TRAIN_RE", "UNIT_HOURS"]

_F = re.IGNORECASE | re.ASCII


class Scan(TextScan, Protocol):
    """The text with used phrases blanked (``policy.parse``)."""

    def take(self, pattern: re.Pattern[str]) -> list[re.Match[str]]: ...

    def holds(self, words: tuple[str, ...]) -> bool: ...

    def deadlines(self, *, now: datetime, zone: ZoneInfo) -> list[Deadline]: ...


_DURATION_RE = compiled_on_use(r"(?<![\w.$-])(?:for\s+(?:the\s+)?(?:next\s+)?)?"
                          r"(?P<n>\d{1,5}(?:\.\d+)?)(?:\s*|-)(?P<u>h|hrs?|hours?|d|days?|w|wks?|weeks?|mins?|minutes?)(?![\w])"
                          r"(?!\s+from\s+(?:now|today))"  # "2 days from today" is a deadline
                          # "a 2-week run" is a length; "a 48-hour turnaround", "a 3-day deadline" are deadlines
                          r"(?!-?\s*(?:turn-?around|deadline|sla|window|notice|timeline|time-?frame|lead))", _F)
# "for a week", "for two days", "for a full day", "should take a couple hours": counted in words only after "for" or
# "take" ("once a day" is not a job)
_WORDED_DURATION_RE = compiled_on_use(
    r"(?<![\w.$-])(?:for|(?:it\s*'?ll\s+|(?:should|will|would|might|may|could)\s+)?takes?|taking|lasts?|lasting)\s+"
    rf"(?:about\s+|around\s+|roughly\s+|maybe\s+|like\s+|~\s*)?(?P<n>(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|an?|{BELOW_100})"
    # "for a day and a half", "for an hour and a half"
    r"\s+(?:full\s+|whole\s+)?(?P<u>hours?|days?|weeks?)(?P<half>\s+and\s+a\s+half)?(?![\w])"
    r"(?!\s+from\s+(?:now|today))"
    # "8 H100s for a month", "for 2 months": only after "for", and a month as a bill counts it (730 h)
    rf"|(?<![\w.$-])for\s+(?:about\s+|around\s+|roughly\s+|~\s*)?(?P<mn>an?|one|two|\d)\s+(?:full\s+|whole\s+)?"
    r"(?P<mu>months?)(?![\w])", _F)
# "13B, 26B tokens, 128 GPUs, one week": counted in words as an item of a list of its own, between commas
_LISTED_WORDED_DURATION_RE = compiled_on_use(
    rf"(?:(?<=[,;:])|^)\s*(?P<n>(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|an?|{BELOW_100})\s+(?:full\s+|whole\s+)?"
    # "…, a week is fine": said of the length, which the time the work has then is
    r"(?P<u>hours?|days?|weeks?)(?=\s*(?:[,;.]|$)|\s+(?:is|'s|would\s+be|should\s+be)\s+(?:fine|ok(?:ay)?|acceptable"
    r"|enough|plenty)\b)", _F)
# "…, happy with 2 weeks", "we're fine with 3 days": a length said to be enough, as "a week is fine" is
_CONTENT_WITH_BEFORE_RE = compiled_on_use(
    r"\b(?:(?:we'?re|we\s+are|i'?m|i\s+am)\s+)?(?:happy|ok(?:ay)?|fine|good|content|comfortable)\s+with\s+$", _F)
UNIT_HOURS = {"h": 1, "d": 24, "w": 168, "m": 1 / 60}  # "m": minutes ("30 min"); a month is HOURS_PER_MONTH
_RANGE_BEFORE_RE = compiled_on_use(r"\d\s*(?:to|-|or)\s*$", _F)  # the far end of a range: the deadline reader's
# How a guess at the run's length is said: "should take like 2 hours", "it'll probably take about 3h"
_GUESSED_LENGTH_LEAD = (r"(?:should|will|would|'ll|might|probably|guess(?:ing)?(?:\s+it)?|think(?:\s+it)?)\s+"
                       r"(?:only\s+|just\s+|probably\s+)?takes?\s+(?:like\s+|about\s+|around\s+|roughly\s+|maybe\s+"
                       r"|~\s*)?")
_GUESSED_LENGTH_RE = compiled_on_use(
    # "should take minutes", with no count: a guess as much as "should take 2 hours" is
    rf"\b(?:(?:it|this|that|i|we)\s*)?{_GUESSED_LENGTH_LEAD}(?:an?|\d+(?:\.\d+)?|a\s+few|a\s+couple(?:\s+of)?)?\s*"
    # "should take 3h on 8 H100s": a length on named hardware stays the job's or the work's (``_duration``)
    r"(?:hours?|hrs?|h|minutes?|mins?|days?|weeks?)(?![\w-])(?!\s+(?:on|with|using|across)\b)"
    r"(?:\s+or\s+so)?(?:\s*,?\s*right\b\??)?", _F)
_IN_BEFORE_RE = compiled_on_use(r"\b(?:in|within|every|per|after|than|max(?:imum)?(?:\s+of)?|at\s+most|up\s+to|under"
                           r"|within\s+\$\s*\d[\d.,]*\s*[km]?\s+(?:and|&)"  # "within $150 and 10 hours"
                           r"|cap(?:ped)?(?:\s+(?:it|this|the\s+(?:run|job)))?\s+at|limit(?:ed)?(?:\s+(?:it|this))?\s+to"
                           r"|(?:in|within|over)\s+(?:the\s+)?(?:next|coming)"  # "in the next 48 hours"
                           r"|exceed|go\s+(?:over|beyond)"  # "must not exceed 10 hours": a cap (``policy.dates``)
                           rf"|{RUN_STOP}"  # "max runtime 8h", "time limit 1 day": so too
                           # "we have 3 days", "we've only got 2 weeks": time to finish in (``policy.dates``)
                           r"|(?:'ve|have|has|got)(?:\s+got)?(?:\s+(?:only|just|about|roughly|around))?"
                           # "deadline ~2 weeks", "deadline is 3 days": the time to finish in (``policy.dates``)
                           r"|(?:deadline|turn-?around|timeline|time[\s-]?frame|target)(?:\s+(?:is|of))?\s*[:=]?"
                           r"(?:\s*(?:about|around|roughly|approx(?:\.|imately)?|maybe))?\s*~?"
                           r"|(?:in|within)\s+~"
                           r"|(?:don'?t|do\s+not)\s+mind\s+if\s+it"  # "don't mind if it takes a few days"
                           r"|wait(?:\s+for)?(?:\s+up\s+to)?)\s*$", _F)  # "happy to wait 2 weeks" (``policy.dates``)
_DATA_AFTER_RE = compiled_on_use(r"\s+of\s+(?:\w+\s+)?(?:audio|speech|recordings?|video|footage|podcasts?|calls?)\b"
                            r"|\s+(?:audio|speech|recordings|footage|podcasts)\b"  # "2k hrs audio": "of" unsaid
                            # "2 hours of eval at the end": time added to the job, not its length
                            r"|\s+of\s+(?:evals?|evaluations?|testing|benchmark(?:s|ing)?|inference)\b", _F)
# hours of something other than the work itself ("of librispeech", not "of training"), and the speech models to whom
# such hours are sound
_OF_SOMETHING_RE = compiled_on_use(r"\s+of\s+(?!(?:training|compute|gpu|work|fine-?tuning|runtime|wall|time)\b)[a-z]",
                                   re.I)
_SPEECH_MODEL_RE = compiled_on_use(r"\b(?:whisper|wav2vec\s?2)", re.I)
# A speech corpus named beside its hours ("librispeech 960h", "the 960h librispeech set"): the audio's hours, no length
_SPEECH_CORPUS = r"(?:librispeech|libri-?light|common\s*voice|gigaspeech|voxpopuli|tedlium|switchboard|fleurs)"
_CORPUS_BEFORE_RE = compiled_on_use(rf"\b{_SPEECH_CORPUS}\s*$", re.I)
_CORPUS_AFTER_RE = compiled_on_use(rf"\s+{_SPEECH_CORPUS}\b", re.I)
_CORPUS_HOURS_RE = compiled_on_use(rf"\b{_SPEECH_CORPUS}\s+\d[\d.,]*\s*k?\s*(?:hours?|hrs?|h)\b"
                                   rf"|(?<![\w.])\d[\d.,]*\s*k?\s*(?:hours?|hrs?|h)\s+{_SPEECH_CORPUS}\b", re.I)
_SPEECH_FAMILY_RE = compiled_on_use(r"\b(?:whisper|wav2vec\s?2)(?![\w.-])", re.I)  # named alone, no size of it
# a cap ("5 hours max") or the time to finish in ("a 3 week deadline"), not a length
_CAP_AFTER_RE = compiled_on_use(rf"\s*(?:max(?:imum)?|tops|at\s+most|or\s+less)\b|{NAMED_SPAN}", _F)
# "by next week", and the outcome needed then: "need it next week", "we need the model next week", "the result ships
# to prod next week" (never a start; "launch it next week" is when the job starts)
_BY_NEXT_WEEK_RE = compiled_on_use(
    r"\b(?:by|before|until|due|needs?\s+(?:it|this|them|the\s+(?:results?|model|weights|checkpoint|numbers|adapter))"
    r"|(?:ships?|shipping|goes\s+(?:live|out)|going\s+(?:live|out)|is\s+due|releases?|released)"
    r"(?:\s+(?:to|in(?:to)?)\s+(?:prod(?:uction)?|customers|users))?)"
    r"\s+(?:the\s+)?next\s+(?:week|wk)\b(?!\s*'?s?\s*end)", _F)
_START_CUE_RE = compiled_on_use(
    r"\b(?:(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)?(?:\s+(?:it|this|that|the\s+(?:job|run)))?\s+off"
    # "kick it off Monday 6am", "schedule it for Saturday": when the job starts
    r"|schedul(?:e|ed|ing)(?:\s+(?:it|this|that|the\s+(?:job|run)))?\s+(?:for|on))"
    r"(?:\s+after|(?P<any>\s+(?:any\s*time|whenever)))?"
    # "between Dec 10 and Dec 12": the first is the start, the second (read by the deadline reader) the deadline
    r"|(?:run(?:s|ning)?|launch(?:es|ing)?)\s+after|from|as\s+of|available|no\s+earlier\s+than|between"
    # "can't start until the data lands Wednesday", "won't be able to start before Monday": the start waits for it
    r"|(?:can'?t|cannot|can\s+not|won'?t(?:\s+be\s+able\s+to)?|not\s+able\s+to|unable\s+to)\s+(?:start|begin|kick\s+off"
    r"|run|launch)(?:\s+(?:it|this|that|the\s+(?:job|run)))?\s+(?:until|till|til|before)"
    r"(?:\s+(?:the|our|my)\s+(?:[a-z-]+\s+){0,2}?(?:data|dataset|corpus|tokens|weights|checkpoint|quota|capacity)"
    r"\s+(?:lands?|arrives?|is\s+ready|are\s+ready|comes?\s+in|is\s+in|is\s+available|are\s+available|is\s+approved))?"
    # "launch it on Monday", "launch the job at 6am": when the job starts ("our launch on Friday" is the event's day)
    r"|launch(?:es|ing)?\s+(?:it|this|that|the\s+(?:job|run))\s+(?:at|on)"
    # "after Dec 10" ("not after", "the day after" are not starts), and the end of what the job waits for: "once the
    # code freeze is over on Dec 10", "after the migration finishes Monday"
    r"|(?:(?:but\s+)?only\s+)?(?<!not\s)(?<!n't\s)(?<!day\s)after"
    r"|(?P<event>(?:(?:but\s+)?only\s+)?(?:after|once|when)\s+(?:the\s+|our\s+|my\s+|this\s+)?(?:[a-z-]+\s+){1,3}?(?:ends?|is\s+over"
    r"|lifts|is\s+lifted|finishes|closes|wraps\s+up|is\s+done|completes|is\s+complete)))"
    r"\s*(?:on\s+|at\s+|in\s+)?$", _F)  # "start after 6pm today": the start is that time ("the launch on" is an event)
_START_CUE_CHARS = 45  # "once the code freeze is over on Dec 10": the longest cue read before a date
# "kick off a 13B fine-tune on 2B tokens monday 8am": a request that opens by starting the job names when it starts
# with the first date it says bare (no "by", "done", "due" before it); "start now" says now
_OPENS_BY_STARTING = (r"^\W*(?:(?:please|pls|can\s+(?:you|we)|could\s+you|let'?s|we\s+(?:want|need)\s+to"
                      r"|i\s+(?:want|need)\s+to)\s+)?(?:start|begin|kick\s+off)\b")
_OPENS_WITH_START_RE = compiled_on_use(
    _OPENS_BY_STARTING + r"(?!\s+(?:now|asap|immediately|right\s+away|today|tonight|whenever|any\s*time)\b)", _F)
# "kick off … tonight", "run it tonight", "start tonight, done by Monday": the evening the job starts, never a deadline
# at midnight that a multi-day job would be bought many nodes to meet ("need it tonight", "done by tonight" stay
# deadlines)
_TONIGHT_START_BEFORE_RE = compiled_on_use(
    r"\b(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)?(?:\s+(?:it|this|that))?\s+off|run(?:s|ning)?|launch(?:es|ing)?"
    r"|fire(?:\s+(?:it|this|that))?\s+off)(?:\s+(?:it|this|that|the\s+(?:job|run)))?\s*$", _F)
_OPENS_BY_STARTING_RE = compiled_on_use(_OPENS_BY_STARTING, _F)
_TONIGHT_START = time(20, 0)
_NOW_AT_CLAUSE_END_RE = compiled_on_use(r"(?<![\w-])(?<!by\s)(?<!until\s)(?:right\s+)?now(?=\s*(?:[,.;!?]|$))", _F)
_BARE_DATE_RE = compiled_on_use(r"(?:on\s+)?(?:(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct"
                                r"|nov|dec)[a-z]*\b|\d)", _F)
_DUE_BEFORE_RE = compiled_on_use(r"\b(?:done|finish(?:ed)?|ready|due|need(?:ed)?|complete[sd]?|deliver(?:ed)?|back"
                                r"|deadline|eta|until|till|til)\W*$", _F)
# "not before Monday": Monday is when the job may start, not a deadline the Sunday before
_NOT_BEFORE_RE = compiled_on_use(r"\b(?:not|never|[a-z]+n't)(?:\s+(?:start|begin|run|launch)(?:ing)?"
                                r"(?:\s+(?:it|this|that|the\s+(?:job|run)))?)?\s*$", _F)
_BEFORE_RE = compiled_on_use(r"(?:before|until|till)\b", _F)  # "don't start until Monday": Monday itself
_AWAY_BEFORE_RE = compiled_on_use(rf"\b{AWAY_FROM}\s*$", _F)


# A start said as a month alone: "starting in January", "kicking off in March" ("data from March" is no start)
_START_IN_MONTH_RE = compiled_on_use(
    rf"\b(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)?\s+(?:it\s+)?off)\s+(?:in\s+)?(?:early\s+)?"
    rf"(?P<month>{MONTH})\.?(?![\w-])(?!\s+\d)"
    # "sometime in January is fine", "any time in January works": when, within it, left open (as "sometime next week")
    rf"|\b(?:sometime|some\s+time|any\s*time|at\s+some\s+point)\s+(?:in\s+|during\s+)(?P<month2>{MONTH})\.?(?![\w-])"
    r"(?!\s+\d)(?:\s+(?:is|would\s+be|'s)\s+(?:fine|ok(?:ay)?|good)|\s+works)?", _F)


# A start said as a time of day alone: "starting at 8pm", "kick off at 21:00"
_START_AT_CLOCK_RE = compiled_on_use(
    r"\b(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)?\s+(?:it\s+)?off)\s+(?:at\s+)?"
    r"(?:(?P<h>1[0-2]|0?[1-9])(?::(?P<mi>[0-5]\d))?\s*(?P<ap>[ap])\.?m\.?|(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)"
    r"|(?P<midnight>midnight)(?:\s+tonight)?)"
    r"(?![\w:])(?!\s*(?:on|tomorrow|today|tonight|mon|tue|wed|thu|fri|sat|sun|next|this|dec|jan|nov)\w*)", _F)


# A time of day the job waits for, said with "after": "after 6pm", "right after the 2pm standup", "after lunch" (13:00).
# Today's, or tomorrow's once past; a day said with it ("after 6pm on Friday") is left to the date readers.
_AFTER_CLOCK_RE = compiled_on_use(
    r"\b(?:(?:right|just|straight|immediately|soon)\s+)?after\s+(?:the\s+|our\s+|my\s+)?"
    r"(?:(?:(?P<h>1[0-2]|0?[1-9])(?::(?P<mi>[0-5]\d))?\s*(?P<ap>[ap])\.?m\.?|(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d))"
    r"(?:\s+(?:stand-?up|meeting|sync|call|review|demo|all[\s-]?hands|retro|sprint\s+planning|planning|1:1))?"
    r"|(?P<lunch>lunch)|(?P<midnight>midnight)(?:\s+tonight)?)"
    r"(?![\w:])(?!\s*(?:on|tomorrow|today|tonight|mon|tue|wed|thu|fri|sat|sun|next|this|dec|jan|nov)\w*)", _F)
_LUNCH_HOUR = 13


_BARE_START_RE = compiled_on_use(r"(?:the\s+)?(?:day\s+after\s+)?(?:tomorrow|tmrw|tmr)", _F)
# the end of a working day, which work is due by ("tmrw EOD", "tomorrow end of day", "tomorrow COB")
_DAY_END_RE = compiled_on_use(r"\b(?:eod|cob|eob|end\s+of\s+(?:the\s+)?(?:day|business))\b", _F)
# a time of day said with the start ("Monday 8am", "Dec 14 at 13:30", "tomorrow morning"); a date's digits are none
_CLOCK_RE = compiled_on_use(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|noon|midday|midnight"
                       r"|morning|eod|cob|eob|tonight|end\s+of", _F)
_NEXT_WEEK_RE = compiled_on_use(r"(?<![\w-])(?<!of )(?<!of the )(?<!by )(?<!by the )(?<!in )(?<!in the )(?<!within )"
                           r"(?<!within the )(?<!over )(?<!over the )"  # "in the next week" is a deadline
                           # "I'm OOO next week", "away next week": an absence, not when the job starts
                           r"(?<!ooo )(?<!out )(?<!away )(?<!off )(?<!vacation )(?<!leave )(?<!pto )(?<!holiday )"
                           r"(?<!office )"
                           r"(?:(?P<cue>starting|from|beginning|kick(?:s|ing)?\s+(?:it\s+|this\s+)?off"
                           # "sometime next week", "at some point next month": when, within it, left open
                           r"|sometime|some\s+time|at\s+some\s+point|any\s*time)\s+)?"
                           r"(?:the\s+)?(?:next|coming)\s+(?P<unit>week|month)\b"
                           r"(?!\s*(?:'s|end))", _F)
# "start after the weekend", "after the weekend": the Monday morning after the coming weekend (this one's, said on it)
_AFTER_WEEKEND_RE = compiled_on_use(
    r"\b(?:(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)?\s+(?:it\s+|this\s+)?off|run(?:s|ning)?|launch(?:es|ing)?"
    r"|go(?:es|ing)?)\s+(?:it\s+)?)?(?:right\s+|just\s+)?after\s+(?:the|this)\s+weekend\b", _F)
_START_OF_DAY = time(9, 0)
# "today" that no deadline took ("by today", "due today", "end of day today" are read as deadlines first), said
# without a time of day ("today at 5pm" may be either, so stays for a person); "later today" stays whole
_TODAY_RE = compiled_on_use(
    r"(?<![\w-])(?<!later )(?<!from )(?:(?:starting|start|beginning)\s+)?today(?![\w-])"
    r"(?!\s*(?:at\s+|by\s+|before\s+)?(?:\d|noon|midday|midnight|eod|cob|eob|end|morning|afternoon|evening))", _F)
_RESERVED_RE = compiled_on_use(
    r"\b(?:we\s+(?:have|hold|got|own)|(?:i|we)\s*'?ve\s+got|(?:have|hold|using|use|on)\s+(?:our|the)|our|existing"
    r"|already\s+(?:have|hold|bought|reserved))\s+(?:an?\s+|the\s+)?(?P<what>capacity[\s-]+blocks?|reservations?"
    r"|(?:on[\s-]demand\s+)?capacity[\s-]+reservations?|odcrs?"
    r"|reserved\s+(?:capacity|instances?)|training[\s-]+plans?)\b",
    _F,
)
# Reserved capacity to be bought for the run: "reserve a capacity block", "book a capacity block for 16 H100s", "on a
# SageMaker training plan", "get reserved capacity", "reserve 8 p5s", "book 16 H100s from Monday to Friday" (held
# capacity, "we have a capacity block", is ``_RESERVED_RE``'s)
_TO_RESERVE_RE = compiled_on_use(
    r"\b(?:(?:is\s+it|would\s+it\s+be|it'?s)\s+worth\s+(?=reserving|booking|buying))?"
    r"(?:(?:reserve|reserving|book|booking|buy|buying|purchase|get|grab|want|need|request|use|using|via|with|on"
    r"|through|reserved\s+(?:via|with|on|through|as|by))\s+)"
    r"(?:us\s+|me\s+)?(?:an?\s+|some\s+)?(?:(?:ec2|aws)\s+)?(?:capacity[\s-]+blocks?(?:\s+for\s+ml)?"
    r"|(?:sagemaker\s+)?training[\s-]+plans?|reserved\s+capacity"
    # "is it worth reserving capacity for …?": asked, so an offering that fits is priced
    r"|(?<=reserving\s)capacity|(?<=booking\s)capacity|(?<=reserve\s)capacity|(?<=book\s)capacity)\b"
    # "capacity block for a 70B SFT …", "a 2-week capacity block starting Dec 14", "between a capacity block and
    # on-demand": one asked for by name alone (not "we have a capacity block", held: ``_RESERVED_RE``)
    r"|^\s*capacity[\s-]+blocks?\b"
    r"|(?<!have\s)(?<!hold\s)(?<!got\s)(?<!own\s)(?<!our\s)\b(?:an?|one)\s+(?:\d{1,2}[\s-]*(?:days?|weeks?|wks?)\s+)?"
    r"capacity[\s-]+blocks?\b"
    r"|\b(?:reserve|book)\s+(?=(?:\d{1,4}\s*(?:x\s*)?)?(?:[a-z]{1,5}\d{1,3}[a-z]*|h100s?|h200s?|a100s?|b200s?|gpus?"
    r"|nodes?)\b)",
    _F)
# "we have 2 p4d reserved", "on our reserved p5s", "using our 4 reserved p5.48xlarge", "16 H100s are reserved": the
# word "reserved" said of hardware. Only the word is taken, so the count and the hardware are read as ever.
_HARDWARE = r"(?:\d{1,4}\s*(?:x\s*)?)?(?:ml\.)?[a-z]{1,5}\d{1,3}[a-z]*(?:[.-][a-z0-9-]+)?(?![\w.-])"
_HELD = (rf"(?<![\w-])(?P<before>(?:(?:we|i)\s*(?:'ve|\s+have)?\s+)?(?:already\s+)?reserved)\s+(?={_HARDWARE})"
         rf"|(?<![\w.-])(?P<lead>already\s+(?:have|got|hold)\s+)?{_HARDWARE}(?P<after>\s+(?:(?:are|is)\s+)?(?:already\s+)?"
         r"reserved)(?![\w-])")
# Evaluation said: a training job's part of it, a run of its own, or what inference is for (``policy.parse``)
# A compliance regime said with no region it settles ("HIPAA data", "PHI", "FedRAMP"): only a person knows what it
# asks of the plan (a region said for it, "HIPAA so us-east-1 only", is read with the region)
_COMPLIANCE_WORDS = ("hipaa", "phi", "pci", "fedramp", "itar", "soc", "gdpr", "pii", "cui", "gxp")
_COMPLIANCE_RE = compiled_on_use(
    r"\b(?:hipaa|phi|pci(?:[\s-]?dss)?|fedramp(?:\s+(?:high|moderate))?|itar|soc\s?2|gdpr|pii|cui|gxp)"
    r"(?:[\s-]+(?:data|compliant|compliance|regulated|covered|eligible|scope|rules?|requirements?))?\b", _F)
# "we're evaluating whether to pretrain our own 1B", "considering if we should": the work is weighed, not evaluated
_WEIGHING_RE = compiled_on_use(
    r"\b(?:(?:we'?re|we\s+are|i'?m|i\s+am)\s+)?(?:evaluating|considering|deciding|weighing|exploring|debating"
    r"|thinking\s+about|figuring\s+out|trying\s+to\s+(?:decide|figure\s+out))\s+(?:whether|if)"
    r"(?:\s+(?:to|we\s+should|it'?s\s+worth|it\s+is\s+worth))?\b"
    # "is it worth moving our 7B SFT from A100 to H100?": the hardware named is weighed, each priced
    r"|\b(?:is\s+it|would\s+it\s+be|is\s+there\s+any\s+point)\s+worth(?:while)?\s+(?:moving|switching|migrating|going"
    r"|upgrading|changing)\b", _F)
EVAL_RE = compiled_on_use(r"\b(?:eval(?:uat(?:e|ion|ing))?s?|benchmark(?:s|ing)?)(?:[\s-]+(?:harness|suite))?\b", _F)
# "retrain the ranking model": train it again; "a monthly refresh with 3B new tokens": the same
TRAIN_RE = compiled_on_use(
    r"\b(?:re-?)?train(?:ing)?\b|\brefresh(?:es|ed|ing)?\b(?!\s+(?:the\s+)?(?:prices?|catalog))", _F)
# A dataset counted in items with no length said: "50k support conversations", "100k preference pairs". Only a text
# with a count nothing else read uses it.
# The words between say what kind of item ("support"); a unit or "of" there counts something else ("2000 hours of
# call audio"). Items counted per something ("8 rollouts per prompt", "16 samples every step") are a rate, not the
# dataset.
_COUNTED = (r"(?<![\w.])(?P<n>\d[\d.,]*\s*(?:k|m|mn|b|bn|thousand|million|billion)?)\s+"
            r"(?:(?!(?:of|per|every|each|hours?|hrs?|days?|weeks?|minutes?|mins?|seconds?|secs?|gb|tb|mb|tokens?|epochs?"
            r"|steps?)\b)[a-z][\w'-]*\s+){0,2}"
            rf"(?P<item>{DATA_ITEMS})(?![\w-])(?!\s+(?:per|every)\b)")
# The field that carries a product of pairs and their length from the counts' reader (``policy.parse``) to the
# intent's, which knows the task: DPO and a reward model train on both answers of each pair
PAIRED_TOKENS = "_paired_tokens"
# The field that carries RL's rollouts counted by its steps with no length said (``policy.parse``) to the intent's
# reader, which asks their length
RL_ROLLOUTS = "_rl_rollouts"
# What a preference dataset is counted in: each holds a chosen and a rejected answer.
_PAIRED_RE = compiled_on_use(r"pairs?|comparisons?|preferences?|prefs?", _F)
# What trains on both answers of each pair: DPO and its kin as said, and a reward model
_PAIRED_TRAINING_RE = compiled_on_use(r"\b(?:dpo|orpo|simpo|ipo|(?P<rm>reward[\s-]+models?|(?-i:RMs?)))\b", _F)
# RL generating several answers to each counted prompt: "8 rollouts per prompt", "16 samples each"; every one is
# trained on, so the prompts' tokens are multiplied by them.
_PER_PROMPT_RE = compiled_on_use(
    r"(?<![\w.])(?P<g>\d{1,4})\s+(?:rollouts?|samples?|completions?|generations?|responses?|trajectories)"
    r"\s+(?:per|each|for\s+each|a|every)(?:\s+(?:prompt|question|problem|task|query|instruction))?(?![\w-])", _F)


_AUDIO_RE = compiled_on_use(r"\b(?:audio|speech|asr|tts|hours\s+of\s+(?:audio|speech))\b", _F)
_MAX_AUDIO_HOURS = 10**7  # ~1,100 years of sound: more is a typo
_AUDIO_HOURS_RE = compiled_on_use(  # the hours, with the speech corpus they are of when named beside them
    rf"^(?:{_SPEECH_CORPUS}\s+)?(?P<n>[\d.,]+\s*(?:k|thousand)?)\s*(?:hours?|hrs?|h)(?:\s+{_SPEECH_CORPUS})?$", _F)
# Positions per second of audio that common encoders train on: Mimi's 12.5 Hz codec frames (Moshi, arXiv 2410.00037),
# Whisper's encoder, 1,500 positions per 30 s window (arXiv 2212.04356), and EnCodec's 75 Hz at 24 kHz (arXiv
# 2210.13438).
_WHISPER_FRAMES_PER_SECOND = 50.0  # 1,500 encoder positions for each 30 s window (Radford et al. 2022, §2.2)
_AUDIO_RATES = (("12.5 per second (Mimi codec frames)", 12.5),
                ("50 per second (Whisper's encoder frames)", _WHISPER_FRAMES_PER_SECOND),
                ("75 per second (EnCodec 24 kHz frames)", 75.0))
_WORD_RE = compiled_on_use(r"[^\s,;!?()\[\]{}\"`]+")
# A model's family name with its version ("qwen2.5", "llama-3.1") or variant ("instruct"): the size beside it is read.
_MODEL_NAME_RE = compiled_on_use(
    r"(?:meta-)?(?:llama|qwen|mistral|mixtral|gemma|phi|falcon|gpt|bert|t5|deepseek|olmo|starcoder|codellama|yi"
    r"|granite|command-r|nemotron)[\w.-]*|meta|mistralai|google|microsoft"
    # a variant said after the size, alone or joined: "instruct", "chat-hf", "instruct-v0.3"
    r"|(?:instruct|chat|hf|it|base|v\d+(?:\.\d+)*)(?:-(?:instruct|chat|hf|it|base|v\d+(?:\.\d+)*))*|\d+(?:\.\d+)+", _F)

# Words that carry no request of their own: glue, politeness, the names people call models by (the size that
# follows a name is what is read), and what describes the model ("our fine-tuned 7B", "a 1B embedding model").
FILLER_WORDS = frozenset("""
a an the and or but of for on over with by to in at from into onto as via per than then so also plus across hence thus
therefore fine
i we you me us our my your it its this that these those is are be been was were am will would can could should
we're we've we'll we'd i'm i've i'll i'd it's that's
please pls plz thanks thank thx ty cheers appreciated hi hey hello ok okay got gotten their theirs
just some new quick small big kindly spin something gpuops set setup help
box someone somebody anyone anybody internal tiny little toy subset slice portion
request requesting requested asking ask schedule scheduling make sure because launch immediately
take takes taking transformer transformers decoder encoder decoder-only encoder-only encoder-decoder
need needs want wants like let lets let's do does doing did run runs running job jobs work task gpu gpus compute
model models llm llms base baseline weights checkpoint data dataset corpus our team
get give make use using used go going have has had plan planning planned what what's whats way first dl them
must results exactly preferred squeeze question one quality grade u ur adapter adapters note fyi
under below max maximum budget budgeted cap capped most least up less about around within keep stay
done finished finish finishes finishing complete completed ready due needed deadline start starting before ahead
wrap wraps wrapped
llama llama2 llama3 mistral mixtral qwen qwen2 gemma phi falcon gpt bert t5 deepseek olmo starcoder codellama
x vs versus another additional extra following yo own modle mdoel moddel modell yet looking hoping super very pass
enough pm owner manager boss asks they
really extremely adapt adapting burn rate since still
all mix though although total overall combined eta nearly almost gone lm slm oh ah um uh btw
lmk tia hope you're you well great awesome
fine-tuned finetuned pretrained pre-trained trained curious advance feasible doable embedding embeddings vision whole
multi-node multinode
""".split())  # "x" alone joins what is multiplied ("100k samples of 2k tokens x 3 epochs"), "vs" what is compared

# The words the reader knows that a slip of the keys most often leaves unread ("fine-tnue", "lroa", "us-east1"): an
# unread word this close to one is shown with it, for the person to say again. Never read as it: a guess is not what
# was said (only the few common misspellings of fine-tuning are read as it, with a note: ``policy.parse``).
_KNOWN_WORDS = (
    "fine-tune", "finetune", "pretrain", "pretraining", "continued", "lora", "qlora", "sweep", "distill",
    "distillation", "tokens", "params", "parameters", "epochs", "deadline", "production", "experimental", "spot",
    "on-demand", "interruptions", "budget", "checkpoint", "sagemaker", "hyperpod", "h100", "h200", "a100", "a10g",
    "l40s", "b200", "trainium", *ALL_REGIONS,
    # the model families people name: "lamma 3 8b" is a slip of "llama", whose size is read as ever
    "llama", "mistral", "mixtral", "qwen", "gemma", "deepseek", "falcon", "starcoder", "codellama", "whisper")


def _with_near_miss(phrase: str) -> str:
    close = did_you_mean(phrase)
    return f"'{phrase}'" + (f" (did you mean '{close}'?)" if close else "")


# Everyday words a few letters from a name gpuops reads ("when" is two from "qwen"): never shown as its slip
_EVERYDAY_WORDS = frozenset("""
when then than what with were where here there have once much more some into only over also like just been from they
them this that your ours mean went wait want need plan plus less most even ever each both same such else
""".split())


def did_you_mean(phrase: str) -> str | None:
    """The word gpuops reads that an unread one is a near miss of ("fine-tnue": "fine-tune"), or None."""
    word = phrase.strip().lower()
    if " " in word or len(word) < 4 or word in _KNOWN_WORDS or word in _EVERYDAY_WORDS:
        return None
    close = difflib.get_close_matches(word, _KNOWN_WORDS, n=1, cutoff=0.75)
    return close[0] if close else None


# The names of fields a request may be written as ("Model size: 7B", "When: Friday", "tokens=100M")
_LABELS = frozenset("size when tokens token params parameters task data dataset deadline budget model region team "
                    "hardware gpus timeline goal method approach type kind stage platform instance instances "
                    "accelerator accelerators runs trials epochs length context due date eta "
                    # a form's free-text fields ("Notes: checkpoint every hour"): what they hold is read as ever
                    "notes note details comments comment request ask summary description background purpose "
                    "info project constraints constraint approver approvers owner requester".split())
# A field's name set apart from its colon by emphasis Slack's markers left as spaces ("*Tokens*: 2B")
_LABEL_MARK_RE = compiled_on_use(r"[ \t]{1,2}[:=]")


def _starts_field(said: str, at: int) -> bool:
    """Whether the word at ``at`` starts a field of a list ("Model size 3B, Tokens 5B, Stage experimental"), where a
    field's name comes before its value."""
    while at > 0 and said[at - 1] in " \t":
        at -= 1
    return at == 0 or said[at - 1] in ",;•\n|"
_SHORTHAND = {"w/": "with"}  # "7B w/ 1B toks"; "w/o" is no glue: "w/o spot" says something


# "…, need it done by then", "it has to be ready by that time", "in time for it": the deadline is the date said
# earlier, of the occasion the work is for ("we launch the product next week", "board meeting is Friday 3pm")
_BACK_REFERENCE_RE = compiled_on_use(
    r"\b(?:by|before|ahead\s+of|no\s+later\s+than|in\s+time\s+for)\s+(?:then|that\s+(?:time|day|date|point))\b"
    r"|\bin\s+time\s+for\s+(?:it|that)\b(?!\s+to\b)", _F)
_BACK_REFERENCE_WORDS = ("then", "that time", "that day", "that date", "that point", "time for it", "time for that")
_PERIOD_BEFORE_RE = compiled_on_use(r"\bnext\s+week\b(?!.*\bnext\s+week\b)", _F | re.DOTALL)


def read_back_reference(scan: Scan, *, now: datetime, zone: ZoneInfo, notes: list[str],
                        questions: list[Question]) -> Deadline | None:
    """A deadline said by pointing back at a date said before it ("we launch next week, need it done by then"): that
    date, as the deadline. Its words and the pointing words are taken, so the date is never read as a start. A week
    named whole ("next week") is asked about, its start or its end, as "by next week" is; a pointer with no date
    before it asks for the date."""
    if not scan.holds(_BACK_REFERENCE_WORDS):
        return None
    m = _BACK_REFERENCE_RE.search(scan.text)
    if m is None:
        return None
    before = scan.text[:m.start()]
    try:
        dates = find_deadlines(before, now=now, zone=zone)
    except RequestError:
        dates = []
    week = _PERIOD_BEFORE_RE.search(before)
    if week is not None and (not dates or dates[-1].end <= week.start()):
        scan.blank(*week.span())
        scan.blank(*m.span())
        questions.append(_next_week_question(f"{week.group(0)} … {m.group(0)}", now=now, zone=zone))
        return None
    if not dates:  # "fine-tune 7B by then": a deadline pointed at and never said
        scan.blank(*m.span())
        questions.append(Question(field="deadline", question=f"'{' '.join(m.group(0).split())}': when is that? "
                                  "The plan is made to be done by it: give the date and time, e.g. \"Dec 10 9am\"."))
        return None
    said = dates[-1]  # the nearest date before the pointer
    scan.blank(said.start, said.end)
    scan.blank(*m.span())
    phrase = f"{' '.join(said.phrase.split())} … {' '.join(m.group(0).split())}"
    notes.append(f"read '{phrase}' as the deadline, {said.when:%a %Y-%m-%d %H:%M} {zone.key}: the work is done by the "
                 "date said before it")
    return dataclasses.replace(said, phrase=phrase, notes=[], for_event=True)


def read_timing(scan: Scan, *, now: datetime, zone: ZoneInfo, notes: list[str],
                questions: list[Question]) -> dict[str, Any]:
    """Recurring work, a stated length and a start, read before deadlines and numbers so neither takes them."""
    read_recurring(scan, notes)  # "every Monday" repeats the job: its Monday is no deadline
    for m in scan.take(_BY_NEXT_WEEK_RE):
        questions.append(_next_week_question(m.group(0), now=now, zone=zone))
    # "should take like 2 hours, right?" of training: neither the job's length nor a deadline (of an evaluation, which
    # has no size to work hours out from, the length is the job's)
    if "take" in scan.text.lower() and EVAL_RE.search(scan.text) is None:
        for m in scan.take(_GUESSED_LENGTH_RE):
            notes.append(f"read '{' '.join(m.group(0).split())}' as a guess at how long the run takes: the plan's "
                         "hours are worked out from the work, and only a deadline said binds them")
    length = _duration(scan)
    held = _part_of_day(scan, now=now, zone=zone) if length is None else None
    if held is not None:  # "4 H100s for the afternoon": the hours of that part of the day, from when it begins
        length = held[:2]
        notes.append(f"read '{held[1]}' as {held[2]:%a %H:%M} to {held[2] + timedelta(hours=held[0]):%H:%M}")
    if length is not None:
        notes.append(fixed_length_note(*length))
    start = _start(scan, now=now, zone=zone, notes=notes)
    if held is not None and held[2] > now and start is None:
        start = held[2]
    # "fixed_phrase": the words the length was read from, for the caller that may read them as a deadline instead
    return {"fixed_hours": length[0] if length else None, "fixed_phrase": length[1] if length else None,
            "start_after": start}


# A part of the day to hold hardware for: "for the afternoon", "for the morning", "for the rest of the day", "for the
# day" (the working day's hours; "for today" is a deadline, read as one)
_PART_OF_DAY_RE = compiled_on_use(
    r"(?:\bfor\s+(?:the|this)\s+(?P<part>morning|afternoon)\b|\bfor\s+(?:the\s+)?(?P<day>rest\s+of\s+the\s+day|day)\b"
    # "during office hours tomorrow", "for business hours": the working day's
    r"|\b(?:during|for|in|over)\s+(?:the\s+)?(?P<hours>(?:office|business|working|work)\s+hours)\b)"
    r"(?:\s+(?P<tomorrow>tomorrow))?", _F)
_PARTS_OF_DAY = {"morning": (_START_OF_DAY, time(12, 0)), "afternoon": (time(13, 0), EOD), "day": (_START_OF_DAY, EOD)}


def _part_of_day(scan: Scan, *, now: datetime, zone: ZoneInfo) -> tuple[float, str, datetime] | None:
    """(hours, words, start) of the part of the day said: today's, from now if it has begun, or the next day's once
    it is over."""
    if not scan.holds(("morning", "afternoon", " day", " hours")):
        return None
    m = _PART_OF_DAY_RE.search(scan.text)
    if m is None:
        return None
    first, last = _PARTS_OF_DAY[(m["part"] or "day").lower()]
    local = now.astimezone(zone)
    day = local.date() if local.time() < last and not m["tomorrow"] else local.date() + timedelta(days=1)
    start = max(datetime.combine(day, first, zone), local)
    hours = round((datetime.combine(day, last, zone) - start).total_seconds() / 3600, 2)
    scan.blank(m.start(), m.end())
    return hours, " ".join(m.group(0).split()), start


def fixed_length_note(hours: float, phrase: str) -> str:
    """The note a length read as the job's own carries ("read 'for 6 hours' as a job of 6 h: …")."""
    return f"read '{phrase}' as a job of {hours:g} h: priced as instances × price × hours, not as training"


def _next_week_question(phrase: str, *, now: datetime, zone: ZoneInfo) -> Question:
    """ "by next week": the start of next week or its end? Days apart, so asked."""
    monday = _next_monday(now=now, zone=zone)
    friday = (monday + timedelta(days=4)).replace(hour=17)
    return Question(field="deadline", question=f"'{' '.join(phrase.split())}': done when next week starts, or by "
                    "its end?", choices=[Choice(label=f"start of next week, {monday:%a %Y-%m-%d %H:%M}",
                                                value=monday.isoformat()),
                                         Choice(label=f"end of next week, {friday:%a %Y-%m-%d %H:%M}",
                                                value=friday.isoformat())])


def ready_by_choices(period: str, *, now: datetime, zone: ZoneInfo) -> list[Choice]:
    """When work due before something in the coming ``period`` ("week" or "month") may need to be ready: as that
    period starts, in its middle, or by its end (a person picks one, or says the day). Each is a working day
    (``working_day``): the first of the period, and for the middle and the end the nearest one on or before it, so
    a choice is never later than its label says."""
    if period == "week":
        monday = _next_monday(now=now, zone=zone).date()
        first, middle, last = monday, monday + timedelta(days=2), monday + timedelta(days=4)
    else:
        local = now.astimezone(zone)
        first = (local.date().replace(day=1) + timedelta(days=32)).replace(day=1)
        middle = first.replace(day=15)
        last = first.replace(day=calendar.monthrange(first.year, first.month)[1])
    while not working_day(first):
        first += timedelta(days=1)
    middle, last = _working_on_or_before(middle), _working_on_or_before(last)
    days = [(f"as next {period} starts", datetime.combine(first, _START_OF_DAY, tzinfo=zone)),
            (f"mid next {period}", datetime.combine(middle, EOD, tzinfo=zone)),
            (f"by the end of next {period}", datetime.combine(last, EOD, tzinfo=zone))]
    return [Choice(label=f"{label}, {when:%a %Y-%m-%d %H:%M}", value=when.isoformat()) for label, when in days]


def _working_on_or_before(day: date) -> date:
    while not working_day(day):
        day -= timedelta(days=1)
    return day


def example_date(*, now: datetime, zone: ZoneInfo, choices: list[Choice] | None = None) -> str:
    """A date and time to show as the form of an answer ("Dec 18 9am"): the middle choice's day when there are
    choices, else ten days on, so never one already past."""
    when = (datetime.fromisoformat(choices[len(choices) // 2].value) if choices
            else now + timedelta(days=10)).astimezone(zone)
    return f"{when:%b} {when.day} 9am"


def read_today(scan: Scan, notes: list[str]) -> None:
    """ "run it today", once the deadlines have taken theirs: a start that is already here, not a deadline."""
    for m in scan.take(_TODAY_RE):
        notes.append(f"read '{' '.join(m.group(0).split())}' as starting now, not as a deadline (say 'by end of day'"
                     " if it must finish today)")


def read_to_reserve(scan: Scan, notes: list[str]) -> bool | None:
    """ "reserve a capacity block for 16 H100s next week": reserved capacity bought for the run is asked for, noted;
    None when it is not. Read before held capacity, whose words ("capacity block") it shares."""
    if not scan.holds(("reserv", "book", "capacity block", "capacity-block", "training plan", "training-plan")):
        return None  # most texts: the pattern is compiled only for one that could hold it
    said = scan.take(_TO_RESERVE_RE)
    if not said:
        return None
    notes.append(f"read '{' '.join(said[0].group(0).split())}' as asking for reserved capacity bought for the run "
                 "(an EC2 capacity block or a SageMaker training plan): an offering that fits is the plan, its fee "
                 "paid upfront, used or not")
    return True


def read_held(scan: Scan) -> str | None:
    """ "we have 2 p4d reserved", "on our reserved p5s": capacity already held. Read before the instance counts and
    takes only the word, so "4 reserved p5.48xlarge" is read as ever as 4× p5.48xlarge."""
    if "reserved" not in scan.text.lower():
        return None
    found = None
    for m in list(_HELD_RE.finditer(scan.text)):
        start, end = m.span("before") if m["before"] else m.span("after")
        found = found or " ".join(m.group(0).split())
        scan.blank(start, end)
        if m["lead"]:  # "we already have 2 p4d reserved": the words that say it is held, the count left to be read
            scan.blank(*m.span("lead"))
    return found


_HELD_RE = compiled_on_use(_HELD, _F)


# "and eval on MMLU afterwards", "run MMLU eval after": when the evaluation runs, and what it runs, inside the job
_AFTERWARDS_RE = compiled_on_use(r"\bafterwards?\b|\bafter(?=\s*(?:$|[,.;!)]))", _F)
_BENCHMARK_BEFORE_RE = compiled_on_use(rf"\b{BENCHMARK}\s*$", _F)


def read_intent(scan: Scan, fields: dict[str, Any], *, notes: list[str], questions: list[Question],
                said: str = "", held: str | None = None) -> dict[str, Any]:
    """Held capacity, evaluation, the bare word "train", examples and audio; then what nothing read. ``held`` is the
    phrase ``read_held`` took ("2 p4d reserved")."""
    read: dict[str, Any] = {"reserved": _reserved(scan, fields, notes, questions, held=held)}
    _both_answers(fields, notes, said=said or scan.said)
    for m in scan.take(_WEIGHING_RE) if scan.holds(("whether", "if", "worth")) else ():  # before "evaluating" is read
        said = " ".join(m.group(0).split())
        notes.append(f"read '{said}' as weighing a change: the plan and what each choice named costs are what that "
                     "decision needs" if "worth" in said.lower() and "whether" not in said.lower() else
                     f"read '{said}' as weighing whether to do the work: the plan and its cost are what that decision "
                     "needs")
    evaluated = scan.take(EVAL_RE)
    if evaluated and fields.get("task") is not None:
        scan.take(_AFTERWARDS_RE)  # "and eval on MMLU afterwards": the evaluation's when, inside the job
        for m in evaluated:  # "run MMLU eval": the benchmark named before it, what the evaluation runs
            if (named := _BENCHMARK_BEFORE_RE.search(scan.text, max(0, m.start() - 24), m.start())) is not None:
                scan.blank(named.start(), named.end())
        # "fine-tune 7B, then evaluate", "with evals every 500 steps": evaluation inside the training job, a small
        # share of it, not a run of its own
        notes.append(f"read '{evaluated[0].group(0)}' as evaluation within the training job: the estimate is the "
                     "training's; ask for a separate eval run if it needs its own hardware")
    elif evaluated and fields.get("tokens") is not None and TRAIN_RE.search(said):
        # "we're benchmarking: train 350M on 10B tokens on trn1 vs p4d": the training is what is benchmarked
        notes.append(f"read '{evaluated[0].group(0)}' as what the training is for: the estimate is the training's")
    elif evaluated and fields.get("fixed_hours") is None:
        questions.append(Question(
            field="fixed_hours", question=f"How long does the '{evaluated[0].group(0)}' run? gpuops prices it as "
            "that many hours on the hardware chosen.",
            choices=[Choice(label=f"{h} h", value=h) for h in (1, 2, 4, 8)]))
    _image_tokens(scan, fields, notes, questions)  # "ViT-L on ImageNet for 300 epochs": before 'train' asks
    _speech_model_audio(scan, fields, notes)  # "train whisper-small on 10k hours of speech": so too
    _vague_tokens(scan, fields, notes, questions)  # "a few hundred million tokens": asked, "a couple billion" read
    _dataset_tokens(scan, fields, notes, questions)  # "GPT-2 124M on OpenWebText": so too
    _words_as_tokens(scan, fields, notes)  # "bert-large on 3.3B words for 40 epochs"
    _train_question(scan, fields, questions)
    _size_questions(scan, fields, questions, notes, said=said)
    left = _unread(scan)
    if len(left) > len(scan.unused):  # words are left that no reader took: some may describe the work
        read_descriptions(scan, fields, notes)  # last: only words no other reader took
        # a compliance rule no region was said for ("HIPAA so us-east-1 only" is read as the region's reason)
        for m in scan.take(_COMPLIANCE_RE) if scan.holds(_COMPLIANCE_WORDS) else ():
            said_as = " ".join(m.group(0).split())
            scan.unused.append(said_as)  # left for a person, who knows what the rule asks of the plan
            notes.append(f"read '{said_as}' as a compliance rule the data or the work falls under: gpuops does not "
                         "check which regions, services or instances it allows, so the plan is left for a person to "
                         "approve")
        left = _unread(scan)
    read["unread"] = left
    # recurring work and the phrases a reader left for a person with a note of their own are not listed again
    if unread := [p for p in read["unread"]
                  if cadence(p) is None and not any(n.startswith(f"read '{p}' as") for n in notes)]:
        notes.append("did not read: " + ", ".join(_with_near_miss(p) for p in unread))
    return read


# what says a length or a count is each run's: "2h each", "6 hours per run", "an hour a trial"
EACH_RUN = r"(?:each|apiece|per\s+(?:run|trial|seed|job|checkpoint)|an?\s+(?:run|trial|seed|checkpoint))"
_EACH_RUN_AFTER_RE = compiled_on_use(rf"\s*{EACH_RUN}(?![\w-])", _F)


def _duration(scan: Scan) -> tuple[float, str] | None:
    """ "2h", "for 6 hours", "for 2 days", "for a week": the hours the job runs (not "in 6 hours", a deadline) and the
    words said."""
    found = []
    listed = _LISTED_WORDED_DURATION_RE.finditer(scan.text) if scan.holds(("hour", "day", "week")) else ()
    for m in [*_DURATION_RE.finditer(scan.text), *_WORDED_DURATION_RE.finditer(scan.text), *listed]:
        if (_IN_BEFORE_RE.search(scan.text[max(0, m.start() - 20) : m.start()])
                or _RANGE_BEFORE_RE.search(scan.text, max(0, m.start() - 12), m.start())  # "in 3 to 5 days"
                or _CAP_AFTER_RE.match(scan.text, m.end()) or _DATA_AFTER_RE.match(scan.text, m.end())
                or ((_OF_SOMETHING_RE.match(scan.text, m.end()) or _CORPUS_AFTER_RE.match(scan.text, m.end())
                     or _CORPUS_BEFORE_RE.search(scan.text, max(0, m.start() - 20), m.start()))
                    and _SPEECH_MODEL_RE.search(scan.said))):
            # a deadline ("in the next 48 hours"), a cap ("5 hours max") or data ("500 hours of audio", and to a speech
            # model "960 hours of librispeech")
            continue
        months = m.groupdict().get("mu") is not None
        said = (m["mn"] if months else m["n"]).lower()
        vague = next((n for word, n in VAGUE_COUNTS.items() if word in said), None)
        count = Decimal(vague if vague is not None else 1 if said in ("a", "an")
                        else below_100(said) if said[0].isalpha() else said)
        unit = HOURS_PER_MONTH if months else UNIT_HOURS[m["u"][0].lower()]
        hours = (float(count) + (0.5 if m.groupdict().get("half") else 0.0)) * unit
        if not 0 < hours <= 24 * 90:
            continue
        # "2h each", "6 hours per run": every run's length, which is what a stated length is of each run anyway
        end = each.end() if (each := _EACH_RUN_AFTER_RE.match(scan.text, m.end())) is not None else m.end()
        found.append((hours, " ".join(scan.text[m.start():end].split())))
        # "happy with 2 weeks": the length said to be enough, read with it
        content = _CONTENT_WITH_BEFORE_RE.search(scan.text, max(0, m.start() - 30), m.start())
        scan.blank(m.start() if content is None else content.start(), end)
    if not found:
        return None
    return max(found)


# "run it over the weekend", "train it on the weekend": said of a weekend, when the job runs
_RUN_IT_BEFORE_RE = compiled_on_use(
    r"\b(?:run|do|train|schedule)(?:s|ning|ing)?\s+(?:it|this|that|the\s+(?:job|run|training))\s*$", _F)


def _saturday_of(monday: datetime) -> datetime:
    """The Saturday 09:00 that starts the weekend before ``monday``."""
    return (monday - timedelta(days=2)).replace(hour=_START_OF_DAY.hour, minute=0)


# "wait until the weekend to start", "wait till Wednesday before starting": the wait's end is the start
_WAIT_BEFORE_RE = compiled_on_use(r"\bwait(?:ing)?\s+(?:for\s+)?$", _F)
_TO_START_AFTER_RE = compiled_on_use(r"\s*(?:to|before)\s+(?:start(?:ing)?|begin(?:ning)?|kick(?:ing)?\s+(?:it\s+)?off)"
                                     r"\b", _F)


def _start(scan: Scan, *, now: datetime, zone: ZoneInfo, notes: list[str]) -> datetime | None:
    """ "tomorrow" alone, "starting Monday", "from Dec 3", "next week": when the job may start."""
    starts: list[tuple[datetime, str]] = []
    dated = scan.deadlines(now=now, zone=zone)
    opener = dated[0] if dated and _OPENS_WITH_START_RE.match(scan.text) else None
    for found in dated:
        if found.for_event:
            continue  # "for the launch tomorrow": the work is due before it
        before = max(0, found.start - 25)
        if _AWAY_BEFORE_RE.search(scan.text, max(0, found.start - 60), found.start):
            continue  # "I'm OOO from Dec 20": when the person is away, which the deadline reader takes
        cue_from = max(0, found.start - _START_CUE_CHARS)
        cue = _START_CUE_RE.search(scan.text[cue_from : found.start])
        if _BEFORE_RE.match(found.phrase) and (negated := _NOT_BEFORE_RE.search(scan.text[before:found.start])):
            cue, cue_from = negated, before  # "not before Monday", "don't start before Monday": Monday itself
            found = _day_itself(found, said=" ".join(negated.group(0).split()), now=now, zone=zone)
        if cue is None and (waited := _WAIT_BEFORE_RE.search(scan.text, max(0, found.start - 15), found.start)) \
                and (to_start := _TO_START_AFTER_RE.match(scan.text, found.end)) is not None:
            # "wait until the weekend to start": when the job starts, not when it is due (the weekend's own start)
            cue, cue_from = waited, 0  # its span is the text's own
            scan.blank(*to_start.span())
            if "weekend" in found.phrase.lower() and found.when.weekday() == 4:
                found = dataclasses.replace(found, when=(found.when + timedelta(days=1)).replace(
                    hour=_START_OF_DAY.hour, minute=0))
        cued = cue is not None or found.phrase.lower().startswith("after ")  # "after the holidays": a start
        weekend = "weekend" in found.phrase.lower() and found.when.weekday() == 0  # done by Monday 09:00
        if weekend and not cued and (run := _RUN_IT_BEFORE_RE.search(scan.text, before, found.start)) is not None:
            # "run it over the weekend": it starts when the weekend does, and is done when the week starts again, the
            # deadline the phrase stays for
            scan.blank(run.start(), run.end())
            starts.append((_saturday_of(found.when), " ".join(f"{run.group(0)} {found.phrase}".split())))
            continue
        if found.phrase.lower() == "tonight" and not _DUE_BEFORE_RE.search(scan.text, before, found.start) and (
                _TONIGHT_START_BEFORE_RE.search(scan.text, before, found.start)
                or _OPENS_BY_STARTING_RE.match(scan.text)):
            tonight = found.when.replace(hour=_TONIGHT_START.hour, minute=_TONIGHT_START.minute)
            starts.append((tonight, "tonight"))
            scan.blank(found.start, found.end)
            continue
        if found is opener and min(d.start for d in dated) == found.start and _BARE_DATE_RE.match(found.phrase) \
                and not _DUE_BEFORE_RE.search(scan.text, before, found.start):
            cued = True  # "kick off … monday 8am": the start the request opens with
        if not (cued or (_BARE_START_RE.match(found.phrase) and not _DAY_END_RE.search(found.phrase))):
            continue  # "tomorrow", "tomorrow morning": no trigger word, a start; "tomorrow EOD" is when it is due
        if cue is not None:
            scan.blank(cue_from + cue.start(), cue_from + cue.end())
        if cue is not None and cue.groupdict().get("any"):  # "can start anytime this week": now will do too
            scan.blank(found.start, found.end)
            notes.append(f"read '{' '.join((cue.group(0) + ' ' + found.phrase).split())}' as: it may start now, "
                         "with no deadline")
            continue
        when, phrase = found.when, found.phrase
        clock = _CLOCK_RE.search(found.phrase) is not None
        if weekend:
            when = _saturday_of(when)  # "start on the weekend": when it begins, not when the week starts again
        if not clock:
            when = when.replace(hour=_START_OF_DAY.hour, minute=0)
        event = cue.groupdict().get("event") if cue is not None else None
        if cue is not None and (event or cue.group(0).lower().startswith("after")):
            # what the job waits for is quoted with its date: "once the code freeze is over on dec 10"; "after
            # Dec 10" is once that day is over
            phrase = " ".join(f"{cue.group(0)} {found.phrase}".split())
            if not event and not clock:
                when += timedelta(days=1)
        starts.append((when, phrase))
        scan.blank(found.start, found.end)
    lowered = scan.text.lower()
    clocked = "start" in lowered or "begin" in lowered or "kick" in lowered  # the texts a start's words can match
    some = "some" in lowered or "any" in lowered
    for m in _START_IN_MONTH_RE.finditer(scan.text) if clocked or some else ():  # "starting in January"
        starts.append((month_start(m["month"] or m["month2"], now=now, zone=zone), " ".join(m.group(0).split())))
        scan.blank(m.start(), m.end())
    # "starting at 8pm", then "right after the 2pm standup" in what the first left: today, or tomorrow once past
    for pattern, said in ((_START_AT_CLOCK_RE, clocked), (_AFTER_CLOCK_RE, "after" in lowered)):
        for m in pattern.finditer(scan.text) if said else ():
            starts.append((_next_at_clock(m, now=now, zone=zone), " ".join(m.group(0).split())))
            scan.blank(m.start(), m.end())
    weekend_over = scan.take(_AFTER_WEEKEND_RE) if "weekend" in lowered else []
    for m in [*_next_week_starts(scan, now=now, zone=zone), *weekend_over]:
        first = _next_month_start if m.groupdict().get("unit", "").lower() == "month" else _next_monday
        starts.append((first(now=now, zone=zone), " ".join(m.group(0).split())))
    if "now" in lowered and _OPENS_BY_STARTING_RE.match(scan.said):
        # "kick off a 7B fine-tune on 1B tokens now": the start the request opens with is now ("I need it now" asks
        # for haste, and stays a person's)
        for m in scan.take(_NOW_AT_CLAUSE_END_RE):
            notes.append(f"read '{' '.join(m.group(0).split())}' as when the plan starts anyway: now, once approved")
    if not starts:
        return None
    when, phrase = max(starts)
    if when <= now:
        notes.append(f"read '{phrase}' as a start that is already here: starts now")
        return None
    notes.append(f"read '{phrase}' as the start, {when:%a %Y-%m-%d %H:%M} {when.tzinfo}, not a deadline")
    return when


def _next_month_start(*, now: datetime, zone: ZoneInfo) -> datetime:
    """The first working day of next month at the start of the working day (the 1st, or the Monday after a weekend)."""
    local = now.astimezone(zone)
    first = (local.replace(day=1) + timedelta(days=32)).replace(day=1, hour=_START_OF_DAY.hour, minute=0, second=0,
                                                                microsecond=0)
    return first + timedelta(days=(7 - first.weekday()) % 7 if first.weekday() >= 5 else 0)


def _next_monday(*, now: datetime, zone: ZoneInfo) -> datetime:
    """Monday of next week (said on a weekend: the coming Monday) at the start of the working day."""
    local = now.astimezone(zone)
    return (local + timedelta(days=7 - local.weekday())).replace(hour=_START_OF_DAY.hour, minute=0, second=0,
                                                                 microsecond=0)


def _next_at_clock(m: re.Match[str], *, now: datetime, zone: ZoneInfo) -> datetime:
    """The next time of day a match of ``_START_AT_CLOCK_RE`` or ``_AFTER_CLOCK_RE`` says: today's, or tomorrow's once
    past."""
    if m.groupdict().get("lunch"):
        hour, minute = _LUNCH_HOUR, 0
    elif m.groupdict().get("midnight"):  # "start at midnight", "after midnight": the next one, the night ahead
        hour, minute = 0, 0
    elif m["h"]:
        hour, minute = int(m["h"]) % 12 + (12 if m["ap"].lower() == "p" else 0), int(m["mi"] or 0)
    else:
        hour, minute = int(m["h24"]), int(m["m24"])
    local = now.astimezone(zone)
    at = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return at if at > local else at + timedelta(days=1)


def _day_itself(found: Deadline, *, said: str, now: datetime, zone: ZoneInfo) -> Deadline:
    """ "before Monday" read as Monday itself (a deadline reads it as the Sunday before), as "not before Monday"
    (``said``: the word before it) starts."""
    itself = find_deadlines("by" + found.phrase[len("before"):], now=now, zone=zone)
    if len(itself) != 1:
        return found
    return dataclasses.replace(found, when=itself[0].when, phrase=f"{said} {found.phrase}", notes=[])


# Someone's product launched, released or shipped, said with who does it ("we're launching a new support bot", "the
# team ships v2"), never the job ("we launch the run", "we'll ship it"): an occasion the work is for
PRODUCT_LAUNCH = (
    r"\b(?:we(?:'re|\s+are|'ll|\s+will)?|they(?:'re|\s+are|'ll|\s+will)?|(?:the|our)\s+(?:team|company|product)\s+"
    r"(?:is|will\s+be|will))\s+(?:(?:be\s+)?(?:launch(?:ing)?|releas(?:e|ing)|ship(?:ping)?|roll(?:ing)?\s+out)"
    r"|go(?:ing)?\s+live\s+with)"
    r"(?!\s+(?:it|this|that|them|the\s+(?:job|run|training|fine-?tune|sweep)|an?\s+(?:job|run|sweep))\b)"
    r"(?:\s+[\w-]+){0,5}?")
# "for the launch", "ahead of our review": an occasion the work is for, named in up to three words; "for a pretraining
# run" names the job itself, no occasion
EVENT_CUE = r"\b(?:for|before|ahead\s+of|in\s+time\s+for)\s+"
EVENT_NAMED = (r"(?:the|our|a|an|my)\s+(?:[a-z][\w-]*\s+){0,2}"
               r"(?!(?:run|job|training|fine-?tune|finetune|sweep|experiment|pretrain(?:ing)?)s?\s)[a-z][\w-]*")
# "for the launch next week", "ahead of our review next week": the event is next week, the work is due before it
_EVENT_BEFORE_RE = compiled_on_use(
    rf"{EVENT_CUE}{EVENT_NAMED}\s+$"
    # "we're launching a new support bot next month": the product's launch, not the job's
    rf"|{PRODUCT_LAUNCH}\s+$", _F)


def _next_week_starts(scan: Scan, *, now: datetime, zone: ZoneInfo) -> list[re.Match[str]]:
    """ "next week" or "next month" said as a start ("train next week"), each blanked once read; not the week of a
    date ("by Tuesday next week" is that Tuesday, a deadline)."""
    said = list(_NEXT_WEEK_RE.finditer(scan.text))
    if not said:
        return []
    dates = [(d.start, d.end) for d in scan.deadlines(now=now, zone=zone)]
    starts = [m for m in said if not any(start <= m.start() and m.end() <= end for start, end in dates)
              and not _EVENT_BEFORE_RE.search(scan.text, max(0, m.start() - 40), m.start())]
    for m in starts:
        scan.blank(m.start(), m.end())
    return starts


def _reserved(scan: Scan, fields: dict[str, Any], notes: list[str], questions: list[Question], *,
              held: str | None) -> bool | None:
    said = scan.take(_RESERVED_RE)
    if not said and held is None:
        return None
    what, phrase = (" ".join(said[0]["what"].split()), said[0].group(0)) if said else ("reserved capacity", held)
    if fields.get("instance_type") is None or (fields.get("instances") is None and fields.get("gpus") is None):
        questions.append(Question(field="instance_type", question=f"Which instances does your {what} hold, and how "
                                  "many? e.g. '4x p5.48xlarge'."))
    notes.append(f"read '{' '.join((phrase or '').split())}' as capacity already held and paid: the plan says whether "
                 "the job fits it")
    return True


def _audio_with_tokens(scan: Scan, notes: list[str]) -> None:
    """ "1,000 hours of audio (about 180M tokens)": with the tokens said, the hours say what the data is."""
    audio = scan.take(_AUDIO_RE) if scan.unused else []
    heard = next((m for p in scan.unused if (m := _AUDIO_HOURS_RE.match(p))), None) if audio else None
    if heard is None:
        return
    scan.unused.remove(heard.group(0))
    notes.append(f"read '{heard.group(0)} of {audio[0].group(0)}' as what the data is: the tokens said are what is "
                 "trained on")


# A corpus's published sample by its size: "fineweb-edu 10B sample", "FineWeb sample-10BT", "the 100BT sample of …"
_SAMPLE_AFTER_RE = compiled_on_use(
    r"[\s-]*(?:\(\s*)?(?:sample[\s-]?(?P<n2>)|(?=\d))(?P<n>\d+(?:\.\d+)?)\s*(?P<s>[mbt])(?:t\b|\s*tok(?:en)?s?\b)?"
    r"(?(n2)|[\s-]*(?:token\s+)?(?:sample|subset|slice)\b)\)?", _F)
_SAMPLE_BEFORE_RE = compiled_on_use(
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<s>[mbt])(?:t\b|\s*tok(?:en)?s?\b)?[\s-]*(?:token\s+)?(?:sample|subset|slice)\s+of\s+"
    r"(?:the\s+)?$", _F)
# A count's scale, as a letter or a word: "10k", "2 million", "1.5bn"
_SCALES = {"k": 10**3, "thousand": 10**3, "m": 10**6, "mn": 10**6, "million": 10**6, "b": 10**9, "bn": 10**9,
           "billion": 10**9, "t": 10**12, "trillion": 10**12}
_CORPUS_EPOCHS = (1, 2, 4)  # passes over a corpus offered when none is said
_EXAMPLE_LENGTHS = (256, 512, 2048)  # an instruction example's tokens, prompt and answer, offered when none is said
COMPUTE_OPTIMAL_TOKENS_PER_PARAM = 20  # Hoffmann et al. 2022 (Chinchilla): what pretraining from scratch reads


def _dataset_tokens(scan: Scan, fields: dict[str, Any], notes: list[str], questions: list[Question]) -> None:
    """A public dataset named by its name ("GPT-2 124M on OpenWebText", "410M on the Pile, one epoch", "on alpaca"):
    its published size counts the tokens (``policy.datasets``). A corpus's tokens times the epochs said; with no
    epochs said, how many passes is asked (one pass over FineWeb is 15T tokens), and so is an example's length."""
    if (named := dataset_in_text(scan.text)) is None:
        return
    spec, (start, end) = named.spec, named.span
    phrase = " ".join(scan.said[start:end].split())
    size = (f"{format_count(spec.tokens)} tokens in {spec.tokenizer}'s tokenizer" if spec.tokens is not None
            else f"{spec.examples:,} examples")
    _take_said(scan, start, end)
    # a preference dataset under DPO or a reward model: both answers of each pair are trained on, each with its prompt
    method = _PAIRED_TRAINING_RE.search(scan.said) if spec.pairs else None
    both = spec.pairs and (fields.get("task") is Task.DPO or (method is not None and method["rm"] is not None))
    trainer = ("A reward model" if method is not None and method["rm"] else
               method.group(0).upper() if method is not None else "DPO")
    sequences = (spec.examples or 0) * (2 if both else 1)
    what = f"{sequences // 2:,} pairs, both answers of each" if both else f"{sequences:,} examples"
    each = "answer" if both else "example"
    if spec.examples is not None and _each_example_tokens(scan, fields, notes, phrase=phrase, examples=sequences,
                                                            name=spec.name, what=what, each=each):
        return
    if fields.get("tokens") is not None or fields.get("fixed_hours") is not None \
            or measures_work(fields):
        notes.append(f"read '{phrase}' as the data, {spec.name} ({size}, as published): the amount said is what is "
                     "priced")
        return
    epochs = _epochs_of_data(scan, notes)
    times = epochs[0] if epochs else 1.0
    over = f" × '{epochs[1]}'" if epochs else ""
    sample = _SAMPLE_AFTER_RE.match(scan.said, end) or _SAMPLE_BEFORE_RE.search(scan.said, max(0, start - 40), start)
    if sample is not None and spec.tokens is not None:
        # "fineweb-edu 10B sample", "the 100BT sample of FineWeb": the publisher's sample of that many tokens
        tokens = int(float(sample["n"]) * _SCALES[sample["s"].lower()])
        if 0 < tokens < spec.tokens:
            _take_said(scan, *sample.span())
            said = " ".join(scan.said[min(start, sample.start()):max(end, sample.end())].split())
            fields["tokens"] = int(tokens * times)
            notes.append(f"read '{said}'{over} as {fields['tokens']:,} tokens: a sample of {spec.name}, which is "
                         f"{size} in all")
            return
    if spec.tokens is not None and epochs is not None:
        fields["tokens"] = int(spec.tokens * times)
        notes.append(f"read '{phrase}'{over} as {fields['tokens']:,} tokens: {spec.name} is {size}, as published; "
                     "another tokenizer counts the same text somewhat differently")
        return
    if spec.tokens is not None:
        choices = [Choice(label=f"{n} epoch{'s' if n > 1 else ''} ({spec.tokens * n:,} tokens)", value=spec.tokens * n)
                   for n in _CORPUS_EPOCHS]
        params = fields.get("params")
        if params and fields.get("task") in (None, Task.PRETRAIN) \
                and (optimal := params * COMPUTE_OPTIMAL_TOKENS_PER_PARAM) < spec.tokens:
            choices.insert(0, Choice(label=f"~{COMPUTE_OPTIMAL_TOKENS_PER_PARAM} tokens a parameter, compute-optimal "
                                     f"({optimal:,} tokens)", value=optimal))
        questions.append(Question(field="tokens", question=f"How much of '{phrase}' does the run train on? "
                                  f"{spec.name} is {size}, as published.", choices=choices))
        return
    assert spec.examples is not None
    count = int(sequences * times)
    if both:
        questions.append(Question(
            field="tokens", question=f"How many tokens are '{phrase}'{over}? {spec.name} is {spec.examples:,} "
            f"preference pairs, as published, and {trainer} trains on both answers of each, chosen and rejected: give "
            "the total, or pick the average length of an answer with its prompt.",
            choices=[Choice(label=f"~{per:,} tokens an answer ({count * per:,} tokens)", value=count * per)
                     for per in _EXAMPLE_LENGTHS]))
        return
    questions.append(Question(
        field="tokens", question=f"How many tokens are '{phrase}'{over}? {spec.name} is {size}, as published: give "
        "the total, or pick the average length of an example with its prompt.",
        choices=[Choice(label=f"~{per:,} tokens an example ({count * per:,} tokens)", value=count * per)
                 for per in _EXAMPLE_LENGTHS]))


# An example's length said alone, left unread by the counts' reader ("350 tokens per example": an item's length), and
# the words around it that say it is each one's
_EXAMPLE_LENGTH_RE = compiled_on_use(r"~?\s*(?P<n>\d{1,3}(?:,\d{3})?|\d{1,6})\s*(?P<k>k)?\s*(?:tokens?|toks?)", _F)
_EACH_EXAMPLE_WORDS_RE = compiled_on_use(r"\b(?:avg\.?|average|averaging|mean|each|apiece|(?:per|an?|every)\s+"
                                         r"(?:example|sample|row|item|record|conversation|instruction|prompt))(?![\w-])",
                                         _F)


def _each_example_tokens(scan: Scan, fields: dict[str, Any], notes: list[str], *, phrase: str, examples: int,
                         name: str, what: str, each: str) -> bool:
    """A dataset counted in examples with an example's length said ("alpaca (avg 350 tokens), 2 epochs", "on dolly,
    ~300 tokens each"): its examples × that length × the epochs, noted; False when no such length is said. A token
    count below the examples' own count can only be each one's (350 "tokens in all" were priced as a $1 job)."""
    said = fields.get("tokens")
    if said is not None and 0 < said < examples and fields.get("fixed_hours") is None:
        fields["tokens"] = examples * said  # the epochs, said, are in it already
        _take_each_words(scan, None)
        notes[:] = [n for n in notes if not (n.startswith("read '") and " tokens of training" in n)]
        epochs = fields.get("epochs") or 1.0
        over = f" × {epochs:g} epochs" if epochs != 1 else ""
        notes.append(f"read the {said / epochs:,.0f} tokens said with '{phrase}' as each {each}'s{over}: "
                     f"{name}'s {what} come to {fields['tokens']:,} tokens")
        return True
    if said is not None:
        return False
    for left in list(scan.unused):
        m = _EXAMPLE_LENGTH_RE.fullmatch(left.strip())
        if m is None:
            continue
        per = int(m["n"].replace(",", "")) * (1000 if m["k"] else 1)
        epochs = _epochs_of_data(scan, notes)
        times = epochs[0] if epochs else 1.0
        scan.unused.remove(left)
        _take_each_words(scan, left)
        fields["tokens"] = int(examples * per * times)
        over = f" × {epochs[1]}" if epochs else ""
        notes.append(f"read '{phrase}' with '{left}' each{over} as {fields['tokens']:,} tokens: {name}'s {what}, as "
                     "published")
        return True
    return False


def _take_each_words(scan: Scan, length: str | None) -> None:
    """The words that made a length each example's ("avg", "per example", "each"), near the length said (anywhere when
    ``length`` is None: it was read with the tokens, its place not kept)."""
    at = scan.said.find(length) if length is not None else -1
    lo, hi = (max(0, at - 25), at + len(length) + 25) if length is not None and at >= 0 else (0, len(scan.text))
    for m in list(_EACH_EXAMPLE_WORDS_RE.finditer(scan.text, lo, hi)):
        scan.blank(m.start(), m.end())


# Words of text as tokens: a token is about three quarters of an English word in the BPE tokenizers language models
# use (OpenAI's tokenizer guide: "1 token ≈ ¾ words"), so a word is about 4/3 of a token
TOKENS_PER_WORD = 4 / 3
_WORDS_SAID_RE = compiled_on_use(
    r"(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<s>k|m|mn|b|bn|t|thousand|million|billion|trillion)?\s+words", _F)


def _words_as_tokens(scan: Scan, fields: dict[str, Any], notes: list[str]) -> None:
    """Text counted in words with no tokens said ("3.3B words for 40 epochs"): its tokens at ``TOKENS_PER_WORD`` ×
    the epochs said, noted as the rule of thumb it is."""
    if fields.get("tokens") is not None or fields.get("fixed_hours") is not None or measures_work(fields):
        return
    for left in list(scan.unused):
        m = _WORDS_SAID_RE.fullmatch(left.strip())
        if m is None:
            continue
        words = float(m["n"].replace(",", "")) * (_SCALES[m["s"].lower()] if m["s"] else 1)
        epochs = _epochs_of_data(scan, notes)
        scan.unused.remove(left)
        fields["tokens"] = int(words * TOKENS_PER_WORD * (epochs[0] if epochs else 1.0))
        over = f" over {epochs[1]}" if epochs else ""
        notes.append(f"read '{left}'{over} as {fields['tokens']:,} tokens: about 4 tokens for every 3 words of "
                     "English text in the tokenizers language models use, a rule of thumb")
        return


def _train_question(scan: Scan, fields: dict[str, Any], questions: list[Question]) -> None:
    """ "train 7B": pretraining and fine-tuning default to very different token counts."""
    if not scan.take(TRAIN_RE) or fields.get("task") is not None or fields.get("tokens") is not None:
        return
    if fields.get("fixed_hours") is not None or measures_work(fields):
        return  # a stated length, or work given as accelerator-hours: no tokens to default
    questions.append(Question(
        field="task", question="'train' from scratch or fine-tune an existing model? Pretraining reads ~20 tokens "
        "per parameter, a fine-tune 1B tokens, which changes the cost many times over.",
        choices=[Choice(label=t.value, value=t.value) for t in (Task.FINE_TUNE, Task.PRETRAIN)]))


# A vision transformer's tokens are its image's patches and a class token. ImageNet's training images: ImageNet-1k
# (ILSVRC-2012, 1,281,167) unless the full release is named (ImageNet-21k, 14,197,122; Deng et al. 2009 and the
# release's own count, as ViT's paper trains on it).
_IMAGENET_RE = compiled_on_use(
    r"(?<![\w-])(?:image[\s-]?net[\s-]?(?P<k>1k|21k|22k)|in-?(?P<k2>1k|21k|22k))(?![\w-])"  # not "in 1k steps"
    r"|(?<![\w-])image[\s-]?net(?![\w-])|(?<![\w-])ilsvrc(?:[\s-]?2012)?(?![\w-])", _F)
_IMAGENET_IMAGES = {"1k": 1_281_167, "21k": 14_197_122, "22k": 14_197_122}
_IMAGE_ITEMS_RE = compiled_on_use(r"images?|imgs?|photos?|pictures?|pics?", _F)
# An image's side in pixels: "at 384px", "384x384", "resolution 384", "image size 512"
_RESOLUTION_RE = compiled_on_use(
    r"(?:\bat\s+)?(?<![\w.])(?P<a>\d{2,4})\s*(?:px|pixels?)(?:\s+(?:resolution|res|images?|inputs?))?(?![\w-])"
    r"|(?:\bat\s+)?(?<![\w.])(?P<b>\d{2,4})\s*[x\u00d7]\s*(?P=b)(?:\s*(?:px|pixels?|resolution|res|images?))?(?![\w-])"
    r"|\b(?:resolution|res|image\s+size|img\s+size|input\s+size)\s*(?:of\s+|=|:)?\s*(?P<c>\d{2,4})(?:\s*px)?"
    r"(?![\w-])", _F)
# A vision transformer named without the table's shape, its size said: "a 300M ViT", "a 1B ViT/14"
_GENERIC_VIT_RE = compiled_on_use(r"(?<![\w-])(?:vit(?:[\s-]?(?:ti|s|b|l|h|g|small|base|large|huge|giant))?"
                                  r"|vision[\s-]+transformer)(?:/(?P<p>\d{1,2}))?(?![\w-])", _F)
_VIT_RESOLUTION = 224  # what a vision transformer is trained at when no resolution is said (ViT, DeiT)


_EPOCH_CHOICES = (1, 10, 100, 300)  # a fine-tune's few passes to an ImageNet pretraining's hundreds (ViT, DeiT)


def _image_tokens(scan: Scan, fields: dict[str, Any], notes: list[str], questions: list[Question]) -> None:
    """A vision transformer's images as tokens: "ViT-L/16 on ImageNet for 300 epochs" is 1,281,167 images × 197
    tokens (14 × 14 patches of a 224-pixel image, and the class token) × 300. The patch is the model's (the table's,
    or "/14" said; 16 otherwise), the resolution the one said or the model's own; its tokens are also each sequence."""
    if fields.get("tokens") is not None or fields.get("fixed_hours") is not None \
            or measures_work(fields):
        return
    model = find_model(str(fields["model"])) if fields.get("model") else None
    patch = model.patch_size if model is not None else None
    if patch is None and "vit" not in scan.said.lower() and "vision" not in scan.said.lower():
        return  # neither the table's vision transformer ("DeiT-B") nor one said by its kind ("a 300M ViT")
    native = _VIT_RESOLUTION
    if model is not None and patch is not None:
        native = math.isqrt(model.max_context - 1) * patch
    generic = None
    if patch is None:
        generic = _GENERIC_VIT_RE.search(scan.said) if fields.get("params") is not None and model is None else None
        if generic is None:
            return
        patch = int(generic["p"]) if generic["p"] else 16
    counted = _counted_items(scan)
    # ImageNet by its name as said: a reader of counts may have taken the "1k" of "ImageNet-1k"
    named = next((m for m in _IMAGENET_RE.finditer(scan.said) if scan.text[m.start()] != " "), None)
    if counted is not None and _IMAGE_ITEMS_RE.fullmatch(counted["item"]):
        images, phrase = _count(counted["n"]), _said_items(scan, counted)
    elif named is not None:
        images = _IMAGENET_IMAGES[(named["k"] or named["k2"] or "1k").lower()]
        phrase = " ".join(named.group(0).split())
        _take_said(scan, named.start(), named.end())
    else:
        return
    if generic is not None:  # "a 300M ViT": the model the images train, its size said beside it
        _take_said(scan, generic.start(), generic.end())
    resolution, side = native, ""
    if (res := _RESOLUTION_RE.search(scan.said)) is not None:
        resolution = int(res["a"] or res["b"] or res["c"])
        side = " at " + " ".join(re.sub(r"^at\s+", "", res.group(0), flags=re.IGNORECASE).split())
        _take_said(scan, res.start(), res.end())
    if not patch <= resolution <= 4096:
        return
    per_image = (resolution // patch) ** 2 + 1
    if fields.get("seq_len") is None:
        fields["seq_len"] = per_image
    why = f"a {resolution}-pixel image in {patch}-pixel patches is {per_image - 1:,}, and the class token"
    epochs = _epochs_of_data(scan, notes)
    if epochs is None:  # one pass is rarely what is meant, and the count of passes sets the cost
        questions.append(Question(
            field="tokens", question=f"How many epochs over '{phrase}'{side}? Each is {images * per_image:,} tokens "
            f"({images:,} images × {per_image:,}: {why}).",
            choices=[Choice(label=f"{n} epoch{'s' if n > 1 else ''} ({images * per_image * n:,} tokens)",
                            value=images * per_image * n) for n in _EPOCH_CHOICES]))
        return
    total = int(images * per_image * epochs[0])
    fields["tokens"] = total
    notes.append(f"read '{phrase}'{side} as {images:,} images × {per_image:,} tokens × {epochs[1]} = {total:,} "
                 f"tokens: {why}")


def _speech_model_audio(scan: Scan, fields: dict[str, Any], notes: list[str]) -> None:
    """Hours of audio for a speech model whose encoder's rate is known, as its frames: Whisper reads every 30 s window
    whole at 50 frames a second, wav2vec 2.0's feature encoder strides 20 ms (other encoders' rates are asked,
    ``_size_questions``). Hours said to such a model are its data, whatever the data is called ("500 hours of call
    recordings", "960 hours of librispeech")."""
    family = None if fields.get("model") else _SPEECH_FAMILY_RE.search(scan.text)  # "a 300M wav2vec2 model"
    key = str(fields.get("model") or "").split("-")[0] if family is None else family.group(0).lower().replace(" ", "")
    rate = _SPEECH_FRAMES.get(key)
    for m in scan.take(_CORPUS_HOURS_RE) if rate is not None else ():
        scan.unused.append(" ".join(m.group(0).split()))  # "librispeech 960h": the corpus's hours, as "960 hours of" is
    if fields.get("tokens") is not None or fields.get("fixed_hours") is not None or not scan.unused or rate is None:
        return
    if (heard := _audio_hours(scan, notes)) is None:
        return
    if family is not None:
        scan.blank(*family.span())
        notes.append(f"read '{family.group(0)}' as the kind of speech model, of the size said")
    scan.take(_AUDIO_RE)
    phrase, seconds, over = heard
    fields["tokens"] = int(seconds * rate[0])
    notes.append(f"read '{phrase}' of audio{over} as {fields['tokens']:,} tokens: {rate[1]} {rate[0]:g} frames a "
                 "second of sound")
    named = _AUDIO_DATA_NAME_RE.search(scan.said)
    if named is not None and scan.text[slice(*named.span("name"))] == named["name"] \
            and not _AUDIO_RE.fullmatch(named["name"]):
        scan.blank(*named.span("name"))  # "960 hours of librispeech": the data's name, noted
        notes.append(f"read '{' '.join(named['name'].split())}' as what the data is: it describes the work and does "
                     "not change the plan")


# An amount of tokens said in words that give no number: "a few hundred million tokens", "tens of millions of tokens",
# "a couple billion tokens" (two, as "a couple of days" is)
_VAGUE_TOKENS_RE = compiled_on_use(
    r"\b(?:(?P<couple>a\s+couple(?:\s+of)?)|(?P<few>a\s+few|several|some)|(?P<tens>tens)|(?P<hundreds>hundreds))\s+"
    r"(?:of\s+)?(?:(?P<hundred>hundred)\s+)?(?P<scale>thousand|million|billion|trillion)s?\s+(?:of\s+)?(?:tok(?:en)?s?)\b",
    re.I)
_VAGUE_CHOICES = {"few": (2, 3, 5), "tens": (20, 50, 90), "hundreds": (200, 500, 900)}


def _vague_tokens(scan: Scan, fields: dict[str, Any], notes: list[str], questions: list[Question]) -> None:
    """Tokens said in words with no number: "a couple billion" is two, read and noted; "a few hundred million",
    "tens of millions" are asked, with the amounts the words span."""
    if fields.get("tokens") is not None or not scan.holds(("illion", "thousand")):
        return
    m = _VAGUE_TOKENS_RE.search(scan.said)
    if m is None:
        return
    unit = _SCALES[m["scale"].lower()] * (100 if m["hundred"] else 1)
    said = " ".join(m.group(0).split())
    scan.blank(*m.span())
    scan.unused[:] = [p for p in scan.unused if " ".join(p.lower().split()) not in said.lower()]
    if m["couple"]:
        fields["tokens"] = 2 * unit
        notes.append(f"read '{said}' as {format_count(2 * unit)} tokens, two of them")
        return
    kind = "few" if m["few"] else "tens" if m["tens"] else "hundreds"
    questions.append(Question(field="tokens", question=f"How many tokens is '{said}'? Give the count, or pick one.",
                              choices=[Choice(label=f"{format_count(n * unit)} tokens", value=n * unit)
                                       for n in _VAGUE_CHOICES[kind]]))


# The frames a second of sound each speech model's encoder trains on, by the first part of its name, and whose
_SPEECH_FRAMES = {"whisper": (_WHISPER_FRAMES_PER_SECOND, "Whisper's encoder reads"),
                  "wav2vec2": (50.0, "wav2vec 2.0's feature encoder gives")}  # a 20 ms stride (arXiv 2006.11477)
# "960 hours of librispeech", "500 hours of call recordings": the data's name after its hours
_AUDIO_DATA_NAME_RE = compiled_on_use(
    r"\b\d[\d.,]*\s*(?:k|thousand)?\s*(?:hours?|hrs?)\s+of\s+(?P<name>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
    r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:for|over|with|in|on|by|and|x|at|from|to)\b)", re.I)


def _audio_hours(scan: Scan, notes: list[str]) -> tuple[str, float, str] | None:
    """The hours of audio said ("500 hours of speech"), taken from the unread: the phrase, its seconds times any
    epochs said, and how the epochs read (" over 3 epochs"); None when none is said."""
    heard = next((m for p in scan.unused if (m := _AUDIO_HOURS_RE.match(p))), None)
    if heard is None or not 0 < _count(heard["n"]) <= _MAX_AUDIO_HOURS:
        return None
    scan.unused.remove(heard.group(0))
    epochs = _epochs_of_data(scan, notes)
    return (heard.group(0), _count(heard["n"]) * 3600 * (epochs[0] if epochs else 1.0),
            f" over {epochs[1]}" if epochs else "")


def _take_said(scan: Scan, start: int, end: int) -> None:
    """The span of the text as said, now read: blanked, and what a reader of counts left unread inside it (the "1k"
    of "ImageNet-1k") dropped from the unread."""
    said = " ".join(scan.said[start:end].split()).lower()
    scan.blank(start, end)
    scan.unused[:] = [u for u in scan.unused if " ".join(u.split()).lower() not in said]


_SIZE_BOUND_TASKS = (Task.DISTILL, Task.RLHF, Task.DPO)
_SIZE_BOUND_WORDS_RE = compiled_on_use(r"\b(?:distil\w*|rlhf|ppo|dpo)\b", _F)


_EPOCHS_SAID_RE = compiled_on_use(r"(?P<n>\d+(?:\.\d+)?)\s*(?:epochs?|eps?|pass(?:es)?)", _F)  # "2ep", "one pass"
# The counts' reader's note on epochs with no tokens to count (``policy.parse``), dropped once data gives them some
EPOCHS_WAITING = "needs the dataset's size to count"


def _epochs_of_data(scan: Scan, notes: list[str]) -> tuple[float, str] | None:
    """The epochs the counts' reader left for want of a dataset's size ("3 epochs"), now that data said otherwise
    (hours of audio, images) gives it: their count and phrase, taken from the unread and their note dropped."""
    found = next(((p, m) for p in scan.unused if (m := _EPOCHS_SAID_RE.fullmatch(p)) is not None), None)
    if found is None:
        return None
    said, m = found
    scan.unused.remove(said)
    notes[:] = [n for n in notes if not (n.startswith(f"'{said}'") and EPOCHS_WAITING in n)]
    return float(m["n"]), said


_PER_PAIR_RE = compiled_on_use(r"(?:\b(?:per|each|every|a)\s+|/\s*)pair\b", _F)  # "1k tokens/pair" too


def _both_answers(fields: dict[str, Any], notes: list[str], *, said: str) -> None:
    """ "DPO on 60k pairs of ~700 tokens": a pair holds two answers, chosen and rejected, each trained on with its
    prompt, so the tokens are twice the pairs times the length, as the question of pairs with no length counts them;
    other work on pairs keeps the product."""
    phrase = fields.pop(PAIRED_TOKENS, None)
    if phrase is None or fields.get("tokens") is None:
        return
    if _PER_PAIR_RE.search(phrase):  # "1.2k tokens per pair": the pair's whole length, both answers in it
        notes.append(f"read '{phrase}' as each pair's whole length, both answers with their prompt: "
                     f"{fields['tokens']:,} tokens")
        return
    method = _PAIRED_TRAINING_RE.search(said)
    if fields.get("task") is not Task.DPO and (method is None or not method["rm"]):
        return
    name = "a reward model" if method is not None and method["rm"] else (
        method.group(0).upper() if method is not None else "DPO")
    fields["tokens"] *= 2
    notes.append(f"read '{phrase}' as pairs of two answers, chosen and rejected, each trained on with its prompt by "
                 f"{name}: {fields['tokens']:,} tokens")


def _size_questions(scan: Scan, fields: dict[str, Any], questions: list[Question], notes: list[str], *,
                    said: str) -> None:
    """Tokens for work whose default would set the cost: distillation, RLHF, audio, "50k examples"; and whether
    fewer tokens than examples ("100k examples, 512 tokens") are each example's or all of them."""
    rollouts: tuple[int, str] | None = fields.pop(RL_ROLLOUTS, None)
    if fields.get("fixed_hours") is not None or any(q.field == "tokens" for q in questions):
        return
    if rollouts is not None and (tokens := fields.get("tokens")) is not None and tokens < rollouts[0]:
        # "1000 steps × 32 prompts × 8 samples, 1k tokens": fewer tokens than rollouts cannot be all of them
        n, phrase = rollouts
        questions.append(Question(field="tokens", question=f"Are the {tokens:,} tokens each rollout's of {phrase}, or "
                                  "all of them?", choices=[
                                      Choice(label=f"{tokens:,} each ({n * tokens:,} tokens)", value=n * tokens),
                                      Choice(label=f"{tokens:,} in all", value=tokens)]))
        return
    if rollouts is not None and fields.get("tokens") is None:
        n, phrase = rollouts
        questions.append(Question(field="tokens", question=f"How many tokens is each rollout of {phrase}? Give the "
                                  "total, or pick the average length of a generated answer.",
                                  choices=[Choice(label=f"~{per:,} tokens a rollout ({n * per:,} tokens)",
                                                  value=n * per) for per in (512, 2048, 8192)]))
        return
    counted = _counted_items(scan)
    tokens = fields.get("tokens")
    if tokens is not None and counted is not None and tokens < (n := _count(counted["n"])):
        phrase = _said_items(scan, counted)
        if (rate := next(_PER_PROMPT_RE.finditer(scan.said), None)) is not None:
            # "10k prompts, 8 rollouts each, max 1024 new tokens": a generation's length is each rollout's
            said_rate = " ".join(rate.group(0).split())
            scan.unused[:] = [p for p in scan.unused if " ".join(p.lower().split()) not in said_rate.lower()]
            scan.blank(rate.start(), rate.end())
            fields["tokens"] = int(n * int(rate["g"]) * tokens)
            notes.append(f"read '{phrase}' × '{said_rate}' × {tokens:,} tokens as {fields['tokens']:,} tokens "
                         "generated and trained on, each rollout's length said (its prompt's own tokens not counted)")
            return
        # "100k examples, 512 tokens, 3 epochs": the tokens hold the epochs already; asked of one pass's, as said
        passes = fields.get("epochs") or 1.0
        said = round(tokens / passes) if passes != 1 else tokens
        times = f" × {passes:g} epochs" if passes != 1 else ""
        questions.append(Question(field="tokens", question=f"Are the {said:,} tokens each of the '{phrase}', or all "
                                  "of them?", choices=[Choice(label=f"{said:,} each{times} ({n * tokens:,} tokens)",
                                                              value=n * tokens),
                                                       Choice(label=f"{said:,} in all{times}"
                                                              + (f" ({tokens:,} tokens)" if times else ""),
                                                              value=tokens)]))
        return
    if tokens is not None and counted is not None:
        # "our 40k support tickets (about 25M tokens)": the items counted are what the tokens said are made of
        phrase = _said_items(scan, counted)
        notes.append(f"read '{phrase}' as what the data is: the tokens said are what is trained on")
        return
    if tokens is not None:
        _audio_with_tokens(scan, notes)
        return
    if counted is not None:
        phrase = _said_items(scan, counted)
        n, each = _count(counted["n"]), "each"
        rate = next(_PER_PROMPT_RE.finditer(scan.said), None)
        if rate is not None:  # "5k prompts, 8 rollouts per prompt": 40k sequences trained on
            said_rate = " ".join(rate.group(0).lower().split())
            n, each = n * int(rate["g"]), "a rollout"
            phrase = f"{phrase}' × '{' '.join(rate.group(0).split())}"
            scan.unused[:] = [p for p in scan.unused if not said_rate.startswith(" ".join(p.lower().split()))]
            scan.blank(rate.start(), rate.end())
        ask = f"How many tokens are '{phrase}'? Give the total, or pick an average length."
        method = _PAIRED_TRAINING_RE.search(scan.said)
        if rate is None and _PAIRED_RE.fullmatch(counted["item"]) and (
                fields.get("task") is Task.DPO or (method is not None and method["rm"])):
            # DPO and its kin, and a reward model, train on both answers of a pair, chosen and rejected, each a
            # sequence with its prompt
            n, each = n * 2, "an answer"
            name = "A reward model" if method is not None and method["rm"] else (
                method.group(0).upper() if method is not None else "DPO")
            ask = (f"How many tokens are '{phrase}'? {name} trains on both answers of each, chosen and rejected: "
                   "give the total, or pick the average length of an answer with its prompt.")
        lengths = [512, 2048, 8192]
        seq = fields.get("seq_len")
        model = find_model(str(fields["model"])) if fields.get("model") else None
        if seq is not None and seq not in lengths:  # "seq len 4096": the longest a sequence can be, said
            lengths = sorted([*lengths[:2], seq])
        elif seq is not None and seq < lengths[-1]:  # "seq 2048": no item longer than it is offered
            lengths = [n for n in (128, 256, 512, 1024) if n < seq][-2:] + [seq]
        elif seq is None and model is not None and model.max_context < lengths[-1] and each != "a rollout":
            # "bge-large on 2M query-doc pairs": no item is longer than the model reads (512 tokens here)
            lengths = [model.max_context // 4, model.max_context // 2, model.max_context]
        # "50k samples, 3 epochs": each choice is every pass's tokens, so the epochs said are priced, not dropped
        passes, over = _epochs_of_data(scan, notes) or (1.0, "")
        if over:
            ask = ask.replace("Give the total,", f"Give the total over the {over},").replace(
                "give the total,", f"give the total over the {over},")
        times = f" × {over}" if over else ""
        choices = [Choice(label=f"~{per:,} tokens {each}{times}" + (", the sequence length said" if per == seq else "")
                          + f" ({int(n * per * passes):,} tokens)", value=int(n * per * passes))
                   for per in lengths]
        questions.append(Question(field="tokens", question=ask, choices=choices))
        return
    if (question := _steps_question(scan, fields)) is not None:
        questions.append(question)
        return
    task = fields.get("task")
    audio = scan.take(_AUDIO_RE)
    if audio and (heard := _audio_hours(scan, notes)) is not None:  # "500 hours of audio": sound, not a length
        phrase, seconds, over = heard
        questions.append(Question(field="tokens", question=f"How many tokens are '{phrase}' of audio{over}? Give the "
                                  "total, or pick the frame rate of the audio encoder.",
                                  choices=[Choice(label=f"{label}: {seconds * rate:,.0f} tokens",
                                                  value=int(seconds * rate)) for label, rate in _AUDIO_RATES]))
        return
    named = _SIZE_BOUND_WORDS_RE.search(said or scan.text)  # "RLHF" and "distill" whatever task they were read as
    if task in _SIZE_BOUND_TASKS or audio or named:
        word = audio[0].group(0) if audio else named.group(0) if named else (task.value if task else "this")
        what = f"'{word}' work"
        questions.append(Question(field="tokens", question=f"How many tokens does the {what} train on? Its default "
                                  "would decide the cost.",
                                  choices=[Choice(label=f"{v:,} tokens", value=v) for v in (10**8, 10**9, 10**10)]))


# The training steps said as the job's setting ("max_steps=2000"): the job is passed it as said
STEP_SETTINGS = ("max_steps", "num_steps", "total_steps", "train_steps", "training_steps", "steps")


def step_setting(fields: dict[str, Any]) -> tuple[str, int] | None:
    """("max_steps=2000", 2000) for the first step setting among the job's hyperparameters that is a count."""
    settings = (fields.get("job") or {}).get("hyperparameters") or {}
    named = next((name for name in STEP_SETTINGS if name in settings), None)
    if named is None:
        return None
    try:
        steps = int(str(settings[named]).replace(",", "").replace("_", ""))
    except ValueError:
        return None  # "max_steps=auto": no count
    return (f"{named}={settings[named]}", steps) if 0 < steps <= 10**9 else None


_STEPS_SAID_RE = compiled_on_use(
    r"(?P<n>\d(?:[\d,]*\d)?(?:\.\d+)?\s*(?:k|m|thousand|million)?)\s*(?:optimi[sz]er\s+|training\s+)?"
    r"(?:steps?|(?P<iters>iterations?|iters?))", _F)
MIN_ITERATIONS_AS_STEPS = 100  # "3 iterations of the fine-tune" are runs, "5000 iterations" a trainer's steps
# The global batches "2000 steps" said without one is asked in: a small fine-tuning batch, a common one and one of
# pretraining's size, in sequences of the length said, else in tokens
_STEP_SEQUENCES = (32, 128, 512)
_STEP_LENGTHS = (2048, 4096, 8192)


def _steps_question(scan: Scan, fields: dict[str, Any]) -> Question | None:
    """ "fine-tune 7B for 2000 steps" or "max_steps=2000" with no batch: the tokens are the steps times a step's
    batch, which only the person knows (a default batch would decide the cost while looking read); asked with three
    batches to pick. A step setting stays the job's as said."""
    said = next(((p, m) for p in scan.unused if (m := _STEPS_SAID_RE.fullmatch(p)) is not None), None)
    if said is not None:
        phrase, steps = said[0], _count(said[1]["n"])
        if steps < 1 or (said[1]["iters"] and steps < MIN_ITERATIONS_AS_STEPS):
            return None
        scan.unused.remove(phrase)
    elif fields.get("tokens") is None and (setting := step_setting(fields)) is not None:
        phrase, steps = setting
    else:
        return None
    seq, sequences = fields.get("seq_len"), fields.get("batch_sequences")
    if sequences:  # "batch 64" with no length: the length is asked
        batches = [(f"{sequences:,} sequences of ~{n:,} tokens", sequences * n) for n in _STEP_LENGTHS]
    else:  # of the length said, else the usual 4,096
        batches = [(f"{n} sequences of {seq or 4096:,} tokens", n * (seq or 4096)) for n in _STEP_SEQUENCES]
    said_as = " ".join(phrase.split())
    return Question(field="tokens", question=f"How many tokens are '{said_as}'? Give the total, or pick the global "
                    "batch of a step.", choices=[Choice(label=f"{label} a step ({steps * per:,} tokens)",
                                                        value=steps * per) for label, per in batches])


_COUNTED_RE = compiled_on_use(_COUNTED, _F)


def _counted_items(scan: Scan) -> re.Match[str] | None:
    """The first dataset counted in items whose count nothing else read ("50k support conversations")."""
    if not scan.unused:
        return None
    return next((m for m in _COUNTED_RE.finditer(scan.said) if _its_count(scan, m)), None)


def _its_count(scan: Scan, counted: re.Match[str]) -> list[str]:
    """The unused phrases that are this count, alone ("50k") or with its items ("100k examples")."""
    number, whole = (" ".join(s.lower().split()) for s in (counted["n"], counted.group(0)))
    return [p for p in scan.unused if (said := " ".join(p.lower().split())).startswith(number)
            and whole.startswith(said)]


def _said_items(scan: Scan, counted: re.Match[str]) -> str:
    """The counted phrase as said, now read: its count leaves the unused phrases and its words the text."""
    for phrase in _its_count(scan, counted):
        scan.unused.remove(phrase)
    scan.blank(counted.start(), counted.end())
    return " ".join(counted.group(0).split())


def _count(text: str) -> int:
    m = re.match(r"([\d.,]+)\s*([a-z]*)", text.strip(), _F)
    assert m is not None
    return int(Decimal(m[1].replace(",", "")) * _SCALES.get(m[2].lower(), 1))


# "spot is fine as long as …", "what would it cost if we do it on spot": glue of several words
_GLUE_PHRASE_RE = compiled_on_use(
    r"\bon\s+top\s+of\b|\b(?:as|so)\s+long\s+as\b|\bif\s+(?:we|i)\s+(?:do|did|run|ran)\s+(?:it|this|them)\b"
    r"|\bright(?=\s*\?)"  # "…, right?": a question's tag
    # "by Friday our time" beside a zone said ("we're in Sydney"): the zone the dates are read in, said again
    r"|\b(?:our|my|local)\s+time(?:\s+zone)?(?=\s*(?:$|[,.;!?)]))", _F)


def _unread(scan: Scan) -> list[str]:
    """Phrases nothing used: runs of words that are not glue, and quantities that count nothing a plan uses."""
    phrases: list[str] = list(scan.unused)
    run: list[str] = []
    last_end = 0
    # "DPO on top of our SFT checkpoint": glue of several words, blanked to its length so positions stay
    text = (_GLUE_PHRASE_RE.sub(lambda g: " " * len(g.group(0)), scan.text)
            if any(w in scan.text for w in ("top", "long", "if", "right", "time")) else scan.text)
    for m in _WORD_RE.finditer(text):
        word = _SHORTHAND.get(m.group(0).lower(), m.group(0)).strip(".:-'/=")
        if word.lower() in _LABELS and (m.group(0)[-1:] in ":=" or _LABEL_MARK_RE.match(scan.text, m.end())
                                         or _starts_field(scan.said, m.start())):
            word = ""  # "Model size: 7B", "tokens=100M", "…, Stage experimental, …": a field's name
        if run and m.start() - last_end > 2:  # a used phrase lay between: not one phrase
            phrases.append(" ".join(run))
            run = []
        last_end = m.end()
        plain = word[:-2] if word.lower().endswith(("'s", "\u2019s")) else word  # "llama's": the word it is of
        if (not word or plain.lower() in FILLER_WORDS or word.lower().lstrip("/") == "gpu"
                or _MODEL_NAME_RE.fullmatch(plain) or not any(c.isalnum() for c in word)):
            if run:
                phrases.append(" ".join(run))
            run = []
            continue
        run.append(word)
    if run:
        phrases.append(" ".join(run))
    return phrases
