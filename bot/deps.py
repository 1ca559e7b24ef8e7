"""What every handler needs, built once per process and passed in (never module globals)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.access import PolicyWatch
from bot.client import ServiceClient
from bot.dedup import SeenIds, TtlCache
from bot.posting import SentMessages


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Deps:
    service: ServiceClient
    zones: TtlCache = field(default_factory=TtlCache)
    seen_events: SeenIds = field(default_factory=SeenIds)
    policy_watch: PolicyWatch = field(default_factory=PolicyWatch)
    sent: SentMessages = field(default_factory=SentMessages)
    clock: Callable[[], datetime] = _utcnow

    def user_zone(self, client: Any, user_id: str) -> str:
        """The Slack user's IANA zone (users.info), cached; UTC when Slack does not say."""
        cached = self.zones.get(user_id)
        if cached is not None:
            return cached
        response = client.users_info(user=user_id)
        zone = str(response.get("user", {}).get("tz") or "UTC")
        self.zones.put(user_id, zone)
        return zone
