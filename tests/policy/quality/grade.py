"""Grade a plan against a practitioner's expectations: the shared judge of tests/policy/quality and ``make bench``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache

from policy.candidates import job_efficiency, profile
from policy.catalog import Catalog, load_catalog
from policy.config import PolicyConfig, default_policy
from policy.decision import Decision
from policy.estimate import workload
from policy.parse import parse_request
from policy.request import Task
from policy.spend import SpendSnapshot
from policy.tree import decide
from tests.policy.quality.cases import LARGE_SCALE, PUBLISHED_RUNS, SEED_SCALING, Case

__all__ = ["CHECKS", "decision_for", "grade", "large_scale_mfu", "published_runs", "quality_policy",
           "seed_hours"]

NOW = datetime(2026, 11, 30, 17, 0, tzinfo=UTC)  # Monday 09:00 in Los Angeles
TZ = "America/Los_Angeles"


@cache
def quality_policy() -> PolicyConfig:
    """The default policy with the default team able to launch in every region the policy allows."""
    policy = default_policy()
    team = policy.teams["team-ml"]
    launch = team.launch.model_copy(update={"regions": list(policy.regions)})
    teams = {**policy.teams, "team-ml": team.model_copy(update={"launch": launch})}
    return policy.model_copy(update={"teams": teams})


def decision_for(text: str) -> Decision:
    request = parse_request(text, now=NOW, tz=TZ, team="team-ml")
    spend = SpendSnapshot.unavailable(team=None, reason="not needed to judge the plan")
    return decide(request, catalog=load_catalog(), policy=quality_policy(), spend=spend, now=NOW)


def _startup_paid(d: Decision) -> bool:
    floor = quality_policy().estimate.startup_minutes / 60
    return all(p.estimated_hours >= floor for p in [d.plan, *d.alternatives])


CHECKS: dict[str, Callable[[Decision], bool]] = {
    "every plan pays start-up": _startup_paid,
    "warns about the budget": lambda d: any(w.startswith("nothing the policy allows fits the") for w in d.warnings),
}


def grade(case: Case) -> list[str]:
    """What a practitioner would object to in the plan for ``case`` (empty: acceptable)."""
    d = decision_for(case.text)
    plan, wrong = d.plan, []
    family = plan.instance_type.split(".")[0]
    if case.denied is not None and d.approval.denied is not case.denied:
        wrong.append(f"denied {d.approval.denied}, expected {case.denied}")
    if case.families is not None and family not in case.families:
        wrong.append(f"family {family} not in {sorted(case.families)}")
    if case.hours is not None and not case.hours[0] <= plan.estimated_hours <= case.hours[1]:
        wrong.append(f"{plan.estimated_hours:g} h outside {case.hours}")
    if case.cost is not None and not case.cost[0] <= plan.estimated_cost_usd <= case.cost[1]:
        wrong.append(f"${plan.estimated_cost_usd:,.2f} outside {case.cost}")
    if plan.purchase_model.value not in case.purchase:
        wrong.append(f"{plan.purchase_model.value} not in {sorted(case.purchase)}")
    if case.regions is not None and plan.region not in case.regions:
        wrong.append(f"region {plan.region} not in {sorted(case.regions)}")
    if case.approval_required is not None and d.approval.required is not case.approval_required:
        wrong.append(f"approval required {d.approval.required}")
    wrong += [f"fails: {name}" for name in case.extra if not CHECKS[name](d)]
    return wrong


def seed_hours(catalog: Catalog | None = None) -> list[tuple[int, float, float]]:
    """(GPUs, published hours, planned hours) for the 1.5B scaling table: the job sized so 4 A100s take 14 h."""
    catalog = catalog or load_catalog()
    a100 = catalog.accelerators["A100"]
    assert a100.peak_bf16_tflops is not None and a100.mfu is not None
    per_token = workload(task=Task.PRETRAIN, params=1_500_000_000, tokens=1, trials=1, seq_len=1024).flops
    tokens = round(14 * 3600 * 4 * a100.peak_bf16_tflops * 1e12 * a100.mfu / per_token)
    out = []
    for gpus, published in SEED_SCALING:
        text = f"pretrain 1.5B on {tokens} tokens on {gpus} A100 GPUs, seq len 1024, no interruptions"
        out.append((gpus, published, decision_for(text).plan.estimated_hours))
    return out


def published_runs() -> list[tuple[str, float, float]]:
    """(name, published hours, planned hours) for each published run of a whole training (``PUBLISHED_RUNS``)."""
    return [(name, published, decision_for(text).plan.estimated_hours) for name, text, published in PUBLISHED_RUNS]


def large_scale_mfu() -> list[tuple[str, float, float, float]]:
    """(name, planned MFU at that scale, published low, high) for each published large-scale run."""
    catalog, settings = load_catalog(), quality_policy().estimate
    out = []
    for name, params, seq_len, gpus, instance_type, low, high in LARGE_SCALE:
        work = workload(task=Task.PRETRAIN, params=params, tokens=1, trials=1, seq_len=seq_len)
        price = next(p for p in catalog.prices if p.instance_type == instance_type)
        prof = profile(price, catalog=catalog, work=work, settings=settings, outside=False)
        assert not isinstance(prof, str)
        count = gpus // prof.spec.accelerator_count
        accel = prof.accel
        assert accel.peak_bf16_tflops is not None
        mfu = prof.flops_per_instance / (prof.spec.accelerator_count * accel.peak_bf16_tflops * 1e12)
        out.append((name, mfu * job_efficiency(prof, work, catalog, count), low, high))
    return out
