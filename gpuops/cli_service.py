"""Service commands: ``gpuops service``, ``gpuops dev`` and ``gpuops db upgrade``.

FastAPI, SQLAlchemy and uvicorn are imported inside the commands, so ``gpuops plan`` never loads them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    import uvicorn
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
    _freeze_startup_objects()
    for thread in companions:
        thread.start()
    stop_bot: list[Callable[[], None]] = []
    try:
        if app is None:
            # Several processes need an import string; each builds its app (and its JSON logging) from the settings.
            uvicorn.run("gpuops.cli_service:worker_process_app", factory=True, host=host, port=port,
                        log_config=None, access_log=False, workers=workers)
        else:
            server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False))
            if bot_port is not None:
                # The bot reads the policy and the events feed at once: started before the service listens, it
                # would log a failure (with its traceback) for each of them on every start.
                companions.append(_start_bot_once_serving(server, host, bot_port, stop, stop_bot))
            server.run()
    finally:
        stop.set()
        for stop_one in stop_bot:
            stop_one()
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


def _start_bot_once_serving(server: uvicorn.Server, host: str, port: int, stop: threading.Event,
                            stoppers: list[Callable[[], None]]) -> threading.Thread:
    """The Slack bot beside the service (``gpuops dev`` with Slack credentials), talking to it over HTTP; started
    by a thread that waits until the service accepts connections. ``stoppers`` receives the function that stops it."""
    from bot.runner import start_in_background
    from bot.settings import BotSettings

    def start_when_serving() -> None:
        while not server.started:
            if stop.wait(0.05):
                return
        stoppers.append(start_in_background(BotSettings(), host=host, port=port))
        typer.echo(f"gpuops bot listening on http://{host}:{port}/slack/events")

    thread = threading.Thread(target=start_when_serving, name="gpuops-bot-start", daemon=True)
    thread.start()
    return thread


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
    if not _migrate_embedded_database():
        _warn_if_not_migrated()
    _serve(host, port, workers=workers)


def _migrate_embedded_database() -> bool:
    """On the embedded default (no DATABASE_URL: the SQLite file ./gpuops.db) migrate at start, as ``gpuops dev``
    does: nobody else runs migrations there. A database someone configured is theirs to upgrade."""
    from service.settings import Settings, get_settings
    from service.store.migrate import upgrade

    settings = get_settings()
    default = Settings.model_fields["database_url"].default
    if settings.database_url != default:
        return False
    upgrade(settings.database_url)
    typer.echo(f"gpuops service: the embedded database {settings.database_url} is at the current schema")
    return True


def _warn_if_not_migrated() -> None:
    """Say at start what /readyz would say: an unmigrated database answers reads and fails every write."""
    from sqlalchemy.exc import SQLAlchemyError

    from service.settings import get_settings
    from service.store.db import make_engine
    from service.store.migrate import schema_behind

    engine = make_engine(get_settings().database_url, pool_size=1)
    try:
        problem = schema_behind(engine)
    except SQLAlchemyError:
        return  # not reachable yet: /readyz reports it, and the service reconnects when it answers
    finally:
        engine.dispose()
    if problem:
        typer.echo(f"gpuops service: {problem}; until then /readyz answers 503 and every write fails", err=True)


@db_app.command("upgrade")
def db_upgrade_command() -> None:
    """Apply the database migrations (DATABASE_URL; SQLite ./gpuops.db by default)."""
    from service.settings import get_settings
    from service.store.migrate import upgrade

    settings = get_settings()
    upgrade(settings.database_url)
    typer.echo(f"database at {_redacted(settings.database_url)} is up to date")


BotPortOption = Annotated[int | None, typer.Option(
    help="Port of the Slack bot (when Slack credentials are set); default GPUOPS_BOT_PORT, else 3000.")]


def dev_command(host: HostOption = "127.0.0.1", port: PortOption = 8000, bot_port: BotPortOption = None) -> None:
    """Everything on the embedded defaults: migrate, then the service, the launch worker and (when
    SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are set) the Slack bot."""
    import os
    import secrets

    from bot.settings import BotSettings
    from gpuops.devrun import DevRun, remove_dev_run, write_dev_run
    from service.settings import get_settings
    from service.store.migrate import upgrade

    with_bot = _slack_configured()
    written = None
    if not os.environ.get("GPUOPS_API_TOKENS"):
        token, bot_token = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        os.environ["GPUOPS_API_TOKENS"] = f"admin:{token},bot:{bot_token}"
        if with_bot:
            os.environ.setdefault("GPUOPS_SERVICE_TOKEN", bot_token)
        get_settings.cache_clear()
        _print_try_it(host, port, token, bot_token)
        # `gpuops digest` in another terminal of this directory finds the service and its token here.
        written = write_dev_run(DevRun(service_url=f"http://{host}:{port}", bot_token=bot_token, pid=os.getpid()))
    if with_bot:
        os.environ.setdefault("GPUOPS_SERVICE_URL", f"http://{host}:{port}")
    if bot_port is None:
        bot_port = BotSettings().port  # GPUOPS_BOT_PORT, as ``gpuops bot`` reads it
    settings = get_settings()
    upgrade(settings.database_url)
    typer.echo(f"gpuops service listening on http://{host}:{port} (API docs at /docs); "
               f"launches: {settings.launch}")
    if not with_bot:
        typer.echo("Slack bot not started: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET to run it here too")
    try:
        _serve(host, port, with_worker=True, bot_port=bot_port if with_bot else None)
    finally:
        if written is not None:
            remove_dev_run(written)


def _print_try_it(host: str, port: int, token: str, bot_token: str) -> None:
    typer.echo(f"No GPUOPS_API_TOKENS set: generated an admin token for this run:\n\n  {token}\n")
    typer.echo(f"and a bot token, which acts for the person named in X-Gpuops-Actor:\n\n  {bot_token}\n")
    typer.echo("Try it:\n")
    typer.echo(f"  curl -s -X POST http://{host}:{port}/v1/plans \\\n"
               f"    -H 'Authorization: Bearer {token}' -H 'Content-Type: application/json' \\\n"
               "    -d '{\"text\": \"fine-tune 7B by Friday\"}'\n")
    typer.echo("Ask for GPUs as a Slack person (the answer's id is the request's):\n")
    typer.echo(f"  curl -s -X POST http://{host}:{port}/v1/requests \\\n"
               f"    -H 'Authorization: Bearer {bot_token}' -H 'X-Gpuops-Actor: slack:T0GPUOPS:U0ASKER' \\\n"
               "    -H 'Content-Type: application/json' -d '{\"text\": \"fine-tune 7B by Friday\"}'\n")
    typer.echo("Approve it as someone else (U0LEAD1 is an approver in the default policy):\n")
    typer.echo(f"  GPUOPS_SERVICE_URL=http://{host}:{port} GPUOPS_SERVICE_TOKEN={bot_token} \\\n"
               "    gpuops approve <id> --as slack:T0GPUOPS:U0LEAD1\n")


def _redacted(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
