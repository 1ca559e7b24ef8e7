"""The error body of every non-2xx answer, and the errors a caller of the API meets.

The one error hierarchy of gpuops (``GpuopsError``, ``RequestError`` and ``PolicyFileError`` live in the pure
``policy.errors``; the rest are about talking over HTTP and live here):

    GpuopsError                  policy.errors
    ├── RequestError             policy.errors   bad input; a stable ``code`` and what to type instead     422
    │   └── PolicyFileError      policy.errors   a policy file that does not validate; ``errors``         422
    ├── Unauthorized             contract.errors a missing or unknown token                                401
    ├── Forbidden                contract.errors an actor who may not do this (approving their own request) 403
    ├── NotFound                 contract.errors an id that does not exist                                 404
    ├── Conflict                 contract.errors an illegal state transition or a clash; ``current_state`` 409
    ├── RateLimited              contract.errors too many requests; ``retry_after`` seconds                429
    └── UpstreamError            contract.errors AWS, Slack or the service failed; ``service``, ``operation`` 502

The service maps the tree once to HTTP (``service.api.error_responses.STATUS_BY_ERROR``) in the shape of
``ErrorBody``; the bot maps an answer back to the tree once (``bot.client``) and the tree once to words for a person
(``bot.error_messages``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contract.base import OutputModel
from policy.errors import GpuopsError


class ErrorDetail(OutputModel):
    code: str
    message: str
    current_state: str | None = None
    correlation_id: str | None = None


class ErrorBody(OutputModel):
    """``{"error": {"code", "message", "current_state"?, "correlation_id"?}}``: absent keys are left out."""

    error: ErrorDetail

    @classmethod
    def of(cls, code: str, message: str, *, current_state: str | None = None,
           correlation_id: str | None = None) -> ErrorBody:
        return cls(error=ErrorDetail(code=code, message=message, current_state=current_state,
                                     correlation_id=correlation_id))

    def to_json(self) -> dict[str, Any]:
        """The body as sent: keys without a value are left out, not sent as null."""
        return self.model_dump(mode="json", exclude_none=True)


def describe_validation_errors(errors: Sequence[Any]) -> str:
    """``body.params: Input should be greater than 0; body.foo: Extra inputs are not permitted``."""
    parts = []
    for err in errors:
        loc = ".".join(str(p) for p in err.get("loc", ())) or "body"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


class Unauthorized(GpuopsError):
    code = "unauthorized"


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
