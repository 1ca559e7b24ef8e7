"""One wrapper for an AWS call: botocore's errors become ``UpstreamError`` naming the service and operation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError

T = TypeVar("T")
UNREACHABLE = "aws_unreachable"  # the code of an error that never reached AWS (network, endpoint, credentials)


def error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def upstream(exc: ClientError | BotoCoreError, *, service: str, operation: str) -> UpstreamError:
    """The error a caller sees: the AWS code and message, never credentials or request bodies."""
    if isinstance(exc, ClientError):
        message = exc.response.get("Error", {}).get("Message", str(exc))
        return UpstreamError(f"{error_code(exc)}: {message}", service=service, operation=operation, code="aws_error")
    return UpstreamError(f"{service} unreachable: {exc}", service=service, operation=operation, code=UNREACHABLE)


def call(service: str, operation: str, fn: Callable[..., T], **params: Any) -> T:
    """``fn(**params)`` with botocore's errors turned into ``UpstreamError``."""
    try:
        return fn(**params)
    except (ClientError, BotoCoreError) as exc:
        raise upstream(exc, service=service, operation=operation) from exc


def pages(client: Any, service: str, operation: str, method: str, **params: Any) -> Iterator[dict[str, Any]]:
    """Every page of a paginated call, with botocore's errors turned into ``UpstreamError``."""
    try:
        yield from client.get_paginator(method).paginate(**params)
    except (ClientError, BotoCoreError) as exc:
        raise upstream(exc, service=service, operation=operation) from exc
