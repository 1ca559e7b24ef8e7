"""A fake Kubernetes API server on 127.0.0.1 for custom objects (kubeflow.org/v1 pytorchjobs, karpenter.sh/v1
nodepools): create (201, or 409 AlreadyExists), get (200 or 404), delete; the test sets a PyTorchJob's status
conditions the way the training operator would. The real ``kubernetes`` client talks to it over HTTP through a
kubeconfig that points here."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.loopback import LoopbackServer

# /apis/<group>/<version>[/namespaces/<ns>]/<plural>[/<name>]
PATH = re.compile(r"^/apis/(?P<group>[^/]+)/(?P<version>[^/]+)(?:/namespaces/(?P<ns>[^/]+))?/(?P<plural>[^/]+)"
                  r"(?:/(?P<name>[^/?]+))?(?:\?.*)?$")


def _status(code: int, reason: str, message: str) -> dict[str, Any]:
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure" if code >= 400 else "Success",
            "message": message, "reason": reason, "code": code}


class FakeKubernetes(LoopbackServer):
    def __init__(self) -> None:
        self.objects: dict[tuple[str, str, str, str], dict[str, Any]] = {}  # (group, plural, namespace, name)
        self.requests: list[tuple[str, str]] = []  # (method, path)
        self.lock = threading.Lock()
        super().__init__()

    def kubeconfig(self, directory: Path) -> str:
        path = directory / "kubeconfig"
        path.write_text(json.dumps({
            "apiVersion": "v1", "kind": "Config", "current-context": "fake",
            "clusters": [{"name": "fake", "cluster": {"server": self.url}}],
            "users": [{"name": "fake", "user": {"token": "fake-token"}}],
            "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "fake"}}],
        }), encoding="utf-8")
        return str(path)

    def calls(self, method: str, plural: str) -> list[str]:
        with self.lock:
            return [path for m, path in self.requests if m == method and f"/{plural}" in path]

    def pytorchjobs(self) -> dict[str, dict[str, Any]]:
        with self.lock:
            return {key[3]: obj for key, obj in self.objects.items() if key[1] == "pytorchjobs"}

    def set_conditions(self, name: str, *conditions: tuple[str, str, str], start: str | None = None,
                       completion: str | None = None) -> None:
        """Conditions as (type, lastTransitionTime, message), all true, in the order they happened."""
        with self.lock:
            job = next(obj for key, obj in self.objects.items() if key[1] == "pytorchjobs" and key[3] == name)
            job["status"] = {
                "conditions": [{"type": t, "status": "True", "reason": f"PyTorchJob{t}", "message": m,
                                "lastUpdateTime": at, "lastTransitionTime": at} for t, at, m in conditions],
                **({"startTime": start} if start else {}), **({"completionTime": completion} if completion else {}),
            }

    def _answer(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, dict[str, Any]]:
        match = PATH.match(path)
        if match is None:
            return 404, _status(404, "NotFound", f"no route {path}")
        group, plural, ns, name = match["group"], match["plural"], match["ns"] or "", match["name"]
        with self.lock:
            self.requests.append((method, path))
            if method == "POST" and body is not None:
                key = (group, plural, ns, str(body["metadata"]["name"]))
                if key in self.objects:
                    return 409, _status(409, "AlreadyExists", f'{plural}.{group} "{key[3]}" already exists')
                created = {**body, "metadata": {**body["metadata"], "uid": f"uid-{len(self.objects) + 1}"}}
                self.objects[key] = created
                return 201, created
            key = (group, plural, ns, name or "")
            if key not in self.objects:
                return 404, _status(404, "NotFound", f'{plural}.{group} "{name}" not found')
            if method == "DELETE":
                del self.objects[key]
                return 200, _status(200, "", "deleted")
            return 200, self.objects[key]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class _Handler(BaseHTTPRequestHandler):
            def _serve(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                status, answer = fake._answer(method, self.path, body)
                data = json.dumps(answer).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._serve("GET")

            def do_POST(self) -> None:
                self._serve("POST")

            def do_DELETE(self) -> None:
                self._serve("DELETE")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return _Handler
