"""The two bases of every wire model: what a caller sends, and what the service answers."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class InputModel(BaseModel):
    """A body sent to the service: an unknown key is refused (a typo must not pass silently)."""

    model_config = ConfigDict(extra="forbid")


class OutputModel(BaseModel):
    """A body the service answers with.

    The one place the bot's leniency lives: keys a newer service adds are ignored, so an older bot still parses it.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")
