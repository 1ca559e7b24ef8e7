"""``POST /v1/plans``: a decision preview, nothing stored.

The hot path of the service: it runs on the event loop (the decision is pure CPU, well under a millisecond) and hands
only possibly-blocking I/O — a Redis rate-limit counter, a spend lookup that may call Cost Explorer — to a worker
thread.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Response

from contract.plans import PlanInput
from policy.decision import Decision
from policy.request import TrainingRequest
from policy.spend import SpendSnapshot
from service.api.deps import ActorDep, StateDep, check_rate_limit
from service.api.state import ServiceState
from service.cache import CountingCache, MemoryCache
from service.clock import utcnow
from service.planning import plan_fields, zone_or_raise
from service.requests import initial_status
from service.spend import FileSpend, UnavailableSpend

router = APIRouter(tags=["plans"])


def _limit_and_read_spend(state: ServiceState, subject: str, request: TrainingRequest) -> SpendSnapshot:
    check_rate_limit(state, subject)
    return state.planner.spend_for(request)


def _in_memory(state: ServiceState) -> bool:
    cache = state.cache.inner if isinstance(state.cache, CountingCache) else state.cache
    return isinstance(cache, MemoryCache) and isinstance(state.planner.spend, FileSpend | UnavailableSpend)


@router.post("/v1/plans", response_model=Decision)
async def preview_plan(body: PlanInput, state: StateDep, actor: ActorDep) -> Response:
    """Decide on a request without storing anything (what `gpuops plan --json` prints)."""
    now = body.now or utcnow()
    timezone = zone_or_raise(body.timezone)
    request = state.planner.training_request(text=body.text, fields=plan_fields(body), timezone=timezone, now=now,
                                             channel=None)
    if _in_memory(state):
        spend = _limit_and_read_spend(state, actor.id, request)
    else:
        spend = await anyio.to_thread.run_sync(_limit_and_read_spend, state, actor.id, request)
    context = state.planner.plan(request, now=now, timezone=timezone, spend=spend)
    state.metrics.decisions.labels(outcome=initial_status(context).value).inc()
    return Response(content=context.decision.model_dump_json(), media_type="application/json")
