"""``POST /v1/plans``: a decision preview, nothing stored.

The hot path of the service: it runs on the event loop (the decision is pure CPU, well under a millisecond) and hands
only possibly-blocking I/O — a Redis rate-limit counter, a spend lookup that may call Cost Explorer — to a worker
thread. A well-formed request skips FastAPI's per-request parameter machinery (``PreviewRoute``).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import anyio
from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute
from pydantic import ValidationError

from contract.errors import RateLimited
from contract.plans import PlanInput
from policy.decision import Decision
from policy.errors import RequestError
from policy.questions import NeedsInput
from service.api.deps import (
    Actor,
    ActorDep,
    StateDep,
    check_rate_limit,
    get_state,
    json_bytes,
    json_object,
    plain_actor,
)
from service.api.openapi import raises
from service.api.state import ServiceState
from service.clock import utcnow
from service.planning import PlanContext, plan_fields
from service.requests.filing import initial_status


class PreviewRoute(APIRoute):
    """The preview's route: a request FastAPI could not refuse — a JSON object sent as JSON that is a valid
    ``PlanInput``, an X-Gpuops-Actor header (if any) of the declared shape — goes to ``preview_plan`` with the same
    body, state and caller FastAPI would resolve, without resolving them through its dependency machinery (a tenth
    of a millisecond, about as much as the rest of the request's framework work). The caller's token is checked by
    the same ``get_actor``, which raises the same errors. Anything else, and any app with dependency overrides,
    takes FastAPI's own path, which answers it exactly as before; the OpenAPI document is FastAPI's either way."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        full = super().get_route_handler()

        async def handle(request: Request) -> Response:
            given = await _resolved(request)
            return await full(request) if given is None else await preview_plan(*given)

        return handle


async def _resolved(request: Request) -> tuple[PlanInput, ServiceState, Actor] | None:
    """What FastAPI would pass ``preview_plan`` for a request it could not refuse; None for any other request."""
    if getattr(request.app, "dependency_overrides", None):
        return None
    document = await json_object(request)
    if document is None:
        return None
    state = await get_state(request)
    actor = await plain_actor(request, state)
    if actor is None:
        return None
    try:
        body = PlanInput.model_validate(document)
    except ValidationError:
        return None  # FastAPI's path says what is wrong, in its words
    return body, state, actor


router = APIRouter(tags=["plans"], route_class=PreviewRoute)


def _preview(state: ServiceState, subject: str, body: PlanInput) -> PlanContext | NeedsInput:
    check_rate_limit(state, subject)
    return state.planner.ask_or_plan(text=body.text, fields=plan_fields(body), timezone=body.timezone,
                                     now=body.now or utcnow())


@router.post("/v1/plans", response_model=Decision | NeedsInput, responses=raises(RateLimited, RequestError))
async def preview_plan(body: PlanInput, state: StateDep, actor: ActorDep) -> Response:
    """Decide on a request without storing anything (what `gpuops plan --json` prints); the plan's hash is in the
    ``X-Plan-Hash`` header. When a plan would rest on a guess, the answer is ``{"status": "needs_input",
    "questions": [...], "request": {...}}`` instead (still 200): send the answered fields again."""
    if state.cache.blocks or state.planner.blocks:
        context = await anyio.to_thread.run_sync(_preview, state, actor.id, body)
    else:
        context = _preview(state, actor.id, body)
    if isinstance(context, NeedsInput):
        state.metrics.decisions.labels(outcome="needs_input").inc()
        return Response(content=json_bytes(context), media_type="application/json")
    state.metrics.decisions.labels(outcome=initial_status(context).value).inc()
    return Response(content=context.decision_json(), media_type="application/json",
                    headers={"X-Plan-Hash": context.plan_hash})
