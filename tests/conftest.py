"""Shared fixtures for real components: PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379.

Under ``CI=true`` a missing Postgres or Redis fails the run; elsewhere the tests that need them are skipped
with the reason.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

POSTGRES_URL = os.environ.get("GPUOPS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("GPUOPS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1.0):
            return True
    except OSError:
        return False


def require_service(name: str, host: str, port: int) -> None:
    """Fail under CI, skip elsewhere, when a real component is not reachable."""
    if _reachable(host, port):
        return
    message = f"{name} is not reachable at {host}:{port}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message}; CI requires it", pytrace=False)
    pytest.skip(message)  # outside CI only: under CI=true the line above has failed the test


@pytest.fixture(scope="session")
def postgres_url() -> str:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    return POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    require_service("Redis", "127.0.0.1", 6379)
    yield REDIS_URL
