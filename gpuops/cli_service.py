"""Service commands: ``gpuops service``, ``gpuops dev`` and ``gpuops db upgrade``.

FastAPI, SQLAlchemy and uvicorn are imported inside the commands, so ``gpuops plan`` never loads them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from fastapi import FastAPI

db_app = typer.Typer(help="The service database.", no_args_is_help=True)

HostOption = Annotated[str, typer.Option(help="Interface to listen on.")]
PortOption = Annotated[int, typer.Option(help="Port to listen on.")]


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("service")(service_command)
    app.command("dev")(dev_command)
    app.add_typer(db_app, name="db")


def _serve(host: str, port: int, *, with_worker: bool = False, bot_port: int | None = None,
           workers: int = 1) -> None:
    import threading

    import uvicorn

    from service.logs import configure_logging
    from service.settings import get_settings

    settings = get_settings()
    configure_logging(settings.log_level)
    app = None
    if workers == 1:  # with several, the supervisor only forks: the app lives in worker_process_app
        from service.api.app import create_app

        app = create_app(settings)
    stop = threading.Event()
    companions: list[threading.Thread] = []
    if with_worker:
        from service.launch.worker import run_worker

        companions.append(threading.Thread(target=run_worker, name="gpuops-worker", daemon=True,
                                           kwargs={"settings": settings, "stop_event": stop}))
    stop_bot = _start_bot(host, bot_port) if bot_port is not None else None
    _freeze_startup_objects()
    for thread in companions:
        thread.start()
    try:
        if app is None:
            # Several processes need an import string; each builds its app (and its JSON logging) from the settings.
            uvicorn.run("gpuops.cli_service:worker_process_app", factory=True, host=host, port=port,
                        log_config=None, access_log=False, workers=workers)
        else:
            uvicorn.run(app, host=host, port=port, log_config=None, access_log=False, workers=1)
    finally:
        stop.set()
        if stop_bot is not None:
            stop_bot()
        for thread in companions:
            thread.join(timeout=10)


def worker_process_app() -> FastAPI:
    """The app of one of several uvicorn worker processes (``gpuops service --workers N``)."""
    from service.api.app import create_app
    from service.logs import configure_logging
    from service.settings import get_settings

    settings = get_settings()
    configure_logging(settings.log_level)
    return create_app(settings)


def _start_bot(host: str, port: int) -> Callable[[], None]:
    """The Slack bot beside the service (``gpuops dev`` with Slack credentials), talking to it over HTTP."""
    from bot.runner import start_in_background
    from bot.settings import BotSettings

    typer.echo(f"gpuops bot listening on http://{host}:{port}/slack/events")
    return start_in_background(BotSettings(), host=host, port=port)


def _slack_configured() -> bool:
    """Whether the bot's own settings have what it needs to run (read the way ``gpuops bot`` reads them)."""
    from bot.settings import BotSettings

    settings = BotSettings()
    return bool(settings.slack_bot_token.get_secret_value() and settings.slack_signing_secret.get_secret_value())


def _freeze_startup_objects() -> None:
    """Catalog, policy and imports live as long as the process: keep them out of every garbage-collection pass,
    which would otherwise walk them all and show up as latency spikes."""
    import gc

    gc.collect()
    gc.freeze()


WorkersOption = Annotated[int, typer.Option(min=1, max=32, help="uvicorn worker processes.")]


def service_command(host: HostOption = "127.0.0.1", port: PortOption = 8000, workers: WorkersOption = 1) -> None:
    """Run the policy service (uvicorn; one process unless --workers says more)."""
    _serve(host, port, workers=workers)


@db_app.command("upgrade")
def db_upgrade_command() -> None:
    """Apply the database migrations (DATABASE_URL; SQLite ./gpuops.db by default)."""
    from service.settings import get_settings
    from service.store.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database_url)
    typer.echo(f"database at {_redacted(settings.database_url)} is up to date")


BotPortOption = Annotated[int, typer.Option(help="Port of the Slack bot (when Slack credentials are set).")]


def dev_command(host: HostOption = "127.0.0.1", port: PortOption = 8000, bot_port: BotPortOption = 3000) -> None:
    """Everything on the embedded defaults: migrate, then the service, the launch worker and (when
    SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are set) the Slack bot."""
    import os
    import secrets

    from service.settings import get_settings
    from service.store.migrate import upgrade

    with_bot = _slack_configured()
    if not os.environ.get("GPUOPS_API_TOKENS"):
        token, bot_token = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        os.environ["GPUOPS_API_TOKENS"] = f"admin:{token},bot:{bot_token}"
        if with_bot:
            os.environ.setdefault("GPUOPS_SERVICE_TOKEN", bot_token)
        get_settings.cache_clear()
        _print_try_it(host, port, token)
    if with_bot:
        os.environ.setdefault("GPUOPS_SERVICE_URL", f"http://{host}:{port}")
    settings = get_settings()
    upgrade(settings.database_url)
    typer.echo(f"gpuops service listening on http://{host}:{port} (API docs at /docs); "
               f"launches: {settings.launch}")
    if not with_bot:
        typer.echo("Slack bot not started: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET to run it here too")
    _serve(host, port, with_worker=True, bot_port=bot_port if with_bot else None)


def _print_try_it(host: str, port: int, token: str) -> None:
    typer.echo(f"No GPUOPS_API_TOKENS set: generated an admin token for this run:\n\n  {token}\n")
    typer.echo("Try it:\n")
    typer.echo(f"  curl -s -X POST http://{host}:{port}/v1/plans \\\n"
               f"    -H 'Authorization: Bearer {token}' -H 'Content-Type: application/json' \\\n"
               "    -d '{\"text\": \"fine-tune 7B by Friday\"}'\n")


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
