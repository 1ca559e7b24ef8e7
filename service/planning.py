"""From a plan input to a ``Decision``: parse the text, lay the structured fields over it, resolve the team, read
spend and call the pure engine (``policy.tree.decide``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ValidationError

from contract.plans import PlanFields
from policy.catalog import Catalog, load_catalog
from policy.config import PolicyConfig, default_policy, load_policy_file
from policy.decision import Decision
from policy.errors import RequestError
from policy.parse import parse_request
from policy.request import TrainingRequest
from policy.spend import SpendSnapshot
from policy.tree import decide
from service.settings import Settings
from service.spend import SpendProvider

FIELD_NAMES = tuple(PlanFields.model_fields)


def zone_or_raise(name: str | None) -> str:
    """A valid IANA zone name (UTC when absent)."""
    zone = name or "UTC"
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise RequestError(f"unknown time zone {zone!r}; use an IANA name like Europe/Berlin",
                           code="unknown_timezone") from None
    return zone


def _describe(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'request'}: {e['msg']}" for e in exc.errors())


@dataclass(frozen=True)
class PlanContext:
    """Everything one decision was made from, kept with the plan revision."""

    request: TrainingRequest
    decision: Decision
    spend: SpendSnapshot
    timezone: str


@dataclass(frozen=True)
class Planner:
    """The catalog, the policy and the spend source in force."""

    catalog: Catalog
    policy: PolicyConfig
    spend: SpendProvider

    def resolve_team(self, named: str | None, *, channel: str | None) -> str:
        if named:
            if named not in self.policy.teams:
                known = ", ".join(sorted(self.policy.teams))
                raise RequestError(f"unknown team {named!r}; known teams: {known}", code="unknown_team")
            return named
        return (channel and self.policy.team_for_channel(channel)) or self.policy.default_team

    def training_request(
        self, *, text: str | None, fields: dict[str, Any], timezone: str, now: datetime, channel: str | None,
    ) -> TrainingRequest:
        """Parse ``text`` (if any) and lay ``fields`` over it; raise RequestError naming what to change."""
        if not text and not fields:
            raise RequestError("say what to train: give text like 'fine-tune 7B by Friday' or the fields",
                               code="empty_request")
        base: dict[str, Any] = {}
        if text:
            parsed = parse_request(text, now=now, tz=timezone, team=fields.get("team"))
            base = parsed.model_dump(exclude_none=True)
        overlay = dict(fields)
        deadline = overlay.get("deadline")
        if isinstance(deadline, datetime) and deadline.tzinfo is None:
            overlay["deadline"] = deadline.replace(tzinfo=ZoneInfo(timezone))
        merged = {**base, **overlay, "text": text or ""}
        merged["team"] = self.resolve_team(merged.get("team"), channel=channel)
        try:
            return TrainingRequest.model_validate(merged)
        except ValidationError as exc:
            raise RequestError(_describe(exc), code="invalid_request") from None

    def spend_for(self, request: TrainingRequest) -> SpendSnapshot:
        return self.spend.get_spend(team=request.team or self.policy.default_team, policy=self.policy)

    def plan(
        self, request: TrainingRequest, *, now: datetime, timezone: str = "UTC", spend: SpendSnapshot | None = None,
    ) -> PlanContext:
        """Decide on ``request`` with the team's current spend (read now unless given)."""
        spend = spend if spend is not None else self.spend_for(request)
        try:
            decision = decide(request, catalog=self.catalog, policy=self.policy, spend=spend, now=now)
        except ValidationError as exc:
            raise RequestError(_describe(exc), code="invalid_request") from None
        return PlanContext(request=request, decision=decision, spend=spend, timezone=timezone)


def plan_fields(model: PlanFields) -> dict[str, Any]:
    """The structured fields a person actually gave."""
    return model.model_dump(include=set(FIELD_NAMES), exclude_none=True)


def catalog_source(settings: Settings) -> str | None:
    """``GPUOPS_CATALOG``, else the refreshed snapshot in force (``<GPUOPS_CATALOG_DIR>/current.json``), else None
    for the shipped one."""
    if settings.catalog_file:
        return settings.catalog_file
    current = os.path.join(settings.catalog_dir, "current.json")
    return current if os.path.exists(current) else None


CatalogStamp = tuple[str | None, float]


def catalog_stamp(settings: Settings) -> CatalogStamp:
    """Which snapshot is in force and when it was written: a change means a refresh stored a newer one."""
    source = catalog_source(settings)
    return source, (os.stat(source).st_mtime if source else 0.0)


def newer_catalog(settings: Settings, *, seen: CatalogStamp) -> tuple[Catalog, CatalogStamp] | None:
    """The snapshot in force with its stamp when it differs from ``seen`` (a refresh landed); else None."""
    stamp = catalog_stamp(settings)
    if stamp == seen:
        return None
    return load_catalog(stamp[0]), stamp


def load_policy(settings: Settings) -> PolicyConfig:
    return load_policy_file(settings.policy_file) if settings.policy_file else default_policy()


def make_planner(settings: Settings, *, spend: SpendProvider) -> Planner:
    """The planner the settings describe: the policy file, the catalog snapshot in force and ``spend``."""
    return Planner(catalog=load_catalog(catalog_source(settings)), policy=load_policy(settings), spend=spend)
