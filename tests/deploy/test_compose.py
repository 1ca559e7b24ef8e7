"""deploy/docker-compose.yml: the services, their start order and health checks agree with each other."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml

from tests.deploy.conftest import DEPLOY, read_env_file

COMPOSE: dict[str, Any] = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))
SERVICES: dict[str, dict[str, Any]] = COMPOSE["services"]
GPUOPS = {name: s for name, s in SERVICES.items() if s.get("image", "").startswith("gpuops")}
LONG_RUNNING = {name for name, s in GPUOPS.items() if s["command"][0] in {"service", "bot", "worker"}}
CONDITIONS = {"service_started", "service_healthy", "service_completed_successfully"}


def test_the_expected_services_are_there() -> None:
    assert set(SERVICES) == {"postgres", "redis", "migrate", "service", "worker", "bot"}
    assert {name: s["command"][0] for name, s in GPUOPS.items()} == {
        "migrate": "db", "service": "service", "worker": "worker", "bot": "bot"}
    assert GPUOPS["migrate"]["command"] == ["db", "upgrade"]


def test_gpuops_services_build_the_repository_image() -> None:
    for name, service in GPUOPS.items():
        assert service["build"] == {"context": "..", "dockerfile": "Dockerfile"}, name
        assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).is_file()


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_depends_on_names_real_services_with_known_conditions(name: str) -> None:
    for dependency, spec in SERVICES[name].get("depends_on", {}).items():
        assert dependency in SERVICES, f"{name} depends on unknown {dependency}"
        assert dependency != name
        assert spec["condition"] in CONDITIONS
        if spec["condition"] == "service_healthy":
            assert "test" in SERVICES[dependency].get("healthcheck", {}), f"{dependency} has no health check"
        if spec["condition"] == "service_completed_successfully":
            assert SERVICES[dependency].get("restart") == "no", f"{dependency} must be a one-shot"


def test_start_order_has_no_cycle_and_migrations_come_first() -> None:
    def ancestors(name: str, seen: tuple[str, ...] = ()) -> set[str]:
        assert name not in seen, f"dependency cycle through {seen + (name,)}"
        found: set[str] = set()
        for dependency in SERVICES[name].get("depends_on", {}):
            found |= {dependency} | ancestors(dependency, seen + (name,))
        return found

    for name in LONG_RUNNING:
        assert "migrate" in ancestors(name), f"{name} may start before the migrations ran"
    for name in ("service", "worker"):
        assert SERVICES[name]["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert SERVICES["migrate"]["depends_on"]["postgres"] == {"condition": "service_healthy"}


@pytest.mark.parametrize("name", sorted(LONG_RUNNING))
def test_health_check_probes_the_port_the_process_listens_on(name: str) -> None:
    service = SERVICES[name]
    command = service["command"]
    port = command[command.index("--port") + 1]
    assert command[command.index("--host") + 1] == "0.0.0.0"
    test = " ".join(service["healthcheck"]["test"])
    assert service["healthcheck"]["test"][:2] == ["CMD", "python"], "the slim image has no curl"
    assert re.search(rf"http://127\.0\.0\.1:{port}/(healthz|readyz)", test), test
    assert service["environment"]["GPUOPS_HEALTH_URL"] == f"http://127.0.0.1:{port}/healthz"


def test_datastores_have_health_checks_and_postgres_keeps_its_data() -> None:
    assert "pg_isready" in " ".join(SERVICES["postgres"]["healthcheck"]["test"])
    assert SERVICES["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    volume = SERVICES["postgres"]["volumes"][0].split(":")[0]
    assert volume in COMPOSE["volumes"]


def test_bot_finds_the_service_and_has_no_database_url() -> None:
    bot = SERVICES["bot"]["environment"]
    assert bot["GPUOPS_SERVICE_URL"] == "http://service:8000"
    assert "DATABASE_URL" not in bot
    assert SERVICES["bot"]["depends_on"]["service"] == {"condition": "service_healthy"}


def test_mounted_files_exist() -> None:
    for name, service in GPUOPS.items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            assert (DEPLOY / source).exists(), f"{name} mounts missing {source}"


def test_every_interpolated_variable_is_in_the_env_example() -> None:
    text = (DEPLOY / "docker-compose.yml").read_text(encoding="utf-8")
    referenced = set(re.findall(r"(?<!\$)\$\{([A-Z_][A-Z0-9_]*)", text))
    example = read_env_file(DEPLOY / "env.example")
    assert referenced <= example.keys()
    assert all(s["env_file"] == ".env" for s in GPUOPS.values())
