"""Settings read from the environment, as the service and the bot both read theirs.

A settings class is a pydantic model whose fields each come from one environment variable: the prefix and the field's
name (``GPUOPS_SPEND`` for ``spend``), or the variables its alias names (``DATABASE_URL``, ``SLACK_BOT_TOKEN``), in
their order, matched whatever their case. Values given to the constructor win over the environment; a variable set to
the empty string is a value like any other. The field's own validation reads the text ("300" for a number, "true" for
a flag), and an error names the field, never the value (``hide_input_in_errors``), so no secret reaches a log.

It reads what pydantic-settings' environment source reads for the same classes, without loading that library (and the
asyncio, ssl and argparse it imports) into every `gpuops plan`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import AliasChoices, AliasPath, BaseModel, ConfigDict
from pydantic.fields import FieldInfo

__all__ = ["EnvironmentSettings", "env_names"]


class EnvironmentSettings(BaseModel):
    """A model filled from ``os.environ`` when constructed (``ENV_PREFIX`` before each field's own name)."""

    model_config = ConfigDict(extra="ignore", populate_by_name=True, hide_input_in_errors=True)
    ENV_PREFIX: ClassVar[str] = ""

    def __init__(self, **values: Any) -> None:
        cls = type(self)
        given = {_field_of(cls, key): value for key, value in values.items()}
        super().__init__(**{**from_environment(cls, os.environ), **given})


def env_names(cls: type[BaseModel], name: str, field: FieldInfo) -> list[str]:
    """The environment variables a field is read from, in order of preference, upper case."""
    prefix = getattr(cls, "ENV_PREFIX", "")
    alias = field.validation_alias if field.validation_alias is not None else field.alias
    if isinstance(alias, str):
        raw = [alias]
    elif isinstance(alias, AliasChoices):
        raw = [choice for choice in alias.choices if isinstance(choice, str)]
    elif isinstance(alias, AliasPath):
        raw = [str(alias.path[0])]
    else:
        raw = [prefix + name]
    return list(dict.fromkeys(env.upper() for env in raw))


def from_environment(cls: type[BaseModel], environ: Mapping[str, str]) -> dict[str, str]:
    """{field name: text} of the fields ``environ`` sets."""
    upper = {key.upper(): value for key, value in environ.items()}
    found: dict[str, str] = {}
    for name, field in cls.model_fields.items():
        for env in env_names(cls, name, field):
            if env in upper:
                found[name] = upper[env]
                break
    return found


def _field_of(cls: type[BaseModel], key: str) -> str:
    """The field a constructor argument names: by its name, or by one of the variables it is read from."""
    if key in cls.model_fields:
        return key
    for name, field in cls.model_fields.items():
        if key.upper() in env_names(cls, name, field):
            return name
    return key  # not a field: ignored, as the environment's other variables are
