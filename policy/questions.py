"""Questions a plan asks instead of guessing: what they are, and the ones a text or a decision raises.

A question names the request field its answer sets (``deadline``, ``stage``, ``task``, ``tokens``, ``fixed_hours``),
says what is unclear, and offers choices whose ``value`` is what to send as that field (``PATCH /v1/requests/{id}``
or the fields of ``POST /v1/plans``). Giving the field answers the question: it is not asked again.
See docs/design.md §Questions.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from policy.config import PolicyConfig
from policy.dates import Deadline
from policy.decision import Decision
from policy.patterns import compiled_on_use
from policy.request import TrainingRequest

__all__ = ["ask_after_deciding", "Choice", "deadline_questions", "NeedsInput", "Question", "stage_question",
           "unanswered"]


class Choice(BaseModel):
    """One answer: what a person reads and what is sent as the field."""

    model_config = ConfigDict(frozen=True)

    label: str
    value: Any


class Question(BaseModel):
    """What only the person can settle; ``choices`` may be empty (answer in words or a number)."""

    model_config = ConfigDict(frozen=True)

    field: str
    question: str
    choices: list[Choice] = Field(default_factory=list[Choice])


class NeedsInput(BaseModel):
    """The answer when a plan would rest on a guess: the questions and what was read so far."""

    model_config = ConfigDict(frozen=True)

    status: Literal["needs_input"] = "needs_input"
    questions: list[Question]
    request: TrainingRequest


def unanswered(questions: list[Question], given: set[str]) -> list[Question]:
    """The questions whose field was not given, each field asked once."""
    seen: set[str] = set()
    out = []
    for q in questions:
        if q.field not in given and q.field not in seen:
            seen.add(q.field)
            out.append(q)
    return out


_WORDS_RE = compiled_on_use(r"[a-z]+")
_PERIOD_WORDS = (("month", ("month", "eom")), ("week", ("week", "eow")), ("quarter", ("quarter", "eoq")),
                 ("year", ("year", "eoy")))


# A phrase with two readings ("by Q1": before it starts, or by its end?) is asked about when the later reading is at
# least half as far again as the earlier one taken: then the choice could change the plan. Said on Dec 1, "by Q1"
# (Dec 31 or Mar 31) and "by January" are asked; "by June" (May 31 or Jun 30) is read as May 31, and the note says
# how to ask for Jun 30.
_ASK_WHEN_LATER_BY = 1.5


# a day of the week with no date: "by Friday", "Friday 3pm", not "Friday Dec 4"
# Only a deadline read before the start uses it.
_WEEKDAY_ONLY_RE = compiled_on_use(
    r"^(?!.*\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|.*\d{1,2}(?:st|nd|rd|th)\b"
    r"|.*\d+[/-]\d+).*\b(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b", re.IGNORECASE)


_THIS_PERIOD_RE = compiled_on_use(r"\b(?:this|the)\s+(?:week|month)\b")


def weekday_only(phrase: str) -> bool:
    """Whether a deadline phrase names its day by the weekday alone ("by Friday 5pm"), not by a date."""
    return _WEEKDAY_ONLY_RE.search(phrase) is not None


def week_after(when: datetime, start: datetime) -> datetime:
    """``when`` moved on by whole weeks to the first such day and time after ``start`` ("Friday 17:00" said with a
    start on Monday is the Friday after it)."""
    return when + timedelta(weeks=(start - when) // timedelta(weeks=1) + 1)


def first_after_start(deadline: Deadline, start: datetime) -> datetime | None:
    """A deadline said by its weekday alone ("Friday") that falls before ``start``, moved to the same day and time of
    the first week after it, and one said by its time of day alone ("by noon", said with a start tonight) to that time
    on the first day after it; None when it needs no moving or is a date said outright (no week to move)."""
    if deadline.when > start:
        return None
    if _TIME_ONLY_RE.fullmatch(deadline.phrase) is not None:
        return deadline.when + timedelta(days=(start - deadline.when) // timedelta(days=1) + 1)
    if not weekday_only(deadline.phrase):
        return None
    return week_after(deadline.when, start)


# A deadline said by its time of day alone: "by noon", "done by 8am", "before 17:00"
_TIME_ONLY_RE = compiled_on_use(
    r"(?:(?:done\s+|finished\s+|ready\s+|due\s+)?(?:by|before|until|till|due)\s+)?(?:\d{1,2}(?::\d\d)?\s*[ap]\.?m\.?"
    r"|\d{1,2}:\d\d|noon|midday)", re.IGNORECASE)


def deadline_before_start(deadline: Deadline, *, start: datetime) -> list[Question]:
    """"starting next Monday, done by Friday": the Friday read is this week's, before the work may start. The same
    day and time in the first week after the start is offered; the person says which."""
    later = first_after_start(deadline, start)
    if later is None:
        return []  # a date said outright is no week to move: the plan says the two disagree (deadline_before_start)
    return [Question(field="deadline", question=f"'{deadline.phrase}' reads as {deadline.when:%a %Y-%m-%d %H:%M}, "
                     f"before the start, {start:%a %Y-%m-%d %H:%M}: which deadline do you mean?",
                     choices=[Choice(label=f"{later:%a %Y-%m-%d %H:%M}, after the start", value=later.isoformat())])]


_WEEK_PART_WORDS = frozenset({"early", "mid", "middle", "late"})


def deadline_questions(deadline: Deadline, *, now: datetime) -> list[Question]:
    """"end of month" said on its last day (today 17:00, or next month?), "end of week" on Friday evening,
    "end of November" or "mid-month" said on that very day; "by Q1" or "by January" said a month or less before
    it starts."""
    if deadline.choices:
        return _readings_question(deadline, now=now)
    if deadline.recurs is not None:
        return _same_day_questions(deadline, now=now)
    phrase = deadline.phrase.lower()
    said_words = set(_WORDS_RE.findall(phrase))  # whole words: "weekend" names no week's end
    unit = next((u for u, words in _PERIOD_WORDS if any(w in said_words for w in words)), None)
    whole = _THIS_PERIOD_RE.search(phrase) is not None  # "this month", "within the week": done by its end
    if unit is None or "end" not in phrase and not phrase.startswith("eo") and f"{unit}-end" not in phrase \
            and not whole:
        return []
    if unit == "week" and said_words & _WEEK_PART_WORDS:  # "late this week": a day within it, read as its earliest
        return []
    rolled = any("has passed" in n for n in deadline.notes)
    soon = deadline.when - now <= timedelta(hours=36)
    if not (rolled or soon):
        return []
    when = deadline.when
    today = ("today, " if when.date() == now.astimezone(when.tzinfo).date()
             else f"end of next {unit}, " if rolled else "")
    choices = [Choice(label=f"{today}{when:%a %Y-%m-%d %H:%M}", value=when.isoformat())]
    if soon:
        later = _next_period_end(when, unit)
        choices.append(Choice(label=f"end of next {unit}, {later:%a %Y-%m-%d %H:%M}", value=later.isoformat()))
    else:
        tonight = now.replace(hour=23, minute=59, second=0, microsecond=0)
        if tonight > now:
            choices.insert(0, Choice(label=f"tonight, {tonight:%a %Y-%m-%d %H:%M}", value=tonight.isoformat()))
    said = f"'{deadline.phrase}' said on {now:%a %Y-%m-%d %H:%M}"
    return [Question(field="deadline", question=f"{said}: which deadline do you mean?", choices=choices)]


def _readings_question(deadline: Deadline, *, now: datetime) -> list[Question]:
    """Which of a phrase's readings is meant, when they lie far apart for the time left."""
    taken = deadline.choices[0][1]
    latest = max(when for _, when in deadline.choices)
    if latest - now < (taken - now) * _ASK_WHEN_LATER_BY:
        return []
    said = ", or ".join(label for label, _ in deadline.choices)
    choices = [Choice(label=f"{label}, {when:%a %Y-%m-%d %H:%M}", value=when.isoformat())
               for label, when in deadline.choices]
    return [Question(field="deadline", question=f"'{deadline.phrase}': {said}?", choices=choices)]


def _same_day_questions(deadline: Deadline, *, now: datetime) -> list[Question]:
    """A day named within a period ("end of November", "mid-month") said on that day: today 17:00 or tonight; said
    after its hour, it rolled a month or a year on: tonight, or then?"""
    when = deadline.when
    local = now.astimezone(when.tzinfo)
    tonight = local.replace(hour=23, minute=59, second=0, microsecond=0)
    if when.date() == local.date():
        choices = [Choice(label=f"today, {when:%a %Y-%m-%d %H:%M}", value=when.isoformat())]
        if tonight > when:
            choices.append(Choice(label=f"tonight, {tonight:%a %Y-%m-%d %H:%M}", value=tonight.isoformat()))
    elif any("has passed today" in n for n in deadline.notes):
        choices = [Choice(label=f"a {deadline.recurs} on, {when:%a %Y-%m-%d %H:%M}", value=when.isoformat())]
        if tonight > local:
            choices.insert(0, Choice(label=f"tonight, {tonight:%a %Y-%m-%d %H:%M}", value=tonight.isoformat()))
    else:
        return []
    said = f"'{deadline.phrase}' said on {local:%a %Y-%m-%d %H:%M}"
    return [Question(field="deadline", question=f"{said}: which deadline do you mean?", choices=choices)]


def _next_period_end(when: datetime, unit: str) -> datetime:
    """The same hour at the end of the following week, month, quarter or year."""
    if unit == "week":
        return when + timedelta(days=7)
    months = {"month": 1, "quarter": 3, "year": 12}[unit]
    first = when.replace(day=1)
    for _ in range(months):
        first = (first + timedelta(days=32)).replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return following - timedelta(days=1)


def stage_question(*, cost_usd: float, instances: int, above_usd: float, above_instances: int) -> Question | None:
    """Ask experimental or production when the request did not say and the plan is large (policy thresholds)."""
    if cost_usd < above_usd and instances < above_instances:
        return None
    size = f"~${cost_usd:,.0f} on {instances} instance(s)"
    return Question(
        field="stage",
        question=(f"This plan is large ({size}). Is it an experiment or production work? Production runs without "
                  "interruptions and needs production approvers."),
        choices=[Choice(label="experimental", value="experimental"), Choice(label="production", value="production")],
    )


def ask_after_deciding(*, said: TrainingRequest, decision: Decision, policy: PolicyConfig,
                       given: set[str]) -> list[Question]:
    """What the decision shows is worth asking: the stage of a large plan when neither the text nor a field said it."""
    if said.stage is not None or "stage" in given or decision.approval.denied:
        return []
    plan = decision.plan
    question = stage_question(cost_usd=max(plan.estimated_cost_usd, plan.exposure_usd),
                              instances=plan.job_instances,  # one job's nodes
                              above_usd=policy.ask_stage_above_usd, above_instances=policy.ask_stage_above_instances)
    return [] if question is None else [question]
