"""Background loops of a bot process: the digest scheduler and a stoppable periodic runner."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.client import ServiceClient
from bot.dedup import SeenIds
from bot.digest import deliver_once, due_day
from contract.errors import UpstreamError
from policy.config import PolicyConfig

log = logging.getLogger(__name__)


class DigestScheduler:
    """Fires each subscribed channel's digest at its local time; the service's claim makes it once per day.

    Replicas all run this; each asks the service to claim (channel, local date) and only the winner posts.
    """

    def __init__(self, *, service: ServiceClient, client: Any, clock: Callable[[], datetime]) -> None:
        self._service = service
        self._client = client
        self._clock = clock
        self._settled = SeenIds(capacity=4096)  # (channel, date) this replica has posted or seen claimed

    def tick(self) -> list[tuple[str, str]]:
        """One pass over the subscriptions; the (channel, date) pairs posted by this replica."""
        now = self._clock()
        policy = PolicyConfig.model_validate(self._service.get_policy().policy)
        posted = []
        for team, team_policy in policy.teams.items():
            sub = team_policy.digest
            if sub is None:
                continue
            day = due_day(now, at=sub.time, tz_name=sub.timezone)
            if day is None or (sub.channel, day) in self._settled:
                continue
            if deliver_once(self._service, self._client, team=team, channel=sub.channel, day=day, now=now,
                            tz_name=sub.timezone):
                posted.append((sub.channel, day))
            self._settled.first_time((sub.channel, day))
        return posted


class Periodic:
    """Calls ``step`` every ``interval`` seconds on a daemon thread until stopped; a failing step is logged."""

    def __init__(self, name: str, step: Callable[[], object], *, interval: float) -> None:
        self._name = name
        self._step = step
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except UpstreamError as exc:  # the service or Slack is away or refuses: its words, not a traceback
                log.warning("%s step failed (%s); retrying in %.0f s", self._name, exc.message, self._interval)
            except Exception:  # a loop that dies silently stops the digests for good; log and retry next tick
                log.exception("%s step failed; retrying in %.0f s", self._name, self._interval)
            self._stop.wait(self._interval)
