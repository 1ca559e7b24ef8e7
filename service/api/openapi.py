"""What the OpenAPI document says each operation answers besides its success: every error, in the shape ``ErrorBody``.

A route names only the errors its own work raises (``responses=raises(NotFound, Conflict)``). The rest is worked out
once, when the document is built (``document_with_errors``), from what every request passes through:

- the middleware: 413 (body over the limit) and the last-resort 500, on every operation;
- the dependencies a route declares (``RAISED_BY``): the token check's 401/403/422, a writer's 403, a database
  session's 503;
- FastAPI's validation of parameters and body: 422 (our ``ErrorBody``, not FastAPI's own ``HTTPValidationError``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from contract.errors import ErrorBody, Forbidden, Unauthorized
from policy.errors import GpuopsError, RequestError
from service.api.deps import get_actor, get_session, get_writer
from service.api.error_responses import STATUS_BY_ERROR

DATABASE_UNAVAILABLE = 503
BODY_TOO_LARGE = 413
INTERNAL_ERROR = 500
INVALID_INPUT = 422

DESCRIPTIONS = {
    401: "no bearer token, or one the service does not know",
    403: "this caller may not do this (the error's code says why)",
    404: "no such request, claim or cursor",
    409: "the request's state does not allow this now (current_state says where it is)",
    413: "the body is over the service's limit",
    422: "a parameter, header or body the service cannot use (the message names it)",
    429: "too many requests from this person; see Retry-After",
    500: "an unexpected error; the message quotes a correlation id that is also in the log",
    502: "AWS or another upstream failed",
    503: "the database is not answering; see Retry-After",
}

HEADERS = {
    401: {"WWW-Authenticate": {"description": "Bearer", "schema": {"type": "string"}}},
    429: {"Retry-After": {"description": "seconds until the next window", "schema": {"type": "integer"}}},
    503: {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}},
}

RAISED_BY: dict[Callable[..., Any], tuple[type[GpuopsError], ...] | int] = {
    get_actor: (Unauthorized, Forbidden, RequestError),
    get_writer: (Forbidden,),
    get_session: DATABASE_UNAVAILABLE,
}
"""The errors a dependency raises (or the status it leads to), for every route that depends on it."""


def status_of(error: type[GpuopsError]) -> int:
    """The status ``STATUS_BY_ERROR`` gives an error class."""
    for cls, status in STATUS_BY_ERROR:
        if issubclass(error, cls):
            return status
    return INTERNAL_ERROR


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """FastAPI ``responses=`` for these statuses, each answered with an ``ErrorBody``."""
    return {status: {"model": ErrorBody, "description": DESCRIPTIONS[status], **_headers(status)}
            for status in sorted(set(statuses))}


def raises(*errors: type[GpuopsError]) -> dict[int | str, dict[str, Any]]:
    """FastAPI ``responses=`` for the errors a route's own work raises."""
    return documented(*(status_of(error) for error in errors))


def _calls(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _calls(sub)


def _statuses_for(route: APIRoute) -> set[int]:
    statuses = {BODY_TOO_LARGE, INTERNAL_ERROR}
    for call in _calls(route.dependant):
        raised = RAISED_BY.get(call, ())
        statuses |= {raised} if isinstance(raised, int) else {status_of(error) for error in raised}
    dependant = route.dependant
    if dependant.body_params or dependant.query_params or dependant.path_params or dependant.header_params:
        statuses.add(INVALID_INPUT)
    return statuses


def _headers(status: int) -> dict[str, Any]:
    return {"headers": HEADERS[status]} if status in HEADERS else {}


def _error_answer(status: int) -> dict[str, Any]:
    return {"description": DESCRIPTIONS[status], **_headers(status),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}


def document_with_errors(app: FastAPI, routes: Sequence[APIRoute]) -> dict[str, Any]:
    """The OpenAPI document with the error answers of ``routes`` (included without a prefix) added."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    document = FastAPI.openapi(app)
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    error_schema = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(error_schema.pop("$defs", {}))
    schemas["ErrorBody"] = error_schema
    for route in routes:
        if not route.include_in_schema:
            continue
        for method in route.methods or ():
            answers = document["paths"][route.path_format][method.lower()]["responses"]
            for status in sorted(_statuses_for(route) - set(route.responses)):
                # FastAPI's own 422 (HTTPValidationError) is replaced: validation errors are answered as ErrorBody.
                answers[str(status)] = _error_answer(status)
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    app.openapi_schema = document
    return document


def declare_errors(app: FastAPI, routers: Sequence[APIRouter]) -> None:
    """Make ``app.openapi`` (and ``GET /openapi.json``) answer with the error answers of every route of ``routers``.

    The routers' own routes are read, not ``app.routes``: they carry each route's dependencies as declared.
    """
    routes = [route for router in routers for route in router.routes if isinstance(route, APIRoute)]
    app.openapi = lambda: document_with_errors(app, routes)  # type: ignore[method-assign]
