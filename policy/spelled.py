"""Numbers written as words ("seven billion parameters", "half a billion tokens", "twenty trials") as digits.

Only a number followed by what it counts is rewritten — a scale word (hundred, thousand, million, billion,
trillion, dozen), or a unit the request reader knows (tokens, parameters, trials, runs, seeds, epochs, GPUs, nodes,
instances, dollars) — so "one of our 7B models" or "a node" keep their words. Spans of time ("in two weeks") are left to
``policy.dates``, which reads their words itself and quotes them as said. The digits take the place of the words
and are padded with spaces to the same length: every position in the text stays where it was, as ``policy.parse``
needs for the phrases it reports.
"""

from __future__ import annotations

import re

from policy.patterns import compiled_on_use

__all__ = ["BELOW_100", "below_100", "digits_for_words", "VAGUE_COUNTS"]

_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
          "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
_TEN = "|".join(_TENS)
# "a couple of days", "a few hours": the counts such words are taken as
VAGUE_COUNTS = {"couple": 2, "few": 3}
# 1-99: "seven", "twenty", "twenty-five", "twenty five"
BELOW_100 = rf"(?:(?:{_TEN})(?:[\s-]+(?:{_UNIT}))?|(?:{_UNIT}))"
# 1-999: "two hundred", "one hundred and fifty"; "a"/"an" only before a scale word ("a billion", "a hundred")
# ("a couple hundred million tokens": two hundred; "a few hundred" says no number, so it stays words)
_NUMBER = (rf"(?:(?P<h>{BELOW_100}|an?|a\s+couple(?:\s+of)?)\s+hundred(?:\s+(?:and\s+)?(?P<r>{BELOW_100}))?"
           rf"|(?P<n>{BELOW_100}))"
           r"(?P<half>\s+and\s+a\s+half)?")
# What may follow a number for its words to be rewritten: a scale the reader knows ("hundred" is the number's own,
# so "two hundred" alone stays words, never "2" before a scale nothing reads)
_SCALE = r"(?:thousand|million|billion|trillion|dozen)\b"
_COUNTED = (r"(?:tokens?|toks?|param(?:eter)?s?|trials?|runs?|seeds?|epochs?|pass(?:es)?\b|configs?|gpus?|accelerators?"
            r"|nodes?|instances?|machines?|hosts?|(?:[a-z]\d{1,3}(?:de|d|e|en|n)?|trn\d|inf\d)s?\b|dollars?\b|bucks\b|usd\b"
            # "a four-way sweep", "four LR values": the runs of a sweep
            r"|way[\s-]+(?:(?:hp|lr|hyper-?param(?:eter)?)\s+)?(?:sweep|search|grid|hpo|ablation)"
            r"|(?:lrs?|learning[\s-]+rates?)\s+values)")
# Runs counted with the model's size or task between: "two 7B fine-tunes", "three 1B runs", "two pretraining runs"
_RUNS = (r"(?:\d+(?:\.\d+)?\s*[bm]\s+)?(?:(?:(?:pre-?|continued[\s-]+pre-?)?training|fine[\s-]?tuning|sft|dpo"
         r"|lora|qlora)\s+)?(?:fine[\s-]?tunes|finetunes|runs|trials|experiments|jobs|configs|variants)\b")
# The whole number first: "a hundred dollars" is 100, never "1" before a scale word the reader does not know.
_SPELLED = (rf"(?<![\w.-])(?:{_NUMBER}|(?P<halfa>half\s+an?)|(?P<a>an?)(?=\s+(?:{_SCALE})))"
            rf"(?=[\s-]+(?:{_SCALE}|{_COUNTED}|{_RUNS}))")
# A text with none of these words holds no number in words; the full pattern is compiled for the first one that does.
_NUMBER_WORD_RE = compiled_on_use(rf"\b(?:{_UNIT}|{_TEN}|half|hundred|thousand|million|billion|trillion|dozen)\b",
                             re.IGNORECASE | re.ASCII)
_DOZEN_RE = compiled_on_use(r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)(?P<gap>\s+)dozen\b", re.IGNORECASE | re.ASCII)


def digits_for_words(text: str) -> str:
    """``text`` with each counted number written in words replaced by its digits, at the same length."""
    if _NUMBER_WORD_RE.search(text) and _SPELLED_RE.search(text):
        text = _SPELLED_RE.sub(_digits, text)
    if "grand" in text.lower():  # "a grand", "5 grand": thousands of dollars
        text = _GRAND_RE.sub(_grand, text)
    return _DOZEN_RE.sub(_dozens, text) if "dozen" in text.lower() else text  # "two dozen" is "2 dozen" by now


# not "a grand dataset": a word after it that is not a sentence's joint makes it an adjective
_GRAND_RE = compiled_on_use(
    r"(?<![\w.$])(?:(?P<a>an?|one)|(?P<n>\d+(?:\.\d+)?))\s+grand\b"
    # "2 grand left this quarter" is money left; "a grand total of 1B tokens" is no money at all
    # (a word on the next line is no noun "grand" describes)
    r"(?!(?:[^\S\n]|-)+(?!(?:budget|max(?:imum)?|tops|total|left|or|and|but|by|for|in|on|at|of|per|each|is|if|a|an|the)\b)"
    r"[a-z])"
    r"(?![\s-]+total\s+of\b)",
    re.IGNORECASE | re.ASCII)


def _grand(m: re.Match[str]) -> str:
    """ "a grand" as "$1k", "5 grand" as "$5k", padded to the words' length."""
    return f"${m['n'] or '1'}k".ljust(len(m.group(0)))


_SPELLED_RE = compiled_on_use(_SPELLED, re.IGNORECASE | re.ASCII)


def _digits(m: re.Match[str]) -> str:
    if m["halfa"]:
        value: float = 0.5
    elif m["a"]:
        value = 1
    elif m["h"]:
        said = m["h"].lower()
        hundreds = 1 if said in ("a", "an") else VAGUE_COUNTS["couple"] if "couple" in said else below_100(m["h"])
        value = hundreds * 100 + (below_100(m["r"]) if m["r"] else 0)
    else:
        value = below_100(m["n"])
    if m["half"]:
        value += 0.5
    written = f"{value:g}"
    return written + " " * (len(m.group(0)) - len(written))


def below_100(words: str) -> int:
    """The number ``BELOW_100`` matched: "twenty-five" → 25."""
    parts = words.lower().replace("-", " ").split()
    return sum(_TENS.get(p, 0) or _UNITS.get(p, 0) for p in parts)


def _dozens(m: re.Match[str]) -> str:
    """"2 dozen" (from "two dozen") as 24, in the same room."""
    span = len(m.group(0))
    written = f"{float(m['n']) * 12:g}"
    return written + " " * (span - len(written))
