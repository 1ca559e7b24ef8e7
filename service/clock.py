"""The service's clock: every timestamp it writes is timezone-aware UTC."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Now, aware, in UTC."""
    return datetime.now(UTC)
