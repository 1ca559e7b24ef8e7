"""One translation of botocore's errors for the capacity adapters: ``UpstreamError`` naming the service and call.

botocore is imported when a call is made, so that the adapters cost nothing to import where AWS is never asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from contract.errors import UpstreamError

if TYPE_CHECKING:
    from botocore.exceptions import BotoCoreError, ClientError

UNREACHABLE = "aws_unreachable"  # the code of an error that never reached AWS (network, endpoint)


def error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def upstream(exc: ClientError | BotoCoreError, *, service: str, operation: str) -> UpstreamError:
    """The error a caller sees: AWS's code and message, never credentials or request bodies."""
    from botocore.exceptions import ClientError

    if isinstance(exc, ClientError):
        message = exc.response.get("Error", {}).get("Message", str(exc))
        return UpstreamError(f"{error_code(exc)}: {message}", service=service, operation=operation, code="aws_error")
    return UpstreamError(f"{service} unreachable: {exc}", service=service, operation=operation, code=UNREACHABLE)


@contextmanager
def aws_errors(service: str, operation: str) -> Iterator[None]:
    """Inside the block, botocore's errors become ``UpstreamError``."""
    from botocore.exceptions import BotoCoreError, ClientError
    from botocore.parsers import ResponseParserError

    try:
        yield
    except (ClientError, BotoCoreError) as exc:
        raise upstream(exc, service=service, operation=operation) from exc
    except ResponseParserError as exc:  # an answer botocore could not read (an HTML error page from a proxy)
        raise UpstreamError(f"{service} answered something unreadable: {exc}", service=service, operation=operation,
                            code="aws_error") from exc
