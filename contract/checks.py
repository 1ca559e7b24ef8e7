"""The outcome of one ``gpuops doctor`` check, as the service side (``service.doctor``) and the Slack side
(``bot.doctor``) report it and the command prints it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class CheckStatus(StrEnum):
    OK = "ok"
    FAILED = "failed"
    SKIPPED = "skipped"  # not configured, so nothing to check


@dataclass(frozen=True)
class CheckResult:
    """One line of the checklist: what was checked, what was found and, when it failed, what to do."""

    name: str
    status: CheckStatus
    detail: str
    fix: str | None = None

    @classmethod
    def ok(cls, name: str, detail: str) -> CheckResult:
        return cls(name, CheckStatus.OK, detail)

    @classmethod
    def failed(cls, name: str, detail: str, *, fix: str) -> CheckResult:
        return cls(name, CheckStatus.FAILED, detail, fix)

    @classmethod
    def skipped(cls, name: str, detail: str) -> CheckResult:
        return cls(name, CheckStatus.SKIPPED, detail)
