"""The daily spend digest: gather from the service, render Block Kit and the chart, post once per channel per day.

Dates follow the channel's time zone (the policy's ``teams.<team>.digest.timezone``): "yesterday" is the day before
the channel's today and the month is the channel's month, except that a billing day (UTC) still under way is never
reported as complete (east of UTC the digest then names the last full billing day). With a spend source the
message and its chart are one post (the chart uploaded with the message as its blocks); without one there is no
chart, and one line says how to connect a source.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from statistics import mean
from typing import Any

from bot import formatting as fmt
from bot.chart import BurnUp, billing_today, burn_up, render_spend_chart, window
from bot.client import ServiceClient
from bot.limits import MAX_MESSAGE_BLOCKS, Block, escape, fit, section
from bot.metrics import DIGEST_RUNS
from bot.spend_split import split_month
from bot.views import FINISHED as FINISHED_JOBS
from bot.views import accrued_usd, finished_row, job_label
from contract.estimates import EstimateAccuracy
from contract.requests import RequestPublic
from contract.status import RequestStatus
from policy.spend import SpendSnapshot, SpendStatus

log = logging.getLogger(__name__)
FINISHED = FINISHED_JOBS | {RequestStatus.DRY_RUN}  # the day's report says a dry run ended too
ACTIVE = frozenset({"running", "launching"})
ANOMALY_RATIO = 1.5  # yesterday against the mean of the seven days before it
ANOMALY_MIN_USD = 50.0  # below this a spike is noise
MAX_ROWS = 10
CONNECT_A_SOURCE = ("No spend source is connected, so there is no chart: connect Cost Explorer "
                    "(GPUOPS_SPEND=costexplorer with AWS credentials and the team's cost-allocation tag active) or "
                    "a spend file (GPUOPS_SPEND_FILE); `gpuops doctor` says what is missing.")


@dataclass(frozen=True)
class DigestData:
    team: str
    spend: SpendSnapshot
    running: list[RequestPublic]
    pending: list[RequestPublic]
    finished: list[RequestPublic]  # finished in the 24 hours before the digest
    approved: list[RequestPublic] = field(default_factory=list)  # approved, not launched yet
    tz_name: str = "UTC"
    accuracy: EstimateAccuracy | None = None  # this month's estimates against what finished jobs took


@dataclass(frozen=True)
class Digest:
    team: str
    text: str
    blocks: list[Block]
    png: bytes | None  # None when there is no spend to chart


def gather(service: ServiceClient, *, team: str, now: datetime, tz_name: str = "UTC") -> DigestData:
    spend = service.get_spend(team=team)
    jobs = [r for r in service.list_jobs() if r.team == team]
    pending = service.list_requests(status=RequestStatus.PENDING_APPROVAL, team=team, limit=100).items
    approved = [r for status in (RequestStatus.APPROVED, RequestStatus.AUTO_APPROVED)
                for r in service.list_requests(status=status, team=team, limit=100).items]
    since = now - timedelta(hours=24)
    return DigestData(
        team=team,
        spend=spend,
        running=[r for r in jobs if r.status in ACTIVE],
        pending=pending,
        finished=[r for r in jobs if r.status in FINISHED and r.updated_at >= since],
        approved=approved,
        tz_name=tz_name,
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


def month_line(spend: SpendSnapshot, curve: BurnUp, *, today: date) -> str:
    """What the month has cost, of the budget, with training compute, storage and the rest apart."""
    if not curve.known:
        why = (escape(spend.reason) if spend.status is SpendStatus.UNAVAILABLE and spend.reason else
               f"the spend source has no month-to-date figure for {today:%B}")
        return f"*Month to date*: spend unavailable: {why}"
    text = f"*Month to date*: {fmt.usd(curve.to_date_usd)}"
    if curve.budget_usd:
        text += f" of {fmt.usd(curve.budget_usd)} budget ({curve.to_date_usd / curve.budget_usd:.0%})"
    split = split_month(spend) if curve.source_month else None
    if split is not None:
        text += (f"\ntraining compute {fmt.usd(split.compute_usd)} · storage {fmt.usd(split.storage_usd)} · "
                 f"other {fmt.usd(split.other_usd)}")
        if split.unlisted_usd >= 1:
            text += f"\n_compute includes {fmt.usd(split.unlisted_usd)} the spend source did not name by service_"
    if spend.status is SpendStatus.STALE:
        text += f"\n_stale figure: {escape(spend.reason or 'old')}_"
    return text


def forecast_line(curve: BurnUp, *, today: date) -> str | None:
    """The month's forecast against the budget, worded by the same verdict that colours the chart."""
    budget = curve.budget_usd
    if budget is None or not curve.known:
        return None
    expected = curve.pace_usd(today.day - 1) or 0.0  # the chart's even-pace line at the end of yesterday
    gap = curve.to_date_usd - expected
    pace = (f"{fmt.usd(abs(gap))} {'ahead of' if gap > 0 else 'behind'} an even pace "
            f"({fmt.usd(expected)} by the end of {today - timedelta(days=1):%b} {(today - timedelta(days=1)).day})"
            if today.day > 1 else "the month has just begun")
    if curve.over_budget:
        over = max(curve.projected_usd or 0.0, curve.to_date_usd) - budget
        if curve.projected_usd is None:
            return f"*Forecast*: none from the spend source; 🔴 already over budget by {fmt.usd(over)}; {pace}"
        return f"*Forecast*: {fmt.usd(curve.projected_usd)} for the month, 🔴 over budget by {fmt.usd(over)}; {pace}"
    if curve.projected_usd is None:
        return f"*Forecast*: none from the spend source; {pace}"
    return (f"*Forecast*: {fmt.usd(curve.projected_usd)} for the month, 🟢 within budget by "
            f"{fmt.usd(budget - curve.projected_usd)}; {pace}")


def drivers_line(spend: SpendSnapshot) -> str | None:
    """The instance types that cost most this month (services are in the month's split already; listed here only
    when the source names no instance type)."""
    types = [d for d in spend.drivers if d.dimension == "INSTANCE_TYPE"]
    shown, title = (types, "Top instance types this month") if types else (spend.drivers, "Top services this month")
    if not shown:
        return None
    top = sorted(shown, key=lambda d: d.usd, reverse=True)[:5]
    return f"*{title}*\n" + "\n".join(f"• {escape(d.key)}: {fmt.usd(d.usd)}" for d in top)


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


def yesterday_line(days: list[tuple[date, float]], *, local_yesterday: date) -> str:
    """The last complete billing day: the channel's yesterday, unless that day has not ended in UTC yet."""
    (day, yesterday), previous = days[-1], days[-2][1]
    change = "" if previous == 0 else f" ({(yesterday - previous) / previous:+.0%} on the day before)"
    label = "Yesterday" if day == local_yesterday else "Last full billing day"
    return f"*{label}* ({day:%a %b} {day.day}): {fmt.usd(yesterday)}{change}"


def _rows(requests: list[RequestPublic], row: Any) -> str:
    lines = [f"• {row(r)}" for r in requests[:MAX_ROWS]]
    if len(requests) > MAX_ROWS:
        lines.append(f"… and {len(requests) - MAX_ROWS} more")
    return "\n".join(lines)


def _running_row(req: RequestPublic) -> str:
    status = req.job.status if req.job else req.status
    return (f"{job_label(req)} · {escape(status)} · {fmt.usd(accrued_usd(req))} so far of "
            f"{fmt.usd(req.decision.plan.estimated_cost_usd, approx=True)}")


def _approved_row(req: RequestPublic) -> str:
    return f"{job_label(req)} · launching soon · {fmt.usd(req.decision.plan.estimated_cost_usd, approx=True)}"


def _pending_row(req: RequestPublic) -> str:
    waiting = ", ".join(fmt.mention(a) for a in req.eligible_approvers) or "approvers"
    return f"{job_label(req)} {fmt.usd(req.decision.plan.estimated_cost_usd, approx=True)}, waiting for {waiting}"


def jobs_blocks(data: DigestData) -> list[Block]:
    """Today's gpuops jobs: approved and about to launch, running, and finished in the last 24 hours."""
    blocks: list[Block] = []
    if data.approved:
        total = sum(r.decision.plan.estimated_cost_usd for r in data.approved)
        blocks.append(section(f"*Approved, launching* ({len(data.approved)}, {fmt.usd(total, approx=True)} "
                              f"estimated)\n{_rows(data.approved, _approved_row)}"))
    if data.running:
        accrued = sum(accrued_usd(r) or 0.0 for r in data.running)
        estimated = sum(r.decision.plan.estimated_cost_usd for r in data.running)
        blocks.append(section(f"*Running* ({len(data.running)}, {fmt.usd(accrued)} so far of "
                              f"{fmt.usd(estimated, approx=True)} estimated)\n{_rows(data.running, _running_row)}"))
    if data.finished:
        blocks.append(section(f"*Finished in the last 24 h* ({len(data.finished)})\n"
                              f"{_rows(data.finished, finished_row)}"))
    if not blocks:
        blocks.append(section("*gpuops jobs*: none approved, running or finished in the last 24 h"))
    if data.pending:
        blocks.append(section(f"*Waiting for approval* ({len(data.pending)})\n{_rows(data.pending, _pending_row)}"))
    return blocks


def digest_blocks(data: DigestData, *, now: datetime) -> list[Block]:
    spend = data.spend
    local = now.astimezone(fmt.zone(data.tz_name))
    today = billing_today(now, data.tz_name)
    curve = burn_up(spend, today=today)
    title = f"*AWS spend · {escape(data.team)} · {local:%a %b} {local.day}*"
    blocks: list[Block] = [section(title), section(month_line(spend, curve, today=today))]
    charted = has_chart(spend)
    if not charted:
        blocks.append(section(CONNECT_A_SOURCE if spend.status is SpendStatus.UNAVAILABLE else
                              "No daily figures from the spend source yet, so there is no chart."))
    if spend.daily:
        days = window(spend, today=today)
        blocks.append(section(yesterday_line(days, local_yesterday=local.date() - timedelta(days=1))))
    if (forecast := forecast_line(curve, today=today)) is not None:
        blocks.append(section(forecast))
    if (drivers := drivers_line(spend)) is not None:
        blocks.append(section(drivers))
    blocks += jobs_blocks(data)
    saved = spot_savings_usd(data.finished)
    if saved > 0:
        count = len(data.finished)
        blocks.append(section(f"*Spot savings*: {fmt.usd(saved)} on {count} finished job{'s' if count != 1 else ''}"))
    if data.accuracy is not None and data.accuracy.median is not None and data.accuracy.p90 is not None:
        blocks.append(section(accuracy_line(data.accuracy)))
    notes = anomalies(window(spend, today=today)) if spend.daily else []
    if notes:
        blocks.append(section("📈 *Anomalies*\n" + "\n".join(f"• {n}" for n in notes)))
    as_of = f", as of {spend.as_of.astimezone(local.tzinfo):%Y-%m-%d %H:%M %Z}" if spend.as_of else ""
    blocks.append(section(f"_Spend {spend.status.value}{as_of}; days are the billing days of the spend source "
                          f"(UTC), dates here in {escape(data.tz_name)}_"))
    return fit(blocks, MAX_MESSAGE_BLOCKS, keep_tail=1)


def has_chart(spend: SpendSnapshot) -> bool:
    return spend.status is not SpendStatus.UNAVAILABLE and bool(spend.daily)


def build_digest(service: ServiceClient, *, team: str, now: datetime, tz_name: str = "UTC") -> Digest:
    data = gather(service, team=team, now=now, tz_name=tz_name)
    png = render_spend_chart(data.spend, now=now, tz_name=tz_name) if has_chart(data.spend) else None
    return Digest(team=team, text=f"AWS spend digest for {team}", blocks=digest_blocks(data, now=now), png=png)


def post_digest(client: Any, digest: Digest, *, channel: str) -> None:
    """One post: the chart uploaded with the digest as its message (files.getUploadURLExternal, the upload, then
    files.completeUploadExternal with the blocks); without a chart, the message alone."""
    if digest.png is None:
        client.chat_postMessage(channel=channel, text=digest.text, blocks=digest.blocks)
        return
    client.files_upload_v2(channel=channel, content=digest.png, filename=f"spend-{digest.team}.png",
                           title=f"AWS spend, {digest.team}: month to date against the budget",
                           alt_txt=f"Burn-up of {digest.team}'s AWS spend this month against its budget, "
                                   "with daily spend for the last 14 days",
                           blocks=json.dumps(digest.blocks))


def deliver_once(service: ServiceClient, client: Any, *, team: str, channel: str, day: str, now: datetime,
                 tz_name: str = "UTC") -> bool:
    """Post ``team``'s digest in ``channel`` for ``day`` unless another replica claimed it; True when posted here."""
    if not service.claim_digest(channel=channel, date=day, team=team):
        DIGEST_RUNS.labels(outcome="skipped").inc()
        return False
    try:
        post_digest(client, build_digest(service, team=team, now=now, tz_name=tz_name), channel=channel)
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
