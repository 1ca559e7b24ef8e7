"""The policy in force and the service's health.

Spend, the catalog and a plan preview answer with policy's own types: ``policy.spend.SpendSnapshot``,
``policy.catalog.Catalog`` and ``policy.decision.Decision``.
"""

from __future__ import annotations

from typing import Any

from contract.base import OutputModel


class PolicyPublic(OutputModel):
    version: str
    policy: dict[str, Any]


class Health(OutputModel):
    status: str
    database: str | None = None
    cache: str | None = None
    detail: str | None = None  # why not ready, and what to run
    code: str | None = None  # why not ready, as the error codes say it: schema_not_migrated, database_unavailable
