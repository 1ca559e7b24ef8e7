"""AWS-facing commands: ``gpuops catalog refresh``, ``gpuops worker`` and ``gpuops jobs``.

Heavy imports (boto3, the service store) happen inside the commands so ``gpuops plan`` stays light.
"""

from __future__ import annotations

from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``; ``refresh`` joins the ``catalog`` group when it exists."""
    from gpuops import cli_catalog

    catalog_app = getattr(cli_catalog, "catalog_app", None)
    if isinstance(catalog_app, typer.Typer):
        catalog_app.command("refresh")(refresh_command)
    else:
        app.command("catalog-refresh")(refresh_command)
    app.command("worker")(worker_command)
    app.command("jobs")(jobs_command)


def refresh_command(
    directory: Annotated[str, typer.Option("--dir", help="Where snapshots are kept (GPUOPS_CATALOG_DIR).")] = "",
    region: Annotated[list[str] | None, typer.Option(help="Only these regions (repeatable).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the diff without storing.")] = False,
) -> None:
    """Refresh prices from the AWS Price List API and EC2 spot history into a new catalog snapshot."""
    from datetime import UTC, datetime

    from contract.errors import UpstreamError
    from service.aws.clients import ClientFactory
    from service.aws.refresh import refresh_catalog_snapshot
    from service.settings import get_settings

    settings = get_settings()
    try:
        result = refresh_catalog_snapshot(
            factory=ClientFactory.from_settings(settings), directory=directory or settings.catalog_dir,
            now=datetime.now(UTC), regions=region or None, store=not dry_run, base_file=settings.catalog_file,
        )
    except UpstreamError as exc:
        typer.echo(f"Refresh failed, the previous snapshot stays in force: {exc}", err=True)
        raise typer.Exit(code=1) from None
    typer.echo(f"Snapshot {result.previous.snapshot} → {result.catalog.snapshot}: {len(result.changes)} price changes")
    for line in result.changes:
        typer.echo(f"  {line}")
    if result.stored is not None:
        typer.echo(f"Stored {result.stored} (in force: {result.stored.parent / 'current.json'})")


def worker_command(
    once: Annotated[bool, typer.Option("--once", help="Handle the waiting launch tasks and one tracking round, "
                                                      "then exit.")] = False,
    lease_seconds: Annotated[float | None, typer.Option(help="How long a claim holds before another worker may "
                                                              "take the task over (GPUOPS_LAUNCH_LEASE_SECONDS).")]
    = None,
    poll_seconds: Annotated[float, typer.Option(help="Pause between rounds.")] = 2.0,
    host: Annotated[str, typer.Option(help="Address of /healthz and /metrics.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port of /healthz and /metrics (0: do not serve them).")] = 8002,
) -> None:
    """Launch approved requests and track their jobs (launches are dry runs unless GPUOPS_LAUNCH=live)."""
    import signal
    import threading

    from service.launch.worker import build_worker_context, drain, run_worker, track_once
    from service.settings import get_settings

    settings = get_settings()
    ctx = build_worker_context(settings=settings, lease_seconds=lease_seconds)
    if once:
        launched = drain(ctx=ctx)
        tracked = track_once(ctx=ctx)
        typer.echo(f"handled {launched} launch task(s), polled {tracked} running job(s)")
        return
    from service.aws.health import serve_health

    health = serve_health(host=host, port=port, engine=ctx.engine) if port else None
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    typer.echo(f"gpuops worker {ctx.worker_id}: launches are {settings.launch}")
    try:
        run_worker(settings=settings, stop_event=stop, poll_seconds=poll_seconds, ctx=ctx)
    finally:
        if health is not None:
            health.shutdown()
            health.server_close()


def jobs_command(
    status: Annotated[str | None, typer.Option(help="Only jobs in this status, e.g. InProgress.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON rows.")] = False,
    untracked_in: Annotated[str | None, typer.Option(
        "--untracked-in", help="Instead, list gpuops training jobs SageMaker has in this region that the "
                               "database does not know (after a restore, say).")] = None,
) -> None:
    """List launched jobs with their estimated and actual cost."""
    import json

    from service.jobs.tracker import find_untracked_jobs, list_jobs
    from service.settings import get_settings
    from service.store.db import make_engine

    settings = get_settings()
    engine = make_engine(settings.database_url)
    if untracked_in is not None:
        from service.aws.clients import ClientFactory

        found = find_untracked_jobs(engine=engine, factory=ClientFactory.from_settings(settings), region=untracked_in)
        typer.echo(json.dumps(found, indent=2, default=str) if as_json else
                   "\n".join(f"{j['TrainingJobName']}  {j['TrainingJobStatus']}" for j in found) or "None.")
        return
    rows = list_jobs(engine=engine, status=status)
    if as_json:
        typer.echo(json.dumps(rows, indent=2, default=str))
        return
    if not rows:
        typer.echo("No jobs.")
        return
    for row in rows:
        actual = row["actual_cost_usd"]
        shown = "-" if actual is None else f"${float(str(actual)):,.2f}"
        typer.echo(f"{row['request_id']}  {row['name']}  {row['platform']}  {row['status']}"
                   f"{' (dry run)' if row['dry_run'] else ''}  est ${float(str(row['estimated_cost_usd'])):,.2f}"
                   f"  actual {shown}{_live(row)}  interruptions {row['interruptions']}")


def _live(row: dict[str, object]) -> str:
    """A running job's cost so far and projected to finish, as the tracker last refreshed them."""
    so_far, projected = row.get("cost_so_far_usd"), row.get("projected_cost_usd")
    if so_far is None or row.get("actual_cost_usd") is not None:
        return ""
    tail = "" if projected is None else f" → ${float(str(projected)):,.2f} to finish"
    return f"  so far ${float(str(so_far)):,.2f}{tail} (as of {str(row.get('cost_as_of'))[:16]})"
