"""``gpuops plan`` and ``gpuops policy check``: the decision in a terminal, no server needed.

Only the policy package and the standard library are imported, so the command starts fast and never loads the
service or Slack stacks.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn
from zoneinfo import ZoneInfo

import typer

from policy.errors import PolicyFileError, RequestError

if TYPE_CHECKING:
    from policy.config import PolicyConfig
    from service.spend.providers import SpendProvider

POLICY_ENV = "GPUOPS_POLICY"
EXIT_INVALID = 2  # the request cannot be planned as typed
EXIT_NEEDS_INPUT = 3  # questions to answer before a plan
EXIT_DENIED = 4  # a plan the policy denies

policy_app = typer.Typer(help="Check policy files.", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add ``plan`` and ``policy check`` to ``app``."""
    app.command("plan")(plan_command)
    app.add_typer(policy_app, name="policy")


def plan_command(
    text: Annotated[str, typer.Argument(help='The request, e.g. "fine-tune 7B by Friday".')],
    as_json: Annotated[bool, typer.Option("--json", help="Print the decision as JSON.")] = False,
    now: Annotated[str | None, typer.Option(help="Request time, ISO 8601; without an offset it is read in --tz "
                                                 "(default: the current time).")] = None,
    tz: Annotated[str | None, typer.Option(help="Requester's time zone (default: $TZ, else UTC).")] = None,
    team: Annotated[str | None, typer.Option(help="Team when the text names none.")] = None,
    policy: Annotated[str | None, typer.Option(help=f"Policy file (default: ${POLICY_ENV}, else embedded).")] = None,
    spend: Annotated[str | None, typer.Option(help="Spend file (JSON, the service's format), or 'sample' for the "
                                                   "shipped sample.")] = None,
) -> None:
    """Recommend compute for a training request and explain why.

    The same pipeline as the service's POST /v1/plans: the catalog in force (refreshed or shipped), the policy, the
    spend file read and aged by the same rule, so the same input gives the same plan and plan hash.

    Exit codes: 0 a plan (auto-approved or needing approval); 2 the request cannot be planned as typed (the
    message says what to change); 3 needs input: the questions to answer (with --json, {"status": "needs_input",
    "questions": [...], "request": {...}}); 4 the plan is denied by policy.
    """
    from gpuops.pattern_cache import PatternCache, cache_file
    from gpuops.render import render_questions, render_text
    from policy.catalog import load_catalog
    from policy.intake import zone_or_raise
    from policy.patterns import use_compiler
    from policy.questions import NeedsInput
    from service.planning import Planner, catalog_source, load_policy, make_capacity_provider
    from service.settings import Settings

    patterns = PatternCache(cache_file())  # the parser's compiled patterns, kept from earlier runs
    compiler = use_compiler(patterns.compile)
    try:
        zone_name = zone_or_raise(tz or os.environ.get("TZ") or None)
        moment = _now(now, zone_name)
        settings = Settings() if policy is None else Settings(policy_file=policy)
        config = load_policy(settings)
        catalog = load_catalog(catalog_source(settings))
        planner = Planner(catalog=catalog, policy=config, spend=_spend(spend, now=moment),
                          capacity=make_capacity_provider(settings, catalog=catalog, policy=config))
        context = planner.ask_or_plan(text=text, fields={"team": team} if team else {}, timezone=zone_name,
                                      now=moment)
    except RequestError as exc:
        _fail(exc.code, exc.message, as_json=as_json)
    finally:
        use_compiler(compiler)
        patterns.save()
    if isinstance(context, NeedsInput):
        typer.echo(context.model_dump_json(indent=2) if as_json else render_questions(context))
        raise typer.Exit(EXIT_NEEDS_INPUT)
    if as_json:
        typer.echo(json.dumps(context.decision.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        typer.echo(render_text(context.decision, ZoneInfo(zone_name), plan_hash=context.plan_hash, now=moment))
    if context.decision.approval.denied:
        raise typer.Exit(EXIT_DENIED)


@policy_app.command("check")
def policy_check_command(
    file: Annotated[str, typer.Argument(help="Policy YAML file to validate.")],
    slack: Annotated[bool, typer.Option("--slack", help=(
        "Also ask Slack (SLACK_BOT_TOKEN) that every actor id, user group and e-mail the policy names exists."))
    ] = False,
) -> None:
    """Validate a policy file; print each error with its key path (exit 2), and warnings (exit 0)."""
    from policy.config import load_policy_file, policy_warnings

    try:
        config = load_policy_file(file)
    except PolicyFileError as exc:
        for path, message in exc.errors:
            typer.echo(f"{exc.source}: {path}: {message}", err=True)
        raise typer.Exit(2) from None
    for path, message in policy_warnings(config):
        typer.echo(f"{file}: warning: {path}: {message}", err=True)
    if slack:
        _check_in_slack(file, config)
    typer.echo(f"{file}: ok (version {config.version_hash}, {len(config.teams)} team(s), "
               f"{len(config.size_classes)} size class(es))")


def _check_in_slack(file: str, config: PolicyConfig) -> None:
    """Every person, user group and e-mail the policy names, asked of Slack with the bot token (exit 2 if one is
    missing). Imports Slack only when asked to."""
    from bot.app import build_web_client
    from bot.settings import get_settings
    from bot.slack_check import named_entries, slack_problems

    settings = get_settings()
    if not settings.slack_bot_token.get_secret_value():
        typer.echo("--slack needs SLACK_BOT_TOKEN (scopes users:read, users:read.email, usergroups:read)", err=True)
        raise typer.Exit(2)
    problems = slack_problems(config, build_web_client(settings))
    for path, message in problems:
        typer.echo(f"{file}: {path}: {message}", err=True)
    if problems:
        raise typer.Exit(2)
    typer.echo(f"{file}: Slack knows all {len({e for _, e in named_entries(config)})} people, user groups and "
               "e-mails it names")


def _fail(code: str, message: str, *, as_json: bool) -> NoReturn:
    if as_json:
        typer.echo(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False))
    else:
        typer.echo(message, err=True)
    raise typer.Exit(EXIT_INVALID)


def _now(value: str | None, zone: str) -> datetime:
    from policy.intake import local_moment

    if value is None:
        return datetime.now(UTC).astimezone(ZoneInfo(zone))  # the CLI reads the clock; policy/ never does
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise RequestError(f"--now {value!r} is not ISO 8601; e.g. 2026-11-30T09:00.", code="invalid_now") from None
    return local_moment(moment, timezone=zone)


def _spend(path: str | None, *, now: datetime) -> SpendProvider:
    """The spend source ``--spend`` names, read as of ``now``; a file that cannot be read is an error here, not
    'unavailable' as in the long-running service, so that a typo is caught at once."""
    from policy.spend import spend_from_document
    from service.spend.providers import FileSpend, SampleSpend, UnavailableSpend, sample_spend_path

    if path is None:
        return UnavailableSpend(reason="no spend source (pass --spend FILE, or --spend sample)")
    if path == "sample":
        return SampleSpend(sample_spend_path(), clock=lambda: now)
    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RequestError(f"Cannot read spend file {path}: {exc}.", code="invalid_spend_file") from None
    spend_from_document(document, source=path)
    return FileSpend(path, clock=lambda: now)
