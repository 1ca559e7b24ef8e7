"""A team's month to date split into training compute, storage and the rest, from the spend source's per-service
figures (Cost Explorer's SERVICE dimension; the sample and spend files carry the same drivers).

Services that run training (SageMaker, EC2 instances, EKS) count as compute; S3, EBS ("EC2 - Other" is mostly EBS
volumes and snapshots), EFS and FSx as storage; any other named service as other. What no service figure covers
(Cost Explorer names only the top services) stays in compute, the line a GPU budget is about, and the split says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from policy.spend import SpendSnapshot

COMPUTE = frozenset({"Amazon SageMaker", "Amazon Elastic Compute Cloud - Compute",
                     "Amazon Elastic Container Service for Kubernetes", "Amazon Elastic Kubernetes Service"})
STORAGE = frozenset({"Amazon Simple Storage Service", "Amazon S3", "EC2 - Other", "Amazon Elastic Block Store",
                     "Amazon Elastic File System", "Amazon FSx"})


@dataclass(frozen=True)
class SpendSplit:
    compute_usd: float
    storage_usd: float
    other_usd: float
    unlisted_usd: float  # part of compute_usd that no service figure named


def split_month(spend: SpendSnapshot) -> SpendSplit | None:
    """The split of ``spend.month_to_date_usd``; None without a month figure or any per-service figure."""
    services = [d for d in spend.drivers if d.dimension == "SERVICE"]
    if spend.month_to_date_usd is None or not services:
        return None
    storage = sum(d.usd for d in services if d.key in STORAGE)
    other = sum(d.usd for d in services if d.key not in STORAGE and d.key not in COMPUTE)
    named_compute = sum(d.usd for d in services if d.key in COMPUTE)
    compute = max(0.0, spend.month_to_date_usd - storage - other)
    return SpendSplit(compute_usd=compute, storage_usd=storage, other_usd=other,
                      unlisted_usd=max(0.0, compute - named_compute))
