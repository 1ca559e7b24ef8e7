"""``decide``: a training request in, an explained and costed decision out. Pure and deterministic.

See docs/design.md §The decision.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from policy import affordable, capacity_rank, explain, fixed, rules
from policy.budget_share import budget_from_share
from policy.candidates import Option, Search, fixed_option, profile, screened_options
from policy.capacity import CapacityCheck, CapacityView
from policy.catalog import Catalog
from policy.choose import (
    FINISH_SLACK,
    MAX_ALTERNATIVES,
    MEANINGFUL_SHARE,
    Choice,
    alternatives,
    cheapest,
    choose,
    earliest,
    soonest,
)
from policy.config import PolicyConfig, TeamPolicy
from policy.decision import (
    Alternative,
    ApprovalRequirement,
    CatalogRef,
    Decision,
    Plan,
    Platform,
    PurchaseModel,
    TraceStep,
)
from policy.defaults import complete, format_count
from policy.errors import RequestError
from policy.estimate import (
    MIN_BILLED_HOURS,
    Workload,
    accelerator_hour_flops,
    billed_hours,
    cents,
    measured_workload,
    workload,
)
from policy.guardrails import REFRESH_PRICES, approval_requirement, spend_status, stale_prices
from policy.models import family_members, find_model
from policy.patterns import compiled_on_use
from policy.plans import to_alternative, to_plan, transfer_line_basis
from policy.platform import allowed_platforms, choose_platforms
from policy.pricing import hourly_rate
from policy.purchase import purchase_models
from policy.regions import area_label, in_area
from policy.request import HARDWARE_FIELDS, PLATFORM_NAMES, HardwareOption, Stage, Task, Tolerance, TrainingRequest
from policy.screen import NOT_ASKED, Screen, check_region, screen, types_named
from policy.spend import SpendSnapshot
from policy.timespan import hours_between

if TYPE_CHECKING:  # a caller with learnt corrections has loaded them; deciding without (a preview) never does
    from policy.calibration import Calibration

__all__ = ["decide", "HORIZON_HOURS"]


@dataclass(frozen=True, slots=True)
class _Context:
    request: TrainingRequest  # completed
    team_name: str
    team: TeamPolicy
    now: datetime
    policy: PolicyConfig


def decide(
    request: TrainingRequest, *, catalog: Catalog, policy: PolicyConfig, spend: SpendSnapshot, now: datetime,
    calibration: Calibration | None = None,
    capacity: CapacityView | None = None,
    interruption_rates: Mapping[tuple[str, str], float] | None = None,
) -> Decision:
    """Walk the decision tree for ``request`` and return the plan, alternatives, trace and approval requirement.

    ``calibration``: learnt corrections of estimated hours from finished jobs (``policy.calibration``); none: the
    model's own hours. ``capacity``: what the account can start (quotas, spot scores, offerings); None when it was
    not looked at. ``interruption_rates``: spot interruptions per instance-month by (region, family), e.g. from spot
    placement scores; pairs without one use the catalog's interruption band (``Catalog.mtbi_hours``, whose stated
    default for an unknown band is one interruption per instance-week)."""
    if request.hardware_options:  # "8 A100s or 4 H100s": each planned as if asked alone, the best of them chosen
        return _between(request, lambda asked: decide(
            asked, catalog=catalog, policy=policy, spend=spend, now=now, calibration=calibration, capacity=capacity,
            interruption_rates=interruption_rates))

    def plan_for(other: TrainingRequest) -> Plan | None:
        """The plan ``other`` would get here, or None when it cannot be planned."""
        try:
            return _chosen(other, catalog=catalog, policy=policy, spend=spend, now=now, calibration=calibration,
                           capacity=capacity, interruption_rates=interruption_rates).plan
        except RequestError:
            return None

    if request.work_instance_hours is not None and request.work_gpu_hours is None:
        request = _instance_hours_as_accelerator_hours(request, catalog)
    # "under 10% of our monthly budget": in dollars of the team's budget before anything is fitted in it
    request = budget_from_share(request, policy=policy, spend=spend, now=now)
    if request.params_fit_budget and request.params is None:
        asked = request
        request = _with_largest_model(asked, lambda params: plan_for(asked.model_copy(update={"params": params})),
                                      policy=policy)
    if request.tokens_fit_budget and request.tokens is None:
        asked = request
        request = _with_affordable_tokens(asked, lambda tokens: plan_for(asked.model_copy(update={"tokens": tokens})))
    again = functools.partial(decide, catalog=catalog, policy=policy, spend=spend, now=now, calibration=calibration,
                              capacity=capacity, interruption_rates=interruption_rates)
    try:
        chosen = _chosen(request, catalog=catalog, policy=policy, spend=spend, now=now, calibration=calibration,
                         capacity=capacity, interruption_rates=interruption_rates)
    except RequestError as exc:
        if (rounded := _count_rounded_up(request, exc, catalog, policy)) is not None:
            try:
                return again(rounded)
            except RequestError:
                raise exc from None  # the count asked is what the person knows: the refusal names it
        left_open = _preference_left_open(request, exc)
        if left_open is None:
            raise
        return again(left_open)
    if (priced_out := _preference_priced_out(request, chosen.plan, plan_for)) is not None:
        return again(priced_out)
    if (region_priced_out := _region_priced_out(request, chosen.plan, plan_for)) is not None:
        return again(region_priced_out)
    sized, req, assumed, ctx, plan = chosen.sized, chosen.request, chosen.assumed, chosen.ctx, chosen.plan
    team_name, team, scr, search, choice = ctx.team_name, ctx.team, chosen.screen, chosen.search, chosen.choice
    inside, outside, evaluated, regions = chosen.inside, chosen.outside, chosen.evaluated, chosen.regions
    work, platform_step, ranked, committed = chosen.work, chosen.platform_step, chosen.ranked, chosen.committed
    assert req.stage is not None
    reserved = capacity_rank.offering_options(evaluated, capacity, now=now, usable_hours=search.usable_hours)
    not_reserved: list[str] = []
    unreserved = plan  # what the hardware named is compared by: the plan before any reserved capacity is bought
    if req.reserve_capacity:  # "reserve a capacity block": the offering that fits is the plan
        choice, plan, not_reserved = _on_reserved_capacity(choice, plan, reserved, capacity, ctx)
    named = [*_named_choices(request, choice, catalog, policy), *_compared_choices(chosen.elsewhere, policy)]
    pairs = alternatives(choice, capacity_rank.labelled(reserved), named=named)
    alts = [_alternative(label, o, ctx) for label, o in pairs]
    cap = capacity_rank.outcome(capacity, choice.option, plan, [(o, a) for (_, o), a in zip(pairs, alts, strict=True)],
                                ranked=ranked, reserved=[*reserved, *committed])
    plan, alts = cap.plan, cap.alternatives
    if req.capacity_reservation and capacity is not None and capacity.known and not committed:
        cap.assumptions.append(f"capacity block {req.capacity_reservation}: not usable for this run (not found in "
                               "the account, not tagged gpuops:team for this team, not active, or too small or too "
                               "short for it)")
    # A stated length or capacity already held is not a choice of hardware to compare with the naive one.
    naive = None if req.fixed_hours is not None or req.reserved else _naive(search, ctx)
    oversized = _oversized(choice.option, plan, policy.estimate.startup_minutes)
    old_prices = stale_prices(_price_date(plan, catalog), policy=policy, now=now)
    spot_ceiling = _spot_ceiling(choice.option, plan, catalog)
    approval = approval_requirement(cost_usd=plan.estimated_cost_usd, hours=billed_hours(choice.option.job_wall_hours),
                                    stage=req.stage, team=team_name, policy=policy, spend=spend, now=now,
                                    exposure_usd=plan.exposure_usd, oversized=oversized, unread=req.unread,
                                    capacity_doubt=cap.doubt, raised=_raised(req, plan), old_prices=old_prices,
                                    estimate_only=bool(req.estimate_only), launch_below=req.launch_below_usd,
                                    budget_said=req.budget_usd, finance_asked=bool(req.finance_signoff),
                                    spot_ceiling_usd=spot_ceiling.exposure_usd if spot_ceiling else None)
    trace = _trace(request, ctx, work=work, choice=choice, scr=scr, candidates=[*inside, *outside], regions=regions,
                   platform_step=platform_step, approval=approval)
    if cap.step is not None:
        trace.insert(-1, cap.step)
    if sized is not request:  # size and task were stand-ins for a job of stated length: the request said neither
        req = req.model_copy(update={"params": request.params, "task": request.task})
    measured = _measured(request)
    if measured:  # nor did it train tokens of a sequence length: the work was the hours given
        req = req.model_copy(update={"tokens": request.tokens, "seq_len": request.seq_len})
    if req.fixed_hours is not None:  # no tokens are trained on: their default says nothing about this job
        # nor, with no model said, does a sequence length: nothing trained on the named hardware has one
        assumed = [a for a in assumed if not a.startswith("tokens:")
                   and not (request.params is None and a.startswith("sequence length:"))]
    elif measured:  # the work is the hours given: no default of tokens or sequence says anything of it
        assumed = [a for a in assumed if not a.startswith(("tokens:", "sequence length:"))]
    elif request.work_gpu_hours is not None and not _sized_and_measured(request):
        # given beside a model size and its tokens (or a stated length), which win
        assumed.append(f"the {request.work_gpu_hours:g} accelerator-hours given are not the estimate: it follows "
                       + ("the length stated" if request.fixed_hours is not None else "the model's size"))
    # say when the chosen hours carry a learnt correction (a job of stated length has no estimate to correct)
    if calibration is not None and req.fixed_hours is None and not measured:
        from policy.calibration import calibrated_step

        assert req.task is not None and req.params is not None
        correction = calibration.correction(family=choice.option.profile.spec.family, task=req.task, params=req.params)
        trace = [calibrated_step(s, correction) if s.node == "4 compute" else s for s in trace]
    warnings = [*_warnings(choice, plan, ctx, scr, oversized), *_earlier_run_warning(ctx.request, work, catalog),
                *_spot_stop_warning(plan, ctx.request, spot_ceiling),
                *cap.warnings, *not_reserved]
    if old_prices is not None:  # said where everyone reads, not only in Why
        warnings.append(f"{old_prices}: the cost may be off, and the plan is never approved automatically; "
                        f"{REFRESH_PRICES}")
    warnings += _what_else_would_do(request, req, unreserved, plan_for)
    warnings += _other_ways_of_training(request, req, plan, plan_for)
    warnings += _other_regions_named(request, plan, plan_for)
    if (on_spot := _on_spot_if_fine(request, req, plan, choice.option, search, ctx)) is not None:
        warnings.append(on_spot)
    if (runs := _runs_that_fit(req, plan)) is not None:
        req = req.model_copy(update={"notes": [*req.notes, runs]})
        assumed.insert(0, runs)
    if measured and plan.accelerator == request.work_accelerator and plan.accelerators:
        # "how much does one H100-hour cost us?": the price of one, as the plan buys it
        per = plan.price_per_instance_hour_usd * plan.instance_count / plan.accelerators
        rate = (f"per {plan.accelerator}-hour: ${per:,.2f} at this plan's price ({plan.purchase_model.value} "
                f"{plan.instance_type} on {plan.platform.value}, ${plan.price_per_instance_hour_usd:,.2f} an "
                f"instance-hour over its {plan.accelerators // plan.instance_count} {plan.accelerator}s)")
        req = req.model_copy(update={"notes": [*req.notes, rate]})
        assumed.insert(0, rate)
    return Decision(
        request=req, plan=plan, alternatives=alts, trace=trace,
        warnings=warnings,
        assumptions=[*request.notes, *assumed, *_price_assumptions(choice.option, catalog), *_fixed_notes(req, policy),
                     *cap.assumptions],
        capacity_actions=cap.actions,
        approval=approval, spend=_spend_used(spend, ctx),
        catalog=CatalogRef(snapshot=catalog.snapshot, source=catalog.source),
        savings_vs_naive_usd=None if naive is None else round(naive.estimated_cost_usd - plan.estimated_cost_usd, 2),
        naive_baseline=naive, policy_version=policy.version_hash, launch_configured=not team.launch_missing(),
    )


def _with_largest_model(request: TrainingRequest, plan_of: Callable[[int], Plan | None], *,
                        policy: PolicyConfig) -> TrainingRequest:
    """``request`` ("the biggest model we can pretrain on 20B tokens for $30k") with the largest model whose plan
    fits its budget, its deadline and the hardware it names, noted. A plan the policy would deny (over
    ``deny_above_usd`` or ``max_runtime_hours``) does not fit either, so "by Friday" alone never finds a model no one
    may train; when not even the smallest model fits, the request is refused with what to change."""
    budget = request.budget_usd
    ceiling = policy.deny_above_usd

    def allowed(params: int) -> Plan | None:
        plan = plan_of(params)
        return None if plan is None or _policy_limit(plan, policy) is not None else plan

    if request.params_family:
        return _with_largest_of_family(request, allowed, budget=budget)
    params = affordable.most_that_fits(allowed, budget_usd=budget, fewest=affordable.FEWEST_PARAMS,
                                       most=affordable.MOST_PARAMS)
    said = _fit_limits(request, budget)
    if params is None:
        raise RequestError(
            f"No model of {format_count(affordable.FEWEST_PARAMS)} parameters or more fits {said} for this work; "
            "give more room (a larger budget, a later deadline, more hardware) or fewer tokens, or name a size.",
            code="nothing_fits")
    bound = ""
    if budget is None and not request.hardware_named():  # only the policy's ceilings bound it: said in the clause
        # Slack's Read as shows, which ends at the first bracket or semicolon
        bounds = [*([f"deny_above_usd ${ceiling:,.0f}"] if ceiling is not None else []),
                  f"max_instances {policy.max_instances}"]
        bound = f", with no budget or hardware said bounded only by the policy's {' and '.join(bounds)}"
    stop = _what_stops(plan_of(params + params // 20), request=request, policy=policy) if not bound else None
    if stop is not None and stop not in said:  # the budget said is not what bounds it: what does, said first
        said = f"{said}, bounded by {stop}"
    note = f"params: {format_count(params)}, the largest model that fits {said}{bound} (the biggest model, as asked)"
    return request.model_copy(update={"params": params, "notes": [*request.notes, note]})


def _judged_usd(plan: Plan) -> float:
    """What the guardrails judge a plan on: the larger of its estimate and what its launch may bill before the
    runtime cap stops it (``policy.guardrails.approval_requirement``)."""
    return max(plan.estimated_cost_usd, plan.exposure_usd)


def _policy_limit(plan: Plan, policy: PolicyConfig) -> str | None:
    """The policy limit ``plan`` runs past, as a note names it: its runtime cap, or its deny ceiling judged as the
    guardrails judge it (what the launch may bill before its runtime cap stops it); None when it is inside both."""
    if plan.estimated_hours > policy.max_runtime_hours:
        return f"the policy's max_runtime_hours ({policy.max_runtime_hours:g} h)"
    if policy.deny_above_usd is not None and _judged_usd(plan) > policy.deny_above_usd:
        return f"the policy's deny_above_usd (${policy.deny_above_usd:,.0f})"
    return None


def _what_stops(plan: Plan | None, *, request: TrainingRequest, policy: PolicyConfig) -> str | None:
    """What a model a size up from the largest that fits runs into: the budget, the deadline, or one of the policy's
    limits (so a note never blames a budget that a runtime cap or a deny ceiling bounded); None when it fits."""
    if plan is None:
        return f"the hardware the policy allows (max_instances {policy.max_instances})"
    if (limit := _policy_limit(plan, policy)) is not None:
        return limit
    if plan.deadline_met is False:
        return "the deadline"
    if request.budget_usd is not None and plan.estimated_cost_usd > request.budget_usd:
        return f"the ${request.budget_usd:,.2f} budget"
    return None


def _with_largest_of_family(request: TrainingRequest, allowed: Callable[[int], Plan | None], *,
                            budget: float | None) -> TrainingRequest:
    """``request`` ("the biggest llama you can for $500") with the largest model of the family named whose plan
    fits: each of its sizes in the model table, largest first, until one fits its budget, its deadline and the
    policy; refused, naming the smallest, when none does."""
    family = str(request.params_family)
    members = sorted(family_members(family), key=lambda m: m.params, reverse=True)
    if not members:
        raise RequestError(f"params_family '{family}' names no family of models gpuops knows; give one such as "
                           "\"llama\", \"qwen2.5\" or \"mistral\", or leave it out to search every size",
                           code="unknown_model_family")
    for model in members:
        if affordable.fits(allowed(model.params), budget_usd=budget):
            tried = [m.name for m in members if m.params > model.params]
            passed = f"; larger ones ({', '.join(tried)}) do not fit" if tried else ""
            note = (f"params: {format_count(model.params)}, {model.name}, the largest '{family}' model that fits "
                    f"{_fit_limits(request, budget)}{passed} (the biggest model, as asked)")
            return request.model_copy(update={"params": model.params, "model": model.name,
                                              "notes": [*request.notes, note]})
    smallest = members[-1]
    raise RequestError(
        f"No '{family}' model fits {_fit_limits(request, budget)} for this work (the smallest is {smallest.name}, "
        f"{format_count(smallest.params)}); give more room (a larger budget, a later deadline, more hardware) or "
        "fewer tokens, or name a size.",
        code="nothing_fits")


def _fit_limits(request: TrainingRequest, budget: float | None) -> str:
    """What a largest model is fitted in, as a person said it."""
    limits = [*([f"the ${budget:,.2f} budget"] if budget is not None else []),
              *(["the deadline"] if request.deadline is not None else []),
              *(["the hardware named"] if request.hardware_named() else [])]
    return " and ".join(limits) or "the policy's limits"


def _with_affordable_tokens(request: TrainingRequest, cost_of: Callable[[int], Plan | None]) -> TrainingRequest:
    """``request`` ("as many tokens as fit in $200") with the most tokens its budget pays for, noted; without a
    budget, or when it pays for none, the tokens are left to the default and the note says why."""
    budget = request.budget_usd
    if budget is None:
        note = "as many tokens as fit: no budget is said to fit them in, so the tokens are the default; say one"
        return request.model_copy(update={"notes": [*request.notes, note]})
    tokens = affordable.most_that_fits(cost_of, budget_usd=budget, fewest=affordable.FEWEST_TOKENS,
                                       most=affordable.MOST_TOKENS)
    if tokens is None:
        note = (f"as many tokens as fit: ${budget:,.2f} pays for no run of {format_count(affordable.FEWEST_TOKENS)}"
                " tokens or more, so the tokens are the default and the budget warning says by how much it falls short")
        return request.model_copy(update={"notes": [*request.notes, note]})
    # "by the deadline" before the bracket: Slack's Read as shows the clause up to it
    note = (f"tokens: {format_count(tokens)}, the most the ${budget:,.2f} budget pays for"
            + (" by the deadline" if request.deadline is not None else "") + " (as many as fit, as asked)")
    return request.model_copy(update={"tokens": tokens, "notes": [*request.notes, note]})


def _between(request: TrainingRequest, decide_one: Callable[[TrainingRequest], Decision]) -> Decision:
    """ "8 A100s or 4 H100s, whichever is cheaper": each option decided as if asked alone; the plan is the one that
    meets the deadline (if any does) and is the cheapest, or the earliest when the request is urgent; the others come
    first among its alternatives, labelled as said, and the comparison is noted. An option that cannot run the job
    is noted with why; when none can, the first one's refusal stands."""
    decided: list[tuple[HardwareOption, Decision]] = []
    refused: list[tuple[HardwareOption, RequestError]] = []
    for option in request.hardware_options:
        asked = request.model_copy(update={
            "hardware_options": [], "accelerator": option.accelerator, "gpus": option.gpus,
            "instance_type": option.instance_type, "instances": option.instances,
            "fixed_hours": request.fixed_hours if option.hours is None else option.hours})
        try:
            decided.append((option, decide_one(asked)))
        except RequestError as exc:
            refused.append((option, exc))
    if not decided:
        raise refused[0][1]

    # "the biggest model … on A or B", "as many tokens as fit … on A or B": the one that fits the most is the answer
    most = ("params" if request.params_fit_budget and request.params is None else
            "tokens" if request.tokens_fit_budget and request.tokens is None else None)

    def rank(pair: tuple[HardwareOption, Decision]) -> tuple[bool, float, float, float]:
        plan = pair[1].plan
        fitted = float(getattr(pair[1].request, most) or 0) if most else 0.0
        late = plan.deadline_met is False
        cost, hours = plan.estimated_cost_usd, plan.estimated_hours
        return (late, -fitted, hours, cost) if request.urgent else (late, -fitted, cost, hours)

    chosen, best = min(decided, key=rank)
    others = [Alternative(**d.plan.model_dump(), label=f"on {o} as asked") for o, d in decided if d is not best]
    unit = {"params": "parameters", "tokens": "tokens"}.get(most or "")
    compared = "; ".join(f"{o} " + (f"{format_count(getattr(d.request, most) or 0)} {unit}, " if most else "")
                         + f"~${d.plan.estimated_cost_usd:,.2f} in {d.plan.estimated_hours:,.1f} h" for o, d in decided)
    if len(decided) == 1:
        note = f"planned on {chosen}, the only hardware named that can run it ({compared})"
    else:
        why = ({"params": "the one that fits the biggest model", "tokens": "the one that fits the most tokens"}.get(
            most or "", "the earliest" if request.urgent else "the cheapest")
            + (" that meets the deadline" if request.deadline is not None else ""))
        note = f"compared the hardware named, planned on {chosen} as {why} ({compared})"
    notes = [note, *(f"{o} cannot run it: {_SENTENCE_END_RE.split(e.message, maxsplit=1)[0].rstrip('.')}"
                     for o, e in refused)]
    req = best.request.model_copy(update={"hardware_options": request.hardware_options,
                                          "notes": [*best.request.notes, *notes]})
    return best.model_copy(update={"request": req, "alternatives": [*others, *best.alternatives][:MAX_ALTERNATIVES],
                                   "assumptions": [*notes, *best.assumptions]})


def _runs_that_fit(request: TrainingRequest, plan: Plan) -> str | None:
    """ "how many 13B LoRA runs fit in $2k?": how many runs like the one planned the budget pays for, at its estimate
    and at the top of its cost range, said before any bracket (Slack's Read as shows a note up to its first)."""
    budget, cost = request.budget_usd, plan.estimated_cost_usd
    if not request.runs_fit_budget or budget is None or cost <= 0:
        return None
    what = "runs" if request.trials == 1 else f"sweeps of {request.trials} trials"
    runs = int(budget // cost)
    if runs == 0:
        return f"{what}: none fit the ${budget:,.2f} budget, one costs ~${cost:,.2f} (how many fit, as asked)"
    high = int(budget // plan.cost_high_usd) if plan.cost_high_usd > cost else runs
    worst = "" if high == runs else f", {high:,} at the top of its cost range"
    return (f"{what}: {runs:,} like this one fit the ${budget:,.2f} budget at ~${cost:,.2f} each{worst} (how many "
            f"fit, as asked; the plan is one of them: ask for {runs:,} runs to plan them together)")


def _on_spot_if_fine(request: TrainingRequest, req: TrainingRequest, plan: Plan, option: Option, search: Search,
                    ctx: _Context) -> str | None:
    """What the same hardware would cost on spot, when a one-job multi-node experiment runs on on-demand only because
    multi-node spot is off by default (its request said nothing of interruptions) and spot would cost at least
    ``NAMED_HARDWARE_MIN_SAVING`` less, or fit a budget the plan is over, meeting any deadline the plan meets: said
    beside the plan, never chosen for the person, since one interruption stops every node."""
    layout = option.layout
    if (plan.instance_count < 2 or layout.jobs != 1 or req.stage is not Stage.EXPERIMENTAL
            or plan.purchase_model is not PurchaseModel.ON_DEMAND or request.interruption_tolerance is not None
            or request.multi_node_spot is False):  # "no multi-node spot": said already
        return None
    if req.reserved:
        return None  # held capacity is paid for already: no spot to weigh
    spot = fixed_option(option.profile, search, count=layout.count, purchase=PurchaseModel.SPOT,
                        platform=option.platform)
    if spot is not None:  # a stated length and a later start, as the plan's own options have them
        spot = next(iter(_as_fixed([spot], req, search, ctx.now, cap=ctx.policy.max_runtime_hours)), None)
    if spot is None or (option.meets and not spot.meets):
        return None
    budget, saving = req.budget_usd, 1 - spot.cost / option.cost
    fits = budget is not None and spot.cost <= budget < plan.estimated_cost_usd
    if not fits and saving < NAMED_HARDWARE_MIN_SAVING:
        return None
    how = f"within the ${budget:,.0f} budget" if fits else f"{saving:.0%} less"
    other = _plan(spot, ctx)
    return (f"if spot is fine (say 'spot ok'), the same {plan.instance_count}× {plan.instance_type} would cost "
            f"~${other.estimated_cost_usd:,.2f} on spot, {how}, in {other.estimated_hours:,.1f} h: multi-node spot is "
            f"off by default, since one interruption stops every node ({rules.SPOT_SINGLE_NODE})")


def _other_ways_of_training(request: TrainingRequest, req: TrainingRequest, plan: Plan,
                            plan_for: Callable[[TrainingRequest], Plan | None]) -> list[str]:
    """For ways of training ("LoRA vs full fine-tune") or model sizes ("7B vs 13B") named to compare, what each other
    would cost, planned as this one was: another job, so said beside the plan, never one of its alternatives (an
    approval binds the plan)."""
    others: list[tuple[str, dict[str, Any]]] = [
        (f"as {task.value}", {"task": task, "task_choice": []})
        for task in dict.fromkeys(request.task_choice) if task is not req.task]
    others += [(f"as {stage.value} work", {"stage": stage, "stage_choice": []})
               for stage in dict.fromkeys(request.stage_choice) if stage is not req.stage]
    others += [
        (f"for a {format_count(params)} model", {"params": params, "params_choice": [], "model": None,
                                                 "active_params": None})
        for params in dict.fromkeys(request.params_choice) if params != req.params]
    said = []
    for what, update in others:
        said.append(_compared(f"compared: {what}", plan_for(request.model_copy(update=update)), plan))
    return said


def _price_date(plan: Plan, catalog: Catalog) -> tuple[str, bool] | None:
    """The date of the price the plan is priced at, and whether it is a spot observation (spot prices move daily):
    None for a price the catalog does not hold (a capacity block's offered fee, read now)."""
    price = catalog.price(plan.instance_type, plan.region)
    if price is None or plan.purchase_model not in (PurchaseModel.SPOT, PurchaseModel.ON_DEMAND):
        return None
    if plan.purchase_model is PurchaseModel.SPOT and price.spot_observed:
        return price.spot_observed, True
    return price.as_of, False


def _compared(what: str, other: Plan | None, plan: Plan) -> str:
    """'``what`` the plan would be N× type … at ~$X in H h, S% more than this plan' (or that none runs the job)."""
    if other is None:
        return f"{what}: no configuration the policy allows runs this job"
    share = other.estimated_cost_usd / plan.estimated_cost_usd - 1 if plan.estimated_cost_usd else 0.0
    than = f"{abs(share):.0%} {'more' if share > 0 else 'less'} than this plan" if abs(share) >= 0.005 else \
        "the same as this plan"
    late = ", missing the deadline" if other.deadline_met is False and plan.deadline_met is not False else ""
    return (f"{what} the plan would be {other.instance_count}× {other.instance_type} {other.purchase_model.value} at "
            f"~${other.estimated_cost_usd:,.2f} in {other.estimated_hours:,.1f} h, {than}{late}")


def _other_regions_named(request: TrainingRequest, plan: Plan,
                         plan_for: Callable[[TrainingRequest], Plan | None]) -> list[str]:
    """ "in us-east-1 vs us-west-2", "in each of us-east-1, us-west-2 and eu-west-1": the plan is the best of the
    regions named, and each other one's plan, made as if that region alone were named, is said beside it (never an
    alternative: an approval binds the plan)."""
    return [_compared(f"in {region}", plan_for(request.model_copy(update={"region": region, "regions": []})), plan)
            for region in dict.fromkeys(request.regions) if region != plan.region]


def _what_else_would_do(request: TrainingRequest, req: TrainingRequest, plan: Plan,
                        plan_for: Callable[[TrainingRequest], Plan | None]) -> list[str]:
    """What keeping to what the request said costs, each against the plan ``plan_for`` makes without it: named
    hardware (left open, in the plan's region), hardware kept out, rate ceilings (a lower rate may take longer and
    cost more in all), a preferred region (every region the team can launch in, or the area said); and a length said
    beside work of a size said against what training that work takes on the same hardware. Neither a stated length
    nor held capacity is a choice to compare, except the length's own."""
    found: list[str | None] = []
    free = req.fixed_hours is None and not req.reserved
    if free and (request.hardware_named() or request.hardware_choice):
        open_plan = plan_for(request.model_copy(update={**_HARDWARE_OPEN, "region": plan.region}))
        found.append(None if open_plan is None else _named_hardware_warning(request, plan, open_plan))
    if free and request.exclude:  # "H100s are too expensive": what keeping them out costs the run
        allowed = plan_for(request.model_copy(update={"exclude": []}))
        out = request.exclude
        named = out[0] if len(out) == 1 else f"{', '.join(out[:-1])} and {out[-1]}"
        found.append(None if allowed is None else _what_keeping_costs(
            plan, allowed, kept=f"keeping out {named}", instead="with it" if len(out) == 1 else "with them"))
    if free and (request.max_gpus is not None or request.max_instances is not None):
        # "with 4 H100s max": single-accelerator sizes never go multi-node, so a ceiling can leave only a slow one
        counted = " and ".join(f"at most {_counted(n, unit)}" for n, unit in (
            (request.max_gpus, request.accelerator or "accelerator"), (request.max_instances, "instance"))
            if n is not None)
        uncapped = plan_for(request.model_copy(update={"max_gpus": None, "max_instances": None}))
        found.append(None if uncapped is None else _what_keeping_costs(plan, uncapped, kept=f"keeping to {counted}",
                                                                        instead="without it"))
    if free and (ceilings := _rate_ceilings(request)):
        uncapped = plan_for(request.model_copy(update=dict.fromkeys(_RATE_CEILING_FIELDS)))
        found.append(None if uncapped is None else _what_keeping_costs(plan, uncapped, kept=f"keeping under {ceilings}",
                                                                        instead="without it"))
    if free and request.region_preferred:
        anywhere = plan_for(request.model_copy(update={"region": None, "region_preferred": None}))
        found.append(None if anywhere is None else _preferred_region_warning(
            plan, anywhere, where_data=request.data_region == plan.region))
    if (req.fixed_hours is not None and request.tokens is not None and request.params is not None
            and not req.reserved):
        trained = plan_for(request.model_copy(update={"fixed_hours": None}))
        found.append(None if trained is None else _stated_length_warning(request, plan, trained))
    return [w for w in found if w is not None]


@dataclass(frozen=True, slots=True)
class _Chosen:
    """What ``decide`` has worked out once it has chosen: the plan and what it was chosen from."""

    sized: TrainingRequest  # the request as sized (a job of stated length gets stand-in size and task)
    request: TrainingRequest  # completed
    assumed: list[str]
    ctx: _Context
    regions: list[str]
    screen: Screen
    search: Search
    work: Workload
    platform_step: TraceStep
    inside: list[Option]
    outside: list[Option]
    evaluated: list[Option]
    ranked: capacity_rank.Ranked
    committed: list[tuple[Option, CapacityCheck]]
    choice: Choice
    plan: Plan
    elsewhere: list[Option]  # on the platforms named only to compare (``_compared_platforms``)


def _chosen(
    request: TrainingRequest, *, catalog: Catalog, policy: PolicyConfig, spend: SpendSnapshot, now: datetime,
    calibration: Calibration | None, capacity: CapacityView | None,
    interruption_rates: Mapping[tuple[str, str], float] | None,
) -> _Chosen:
    """The plan ``decide`` chooses for ``request``, before it is explained, compared and put to the guardrails."""
    sized, refused = _regions_allowed(_sized(request), catalog=catalog, policy=policy)
    req, assumed = complete(sized, policy=policy)
    if _sized_and_measured(request):  # the hours said measure the work better than a default count of tokens
        req, assumed = _tokens_of_measured_hours(req, assumed, catalog=catalog)
    assumed = [*refused, *assumed]
    assert req.region is not None and req.params is not None and req.tokens is not None and req.trials is not None
    assert req.task is not None and req.seq_len is not None and req.stage is not None
    assert req.interruption_tolerance is not None
    check_region(req.region, catalog=catalog, policy=policy)
    _check_deadline(req, now)
    team_name, team = policy.team_or_default(req.team)  # complete() named it; an unknown team was refused there
    # a platform the team may not use is refused before anything is searched
    platforms, platform_step = choose_platforms(team_name=team_name, team=team, spend=spend, policy=policy,
                                                requested=req.platform, excluded=req.exclude_platforms)
    compared = _compared_platforms(req, platforms, team_name, team, assumed) if req.platform_choice else ()
    measured = _measured(request)
    # with no count of runs said, the accelerator-hours given are the whole sweep's, shared among its default runs
    shared = measured and request.trials is None and req.trials > 1
    if shared:
        assert req.work_gpu_hours is not None  # measured
        assumed.append(f"the {req.work_gpu_hours:g} {req.work_accelerator}-hours given are all {req.trials} runs' "
                       f"together, no count of runs being said: {req.work_gpu_hours / req.trials:g} each")
    work = _measured_work(req, catalog, policy, shared=shared) if measured else _workload(req)
    regions = _regions_to_search(request, req, catalog=catalog, policy=policy, team=team)
    try:
        scr = _screen_regions(req, regions, work=work, catalog=catalog, policy=policy, team=team)
    except RequestError as exc:
        if not req.reserved:
            raise
        raise RequestError(f"Does not fit the held capacity: {exc.message}", code="does_not_fit") from None
    gpus = _gpus_of(req, catalog, assumed)
    _check_ceilings(req, gpus)
    search = Search(catalog=catalog, work=work, stage=req.stage, tolerance=req.interruption_tolerance,
                    usable_hours=_usable_hours(req, now, policy), platforms=(*platforms, *compared),
                    max_instances=min(policy.max_instances, req.max_instances or policy.max_instances),
                    settings=policy.estimate, gpus=gpus, instances=req.instances, max_gpus=req.max_gpus,
                    min_gpus=req.min_gpus, min_instances=req.min_instances,
                    # hours given as measured are not estimated, so no learnt correction applies to them
                    hours_factors=calibration.hours_factors(task=req.task, params=req.params)
                    if calibration and not measured else (),
                    multi_node_spot=_multi_node_spot_allowed(request, team.multi_node_spot),
                    runs_at_once=req.runs_at_once,
                    interruption_rates=tuple(sorted((interruption_rates or {}).items())),
                    data_region=req.data_region or team.data_region, transfer_usd=_transfer_usd(req, policy))
    inside, outside = (_as_fixed(o, req, search, now, cap=policy.max_runtime_hours) for o in _options(scr, search))
    inside, outside, fits = _within_runtime(inside, outside, policy)
    inside, outside = _within_allowances(inside, outside, req, tokens_said=sized.tokens is not None)
    # the platforms only compared are searched for their alternatives: never chosen, ranked or bought capacity on
    elsewhere = [o for o in [*inside, *outside] if o.platform in compared] if compared else []
    if elsewhere:
        inside, outside = ([o for o in pool if o.platform not in compared] for pool in (inside, outside))
    evaluated = [*inside, *outside]  # reserved capacity may run what quotas rule out below
    ranked = capacity_rank.rank(inside, outside, capacity)  # capacity: what cannot start is ranked down
    committed = capacity_rank.committed_options(evaluated, capacity, reservation_id=req.capacity_reservation,
                                                now=now, usable_hours=search.usable_hours)
    inside, outside = [*ranked.inside, *(o for o, _ in committed)], ranked.outside
    choice = choose(inside, outside, penalty=policy.estimate.size_class_penalty,
                    deadline_hours=None if req.deadline is None else hours_between(now, req.deadline))
    if choice is None and req.reserved:
        raise RequestError(fixed.does_not_fit(req, [*scr.inside, *scr.outside], scr.ruled_out), code="does_not_fit")
    if choice is None:
        raise RequestError(_nothing_runs(req, scr, policy), code="no_configuration")
    if not fits:  # denied whatever is chosen: show the one closest to fitting, not a cheap plan that runs for years
        fastest = earliest(choice.pool)
        choice = Choice(fastest, choice.pool, fallback=fastest.profile.outside_class, late=choice.late,
                        over_runtime=True)
    if req.urgent and req.deadline is None:
        choice = _earliest(choice, budget=req.budget_usd)
    if fits and (fewer := _fewest_in_time(choice, req, search, policy, tokens_said=sized.tokens is not None)):
        bound = "meet the deadline" if req.deadline is not None else "fit the policy's max_runtime_hours"
        assumed.append(f"{fewer.count}× {fewer.profile.spec.instance_type}: the fewest that {bound} "
                       f"(~${choice.option.cost - fewer.cost:,.0f} less than {choice.option.count}×; instance "
                       "counts are otherwise tried in powers of two)")
        (inside if not fewer.profile.outside_class else outside).append(fewer)
        choice = Choice(fewer, [*choice.pool, fewer], fallback=choice.fallback, late=choice.late,
                        warnings=choice.warnings)
    req, assumed = _settle_region(req, assumed, regions, choice.option)
    assert req.stage is not None
    ctx = _Context(req, team_name, team, now, policy)
    plan = _plan(choice.option, ctx)
    return _Chosen(sized, req, assumed, ctx, regions, scr, search, work, platform_step, inside, outside, evaluated,
                   ranked, committed, choice, plan, elsewhere)


def _fewest_in_time(choice: Choice, req: TrainingRequest, search: Search, policy: PolicyConfig, *,
                    tokens_said: bool) -> Option | None:
    """The chosen configuration on fewer instances, the fewest that still meet the deadline and fit the runtime cap,
    when that costs less.

    Counts are tried in powers of two: a run that 8 instances finish just too late for, or run past the policy's
    longest job on, goes to 16, though 10 would do, and on the same price per instance-hour fewer instances cost
    less (each scales less well than the last). So a job of one run on many instances is tried on each count between
    half the chosen one and it, within the deadline, the runtime cap and the request's allowances, and the fewest
    that fit are taken when they save a meaningful share (``MEANINGFUL_SHARE``); a count the request fixes, haste
    asked for, a stated length, held or reserved capacity, a later start and sweeps keep the count chosen."""
    option = choice.option
    if (choice.late or option.meets is False or option.layout.jobs > 1 or option.count < 3 or option.stated
            or option.start_hours or req.gpus is not None or req.instances is not None or req.reserved
            or req.urgent or option.purchase is PurchaseModel.CAPACITY_BLOCK):
        return None
    # no fewer than the request's floors ("3 nodes or more", "at least 12 GPUs") or than hold the model
    per = option.profile.spec.accelerator_count
    floor = max(option.profile.min_count, req.min_instances or 1, -(-(req.min_gpus or 1) // per))
    for count in range(max(floor, option.count // 2 + 1), option.count):
        fewer = fixed_option(option.profile, search, count=count, purchase=option.purchase, platform=option.platform)
        # a saving under a few percent is not worth finishing days later for
        if fewer is None or fewer.meets is False or fewer.cost >= option.cost * (1 - MEANINGFUL_SHARE):
            continue
        # judged by the filters the pool passed, beside the chosen option, which passed them (so none refuses)
        kept = _within_runtime([option, fewer], [], policy)[0]
        if any(k is fewer for k in _within_allowances(kept, [], req, tokens_said=tokens_said)[0]):
            return replace(fewer, purchase_reason=option.purchase_reason)
    return None


def _compared_platforms(req: TrainingRequest, platforms: list[Platform], team_name: str, team: TeamPolicy,
                        assumed: list[str]) -> tuple[Platform, ...]:
    """The platforms named to compare ("SageMaker vs EKS") that the plan's are not and the team may use; one it may
    not use is noted, never refused: the comparison is a question, the plan stands."""
    allowed = allowed_platforms(team)
    for p in dict.fromkeys(req.platform_choice):
        if p not in allowed:
            key = f"teams.{team_name}.platforms.{p.value}"
            assumed.append(f"{PLATFORM_NAMES[p]} named to compare, but {team_name}'s policy does not enable it ({key} "
                           "is false): not compared")
    return tuple(p for p in dict.fromkeys(req.platform_choice) if p in allowed and p not in platforms)


def _on_reserved_capacity(choice: Choice, plan: Plan, reserved: Sequence[tuple[Option, CapacityCheck]],
                          capacity: CapacityView | None, ctx: _Context) -> tuple[Choice, Plan, list[str]]:
    """The reserved-capacity offering to buy for the run, when the request asks for one: the first that meets the
    deadline (the earliest finish, then the cheapest) becomes the plan and the plan chosen without it an alternative;
    with none, the plan stands and a warning says why there is none."""
    asked = "reserved capacity was asked for"
    if capacity is None or not capacity.known:
        why = capacity.reason if capacity is not None else "capacity was not looked at"
        return choice, plan, [f"{asked}, but offerings were not read ({why}): the plan is priced without one; "
                              "with the account's capacity read, an offering that fits is the plan"]
    if capacity.offerings_reason:
        return choice, plan, [f"{asked}, but offerings are unknown ({capacity.offerings_reason}): the plan is "
                              "priced without one"]
    fitting = [option for option, _ in reserved if option.meets is not False]
    if not fitting:
        return choice, plan, [f"{asked}, but none of the {len(capacity.offerings)} offerings read runs this job in "
                              "its window by the deadline: the plan is priced without one"]
    best = fitting[0]
    return replace(choice, option=best), _plan(best, ctx), []


def _measured(request: TrainingRequest) -> bool:
    """Whether the work is given as accelerator-hours ("it takes about 300 A100-hours") and not by a model's size."""
    return (request.work_gpu_hours is not None and request.work_accelerator is not None and request.params is None
            and request.fixed_hours is None)


def _instance_hours_as_accelerator_hours(request: TrainingRequest, catalog: Catalog) -> TrainingRequest:
    """ "20 node-hours on p4d": the hours of the type's accelerators (160 A100-hours), when every size of the type or
    family named holds the same accelerators; else the size is asked for."""
    assert request.work_instance_hours is not None and request.work_instance_type is not None
    said = request.work_instance_type
    specs = [spec for name, spec in sorted(catalog.instances.items()) if name == said or spec.family == said]
    held = sorted({(spec.accelerator, spec.accelerator_count) for spec in specs})
    hours = f"{request.work_instance_hours:,.4g} hours of {said}"
    if not specs:
        raise RequestError(f"gpuops has no figures for {said} instances to turn {hours} into work; name a type in the "
                           'catalog or give the work as accelerator-hours, e.g. "about 300 A100-hours".',
                           code="unknown_instance_type")
    if len(held) > 1:
        largest = max(specs, key=lambda spec: spec.accelerator_count)
        counts = sorted({spec.accelerator_count for spec in specs})
        kinds = " or ".join(sorted({spec.accelerator for spec in specs}))
        raise RequestError(f"{said} sizes hold {counts[0]} to {counts[-1]} {kinds} each: say which size the {hours} "
                           f"were on (e.g. {largest.instance_type}, {largest.accelerator_count} a machine), or give "
                           "them as accelerator-hours.", code="ambiguous_instance_type")
    accelerator, count = held[0]
    gpu_hours = request.work_instance_hours * count
    note = (f"{hours} instances are {gpu_hours:,.4g} {accelerator}-hours of work ({count} {accelerator} an "
            "instance)")
    return request.model_copy(update={"work_gpu_hours": gpu_hours, "work_accelerator": accelerator,
                                      "notes": [*request.notes, note]})


def _multi_node_spot_allowed(request: TrainingRequest, team_allows: bool) -> bool:
    """Spot across several instances: as the request says ("no multi-node spot"), else as the team's policy, or when
    the request said spot is fine for the job."""
    if request.multi_node_spot is not None:
        return request.multi_node_spot
    return team_allows or request.interruption_tolerance is Tolerance.HIGH


def _sized_and_measured(request: TrainingRequest) -> bool:
    """Whether the work is given as accelerator-hours beside a model's size but no count of tokens ("fine-tune 7B, it
    took about 300 A100-hours last time"): the hours, not a default count of tokens, then say how long it trains."""
    return (request.work_gpu_hours is not None and request.work_accelerator is not None
            and request.params is not None and request.tokens is None and request.fixed_hours is None)


def _tokens_of_measured_hours(req: TrainingRequest, assumed: list[str], *,
                              catalog: Catalog) -> tuple[TrainingRequest, list[str]]:
    """``req`` training the tokens its accelerator-hours compute for its model, on the accelerator they were on at
    the estimate's MFU, in place of the task's default count (all its runs' hours together)."""
    assert req.work_gpu_hours is not None and req.work_accelerator is not None and req.trials is not None
    accel = catalog.accelerators.get(req.work_accelerator)
    if accel is None or accel.peak_bf16_tflops is None or accel.mfu is None:
        return req, assumed  # no figures to turn its hours into work: the default stands, said as assumed
    per_token = _workload(req.model_copy(update={"tokens": 1, "trials": 1})).flops
    flops = req.work_gpu_hours * accelerator_hour_flops(peak_tflops=accel.peak_bf16_tflops, mfu=accel.mfu)
    tokens = max(1, round(flops / per_token / req.trials))
    runs = f" each of the {req.trials} runs" if req.trials > 1 else ""
    said = (f"tokens: ~{format_count(tokens)}{runs}, what the {req.work_gpu_hours:,.4g} {accel.name}-hours given "
            f"compute for this model at {accel.name}'s {accel.peak_bf16_tflops:g} TFLOPS and {accel.mfu:.0%} MFU "
            "(no count of tokens was said)")
    return req.model_copy(update={"tokens": tokens}), [said if a.startswith("tokens:") else a for a in assumed]


def _measured_work(req: TrainingRequest, catalog: Catalog, policy: PolicyConfig, *, shared: bool) -> Workload:
    """The work of ``req``'s accelerator-hours: what they compute on that accelerator, held as one of them holds it;
    each run's, or (``shared``) all its runs' together."""
    assert req.work_gpu_hours is not None and req.work_accelerator is not None and req.trials is not None
    accel = catalog.accelerators.get(req.work_accelerator)
    if accel is None or accel.peak_bf16_tflops is None or accel.mfu is None or accel.memory_gib is None:
        known = ", ".join(a for a, spec in sorted(catalog.accelerators.items())
                          if spec.peak_bf16_tflops and spec.mfu and spec.memory_gib)
        raise RequestError(f"gpuops has no throughput and memory figures for {req.work_accelerator} to turn "
                           f"{req.work_gpu_hours:g} of its hours into work; give them on one of {known}.",
                           code="invalid_request")
    return measured_workload(accelerator=accel.name,
                             gpu_hours=req.work_gpu_hours / req.trials if shared else req.work_gpu_hours,
                             peak_tflops=accel.peak_bf16_tflops, mfu=accel.mfu, memory_gib=accel.memory_gib,
                             headroom=policy.estimate.memory_headroom, trials=req.trials)


def _workload(req: TrainingRequest) -> Workload:
    """The work of a completed request: a named model's published shape, else one that follows from its size."""
    assert req.task is not None and req.params is not None and req.tokens is not None and req.trials is not None
    assert req.seq_len is not None
    named = find_model(req.model) if req.model else None
    same = named is not None and named.params == req.params
    shape = (named.layers, named.d_model) if named is not None and same else None
    active = req.active_params or (named.active_params if named is not None and same else None)
    return workload(task=req.task, params=req.params, tokens=req.tokens, trials=req.trials, seq_len=req.seq_len,
                    active_params=active, shape=shape, teacher_params=req.teacher_params,
                    teacher_active_params=req.teacher_active_params, reward_params=req.reward_params,
                    adapter=req.adapter, batch_tokens=req.batch_tokens, lora_rank=req.lora_rank)


def _trace(original: TrainingRequest, ctx: _Context, *, work: Workload, choice: Choice, scr: Screen,
           candidates: list[Option], regions: list[str], platform_step: TraceStep,
           approval: ApprovalRequirement) -> list[TraceStep]:
    """One step per node of docs/design.md §The decision, in order."""
    req = ctx.request
    assert req.stage is not None and req.interruption_tolerance is not None and req.region is not None
    has_deadline = req.deadline is not None
    return [
        explain.stage_step(original, req.stage),
        explain.tolerance_step(original, req.interruption_tolerance, req.stage),
        explain.memory_step(work, choice.option, scr,
                            model_said=original.params is not None or req.fixed_hours is None),
        explain.compute_step(work, choice.option, stated_hours=ctx.request.fixed_hours),
        explain.candidates_step(scr, len(candidates), sum(o.meets is True for o in candidates), has_deadline,
                                ", ".join(regions) or req.region, counts=_counts_allowed(req, ctx.policy),
                                gpu_hours=req.max_gpu_hours, hourly_usd=req.max_hourly_usd,
                                usd_per_gpu_hour=req.max_usd_per_gpu_hour),
        explain.purchase_step(choice.option, _purchase_source(req, choice.option)),
        platform_step,
        explain.choice_step(choice, has_deadline, wish=bool(req.deadline_wish)),
        explain.guardrail_step(approval),
    ]


def _options(scr: Screen, search: Search) -> tuple[list[Option], list[Option]]:
    """Options inside the size class and outside it: the class is a preference the choice weighs, not a filter."""
    return screened_options(scr.inside, scr.outside, search)


def _transfer_usd(req: TrainingRequest, policy: PolicyConfig) -> float:
    """Moving the dataset out of the team's data region once: its size as said, else its tokens (an upper bound on
    the unique ones) as stored token ids, at the policy's per-GB transfer price."""
    assert req.tokens is not None
    settings = policy.estimate
    moved = req.dataset_bytes or req.tokens * settings.dataset_bytes_per_token
    return moved / 1e9 * settings.transfer_usd_per_gb


def _earliest(choice: Choice, *, budget: float | None = None) -> Choice:
    """For an urgent request without a deadline: the cheapest of the plans that finish within ``FINISH_SLACK`` of
    the earliest (``soonest``); with a budget ("fastest under $300"), among those the budget pays for, when any."""
    affordable = [o for o in choice.pool if budget is None or o.cost <= budget]
    if not affordable:
        return choice  # nothing the budget pays for: the cheapest stays, and the budget warning says so
    return Choice(soonest(affordable), choice.pool, fallback=choice.fallback, late=choice.late)


def _regions_allowed(request: TrainingRequest, *, catalog: Catalog,
                     policy: PolicyConfig) -> tuple[TrainingRequest, list[str]]:
    """The request with only the regions it names ("in eu-central-1 or eu-west-1") that the catalog prices and the
    policy allows, and a note for each left out; when none is left, refused as the first named is."""
    refusals: dict[str, RequestError] = {}
    for named in request.regions:  # each as a region named alone is checked
        try:
            check_region(named, catalog=catalog, policy=policy)
        except RequestError as exc:
            refusals[named] = exc
    if not refusals:
        return request, []
    left = [r for r in request.regions if r not in refusals]
    if not left:
        raise next(iter(refusals.values()))
    notes = [f"region {named} left out of those named: {_REGION_WHY.get(exc.code, exc.message)}"
             for named, exc in refusals.items()]
    return request.model_copy(update={"regions": left}), notes


def _sized(request: TrainingRequest) -> TrainingRequest:
    """A job of stated length on stated hardware without a model size: sized as a tiny model (``policy.fixed``); so
    is a job given as accelerator-hours, whose work and memory then come from those hours (``_workload``)."""
    if _measured(request):
        return request.model_copy(update={"params": fixed.SIZING_PARAMS, "task": request.task or Task.FINE_TUNE})
    if request.fixed_hours is None or (request.params is not None and request.task is not None):
        return request
    # Memory as the weights alone (LoRA's base): an evaluation or a stated-length run holds no optimizer state.
    return request.model_copy(update={"params": request.params or fixed.SIZING_PARAMS,
                                      "task": request.task or Task.LORA})


def _as_fixed(options: list[Option], req: TrainingRequest, search: Search, now: datetime, *,
              cap: float) -> list[Option]:
    """The options under what the request fixes: a stated length, held capacity, a later start."""
    if req.fixed_hours is not None:
        options = fixed.fixed_length(options, hours=req.fixed_hours, settings=search.settings,
                                     usable_hours=search.usable_hours, cap=cap)
        options = fixed.filling(options, gpus=req.gpus, instances=req.instances)
    if req.reserved:
        options = fixed.held_capacity(options, premium=search.catalog.sagemaker_premium)
    return fixed.started_later(options, request=req, now=now, usable_hours=search.usable_hours)


def _fixed_notes(req: TrainingRequest, policy: PolicyConfig) -> list[str]:
    notes = []
    if req.fixed_hours is not None:
        within = fixed.startup_within(req.fixed_hours, settings=policy.estimate, cap=policy.max_runtime_hours)
        startup = f"{policy.estimate.spot_restart_minutes:g} min start-up"
        length = (f"{req.fixed_hours:g} h + {startup}" if not within else
                  f"{req.fixed_hours:g} h, the policy's longest job (max_runtime_hours {policy.max_runtime_hours:g}) "
                  f"with its {startup} taken out of it ({req.fixed_hours - within:g} h running)")
        notes.append(f"a job of a stated length: {length} on the hardware chosen, priced as instances × price × hours; "
                     "no training estimate")
    return notes


def _gpus_of(req: TrainingRequest, catalog: Catalog, assumed: list[str]) -> int | None:
    """The accelerators the request fixes: its GPUs, or its instance count ("4x p5.48xlarge") times the type's."""
    if req.gpus is not None or req.instances is None or req.instance_type is None:
        return req.gpus
    types = [t for t, spec in catalog.instances.items() if t == req.instance_type or spec.family == req.instance_type]
    if not types:
        return None
    # "4 p5s" means the family's full-size machine, the way people say it.
    largest = max(types, key=lambda t: (catalog.instances[t].accelerator_count, t))
    types = [largest]
    gpus = req.instances * catalog.instances[types[0]].accelerator_count
    said = "" if largest == req.instance_type else f" (the {req.instance_type} family's largest)"
    assumed.append(f"instances: {req.instances}× {largest}{said} read as {gpus} accelerators")
    return gpus


def _check_ceilings(req: TrainingRequest, gpus: int | None) -> None:
    """An exact count above a ceiling the same request sets ("on 32 GPUs, at most 16 GPUs"), or GPUs that do not
    split evenly over the instances ("16 GPUs on 3 nodes"), ask for two things at once: refused, naming both,
    rather than one of them silently winning."""
    if gpus is not None and req.instances is not None and gpus % req.instances:
        raise RequestError(f"{_counted(gpus, 'GPU')} do not split evenly over {_counted(req.instances, 'instance')};"
                           ' give counts that do, e.g. "16 GPUs on 2 nodes", or one of them.', code="contradiction")
    for exact, ceiling, what, hint in ((gpus, req.max_gpus, "GPU", '"on 16 GPUs" or "at most 16 GPUs"'),
                                       (req.instances, req.max_instances, "instance",
                                        '"on 4 nodes" or "at most 4 nodes"')):
        if exact is not None and ceiling is not None and exact > ceiling:
            raise RequestError(f"The request names {_counted(exact, what)} and at most {_counted(ceiling, what)}; "
                               f"give one, e.g. {hint}.", code="contradiction")
    for exact, floor, ceiling, what in ((gpus, req.min_gpus, req.max_gpus, "GPU"),
                                        (req.instances, req.min_instances, req.max_instances, "instance")):
        if floor is not None and exact is not None and exact < floor:
            raise RequestError(f"The request names {_counted(exact, what)} and at least {_counted(floor, what)}; "
                               f"give one, e.g. \"on {floor} {what}s\".", code="contradiction")
        if floor is not None and ceiling is not None and floor > ceiling:
            raise RequestError(f"The request asks for at least {_counted(floor, what)} and at most "
                               f"{_counted(ceiling, what)}; give a floor at or under the ceiling.",
                               code="contradiction")


def _ceilings(req: TrainingRequest, policy: PolicyConfig) -> dict[str, str]:
    """The request's ceilings and floors by field, as the trace states them; empty when it set none."""
    said = {}
    if req.max_gpus is not None:
        said["max_gpus"] = f"at most {_counted(req.max_gpus, 'accelerator')}"
    if req.min_gpus is not None:
        said["min_gpus"] = f"at least {_counted(req.min_gpus, 'accelerator')}"
    if req.min_instances is not None:
        said["min_instances"] = f"at least {_counted(req.min_instances, 'instance')}"
    if req.max_instances is not None:
        said["max_instances"] = f"at most {_counted(req.max_instances, 'instance')}"
        if policy.max_instances < req.max_instances:
            said["max_instances"] += f" (the policy's max_instances, {policy.max_instances}, is lower and holds)"
    return said


def _counts_allowed(req: TrainingRequest, policy: PolicyConfig) -> dict[str, str]:
    """What the request allows of instance counts, by field, as the trace states it: its ceilings and an exact
    instance count ("on 4 nodes")."""
    said = _ceilings(req, policy)
    if req.instances is not None:
        said["instances"] = f"exactly {_counted(req.instances, 'instance')}"
    return said


def _counted(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _regions_to_search(original: TrainingRequest, req: TrainingRequest, *, catalog: Catalog, policy: PolicyConfig,
                       team: TeamPolicy) -> list[str]:
    """The request's region when it names one; otherwise every region the team can launch in (all the policy's when
    it has no launch profile yet; one with buckets, a role or subnets: its ``launch.regions``, else the default
    region, since a job must run where its buckets and subnets are), the default first. Prices differ by region by
    a third or more."""
    if original.region is not None or original.keep_with_data or req.region is None:
        return [req.region] if req.region is not None else []
    launch = team.launch
    bound = any((launch.role_arn, launch.s3_input, launch.s3_output, launch.s3_checkpoints, launch.vpc))
    # regions named ("in us-east-2 or us-west-2") are searched each, as a region named alone is, whatever the profile
    launchable = req.regions or launch.regions or ([req.region] if bound else policy.regions)
    priced = set(catalog.regions())
    others = [r for r in launchable if r in priced and r in policy.regions and r != req.region
              and r not in req.exclude_regions]
    if req.area is not None:  # "in europe": the area's regions only
        others = in_area(others, req.area)
    return [req.region, *others]


def _screen_regions(req: TrainingRequest, regions: list[str], *, work: Workload, catalog: Catalog,
                    policy: PolicyConfig, team: TeamPolicy) -> Screen:
    """One screen over every region searched: their candidates side by side."""
    merged: Screen | None = None
    for region in regions:
        try:
            one = screen(req, work=work, catalog=catalog, policy=policy, team=team, region=region)
        except RequestError:
            if region == req.region:
                raise
            continue  # a hint (an instance type) not sold in that region: the others still count
        if merged is None:
            merged = one
            continue
        merged.inside += one.inside
        merged.outside += one.outside
        for name, why in one.ruled_out.items():
            merged.ruled_out.setdefault(name, why)
    assert merged is not None
    return merged


def _settle_region(req: TrainingRequest, assumed: list[str], regions: list[str],
                   chosen: Option) -> tuple[TrainingRequest, list[str]]:
    """The request in the region chosen, and its assumption saying which regions were searched."""
    region = chosen.profile.price.region
    if len(regions) <= 1:
        return req, assumed
    among = f"the policy's regions in {area_label(req.area)}" if req.area else "the policy's regions"
    said = f"region: searched {', '.join(regions)} ({among}); {region} is the best per run"
    notes = [said if n.startswith("region: ") and "assumed" in n else n for n in assumed]
    return req.model_copy(update={"region": region}), notes


HOURS_PER_YEAR = 8766.0  # 365.25 days
# A century: a configuration slower than this is no plan, and its finish date would fall outside the calendar
HORIZON_HOURS = 100 * HOURS_PER_YEAR


def _within_runtime(inside: list[Option], outside: list[Option],
                    policy: PolicyConfig) -> tuple[list[Option], list[Option], bool]:
    """Drop options whose jobs run longer than max_runtime_hours (the guardrails deny them), unless none is left
    inside or outside the size class (one pool: the class is only a preference); and whether any fits."""
    cap = policy.max_runtime_hours
    # hours a millihour or more under the cap are under it once billed too: only those near it are rounded
    sure = cap - MIN_BILLED_HOURS
    inside_fit, outside_fit = ([o for o in pool if o.wall_hours / o.layout.rounds <= sure
                                or billed_hours(o.job_wall_hours) <= cap] for pool in (inside, outside))
    if inside_fit or outside_fit:
        return inside_fit, outside_fit, True
    if not inside and not outside:
        return inside, outside, False  # nothing runs at all: the caller says why
    # Nothing fits: the fastest is shown, denied, beside the others, except those that would outrun the calendar
    inside_ran, outside_ran = ([o for o in pool if o.start_hours + o.wall_hours <= HORIZON_HOURS]
                               for pool in (inside, outside))
    if not inside_ran and not outside_ran:
        years = min(o.start_hours + o.wall_hours for o in [*inside, *outside]) / HOURS_PER_YEAR
        raise RequestError(f"The fastest configuration the policy allows would run for {years:,.0f} years: check the "
                           "model size and the tokens, or split the work.", code="no_configuration")
    return inside_ran, outside_ran, False


def gpu_hours(option: Option) -> float:
    """The accelerator-hours ``option`` keeps busy: its instance-hours, over every instance and run, times the
    accelerators each instance holds."""
    return option.instance_hours * option.profile.spec.accelerator_count


def hourly_usd(option: Option) -> float:
    """What ``option``'s instances cost together an hour."""
    return option.count * option.rate.usd


def usd_per_gpu_hour(option: Option) -> float:
    """What one of ``option``'s accelerators costs an hour: its instance's rate over the accelerators it holds."""
    return option.rate.usd / option.profile.spec.accelerator_count


def _within_limit(inside: list[Option], outside: list[Option], *, measure: Callable[[Option], float], limit: float,
                  refusal: Callable[[Option], str]) -> tuple[list[Option], list[Option]]:
    """The options whose ``measure`` is at most ``limit``; none within it is refused with ``refusal`` of the option
    nearest to it. Nothing to measure (no configuration runs at all) is left for the caller to explain."""
    inside_kept, outside_kept = ([o for o in pool if measure(o) <= limit] for pool in (inside, outside))
    if inside_kept or outside_kept or (not inside and not outside):
        return inside_kept, outside_kept
    raise RequestError(refusal(min([*inside, *outside], key=measure)), code="no_configuration")


def _within_allowances(inside: list[Option], outside: list[Option], req: TrainingRequest, *,
                       tokens_said: bool = True) -> tuple[list[Option], list[Option]]:
    """The options within the request's allowance of accelerator-hours and under its hourly ceilings (the plan's
    and one accelerator's). ``tokens_said``: whether the request said its tokens (a refusal says when they were
    assumed, the likeliest reason a small allowance is short)."""
    job = "this job" if tokens_said or req.tokens is None else \
        f"this job ({format_count(req.tokens)} tokens assumed: say how many it trains on)"
    if (allowance := req.max_gpu_hours) is not None:
        inside, outside = _within_limit(inside, outside, measure=gpu_hours, limit=allowance, refusal=lambda o: (
            f"No allowed configuration runs {job} within {allowance:,} accelerator-hours: the fewest it takes is "
            f"~{gpu_hours(o):,.0f} ({o.count}× {o.profile.spec.instance_type}). Raise the allowance, or make the job "
            "smaller: fewer tokens, LoRA/QLoRA or a shorter sequence."))
    if (ceiling := req.max_hourly_usd) is not None:
        inside, outside = _within_limit(inside, outside, measure=hourly_usd, limit=ceiling, refusal=lambda o: (
            f"No allowed configuration runs this job for at most ${ceiling:,.2f} an hour: the lowest rate is "
            f"${hourly_usd(o):,.2f} an hour ({o.count}× {o.profile.spec.instance_type} {o.purchase.value}). Raise the "
            "ceiling, or make the job smaller: LoRA/QLoRA or a shorter sequence."))
    if (per_gpu := req.max_usd_per_gpu_hour) is not None:
        inside, outside = _within_limit(inside, outside, measure=usd_per_gpu_hour, limit=per_gpu, refusal=lambda o: (
            f"No allowed configuration runs this job for at most ${per_gpu:,.2f} per accelerator-hour: the lowest is "
            f"${usd_per_gpu_hour(o):,.2f} ({o.profile.spec.instance_type} {o.purchase.value} on "
            f"{o.platform.value}, ${o.rate.usd:,.2f} an hour for {o.profile.spec.accelerator_count} "
            f"{o.profile.accel.name}). Raise the ceiling, or leave the purchase model to gpuops (spot is cheaper)."))
    return inside, outside


def _check_deadline(req: TrainingRequest, now: datetime) -> None:
    if req.deadline is not None and hours_between(now, req.deadline) <= 0:
        raise RequestError(f"The deadline {req.deadline:%a %Y-%m-%d %H:%M} has already passed; give a future one, "
                           "e.g. 'by Friday' or 'in 3 days'.", code="deadline_in_past")
    if req.deadline is not None and req.start_after is not None and req.deadline <= req.start_after:
        raise RequestError(f"The deadline {req.deadline:%a %Y-%m-%d %H:%M} comes before the start "
                           f"{req.start_after:%a %Y-%m-%d %H:%M}; give a deadline after the start or an earlier "
                           "start.", code="deadline_before_start")


def _usable_hours(req: TrainingRequest, now: datetime, policy: PolicyConfig) -> float | None:
    """Hours to the deadline less the stage's safety margin (none for a deadline that is a wish), the margin taken
    from the time the job has: from its start when that is ahead ("can't start before Friday 9am, due Friday 6pm"
    had a tenth of the four days to Friday taken from its nine hours, and was planned on 16 instances)."""
    if req.deadline is None:
        return None
    assert req.stage is not None
    margin = 0.0 if req.deadline_wish else policy.deadline_safety_margin.get(req.stage, 0.0)
    waited = max(0.0, hours_between(now, req.start_after)) if req.start_after is not None else 0.0
    return waited + (hours_between(now, req.deadline) - waited) * (1.0 - margin)


def _plan(option: Option, ctx: _Context) -> Plan:
    return to_plan(option, now=ctx.now, deadline=ctx.request.deadline, settings=ctx.policy.estimate,
                   max_runtime_hours=_runtime_cap(option, ctx), transfer_basis=_transfer_basis(ctx),
                   fp8=bool(ctx.request.fp8))


MIN_RUNTIME_HOURS = 1 / 60


def _runtime_cap(option: Option, ctx: _Context) -> float:
    """The policy's runtime cap, lowered for a request with a hard stop ("stop it if it costs more than $150") to the
    hours each job's instances can run at the plan's price before the whole launch bills that much."""
    stops = [s for s in (ctx.request.stop_at_usd, ctx.request.launch_below_usd) if s is not None]
    if not stops:
        return ctx.policy.max_runtime_hours
    stop = min(stops)
    instances = option.layout.jobs * option.layout.job_instances
    hours = (stop - option.transfer_usd) / (instances * option.rate.usd)
    # a platform takes no runtime cap under a minute; a stop below that (or below moving the data) is warned of
    return max(MIN_RUNTIME_HOURS, min(ctx.policy.max_runtime_hours, hours))


def _transfer_basis(ctx: _Context) -> str | None:
    """The transfer line's basis when the request said where the data is or how big (else the policy's own)."""
    req = ctx.request
    if req.data_region is None and req.dataset_bytes is None:
        return None
    return transfer_line_basis(ctx.policy.estimate, region_said=req.data_region, dataset_bytes=req.dataset_bytes)


def _named_choices(request: TrainingRequest, choice: Choice, catalog: Catalog,
                   policy: PolicyConfig) -> list[tuple[str, Option]]:
    """For hardware named to choose among ("compare p5 vs p4d", "H100 or A100"), the best configuration of each piece
    the plan is not on, chosen as the plan is, labelled "on p4d": the comparison the person asked for."""
    out = []
    for said in request.hardware_choice:
        types = types_named(said, catalog)
        if choice.option.profile.spec.instance_type in types:
            continue  # the plan is this one's best
        best = choose([o for o in choice.pool if o.profile.spec.instance_type in types], [],
                      penalty=policy.estimate.size_class_penalty)
        if best is not None:
            out.append((f"on {said}", best.option))
    return out


def _compared_choices(elsewhere: list[Option], policy: PolicyConfig) -> list[tuple[str, Option]]:
    """For platforms named to compare ("SageMaker vs EKS"), the best configuration on each, chosen as the plan is,
    labelled "on EKS"."""
    out = []
    for platform in dict.fromkeys(o.platform for o in elsewhere):
        best = choose([o for o in elsewhere if o.platform is platform], [], penalty=policy.estimate.size_class_penalty)
        if best is not None:
            out.append((f"on {PLATFORM_NAMES[platform]}", best.option))
    return out


def _alternative(label: str, option: Option, ctx: _Context) -> Alternative:
    alternative = to_alternative(option, label, now=ctx.now, deadline=ctx.request.deadline,
                                 transfer_basis=_transfer_basis(ctx), fp8=bool(ctx.request.fp8),
                                 settings=ctx.policy.estimate, max_runtime_hours=_runtime_cap(option, ctx))
    if option.meets is not False:
        return alternative
    # ``meets`` is judged against the deadline less the stage's safety margin: say which of the two it misses.
    suffix = " (misses the deadline)" if alternative.deadline_met is False else " (inside the deadline's safety margin)"
    return alternative.model_copy(update={"label": label + suffix})


def _naive(search: Search, ctx: _Context) -> Plan | None:
    """The naive choice (p5.48xlarge on-demand on SageMaker), enough instances to hold the job."""
    assert ctx.request.region is not None
    name = ctx.policy.estimate.naive_instance_type
    price = search.catalog.price(name, ctx.request.region)
    if price is None:
        return None
    prof = profile(price, catalog=search.catalog, work=search.work, settings=search.settings, outside=True)
    if isinstance(prof, str):
        return None
    option = fixed_option(prof, search, count=prof.min_count, purchase=PurchaseModel.ON_DEMAND,
                          platform=Platform.SAGEMAKER)
    return None if option is None else _plan(option, ctx)


def _purchase_source(req: TrainingRequest, option: Option) -> str:
    assert req.stage is not None and req.interruption_tolerance is not None
    _, _, source = purchase_models(stage=req.stage, tolerance=req.interruption_tolerance,
                                   has_deadline=req.deadline is not None, instances=option.count,
                                   multi_node_spot=True)
    return source


def _price_assumptions(option: Option, catalog: Catalog) -> list[str]:
    if not option.rate.estimated_premium:
        return []
    premium = catalog.sagemaker_premium
    return [f"SageMaker price estimated as EC2 + {premium.fraction:.0%} ({premium.source})"]


def _spend_used(spend: SpendSnapshot, ctx: _Context) -> SpendSnapshot:
    """The spend the decision used: team and budget filled in, an old 'ok' figure marked stale."""
    status, reason = spend_status(spend, policy=ctx.policy, now=ctx.now)
    budget = spend.budget_usd if spend.budget_usd is not None else ctx.team.monthly_budget_usd
    return spend.model_copy(update={"status": status, "reason": reason, "budget_usd": budget,
                                    "team": spend.team or ctx.team_name})


# A launch that may bill this many times its estimate on more instances than the model needs is hardware out of
# proportion to the work ("fine-tune 7B on 1K tokens with 128 H100": minutes of work holding 16 instances).
OVERSIZED_EXPOSURE_RATIO = 10.0


def _oversized(option: Option, plan: Plan, startup_minutes: float) -> str | None:
    """Why the plan's hardware is absurd for its work, or None: more instances than the model needs, and either a
    runtime cap far above the estimate or less time training than starting up."""
    needed = option.profile.min_count
    if option.layout.job_instances <= needed:
        return None
    training = option.compute_hours * 60
    idle = training < startup_minutes
    if not idle and plan.exposure_usd < OVERSIZED_EXPOSURE_RATIO * plan.estimated_cost_usd:
        return None
    work = "under a minute" if training < 1 else f"{training:,.0f} min"
    ratio = plan.exposure_usd / max(plan.estimated_cost_usd, 0.01)
    start = f" after {startup_minutes:g} min of start-up" if idle else ""
    return (f"{option.layout.job_instances}× {plan.instance_type} for {work} of training{start} may bill "
            f"${plan.exposure_usd:,.2f} before its runtime cap, {ratio:,.1f}× the estimate; {needed}× would hold "
            "the model")


# An earlier run said to have done the work in a length this far from the estimate's, either way, is worth a look.
EARLIER_RUN_GAP = 2.0


def _earlier_run_warning(req: TrainingRequest, work: Workload, catalog: Catalog) -> list[str]:
    """ "last time it took 4 hours on 8 A100s": the work that run did at the catalog's peak and MFU for its part, set
    beside the work this plan is estimated from. Twofold apart or more, either the work differs or the estimate's
    throughput is off for this job, and a person should know which before approving."""
    if req.earlier_gpu_hours is not None and req.earlier_accelerator is not None:
        hours, on, said = req.earlier_gpu_hours, req.earlier_accelerator, "an earlier run is said to have taken"
    elif req.work_gpu_hours is not None and req.work_accelerator is not None and req.fixed_hours is None:
        # "fine-tune 7B on 500M tokens, it took about 300 A100-hours": the size and tokens make the estimate
        hours, on, said = req.work_gpu_hours, req.work_accelerator, "the work is said to take"
    else:
        return []
    accel = catalog.accelerators.get(on)
    if accel is None or not accel.peak_bf16_tflops or not accel.mfu or work.flops <= 0:
        return []
    estimated = work.flops / (req.trials or 1) / accelerator_hour_flops(peak_tflops=accel.peak_bf16_tflops,
                                                                          mfu=accel.mfu)
    ratio = estimated / hours
    if 1 / EARLIER_RUN_GAP < ratio < EARLIER_RUN_GAP:
        return []
    unit = f"{accel.name}-hours"
    share = f"{ratio:.1f}×" if ratio > 1 else f"{ratio:.0%} of"
    return [f"{said} {hours:,.4g} {unit}; this plan's work is ~"
            f"{estimated:,.3g} {unit} at {accel.mfu:.0%} MFU, {share} that: if it is the same work, the estimate is "
            f"{'high' if ratio > 1 else 'low'} (finished jobs calibrate it), else the work said differs"]


# What the runtime cap may bill above a stated budget before it is said: a cent over is rounding, not exposure.
BUDGET_EXPOSURE_MARGIN_USD = 0.01


def _warnings(choice: Choice, plan: Plan, ctx: _Context, scr: Screen, oversized: str | None) -> list[str]:
    warnings: list[str] = []
    req = ctx.request
    if choice.fallback and scr.size_class is not None:
        warnings.append(_outside_class_warning(choice, plan, scr, ctx.request))
    data_region = req.data_region or ctx.team.data_region
    whose = "the data" if req.data_region else "the team's data"
    if req.data_region and ctx.team.data_region and req.data_region != ctx.team.data_region:
        # said by the request, not the policy: what an approver takes on trust is named
        warnings.append(f"the data is said to be in {req.data_region}, not in the team's data region, "
                        f"{ctx.team.data_region} (teams.{ctx.team_name}.data_region): no move out of "
                        f"{ctx.team.data_region} is priced")
    if data_region is not None and plan.region != data_region:
        # "EU data residency" with the team's data outside the EU: the data may live there already, which only
        # the person knows
        kept = "" if req.data_region or not req.area or in_area([data_region], req.area) else (
            f"; the request keeps the work in {area_label(req.area)}, so its data may live there already: say where "
            f"(\"data in {plan.region}\") and no copy out of {data_region} is priced")
        warnings.append(f"runs in {plan.region}, away from {whose} in {data_region}: the dataset is copied "
                        "across regions first (a transfer line in the cost) and checkpoints and outputs land in "
                        f"{plan.region} unless written back{kept}")
    if choice.late and req.deadline is not None:
        warnings.append(_late_warning(plan, req, ctx.policy, choice))
    if plan.purchase_model is PurchaseModel.SPOT and choice.option.layout.job_instances > 1:
        warnings.append(f"multi-node spot ({plan.instance_count} instances): one interruption stops the whole "
                        f"synchronous job; expect restarts ({rules.SPOT_SINGLE_NODE})")
    if req.budget_usd is not None and plan.estimated_cost_usd > req.budget_usd:
        warnings.append(_budget_warning(choice, plan, req.budget_usd))
    elif req.budget_usd is not None and plan.exposure_usd >= req.budget_usd + BUDGET_EXPOSURE_MARGIN_USD:
        # the estimate fits, but what an approval lets the launch bill does not: a budget is no stop unless said
        warnings.append(f"the estimate, ${plan.estimated_cost_usd:,.2f}, is within the ${req.budget_usd:,.2f} budget, "
                        f"but the launch may bill up to ${plan.exposure_usd:,.2f} before its runtime cap stops it, "
                        f"should it run slower than estimated: say 'hard cap ${req.budget_usd:,.0f}' to stop it at "
                        "the budget, whatever it has left to do")
    if req.stop_at_usd is not None and plan.estimated_cost_usd > req.stop_at_usd:
        warnings.append(f"the run is estimated at ${plan.estimated_cost_usd:,.2f}, more than the "
                        f"${req.stop_at_usd:,.2f} it is to be stopped at: the runtime cap stops it after "
                        f"{plan.max_runtime_hours:,.2f} h, before it finishes; raise the stop or ask for less work")
    if (undertrained := _undertrained_warning(req, ctx.policy)) is not None:
        warnings.append(undertrained)
    if plan.context_parallel > 1:  # the memory holds only if the job's script does its share
        warnings.append(f"each {req.seq_len:,}-token sequence is split across {plan.context_parallel} accelerators of "
                        "an instance (context parallelism): the job's script must shard sequences "
                        "(GPUOPS_CONTEXT_PARALLEL), or it runs out of memory")
    if oversized is not None:
        warnings.append(f"hardware out of proportion to the work: {oversized}")
    if (idle := _idle_warning(req, plan)) is not None:
        warnings.append(idle)
    if req.reserved:
        warnings.insert(0, "held capacity " + fixed.fit_verdict(choice.option, request=req,
                                                                deadline_met=plan.deadline_met))
    missing = ctx.team.launch_missing()
    if missing:
        warnings.append(f"launch is not configured for team {ctx.team_name}: missing {', '.join(missing)}")
    return warnings


def _idle_warning(req: TrainingRequest, plan: Plan) -> str | None:
    """An exact count the sweep's trials cannot fill ("3 trials on 8 instances"): the plan runs what they use, and
    says how many of those asked would have had nothing to run."""
    if req.gpus is not None and plan.accelerators < req.gpus:
        asked, used, unit = req.gpus, plan.accelerators, "accelerators"
    elif req.gpus is None and req.instances is not None and plan.instance_count < req.instances:
        asked, used, unit = req.instances, plan.instance_count, "instances"
    else:
        return None
    per_job = plan.instances_per_job
    return (f"{asked} {unit} asked, {used} used: {plan.jobs} trials, each a job of {per_job} instance"
            f"{'' if per_job == 1 else 's'}, leave {asked - used} with nothing to run, so they are not launched")


# Below this share of the plan's cost, what the named hardware costs is not worth a line.
NAMED_HARDWARE_MIN_SAVING = 0.10


def _named(request: TrainingRequest) -> str:
    """The hardware the request named: "4× p5.48xlarge", "32× A100", "2 A100 instances", "16 GPUs", "trn1"."""
    hardware = request.instance_type or request.accelerator or " or ".join(request.hardware_choice)
    count = request.instances or request.gpus
    if request.instances and not request.instance_type and hardware:
        return _counted(request.instances, f"{hardware} instance")  # "1× A100" would read as one accelerator
    if count and hardware:
        return f"{count}× {hardware}"
    if count:
        return _counted(count, "instance" if request.instances else "GPU")
    return str(hardware)


# What a request names of hardware, all left open: the plan's own choice to compare with
_HARDWARE_OPEN: dict[str, object] = {**dict.fromkeys(HARDWARE_FIELDS),
                                     "hardware_choice": []}
# The refusals of named hardware that cannot run the job: a request that only preferred it is planned left open.
_CANNOT_RUN = frozenset({"no_matching_instance", "no_configuration", "does_not_fit", "platform_not_allowed"})
# The refusals of a region itself: only a region that was a preference ("in eu-central-1 if possible") gives way.
_REGION_WHY = {"region_not_allowed": "the policy does not allow it",
               "unknown_region": "the catalog has no prices there"}
_REGION_REFUSED = frozenset(_REGION_WHY)
_SENTENCE_END_RE = compiled_on_use(r"(?<=\.)\s+(?=[A-Z])")


def _preference_left_open(request: TrainingRequest, refused: RequestError) -> TrainingRequest | None:
    """``request`` with its hardware (or region) left open, when that hardware or region was a preference ("trn1 if
    possible", "prefer us-west-2") and ``refused`` says it cannot run the job; None when the refusal stands. The
    hardware is left open first: a preferred region may run the job on other hardware."""
    if refused.code not in _CANNOT_RUN | _REGION_REFUSED:
        return None
    why = _SENTENCE_END_RE.split(refused.message, maxsplit=1)[0].rstrip(".")  # the reason, not the advice after it
    head, bracket, detail = why.partition(" (")
    if bracket and detail.endswith(")"):  # the detail is the reason: said outright, not as an aside a summary drops
        why = f"{head}: {detail[:-1]}"
    why = f"{why[:1].lower()}{why[1:]}"
    if refused.code == "platform_not_allowed":
        if not (request.platform_preferred and request.platform):
            return None
        # the refusal's reason without its advice, in brackets: Slack shows the clause before them
        note = f"the platform preferred, {request.platform.value}, is left to the policy ({head[:1].lower()}{head[1:]})"
        return request.model_copy(update={"platform": None, "platform_preferred": None,
                                          "notes": [*request.notes, note]})
    if refused.code in _REGION_REFUSED:
        if not (request.region_preferred and request.region):
            return None
        note = f"the region preferred, {request.region}, is left open: {_REGION_WHY[refused.code]}"
        return request.model_copy(update={"region": None, "region_preferred": None,
                                          "notes": [*request.notes, note]})
    if request.hardware_preferred and (request.hardware_named() or request.hardware_choice):
        note = f"the hardware preferred, {_named(request)}, is left open: {why}"
        return request.model_copy(update={**_HARDWARE_OPEN, "hardware_preferred": None,
                                          "notes": [*request.notes, note]})
    if request.region_preferred and request.region:
        note = f"the region preferred, {request.region}, is left open: {why}"
        return request.model_copy(update={"region": None, "region_preferred": None,
                                          "notes": [*request.notes, note]})
    return None


def _count_rounded_up(request: TrainingRequest, refused: RequestError, catalog: Catalog,
                      policy: PolicyConfig) -> TrainingRequest | None:
    """``request`` with its exact count of the hardware it names raised to the next count its instances make, when
    ``refused`` is for want of a configuration, no size of that hardware makes the count ("4 A100s": A100 instances
    come with 8) and the next count is at most ``COUNT_ROUNDED_UP_MAX`` times it; a note says so. None otherwise."""
    named = request.instance_type or request.accelerator
    if refused.code != "no_configuration" or request.gpus is None or named is None or request.min_gpus is not None:
        return None
    sizes = sorted({catalog.instances[t].accelerator_count for t in types_named(named, catalog)})
    low = policy.estimate.multi_node_min_accelerators
    if not sizes or any(request.gpus % size == 0 and (request.gpus == size or size >= low) for size in sizes):
        return None  # a size makes the count: the refusal is for another reason (memory, ceilings), and stands
    count = _next_count(sizes, request.gpus, low)
    if count is None or count > COUNT_ROUNDED_UP_MAX * request.gpus:
        return None  # "a single A100" is 8 of them: a person asks for that, or for the hardware left open
    each = " or ".join(map(str, sizes))
    unit = f"{named}s" if request.accelerator and not request.instance_type else f"accelerators on {named}"
    note = (f"planned on {count} {unit}, the fewest past the {request.gpus} asked that {named} instances make: they "
            f"come with {each} accelerators each")
    return request.model_copy(update={"gpus": count, "gpus_asked": request.gpus, "notes": [*request.notes, note]})


def _next_count(sizes: Sequence[int], gpus: int, low: int) -> int | None:
    """The fewest accelerators past ``gpus`` that one instance of ``sizes`` makes, or 2, 4 or 8 of one that may go
    multi-node (``low`` accelerators or more); None when none does."""
    return min((size * n for size in sizes for n in (1, 2, 4, 8) if size * n > gpus and (n == 1 or size >= low)),
               default=None)


def _raised(req: TrainingRequest, plan: Plan) -> str | None:
    """The count asked and the larger one planned, when the request's count was raised (``_count_rounded_up``)."""
    if req.gpus_asked is None or plan.accelerators <= req.gpus_asked:
        return None
    return f"{req.gpus_asked} accelerators asked, {plan.accelerators} planned"


# An exact count no instance makes is planned on the next count that one does, up to this many times the count asked
# ("4 A100s": 8); past it ("a single A100": 8) the count is refused with the next one named.
COUNT_ROUNDED_UP_MAX = 2


def _preference_priced_out(request: TrainingRequest, plan: Plan,
                           plan_for: Callable[[TrainingRequest], Plan | None]) -> TrainingRequest | None:
    """``request`` with its preferred hardware left open, when it has a premium allowed ("A100s if not much more
    expensive") and ``plan``, on that hardware, costs more than that over the plan with it left open; None otherwise."""
    premium = request.hardware_premium_max
    if premium is None or not request.hardware_preferred or not (request.hardware_named() or request.hardware_choice):
        return None
    opened = request.model_copy(update={**_HARDWARE_OPEN, "hardware_preferred": None, "hardware_premium_max": None})
    other = plan_for(opened)
    if other is None or plan.estimated_cost_usd <= cents(other.estimated_cost_usd * (1 + premium)):
        return None
    over = plan.estimated_cost_usd / other.estimated_cost_usd - 1 if other.estimated_cost_usd > 0 else math.inf
    note = (f"the hardware preferred, {_named(request)}, is left open: ~${plan.estimated_cost_usd:,.2f} on "
            f"{plan.instance_count}× {plan.instance_type} is {over:.0%} more than ~${other.estimated_cost_usd:,.2f} "
            f"with it open, past the {premium:.0%} allowed")
    return opened.model_copy(update={"notes": [*opened.notes, note]})


def _region_priced_out(request: TrainingRequest, plan: Plan,
                       plan_for: Callable[[TrainingRequest], Plan | None]) -> TrainingRequest | None:
    """``request`` planned where its price condition allows instead of its preferred region ("prefer eu-west-1, but
    the US is fine if much cheaper"), when ``plan``, in the preferred region, costs more than the premium allowed over
    the plan there; None otherwise. The fallback keeps to the area the condition names, else any region the team can
    launch in."""
    premium = request.region_premium_max
    if premium is None or not (request.region_preferred and request.region):
        return None
    opened = request.model_copy(update={"region": None, "region_preferred": None, "region_premium_max": None,
                                        "region_fallback_area": None, "area": request.region_fallback_area})
    other = plan_for(opened)
    if other is None or other.region == plan.region or plan.estimated_cost_usd <= cents(
            other.estimated_cost_usd * (1 + premium)):
        return None
    saving, allowed = 1 - other.estimated_cost_usd / plan.estimated_cost_usd, 1 - 1 / (1 + premium)
    note = (f"the region preferred, {request.region}, gives way to {other.region}: ~${other.estimated_cost_usd:,.2f} "
            f"there is {saving:.0%} less than ~${plan.estimated_cost_usd:,.2f} in {request.region}, over the "
            f"{allowed:.0%} the request's condition asks")
    return opened.model_copy(update={"notes": [*opened.notes, note]})


def _named_hardware_warning(request: TrainingRequest, plan: Plan, other: Plan) -> str | None:
    """What keeping to the hardware the request named (a type, family, accelerator or count) costs: ``other``, the
    plan chosen with the hardware left open, when it is another configuration and at least
    ``NAMED_HARDWARE_MIN_SAVING`` cheaper. The open plan meets any deadline the named one meets: it is chosen from
    the same options and more."""
    if (other.instance_type, other.instance_count) == (plan.instance_type, plan.instance_count):
        return None
    kept = f"{_named(request)} as asked" if request.gpus_asked is None else \
        f"{_named(request)}, the fewest past the {request.gpus_asked} asked,"  # "8× A100, the fewest past the 4 asked,"
    return _what_keeping_costs(plan, other, kept=kept, instead="left open,")


# A stated length this many times the training estimate, or under this share of it, is worth an approver's look.
LENGTH_OVER_ESTIMATE = 1.5
LENGTH_UNDER_ESTIMATE = 0.9


def _stated_length_warning(request: TrainingRequest, plan: Plan, trained: Plan) -> str | None:
    """How the length asked for compares with what training the work said is estimated to take on the same hardware
    (``trained``): far longer pays for hours the work does not need, shorter stops before it is done."""
    if (trained.instance_type, trained.instance_count) != (plan.instance_type, plan.instance_count):
        return None  # the estimate chose other hardware: the comparison would not be of the same thing
    assert request.fixed_hours is not None and request.tokens is not None and request.params is not None
    asked, estimate = request.fixed_hours, trained.estimated_hours
    work = (f"training {format_count(request.tokens)} tokens of a {format_count(request.params)}-parameter model on "
            f"{plan.instance_count}× {plan.instance_type}")
    if asked >= LENGTH_OVER_ESTIMATE * estimate:
        return (f"the {asked:,.0f} h asked for is {asked / estimate:.1f}× the ~{estimate:,.1f} h gpuops estimates "
                f"{work} takes (~${trained.estimated_cost_usd:,.2f} as a training run, against "
                f"~${plan.estimated_cost_usd:,.2f} for the hours asked): check the length, or what else the job does")
    if asked <= LENGTH_UNDER_ESTIMATE * estimate:
        return (f"gpuops estimates {work} takes ~{estimate:,.1f} h: a job of {asked:,.0f} h stops at about "
                f"{asked / estimate:.0%} of the work unless it runs faster than estimated")
    return None


_RATE_CEILING_FIELDS = ("max_hourly_usd", "max_usd_per_gpu_hour")


def _rate_ceilings(request: TrainingRequest) -> str:
    """The request's ceilings on a rate, in words ("$1.50 per accelerator-hour"); empty when it has none."""
    said = []
    if request.max_hourly_usd is not None:
        said.append(f"${request.max_hourly_usd:,.2f} an hour")
    if request.max_usd_per_gpu_hour is not None:
        said.append(f"${request.max_usd_per_gpu_hour:,.2f} per accelerator-hour")
    return " and ".join(said)


def _preferred_region_warning(plan: Plan, other: Plan, *, where_data: bool = False) -> str | None:
    """What keeping to the preferred region costs: ``other``, the plan chosen in any region the team can launch in
    (with any copy of the data priced), when it lies elsewhere and is at least ``NAMED_HARDWARE_MIN_SAVING`` cheaper.
    ``where_data``: the region preferred is where the request said its data is."""
    if other.region == plan.region:
        return None
    kept = f"{plan.region}, where the data is," if where_data else f"{plan.region}, the region preferred,"
    instead = f"in {other.region}" + (" with the data copied there" if where_data else "")
    return _what_keeping_costs(plan, other, kept=kept, instead=instead)


def _what_keeping_costs(plan: Plan, other: Plan, *, kept: str, instead: str) -> str | None:
    """'``kept`` costs ~$X; ``instead`` the plan would be …, N% less, in H h', when ``other`` is at least
    ``NAMED_HARDWARE_MIN_SAVING`` cheaper than ``plan``; None otherwise."""
    saving = plan.estimated_cost_usd - other.estimated_cost_usd
    if saving < NAMED_HARDWARE_MIN_SAVING * plan.estimated_cost_usd:
        return None
    ours, theirs = f"{plan.estimated_hours:,.1f}", f"{other.estimated_hours:,.1f}"
    hours = f"in the same {ours} h" if ours == theirs else f"in {theirs} h instead of {ours} h"
    return (f"{kept} costs ~${plan.estimated_cost_usd:,.2f}; {instead} the plan would be "
            f"{other.instance_count}× {other.instance_type} {other.purchase_model.value} at "
            f"~${other.estimated_cost_usd:,.2f}, {saving / plan.estimated_cost_usd:.0%} less, {hours}")


def _outside_class_warning(choice: Choice, plan: Plan, scr: Screen, req: TrainingRequest) -> str:
    assert scr.size_class is not None
    cls = f"the {scr.size_class.name} size class ({', '.join(scr.size_class.families)})"
    inside = [o for o in choice.pool if not o.profile.outside_class and o.meets is not False]
    if not inside:  # what ruled the class out, of what there was to rule it out
        held = [*(["meets the deadline"] if req.deadline is not None else []), "fits the runtime cap",
                *(["stays within the request's limits"] if _limited(req) else [])]
        return f"nothing in {cls} {', '.join(held[:-1])}{' and ' if len(held) > 1 else ''}{held[-1]}; " \
            f"{plan.instance_type} is outside it"
    best = cheapest(inside)
    share = 1.0 - plan.estimated_cost_usd / best.cost if best.cost > 0 else 0.0
    why = (f"{share:.0%} cheaper per run than" if share > 0 else
           f"finishes in {plan.estimated_hours:,.1f} h, sooner than")
    return (f"{plan.instance_type} is outside {cls}: {why} the best inside it "
            f"({best.count}× {best.profile.spec.instance_type}, ~${best.cost:,.2f}, {best.wall_hours:,.1f} h)")


def _limited(req: TrainingRequest) -> bool:
    """Whether the request limits the configurations: counts, accelerator-hours or rates."""
    return any(v is not None for v in (req.max_gpus, req.max_instances, req.min_gpus, req.min_instances, req.gpus,
                                        req.instances, req.max_gpu_hours, req.max_hourly_usd, req.max_usd_per_gpu_hour))


def _late_warning(plan: Plan, req: TrainingRequest, policy: PolicyConfig, choice: Choice) -> str:
    assert req.deadline is not None and req.stage is not None and plan.deadline_margin_hours is not None
    when = f"{plan.estimated_finish.astimezone(req.deadline.tzinfo):%a %Y-%m-%d %H:%M}"
    if plan.deadline_margin_hours < 0:
        fastest = earliest(choice.pool)
        late = f"{-plan.deadline_margin_hours:,.1f} h late"
        if fastest.key == choice.option.key:
            return f"nothing meets the deadline: the fastest allowed plan finishes {when}, {late}"
        sooner = (choice.option.finish_hours - fastest.finish_hours) * 60
        return (f"nothing meets the deadline: this plan finishes {when}, {late}; the fastest allowed, "
                f"{fastest.count}× {fastest.profile.spec.instance_type} {fastest.purchase.value} at "
                f"~${fastest.cost:,.2f}, lands only {sooner:,.0f} min sooner: when every plan is late, the cheapest of "
                f"those finishing within {FINISH_SLACK:.0%} of the earliest is planned")
    margin = policy.deadline_safety_margin.get(req.stage, 0.0)
    return (f"nothing finishes with the {margin:.0%} safety margin: the fastest plan finishes {when}, only "
            f"{plan.deadline_margin_hours:,.1f} h before the deadline")


# Pretraining on fewer tokens than this share of the compute-optimal count per parameter is worth a word: the same
# compute trains a smaller model on more tokens to a lower loss (Hoffmann et al. 2022).
UNDERTRAINED_SHARE = 0.1


def _undertrained_warning(req: TrainingRequest, policy: PolicyConfig) -> str | None:
    """Pretraining far fewer tokens per parameter than compute-optimal ("the biggest model $30k trains on 20B
    tokens": 40B parameters on 0.5 tokens each), with the compute-optimal split of the same compute."""
    optimal = policy.defaults.pretrain_tokens_per_param
    if req.task is not Task.PRETRAIN or req.params is None or req.tokens is None or req.fixed_hours is not None:
        return None
    per_param = req.tokens / req.params
    if per_param >= optimal * UNDERTRAINED_SHARE:
        return None
    # the same compute, 6·N·D, split as D = optimal·N: N = sqrt(N·D / optimal)
    params = (req.params * req.tokens / optimal) ** 0.5
    return (f"{format_count(req.params)} parameters pretrained on {format_count(req.tokens)} tokens is "
            f"{per_param:.2g} tokens per parameter, far below the ~{optimal:g} of compute-optimal pretraining "
            f"(Hoffmann et al. 2022): the same compute trains a ~{format_count(round(params, -8))} model on "
            f"~{format_count(round(params * optimal, -9))} tokens to a lower loss")


@dataclass(frozen=True, slots=True)
class _SpotCeiling:
    """A spot plan at spot's ceiling, the on-demand rate of its type and platform (AWS never bills spot above it)."""

    rate_usd: float  # per instance-hour
    exposure_usd: float  # what the same runtime cap would allow at that rate (``Plan.capped_at_usd``)


def _spot_ceiling(option: Option, plan: Plan, catalog: Catalog) -> _SpotCeiling | None:
    """The plan at spot's ceiling; None for a plan not on spot, or whose spot rate is its ceiling already."""
    if plan.purchase_model is not PurchaseModel.SPOT or plan.on_offering:
        return None
    rate = hourly_rate(option.profile.price, purchase=PurchaseModel.ON_DEMAND, platform=option.platform,
                       premium=catalog.sagemaker_premium)
    if rate is None or rate.usd <= plan.price_per_instance_hour_usd:
        return None
    return _SpotCeiling(rate.usd, plan.capped_at_usd(rate.usd))


def _spot_stop_warning(plan: Plan, req: TrainingRequest, ceiling: _SpotCeiling | None) -> list[str]:
    """A hard stop on spot holds at the spot rate the runtime cap was worked out at; the market may move that rate,
    at most to the on-demand rate (spot's ceiling), and the same hours then bill more. Said with the bound, and the
    words for a stop that holds whatever the market does."""
    stops = [s for s in (req.stop_at_usd, req.launch_below_usd) if s is not None]
    if not stops or ceiling is None:
        return []
    return [f"on spot, the runtime cap holds the run to ${min(stops):,.2f} at the spot rate planned, "
            f"${plan.price_per_instance_hour_usd:,.2f}/instance-hour; spot prices move, as high as the on-demand "
            f"rate (${ceiling.rate_usd:,.2f}/instance-hour), at which the same {plan.max_runtime_hours:,.1f} h would "
            f"bill up to ${ceiling.exposure_usd:,.2f}: say 'no spot' for a stop that holds whatever the market does"]


def _budget_warning(choice: Choice, plan: Plan, budget: float) -> str:
    least = cheapest(choice.pool)
    short = [*(["misses the deadline"] if plan.deadline_met is False else []),
             *(["runs past the policy's max_runtime_hours"] if choice.over_runtime else [])]
    which = (f"the fastest plan, which still {' and '.join(short)}," if short
             else "the fastest plan" if choice.late and earliest(choice.pool).key == choice.option.key
             else f"a late plan, the cheapest finishing within {FINISH_SLACK:.0%} of the earliest," if choice.late
             else "the cheapest plan" if plan.deadline_met is None
             else "the cheapest plan that meets the deadline")
    text = f"nothing the policy allows fits the ${budget:,.0f} budget: {which} costs ${plan.estimated_cost_usd:,.2f}"
    if least.cost <= budget and (least.meets is False or choice.over_runtime):
        # the cheapest is left out for a reason of its own: say which, so the figures above do not contradict it
        why = (f"runs {least.wall_hours:,.0f} h, past the policy's max_runtime_hours" if choice.over_runtime
               else "misses the deadline")
        text += f"; {least.count}× {least.profile.spec.instance_type} would cost ~${least.cost:,.0f} but {why}"
    return text


def _nothing_runs(req: TrainingRequest, scr: Screen, policy: PolicyConfig) -> str:
    """Why no configuration runs the job, and what to change; an exclusion that ruled types out is named first."""
    if req.exclude and any(r.startswith("excluded by the request") for r in scr.ruled_out.values()):
        return (_nothing_runs_for(req, scr, policy).removesuffix(".")
                + f"; or allow some of the excluded hardware (the request excludes {', '.join(req.exclude)}).")
    return _nothing_runs_for(req, scr, policy)


def _over_max_instances(req: TrainingRequest, scr: Screen, policy: PolicyConfig) -> str | None:
    """ "on 256 H100s": a count that only more instances than the policy allows make, said as such; None otherwise."""
    assert req.gpus is not None
    cap, whose = _instance_cap(req, policy)
    low = policy.estimate.multi_node_min_accelerators
    sizes = {p.spec.accelerator_count: p.spec.instance_type for p in sorted(
        [*scr.inside, *scr.outside], key=lambda p: p.spec.instance_type)}
    counts = sorted((req.gpus // size, size, name) for size, name in sizes.items()
                    if size >= low and req.gpus % size == 0)
    if not counts or counts[0][0] <= cap:
        return None
    count, size, name = counts[0]
    unit = f"{req.accelerator}s" if req.accelerator else "accelerators"
    # the most the policy allows is on the largest size that may go multi-node, whatever divides the count asked
    big = max(s for s in sizes if s >= low)
    return (f"{req.gpus} {unit} is {count}× {name} ({size} each), more instances than {whose} allows ({cap}); ask "
            f"for at most {cap * big} {unit} ({cap} instances of {big}), or ask the platform team to raise "
            "max_instances.")


def _instance_cap(req: TrainingRequest, policy: PolicyConfig) -> tuple[int, str]:
    """The most instances a plan may have, and whose ceiling that is, as a refusal names it."""
    if req.max_instances and req.max_instances < policy.max_instances:
        return req.max_instances, "the request's ceiling"
    return policy.max_instances, "the policy's max_instances"


def _nothing_runs_for(req: TrainingRequest, scr: Screen, policy: PolicyConfig) -> str:
    ceilings = " and ".join(_ceilings(req, policy).values())
    within = f" with {ceilings}" if ceilings else ""
    if req.gpus is not None and (over := _over_max_instances(req, scr, policy)):
        return over
    if req.gpus is not None:
        sizes = sorted({p.spec.accelerator_count for p in [*scr.inside, *scr.outside]})
        accelerators = "1 accelerator" if req.gpus == 1 else f"{req.gpus} accelerators"
        asked = req.instance_type or req.accelerator
        kind = f"{asked} instances" if asked else "instances"
        # the next count one instance or several of a size that may go multi-node make, as a person would ask for it
        low = policy.estimate.multi_node_min_accelerators
        larger = _next_count(sizes, req.gpus, low)
        ask = f"Ask for {larger} {asked or 'GPU'}s" if larger else "Ask for another count"
        if not ceilings and (memory := _count_too_small(req.gpus, scr, low, asked)):
            return memory
        return (f"No allowed {asked or ''}{' ' if asked else ''}configuration in {req.region} has exactly "
                f"{accelerators}{within} and holds this job ({kind} come with {', '.join(map(str, sizes)) or 'none'} "
                f"each, multi-node only on sizes with {low} or more). {ask}, "
                + ("or leave the hardware open: other instances may hold it with that count." if asked else
                   "or leave the count open."))
    smallest = _smallest(scr, policy)
    low = policy.estimate.multi_node_min_accelerators
    if req.instances is not None:
        on = f"{req.instances}× {req.instance_type}" if req.instance_type else \
            f"exactly {_counted(req.instances, 'instance')}"
        cap, whose = _instance_cap(req, policy)
        if req.instances > cap:  # "on 1000 p5 instances": the count itself is what no configuration may have
            return (f"{on} is more instances than {whose} allows ({cap}); ask for at most {cap}, or ask the "
                    "platform team to raise max_instances.")
        needs = [f"{p.spec.instance_type} needs {p.min_count}" for p in sorted(
            [*scr.inside, *scr.outside], key=lambda p: p.spec.instance_type) if p.min_count > req.instances]
        if not smallest and needs:  # "on a single g6e.xlarge": none holds it on as many instances as said
            return (f"No allowed configuration in {req.region} holds this job on {on}{within}: its memory needs more "
                    f"instances ({', '.join(needs[:4])}), and multi-node runs only on sizes with {low} or more "
                    "accelerators. Try LoRA/QLoRA, a shorter sequence or other hardware.")
        return (f"No allowed configuration in {req.region} holds this job on {on}{within}{smallest}; multi-node "
                f"runs only on sizes with {policy.estimate.multi_node_min_accelerators} or more accelerators. Ask "
                "for another count, or leave it open.")
    if ceilings:
        return (f"No allowed configuration in {req.region} holds this job{within}{smallest}. Raise the ceiling, or "
                "make the job smaller: LoRA/QLoRA or a shorter sequence.")
    # hardware the request did not name says nothing about why what it named cannot run the job
    named = [(t, r) for t, r in sorted(scr.ruled_out.items()) if r != NOT_ASKED]
    named += [(p.spec.instance_type, f"memory: needs {p.min_count} instances, and multi-node runs only on sizes with "
               f"{low} or more accelerators") for p in [*scr.inside, *scr.outside]
              if p.min_count > 1 and p.spec.accelerator_count < low]
    reasons = "; ".join(f"{t}: {r}" for t, r in named[:6])
    asked = req.instance_type or req.accelerator
    return (f"No {asked or 'allowed'} configuration in {req.region} can run a {req.params:,}-parameter job"
            + (f" ({reasons})" if reasons else "") + ". Try LoRA/QLoRA, a shorter sequence"
            + (", other hardware or another region." if asked else " or another region."))


def _count_too_small(gpus: int, scr: Screen, low: int, asked: str | None) -> str | None:
    """ "on 4 A10Gs" where a type holds 4 but the job's memory needs more of them: the count is made, the memory is
    what refuses, so the refusal says that; None when no type makes the count at all."""
    shaped = [p for p in [*scr.inside, *scr.outside] if gpus % p.spec.accelerator_count == 0
              and (gpus == p.spec.accelerator_count or p.spec.accelerator_count >= low)]
    if not shaped:
        return None
    scaled = [p for p in shaped if p.min_count == 1 or p.spec.accelerator_count >= low]
    fewest = min(scaled or shaped, key=lambda p: (p.min_count * p.spec.accelerator_count, p.spec.instance_type))
    spec, plural = fewest.spec, "s" if gpus > 1 else ""
    unit = f"{asked or 'accelerator'}{plural}"
    need = fewest.min_count * spec.accelerator_count
    if need <= gpus:
        return None  # the count holds the job on some type: something else refuses it
    held = f"{gpus} {unit} ({gpus // spec.accelerator_count}× {spec.instance_type}) cannot hold this job: its " \
           "weights, optimizer state and activations need"
    smaller = "make the job smaller: LoRA/QLoRA or a shorter sequence."
    if not scaled:  # "on one GPU": single-accelerator sizes never go multi-node
        return (f"{held} {fewest.min_count}× {spec.instance_type}, and sizes with fewer than {low} accelerators do "
                f"not run multi-node. Ask for more accelerators, or {smaller}")
    return (f"{held} at least {need} ({fewest.min_count}× {spec.instance_type}). Ask for {need} "
            f"{asked or 'accelerator'}s, or {smaller}")


def _smallest(scr: Screen, policy: PolicyConfig) -> str:
    """The fewest accelerators, then instances, that hold the job among the types screened, as a clause; '' when
    none does."""
    runnable = [p for p in [*scr.inside, *scr.outside]
                if p.min_count == 1 or p.spec.accelerator_count >= policy.estimate.multi_node_min_accelerators]
    fewest = min(runnable, key=lambda p: (p.min_count * p.spec.accelerator_count, p.min_count, p.spec.instance_type),
                 default=None)
    if fewest is None:
        return ""
    return (f": the smallest that holds it is {fewest.min_count}× {fewest.spec.instance_type} "
            f"({fewest.min_count * fewest.spec.accelerator_count} accelerators)")
