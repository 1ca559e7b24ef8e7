"""Instructions per unit of work, counted by valgrind's callgrind: figures that do not move with the machine's load
or clock, so a change can be compared with its base on a busy or slower machine where the wall-clock figures of
``bench.policy`` and ``bench.service`` move by a fifth from one run to the next.

Each figure runs the same program twice under callgrind, once without the measured work and once with it, and
divides the difference: start-up, imports and warm-up cancel out. Run it by name (``python -m bench instructions``,
a few minutes); without valgrind it says so and prints nothing else. Printed, never asserted.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT = False  # minutes under valgrind: run when named
ROOT = Path(__file__).resolve().parents[1]
DECISIONS = 200
PREVIEWS = 200
WARM_UP = 50
PREVIEW_BODY = b'{"text": "fine-tune 7B by Friday"}'


def _instructions(args: list[str], env: dict[str, str]) -> int:
    """Instructions callgrind counts for one run of this module's ``_child`` with ``args``."""
    valgrind = shutil.which("valgrind")
    assert valgrind is not None
    out = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m",
                          "bench.instructions", "--child", *args], capture_output=True, text=True, check=True,
                         cwd=ROOT, env=env)
    match = re.search(r"refs:\s+([\d,]+)", out.stderr)
    if match is None:
        raise RuntimeError(f"callgrind printed no instruction count: {out.stderr[-500:]}")
    return int(match.group(1).replace(",", ""))


def _per_unit(kind: str, units: int, env: dict[str, str]) -> float:
    """Instructions per unit of ``kind``: (a run with ``units`` of it − a run with none) / ``units``. A run without
    valgrind goes first, so that bytecode written by the first of the two (a checkout just changed) is not counted
    in one and not the other."""
    subprocess.run([sys.executable, "-m", "bench.instructions", "--child", kind, "0"], check=True,
                   capture_output=True, cwd=ROOT, env=env)
    return (_instructions([kind, str(units)], env) - _instructions([kind, "0"], env)) / units


def run() -> None:
    if shutil.which("valgrind") is None:
        print("instruction counts: skipped, valgrind is not installed (apt-get install valgrind)")
        return
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    decide = _per_unit("decide", DECISIONS, env)
    print(f"decide(): {decide / 1e6:.2f} M instructions per warm decision ({DECISIONS} of the bench.policy mix)")
    preview = _per_unit("preview", PREVIEWS, env)
    print(f"POST /v1/plans in process (the ASGI app, no sockets): {preview / 1e6:.2f} M instructions per request "
          f"({PREVIEWS} × {PREVIEW_BODY.decode()})")
    # as an installed command runs after its first use: bytecode and the parser's compiled patterns cached in
    # directories of their own, filled first
    cached = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "gpuops-bench-pycache")
    cached["GPUOPS_CACHE_DIR"] = str(Path(tempfile.gettempdir()) / "gpuops-bench-patterns")
    subprocess.run([sys.executable, "-m", "bench.instructions", "--child", "plan", "1"], check=True,
                   capture_output=True, cwd=ROOT, env=cached)
    plan = _instructions(["plan", "1"], cached) - _instructions(["plan", "0"], cached)
    print(f"gpuops plan: {plan / 1e6:,.0f} M instructions beyond a bare interpreter, imports included (bytecode "
          "and patterns cached)")


def _child(kind: str, units: int) -> None:
    if kind == "decide":
        _decisions(units)
    elif kind == "preview":
        _previews(units)
    elif kind == "plan" and units:
        from bench.policy import CLI_ARGS
        from gpuops.cli import main

        sys.argv = ["gpuops", *CLI_ARGS]
        main()


def _decisions(units: int) -> None:
    from bench.policy import _decide, request_mix
    from policy.catalog import load_catalog
    from policy.config import default_policy
    from policy.spend import SpendSnapshot

    catalog, policy = load_catalog(), default_policy()
    spend = SpendSnapshot.unavailable(team=None, reason="bench")
    mix = request_mix(WARM_UP + units)
    for request in mix[:WARM_UP]:
        _decide(request, catalog, policy, spend)
    for request in mix[WARM_UP:]:
        _decide(request, catalog, policy, spend)


def _previews(units: int) -> None:
    """``units`` previews through the whole ASGI app (middleware, routing, token check, planning, JSON, hash) on
    the service's embedded defaults with the shipped sample spend, after ``WARM_UP`` of them."""
    folder = tempfile.mkdtemp(prefix="gpuops-bench-")
    from bench.service import TOKEN, _policy_file

    os.environ.update({"DATABASE_URL": f"sqlite:///{folder}/bench.db", "GPUOPS_API_TOKENS": f"admin:{TOKEN}",
                       "GPUOPS_SPEND": "sample", "GPUOPS_LOG_LEVEL": "WARNING",
                       "GPUOPS_POLICY": _policy_file(folder)})
    os.environ.pop("REDIS_URL", None)
    from starlette.types import Message

    from service.api.app import create_app
    from service.store.migrate import upgrade

    upgrade(os.environ["DATABASE_URL"])

    app = create_app()
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
               (b"authorization", f"Bearer {TOKEN}".encode()), (b"content-length", str(len(PREVIEW_BODY)).encode())]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/v1/plans", "raw_path": b"/v1/plans", "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}

    async def one() -> None:
        messages: list[Message] = [{"type": "http.request", "body": PREVIEW_BODY, "more_body": False}]
        sent: list[Message] = []

        async def receive() -> Message:
            return messages.pop() if messages else {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            sent.append(message)

        await app(dict(scope), receive, send)
        if sent[0].get("status") != 200:
            raise RuntimeError(f"the preview answered {sent[0].get('status')}: {sent[1:]}")

    async def many() -> None:
        for _ in range(WARM_UP + units):
            await one()

    asyncio.run(many())


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _child(sys.argv[2], int(sys.argv[3]))
    else:
        run()
