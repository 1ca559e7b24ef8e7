"""The FastAPI application: ``create_app`` wires state, error mapping, middleware, routers and the expiry sweep."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import anyio
from fastapi import FastAPI

from service.api import alerts, capacity, digests, estimates, events, health, info, plans, requests
from service.api.error_responses import install_error_handlers
from service.api.middleware import ServiceMiddleware
from service.api.openapi import declare_errors
from service.api.state import ServiceState, build_state, refresh_catalog
from service.cache import hold_lock
from service.clock import utcnow
from service.requests.records import expire_overdue
from service.settings import Settings, get_settings
from service.store.db import new_session

log = logging.getLogger("gpuops.service")


def sweep_once(state: ServiceState) -> int:
    """Expire overdue requests (one replica at a time; the others skip this round) and pick up a refreshed
    catalog snapshot."""
    refresh_catalog(state)
    with hold_lock(state.cache, "sweep:expiry", ttl_seconds=60, wait_seconds=0) as held:
        if not held:
            return 0
        with new_session(state.engine) as session:
            return expire_overdue(session=session, now=utcnow())


async def _sweep_forever(state: ServiceState) -> None:
    while True:
        await asyncio.sleep(state.settings.sweep_interval_seconds)
        try:
            expired = await anyio.to_thread.run_sync(sweep_once, state)
        except Exception:  # the sweep retries next round; the failure is logged with its traceback
            log.exception("expiry sweep failed")
            continue
        if expired:
            log.info("expired %d requests past their approval window", expired)


def create_app(settings: Settings | None = None, *, state: ServiceState | None = None) -> FastAPI:
    """Build the app from settings (or a prepared state); nothing connects until the first request."""
    state = state or build_state(settings or get_settings())

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Worker threads run the blocking endpoints. A few keep the GIL and the database's row locks uncontended;
        # the event loop still takes every connection and the cheap work meanwhile.
        anyio.to_thread.current_default_thread_limiter().total_tokens = state.settings.threads
        task = asyncio.create_task(_sweep_forever(state))
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    app = FastAPI(title="gpuops policy service", version="1", lifespan=lifespan,
                  description="Requests, approvals and an audit trail for GPU training compute (docs/api.md).")
    app.state.gpuops = state
    install_error_handlers(app)
    app.add_middleware(ServiceMiddleware, metrics=state.metrics, max_body_bytes=state.settings.max_body_bytes)
    routers = [module.router for module in (health, plans, requests, events, info, digests, alerts, estimates,
                                            capacity)]
    for router in routers:
        app.include_router(router)
    declare_errors(app, routers)
    return app


def app_factory() -> FastAPI:
    """For ``uvicorn --factory service.api.app:app_factory``."""
    return create_app()
