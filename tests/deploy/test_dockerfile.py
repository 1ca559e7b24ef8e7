"""The Dockerfile cannot be built here (no Docker engine); what can be checked statically is checked."""

from __future__ import annotations

import fnmatch
import json
import shlex
import tomllib
from importlib import import_module

from tests.deploy.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        pending = f"{pending} {line[:-1]}" if line.endswith("\\") else f"{pending} {line}"
        if not line.endswith("\\"):
            keyword, _, rest = pending.strip().partition(" ")
            out.append((keyword.upper(), rest.strip()))
            pending = ""
    return out


def stages() -> list[list[tuple[str, str]]]:
    result: list[list[tuple[str, str]]] = []
    for keyword, rest in instructions():
        if keyword == "FROM":
            result.append([])
        if result:
            result[-1].append((keyword, rest))
    return result


def ignored(path: str) -> bool:
    patterns = [
        line.strip() for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return any(fnmatch.fnmatch(path, p) or fnmatch.fnmatch(path.split("/")[0], p) for p in patterns)


def test_multi_stage_on_python_3_11_slim() -> None:
    args = dict(rest.split("=", 1) for keyword, rest in instructions() if keyword == "ARG" and "=" in rest)
    assert args["PYTHON_IMAGE"] == "python:3.11-slim"
    froms = [stage[0][1] for stage in stages()]
    assert froms == ["${PYTHON_IMAGE} AS builder", "${PYTHON_IMAGE}"]


def test_builder_builds_wheels_and_the_final_stage_installs_nothing() -> None:
    builder, final = stages()
    assert any("pip wheel" in rest for keyword, rest in builder if keyword == "RUN")
    final_runs = " ".join(rest for keyword, rest in final if keyword == "RUN")
    for tool in ("pip ", "apt-get", "gcc", "build-essential", "/wheels"):
        assert tool not in final_runs, f"final stage runs {tool.strip()}"
    copies = [rest for keyword, rest in final if keyword == "COPY"]
    assert copies == ["--from=builder /opt/venv /opt/venv"], "only the virtualenv crosses over"
    assert "pip uninstall --yes pip setuptools wheel" in " ".join(rest for k, rest in builder if k == "RUN")
    env = " ".join(rest for keyword, rest in builder if keyword == "ENV")
    assert "PIP_NO_CACHE_DIR=1" in env


def test_runs_as_a_numeric_non_root_user() -> None:
    _, final = stages()
    users = [rest for keyword, rest in final if keyword == "USER"]
    assert users, "no USER in the final stage"
    uid = users[-1].split(":")[0]
    assert uid.isdigit() and int(uid) > 0


def test_entrypoint_is_the_console_script_and_it_imports() -> None:
    _, final = stages()
    entrypoint = json.loads(next(rest for keyword, rest in final if keyword == "ENTRYPOINT"))
    assert entrypoint == ["gpuops"]
    target = PYPROJECT["project"]["scripts"]["gpuops"]
    module, _, function = target.partition(":")
    assert callable(getattr(import_module(module), function))
    command = json.loads(next(rest for keyword, rest in final if keyword == "CMD"))
    assert command == ["service", "--host", "0.0.0.0", "--port", "8000"]


def test_copied_paths_exist_and_reach_the_build_context() -> None:
    builder, _ = stages()
    sources: list[str] = []
    for keyword, rest in builder:
        if keyword == "COPY" and not rest.startswith("--from"):
            *copied, _destination = shlex.split(rest)
            sources.extend(copied)
    assert sources, "the builder copies nothing"
    for source in sources:
        assert (ROOT / source).exists(), f"COPY {source}: no such path"
        assert not ignored(source), f"COPY {source}: excluded by .dockerignore"
    packages = {p.rstrip("*") for p in PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]}
    assert packages <= set(sources), "every package the wheel includes is copied"
    assert PYPROJECT["project"]["readme"] in sources, "setuptools needs the readme to build the wheel"


def test_dockerignore_keeps_secrets_and_local_state_out() -> None:
    for path in (".git", ".venv", ".env", "deploy/.env", "gpuops.db", "tests", ".mypy_cache"):
        assert ignored(path), path


def test_health_check_uses_python_against_healthz() -> None:
    _, final = stages()
    check = next(rest for keyword, rest in final if keyword == "HEALTHCHECK")
    options, _, command = check.partition(" CMD ")
    assert "--interval=" in options and "--timeout=" in options
    argv = json.loads(command)
    assert argv[:2] == ["python", "-c"] and "urllib.request" in argv[2], "the slim image has no curl"
    assert "GPUOPS_HEALTH_URL" in argv[2]
    env = " ".join(rest for keyword, rest in final if keyword == "ENV")
    assert "GPUOPS_HEALTH_URL=http://127.0.0.1:8000/healthz" in env
