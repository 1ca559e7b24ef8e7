"""``POST /v1/plans``: a decision preview, nothing stored.

The hot path of the service: it runs on the event loop (the decision is pure CPU, well under a millisecond) and hands
only possibly-blocking I/O — a Redis rate-limit counter, a spend lookup that may call Cost Explorer — to a worker
thread.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Response

from contract.errors import RateLimited
from contract.plans import PlanInput
from policy.decision import Decision
from policy.errors import RequestError
from service.api.deps import ActorDep, StateDep, check_rate_limit
from service.api.openapi import raises
from service.api.state import ServiceState
from service.clock import utcnow
from service.planning import PlanContext, plan_fields
from service.requests.filing import initial_status

router = APIRouter(tags=["plans"])


def _preview(state: ServiceState, subject: str, body: PlanInput) -> PlanContext:
    check_rate_limit(state, subject)
    return state.planner.plan_input(text=body.text, fields=plan_fields(body), timezone=body.timezone,
                                    now=body.now or utcnow())


@router.post("/v1/plans", response_model=Decision, responses=raises(RateLimited, RequestError))
async def preview_plan(body: PlanInput, state: StateDep, actor: ActorDep) -> Response:
    """Decide on a request without storing anything (what `gpuops plan --json` prints); the plan's hash is in the
    ``X-Plan-Hash`` header."""
    if state.cache.blocks or state.planner.spend.blocks:
        context = await anyio.to_thread.run_sync(_preview, state, actor.id, body)
    else:
        context = _preview(state, actor.id, body)
    state.metrics.decisions.labels(outcome=initial_status(context).value).inc()
    return Response(content=context.decision.model_dump_json(), media_type="application/json",
                    headers={"X-Plan-Hash": context.plan_hash})
