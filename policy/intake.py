"""From what a person gave to a complete ``TrainingRequest``: the one way text and structured fields meet.

    text ──read_request──▶ Reading ─┐
                                    ├─▶ overlay (a structured field wins) ─▶ completeness ─▶ TrainingRequest
    structured fields ──────────────┘

The CLI (``gpuops plan``), ``POST /v1/plans`` and ``POST /v1/requests`` all come through here (by way of
``service.planning.Planner``), so the same input gives the same request, decision and plan hash through each.
Pure: the caller passes ``now``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ValidationError

from policy.dates import day_month_reading
from policy.defaults import format_count
from policy.errors import RequestError
from policy.jobtext import apply_job_fields
from policy.models import find_model, image_model_in_text, sized_image_model
from policy.parse import (
    SIZE_EXAMPLE,
    SIZE_PAIR,
    Reading,
    family_choices,
    family_member,
    read_request,
    size_pair_error,
)
from policy.patterns import compiled_on_use
from policy.request import HARDWARE_FIELDS, TrainingRequest

__all__ = ["describe_validation", "local_moment", "request_from", "zone_or_raise"]


def zone_or_raise(name: str | None) -> str:
    """A valid IANA zone name (UTC when absent); ``unknown_timezone`` otherwise."""
    zone = name or "UTC"
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise RequestError(f"unknown time zone {zone!r}; use an IANA name like Europe/Berlin",
                           code="unknown_timezone") from None
    return zone


def local_moment(moment: datetime, *, timezone: str) -> datetime:
    """``moment`` with a UTC offset: a time without one is read in ``timezone`` ("2026-11-30T09:00" in
    America/Los_Angeles is 09:00 there)."""
    return moment if moment.utcoffset() is not None else moment.replace(tzinfo=ZoneInfo(timezone))


def describe_validation(exc: ValidationError) -> str:
    """A validation error as 'field: what is wrong; …'."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'request'}: {e['msg']}" for e in exc.errors())


def request_from(
    *, text: str | None, fields: Mapping[str, Any], now: datetime, timezone: str = "UTC",
    default_team: str | None = None, reading: Reading | None = None, asking: bool = False,
) -> TrainingRequest:
    """The request ``text`` and ``fields`` describe; a structured field wins over what the text says.

    ``default_team`` applies when neither names a team. Raises ``RequestError`` naming what to change: nothing
    given, no model size anywhere, a deadline already past, or a field out of range. ``asking``: the caller asks the
    reading's questions before planning, so a size a question asks for may still be missing.
    """
    if not text and not fields:
        raise RequestError("say what to train: give text like 'fine-tune 7B by Friday' or the fields",
                           code="empty_request")
    now = local_moment(now, timezone=timezone)
    if reading is None:
        reading = read_request(text, now=now, tz=timezone) if text else Reading(fields={})
    overlay = {k: v for k, v in fields.items() if v is not None}
    if isinstance(deadline := overlay.get("deadline"), datetime):
        overlay["deadline"] = local_moment(deadline, timezone=timezone)
    notes = list(reading.notes) + _overridden(reading, overlay)
    merged: dict[str, Any] = {**reading.fields, **overlay, "text": text or ""}
    if merged.get("team") is None:
        merged["team"] = default_team
    elif default_team is not None and "team" not in overlay and merged["team"] != default_team:
        notes.append(f"took {merged['team']} from the text over the default team {default_team}")
    _size_pair(merged, notes, asking=asking)
    if text and merged.get("model") is None and merged.get("params") is not None and "params" in overlay \
            and (member := family_member(text, merged["params"])) is not None:
        merged["model"] = member  # "finetune mistral …" answered with mistral-7b's size: that model, its shape
        notes.append(f"took the size given as {member}, of the family the text names")
    apply_job_fields(merged, notes)  # recipe, dataset, hyperparameters into job; a named model's size
    _check_complete(merged, reading=reading, now=now, text=text or "", asking=asking)
    try:
        return TrainingRequest.model_validate({**merged, "notes": notes})
    except ValidationError as exc:
        raise RequestError(describe_validation(exc), code="invalid_request") from None


def _size_pair(merged: dict[str, Any], notes: list[str], *, asking: bool) -> None:
    """ "7b lora, 100m": the size given (the answer to the reading's question) is the model's and the other the tokens
    it trains on; with neither given, a caller that asks leaves the question to the person, and one that cannot gets
    the sizes refused as two models."""
    pair: tuple[int, int] | None = merged.pop(SIZE_PAIR, None)
    if pair is None:
        return
    params = merged.get("params")
    if params in pair:
        other = pair[1] if params == pair[0] else pair[0]
        if merged.get("tokens") is None:
            merged["tokens"] = other
            notes.append(f"read '{format_count(other)}' as the tokens, the model being {format_count(params)}")
    elif params is None and not asking:
        raise size_pair_error(pair)
    elif params is not None:  # a size given that is neither said: the text's two sizes are for a person to check
        merged["unread"] = [*merged.get("unread", []), *(format_count(n) for n in pair)]


def _missing_size(text: str) -> str:
    """What to give when no size was said: for an image model named, the forms that can plan it."""
    named = image_model_in_text(text)
    if named is not None:
        return _image_work(*named)
    offered = family_choices(text)
    if offered is not None:  # "finetune mistral on 200M tokens" where nothing can be asked (an edit)
        phrase, members = offered
        sizes = ", ".join(f"{model.name} ({format_count(model.params)})" for model in members)
        return f"'{phrase}' comes in several sizes ({sizes}): say which, e.g. \"{members[0].name}\"."
    earlier = _EARLIER_REQUEST_RE.search(text)
    told = f"gpuops does not look up what '{earlier.group(0)}' refers to: say" if earlier is not None else "Say"
    return f"{told} how big the model is, e.g. {SIZE_EXAMPLE} (350M, 1.5B, 70B), or give params."


# An earlier request named in the text ("continue the run req_3f2a…", "same as last time but 2x the data")
_EARLIER_REQUEST_RE = compiled_on_use(
    r"\breq_[0-9a-z]{3,}\b|\b(?:same\s+as|like)\s+(?:last\s+time|before|yesterday)\b", re.IGNORECASE)


def _image_work(model: str, per_token: bool, *, sized: bool = False) -> str:
    """How to say the work of an image model, whose size alone does not give it."""
    if not per_token:
        return (f"'{model}' is an image model: its training cost does not follow parameters × tokens, so gpuops "
                f'cannot estimate it from a size. Say how much work it is, e.g. "{model} fine-tune, about 100 '
                f'A100-hours" or "fine-tune {model}, takes about 6 hours on 8 A100s".')
    what = "a vision transformer: say" if sized else "a vision transformer gpuops has no size for: say its size and"
    return (f"'{model}' is {what} how many images it trains on and for how many epochs, e.g. \"on ImageNet for 300 "
            "epochs\" or \"on 50k images at 384px, 10 epochs\" (a 224-pixel image in 16-pixel patches is 197 tokens "
            "with its class token), or how much work it is, e.g. \"about 100 A100-hours\".")


def _overridden(reading: Reading, overlay: Mapping[str, Any]) -> list[str]:
    """A note for each field the text said one thing and a structured field another."""
    return [f"took {name} {_shown(overlay[name])} from the request's fields over {_shown(said)} in the text"
            for name, said in reading.fields.items() if name in overlay and overlay[name] != said]


def _shown(value: Any) -> str:
    return value.isoformat(timespec="minutes") if isinstance(value, datetime) else str(getattr(value, "value", value))


def _check_complete(merged: Mapping[str, Any], *, reading: Reading, now: datetime, text: str,
                    asking: bool = False) -> None:
    options = merged.get("hardware_options") or []
    hardware = any(merged.get(k) is not None for k in HARDWARE_FIELDS) or bool(options)
    held = merged.get("fixed_hours") is not None or (bool(options) and all(o.hours is not None for o in options))
    measured = (merged.get("work_gpu_hours") is not None and merged.get("work_accelerator") is not None
                or merged.get("work_instance_hours") is not None and merged.get("work_instance_type") is not None)
    if merged.get("params") is None and merged.get("params_fit_budget"):
        if merged.get("budget_usd") is None and merged.get("deadline") is None and not hardware:
            raise RequestError(
                "Say what the model must fit in to find the biggest one: a budget (\"for $30k\"), a deadline "
                "(\"by Friday\") or the hardware (\"on 8 H100s\"); or name a size, e.g. \"pretrain 3B on 20B tokens\".",
                code="missing_limit")
    elif merged.get("params") is None and not (held and hardware) and not measured \
            and not (asking and any(q.field == "params" for q in reading.questions)):
        # A job of a stated length on stated hardware needs no size, nor one given as accelerator-hours: its hours
        # are given; a size asked (two were said, or a family named) comes with its answer.
        raise RequestError(_missing_size(text), code="missing_model_size")
    if merged.get("runs_fit_budget") and merged.get("budget_usd") is None:
        raise RequestError("Say the budget the runs must fit in to count them, e.g. \"how many 7B fine-tunes on 1B "
                           "tokens fit in $2k\".", code="missing_budget")
    table = find_model(str(merged["model"])) if merged.get("model") else None
    # the images counted and the epochs asked ("… on ImageNet": how many epochs?) are the tokens still to come
    tokens = merged.get("tokens") is not None or any(q.field == "tokens" for q in reading.questions)
    if table is not None and table.patch_size is not None and not tokens and not measured \
            and merged.get("fixed_hours") is None:  # "fine-tune ViT-B/16": no text default stands for its images
        raise RequestError(_image_work(table.name, True, sized=True), code="missing_work")
    sized = sized_image_model(text) if not measured and merged.get("fixed_hours") is None else None
    if sized is not None and merged.get("params") is not None and (not sized[1] or not tokens):
        # "fine-tune a 2.6B SDXL", "pretrain a 100M ViT on imagenet": no tokens a text default could stand for
        raise RequestError(_image_work(*sized, sized=True), code="missing_work")
    deadline = merged.get("deadline")
    if isinstance(deadline, datetime) and deadline <= now:
        said = reading.phrases.get("deadline") if reading.fields.get("deadline") == deadline else None
        shown = f'"{said}" ({deadline:%a %Y-%m-%d %H:%M %Z})' if said else f"{deadline.isoformat(timespec='minutes')}"
        raise RequestError(
            f'The deadline {shown} has already passed; give one ahead, e.g. "by Friday" or "in 3 days".'
            + (day_month_reading(said, now=now) if said else ""),
            code="deadline_in_past",
        )
