"""Free text as the wire accepts it: any string Postgres can store."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, GetJsonSchemaHandler

NO_NUL_PATTERN = r"^[^\x00]*$"


def _storable(value: str) -> str:
    # Postgres text columns cannot hold NUL; refusing it here makes it a 422 naming the field, not a 500 on write.
    if "\x00" in value:
        raise ValueError("must not contain the NUL character (\\u0000)")
    return value


class _DocumentedNoNul:
    """Says in the JSON schema what ``_storable`` refuses, so a client generated from it never sends a NUL."""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        schema = dict(handler(core_schema))
        schema.setdefault("pattern", NO_NUL_PATTERN)
        return schema


Text = Annotated[str, AfterValidator(_storable), _DocumentedNoNul()]
"""Every free-text field of every input body, query and path parameter is ``Text``."""
