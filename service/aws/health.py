"""The worker's own small HTTP endpoint: ``/healthz`` (the database answers) and ``/metrics`` (Prometheus)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from sqlalchemy.engine import Engine

from service.store.db import ping


def _handler(engine: Engine) -> type[BaseHTTPRequestHandler]:
    class _Health(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == "/metrics":
                self._reply(200, generate_latest(REGISTRY), CONTENT_TYPE_LATEST)
            elif self.path in ("/healthz", "/readyz"):
                try:
                    ping(engine)
                except Exception as exc:  # noqa: BLE001 - any database failure means not healthy
                    self._reply(503, f'{{"status": "unavailable", "database": "{type(exc).__name__}"}}'.encode(),
                                "application/json")
                    return
                self._reply(200, b'{"status": "ok"}', "application/json")
            else:
                self._reply(404, b'{"error": "not found"}', "application/json")

        def _reply(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return _Health


def serve_health(*, host: str, port: int, engine: Engine) -> ThreadingHTTPServer:
    """Serve ``/healthz`` and ``/metrics`` in a daemon thread; call ``shutdown()`` to stop."""
    server = ThreadingHTTPServer((host, port), _handler(engine))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name=f"worker-health-{port}", daemon=True).start()
    return server
