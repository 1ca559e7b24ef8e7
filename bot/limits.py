"""Block Kit limits and the one truncation helper every rendered string goes through.

Slack rejects a whole message when one field is over its limit (``invalid_blocks``), so a long request, trace or
list of alternatives would otherwise lose the reply entirely. Every builder here clamps what it is given.
"""

from __future__ import annotations

import re
from typing import Any

MAX_MESSAGE_BLOCKS = 50
MAX_VIEW_BLOCKS = 100  # modals and App Home
MAX_SECTION_TEXT = 3000
MAX_FIELD_TEXT = 2000
MAX_SECTION_FIELDS = 10
MAX_CONTEXT_ELEMENTS = 10
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_ID = 255  # action_id and block_id
MAX_ACTIONS_ELEMENTS = 25
MAX_HEADER_TEXT = 150
MAX_FALLBACK_TEXT = 3000  # the notification text; Slack allows far more, nobody reads more
MAX_VIEW_TITLE = 24
MAX_OPTION_TEXT = 75
MAX_INPUT_VALUE = 3000
MAX_PRIVATE_METADATA = 3000

ELLIPSIS = "…"
_PARTIAL_ENTITY = re.compile(r"&[a-z]{0,4}$")
Block = dict[str, Any]


def truncate(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in an ellipsis when cut.

    A cut never leaves half of an ``&amp;``-style escape behind, which Slack would show literally.
    """
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    head = _PARTIAL_ENTITY.sub("", head)
    return head + ELLIPSIS


def truncate_keeping_figure(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters from before its closing figure in brackets, which stays whole:
    "~2,048 tokens each × 3 epochs, the sequence length said (307,200,000 tokens)" keeps what the choice prices."""
    if len(text) <= limit:
        return text
    head, sep, tail = text.rpartition(" (")
    if not sep or not tail.endswith(")") or len(tail) + len(sep) + 2 > limit:
        return truncate(text, limit)
    return truncate(head, limit - len(sep) - len(tail)) + sep + tail


def escape(text: str) -> str:
    """Text safe to put inside mrkdwn: Slack reads <, > and & as control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def plain(text: str, limit: int = MAX_SECTION_TEXT) -> dict[str, Any]:
    return {"type": "plain_text", "text": truncate(text, limit) or " ", "emoji": True}


def mrkdwn(text: str, limit: int = MAX_SECTION_TEXT) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": truncate(text, limit) or " "}


def section(text: str, *, accessory: Block | None = None, block_id: str | None = None) -> Block:
    block: Block = {"type": "section", "text": mrkdwn(text)}
    if accessory is not None:
        block["accessory"] = accessory
    if block_id is not None:
        block["block_id"] = truncate(block_id, MAX_ID)
    return block


def fields_section(pairs: list[tuple[str, str]]) -> Block:
    """A two-column section of ``*label*\\nvalue`` fields (Slack allows ten)."""
    fields = [mrkdwn(f"*{label}*\n{value}", MAX_FIELD_TEXT) for label, value in pairs[:MAX_SECTION_FIELDS]]
    return {"type": "section", "fields": fields}


def context(*texts: str) -> Block:
    return {"type": "context", "elements": [mrkdwn(t) for t in texts[:MAX_CONTEXT_ELEMENTS]]}


def header(text: str) -> Block:
    return {"type": "header", "text": plain(text, MAX_HEADER_TEXT)}


def divider() -> Block:
    return {"type": "divider"}


def button(text: str, *, action_id: str, value: str, style: str | None = None) -> Block:
    element: Block = {
        "type": "button",
        "text": plain(text, MAX_BUTTON_TEXT),
        "action_id": truncate(action_id, MAX_ID),
        "value": truncate(value, MAX_BUTTON_VALUE),
    }
    if style is not None:
        element["style"] = style
    return element


MAX_CONFIRM_TITLE = 100
MAX_CONFIRM_TEXT = 300
MAX_CONFIRM_BUTTON = 30


def confirm_dialog(title: str, text: str, *, yes: str, no: str) -> Block:
    """A Block Kit ``confirm`` object: Slack asks before it sends the click."""
    return {"title": plain(title, MAX_CONFIRM_TITLE), "text": mrkdwn(text, MAX_CONFIRM_TEXT),
            "confirm": plain(yes, MAX_CONFIRM_BUTTON), "deny": plain(no, MAX_CONFIRM_BUTTON)}


def actions(elements: list[Block], *, block_id: str | None = None) -> Block:
    block: Block = {"type": "actions", "elements": elements[:MAX_ACTIONS_ELEMENTS]}
    if block_id is not None:
        block["block_id"] = truncate(block_id, MAX_ID)
    return block


def fit(blocks: list[Block], limit: int = MAX_MESSAGE_BLOCKS, *, keep_tail: int = 0) -> list[Block]:
    """At most ``limit`` blocks; the last ``keep_tail`` (status, buttons) always survive, a note says what was cut."""
    if len(blocks) <= limit:
        return blocks
    keep_tail = min(keep_tail, limit - 1)
    tail = blocks[len(blocks) - keep_tail :] if keep_tail else []
    room = limit - keep_tail - 1
    dropped = len(blocks) - keep_tail - room
    note = context(f"{ELLIPSIS} {dropped} more block{'s' if dropped != 1 else ''} not shown")
    return [*blocks[:room], note, *tail]


def text_input(block_id: str, label: str, current: str | None, hint: str) -> Block:
    """An optional one-line text input of a modal, holding ``current`` when there is one."""
    element: dict[str, Any] = {"type": "plain_text_input", "action_id": block_id}
    if current:
        element["initial_value"] = truncate(current, MAX_INPUT_VALUE)
    return {"type": "input", "block_id": block_id, "label": plain(label, 2000), "element": element,
            "optional": True, "hint": plain(hint, 2000)}
