"""Paths and loaders shared by the deployment-artefact tests."""

from __future__ import annotations

import pathlib
from typing import Any

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"


def load_all(path: pathlib.Path) -> list[Any]:
    """Every YAML document in ``path`` (empty documents dropped)."""
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc is not None]


def k8s_objects() -> list[tuple[str, dict[str, Any]]]:
    """(file name, object) for every Kubernetes object under deploy/k8s, kustomization excluded."""
    objects: list[tuple[str, dict[str, Any]]] = []
    for path in sorted(K8S.glob("*.yaml")):
        if path.name == "kustomization.yaml":
            continue
        objects.extend((path.name, doc) for doc in load_all(path))
    return objects


def by_kind(kind: str) -> dict[str, dict[str, Any]]:
    """Objects of one kind, by metadata.name."""
    return {obj["metadata"]["name"]: obj for _, obj in k8s_objects() if obj["kind"] == kind}


def read_env_file(path: pathlib.Path) -> dict[str, str]:
    """KEY=VALUE lines of a dotenv file (comments and blanks skipped)."""
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        assert sep, f"{path.name}: not KEY=VALUE: {line!r}"
        values[key.strip()] = value.strip()
    return values
