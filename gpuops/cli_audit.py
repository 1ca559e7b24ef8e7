"""Audit commands: ``gpuops audit verify`` and ``gpuops audit anchor``.

SQLAlchemy and boto3 are imported inside the commands, so ``gpuops plan`` never loads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from sqlmodel import Session

    from service.audit.chain import ChainReport
    from service.settings import Settings

audit_app = typer.Typer(help="The audit log.", no_args_is_help=True)

AnchorOption = Annotated[str | None, typer.Option(
    "--anchor", help="s3://bucket/prefix where heads are published; report a chain shorter than or different from "
                     "the latest one there.")]
ToOption = Annotated[str | None, typer.Option(
    "--to", help="s3://bucket/prefix (with Object Lock) to publish to; GPUOPS_AUDIT_ANCHOR by default.")]


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.add_typer(audit_app, name="audit")


@audit_app.command("verify")
def audit_verify_command(anchor: AnchorOption = None) -> None:
    """Check the chain, the tables against it and, with --anchor, its length; exit status 1 on any problem."""
    from service.audit.chain import verify_chain
    from service.audit.check import check_tables
    from service.settings import get_settings
    from service.store.db import new_session

    settings = get_settings()
    engine = _engine(settings)
    try:
        with new_session(engine) as session:
            report = verify_chain(session=session)
            problems = _chain_lines(report)
            if report.ok:  # an altered chain cannot vouch for anything the tables are compared with
                findings = check_tables(session=session)
                problems += [f"request {f.request_id}: {f.problem}" for f in findings]
                if not findings:
                    typer.echo("tables agree with the audit events")
            if anchor is not None:
                problems += _anchor_lines(session, settings, anchor)
    finally:
        engine.dispose()
    for line in problems:
        typer.echo(line, err=True)
    if problems:
        raise typer.Exit(code=1)


@audit_app.command("anchor")
def audit_anchor_command(to: ToOption = None) -> None:
    """Publish the chain's head to S3 under Object Lock (compliance mode), out of reach of the database."""
    from service.audit.anchors import AnchorLocation, publish_anchor
    from service.aws.clients import ClientFactory
    from service.clock import utcnow
    from service.settings import get_settings
    from service.store.db import new_session

    settings = get_settings()
    target = to or settings.audit_anchor
    if target is None:
        typer.echo("nowhere to publish: pass --to s3://bucket/prefix or set GPUOPS_AUDIT_ANCHOR", err=True)
        raise typer.Exit(code=2)
    engine = _engine(settings)
    try:
        with new_session(engine) as session:
            published = publish_anchor(session=session, factory=ClientFactory.from_settings(settings),
                                       location=AnchorLocation.parse(target),
                                       retain_days=settings.audit_anchor_retain_days, now=utcnow())
    finally:
        engine.dispose()
    typer.echo(f"published the head of the audit chain (event {published.seq}) to {target}")


def _engine(settings: Settings) -> Engine:
    from service.audit.keys import bind_keyring, keyring_from_settings
    from service.store.db import make_engine

    return bind_keyring(make_engine(settings.database_url), keyring_from_settings(settings))


def _chain_lines(report: ChainReport) -> list[str]:
    """Echo what is fine; return what is wrong."""
    if not report.ok:
        return [f"audit chain broken at event {report.broken_seq}: {report.reason} "
                f"({report.checked} events before it are intact)"]
    typer.echo(f"audit chain intact: {report.checked} events")
    if report.unkeyed and report.unkeyed_until is not None:
        typer.echo(f"  of which {report.unkeyed} unkeyed (before {report.unkeyed_until:%Y-%m-%d %H:%M} UTC): "
                   "written before the chain was keyed, protected only by the keyed events after them")
    return []


def _anchor_lines(session: Session, settings: Settings, url: str) -> list[str]:
    from service.audit.anchors import AnchorLocation, check_anchor, latest_anchor
    from service.aws.clients import ClientFactory

    published = latest_anchor(factory=ClientFactory.from_settings(settings), location=AnchorLocation.parse(url))
    if published is None:
        return [f"no published head at {url}: run gpuops audit anchor (the worker does it hourly)"]
    problem = check_anchor(session=session, anchor=published)
    if problem is not None:
        return [f"anchor {url}: {problem}"]
    typer.echo(f"the chain extends the head published at {published.published_at:%Y-%m-%d %H:%M} UTC "
               f"(event {published.seq})")
    return []
