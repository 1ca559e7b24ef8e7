"""``gpuops doctor``: one checklist of what gpuops needs, each line ✓, ✗ with the fix, or – skipped when that part
is not configured; exit status 1 when any check failed.

The checks live beside what they check (``service.doctor`` for settings, database, Redis and AWS; ``bot.doctor``
for Slack); this module finds the shipped documents they compare against and prints the lines.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from contract.checks import CheckResult
    from policy.config import PolicyConfig
    from service.settings import Settings

MARKS = {"ok": "✓", "failed": "✗", "skipped": "–"}
CHECKOUT = Path(__file__).resolve().parent.parent


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("doctor")(doctor_command)


def doctor_command(
    iam_policy: Annotated[Path | None, typer.Option(
        help="IAM policy document whose actions to simulate (default: deploy/iam-policy.json).")] = None,
    slack_manifest: Annotated[Path | None, typer.Option(
        help="Slack app manifest whose scopes to compare (default: deploy/slack-app-manifest.yaml).")] = None,
) -> None:
    """Check settings, database, Redis, AWS and Slack, one line each with the fix; exit 1 when any check fails."""
    from datetime import date

    from contract.checks import CheckStatus
    from service.doctor.local import check_database, check_prices, check_redis, check_settings

    settings_line, settings, policy = check_settings()
    results = [settings_line]
    if settings is not None:
        results += [check_database(settings), check_redis(settings)]
        if policy is not None:
            results.append(check_prices(settings, policy, today=date.today()))
        results += _aws_checks(settings, policy, document=_found(iam_policy, "iam-policy.json"))
    results += _slack_checks(policy, manifest=_found(slack_manifest, "slack-app-manifest.yaml"))
    for result in results:
        typer.echo(render_line(result))
    failed = sum(r.status is CheckStatus.FAILED for r in results)
    if failed:
        typer.echo(f"{failed} check(s) failed", err=True)
        raise typer.Exit(1)


def render_line(result: CheckResult) -> str:
    """``✓ database: …``, ``✗ redis: … → fix: …``, ``– aws identity: skipped: …``."""
    mark = MARKS[result.status.value]
    if result.status.value == "skipped":
        return f"{mark} {result.name}: skipped: {result.detail}"
    return f"{mark} {result.name}: {result.detail}" + (f" → fix: {result.fix}" if result.fix else "")


def _aws_checks(settings: Settings, policy: PolicyConfig | None, *, document: Path | None) -> list[CheckResult]:
    from contract.checks import CheckResult
    from service.aws.clients import DEFAULT_REGION, ClientFactory
    from service.doctor.aws import (
        check_cost_allocation_tags,
        check_cost_explorer,
        check_iam_actions,
        check_identity,
        check_team_roles,
    )

    factory = ClientFactory.from_settings(settings)
    factory.max_attempts = 2  # a checklist should answer in seconds, not retry for a minute
    identity_line, identity = check_identity(factory)
    results = [identity_line,
               check_iam_actions(factory, identity, document=document, region=settings.aws_region or DEFAULT_REGION)]
    if policy is not None:
        results.append(check_team_roles(factory, identity, policy=policy))
    if settings.spend not in ("auto", "costexplorer"):
        reason = f"GPUOPS_SPEND={settings.spend} does not read Cost Explorer"
        return [*results, CheckResult.skipped("cost explorer", reason),
                CheckResult.skipped("cost allocation tags", reason)]
    results.append(check_cost_explorer(factory, identity, today=datetime.now(UTC).date()))
    if policy is not None:
        results.append(check_cost_allocation_tags(factory, identity, policy=policy))
    return results


def _slack_checks(policy: PolicyConfig | None, *, manifest: Path | None) -> list[CheckResult]:
    from pydantic import ValidationError
    from slack_sdk import WebClient

    from bot.doctor import check_auth, check_policy_ids
    from bot.settings import BotSettings
    from contract.checks import CheckResult

    try:
        settings = BotSettings()
    except ValidationError as exc:  # e.g. a token without its signing secret outside development
        first = exc.errors()[0]
        return [CheckResult.failed("slack settings", str(first.get("msg", "invalid")),
                                   fix="set the Slack settings together (docs/operations.md, section 4)")]
    client = None
    if settings.slack_bot_token.get_secret_value():
        base_url = settings.slack_api_url if settings.slack_api_url.endswith("/") else settings.slack_api_url + "/"
        client = WebClient(token=settings.slack_bot_token.get_secret_value(), base_url=base_url, timeout=10)
    return [check_auth(client, manifest=manifest), check_policy_ids(client, policy)]


def _found(given: Path | None, name: str) -> Path | None:
    """The document given, else deploy/<name> in the working directory or in this checkout; None when absent."""
    if given is not None:
        if not given.is_file():
            raise FileNotFoundError(2, "No such file", str(given))
        return given
    for candidate in (Path.cwd() / "deploy" / name, CHECKOUT / "deploy" / name):
        if candidate.is_file():
            return candidate
    return None
