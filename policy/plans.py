"""Turn an evaluated configuration into the ``Plan`` a person reads: finish time, cost lines and range."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from policy.candidates import Option
from policy.config import EstimateSettings
from policy.decision import Alternative, CostItem, Plan, PurchaseModel
from policy.estimate import billed_hours, cents, hours_range, interval_minutes, range_basis
from policy.fixed import HELD_REASON
from policy.timespan import add_hours, hours_between

__all__ = [
    "launch_runtime_hours", "RUNTIME_FLOOR_SECONDS", "RUNTIME_STEP_SECONDS", "to_alternative", "to_plan",
    "transfer_line_basis",
]


def to_plan(option: Option, *, now: datetime, deadline: datetime | None, settings: EstimateSettings,
            max_runtime_hours: float, transfer_basis: str | None = None, fp8: bool = False) -> Plan:
    """The plan for ``option``: every money figure follows from the stated price and billed hours.
    ``transfer_basis``: where the data is moved from and how big it is, when the request said either (else the
    team's data region and the tokens' stored size)."""
    return Plan(**_plan_fields(option, now=now, deadline=deadline, settings=settings,
                               max_runtime_hours=max_runtime_hours, transfer_basis=transfer_basis),
                precision="fp8" if fp8 else "bf16")


def to_alternative(option: Option, label: str, *, now: datetime, deadline: datetime | None,
                   settings: EstimateSettings, max_runtime_hours: float,
                   transfer_basis: str | None = None, fp8: bool = False) -> Alternative:
    """``to_plan`` with a label saying how it differs."""
    return Alternative(label=label, **_plan_fields(option, now=now, deadline=deadline, settings=settings,
                                                   max_runtime_hours=max_runtime_hours, transfer_basis=transfer_basis),
                       precision="fp8" if fp8 else "bf16")


def _plan_fields(option: Option, *, now: datetime, deadline: datetime | None, settings: EstimateSettings,
                 max_runtime_hours: float, transfer_basis: str | None = None) -> dict[str, Any]:
    """The fields of a plan (or an alternative) for ``option``."""
    hours = billed_hours(option.wall_hours)
    billed = billed_hours(option.instance_hours / option.count)  # per instance; below wall time when sweep
    price = option.rate.usd                                         # trials leave instances idle in the last round
    items = [_compute_line(option, billed)]
    if option.transfer_usd > 0:
        items.append(CostItem(item=f"data transfer into {option.profile.price.region}", usd=cents(option.transfer_usd),
                              basis=transfer_basis or transfer_line_basis(settings)))
    total = cents(sum(item.usd for item in items))
    # a stated length has no throughput to be wrong about: only a spot price moves its cost
    low_factor, high_factor = (1.0, 1.0) if option.stated else hours_range(spot=option.spot, settings=settings)
    low = min(total, cents(option.count * option.rate.low_usd * billed * low_factor + option.transfer_usd))
    high = max(total, cents(option.count * option.rate.high_usd * billed * high_factor + option.transfer_usd))
    finish = add_hours(now, option.start_hours + hours)
    met, margin = _deadline(finish, deadline)
    return {
        "instance_type": option.profile.spec.instance_type,
        "instance_count": option.count,
        "accelerator": option.profile.accel.name,
        "accelerators": option.count * option.profile.spec.accelerator_count,
        "purchase_model": option.purchase,
        "platform": option.platform,
        "region": option.profile.price.region,
        "price_per_instance_hour_usd": price,
        "estimated_hours": hours,
        "estimated_finish": finish,
        "deadline_met": met,
        "deadline_margin_hours": margin,
        "estimated_cost_usd": total,
        "cost_low_usd": low,
        "cost_high_usd": high,
        "cost_breakdown": items,
        "checkpoint_interval_minutes": interval_minutes(option.spot),
        "max_runtime_hours": launch_runtime_hours(billed_hours(option.job_wall_hours), settings=settings,
                                                  cap=max_runtime_hours, stated=option.stated),  # per job
        "cost_range_basis": (stated_range_basis(spot=option.purchase is PurchaseModel.SPOT) if option.stated
                             else range_basis(spot=option.spot is not None, settings=settings)),
        "jobs": option.layout.jobs,
        "instances_per_job": option.layout.job_instances,
        "context_parallel": option.profile.context_parallel,
    }


def transfer_line_basis(settings: EstimateSettings, *, region_said: str | None = None,
                        dataset_bytes: int | None = None) -> str:
    """How the transfer line is worked out: from the team's data region, or the one the request said the data is in,
    and the tokens' stored size, or the dataset's size as said."""
    source = f"the data's region the request says, {region_said}," if region_said else "the team's data region"
    size = (f"its {dataset_bytes / 1e9:,.1f} GB as said" if dataset_bytes else
            f"its size estimated as training tokens × {settings.dataset_bytes_per_token:g} bytes per stored token id")
    return (f"the dataset copied once from {source} at {settings.transfer_usd_per_gb:g} $/GB (EC2 inter-region data "
            f"transfer), {size}")


# MaxRuntime is rounded up to this step and never below the floor: a job needs a few minutes to load its model and
# data, while a whole-hour floor let a 2-minute job on 16 instances hold an hour of all 16 (a 30x exposure).
RUNTIME_STEP_SECONDS = 300
RUNTIME_FLOOR_SECONDS = 900


def launch_runtime_hours(hours: float, *, settings: EstimateSettings, cap: float, stated: bool = False) -> float:
    """MaxRuntime for the launch (the job's MaxRuntime): the estimate times ``max_runtime_factor``, or a stated
    length as it is (the job stops when the time asked for is up: "16 H100s Monday 9am to Friday 5pm" bills no
    hour past Friday 17:00 plus its start-up), rounded up to 5 minutes, at least 15 minutes, never above the policy
    cap. Always a whole number of seconds."""
    factor = 1.0 if stated else settings.max_runtime_factor
    wanted = math.ceil(hours * factor * 3600 / RUNTIME_STEP_SECONDS) * RUNTIME_STEP_SECONDS
    seconds = min(math.floor(cap * 3600), max(RUNTIME_FLOOR_SECONDS, wanted))
    return seconds / 3600


def stated_range_basis(*, spot: bool) -> str:
    """How cost_low/cost_high were derived for a job of a stated length: its hours are not estimated."""
    if spot:
        return ("the length as stated; low: the lowest spot price observed; high: the highest (an interrupted run is "
                "started again, which this range does not include)")
    return "the length as stated at a fixed hourly price"


def _compute_line(option: Option, hours: float) -> CostItem:
    price = option.rate.usd
    basis = f"{option.count} × {price:g} $/instance-hour × {hours:.3f} h billed"
    layout = option.layout
    if layout.jobs > 1:
        at_once = layout.count // layout.job_instances
        wide = "" if layout.job_instances == 1 else f" on {layout.job_instances} instances each"
        basis += (f" per instance ({layout.jobs} trials as separate jobs of "
                  f"{option.instance_hours / layout.jobs / layout.job_instances:.2f} h{wide}, {at_once} at a time)")
    elif option.spot is not None:
        spot = option.spot
        basis += (f" ({option.compute_hours:.2f} h training + {option.job_wall_hours - option.compute_hours:.2f} h "
                  f"for start-up, ~{spot.interruptions:.1f} expected interruptions and checkpoint writes)")
    else:
        basis += f" (including {option.job_wall_hours - option.compute_hours / layout.rounds:.2f} h start-up per job)"
    if option.purchase_reason == HELD_REASON:
        basis += " (capacity already held and paid: what these hours of it are worth, not new spend)"
    elif option.purchase is PurchaseModel.CAPACITY_BLOCK:
        basis += (f" (the reserved window, paid upfront, used or not, for a {option.wall_hours:.1f} h run starting "
                  f"{option.start_hours:.1f} h from now)")
    basis += f"; rate: {option.rate.basis}"
    return CostItem(item=f"compute: {option.count}× {option.profile.spec.instance_type} {option.purchase.value} "
                         f"on {option.platform.value}", usd=cents(option.count * price * hours), basis=basis)


def _deadline(finish: datetime, deadline: datetime | None) -> tuple[bool | None, float | None]:
    if deadline is None:
        return None, None
    margin = hours_between(finish, deadline)
    return margin >= 0, round(margin, 2)
