"""``gpuops approve REQUEST --as slack:T…:U…``: decide on a request as a Slack person, from a terminal.

It goes through the service exactly as the bot does: the bot token (``GPUOPS_SERVICE_TOKEN``, the ``bot:`` entry that
``gpuops dev`` prints) acting for the person named in ``X-Gpuops-Actor``, so the service applies every rule it applies
to a click (only approvers count, never the requester, the revision shown). For trying approvals against
``make run`` without a Slack workspace.
"""

from __future__ import annotations

from typing import Annotated

import typer

from gpuops.cli_bot import _require_service_token

AsOption = Annotated[str, typer.Option("--as", help="The person deciding, as slack:<workspace>:<user>.")]


def approve_command(
    request_id: Annotated[str, typer.Argument(help="The request, req_….")],
    person: AsOption,
    reject: Annotated[bool, typer.Option("--reject", help="Reject instead of approving.")] = False,
    reason: Annotated[str | None, typer.Option("--reason", help="Why (recorded with the decision).")] = None,
    revision: Annotated[int | None, typer.Option(
        help="The revision you looked at; refused if the plan has changed since.")] = None,
) -> None:
    """Approve (or --reject) a request as a Slack person, through the service as the bot would."""
    from bot.client import ServiceClient
    from bot.settings import get_settings
    from contract.actors import slack_user
    from policy.errors import GpuopsError

    if slack_user(person) is None:
        typer.echo(f"--as must name a Slack person as slack:<workspace>:<user>, e.g. slack:T0GPUOPS:U0LEAD1; "
                   f"got {person!r}", err=True)
        raise typer.Exit(2)
    if reject and not reason:
        typer.echo("say why with --reason: the requester sees it", err=True)
        raise typer.Exit(2)
    settings = get_settings()
    _require_service_token(settings)
    client = ServiceClient(base_url=settings.service_url, token=settings.service_token.get_secret_value(),
                           timeout=settings.service_timeout)
    try:
        req = client.record_approval(request_id=request_id, actor=person, decision="reject" if reject else "approve",
                                     comment=reason, revision=revision)
    except GpuopsError as error:
        typer.echo(f"{type(error).__name__}: {error.message}", err=True)
        raise typer.Exit(1) from None
    finally:
        client.close()
    remaining = f", {req.approvals_remaining} more approval(s) needed" if req.approvals_remaining else ""
    typer.echo(f"{req.id} revision {req.revision}: {req.status}{remaining}")


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.command("approve")(approve_command)
