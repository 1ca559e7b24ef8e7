"""Questions before a plan, in Slack: a request in ``needs_input`` is posted as its questions, each choice a button
(and "Other…" opening a small modal for an answer in words); an answer PATCHes the service as the clicking person,
and the plan replaces the questions once nothing is left to ask.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from bot.blocks import MAX_QUOTED_TEXT
from bot.deps import Deps
from bot.error_messages import user_message
from bot.limits import button, context, escape, section, truncate, truncate_keeping_figure
from bot.posting import update_request
from contract.actors import actor_id
from contract.requests import RequestPublic, RequestQuestionsPublic
from policy.dates import find_deadlines, zone_of
from policy.errors import RequestError
from policy.parse import read_request
from policy.questions import Question

log = logging.getLogger(__name__)

ANSWER_ACTION = "answer_question"
OTHER_ACTION = "answer_question_other"
ANSWER_CALLBACK = "answer_question_modal"
MAX_CHOICE_BUTTONS = 6  # Slack allows 25 elements per actions block; more than a few choices read as a form
MAX_BUTTON_VALUE = 2000  # Slack's limit on a button's value
_EXAMPLES = {"tokens": "2B or 40,000,000", "fixed_hours": "6", "deadline": "Dec 20 or next Friday 3pm",
             "instance_type": "4x p5.48xlarge"}
_FIELD_WORDS = {"fixed_hours": "hours", "tokens": "tokens", "deadline": "deadline", "stage": "stage",
                "task": "task", "instance_type": "instance type", "params": "model size"}


def _answer_value(request_id: str, field: str, value: Any) -> str:
    return truncate(json.dumps({"r": request_id, "f": field, "v": value}, separators=(",", ":")), MAX_BUTTON_VALUE)


def question_blocks(req: RequestQuestionsPublic) -> list[dict[str, Any]]:
    """The questions, one section each with its choices as buttons and "Other…" for an answer in words."""
    quoted = escape(truncate(req.text, MAX_QUOTED_TEXT)).replace("\n", " ")
    head = (f"*Before I plan `{escape(req.id)}`, a question for <@{escape(req.requester.rsplit(':', 1)[-1])}>:*"
            + (f"\nYou asked: _{quoted}_" if quoted else ""))
    blocks: list[dict[str, Any]] = [section(head)]
    for q in req.questions:
        blocks.append(section(escape(q.question)))
        elements = [button(truncate_keeping_figure(c.label, 75), action_id=f"{ANSWER_ACTION}:{q.field}:{i}",
                           value=_answer_value(req.id, q.field, c.value))
                    for i, c in enumerate(q.choices[:MAX_CHOICE_BUTTONS])]
        elements.append(button("Other…", action_id=f"{OTHER_ACTION}:{q.field}",
                               value=_answer_value(req.id, q.field, None)))
        blocks.append({"type": "actions", "block_id": f"q:{q.field}", "elements": elements})
    if req.request.unread:
        blocks.append(context("Not read: " + ", ".join(f"'{escape(p)}'" for p in req.request.unread)))
    return blocks


def fallback(req: RequestQuestionsPublic) -> str:
    return truncate(f"GPU request {req.id} needs an answer: " + " ".join(q.question for q in req.questions), 3000)


def post_questions(client: Any, req: RequestQuestionsPublic, *, channel: str) -> str:
    """Post the questions in ``channel``; the message's ts."""
    response = client.chat_postMessage(channel=channel, text=fallback(req), blocks=question_blocks(req),
                                       unfurl_links=False, unfurl_media=False)
    return str(response["ts"])


def answer_view(question: Question, *, request_id: str, channel: str, ts: str, timezone: str) -> dict[str, Any]:
    """A small modal for an answer in words (a number of tokens or hours, a date, an instance type)."""
    label = _FIELD_WORDS.get(question.field, question.field)
    return {
        "type": "modal", "callback_id": ANSWER_CALLBACK, "title": {"type": "plain_text", "text": "Answer"},
        "submit": {"type": "plain_text", "text": "Answer"}, "close": {"type": "plain_text", "text": "Cancel"},
        "private_metadata": json.dumps({"r": request_id, "f": question.field, "c": channel, "t": ts, "z": timezone}),
        "blocks": [section(escape(question.question)),
                   {"type": "input", "block_id": "answer", "label": {"type": "plain_text", "text": label},
                    "element": {"type": "plain_text_input", "action_id": "value", "max_length": 200}}],
    }


def typed_changes(field: str, text: str, *, now: datetime, timezone: str) -> dict[str, Any]:
    """What a person typed, as the fields to send: a date read as policy reads dates ("Dec 20", "next Friday 3pm"),
    hardware as the parser reads it ("4x p5.48xlarge"), a number for tokens and hours; ValueError when unreadable."""
    if field == "deadline":
        found = find_deadlines(f"by {text.strip()}", now=now, zone=zone_of(timezone))
        if not found:
            raise ValueError(text)
        return {"deadline": min(d.when for d in found).isoformat()}
    if field == "instance_type":
        fields = read_request(text, now=now, tz=timezone).fields
        named: dict[str, Any] = {k: fields[k] for k in ("instance_type", "instances", "gpus", "accelerator")
                                 if k in fields}
        if "instance_type" not in named:
            raise ValueError(text)
        return named
    return {field: typed_answer(field, text)}


def typed_answer(field: str, text: str) -> Any:
    """What a person typed, as the field's value: a count for tokens and a model's size ("2B", "350m"), a number for
    hours ("1.5"), else the words."""
    words = text.strip()
    if field not in ("tokens", "params", "fixed_hours"):
        return words.lower()
    scale = {"k": 10**3, "m": 10**6, "b": 10**9, "t": 10**12}
    number, unit = words.rstrip("hHkKmMbBtT ").replace(",", ""), words[-1:].lower()
    counted = field in ("tokens", "params")
    value = float(number) * (scale.get(unit, 1) if counted else 1)
    return int(value) if counted else value


class QuestionHandlers:
    """Buttons and the modal that answer a request's questions."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def handle_answer_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        action = body["actions"][0]
        answer = json.loads(action["value"])
        user = body["user"]
        where = body.get("container", {})
        self._answer(client, respond, actor=actor_id(user.get("team_id") or body["team"]["id"], user["id"]),
                     request_id=answer["r"], changes={answer["f"]: answer["v"]},
                     channel=where.get("channel_id"), ts=where.get("message_ts"))

    def handle_other_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        action = body["actions"][0]
        answer = json.loads(action["value"])
        where = body.get("container", {})
        try:
            req = self.deps.service.get_request_or_questions(request_id=answer["r"])
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person
            respond(response_type="ephemeral", replace_original=False,
                    text=user_message(error, operation="answer"))
            return
        if not isinstance(req, RequestQuestionsPublic):
            respond(response_type="ephemeral", replace_original=False, text="That request is already planned.")
            return
        question = next((q for q in req.questions if q.field == answer["f"]), None)
        if question is not None:
            client.views_open(trigger_id=body["trigger_id"],
                              view=answer_view(question, request_id=req.id, channel=where.get("channel_id", ""),
                                               ts=where.get("message_ts", ""), timezone=req.timezone))

    def handle_answer_submission(self, body: dict[str, Any], client: Any) -> None:
        meta = json.loads(body["view"]["private_metadata"])
        text = body["view"]["state"]["values"]["answer"]["value"]["value"] or ""
        user = body["user"]
        actor = actor_id(user.get("team_id") or body["team"]["id"], user["id"])
        try:
            changes = typed_changes(meta["f"], text, now=self.deps.clock(), timezone=meta.get("z") or "UTC")
        except (ValueError, ArithmeticError, RequestError):
            example = _EXAMPLES.get(meta["f"], "a shorter answer")
            client.chat_postEphemeral(channel=meta["c"], user=user["id"],
                                      text=f"I couldn't read '{escape(text)}'; try e.g. {example}.")
            return
        self._answer(client, None, actor=actor, request_id=meta["r"], changes=changes,
                     channel=meta["c"], ts=meta["t"], user=user["id"])

    def _answer(self, client: Any, respond: Any, *, actor: str, request_id: str, changes: dict[str, Any],
                channel: str | None, ts: str | None, user: str | None = None) -> None:
        """PATCH the answer as the person; show the remaining questions, or the plan in their place."""
        try:
            req = self.deps.service.answer_questions(request_id=request_id, actor=actor, changes=changes)
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person
            text = user_message(error, operation="answer")
            if respond is not None:
                respond(response_type="ephemeral", replace_original=False, text=text)
            elif channel and user:
                client.chat_postEphemeral(channel=channel, user=user, text=text)
            return
        if not channel or not ts:
            return
        if isinstance(req, RequestQuestionsPublic):
            client.chat_update(channel=channel, ts=ts, text=fallback(req), blocks=question_blocks(req))
            return
        update_request(client, req, now=self.deps.clock(), channel=channel, ts=ts, sent=self.deps.sent)
        self.deps.service.put_slack_message(request_id=req.id, channel=channel, ts=ts)
        log.info("request %s answered and planned: %s", req.id, req.status)


def post_or_questions(client: Any, req: RequestPublic | RequestQuestionsPublic, *, channel: str,
                      post_plan: Any) -> str | None:
    """Post the plan (``post_plan``) or, for a request waiting for answers, its questions; the message's ts, or None
    when the plan went out through the command's ``response_url`` (no message to record)."""
    if isinstance(req, RequestQuestionsPublic):
        return post_questions(client, req, channel=channel)
    ts = post_plan(req)
    return None if ts is None else str(ts)


def _ack(ack: Any) -> None:
    ack()


def register(app: Any, deps: Deps) -> None:
    """Attach the answer buttons and the answer modal to ``app``."""
    import re

    handlers = QuestionHandlers(deps)
    app.action(re.compile(rf"^{ANSWER_ACTION}:"))(ack=_ack, lazy=[handlers.handle_answer_action])
    app.action(re.compile(rf"^{OTHER_ACTION}:"))(ack=_ack, lazy=[handlers.handle_other_action])
    app.view(ANSWER_CALLBACK)(ack=_ack, lazy=[handlers.handle_answer_submission])
