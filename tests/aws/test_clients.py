"""The client factory: standard endpoint variables, bounded retries and timeouts, counted calls."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from contract.errors import UpstreamError
from service.aws.clients import ClientFactory
from tests.aws.conftest import dummy_session
from tests.aws.fakeaws import FakeAws


def test_service_specific_endpoint_variable_wins_over_the_global_one(fake_aws: FakeAws,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL_COST_EXPLORER", fake_aws.url)
    fake_aws.on("GetCostForecast", lambda body: {"Total": {"Amount": "1", "Unit": "USD"}})
    factory = ClientFactory(session=dummy_session())
    ce = factory.client("ce")
    ce.get_cost_forecast(TimePeriod={"Start": "2026-11-30", "End": "2026-12-01"}, Metric="UNBLENDED_COST",
                         Granularity="MONTHLY")
    assert len(fake_aws.calls("GetCostForecast")) == 1
    assert factory.total_calls(service="ce", operation="GetCostForecast") == 1


def test_clients_use_standard_retries_with_bounded_attempts_and_timeouts() -> None:
    factory = ClientFactory(session=dummy_session(), max_attempts=4, connect_timeout=2, read_timeout=9)
    config: Any = factory.client("sagemaker").meta.config
    assert config.retries == {"mode": "standard", "total_max_attempts": 4}
    assert (config.connect_timeout, config.read_timeout) == (2, 9)


def test_cost_explorer_and_price_list_clients_use_their_home_region() -> None:
    factory = ClientFactory(session=dummy_session(), region="eu-west-1")
    assert factory.client("ce").meta.region_name == "us-east-1"
    assert factory.client("pricing").meta.region_name == "us-east-1"
    assert factory.client("sagemaker").meta.region_name == "eu-west-1"


def test_no_credentials_is_a_clear_upstream_error() -> None:
    with pytest.raises(UpstreamError, match="credentials not configured") as caught:
        ClientFactory(session=boto3.Session(region_name="us-east-1")).client("sagemaker")
    assert caught.value.service == "sagemaker"


def test_the_factory_and_the_worker_take_their_bounds_from_the_settings(monkeypatch: pytest.MonkeyPatch,
                                                                      sqlite_url: str) -> None:
    from service.launch.worker import build_worker_context
    from service.settings import Settings
    from service.spend.providers import UnavailableSpend

    for name, value in {"AWS_DEFAULT_REGION": "eu-west-1", "GPUOPS_AWS_MAX_ATTEMPTS": "2",
                        "GPUOPS_AWS_CONNECT_TIMEOUT": "1.5", "GPUOPS_AWS_READ_TIMEOUT": "7",
                        "GPUOPS_LAUNCH_LEASE_SECONDS": "45", "GPUOPS_KUBECONFIG": "/etc/kube/config"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_REGION", raising=False)
    settings = Settings(database_url=sqlite_url)
    factory = ClientFactory.from_settings(settings)
    assert (factory.region, factory.max_attempts, factory.connect_timeout, factory.read_timeout) == (
        "eu-west-1", 2, 1.5, 7)
    ctx = build_worker_context(settings=settings, spend=UnavailableSpend())
    assert (ctx.lease_seconds, ctx.env.kubeconfig, ctx.env.factory.max_attempts) == (45, "/etc/kube/config", 2)
    assert build_worker_context(settings=settings, spend=UnavailableSpend(), lease_seconds=0).lease_seconds == 0
    ctx.engine.dispose()
