"""The error hierarchy (drawn in ``contract.errors``) mapped once to HTTP, in the one error shape ``ErrorBody``.

    {"error": {"code": ..., "message": ..., "current_state"?: ..., "correlation_id"?: ...}}

A database that does not answer (SQLAlchemy ``OperationalError``) is a 503 with ``Retry-After`` and a correlation id;
one that answers without the schema this version needs (never migrated, or behind) is a 503 ``schema_not_migrated``
saying to run ``gpuops db upgrade``, not an outage to wait out.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import OperationalError, ProgrammingError, SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from contract.errors import (
    Conflict,
    ErrorBody,
    Forbidden,
    NotFound,
    RateLimited,
    Unauthorized,
    UpstreamError,
    describe_validation_errors,
)
from policy.errors import GpuopsError, RequestError

log = logging.getLogger("gpuops.service")

STATUS_BY_ERROR: tuple[tuple[type[GpuopsError], int], ...] = (
    (Unauthorized, 401),
    (RequestError, 422),
    (NotFound, 404),
    (Conflict, 409),
    (Forbidden, 403),
    (RateLimited, 429),
    (UpstreamError, 502),
)
HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def error_body(code: str, message: str, *, current_state: str | None = None,
               correlation_id: str | None = None) -> dict[str, Any]:
    """The error shape as sent; keys without a value are left out."""
    return ErrorBody.of(code, message, current_state=current_state, correlation_id=correlation_id).to_json()


def status_for(exc: GpuopsError) -> int:
    for cls, status in STATUS_BY_ERROR:
        if isinstance(exc, cls):
            return status
    return 500


async def _gpuops_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GpuopsError)
    status = status_for(exc)
    if status >= 500:
        log.error("upstream error: %s", exc.message, extra={"error": exc.code})
    body = error_body(exc.code, exc.message, current_state=getattr(exc, "current_state", None))
    headers = {"Retry-After": str(exc.retry_after)} if isinstance(exc, RateLimited) else None
    if isinstance(exc, Unauthorized):
        headers = {"WWW-Authenticate": "Bearer"}
    return JSONResponse(body, status_code=status, headers=headers)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(error_body("invalid_body", describe_validation_errors(exc.errors())), status_code=422)


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI's answer to a body it cannot decode (not UTF-8): bad input like the rest
        return JSONResponse(error_body("invalid_body", "body: not valid JSON (it must be UTF-8)"), status_code=422)
    code = HTTP_CODES.get(exc.status_code, "http_error")
    return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers)


async def _database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    behind = _schema_behind(request) if _missing_schema(exc) else None
    if behind is not None:
        return JSONResponse(error_body("schema_not_migrated", behind), status_code=503)
    if not isinstance(exc, OperationalError):  # a statement the schema refuses, but the schema is current: a bug
        raise exc
    correlation_id = uuid.uuid4().hex[:12]
    log.warning("database unavailable", extra={"correlation_id": correlation_id, "error": type(exc).__name__})
    body = error_body("database_unavailable", "the database is not answering; try again shortly",
                      correlation_id=correlation_id)
    return JSONResponse(body, status_code=503, headers={"Retry-After": "5"})


def _missing_schema(exc: Exception) -> bool:
    """Whether the database refused a table or column it does not have (SQLite's and Postgres' own words), the one
    failure worth a look at the schema; a database that does not answer is not asked again."""
    text = str(getattr(exc, "orig", exc))
    return "no such table" in text or "no such column" in text or (
        "does not exist" in text and ("relation" in text or "column" in text))


def _schema_behind(request: Request) -> str | None:
    """What is wrong with the schema, when something is (read only on a failing statement, so no cost otherwise)."""
    from service.store.migrate import schema_behind

    try:
        return schema_behind(request.app.state.gpuops.engine)
    except SQLAlchemyError:
        return None  # the database itself is away: that is the answer


def install_error_handlers(app: FastAPI) -> None:
    """Register the mapping; unexpected exceptions are answered by ``service.api.middleware``."""
    app.add_exception_handler(GpuopsError, _gpuops_error)
    app.add_exception_handler(OperationalError, _database_unavailable)
    app.add_exception_handler(ProgrammingError, _database_unavailable)  # Postgres: relation "…" does not exist
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
