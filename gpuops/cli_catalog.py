"""``gpuops catalog``: look at the shipped price snapshot."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:  # the catalog loads when a command runs, not when the CLI starts
    from policy.catalog import Catalog, InstanceSpec, RegionPrice

catalog_app = typer.Typer(help="The instance and price catalog.", no_args_is_help=True)

COLUMNS = ("type", "accelerator", "mem GiB", "BF16 TFLOP/s", "region", "on-demand $/h", "spot $/h", "SageMaker $/h")
_TEXT_COLUMNS = {0, 1, 4}  # type, accelerator, region read left to right; figures align right


def register(app: typer.Typer) -> None:
    """Add this area's commands to ``app``."""
    app.add_typer(catalog_app, name="catalog")


@catalog_app.command("show")
def show(
    family: Annotated[str | None, typer.Option(help="Only this instance family, e.g. p5 or g6e.")] = None,
    region: Annotated[str | None, typer.Option(help="Only this region, e.g. us-east-1.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON rows instead of a table.")] = False,
) -> None:
    """Show instance types and prices per region, with the snapshot date and source."""
    from policy.catalog import load_catalog

    catalog = load_catalog()
    _check_choice("family", family, catalog.families())
    _check_choice("region", region, catalog.regions())
    rows = selected_rows(catalog, family=family, region=region)
    unpriced = unpriced_types(catalog, family=family, region=region)
    if as_json:
        typer.echo(json.dumps({**json_view(catalog, rows), "unpriced": unpriced}, indent=2))
        return
    premium = catalog.sagemaker_premium.fraction
    typer.echo(f"Price snapshot {catalog.snapshot}: {catalog.source}")
    typer.echo(
        f"Spot: median (min-max) over AZs. SageMaker (est.): EC2 x (1 + {premium:.0%}), no ml.* price published."
    )
    typer.echo(format_table([table_row(catalog, price) for price in rows]))
    if unpriced:
        where = f" in {region}" if region else ""
        typer.echo(f"No on-demand price{where} in this snapshot: {', '.join(unpriced)}")


def unpriced_types(catalog: Catalog, *, family: str | None, region: str | None) -> list[str]:
    """Types of the family filter with no price row (in ``region``, or anywhere): listed, never silently dropped."""
    priced = {p.instance_type for p in (catalog.prices_in(region) if region else catalog.prices)}
    return sorted(
        spec.instance_type
        for spec in catalog.instances.values()
        if (family is None or spec.family == family) and spec.instance_type not in priced
    )


def _check_choice(name: str, value: str | None, known: list[str]) -> None:
    if value is not None and value not in known:
        typer.echo(f"Unknown {name} {value!r}. Known: {', '.join(known)}.", err=True)
        raise typer.Exit(code=2)


def selected_rows(catalog: Catalog, *, family: str | None, region: str | None) -> list[RegionPrice]:
    """Price rows matching the filters, ordered by family, size, then region."""
    rows = catalog.prices_in(region) if region is not None else list(catalog.prices)
    if family is not None:
        rows = [p for p in rows if catalog.instance(p.instance_type).family == family]

    def order(p: RegionPrice) -> tuple[str, int, int, str]:
        spec = catalog.instance(p.instance_type)
        return (spec.family, spec.accelerator_count, spec.vcpus, p.region)

    return sorted(rows, key=order)


def table_row(catalog: Catalog, price: RegionPrice) -> tuple[str, ...]:
    spec = catalog.instance(price.instance_type)
    acc = catalog.accelerators[spec.accelerator]
    from policy.catalog import sagemaker_price

    sagemaker, _ = sagemaker_price(price, catalog.sagemaker_premium)
    estimate = "" if price.sagemaker_usd is not None else " (est.)"
    return (
        spec.instance_type,
        f"{acc.name} x{spec.accelerator_count}",
        _num(spec.accelerator_memory_gib),
        _num(acc.peak_bf16_tflops),
        price.region,
        _usd(price.on_demand_usd),
        _spot(price),
        f"{_usd(sagemaker)}{estimate}",
    )


def _num(value: float | None) -> str:
    return "unknown" if value is None else f"{value:g}"


def _spot(price: RegionPrice) -> str:
    if price.spot_usd is None or price.spot_min_usd is None or price.spot_max_usd is None:
        return "none seen"
    if price.spot_min_usd == price.spot_max_usd:
        return _usd(price.spot_usd)
    return f"{_usd(price.spot_usd)} ({_usd(price.spot_min_usd)}-{_usd(price.spot_max_usd)})"


def _usd(value: float) -> str:
    """The snapshot's exact figure (up to 6 decimals, at least 2), so a reader can match it to the source."""
    text = f"{value:.6f}".rstrip("0")
    return text + "0" * max(0, 2 - len(text.partition(".")[2]))


def format_table(rows: list[tuple[str, ...]]) -> str:
    """Plain aligned columns: text first, numbers right-aligned."""
    widths = [max([len(col), *(len(r[i]) for r in rows)]) for i, col in enumerate(COLUMNS)]
    lines = []
    for cells in (COLUMNS, *rows):
        parts = [
            cell.ljust(width) if i in _TEXT_COLUMNS else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def json_view(catalog: Catalog, rows: list[RegionPrice]) -> dict[str, Any]:
    """Snapshot metadata plus each row's spec, prices and SageMaker price with its basis."""
    return {
        "snapshot": catalog.snapshot,
        "source": catalog.source,
        "rows": [_json_row(catalog, catalog.instance(p.instance_type), p) for p in rows],
    }


def _json_row(catalog: Catalog, spec: InstanceSpec, price: RegionPrice) -> dict[str, Any]:
    from policy.catalog import sagemaker_price

    sagemaker, basis = sagemaker_price(price, catalog.sagemaker_premium)
    acc = catalog.accelerators[spec.accelerator]
    return {
        **spec.model_dump(mode="json", exclude={"source", "as_of"}),
        "peak_bf16_tflops": acc.peak_bf16_tflops,
        **price.model_dump(mode="json", exclude={"instance_type"}),
        "sagemaker_usd": sagemaker,
        "sagemaker_basis": basis,
        "sagemaker_estimate": price.sagemaker_usd is None,
    }
