"""``gpuops bot`` and ``gpuops digest``. Imports of Slack and the bot happen inside the commands so that
``gpuops plan`` stays light."""

from __future__ import annotations

import json
import pathlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated
from zoneinfo import ZoneInfo

import typer

if TYPE_CHECKING:
    from bot.settings import BotSettings


def bot(
    host: Annotated[str | None, typer.Option(help="Address to listen on (HTTP mode); default GPUOPS_BOT_HOST.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on (HTTP mode); default GPUOPS_BOT_PORT.")] = None,
) -> None:
    """Run the Slack bot: HTTP at /slack/events, or Socket Mode when SLACK_APP_TOKEN is set."""
    import logging

    from bot.runner import run_bot
    from bot.settings import get_settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per service call drowns what matters
    settings = _with_dev_run(get_settings())
    if not settings.slack_configured:
        typer.echo("SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET must be set to run the bot.", err=True)
        raise typer.Exit(2)
    _require_service_token(settings)
    run_bot(settings, host=host or settings.host, port=port or settings.port)


def digest(
    team: Annotated[str, typer.Option("--team", help="Team whose digest to render.")],
    out: Annotated[pathlib.Path | None, typer.Option("--out", help="Directory for digest.json and the PNG.")] = None,
    post: Annotated[bool, typer.Option("--post", help="Post it to the team's digest channel.")] = False,
) -> None:
    """Show a team's spend digest; --out writes its Block Kit JSON and PNG chart, --post posts it to its channel."""
    from bot.app import build_service_client, build_web_client
    from bot.digest import build_digest, deliver_once
    from bot.settings import get_settings
    from policy.config import PolicyConfig
    from policy.errors import GpuopsError

    settings = _with_dev_run(get_settings())
    _require_service_token(settings)
    service = build_service_client(settings)
    try:
        now = datetime.now(UTC)
        sub = PolicyConfig.model_validate(service.get_policy().policy).team(team).digest
        tz_name = sub.timezone if sub is not None else "UTC"  # the channel's dates, as the scheduled post has them
        rendered = build_digest(service, team=team, now=now, tz_name=tz_name)
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / "digest.json").write_text(json.dumps({"text": rendered.text, "blocks": rendered.blocks}, indent=2))
            written = [out / "digest.json"]
            if rendered.png is not None:
                (out / f"spend-{team}.png").write_bytes(rendered.png)
                written.append(out / f"spend-{team}.png")
            typer.echo(f"wrote {' and '.join(str(p) for p in written)}")
        if out is None and not post:  # no file, no post: the digest as text in the terminal
            typer.echo("\n\n".join(b["text"]["text"] for b in rendered.blocks if "text" in b))
        if post:
            if sub is None:
                typer.echo(f"team {team} has no digest channel in the policy (teams.{team}.digest)", err=True)
                raise typer.Exit(2)
            day = now.astimezone(ZoneInfo(sub.timezone)).date().isoformat()
            client = build_web_client(settings)
            posted = deliver_once(service, client, team=team, channel=sub.channel, day=day, now=now,
                                  tz_name=sub.timezone)
            typer.echo(f"posted to {sub.channel}" if posted else f"already posted to {sub.channel} for {day}")
    except GpuopsError as exc:  # the service's words say what to fix; a traceback would bury them
        typer.echo(f"gpuops digest: {exc.message} (GPUOPS_SERVICE_URL={settings.service_url})", err=True)
        raise typer.Exit(1) from None
    finally:
        service.close()


def _with_dev_run(settings: BotSettings) -> BotSettings:
    """Without a service token, the service ``gpuops dev`` (``make run``) runs from this directory, if it does."""
    from pydantic import SecretStr

    from gpuops.devrun import DEV_FILE, read_dev_run

    if settings.service_token.get_secret_value():
        return settings
    run = read_dev_run()
    if run is None:
        return settings
    typer.echo(f"using the service of `gpuops dev` at {run.service_url} (from {DEV_FILE})", err=True)
    return settings.model_copy(update={"service_url": run.service_url, "service_token": SecretStr(run.bot_token)})


def _require_service_token(settings: BotSettings) -> None:
    """Without it every call to the service is refused; say so now rather than at the first request."""
    if not settings.service_token.get_secret_value():
        typer.echo("GPUOPS_SERVICE_TOKEN must be set: the bot: entry of the service's GPUOPS_API_TOKENS "
                   "(`gpuops dev` prints one; run from the directory of `make run`, it is found without it). "
                   f"GPUOPS_SERVICE_URL says where the service is (now {settings.service_url}).", err=True)
        raise typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("bot")(bot)
    app.command("digest")(digest)
