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
from policy.questions import NeedsInput
from service.api.deps import ActorDep, StateDep, check_rate_limit
from service.api.openapi import raises
from service.api.state import ServiceState
from service.clock import utcnow
from service.planning import PlanContext, plan_fields
from service.requests.filing import initial_status

router = APIRouter(tags=["plans"])


def _preview(state: ServiceState, subject: str, body: PlanInput) -> PlanContext | NeedsInput:
    check_rate_limit(state, subject)
    return state.planner.ask_or_plan(text=body.text, fields=plan_fields(body), timezone=body.timezone,
                                     now=body.now or utcnow())


@router.post("/v1/plans", response_model=Decision | NeedsInput, responses=raises(RateLimited, RequestError))
async def preview_plan(body: PlanInput, state: StateDep, actor: ActorDep) -> Response:
    """Decide on a request without storing anything (what `gpuops plan --json` prints); the plan's hash is in the
    ``X-Plan-Hash`` header. When a plan would rest on a guess, the answer is ``{"status": "needs_input",
    "questions": [...], "request": {...}}`` instead (still 200): send the answered fields again."""
    if state.cache.blocks or state.planner.spend.blocks:
        context = await anyio.to_thread.run_sync(_preview, state, actor.id, body)
    else:
        context = _preview(state, actor.id, body)
    if isinstance(context, NeedsInput):
        state.metrics.decisions.labels(outcome="needs_input").inc()
        return Response(content=context.model_dump_json(), media_type="application/json")
    state.metrics.decisions.labels(outcome=initial_status(context).value).inc()
    return Response(content=context.decision.model_dump_json(), media_type="application/json",
                    headers={"X-Plan-Hash": context.plan_hash})
