"""``gpuops plan`` and ``gpuops policy check``: the decision in a terminal, no server needed.

Only the policy package and the standard library are imported, so the command starts fast and never loads the
service or Slack stacks.
"""

from __future__ import annotations

import json
import math
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import typer

from policy.errors import PolicyFileError, RequestError

if TYPE_CHECKING:
    from policy.config import PolicyConfig
    from policy.spend import SpendSnapshot

POLICY_ENV = "GPUOPS_POLICY"
_SPEND_KEYS = {"month_to_date_usd": ("month_to_date_usd", "month_to_date"),
               "forecast_usd": ("forecast_usd", "forecast"), "budget_usd": ("budget_usd", "budget")}

policy_app = typer.Typer(help="Check policy files.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add ``plan`` and ``policy check`` to ``app``."""
    app.command("plan")(plan_command)
    app.add_typer(policy_app, name="policy")


def plan_command(
    text: Annotated[str, typer.Argument(help='The request, e.g. "fine-tune 7B by Friday".')],
    as_json: Annotated[bool, typer.Option("--json", help="Print the decision as JSON.")] = False,
    now: Annotated[str | None, typer.Option(help="Request time, ISO 8601 (default: the current time).")] = None,
    tz: Annotated[str | None, typer.Option(help="Requester's time zone (default: $TZ, else UTC).")] = None,
    team: Annotated[str | None, typer.Option(help="Team when the text names none.")] = None,
    policy: Annotated[str | None, typer.Option(help=f"Policy file (default: ${POLICY_ENV}, else embedded).")] = None,
    spend: Annotated[str | None, typer.Option(help="JSON file of spend per team.")] = None,
) -> None:
    """Recommend compute for a training request and explain why."""
    from gpuops.render import render_text
    from policy.catalog import load_catalog
    from policy.parse import parse_request
    from policy.tree import decide

    try:
        zone_name = tz or os.environ.get("TZ") or "UTC"
        zone = _zone(zone_name)
        moment = _now(now, zone)
        config = _policy(policy)
        request = parse_request(text, now=moment, tz=zone_name, team=team)
        snapshot = _spend(spend, team=config.team_or_default(request.team)[0], now=moment, policy=config)
        decision = decide(request, catalog=load_catalog(), policy=config, spend=snapshot, now=moment)
    except RequestError as exc:
        _fail(exc.code, exc.message, as_json=as_json)
    if as_json:
        typer.echo(json.dumps(decision.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        typer.echo(render_text(decision, zone))


@policy_app.command("check")
def policy_check_command(file: Annotated[str, typer.Argument(help="Policy YAML file to validate.")]) -> None:
    """Validate a policy file; print each error with its key path."""
    from policy.config import load_policy_file

    try:
        config = load_policy_file(file)
    except PolicyFileError as exc:
        for path, message in exc.errors:
            typer.echo(f"{exc.source}: {path}: {message}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"{file}: ok (version {config.version_hash}, {len(config.teams)} team(s), "
               f"{len(config.size_classes)} size class(es))")


def _fail(code: str, message: str, *, as_json: bool) -> NoReturn:
    if as_json:
        typer.echo(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False))
    else:
        typer.echo(message, err=True)
    raise typer.Exit(2)


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise RequestError(f"Unknown time zone {name!r}; use an IANA name like America/Los_Angeles.",
                           code="unknown_time_zone") from None


def _now(value: str | None, zone: ZoneInfo) -> datetime:
    if value is None:
        return datetime.now(UTC).astimezone(zone)  # the CLI reads the clock; policy/ never does
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise RequestError(f"--now {value!r} is not ISO 8601; e.g. 2026-11-30T09:00.", code="invalid_now") from None
    return moment.replace(tzinfo=zone) if moment.tzinfo is None else moment


def _policy(path: str | None) -> PolicyConfig:
    from policy.config import default_policy, load_policy_file

    path = path or os.environ.get(POLICY_ENV) or None
    return default_policy() if path is None else load_policy_file(path)


def _spend(path: str | None, *, team: str, now: datetime, policy: PolicyConfig) -> SpendSnapshot:
    """Spend for ``team`` from a small JSON file, or 'unavailable' without one.

    ``{"team-ml": {"month_to_date_usd", "forecast_usd", "budget_usd", "as_of"}}``, or the service's spend file
    (``{"as_of", "teams": {...}}``). ``forecast_usd`` is the rest of the month. Without ``as_of`` the figure's age is
    unknown: it is shown but counts as stale, so it never approves automatically.
    """
    from policy.spend import SpendSnapshot, SpendStatus

    budget = policy.team(team).monthly_budget_usd
    if path is None:
        return SpendSnapshot.unavailable(team=team, reason="no spend source (pass --spend FILE)", budget_usd=budget)
    raw = _read_json(path)
    teams = raw.get("teams", raw)
    entry = teams.get(team) if isinstance(teams, dict) else None
    if not isinstance(entry, dict):
        return SpendSnapshot.unavailable(team=team, reason=f"{path} has no spend for {team}", budget_usd=budget)
    fields: dict[str, Any] = {"status": SpendStatus.OK, "team": team, "as_of": now, "budget_usd": budget}
    for field, names in _SPEND_KEYS.items():
        for name in names:
            if name in entry:
                fields[field] = _number(entry[name], f"{path}: {team}.{name}")
    as_of = entry.get("as_of", raw.get("as_of"))  # per team, else the file's (the service's spend file format)
    if as_of is not None:
        fields["as_of"] = _as_of(as_of, path, team, now)
    else:
        fields.update(status=SpendStatus.STALE, as_of=None,
                      reason=f"{path} gives no as_of for {team}: the figure's age is unknown")
    return SpendSnapshot(**fields)


def _read_json(path: str) -> dict[str, Any]:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RequestError(f"Cannot read spend file {path}: {exc}.", code="invalid_spend_file") from None
    if not isinstance(raw, dict):
        raise RequestError(f"Spend file {path} must be a JSON object of teams.", code="invalid_spend_file")
    return raw


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise RequestError(f"{where} must be a non-negative number of USD.", code="invalid_spend_file")
    return float(value)


def _as_of(value: object, path: str, team: str, now: datetime) -> datetime:
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        raise RequestError(f"{path}: {team}.as_of must be ISO 8601.", code="invalid_spend_file") from None
    return moment.replace(tzinfo=now.tzinfo) if moment.tzinfo is None else moment
