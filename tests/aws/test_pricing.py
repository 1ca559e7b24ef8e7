"""Price refresh: Price List GetProducts (fake), spot history (moto), the stored snapshot and its diff."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from contract.errors import UpstreamError
from policy.catalog import Catalog, load_catalog
from service.aws.refresh import refresh_catalog_snapshot
from service.aws.snapshots import diff_catalogs, read_current_snapshot, write_snapshot
from tests.aws.fakeaws import AwsFault, FakeAws

NOW = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)


def _small_catalog() -> Catalog:
    """Two us-east-1 rows of the shipped snapshot; p5 carries its pre-cut price so the refresh changes it."""
    shipped = load_catalog()
    rows = []
    for p in shipped.prices:
        if p.region == "us-east-1" and p.instance_type in ("p5.48xlarge", "g5.xlarge"):
            rows.append({**p.model_dump(), "on_demand_usd": 98.32} if p.instance_type == "p5.48xlarge"
                        else p.model_dump())
    return Catalog.model_validate({**shipped.model_dump(), "prices": rows, "snapshot": "2026-11-09"})


def _product(usd: float, *, component: str = "", usagetype: str = "") -> str:
    return json.dumps({
        "product": {"attributes": {"component": component, "usagetype": usagetype}},
        "terms": {"OnDemand": {"SKU.TERM": {"priceDimensions": {"SKU.TERM.DIM": {
            "unit": "Hrs", "pricePerUnit": {"USD": f"{usd:.10f}"}}}}}},
    })


def _price_list(body: dict[str, Any]) -> dict[str, Any]:
    fields = {f["Field"]: f["Value"] for f in body["Filters"]}
    if body["ServiceCode"] == "AmazonEC2" and fields.get("instanceType") == "p5.48xlarge":
        if body.get("NextToken") != "page-2":
            return {"PriceList": [], "NextToken": "page-2", "FormatVersion": "aws_v1"}
        return {"PriceList": [_product(55.04)], "FormatVersion": "aws_v1"}
    if body["ServiceCode"] == "AmazonSageMaker" and fields.get("instanceName") == "ml.p5.48xlarge":
        return {"PriceList": [_product(140.0, component="Hosting", usagetype="USE1-Host:ml.p5.48xlarge"),
                              _product(113.07, component="Training", usagetype="USE1-Train:ml.p5.48xlarge")],
                "FormatVersion": "aws_v1"}
    return {"PriceList": [], "FormatVersion": "aws_v1"}


@pytest.fixture
def aws_env(fake_aws: FakeAws, moto: str, monkeypatch: pytest.MonkeyPatch) -> FakeAws:
    """Price List on the fake, EC2 on moto, reached through the standard endpoint variables."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_PRICING", fake_aws.url)
    monkeypatch.setenv("AWS_ENDPOINT_URL_EC2", moto)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    fake_aws.on("GetProducts", _price_list)
    return fake_aws


def _factory() -> Any:
    from service.aws.clients import ClientFactory

    return ClientFactory(max_attempts=2)


def test_refresh_reprices_rows_aws_answers_and_keeps_the_rest(aws_env: FakeAws, tmp_path: Path) -> None:
    base_file = tmp_path / "base.json"
    base_file.write_text(_small_catalog().model_dump_json())

    result = refresh_catalog_snapshot(factory=_factory(), directory=tmp_path / "snap", now=NOW,
                                      base_file=str(base_file))

    p5 = result.catalog.price("p5.48xlarge", "us-east-1")
    g5 = result.catalog.price("g5.xlarge", "us-east-1")
    old_g5 = result.previous.price("g5.xlarge", "us-east-1")
    assert p5 is not None and g5 is not None and old_g5 is not None
    assert (p5.on_demand_usd, p5.sagemaker_usd, p5.as_of) == (55.04, 113.07, "2026-11-30")
    assert p5.spot_observed == "2026-11-30" and p5.spot_usd == 0.00001  # moto's spot price, in every AZ
    assert (g5.on_demand_usd, g5.as_of) == (old_g5.on_demand_usd, old_g5.as_of)  # not in the Price List: kept
    assert "p5.48xlarge us-east-1 on-demand 98.32 → 55.04" in result.changes
    assert "p5.48xlarge us-east-1 SageMaker none → 113.07" in result.changes
    assert result.catalog.snapshot == "2026-11-30+refresh-093000"
    stored = read_current_snapshot(directory=tmp_path / "snap")
    assert stored is not None and stored.snapshot == result.catalog.snapshot
    ec2_query = aws_env.calls("GetProducts")[0]
    assert {"Type": "TERM_MATCH", "Field": "location", "Value": "US East (N. Virginia)"} in ec2_query["Filters"]
    assert {"Type": "TERM_MATCH", "Field": "capacitystatus", "Value": "Used"} in ec2_query["Filters"]


def test_a_failed_refresh_leaves_the_snapshot_in_force_untouched(aws_env: FakeAws, tmp_path: Path) -> None:
    folder = tmp_path / "snap"
    write_snapshot(catalog=_small_catalog(), directory=folder)
    before = (folder / "current.json").read_bytes()

    def denied(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("AccessDeniedException", "not authorized to perform pricing:GetProducts")

    aws_env.on("GetProducts", denied)
    with pytest.raises(UpstreamError, match="AccessDeniedException"):
        refresh_catalog_snapshot(factory=_factory(), directory=folder, now=NOW)
    assert (folder / "current.json").read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["catalog-2026-11-09.json", "current.json"]


def test_an_empty_price_list_is_a_failure_not_a_snapshot(aws_env: FakeAws, tmp_path: Path) -> None:
    aws_env.on("GetProducts", lambda body: {"PriceList": [], "FormatVersion": "aws_v1"})
    write_snapshot(catalog=_small_catalog(), directory=tmp_path)
    with pytest.raises(UpstreamError, match="no EC2 on-demand price"):
        refresh_catalog_snapshot(factory=_factory(), directory=tmp_path, now=NOW)


def test_catalog_refresh_command_prints_the_diff_and_stores_it(aws_env: FakeAws, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from gpuops.cli import app

    write_snapshot(catalog=_small_catalog(), directory=tmp_path)
    result = CliRunner().invoke(app, ["catalog", "refresh", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "p5.48xlarge us-east-1 on-demand 98.32 → 55.04" in result.output
    assert (tmp_path / "catalog-2026-11-09.json").exists()


def test_catalog_refresh_command_failure_says_the_previous_snapshot_stays(
    aws_env: FakeAws, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gpuops.cli import app

    monkeypatch.setenv("GPUOPS_AWS_MAX_ATTEMPTS", "2")
    def throttled(body: dict[str, Any]) -> dict[str, Any]:
        raise AwsFault("ThrottlingException", "Rate exceeded")

    aws_env.on("GetProducts", throttled)
    write_snapshot(catalog=_small_catalog(), directory=tmp_path)
    result = CliRunner().invoke(app, ["catalog", "refresh", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "previous snapshot stays in force" in result.output


def test_diff_lists_new_and_removed_rows() -> None:
    small = _small_catalog()
    rows = [p.model_dump() for p in small.prices if p.instance_type != "g5.xlarge"]
    only_p5 = Catalog.model_validate({**small.model_dump(), "prices": rows})
    assert diff_catalogs(old=small, new=only_p5) == ["g5.xlarge us-east-1 removed"]
    assert diff_catalogs(old=only_p5, new=small)[0].startswith("g5.xlarge us-east-1 new: on-demand ")
