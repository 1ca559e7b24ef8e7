"""One factory for every AWS client gpuops builds, so retries, timeouts, endpoints and call counting agree.

Endpoints come from botocore's own ``AWS_ENDPOINT_URL`` / ``AWS_ENDPOINT_URL_<SERVICE>`` variables (boto3 reads
them itself); tests inject ``endpoint_urls`` instead. Every API call (each page of a paginated answer too) passes
a ``before-call`` hook that counts it per service and operation, and prices Cost Explorer calls at $0.01.
"""

from __future__ import annotations

import threading
from collections import Counter as CallCounter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from contract.errors import UpstreamError
from service.aws.credentials import may_have_credentials

if TYPE_CHECKING:  # boto3, botocore and the metrics are loaded when a client or a counter is first built
    from botocore.config import Config
    from prometheus_client import Counter

    from service.settings import Settings

COST_EXPLORER_USD_PER_REQUEST = 0.01
DEFAULT_REGION = "us-east-1"
# Cost Explorer and the Price List API answer only in these regions.
SERVICE_HOME_REGION = {"ce": "us-east-1", "pricing": "us-east-1"}


@dataclass(frozen=True)
class AwsMetrics:
    calls: Counter
    costexplorer_dollars: Counter


@cache
def get_metrics() -> AwsMetrics:
    """The Prometheus counters, registered once per process on first use."""
    from prometheus_client import Counter

    return AwsMetrics(
        calls=Counter("gpuops_aws_calls", "AWS API calls made", ["service", "operation"]),
        costexplorer_dollars=Counter("gpuops_costexplorer_dollars", "Cost Explorer request charges in USD"),
    )


@dataclass
class ClientFactory:
    """Builds boto3 clients with bounded standard-mode retries and timeouts, counting every call."""

    session: Any = None  # boto3.Session; None → a default session built on first use
    region: str = DEFAULT_REGION
    max_attempts: int = 5
    connect_timeout: float = 5.0
    read_timeout: float = 30.0
    endpoint_urls: Mapping[str, str] = field(default_factory=dict)
    calls: CallCounter[tuple[str, str]] = field(default_factory=CallCounter)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_settings(cls, settings: Settings) -> ClientFactory:
        """Region, attempts and timeouts from the settings; credentials and endpoints as boto3 finds them."""
        return cls(
            region=settings.aws_region or DEFAULT_REGION,
            max_attempts=settings.aws_max_attempts,
            connect_timeout=settings.aws_connect_timeout,
            read_timeout=settings.aws_read_timeout,
        )

    def client(self, service: str, *, region: str | None = None) -> Any:
        """A client for ``service``; raises ``UpstreamError`` when no credentials are configured."""
        session = self._get_session()
        if session.get_credentials() is None:
            raise UpstreamError(
                "AWS credentials not configured", service=service, operation="(credentials)", code="aws_credentials"
            )
        client = session.client(
            service,
            region_name=region or SERVICE_HOME_REGION.get(service, self.region),
            endpoint_url=self.endpoint_urls.get(service),
            config=self._config(),
        )
        client.meta.events.register("before-call.*.*", self._count_call)
        return client

    def total_calls(self, *, service: str, operation: str) -> int:
        with self._lock:
            return self.calls[(service, operation)]

    def _get_session(self) -> Any:
        if self.session is None:
            import boto3

            self.session = boto3.Session()
        return self.session

    def _config(self) -> Config:
        from botocore.config import Config

        return Config(
            retries={"mode": "standard", "total_max_attempts": self.max_attempts},
            connect_timeout=self.connect_timeout,
            read_timeout=self.read_timeout,
        )

    def _count_call(self, model: Any, **_: Any) -> None:
        service = str(model.service_model.service_name)
        operation = str(model.name)
        with self._lock:
            self.calls[(service, operation)] += 1
        metrics = get_metrics()
        metrics.calls.labels(service=service, operation=operation).inc()
        if service == "ce":
            metrics.costexplorer_dollars.inc(COST_EXPLORER_USD_PER_REQUEST)


def credentials_configured(*, factory: ClientFactory) -> bool:
    """Whether the factory's session can find AWS credentials.

    A default session's chain is only asked where a source of it may hold credentials
    (``service.aws.credentials``): elsewhere the answer is no without loading boto3 or asking the instance
    metadata service. A session the factory was given is always asked."""
    if factory.session is None and not may_have_credentials():
        return False
    return bool(factory._get_session().get_credentials() is not None)
