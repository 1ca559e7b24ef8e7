"""A loopback stand-in for Slack's Socket Mode WebSocket: the URL ``apps.connections.open`` hands out.

It greets each connection as Slack does (``hello``), sends the envelopes a test queues, and records every message
the bot sends back (the acknowledgements, ``{"envelope_id": …}``).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

from aiohttp import WSMsgType, web


class FakeSocketMode:
    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.connections = 0
        self._open: set[web.WebSocketResponse] = set()
        self._outbox: asyncio.Queue[dict[str, Any]] | None = None
        self._loop = asyncio.new_event_loop()
        self._cond = threading.Condition()
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self._port}/link/?ticket=fake"

    def start(self) -> FakeSocketMode:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._serve(), self._loop).result(10)
        return self

    def stop(self) -> None:
        async def hang_up() -> None:
            for ws in list(self._open):
                await ws.close()

        asyncio.run_coroutine_threadsafe(hang_up(), self._loop).result(10)
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    def send(self, envelope: dict[str, Any]) -> None:
        """Deliver ``envelope`` to the connected bot (queued until it connects)."""
        async def put() -> None:
            assert self._outbox is not None
            await self._outbox.put(envelope)

        asyncio.run_coroutine_threadsafe(put(), self._loop).result(10)

    def wait_for_ack(self, envelope_id: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                found = [m for m in self.received if m.get("envelope_id") == envelope_id]
                if found:
                    return found[0]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no acknowledgement of {envelope_id} within {timeout} s: {self.received}")
                self._cond.wait(left)

    async def _serve(self) -> None:
        self._outbox = asyncio.Queue()
        app = web.Application()
        app.router.add_get("/link/", self._connection)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _connection(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.connections += 1
        self._open.add(ws)
        await ws.send_str(json.dumps({"type": "hello", "num_connections": 1,
                                      "connection_info": {"app_id": "A0GPUOPS"}}))
        sender = asyncio.ensure_future(self._send_queued(ws))
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    with self._cond:
                        self.received.append(json.loads(message.data))
                        self._cond.notify_all()
        finally:
            sender.cancel()
            self._open.discard(ws)
        return ws

    async def _send_queued(self, ws: web.WebSocketResponse) -> None:
        assert self._outbox is not None
        while not ws.closed:
            envelope = await self._outbox.get()
            await ws.send_str(json.dumps(envelope))
