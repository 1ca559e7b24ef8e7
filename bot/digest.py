"""The daily spend digest: gather from the service, render Block Kit and the chart, post once per channel per day."""

from __future__ import annotations

import calendar
import logging
from dataclasses import dataclass
from datetime import datetime
from statistics import mean
from typing import Any

from bot import formatting as fmt
from bot.blocks import spend_line
from bot.chart import render_spend_chart, window
from bot.client import ServiceClient
from bot.limits import MAX_MESSAGE_BLOCKS, Block, context, escape, fit, header, section
from bot.metrics import DIGEST_RUNS
from bot.views import accrued_usd, job_row
from contract.estimates import EstimateAccuracy
from contract.requests import RequestPublic
from contract.status import RequestStatus
from policy.spend import SpendSnapshot

log = logging.getLogger(__name__)
FINISHED = frozenset({"succeeded", "failed", "stopped"})
ANOMALY_RATIO = 1.5  # yesterday against the mean of the seven days before it
ANOMALY_MIN_USD = 50.0  # below this a spike is noise


@dataclass(frozen=True)
class DigestData:
    team: str
    spend: SpendSnapshot
    running: list[RequestPublic]
    pending: list[RequestPublic]
    finished: list[RequestPublic]
    accuracy: EstimateAccuracy | None = None  # this month's estimates against what finished jobs took


@dataclass(frozen=True)
class Digest:
    team: str
    text: str
    blocks: list[Block]
    png: bytes


def gather(service: ServiceClient, *, team: str) -> DigestData:
    spend = service.get_spend(team=team)
    jobs = [r for r in service.list_jobs() if r.team == team]
    pending = service.list_requests(status=RequestStatus.PENDING_APPROVAL, team=team, limit=100).items
    return DigestData(
        team=team,
        spend=spend,
        running=[r for r in jobs if r.status in ("running", "launching")],
        pending=pending,
        finished=[r for r in jobs if r.status in FINISHED],
        accuracy=service.get_estimate_accuracy(team=team),
    )


def spot_savings_usd(finished: list[RequestPublic]) -> float:
    """Money managed spot saved on finished jobs: time trained but not billed, at the plan's price."""
    total = 0.0
    for req in finished:
        job, plan = req.job, req.decision.plan
        if job is None or job.training_seconds is None or job.billable_seconds is None:
            continue
        unbilled = max(0.0, job.training_seconds - job.billable_seconds)
        total += unbilled / 3600 * plan.instance_count * plan.price_per_instance_hour_usd
    return total


def pace_line(spend: SpendSnapshot, *, now: datetime) -> str | None:
    """Month to date against where an even spread of the budget would be by the end of yesterday."""
    if not spend.budget_usd or spend.month_to_date_usd is None:
        return None
    days_in_month = calendar.monthrange(now.year, now.month)[1]
    elapsed = max(1, now.day - 1)
    expected = spend.budget_usd * elapsed / days_in_month
    gap = spend.month_to_date_usd - expected
    where = f"{fmt.usd(abs(gap))} {'ahead of' if gap > 0 else 'under'} pace"
    line = f"*Pace*: {where} (an even spread would be {fmt.usd(expected)} by now)"
    projected = spend.projected_month_usd
    if projected is not None:
        over = projected - spend.budget_usd
        verdict = f"over budget by {fmt.usd(over)}" if over > 0 else f"within budget by {fmt.usd(-over)}"
        line += f"\n*Forecast*: {fmt.usd(projected)} for the month, {verdict}"
    return line


def anomalies(days: list[tuple[Any, float]]) -> list[str]:
    """Day-over-day spikes worth a look: yesterday well above the week before it."""
    if len(days) < 8:
        return []
    yesterday, before = days[-1][1], [usd for _, usd in days[-8:-1]]
    baseline = mean(before)
    notes = []
    if yesterday >= ANOMALY_MIN_USD and baseline > 0 and yesterday > ANOMALY_RATIO * baseline:
        notes.append(f"Yesterday's {fmt.usd(yesterday)} is {yesterday / baseline:.1f}× the 7-day average "
                     f"({fmt.usd(baseline)}).")
    elif yesterday >= ANOMALY_MIN_USD and baseline == 0:
        notes.append(f"Yesterday's {fmt.usd(yesterday)} follows a week with no spend.")
    return notes


def accuracy_line(accuracy: EstimateAccuracy) -> str:
    """How far this month's estimates were from what finished jobs took."""
    assert accuracy.median is not None and accuracy.p90 is not None
    jobs = f"{accuracy.jobs} finished job{'s' if accuracy.jobs != 1 else ''}"
    return (f"*Estimate accuracy* this month: off by {accuracy.median:.0%} (median), {accuracy.p90:.0%} (P90) "
            f"on {jobs}")


def yesterday_line(days: list[tuple[Any, float]]) -> str:
    yesterday, previous = days[-1][1], days[-2][1]
    change = "" if previous == 0 else f" ({(yesterday - previous) / previous:+.0%} on the day before)"
    return f"*Yesterday*: {fmt.usd(yesterday)}{change}"


def _pending_lines(pending: list[RequestPublic]) -> str:
    rows = []
    for req in pending[:10]:
        waiting = ", ".join(fmt.mention(a) for a in req.eligible_approvers) or "approvers"
        rows.append(f"• `{escape(req.id)}` {fmt.configuration(req.decision.plan)} "
                    f"{fmt.usd(req.decision.plan.estimated_cost_usd, approx=True)}, waiting for {waiting}")
    more = f"\n… and {len(pending) - 10} more" if len(pending) > 10 else ""
    return "\n".join(rows) + more


def digest_blocks(data: DigestData, *, now: datetime) -> list[Block]:
    spend = data.spend
    days = window(spend, now=now)
    blocks: list[Block] = [header(f"GPU spend · {data.team} · {now.strftime('%a %b %d').replace(' 0', ' ')}"),
                           section(spend_line(spend))]
    if spend.daily:
        blocks.append(section(yesterday_line(days)))
    if (pace := pace_line(spend, now=now)) is not None:
        blocks.append(section(pace))
    if spend.drivers:
        top = sorted(spend.drivers, key=lambda d: d.usd, reverse=True)[:5]
        blocks.append(section("*Top drivers*\n" + "\n".join(f"• {escape(d.key)}: {fmt.usd(d.usd)}" for d in top)))
    if data.running:
        accrued = sum(accrued_usd(r) or 0.0 for r in data.running)
        running = "\n".join(f"• {job_row(r)}" for r in data.running[:10])
        blocks.append(section(f"*Running jobs* ({len(data.running)}, {fmt.usd(accrued)} so far)\n{running}"))
    else:
        blocks.append(section("*Running jobs*: none"))
    if data.pending:
        blocks.append(section(f"*Waiting for approval* ({len(data.pending)})\n{_pending_lines(data.pending)}"))
    saved = spot_savings_usd(data.finished)
    if saved > 0:
        count = len(data.finished)
        blocks.append(section(f"*Spot savings*: {fmt.usd(saved)} on {count} finished job{'s' if count != 1 else ''}"))
    if data.accuracy is not None and data.accuracy.median is not None and data.accuracy.p90 is not None:
        blocks.append(section(accuracy_line(data.accuracy)))
    notes = anomalies(days) if spend.daily else []
    if notes:
        blocks.append(section("📈 *Anomalies*\n" + "\n".join(f"• {n}" for n in notes)))
    as_of = f", as of {spend.as_of:%Y-%m-%d %H:%M} UTC" if spend.as_of else ""
    blocks.append(context(f"Spend {spend.status.value}{as_of}"))
    return fit(blocks, MAX_MESSAGE_BLOCKS)


def build_digest(service: ServiceClient, *, team: str, now: datetime) -> Digest:
    data = gather(service, team=team)
    return Digest(team=team, text=f"GPU spend digest for {team}", blocks=digest_blocks(data, now=now),
                  png=render_spend_chart(data.spend, now=now))


def post_digest(client: Any, digest: Digest, *, channel: str) -> str:
    """The message, then the chart under it (files_upload_v2: get URL, upload, complete)."""
    response = client.chat_postMessage(channel=channel, text=digest.text, blocks=digest.blocks)
    client.files_upload_v2(channel=channel, content=digest.png, filename=f"spend-{digest.team}.png",
                           title=f"Daily spend, {digest.team}, last 14 days")
    return str(response["ts"])


def deliver_once(service: ServiceClient, client: Any, *, team: str, channel: str, day: str, now: datetime) -> bool:
    """Post ``team``'s digest in ``channel`` for ``day`` unless another replica claimed it; True when posted here."""
    if not service.claim_digest(channel=channel, date=day, team=team):
        DIGEST_RUNS.labels(outcome="skipped").inc()
        return False
    try:
        post_digest(client, build_digest(service, team=team, now=now), channel=channel)
    except Exception as error:
        DIGEST_RUNS.labels(outcome="failed").inc()
        service.finish_digest(channel=channel, date=day, ok=False, detail=type(error).__name__)
        raise
    DIGEST_RUNS.labels(outcome="posted").inc()
    service.finish_digest(channel=channel, date=day, ok=True)
    return True


def due_day(now: datetime, *, at: str, tz_name: str) -> str | None:
    """The local date whose digest is due at ``now`` (local time past ``at``), else None."""
    local = now.astimezone(fmt.zone(tz_name))
    hour, minute = (int(part) for part in at.split(":"))
    if (local.hour, local.minute) < (hour, minute):
        return None
    return local.date().isoformat()
