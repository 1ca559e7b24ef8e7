"""``POST /v1/plans``: a decision preview, nothing stored."""

from __future__ import annotations

from fastapi import APIRouter

from policy.decision import Decision
from service.api.deps import ActorDep, StateDep, check_rate_limit
from service.clock import utcnow
from service.planning import plan_fields, zone_or_raise
from service.requests import initial_status
from service.schemas import PlanInput

router = APIRouter(tags=["plans"])


@router.post("/v1/plans", response_model=Decision)
def preview_plan(body: PlanInput, state: StateDep, actor: ActorDep) -> Decision:
    """Decide on a request without storing anything (what `gpuops plan --json` prints)."""
    check_rate_limit(state, actor.id)
    now = body.now or utcnow()
    timezone = zone_or_raise(body.timezone)
    request = state.planner.training_request(text=body.text, fields=plan_fields(body), timezone=timezone, now=now,
                                             channel=None)
    context = state.planner.plan(request, now=now, timezone=timezone)
    state.metrics.decisions.labels(outcome=initial_status(context).value).inc()
    return context.decision
