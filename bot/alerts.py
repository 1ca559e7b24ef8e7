"""What the alerts say in Slack: a job passing its estimate (in the request's thread), a team's month heading past
its budget, a Cost Explorer anomaly with its feedback buttons, and commitment advice (in the team's channel)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot import formatting as fmt
from bot.actions import clicker, message_location, tell_privately
from bot.commands import ack_now
from bot.deps import Deps
from bot.error_messages import user_message
from bot.limits import Block, actions, button, context, escape, section
from contract.events import EventPublic

log = logging.getLogger(__name__)


def _float(data: dict[str, Any], key: str) -> float | None:
    value = data.get(key)
    return None if value is None else float(value)


def job_cost_text(data: dict[str, Any]) -> str:
    """A running job passed a share of its approved estimate, or a level its requester asked to hear about."""
    level = data.get("level")
    so_far, estimate = _float(data, "cost_so_far_usd"), _float(data, "estimated_cost_usd")
    amounts = [float(usd) for usd in data.get("amounts_usd") or []]
    if level is None:  # only an amount the requester asked for
        share = data.get("share_percent")
        passed = (f"past the {fmt.usd(amounts[-1])} you asked to hear about"
                  + (f" ({share}% of its approved estimate of {fmt.usd(estimate)})" if share is not None else ""))
        icon = "💸"
    else:
        asked = " (a level you asked for)" if level in (data.get("asked") or []) else ""
        also = f" and past the {fmt.usd(amounts[-1])} you asked to hear about" if amounts else ""
        passed = f"{level}% of its approved estimate of {fmt.usd(estimate)}{asked}{also}"
        icon = "💸" if float(level) < 100 else "🔥"
    line = (f"{icon} `{escape(str(data.get('job', '')))}` has cost {fmt.usd(so_far)} so far, {passed}; projected "
            f"{fmt.usd(_float(data, 'projected_usd'))} to finish (at most {fmt.usd(_float(data, 'ceiling_usd'))} at "
            "its max runtime).")
    if data.get("overrun"):
        line += f" It has run {fmt.hours(_float(data, 'elapsed_hours'))}, past its estimated hours."
    return line + f"\n_From {escape(str(data.get('basis', 'the tracker')))}._"


def _driver_line(job: dict[str, Any]) -> str:
    who = fmt.mention(str(job["requester"])) if job.get("requester") else ""
    if job.get("job"):
        so_far = job.get("cost_so_far_usd")
        spent = f"{fmt.usd(so_far)} so far, " if so_far is not None else ""
        return (f"• `{escape(str(job['request_id']))}` running `{escape(str(job['job']))}`: {spent}"
                f"{fmt.usd(job.get('to_come_usd'))} still to come · {who}")
    return (f"• `{escape(str(job['request_id']))}` approved, not launched: up to {fmt.usd(job.get('to_come_usd'))}"
            f" · {who}")


def budget_text(data: dict[str, Any]) -> str:
    """A team's month is heading past a share of its budget: the sum and the jobs that drive it."""
    level = int(data.get("level", 0))
    icon = "🚨" if level >= 100 else "📈"
    team = escape(str(data.get("team", "")))
    head = (f"{icon} *{team}*'s month is heading for {fmt.usd(_float(data, 'projected_usd'))}, past {level}% of "
            f"its {fmt.usd(_float(data, 'budget_usd'))} budget ({float(data.get('share', 0.0)):.0%}).")
    lines = [head, escape(str(data.get("explain", "")))]
    if data.get("forecast_basis") and "run-rate" in str(data["forecast_basis"]):
        lines.append(f"_The rest of the month is a {escape(str(data['forecast_basis']))}._")
    if data.get("spend_status") == "stale":
        lines.append(f"_Spend figure is stale: {escape(str(data.get('spend_reason') or 'age unknown'))}._")
    jobs = list(data.get("jobs") or [])
    if jobs:
        lines.append("Driving it:")
        lines.extend(_driver_line(job) for job in jobs)
    else:
        lines.append("No gpuops job is running or waiting to launch: the spend is billed already or forecast.")
    return "\n".join(lines)


def _aws_line(aws: dict[str, Any] | None, error: object) -> str:
    if aws is None:
        return f"Cost Explorer gave no SageMaker Savings Plans recommendation ({escape(str(error or 'not asked'))})."
    if not aws.get("hourly_commitment_usd"):
        return "Cost Explorer recommends no SageMaker Savings Plan for the account now."
    term, payment = (escape(str(aws[k])).replace("_", " ").lower() for k in ("term", "payment"))
    return (f"Cost Explorer recommends (whole account, {aws['lookback_days']}-day lookback, {term}, {payment}): "
            f"{fmt.usd(aws['hourly_commitment_usd'])}/h, saving about {fmt.usd(aws['estimated_monthly_savings_usd'])}"
            f"/month ({float(aws['estimated_savings_percent']):.0f}%) at "
            f"{float(aws['estimated_utilisation_percent']):.0f}% utilisation.")


def commitment_text(data: dict[str, Any]) -> str:
    """Monthly Savings Plan advice: the seed rule against Cost Explorer's, break-even and risk. Never a purchase."""
    team = escape(str(data.get("team", "")))
    days = int(data.get("hours", 0)) // 24
    lines = [f"💡 *{team}* commitment advice for {escape(str(data.get('month', '')))} (a recommendation: gpuops "
             "buys nothing).",
             f"Steady baseline: {fmt.usd(_float(data, 'baseline_per_hour_usd'))}/h of on-demand SageMaker jobs (the "
             f"{float(data.get('percentile', 10)):.0f}th-percentile hour over the last {days} days; average "
             f"{fmt.usd(_float(data, 'average_per_hour_usd'))}/h)."]
    seed = data.get("seed")
    if seed:
        discount = float(data.get("discount") or 0.0)
        lines.append(
            f"Seed rule, cover ~90% of the baseline: commit {fmt.usd(seed['commitment_per_hour_usd'])}/h "
            f"({fmt.usd(seed['yearly_commitment_usd'])} a year) at the {discount:.0%} discount Cost Explorer quotes. "
            f"Over the last {days} days it would have saved {fmt.usd(seed['savings_usd'])} "
            f"({fmt.usd(seed['savings_per_month_usd'])}/month), covering {seed['coverage']:.0%} of eligible spend at "
            f"{seed['utilisation']:.0%} utilisation.")
        lines.append(
            f"Break-even: it pays off while at least {seed['break_even_utilisation']:.0%} of the commitment is used "
            f"on average, i.e. eligible usage averaging {fmt.usd(seed['commitment_per_hour_usd'])}/h.")
        lines.append(
            f"Risk: the commitment bills every hour for the whole term, used or not; in the last {days} days usage "
            f"fell below the {fmt.usd(seed['covers_per_hour_usd'])}/h it covers in {seed['idle_hours_share']:.0%} "
            "of hours. Spot, capacity-block, EKS and EC2 jobs are not covered.")
        if data.get("rule"):
            lines.append(f"_Source: {escape(str(data['rule']))}._")
    else:
        lines.append("The seed rule's commitment cannot be priced without Cost Explorer's discount; nothing to "
                     "compare.")
    lines.append(_aws_line(data.get("aws"), data.get("aws_error")))
    return "\n".join(lines)


def _cause(cause: dict[str, Any]) -> str:
    return " · ".join(escape(str(cause[k])) for k in ("Service", "Region", "UsageType") if cause.get(k))


def anomaly_text(data: dict[str, Any]) -> str:
    """A Cost Explorer anomaly on the team's tag, with what AWS blames and the team's gpuops jobs of those days."""
    team = escape(str(data.get("team", "")))
    when = escape(str(data.get("start") or "?"))[:10]
    if data.get("end"):
        when += f" to {escape(str(data['end']))[:10]}"
    lines = [f"🔎 Cost Explorer sees unusual spend on *{team}* ({when}): {fmt.usd(_float(data, 'actual_usd'))} "
             f"against {fmt.usd(_float(data, 'expected_usd'))} expected, "
             f"{fmt.usd(_float(data, 'total_impact_usd'))} more."]
    causes = [_cause(c) for c in data.get("causes") or [] if _cause(c)]
    if causes:
        lines.append("AWS names: " + "; ".join(causes[:3]))
    jobs = list(data.get("jobs") or [])
    if jobs:
        lines.append("gpuops jobs of the team in those days:")
        lines.extend(f"• `{escape(str(j['request_id']))}` `{escape(str(j['job']))}` {escape(str(j['status']))} "
                     f"{fmt.usd(j.get('cost_usd'))} · {fmt.mention(str(j['requester']))}" for j in jobs)
    else:
        lines.append("No gpuops job of the team ran in those days: look outside gpuops.")
    lines.append("Was it expected? Your answer goes to Cost Explorer's anomaly detection.")
    return "\n".join(lines)


ANOMALY_EXPECTED = "anomaly_expected"
ANOMALY_NOT_EXPECTED = "anomaly_not_expected"
VERDICTS = {ANOMALY_EXPECTED: "expected", ANOMALY_NOT_EXPECTED: "not_expected"}


def anomaly_blocks(data: dict[str, Any]) -> list[Block]:
    anomaly = str(data.get("anomaly_id", ""))
    return [section(anomaly_text(data)),
            actions([button("Expected", action_id=ANOMALY_EXPECTED, value=anomaly),
                     button("Not expected", action_id=ANOMALY_NOT_EXPECTED, value=anomaly, style="danger")],
                    block_id=f"anomaly:{anomaly}"[:255])]


TEAM_TEXTS: dict[str, Callable[[dict[str, Any]], str]] = {"budget.threshold": budget_text,
                                                          "commitment.advice": commitment_text,
                                                          "anomaly.detected": anomaly_text}
TEAM_BLOCKS: dict[str, Callable[[dict[str, Any]], list[Block]]] = {"anomaly.detected": anomaly_blocks}
TEAM_ALERTS = frozenset(TEAM_TEXTS)


def post_team_alert(client: Any, event: EventPublic) -> bool:
    """Post a team's alert in its channel; False when the policy names no channel for the team."""
    channel = event.data.get("channel")
    if not channel:
        log.info("event %s: team %s has no channel to tell", event.id, event.data.get("team"))
        return False
    text = TEAM_TEXTS[event.type](event.data)
    blocks = TEAM_BLOCKS[event.type](event.data) if event.type in TEAM_BLOCKS else None
    client.chat_postMessage(channel=str(channel), text=text, unfurl_links=False,
                            **({"blocks": blocks} if blocks is not None else {}))
    return True


def verdict_words(verdict: str) -> str:
    return "expected" if verdict == "expected" else "not expected"


class AlertActions:
    """The anomaly buttons: the clicker's verdict goes to the service (which tells Cost Explorer), and the
    message shows who said what in place of the buttons."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def handle_anomaly_action(self, body: dict[str, Any], client: Any, respond: Any) -> None:
        action = body["actions"][0]
        verdict = VERDICTS[action["action_id"]]
        try:
            self.deps.service.anomaly_feedback(anomaly_id=str(action["value"]), actor=clicker(body), verdict=verdict,
                                               facts=self.deps.approver_facts(client, body["user"]["id"]))
        except Exception as error:  # noqa: BLE001 - a handler's last word: user_message tells the person, logs a cid
            tell_privately(body, client, respond, user_message(error, operation="anomaly_feedback"))
            return
        channel, ts = message_location(body)
        blocks = [b for b in (body.get("message") or {}).get("blocks", []) if b.get("type") != "actions"]
        said = f"<@{body['user']['id']}> said this was {verdict_words(verdict)}; Cost Explorer has been told."
        client.chat_update(channel=channel, ts=ts, text=said, blocks=[*blocks, context(said)])


def register(app: Any, deps: Deps) -> None:
    """Attach the anomaly buttons' listeners to ``app``."""
    handlers = AlertActions(deps)
    app.action(ANOMALY_EXPECTED)(ack=ack_now, lazy=[handlers.handle_anomaly_action])
    app.action(ANOMALY_NOT_EXPECTED)(ack=ack_now, lazy=[handlers.handle_anomaly_action])
