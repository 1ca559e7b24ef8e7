"""Free text as the wire accepts it: any string Postgres can store."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator


def _storable(value: str) -> str:
    # Postgres text columns cannot hold NUL; refusing it here makes it a 422 naming the field, not a 500 on write.
    if "\x00" in value:
        raise ValueError("must not contain the NUL character (\\u0000)")
    return value


Text = Annotated[str, AfterValidator(_storable)]
"""Every free-text field of every input body is ``Text``."""
