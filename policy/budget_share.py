"""A budget said as a share of the team's: "keep it under 10% of our monthly budget", "at most half of what's left of
the budget".

The text holds only the share (``read_budget_share``, run by ``policy.parse``); the dollars come from the team's
monthly budget in the policy, or from what is left of it this month, when the decision is made
(``budget_from_share``, run by ``policy.tree.decide``). A share of a budget the request itself states ("budget $20k,
this run at most 10% of the budget") is that budget's, in dollars at once (``apply_budget_share``), unless it names
the team's ("10% of our monthly budget"). A share nothing can turn into dollars (a team with no monthly budget, or
what is left of it while spend is unknown) stays a phrase a person checks: never approved automatically.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from policy.config import PolicyConfig
from policy.describing import TextScan
from policy.guardrails import spend_status
from policy.patterns import compiled_on_use
from policy.request import TrainingRequest
from policy.spend import SpendSnapshot, SpendStatus

__all__ = ["apply_budget_share", "budget_from_share", "BUDGET_SHARE_WORDS", "BudgetShare", "read_budget_share"]

_F = re.IGNORECASE | re.ASCII
_FRACTIONS = {"half": 50.0, "third": 100.0 / 3, "quarter": 25.0, "fifth": 20.0, "tenth": 10.0}
# The reading's note of a share (``apply_budget_share``) until the decision says what it came to (``_said_as``).
_AS = "' as a budget of "
_PENDING = "in dollars once the plan is made"
_BUDGET_SHARE_RE = compiled_on_use(
    # what bounds the share: "keep it under", "no more than", "use at most" (nothing: "10% of our budget")
    r"(?:\b(?:(?:keep|hold)\s+(?:it|this|the\s+(?:run|job|cost))\s+|stay\s+|cap\s+(?:it|this|the\s+(?:run|job|cost))\s+"
    r"|(?:it|this|the\s+(?:run|job|cost))\s+(?:should|must|can)\s+(?:cost|take|use|be|stay)\s+)?"
    r"(?:under|below|within|up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+than|less\s+than|to|max(?:imum)?(?:\s+of)?"
    # "spend up to 40% of our remaining budget" (the space before the share is the group's last)
    r"|(?:use|spend|take)(?:\s+(?:at\s+most|up\s+to|only|no\s+more\s+than))?"
    # "don't exceed 10% of remaining budget", "must not go over a quarter of our budget"
    r"|(?:(?:don'?t|do\s+not|must\s+not|mustn'?t|should\s+not|shouldn'?t|never|not\s+to)\s+(?:exceed|go\s+(?:over|above)"
    r"|be\s+more\s+than|cost\s+more\s+than|spend\s+more\s+than|use\s+more\s+than))"
    r"|(?:never\s+)?(?:exceeding|over))\s+)?"
    r"(?P<share>\b\d{1,3}(?:\.\d+)?\s*(?:%|percent\b)|\b(?:half|(?:a|one)\s+(?:third|quarter|fifth|tenth)))\s+of\s+"
    r"(?:(?P<left>what(?:'?s|\s+is)\s+left\s+(?:of|in)\s+|(?:the\s+)?rest\s+of\s+)"
    # "5% of team-ml's remaining budget": a team named as the budget's (its name read as the team, so maybe blank)
    r"|(?:(?:our|the|my|(?P<month>this\s+month'?s|the\s+team'?s|the\s+team|team|(?P<owner>[a-z][\w-]*)?\s*'s))\s+)?"
    r"(?P<remaining>remaining\s+|leftover\s+)?)"
    r"(?:(?:our|the|my|(?P<month2>this\s+month'?s|the\s+team'?s))\s+)?"
    r"(?P<kind>(?:(?:monthly|month'?s|team|gpu|compute)\s+)*)budget\b", _F)
# Words without one of which the pattern cannot match: it is many alternatives, looked for only then.
BUDGET_SHARE_WORDS = ("budget",)


def _percent(said: str) -> float:
    """ "10%", "12.5 percent", "half", "a quarter" as a percent."""
    number = re.match(r"\d+(?:\.\d+)?", said)
    return float(number.group(0)) if number else _FRACTIONS[said.split()[-1].lower()]


@dataclass(frozen=True)
class BudgetShare:
    """A share of a budget as said: the phrase, the percent, whether it is of what is left, and whether it names the
    team's monthly budget ("our monthly budget", "the team's budget") rather than just "the budget"."""

    said: str
    percent: float
    of_left: bool
    teams: bool


def read_budget_share(scan: TextScan) -> BudgetShare | None:
    """The share of the budget the text says, taken from it; None when none is said. A share over the whole ("150% of
    the budget") is left unread, as is a second share."""
    found = None
    for m in list(_BUDGET_SHARE_RE.finditer(scan.text)):
        said = " ".join(m.group(0).split())
        percent = _percent(m["share"])
        if m["owner"]:  # the team's name is left for the team reader ("10% of team-nlp's budget")
            scan.blank(m.start(), m.start("owner"))
            scan.blank(m.end("owner"), m.end())
        else:
            scan.blank(m.start(), m.end())
        if not 0 < percent <= 100 or found is not None:  # a second share is for a person to reconcile
            scan.unused.append(said)
            continue
        teams = bool(m["month"] or m["month2"] or re.search(r"month|team", m["kind"], _F))
        found = BudgetShare(said, percent, bool(m["left"] or m["remaining"]), teams)
    return found


def apply_budget_share(share: BudgetShare, fields: dict[str, Any], notes: list[str]) -> None:
    """Lay the share read over the fields read: in dollars of a budget the text states ("budget $20k, this run at most
    10% of the budget"), unless it names the team's; else ``budget_percent`` for the decision to turn into dollars."""
    said, percent, of_left = share.said, share.percent, share.of_left
    stated = fields.get("budget_usd")
    if stated is not None and not of_left and not share.teams:
        fields["budget_usd"] = round(stated * percent / 100.0, 2)
        notes.append(f"read '{said}' as a budget of ${fields['budget_usd']:,.2f}: {percent:g}% of the "
                     f"${stated:,.2f} budget said")
        return
    fields["budget_percent"] = percent
    fields["budget_percent_of_left"] = of_left or None
    notes.append(f"read '{said}{_AS}{percent:g}% of the team's monthly budget" + (" left" if of_left else "")
                 + f", {_PENDING}")


def budget_from_share(request: TrainingRequest, *, policy: PolicyConfig, spend: SpendSnapshot,
                      now: datetime) -> TrainingRequest:
    """``request`` with the share of its team's budget it states turned into ``budget_usd`` (the smaller, when it
    states both) and the share cleared, so that deciding it again changes nothing; the reading's note of the share
    says the dollars now (a share given as a field gets a note of its own). Unchanged when it states no share.

    What is left of the month's budget is the budget less the month's spend so far, what was launched since that
    figure and, when read, what gpuops' running and reserved jobs may still bill: known only while spend is current.
    Without a monthly budget, or without current spend for what is left, or with nothing left, the share is listed
    as unread, with a note saying why, so that a person approves the plan."""
    percent = request.budget_percent
    if percent is None:
        return request
    team, policy_team = policy.team_or_default(request.team)
    budget = spend.budget_usd if spend.budget_usd is not None else policy_team.monthly_budget_usd
    left = "what is left of " if request.budget_percent_of_left else ""
    share = f"{percent:g}% of {left}{team}'s monthly budget"
    why_not = None
    if budget is None:
        why_not = f"{team} has no monthly budget in the policy"
    elif request.budget_percent_of_left:
        status, _ = spend_status(spend, policy=policy, now=now)
        if status is not SpendStatus.OK or spend.month_to_date_usd is None:
            why_not = "the month's spend so far is not known now"
        else:
            ledger = spend.ledger  # gpuops' own running and reserved exposure, when read (filing)
            held = ledger.running_usd + ledger.reserved_usd if ledger is not None else 0.0
            whole, budget = budget, max(0.0, budget - spend.month_to_date_usd - spend.committed_usd - held)
            if budget <= 0:
                why_not = f"nothing is left of the ${whole:,.2f}"
    cleared: dict[str, Any] = {"budget_percent": None, "budget_percent_of_left": None}
    if why_not is not None or budget is None:
        notes = _said_as(request.notes, f"{share}, which cannot be turned into dollars: {why_not}; a person checks "
                                        "the plan's cost against it")
        return request.model_copy(update={**cleared, "notes": notes, "unread": [*request.unread, share]})
    dollars = round(budget * percent / 100.0, 2)
    said = request.budget_usd
    if said is not None and said <= dollars:
        notes = _said_as(request.notes, f"{share}, ${dollars:,.2f}; the ${said:,.2f} said is less, and is the budget")
        return request.model_copy(update={**cleared, "notes": notes})
    notes = _said_as(request.notes, f"${dollars:,.2f}, {share} (${budget:,.2f})")
    return request.model_copy(update={**cleared, "budget_usd": dollars, "notes": notes})


def _said_as(notes: list[str], what: str) -> list[str]:
    """``notes`` with the reading's note of the share saying ``what`` it came to; with no such note (a field), one
    more."""
    for n, note in enumerate(notes):
        if note.endswith(_PENDING):
            return [*notes[:n], note[:note.index(_AS)] + f"{_AS}{what}", *notes[n + 1:]]
    return [*notes, f"budget share: {what}"]
