"""What a loopback AWS fake needs to speak the real protocols: request checks against botocore's service model
(an unknown or missing parameter fails as AWS would fail it) and EC2's query protocol (form in, XML out)."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any
from xml.sax.saxutils import escape

import botocore.session
from botocore.model import OperationModel, Shape, StructureShape

JSON_SERVICES = ("sagemaker", "service-quotas", "ce", "pricing")
EC2_XMLNS = "http://ec2.amazonaws.com/doc/2016-11-15/"


@cache
def _session() -> Any:
    return botocore.session.get_session()


@cache
def json_service_for(target_prefix: str) -> str | None:
    """The botocore service whose JSON requests carry this X-Amz-Target prefix."""
    for name in JSON_SERVICES:
        if _session().get_service_model(name).metadata.get("targetPrefix") == target_prefix:
            return name
    return None


def operation(service: str, name: str) -> OperationModel:
    return _session().get_service_model(service).operation_model(name)


def json_problems(service: str, name: str, body: dict[str, Any]) -> list[str]:
    """Unknown and missing top-level parameters of a JSON-protocol request."""
    shape = operation(service, name).input_shape
    if shape is None:
        return [f"{k}: not a parameter of {name}" for k in body]
    return ([f"{k}: not a parameter of {name}" for k in body if k not in shape.members]
            + [f"{k}: required by {name}" for k in shape.required_members if k not in body])


def _ec2_query_name(member: str, shape: Shape) -> str:
    serialization = shape.serialization
    if "queryName" in serialization:
        return str(serialization["queryName"])
    name = str(serialization.get("name", member))
    return name[0].upper() + name[1:]


def ec2_problems(name: str, form: dict[str, str]) -> list[str]:
    """Unknown and missing top-level parameters of an EC2 query request (``Action`` and ``Version`` aside)."""
    shape = operation("ec2", name).input_shape
    assert shape is not None
    names = {_ec2_query_name(m, s): m for m, s in shape.members.items()}
    given = {key.split(".", 1)[0] for key in form if key not in ("Action", "Version")}
    return ([f"{k}: not a parameter of {name}" for k in sorted(given - set(names))]
            + [f"{m}: required by {name}" for q, m in names.items()
               if m in shape.required_members and q not in given])


def ec2_response(name: str, body: dict[str, Any]) -> bytes:
    """``body`` (botocore's parsed shape, by member name) as the XML EC2 answers with."""
    shape = operation("ec2", name).output_shape
    inner = _xml_members(shape, body) if isinstance(shape, StructureShape) else ""
    return (f'<?xml version="1.0" encoding="UTF-8"?><{name}Response xmlns="{EC2_XMLNS}">'
            f"<requestId>fake-request</requestId>{inner}</{name}Response>").encode()


def ec2_error(code: str, message: str) -> bytes:
    return (f"<Response><Errors><Error><Code>{escape(code)}</Code><Message>{escape(message)}</Message></Error>"
            "</Errors><RequestID>fake-request</RequestID></Response>").encode()


def _xml_members(shape: StructureShape, value: dict[str, Any]) -> str:
    out = []
    for member, item in value.items():
        if member not in shape.members:
            raise KeyError(f"{member} is not in {shape.name}")
        member_shape = shape.members[member]
        tag = member_shape.serialization.get("name", member)
        out.append(f"<{tag}>{_xml_value(member_shape, item)}</{tag}>")
    return "".join(out)


def _xml_value(shape: Shape, value: Any) -> str:
    if shape.type_name == "structure":
        assert isinstance(shape, StructureShape)
        return _xml_members(shape, value)
    if shape.type_name == "list":
        member = shape.member  # type: ignore[attr-defined]
        tag = member.serialization.get("name", "item")
        return "".join(f"<{tag}>{_xml_value(member, v)}</{tag}>" for v in value)
    if shape.type_name == "timestamp":
        return value.isoformat().replace("+00:00", "Z") if isinstance(value, datetime) else str(value)
    if shape.type_name == "boolean":
        return "true" if value else "false"
    return escape(str(value))
