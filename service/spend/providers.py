"""Where spend comes from: a ``SpendProvider``.

- ``UnavailableSpend`` (the embedded default): no source, so plans say spend is unknown and never auto-approve.
- ``FileSpend``: a JSON file (``GPUOPS_SPEND_FILE``, or ``GPUOPS_SPEND=sample`` for the shipped sample), for dev.
- Cost Explorer: ``service.aws.costexplorer.SpendProvider``, chosen by ``GPUOPS_SPEND=costexplorer`` or, with
  ``GPUOPS_SPEND=auto``, when AWS credentials are configured.

File format: ``{"as_of": ISO time, "teams": {"team-ml": {"month_to_date_usd", "forecast_usd", "daily": [{"day",
"usd"}], "drivers": [{"key", "dimension", "usd"}]}}}``. A file older than the policy's ``spend_stale_after_hours``
is reported stale.
"""

from __future__ import annotations

import calendar
import json
import os
import threading
from collections.abc import Callable
from datetime import date, datetime, timedelta
from importlib import resources
from typing import Any, Protocol

from policy.config import PolicyConfig
from policy.errors import RequestError
from policy.spend import DailySpend, SpendSnapshot, SpendStatus, aged, spend_from_document
from service.clock import utcnow
from service.settings import Settings


class SpendProvider(Protocol):
    """Spend for one team as of now; never raises for a source's trouble (reports stale or unavailable).

    ``blocks`` says whether a lookup may wait on the network (so an async caller runs it in a worker thread).
    """

    @property
    def blocks(self) -> bool: ...

    def get_spend(self, *, team: str, policy: PolicyConfig) -> SpendSnapshot: ...


class UnavailableSpend:
    """No spend source configured."""

    blocks = False

    def __init__(self, *, reason: str = "no spend source is configured") -> None:
        self._reason = reason

    def get_spend(self, *, team: str, policy: PolicyConfig) -> SpendSnapshot:
        budget = policy.team(team).monthly_budget_usd
        return SpendSnapshot.unavailable(team=team, reason=self._reason, budget_usd=budget)


class FileSpend:
    """Spend read from a JSON file, parsed once per version of the file; each team's figures with the policy's
    budget laid over them are kept for that version too, so a lookup only ages them."""

    blocks = False

    def __init__(self, path: str, *, clock: Callable[[], datetime] = utcnow) -> None:
        self._path = path
        self._clock = clock
        self._lock = threading.Lock()
        self._loaded: tuple[float, dict[str, SpendSnapshot]] | None = None
        # (file version, team, budget) -> the team's figures with that budget, for the version in force only
        self._budgeted: dict[tuple[float, str, float | None], SpendSnapshot] = {}

    def _snapshots(self) -> tuple[float, dict[str, SpendSnapshot]]:
        mtime = os.stat(self._path).st_mtime
        with self._lock:
            if self._loaded is None or self._loaded[0] != mtime:
                self._loaded = (mtime, self._parse())
                self._budgeted = {}
            return self._loaded

    def _parse(self) -> dict[str, SpendSnapshot]:
        with open(self._path, encoding="utf-8") as handle:
            return spend_from_document(json.load(handle), source=self._path)

    def _figures(self, *, team: str, budget: float | None) -> SpendSnapshot:
        """The file's figures for ``team`` with the policy's budget, not yet aged (unavailable when it has none)."""
        try:
            version, snapshots = self._snapshots()
        except (OSError, ValueError, RequestError) as exc:
            return SpendSnapshot.unavailable(team=team, reason=f"cannot read {self._path}: {exc}", budget_usd=budget)
        key = (version, team, budget)
        found = self._budgeted.get(key)
        if found is not None:
            return found
        snapshot = snapshots.get(team)
        if snapshot is None:
            return SpendSnapshot.unavailable(team=team, reason=f"{self._path} has no figures for {team}",
                                             budget_usd=budget)
        # The policy's budget wins; a file's own figure stands only for a team the policy gives none.
        snapshot = snapshot.model_copy(update={"budget_usd": budget if budget is not None else snapshot.budget_usd})
        with self._lock:
            if self._loaded is not None and self._loaded[0] == version:
                self._budgeted[key] = snapshot
        return snapshot

    def get_spend(self, *, team: str, policy: PolicyConfig) -> SpendSnapshot:
        snapshot = self._figures(team=team, budget=policy.team(team).monthly_budget_usd)
        return aged(snapshot, now=self._clock(), stale_after_hours=policy.spend_stale_after_hours)


def sample_spend_path() -> str:
    """The shipped sample (dated so that it is always fresh: see ``SampleSpend``)."""
    return str(resources.files("service.data").joinpath("sample-spend.json"))


class SampleSpend(FileSpend):
    """The shipped sample, replayed into the current month as of now so that it never goes stale in a demo."""

    def __init__(self, path: str, *, clock: Callable[[], datetime] = utcnow) -> None:
        super().__init__(path, clock=clock)
        # The last replay per team: (the figures it replayed, the day) -> the replay, which only as_of follows.
        self._replays: dict[str, tuple[SpendSnapshot, date, SpendSnapshot]] = {}

    def get_spend(self, *, team: str, policy: PolicyConfig) -> SpendSnapshot:
        figures = self._figures(team=team, budget=policy.team(team).monthly_budget_usd)
        now = self._clock()
        snapshot = aged(figures, now=now, stale_after_hours=policy.spend_stale_after_hours)
        if snapshot.status is SpendStatus.UNAVAILABLE:
            return snapshot
        # ``aged`` only sets status, reason and age, which the replay's own replace: replay the figures themselves.
        today = now.date()
        last = self._replays.get(team)
        if last is not None and last[0] is figures and last[1] == today:
            replay = last[2]
        else:
            replay = replayed(figures, today=today)
            self._replays[team] = (figures, today, replay)
        return replay.model_copy(update={
            "as_of": now, "age_seconds": 0.0, "status": SpendStatus.OK,
            "reason": "sample figures (GPUOPS_SPEND=sample)"})


def replayed(snapshot: SpendSnapshot, *, today: date) -> SpendSnapshot:
    """The sample's days laid over this month up to yesterday and the month before it, day N of a month taking the
    sample's day N (cycling); month to date, the forecast for the rest of the month (at
    the sample's own forecast per remaining day) and the drivers (scaled to the new month to date) follow from
    them. On the sample's own date it is the sample unchanged."""
    pattern = [d.usd for d in sorted(snapshot.daily, key=lambda d: d.day)]
    if not pattern:
        return snapshot
    first = today.replace(day=1)
    start = (first - timedelta(days=1)).replace(day=1)  # last month too: a digest just past midnight UTC needs it
    days = [start + timedelta(days=i) for i in range((today - start).days)]
    daily = [DailySpend(day=d.isoformat(), usd=pattern[(d.day - 1) % len(pattern)]) for d in days]
    month = round(float(sum(d.usd for d in daily if d.day >= first.isoformat())), 2)
    remaining = _days_left(today)
    per_day = (snapshot.forecast_usd / _days_left(snapshot.as_of.date())
               if snapshot.forecast_usd is not None and snapshot.as_of is not None
               else sum(d.usd for d in daily[-7:]) / max(1, len(daily[-7:])))
    scale = month / snapshot.month_to_date_usd if snapshot.month_to_date_usd else 0.0
    drivers = [d.model_copy(update={"usd": round(d.usd * scale, 2)}) for d in snapshot.drivers if d.usd * scale > 0]
    return snapshot.model_copy(update={"daily": daily, "month_to_date_usd": month, "drivers": drivers,
                                       "forecast_usd": round(per_day * remaining, 2)})


def _days_left(day: date) -> int:
    """Days from ``day`` to the end of its month, ``day`` included."""
    return calendar.monthrange(day.year, day.month)[1] - day.day + 1


def spend_mode(settings: Settings) -> str:
    """The spend source the settings resolve to: sample, file, costexplorer or unavailable."""
    if settings.spend == "auto":
        return "file" if settings.spend_file else ("costexplorer" if _aws_configured(settings) else "unavailable")
    return settings.spend


def make_spend_provider(settings: Settings, *, cache: Any = None, engine: Any = None) -> SpendProvider:
    """The provider the settings ask for (Cost Explorer adds what launches committed since its figure, read
    from ``engine``)."""
    mode = spend_mode(settings)
    if mode == "sample":
        return SampleSpend(sample_spend_path())
    if mode == "file":
        if not settings.spend_file:
            raise RequestError("GPUOPS_SPEND=file needs GPUOPS_SPEND_FILE", code="invalid_settings")
        return FileSpend(settings.spend_file)
    if mode == "costexplorer":
        from service.aws.clients import ClientFactory
        from service.aws.costexplorer import SpendProvider as CostExplorerSpend
        from service.jobs.tracker import committed_spend

        committed = committed_spend(engine=engine) if engine is not None else None
        return CostExplorerSpend(factory=ClientFactory.from_settings(settings), cache=cache,
                                 ttl_seconds=settings.spend_ttl_seconds, committed_since=committed)
    return UnavailableSpend()


def _aws_configured(settings: Settings) -> bool:
    from service.aws.clients import ClientFactory, credentials_configured

    return credentials_configured(factory=ClientFactory.from_settings(settings))
