"""GPU utilisation from CloudWatch (GetMetricData): one series per host or job, averaged per period.

SageMaker training jobs publish ``GPUUtilization`` per host in ``/aws/sagemaker/TrainingJobs`` (dimension ``Host``
= ``<job-name>/algo-<n>``); its value is summed over the host's GPUs (0 to 100 × GPUs), so it is divided by the
accelerator count. EC2 and EKS jobs are read from the DCGM metric the CloudWatch collector publishes (named by
the settings), per GPU (0-100).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from contract.errors import UpstreamError

SAGEMAKER_NAMESPACE = "/aws/sagemaker/TrainingJobs"
SAGEMAKER_METRIC = "GPUUtilization"
MAX_QUERIES = 500  # GetMetricData's limit per call


@dataclass(frozen=True, slots=True)
class GpuSeries:
    """One CloudWatch series of GPU utilisation; values are divided by ``per`` to give a percent per GPU."""

    namespace: str
    metric: str
    dimensions: tuple[tuple[str, str], ...]
    per: float = 1.0


def sagemaker_series(*, job_name: str, hosts: int, gpus_per_host: int) -> list[GpuSeries]:
    """A SageMaker training job's hosts: ``algo-1`` … ``algo-<hosts>``."""
    return [GpuSeries(SAGEMAKER_NAMESPACE, SAGEMAKER_METRIC, (("Host", f"{job_name}/algo-{n}"),),
                      per=float(max(gpus_per_host, 1))) for n in range(1, hosts + 1)]


def _query(index: int, series: GpuSeries, period: int) -> dict[str, Any]:
    return {"Id": f"s{index}", "ReturnData": True, "MetricStat": {
        "Metric": {"Namespace": series.namespace, "MetricName": series.metric,
                   "Dimensions": [{"Name": k, "Value": v} for k, v in series.dimensions]},
        "Period": period, "Stat": "Average"}}


def read_utilisation(*, client: Any, series: Sequence[GpuSeries], start: datetime, end: datetime,
                     period: int = 60) -> dict[datetime, float]:
    """Mean percent per GPU at each period in [start, end), over the series that have a reading then."""
    sums: dict[datetime, list[float]] = {}
    for offset in range(0, len(series), MAX_QUERIES):
        chunk = series[offset:offset + MAX_QUERIES]
        queries = [_query(i, s, period) for i, s in enumerate(chunk)]
        token: str | None = None
        while True:
            args: dict[str, Any] = {"MetricDataQueries": queries, "StartTime": start, "EndTime": end,
                                    "ScanBy": "TimestampAscending"}
            if token:
                args["NextToken"] = token
            try:
                answer = client.get_metric_data(**args)
            except (BotoCoreError, ClientError) as exc:
                raise UpstreamError(f"CloudWatch did not answer: {exc}", service="cloudwatch",
                                    operation="GetMetricData", code="aws_error") from None
            for result in answer.get("MetricDataResults", []):
                per = chunk[int(result["Id"][1:])].per
                for stamp, value in zip(result.get("Timestamps", []), result.get("Values", []), strict=False):
                    sums.setdefault(stamp, []).append(float(value) / per)
            token = answer.get("NextToken")
            if not token:
                break
    return {stamp: sum(values) / len(values) for stamp, values in sorted(sums.items())}
