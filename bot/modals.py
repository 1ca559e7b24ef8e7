"""The Why? modal (the decision trace) and the Edit modal (parsed fields) with its submission parsing."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from bot import formatting as fmt
from bot.jobspec import edit_job_blocks, edit_job_changes
from bot.limits import (
    MAX_OPTION_TEXT,
    MAX_PRIVATE_METADATA,
    MAX_VIEW_BLOCKS,
    MAX_VIEW_TITLE,
    Block,
    context,
    divider,
    escape,
    fit,
    plain,
    section,
    text_input,
    truncate,
)
from contract.requests import RequestPublic
from policy.request import Stage, Task, Tolerance

WHY_VIEW = "why_view"
EDIT_VIEW = "edit_view"
REJECT_VIEW = "reject_view"
REASON = "reason"
_COUNT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmbt]|thousand|million|billion|trillion)?\s*$", re.IGNORECASE)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9, "t": 1e12,
          "trillion": 1e12}


def _view(title: str, blocks: list[Block], *, callback_id: str, metadata: str = "",
          submit: str | None = None) -> dict[str, Any]:
    view: dict[str, Any] = {
        "type": "modal",
        "callback_id": callback_id,
        "title": plain(title, MAX_VIEW_TITLE),
        "close": plain("Close", MAX_VIEW_TITLE),
        "blocks": fit(blocks, MAX_VIEW_BLOCKS),
        "private_metadata": truncate(metadata, MAX_PRIVATE_METADATA),
    }
    if submit:
        view["submit"] = plain(submit, MAX_VIEW_TITLE)
    return view


def plain_why(req: RequestPublic) -> str:
    """Two sentences for whoever holds the budget: what it costs against what is left, and why this choice."""
    decision = req.decision
    plan, spend = decision.plan, decision.spend
    team = escape(req.team)
    cost = (f"This costs about {fmt.usd(plan.estimated_cost_usd)} (between {fmt.usd(plan.cost_low_usd)} and "
            f"{fmt.usd(plan.cost_high_usd)}), charged to {team}")
    if spend.month_to_date_usd is not None and spend.budget_usd:
        cost += (f", which has spent {fmt.usd(spend.month_to_date_usd)} of its {fmt.usd(spend.budget_usd)} "
                 "budget this month")
    elif spend.month_to_date_usd is None:
        cost += ", whose spend this month is not known"
    what = f"{fmt.configuration(plan)} on {fmt.purchase(plan)} capacity"
    if plan.deadline_met is False:
        choice = f"Nothing the policy allows finishes by the deadline, so gpuops chose {what}, which finishes soonest."
    elif decision.request.deadline is not None:
        choice = f"gpuops chose {what} because it is the cheapest your policy allows that finishes before the deadline."
    else:
        choice = f"gpuops chose {what} because it is the cheapest your policy allows."
    return f"{cost}. {choice}"


def why_view(req: RequestPublic, *, sources_url: str = "") -> dict[str, Any]:
    """Two plain sentences for a budget approver first; then every node the decision walked: the question, the
    answer, why, and the named rule it follows (linked to the Sources page when its address is set)."""
    decision = req.decision
    blocks: list[Block] = [
        section(plain_why(req)),
        divider(),
        section(f"*How gpuops decided* ({fmt.configuration(decision.plan)}, `{escape(req.id)}` revision "
                f"{req.revision})"),
    ]
    for step in decision.trace:
        blocks.append(section(
            f"*{escape(step.node)}* · {escape(step.question)}\n→ *{escape(step.answer)}*\n"
            f"{escape(step.reason)}\n_source: {fmt.source(escape(step.source), sources_url)}_"
        ))
    approval = decision.approval
    if approval.reasons:
        blocks.append(section("*Approval*\n" + fmt.bullets([fmt.source(escape(r), sources_url)
                                                            for r in approval.reasons], limit=2900)))
    if decision.assumptions:
        blocks.append(section("*Assumptions*\n" + fmt.bullets([fmt.source(escape(a), sources_url)
                                                               for a in decision.assumptions], limit=2900)))
    blocks.append(context(f"prices as of {escape(decision.catalog.snapshot)} ({fmt.catalog_name(decision.catalog)}; "
                          "specs and rules of thumb: the Sources page)"))
    return _view("Why this plan?", blocks, callback_id=WHY_VIEW, metadata=req.id)


def _select(block_id: str, label: str, options: list[str], current: str | None) -> Block:
    element: dict[str, Any] = {
        "type": "static_select",
        "action_id": block_id,
        "options": [{"text": plain(o, MAX_OPTION_TEXT), "value": o} for o in options],
    }
    if current in options:
        element["initial_option"] = {"text": plain(str(current), MAX_OPTION_TEXT), "value": current}
    return {"type": "input", "block_id": block_id, "label": plain(label, 2000), "element": element,
            "optional": True}


def count_text(value: int | None) -> str | None:
    """7000000000 → ``7B``: how people write model sizes and token counts."""
    if value is None:
        return None
    for suffix, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if value >= scale:
            return f"{value / scale:g}{suffix}"
    return str(value)


def edit_view(req: RequestPublic, *, channel: str | None, ts: str | None) -> dict[str, Any]:
    """The parsed fields of the current revision, ready to change; submitting creates a new revision."""
    request = req.decision.request
    tz = fmt.zone(req.timezone)
    deadline = request.deadline.astimezone(tz).strftime("%Y-%m-%d %H:%M") if request.deadline else None
    budget = f"{request.budget_usd:g}" if request.budget_usd else None
    blocks = [
        _select("task", "Task", [t.value for t in Task], request.task.value if request.task else None),
        text_input("params", "Model size (parameters)", count_text(request.params), "e.g. 7B, 350M"),
        text_input("tokens", "Training tokens", count_text(request.tokens), "e.g. 2B, 1T"),
        text_input("deadline", f"Deadline ({tz.key})", deadline, "YYYY-MM-DD HH:MM, empty for no deadline"),
        _select("stage", "Stage", [s.value for s in Stage], request.stage.value if request.stage else None),
        _select("interruption_tolerance", "Interruption tolerance", [t.value for t in Tolerance],
                request.interruption_tolerance.value if request.interruption_tolerance else None),
        text_input("budget_usd", "Budget (USD)", budget, "e.g. 5000, empty for none"),
        *edit_job_blocks(req.decision),  # recipe, dataset, base model, hyperparameter overrides
    ]
    metadata = json.dumps({"id": req.id, "channel": channel, "ts": ts, "tz": tz.key}, separators=(",", ":"))
    return _view("Edit request", blocks, callback_id=EDIT_VIEW, metadata=metadata, submit="Save revision")


def parse_count(text: str) -> int:
    match = _COUNT.match(text)
    if not match:
        raise ValueError("write a number like 7B, 350M or 2000000")
    number = float(match.group(1)) * _SCALE.get((match.group(2) or "").lower(), 1)
    if number < 1:
        raise ValueError("must be at least 1")
    return int(number)


def _value(values: dict[str, Any], block_id: str) -> str | None:
    state = values.get(block_id, {}).get(block_id, {})
    if state.get("type") == "static_select":
        option = state.get("selected_option")
        return str(option["value"]) if option else None
    value = state.get("value")
    return str(value).strip() if value else None


def edit_changes(values: dict[str, Any], tz_name: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The PATCH body for a submitted Edit modal, and per-field errors to show in the modal."""
    changes: dict[str, Any] = {"timezone": tz_name}
    errors: dict[str, str] = {}
    for key in ("task", "stage", "interruption_tolerance"):
        if (choice := _value(values, key)) is not None:
            changes[key] = choice
    for key in ("params", "tokens"):
        if (text := _value(values, key)) is not None:
            try:
                changes[key] = parse_count(text)
            except ValueError as exc:
                errors[key] = str(exc)
    if (deadline := _value(values, "deadline")) is not None:
        try:
            changes["deadline"] = datetime.strptime(deadline, "%Y-%m-%d %H:%M").replace(
                tzinfo=fmt.zone(tz_name)).isoformat()
        except ValueError:
            errors["deadline"] = "write the deadline as YYYY-MM-DD HH:MM, e.g. 2026-12-04 17:00"
    if (budget := _value(values, "budget_usd")) is not None:
        try:
            changes["budget_usd"] = float(budget.replace("$", "").replace(",", ""))
        except ValueError:
            errors["budget_usd"] = "write the budget as a number of dollars, e.g. 5000"
    job_changes, job_errors = edit_job_changes(values)  # recipe, dataset, base model, hyperparameter overrides
    return changes | job_changes, errors | job_errors


def reject_view(req: RequestPublic, *, revision: int | None, channel: str | None, ts: str | None) -> dict[str, Any]:
    """Asks the approver why: the reason goes to the audit log with the rejection and into the request's thread."""
    plan = req.decision.plan
    verb = "Stop the launch of" if req.status in ("approved", "auto_approved") else "Reject"
    blocks: list[Block] = [
        section(f"{verb} {fmt.configuration(plan)} at {fmt.usd(plan.estimated_cost_usd, approx=True)} for "
                f"{fmt.mention(req.requester)}? They will see your reason in the request's thread."),
        {"type": "input", "block_id": REASON, "label": plain("Reason", 2000),
         "element": {"type": "plain_text_input", "action_id": REASON, "multiline": True, "max_length": 2000,
                     "placeholder": plain("e.g. use the shared p4d reservation next week instead", 150)}},
    ]
    metadata = json.dumps({"id": req.id, "revision": revision, "channel": channel, "ts": ts}, separators=(",", ":"))
    return _view("Reject request", blocks, callback_id=REJECT_VIEW, metadata=metadata, submit="Reject")


def reject_reason(values: dict[str, Any]) -> str | None:
    """The reason typed in the Reject modal, or None when only blank space was."""
    return _value(values, REASON) or None
