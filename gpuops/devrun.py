"""Where ``gpuops dev`` tells the other commands of this directory how to reach it.

When it generates its tokens, ``gpuops dev`` writes the service URL and the bot token to ``.gpuops-dev.json`` in
the working directory (readable by its owner only) and removes the file when it stops; ``gpuops digest`` reads it
when ``GPUOPS_SERVICE_TOKEN`` is not set, so that ``make run`` in one terminal and ``gpuops digest`` in another
work with no setting. A file left by a run that was killed names a process that is gone and is ignored.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

DEV_FILE = ".gpuops-dev.json"


@dataclass(frozen=True)
class DevRun:
    service_url: str
    bot_token: str
    pid: int


def write_dev_run(run: DevRun, *, folder: Path | None = None) -> Path:
    """Write ``run`` for the other commands (mode 0600: it holds a token)."""
    path = (folder or Path.cwd()) / DEV_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump({"service_url": run.service_url, "bot_token": run.bot_token, "pid": run.pid}, handle)
    return path


def remove_dev_run(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def read_dev_run(*, folder: Path | None = None) -> DevRun | None:
    """The running ``gpuops dev`` of this directory, if one wrote the file and is still alive."""
    path = (folder or Path.cwd()) / DEV_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        run = DevRun(service_url=str(data["service_url"]), bot_token=str(data["bot_token"]), pid=int(data["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(run.pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # alive, owned by someone else
    return run
