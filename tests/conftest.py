"""Shared fixtures for real components: PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379.

Under CI (any truthy ``CI``) a missing Postgres, Redis or command-line validator fails the run; elsewhere the tests
that need them are skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
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


def under_ci() -> bool:
    """Whether ``CI`` is set to anything truthy (CI=true, CI=1, CI=yes, ...), as CI services set it."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def missing(message: str) -> None:
    """Fail under CI, skip elsewhere: CI must run every test, a developer's machine may lack a component."""
    if under_ci():
        pytest.fail(f"{message}; CI requires it", pytrace=False)
    pytest.skip(message)  # outside CI only: under CI the line above has failed the test


def require_service(name: str, host: str, port: int) -> None:
    """Fail under CI, skip elsewhere, when a real component is not reachable."""
    if not _reachable(host, port):
        missing(f"{name} is not reachable at {host}:{port}")


def require_tool(command: str, *, package: str) -> str:
    """The path of ``command``; fail under CI, skip elsewhere, when it is not installed (``make tools``
    installs ``package`` from Debian)."""
    path = shutil.which(command)
    if path is None:
        missing(f"{command} is not installed (Debian package {package}; `make tools` installs it)")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def postgres_url() -> str:
    require_service("PostgreSQL", "127.0.0.1", 5432)
    return POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    require_service("Redis", "127.0.0.1", 6379)
    yield REDIS_URL


@pytest.fixture(autouse=True, scope="session")
def _caches_in_a_folder_of_the_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """What a command keeps between runs (``gpuops plan``'s compiled patterns) goes to a folder of this test run,
    never the home directory of whoever runs it."""
    previous = os.environ.get("GPUOPS_CACHE_DIR")
    os.environ["GPUOPS_CACHE_DIR"] = str(tmp_path_factory.mktemp("gpuops-cache"))
    yield
    if previous is None:
        os.environ.pop("GPUOPS_CACHE_DIR", None)
    else:
        os.environ["GPUOPS_CACHE_DIR"] = previous
