"""Liveness, readiness and Prometheus metrics (no token needed)."""

from __future__ import annotations

import logging

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from sqlalchemy.exc import SQLAlchemyError

from contract.info import Health
from service.api.deps import StateDep
from service.store.db import ping
from service.store.migrate import schema_behind

router = APIRouter(tags=["health"])
log = logging.getLogger("gpuops.service")


@router.get("/healthz", response_model=Health)
async def healthz() -> Health:
    return Health(status="ok")


@router.get("/readyz", response_model=Health, responses={503: {"model": Health}})
def readyz(state: StateDep) -> JSONResponse:
    """200 when the database answers at the schema this version needs (``degraded`` while Redis is down and the
    in-process cache serves); 503 with ``detail`` saying what to do otherwise."""
    detail = None
    try:
        ping(state.engine)
        detail = schema_behind(state.engine)
        database = "ok" if detail is None else "not migrated"
    except SQLAlchemyError as exc:
        log.warning("database not reachable", extra={"error": type(exc).__name__})
        database = "unavailable"
    cache_ok = state.cache.ping()
    cache = state.cache.backend if cache_ok else f"degraded: {state.cache.backend}"
    status = "unavailable" if database != "ok" else ("ok" if cache_ok else "degraded")
    code = {"not migrated": "schema_not_migrated", "unavailable": "database_unavailable"}.get(database)
    body = Health(status=status, database=database, cache=cache, detail=detail, code=code)
    return JSONResponse(body.model_dump(exclude_none=True), status_code=503 if database != "ok" else 200)


@router.get("/metrics", response_class=Response)
def metrics() -> Response:
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
