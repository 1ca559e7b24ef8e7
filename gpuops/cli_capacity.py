"""``gpuops capacity show``: what the account can start for a type and count — quotas, usage, spot scores."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

capacity_app = typer.Typer(help="What the AWS account can start: quotas, usage and spot placement scores.",
                           no_args_is_help=True)


def register(app: typer.Typer) -> None:
    app.add_typer(capacity_app, name="capacity")


@capacity_app.command("show")
def show_command(
    instance_type: Annotated[str, typer.Option("--type", help="Instance type, e.g. p5.48xlarge.")],
    count: Annotated[int, typer.Option(min=1, help="Instances wanted.")] = 1,
    region: Annotated[list[str] | None, typer.Option(help="Only these regions (repeatable; default: the "
                                                          "policy's).")] = None,
) -> None:
    """Print the quotas that limit COUNT × TYPE (SageMaker training, EC2 vCPUs), what is in use and spot scores."""
    from gpuops.capacity_text import render_account
    from policy.catalog import load_catalog
    from service.planning import catalog_source, load_policy, make_capacity_provider
    from service.settings import get_settings

    settings = get_settings()
    catalog, policy = load_catalog(catalog_source(settings)), load_policy(settings)
    spec = catalog.instances.get(instance_type)
    if spec is None:
        typer.echo(f"{instance_type} is not in the catalog; e.g. p5.48xlarge, p4d.24xlarge, g6e.48xlarge.", err=True)
        raise typer.Exit(2)
    regions = list(region or policy.regions)
    provider = make_capacity_provider(settings, catalog=catalog, policy=policy)
    view = provider.view_of(instance_type=instance_type, count=count, regions=regions, now=datetime.now(UTC))
    typer.echo(render_account(view, spec=spec, count=count, regions=regions))
