"""IAM's ``SimulatePrincipalPolicy`` on 127.0.0.1 (moto does not simulate policies), speaking the query protocol:
a form-encoded request decoded by botocore's own input shape and validated against it, an XML answer.

Each principal ARN maps to the actions its policies allow; an action outside that set is ``implicitDeny``, an
unknown principal is ``NoSuchEntity``. Every request is kept (decoded) for tests to assert on.
"""

from __future__ import annotations

import re
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qsl
from xml.sax.saxutils import escape

import botocore.session
from botocore.validate import ParamValidator

from tests.loopback import LoopbackServer

_MODEL = botocore.session.get_session().get_service_model("iam")


def decode_query(form: dict[str, str], shape: Any, prefix: str = "") -> dict[str, Any]:
    """The query protocol's flat ``A.member.1.B`` keys back into the structure of ``shape``."""
    out: dict[str, Any] = {}
    for name, member in shape.members.items():
        value = _decode(form, member, f"{prefix}{name}")
        if value is not None:
            out[name] = value
    return out


def _decode(form: dict[str, str], shape: Any, key: str) -> Any:
    if shape.type_name == "structure":
        inner = decode_query(form, shape, f"{key}.")
        return inner or None
    if shape.type_name == "list":
        items = []
        index = 1
        while any(k == f"{key}.member.{index}" or k.startswith(f"{key}.member.{index}.") for k in form):
            items.append(_decode(form, shape.member, f"{key}.member.{index}"))
            index += 1
        return items or None
    return form.get(key)


class FakeIam(LoopbackServer):
    def __init__(self) -> None:
        self.allowed: dict[str, set[str]] = {}
        self.denied_resources: set[str] = set()  # resources no action is allowed on, whatever the principal
        self.requests: list[dict[str, Any]] = []
        super().__init__()

    def simulate(self, params: dict[str, Any]) -> tuple[int, str]:
        principal = params["PolicySourceArn"]
        if principal not in self.allowed:
            return 404, _error("NoSuchEntity", f"The principal {principal} cannot be found.")
        rows = []
        for action in params["ActionNames"]:
            for resource in params.get("ResourceArns", ["*"]):
                allowed = action in self.allowed[principal] and resource not in self.denied_resources
                decision = "allowed" if allowed else "implicitDeny"
                rows.append(f"<member><EvalActionName>{escape(action)}</EvalActionName><EvalResourceName>"
                            f"{escape(resource)}</EvalResourceName><EvalDecision>{decision}</EvalDecision>"
                            "<MatchedStatements/><MissingContextValues/></member>")
        body = ("<SimulatePrincipalPolicyResponse xmlns=\"https://iam.amazonaws.com/doc/2010-05-08/\">"
                "<SimulatePrincipalPolicyResult><IsTruncated>false</IsTruncated><EvaluationResults>"
                f"{''.join(rows)}</EvaluationResults></SimulatePrincipalPolicyResult>"
                "<ResponseMetadata><RequestId>fake-iam</RequestId></ResponseMetadata>"
                "</SimulatePrincipalPolicyResponse>")
        return 200, body

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                form = dict(parse_qsl(raw, keep_blank_values=True))
                operation = form.pop("Action", "")
                form.pop("Version", None)
                if operation != "SimulatePrincipalPolicy":
                    refusal = f"the fake serves SimulatePrincipalPolicy, not {operation}"
                    self._reply(400, _error("InvalidAction", refusal))
                    return
                params = decode_query(form, _MODEL.operation_model(operation).input_shape)
                report = ParamValidator().validate(params, _MODEL.operation_model(operation).input_shape)
                if report.has_errors():
                    self._reply(400, _error("ValidationError", re.sub(r"\s+", " ", report.generate_report())))
                    return
                fake.requests.append(params)
                self._reply(*fake.simulate(params))

            def _reply(self, status: int, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "text/xml")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def _error(code: str, message: str) -> str:
    return (f"<ErrorResponse><Error><Type>Sender</Type><Code>{code}</Code><Message>{escape(message)}</Message>"
            "</Error><RequestId>fake-iam</RequestId></ErrorResponse>")
