"""The one error hierarchy of gpuops.

    GpuopsError
    ├── RequestError      bad input; carries a stable ``code`` and a message that says what to type instead
    │   └── PolicyFileError   a policy file that does not validate; ``errors`` lists (path, message)
    ├── NotFound          an id that does not exist
    ├── Conflict          an illegal state transition or a clash; carries the current state
    ├── Forbidden         an actor who may not do this (e.g. approving their own request)
    ├── RateLimited       too many requests; carries ``retry_after`` seconds
    └── UpstreamError     AWS, Slack or the service answered with an error; carries service and operation

The service maps it once to HTTP (422, 404, 409, 403, 429, 502); the bot maps it once to a short private message.
"""

from __future__ import annotations

__all__ = [
    "Conflict",
    "Forbidden",
    "GpuopsError",
    "NotFound",
    "PolicyFileError",
    "RateLimited",
    "RequestError",
    "UpstreamError",
]


class GpuopsError(Exception):
    """Base of every error gpuops raises on purpose."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message


class RequestError(GpuopsError):
    """The input cannot be used as given; ``message`` says what to change."""

    code = "bad_request"


class PolicyFileError(RequestError):
    """A policy file failed validation; ``errors`` holds (key path, message) pairs."""

    code = "invalid_policy"

    def __init__(self, source: str, errors: list[tuple[str, str]]) -> None:
        lines = "\n".join(f"{source}: {path}: {msg}" for path, msg in errors)
        super().__init__(f"policy file {source} is invalid:\n{lines}")
        self.source = source
        self.errors = errors


class NotFound(GpuopsError):
    code = "not_found"


class Conflict(GpuopsError):
    code = "conflict"

    def __init__(self, message: str, *, current_state: str | None = None, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.current_state = current_state


class Forbidden(GpuopsError):
    code = "forbidden"


class RateLimited(GpuopsError):
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class UpstreamError(GpuopsError):
    code = "upstream_error"

    def __init__(self, message: str, *, service: str, operation: str, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.service = service
        self.operation = operation
