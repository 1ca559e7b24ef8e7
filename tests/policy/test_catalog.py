"""The shipped catalog snapshot, its loader and ``gpuops catalog show``."""

from __future__ import annotations

import csv
import importlib.util
import json
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gpuops.cli import app
from policy.catalog import (
    Catalog,
    RegionPrice,
    SageMakerPremium,
    load_catalog,
    sagemaker_price,
    scaling_efficiency,
)
from policy.errors import RequestError

CSV_PATH = Path(__file__).resolve().parents[2] / "scripts" / "data" / "aws-gpu-vms.csv"
CSV_SOURCE = "skypilot-catalog catalogs/v8/aws/vms.csv @ e385a0d3"

# (instance type, region, on-demand $/h): published figures (SkyPilot catalog, docs/sources.md).
FACTS_PRICES = [
    ("p5.48xlarge", "us-east-1", 55.04),
    ("p5.48xlarge", "ap-northeast-1", 68.80),
    ("p5.48xlarge", "us-west-1", 68.80),
    ("p4d.24xlarge", "us-east-1", 21.957642),
    ("p4d.24xlarge", "eu-west-1", 23.71569),
    ("p4de.24xlarge", "us-east-1", 27.44705),
    ("p5en.48xlarge", "us-east-1", 63.296),
    ("p6-b200.48xlarge", "us-east-1", 113.9328),
    ("p3.2xlarge", "us-east-1", 3.06),
    ("p3.16xlarge", "us-east-1", 24.48),
    ("p5.4xlarge", "us-east-1", 6.88),
    ("g5.xlarge", "us-east-1", 1.006),
    ("g5.48xlarge", "us-east-1", 16.288),
    ("g6.xlarge", "us-east-1", 0.8048),
    ("g6.48xlarge", "us-east-1", 13.3504),
    ("g6e.xlarge", "us-east-1", 1.861),
    ("g6e.48xlarge", "us-east-1", 30.13118),
    ("trn1.2xlarge", "us-east-1", 1.34375),
    ("trn1.32xlarge", "us-east-1", 21.50),
    ("trn1n.32xlarge", "us-east-1", 24.78),
]

# (instance type, region): the CSV has rows here but a blank price, so the type is not offered at a known price.
BLANK_PRICE = [
    ("trn1.32xlarge", "ap-south-1"),
    ("trn1.32xlarge", "ap-southeast-2"),
    ("p5e.48xlarge", "us-east-2"),  # spot observed, on-demand blank: still absent
    ("p5e.48xlarge", "us-east-1"),  # no row at all in the SkyPilot catalog
    ("trn2.48xlarge", "us-east-2"),
]

# (instance type, spot min, spot max) in us-east-1, published; AZs quoting on-demand as spot are excluded.
FACTS_SPOT = [
    ("p3.2xlarge", 0.48, 0.56),
    ("p4d.24xlarge", 6.29, 14.11),
    ("p4de.24xlarge", 9.73, 11.46),
    ("p5en.48xlarge", 19.17, 19.91),
    ("p6-b200.48xlarge", 19.09, 19.09),
    ("trn1.2xlarge", 0.355, 0.375),
]

# (instance type, accelerator key, count, per-accelerator GiB, peak BF16 TFLOP/s)
SPECS = [
    ("p5.48xlarge", "H100", 8, 80.0, 989.0),
    ("p5en.48xlarge", "H200", 8, 141.0, 989.0),
    ("p6-b200.48xlarge", "B200", 8, 179.06, 2250.0),
    ("p4d.24xlarge", "A100", 8, 40.0, 312.0),
    ("p4de.24xlarge", "A100-80GB", 8, 80.0, 312.0),
    ("g5.12xlarge", "A10G", 4, 22.35, 125.0),
    ("g6.xlarge", "L4", 1, 22.35, 121.0),
    ("g6e.48xlarge", "L40S", 8, 44.7, 362.0),
    ("p3dn.24xlarge", "V100-32GB", 8, 32.0, 125.0),
    ("trn1.32xlarge", "Trainium1", 16, 32.0, 190.0),
    ("trn2.48xlarge", "Trainium2", 16, 96.0, 667.0),
]


def test_snapshot_counts() -> None:
    catalog = load_catalog()
    assert len(catalog.instances) == 39
    assert len(catalog.regions()) == 18
    assert len(catalog.prices) == 381
    assert catalog.snapshot == "2026-11-09"
    assert CSV_SOURCE in catalog.source


@pytest.mark.parametrize(("itype", "region", "usd"), FACTS_PRICES)
def test_facts_prices_reproduce(itype: str, region: str, usd: float) -> None:
    price = load_catalog().price(itype, region)
    assert price is not None
    assert price.on_demand_usd == usd


@pytest.mark.parametrize(("itype", "region"), BLANK_PRICE)
def test_blank_price_means_absent(itype: str, region: str) -> None:
    catalog = load_catalog()
    assert catalog.price(itype, region) is None
    assert itype not in {p.instance_type for p in catalog.prices_in(region)}
    assert itype in catalog.instances  # the type is still known, just not priced there


@pytest.mark.parametrize(("itype", "low", "high"), FACTS_SPOT)
def test_spot_range_matches_facts(itype: str, low: float, high: float) -> None:
    price = load_catalog().price(itype, "us-east-1")
    assert price is not None and price.spot_min_usd is not None and price.spot_max_usd is not None
    assert (round(price.spot_min_usd, 2), round(price.spot_max_usd, 2)) == (round(low, 2), round(high, 2))
    assert price.spot_min_usd <= (price.spot_usd or 0) <= price.spot_max_usd


@pytest.mark.parametrize(("itype", "acc", "count", "memory", "tflops"), SPECS)
def test_specs(itype: str, acc: str, count: int, memory: float, tflops: float) -> None:
    catalog = load_catalog()
    spec = catalog.instance(itype)
    assert (spec.accelerator, spec.accelerator_count, spec.accelerator_memory_gib) == (acc, count, memory)
    assert catalog.accelerators[acc].peak_bf16_tflops == tflops
    assert catalog.accelerator_of(itype).name in acc


def test_every_row_is_sourced_and_dated() -> None:
    catalog = load_catalog()
    rows = [*catalog.prices, *catalog.instances.values(), *catalog.accelerators.values()]
    rows += [catalog.scaling, catalog.sagemaker_premium]
    for row in rows:
        assert row.source, row
        assert len(row.as_of) == 10 and row.as_of.startswith("2026-"), row
    assert all(p.source.startswith(CSV_SOURCE) and p.as_of == "2026-11-09" for p in catalog.prices)


def test_shipped_snapshot_is_the_build_of_the_csv() -> None:
    """A rebuild from the CSV gives the shipped file byte for byte, so the JSON never drifts from its script."""
    script = Path(__file__).resolve().parents[2] / "scripts" / "build_catalog.py"
    spec = importlib.util.spec_from_file_location("build_catalog", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shipped = resources.files("policy.data").joinpath("catalog.json").read_text()
    assert module.render(module.build_catalog(CSV_PATH)) == shipped


def test_snapshot_matches_every_priced_csv_row() -> None:
    """Each (type, region) priced in the CSV is in the snapshot at that price, and nothing else is."""
    with CSV_PATH.open(newline="") as fh:
        expected = {(r["InstanceType"], r["Region"]): float(r["Price"]) for r in csv.DictReader(fh) if r["Price"]}
    got = {(p.instance_type, p.region): p.on_demand_usd for p in load_catalog().prices}
    assert got == expected


# (instance type, region, expected spot median or None, AZs without spot capacity)
SPOT_CAPACITY = [
    ("p5.48xlarge", "us-east-1", 14.7253, ("use1-az1", "use1-az4")),
    ("p5.4xlarge", "us-east-1", None, ()),  # no spot observation at all
    ("p5en.48xlarge", "us-east-1", 19.54, ()),
]


@pytest.mark.parametrize(("itype", "region", "median", "no_spot"), SPOT_CAPACITY)
def test_spot_equal_to_on_demand_means_no_capacity(
    itype: str, region: str, median: float | None, no_spot: tuple[str, ...]
) -> None:
    price = load_catalog().price(itype, region)
    assert price is not None
    assert price.spot_usd == (None if median is None else pytest.approx(median, abs=0.01))
    assert price.no_spot_zones == no_spot
    for zone in no_spot:
        assert zone in price.source
    assert price.spot_max_usd is None or price.spot_max_usd < price.on_demand_usd


def test_unknowns_are_null_not_invented() -> None:
    catalog = load_catalog()
    assert catalog.instance("p5.48xlarge").network_gbps is None  # no published figure found
    assert catalog.instance("trn1n.32xlarge").network_gbps == 1600.0
    assert catalog.instance("trn1n.32xlarge").efa is True
    assert all(p.interruption_band is None and p.sagemaker_usd is None for p in catalog.prices)
    assert not any(p.instance_type in {"p5e.48xlarge", "trn2.48xlarge"} for p in catalog.prices)


def test_mfu_is_data_with_a_source() -> None:
    for acc in load_catalog().accelerators.values():
        assert acc.mfu is not None and 0.2 <= acc.mfu <= 0.56, acc.name
        assert acc.mfu_source and ("gpuops estimate:" in acc.mfu_source or "published" in acc.mfu_source)


# Advisor bands from best to worst, then the fallback for an unknown band.
MTBI_ORDER = ["<5%", "5-10%", "10-15%", "15-20%", ">20%", "default"]


def test_interruption_mtbi_is_conservative_and_ordered() -> None:
    catalog = load_catalog()
    hours = [catalog.interruption_mtbi_hours[band] for band in MTBI_ORDER]
    assert hours == sorted(hours, reverse=True)  # worse band, shorter time between interruptions
    assert set(catalog.interruption_mtbi_sources) == set(MTBI_ORDER)
    assert catalog.mtbi_hours(None) == catalog.mtbi_hours("no-such-band") == catalog.interruption_mtbi_hours["default"]
    assert catalog.mtbi_hours("5-10%") == pytest.approx(730 / 0.1053605, rel=1e-3)  # 730 h / -ln(0.9)


# (lookup, close match expected in the message)
UNKNOWN_TYPES = [("p5.48xl", "p5.48xlarge"), ("g6e.xlarg", "g6e.xlarge"), ("zz.nothing", "Known families")]


@pytest.mark.parametrize(("itype", "hint"), UNKNOWN_TYPES)
def test_unknown_instance_type(itype: str, hint: str) -> None:
    with pytest.raises(RequestError) as info:
        load_catalog().instance(itype)
    assert info.value.code == "unknown_instance_type"
    assert hint in info.value.message


def test_sagemaker_price_estimate_and_published() -> None:
    catalog = load_catalog()
    price = catalog.price("p5.48xlarge", "us-east-1")
    assert price is not None
    usd, basis = sagemaker_price(price, catalog.sagemaker_premium)
    assert usd == pytest.approx(55.04 * (1 + catalog.sagemaker_premium.fraction))
    assert basis.startswith("estimate:") and "55.04" in basis
    published = price.model_copy(update={"sagemaker_usd": 70.0, "sagemaker_source": "AWS Price List, AmazonSageMaker"})
    assert sagemaker_price(published, catalog.sagemaker_premium) == (70.0, "AWS Price List, AmazonSageMaker")
    premium = catalog.sagemaker_premium
    assert premium.estimate and 0.10 <= premium.fraction <= 0.40 and "estimate" in premium.source


def test_models_are_immutable_and_indexes_consistent() -> None:
    catalog = load_catalog()
    assert catalog is load_catalog()  # parsed once per process
    price = catalog.prices[0]
    with pytest.raises(ValueError, match="frozen"):
        price.on_demand_usd = 0.0  # type: ignore[misc]
    for region in catalog.regions():
        rows = catalog.prices_in(region)
        assert rows and all(r.region == region for r in rows)
        assert [r.instance_type for r in rows] == sorted(r.instance_type for r in rows)
    assert catalog.prices_in("mars-1") == []
    assert sum(len(catalog.prices_in(r)) for r in catalog.regions()) == len(catalog.prices)
    assert "p6-b200" in catalog.families() and "trn2" in catalog.families()
    narrowed = catalog.model_copy(update={"prices": [p for p in catalog.prices if p.region == "eu-west-1"]})
    assert narrowed.regions() == ["eu-west-1"]  # a copy with other rows never answers from the old index
    assert narrowed.price("p5.48xlarge", "us-east-1") is None


def test_load_catalog_from_path(tmp_path: Path) -> None:
    base = load_catalog()
    refreshed = base.model_copy(update={"snapshot": "2026-12-01+refresh", "prices": base.prices[:2]})
    path = tmp_path / "catalog.json"
    path.write_text(refreshed.model_dump_json())
    loaded = load_catalog(str(path))
    assert isinstance(loaded, Catalog) and loaded.snapshot == "2026-12-01+refresh"
    assert len(loaded.prices) == 2 and load_catalog() is base


def test_scaling_efficiency_from_the_catalog() -> None:
    curve = load_catalog().scaling
    assert [scaling_efficiency(curve, n) for n in (1, 2, 4)] == [1.0, 1.0, 1.0]
    values = [scaling_efficiency(curve, 2**k) for k in range(2, 11)]
    assert values == sorted(values, reverse=True) and values[-1] > 0.05
    with pytest.raises(ValueError):
        scaling_efficiency(curve, 0)


def test_a_row_without_spot_copes() -> None:
    row = RegionPrice(
        source="test", as_of="2026-11-09", instance_type="p5.4xlarge", region="us-east-1", on_demand_usd=6.88
    )
    usd, _ = sagemaker_price(row, SageMakerPremium(source="test", as_of="2026-11-09", fraction=0.25))
    assert usd == pytest.approx(8.6)


runner = CliRunner()

# (arguments, exit code, texts the output must contain)
CLI_CASES = [
    (["--family", "p5", "--region", "us-east-1"], 0, ["2026-11-09", CSV_SOURCE, "p5.48xlarge", "55.04", "(est.)"]),
    (["--region", "us-east-1", "--family", "p5"], 0, ["none seen", "p5.4xlarge", "6.88"]),
    (["--family", "p4d"], 0, ["21.957642", "23.71569", "A100 x8"]),
    (["--family", "p5e"], 0, ["No on-demand price in this snapshot: p5e.48xlarge"]),
    (["--region", "mars-1"], 2, ["Unknown region 'mars-1'", "us-east-1"]),
    (["--family", "x9"], 2, ["Unknown family 'x9'", "g6e"]),
]


@pytest.mark.parametrize(("args", "code", "texts"), CLI_CASES)
def test_catalog_show(args: list[str], code: int, texts: list[str]) -> None:
    result = runner.invoke(app, ["catalog", "show", *args])
    assert result.exit_code == code, result.output
    for text in texts:
        assert text in result.output


def test_catalog_show_json() -> None:
    result = runner.invoke(app, ["catalog", "show", "--region", "us-east-1", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["snapshot"] == "2026-11-09"
    assert data["unpriced"] == ["p5e.48xlarge", "trn2.48xlarge"]
    assert len(data["rows"]) == len(load_catalog().prices_in("us-east-1"))
    p5 = next(r for r in data["rows"] if r["instance_type"] == "p5.48xlarge")
    assert p5["on_demand_usd"] == 55.04 and p5["sagemaker_estimate"] is True and p5["peak_bf16_tflops"] == 989.0
