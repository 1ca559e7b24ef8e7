"""The wire contract is defined once, in ``contract/``, and the service answers in nothing else."""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import pkgutil
import types
import typing
from collections.abc import Iterable, Iterator

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel

import contract
from service.api.app import create_app
from service.settings import Settings

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCANNED = ("bot", "service", "gpuops", "tests")
MODEL_BASES = {"BaseModel", "SQLModel", "InputModel", "OutputModel"}


def contract_classes() -> dict[str, type]:
    """Every class ``contract/`` defines (models, enums, errors), by name."""
    found: dict[str, type] = {}
    for info in pkgutil.iter_modules(contract.__path__, "contract."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == module.__name__:
                found[name] = value
    return found


def field_sets() -> dict[frozenset[str], str]:
    """Each contract model's field set, and the models that have it (``RequestPage`` and ``EventPage`` share one)."""
    sets: dict[frozenset[str], list[str]] = {}
    for name, cls in sorted(contract_classes().items()):
        if issubclass(cls, BaseModel) and cls.model_fields:
            sets.setdefault(frozenset(cls.model_fields), []).append(name)
    return {fields: " or ".join(names) for fields, names in sets.items()}


def redeclarations(source: str, where: str, names: set[str], fields: dict[frozenset[str], str]) -> list[str]:
    """Classes in ``source`` named like a contract class, or pydantic models with a contract model's field set."""
    tree = ast.parse(source)
    models = set(MODEL_BASES)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "" for b in
                 node.bases}
        if node.name in names:
            found.append(f"{where}:{node.lineno}: class {node.name} is defined in contract/")
            continue
        if not bases & (models | names):
            continue
        if any(k.arg == "table" for k in node.keywords):  # a table row is storage: its public model is the contract's
            continue
        models.add(node.name)
        own = frozenset(s.target.id for s in node.body
                        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name))
        if own in fields:
            found.append(f"{where}:{node.lineno}: class {node.name} has the fields of contract's {fields[own]}")
    return found


def test_no_package_declares_a_wire_model_a_second_time() -> None:
    names, fields = set(contract_classes()), field_sets()
    found = [
        hit
        for package in SCANNED
        for path in sorted((ROOT / package).rglob("*.py"))
        for hit in redeclarations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), names, fields)
    ]
    assert found == []


def test_the_scan_names_a_copied_model_and_a_renamed_copy() -> None:
    source = (
        "from pydantic import BaseModel\n"
        "class _Wire(BaseModel):\n    pass\n"
        "class RequestPublic(_Wire):\n    id: str\n"
        "class Page(_Wire):\n    items: list[object]\n    next_cursor: str\n"
    )
    found = redeclarations(source, "bot/copy.py", set(contract_classes()), field_sets())
    assert found == ["bot/copy.py:4: class RequestPublic is defined in contract/",
                     "bot/copy.py:6: class Page has the fields of contract's EventPage or RequestPage"]


def _is_contract_or_policy_type(annotation: object) -> bool:
    if isinstance(annotation, types.UnionType):  # "a plan, or the questions to answer first"
        return all(_is_contract_or_policy_type(member) for member in typing.get_args(annotation))
    module = getattr(annotation, "__module__", "")
    return inspect.isclass(annotation) and module.split(".")[0] in ("contract", "policy")


def _api_routes(routes: Iterable[object]) -> Iterator[APIRoute]:
    """The app's routes, through included routers however this FastAPI version nests them."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
            continue
        inner = getattr(route, "routes", None) or getattr(getattr(route, "original_router", None), "routes", None)
        yield from _api_routes(inner or [])


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> list[APIRoute]:
    url = f"sqlite:///{tmp_path_factory.mktemp('contract') / 'unused.db'}"  # the app connects on first use only
    return list(_api_routes(create_app(Settings(database_url=url)).routes))


def test_every_answer_the_app_declares_is_a_contract_model_or_a_policy_type(routes: list[APIRoute]) -> None:
    declared = {f"{sorted(r.methods)[0]} {r.path}": r.response_model for r in routes}
    extra = {f"{sorted(r.methods)[0]} {r.path} {status}": spec["model"]
             for r in routes for status, spec in r.responses.items() if "model" in spec}
    assert len(declared) >= 20
    assert {k: v for k, v in {**declared, **extra}.items()
            if v is not None and not _is_contract_or_policy_type(v)} == {}


def test_every_route_with_a_json_answer_declares_its_model(routes: list[APIRoute]) -> None:
    undeclared = [f"{sorted(r.methods)[0]} {r.path}" for r in routes
                  if r.response_model is None and r.status_code != 204 and r.path != "/metrics"]
    assert undeclared == []
