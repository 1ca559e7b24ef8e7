"""The root of the one error hierarchy of gpuops, and the errors of bad input.

``GpuopsError``, ``RequestError`` and ``PolicyFileError`` live here because the pure policy code raises them; the
errors of talking over HTTP (``Unauthorized``, ``Forbidden``, ``NotFound``, ``Conflict``, ``RateLimited``,
``UpstreamError``) subclass ``GpuopsError`` in ``contract.errors``, whose docstring draws the whole tree and its
HTTP statuses.
"""

from __future__ import annotations

__all__ = ["GpuopsError", "PolicyFileError", "RequestError"]


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
