"""Print the configuration reference of a settings class as a Markdown table.

    python scripts/gen_config_docs.py service.settings:Settings
    python scripts/gen_config_docs.py policy.config:PolicyConfig

For a settings class (``contract.environment.EnvironmentSettings``) each row is an environment variable (prefix and
aliases applied the way the class reads them); for a plain pydantic model (the policy file) each row is a key path,
nested models flattened with dots. Descriptions come from ``Field(description=...)``, else from the comment on the
field's line or the comment lines just above it, else from a nested model's docstring.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import io
import json
import re
import sys
import textwrap
import tokenize
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, SecretStr
from pydantic.fields import FieldInfo

from contract.environment import EnvironmentSettings, env_names


@dataclass(frozen=True)
class Row:
    name: str
    type: str
    default: str
    description: str


def load_class(spec: str) -> type[BaseModel]:
    """Import ``module:Class`` and check that it is a pydantic model."""
    module_name, sep, class_name = spec.partition(":")
    if not sep or not module_name or not class_name:
        raise SystemExit(f"expected module:Class, got {spec!r}")
    obj = getattr(importlib.import_module(module_name), class_name, None)
    if not (isinstance(obj, type) and issubclass(obj, BaseModel)):
        raise SystemExit(f"{spec} is not a pydantic model or settings class")
    return obj


def field_comments(cls: type[BaseModel]) -> dict[str, str]:
    """Field name → the comment that explains it in the class source (same line first, then the lines above)."""
    try:
        text = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    comments: dict[int, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string.lstrip("#").strip()
    lines = text.splitlines()
    found: dict[str, str] = {}
    class_node = ast.parse(text).body[0]
    if not isinstance(class_node, ast.ClassDef):
        return {}
    for node in class_node.body:
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        trailing = comments.get(node.end_lineno or node.lineno)
        if trailing and not lines[(node.end_lineno or node.lineno) - 1].lstrip().startswith("#"):
            found[node.target.id] = _clean_comment(trailing)
            continue
        above: list[str] = []
        line = node.lineno - 1
        while line in comments and lines[line - 1].lstrip().startswith("#"):
            above.insert(0, comments[line])
            line -= 1
        if above:
            found[node.target.id] = _clean_comment(" ".join(above))
    return found


def _clean_comment(comment: str) -> str:
    # Lint directives are for tools, not readers.
    return re.sub(r"\s*noqa(:\s*[A-Z0-9, ]+)?(\s*-\s*)?", " ", comment).strip()


def type_name(annotation: Any) -> str:
    """A short, readable rendering of a field's annotation."""
    if annotation is None or annotation is type(None):
        return "None"
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:  # constraints are for validation; the reader needs the type (and the comment)
        return type_name(args[0])
    if origin is typing.Literal:
        return " | ".join(json.dumps(a.value if isinstance(a, Enum) else a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_name(a) for a in args)
    if origin is not None:
        inner = ", ".join(type_name(a) for a in args)
        base = getattr(origin, "__name__", str(origin))
        return f"{base}[{inner}]" if inner else base
    if isinstance(annotation, type):
        if issubclass(annotation, SecretStr):
            return "secret"
        if issubclass(annotation, Enum):
            return " | ".join(json.dumps(m.value) for m in annotation)
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def default_text(field: FieldInfo) -> str:
    """The default as a reader would type it, or *required*."""
    if field.is_required():
        return "*required*"
    value = field.get_default(call_default_factory=True)
    if isinstance(value, SecretStr):
        return "*(empty)*" if not value.get_secret_value() else "*(set)*"
    if isinstance(value, BaseModel):
        return "*(see below)*"
    if value is None:
        return "*(unset)*"
    return "`" + json.dumps(_plain(value), ensure_ascii=False) + "`"


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def nested_model(annotation: Any) -> tuple[type[BaseModel], str] | None:
    """The model inside a field (``M``, ``M | None``, ``list[M]``, ``dict[str, M]``) and the path step to reach it."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, "."
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return nested_model(inner[0]) if len(inner) == 1 else None
    if origin is list and args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
        return args[0], "[]."
    if origin is dict and len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], BaseModel):
        return args[1], ".<name>."
    return None


def rows(cls: type[BaseModel], *, path: str = "") -> Iterator[Row]:
    """One row per setting; in plain models, nested models get their own rows under a dotted path."""
    comments = field_comments(cls)
    settings = issubclass(cls, EnvironmentSettings)
    for name, field in cls.model_fields.items():
        description = field.description or comments.get(name, "")
        nested = nested_model(field.annotation)
        if issubclass(cls, EnvironmentSettings):
            label = ", ".join(f"`{env}`" for env in env_names(cls, name, field))
        else:
            label = f"`{path}{name}`"
        if nested is not None and not description:
            description = inspect.cleandoc(nested[0].__doc__ or "").split("\n\n")[0].replace("\n", " ")
        yield Row(label, type_name(field.annotation), default_text(field), description)
        if nested is not None and not settings:
            yield from rows(nested[0], path=f"{path}{name}{nested[1]}")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(cls: type[BaseModel]) -> str:
    """The Markdown table for ``cls``."""
    first = "Environment variable" if issubclass(cls, EnvironmentSettings) else "Key"
    out = [f"| {first} | Type | Default | Description |", "|---|---|---|---|"]
    for row in rows(cls):
        out.append(f"| {row.name} | {_cell(row.type)} | {_cell(row.default)} | {_cell(row.description)} |")
    return "\n".join(out) + "\n"


MARKER = re.compile(r"<!-- generated: (?P<target>[\w.]+:\w+) -->\n(?:.*?<!-- end generated -->\n)?", re.S)


def update(text: str) -> str:
    """``text`` with the table after each ``<!-- generated: module:Class -->`` marker rendered afresh."""
    def table(match: re.Match[str]) -> str:
        target = match.group("target")
        return f"<!-- generated: {target} -->\n{render(load_class(target))}<!-- end generated -->\n"

    return MARKER.sub(table, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", help="module:Class of a settings class or pydantic model, or with "
                                       "--update a Markdown file whose generated sections to refresh")
    parser.add_argument("--update", action="store_true", help="rewrite the generated sections of the file")
    args = parser.parse_args(argv)
    if args.update:
        path = Path(args.target)
        path.write_text(update(path.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    sys.stdout.write(render(load_class(args.target)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
