"""Digest claims: one bot replica posts a channel's digest for a day."""

from __future__ import annotations

from datetime import date

from pydantic import Field, field_validator

from contract.approvals import MAX_COMMENT_CHARS, MAX_NAME_CHARS
from contract.base import InputModel, OutputModel
from contract.text import Text


class DigestClaim(InputModel):
    channel: Text = Field(min_length=1, max_length=MAX_NAME_CHARS)
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$", json_schema_extra={"format": "date"})
    team: Text = Field(min_length=1, max_length=128)

    @field_validator("date")
    @classmethod
    def _a_real_day(cls, value: str) -> str:
        date.fromisoformat(value)  # 2026-13-45 matches the pattern but is no day: a ValueError is a 422
        return value


class DigestClaimed(OutputModel):
    claimed: bool


class DigestDone(InputModel):
    ok: bool
    detail: Text | None = Field(default=None, max_length=MAX_COMMENT_CHARS)
