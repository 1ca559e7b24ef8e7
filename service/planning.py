"""From a plan input to a ``Decision``: parse the text, lay the structured fields over it, resolve the team, read
spend and call the pure engine (``policy.tree.decide``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from contract.plans import PlanFields
from policy.catalog import Catalog, load_catalog
from policy.config import PolicyConfig, default_policy, load_policy_file
from policy.decision import Decision, plan_hash
from policy.errors import RequestError
from policy.intake import describe_validation, local_moment, request_from, zone_or_raise
from policy.request import TrainingRequest
from policy.spend import Ledger, SpendSnapshot
from policy.tree import decide
from service.cache import Cache, MemoryCache
from service.capacity.view import CapacityProvider
from service.settings import Settings
from service.spend.providers import SpendProvider

FIELD_NAMES = tuple(PlanFields.model_fields)
# Reads of the account per plan: the first decision's needs, then again while ranking moves the choice to figures
# not yet read (spot placement scores are asked per type); what is still unread then stays unknown.
CAPACITY_ROUNDS = 3


@dataclass(frozen=True)
class PlanContext:
    """Everything one decision was made from, kept with the plan revision."""

    request: TrainingRequest
    decision: Decision
    spend: SpendSnapshot
    timezone: str

    @property
    def plan_hash(self) -> str:
        return plan_hash(self.decision.model_dump(mode="json"))


@dataclass(frozen=True)
class Planner:
    """The catalog, the policy and the spend source in force."""

    catalog: Catalog
    policy: PolicyConfig
    spend: SpendProvider
    capacity: CapacityProvider | None = None  # None: capacity is not looked at (plans carry no capacity figures)

    def check_team(self, named: str | None) -> None:
        """Refuse a team the policy does not know, naming the ones it does."""
        if named and named not in self.policy.teams:
            known = ", ".join(sorted(self.policy.teams))
            raise RequestError(f"unknown team {named!r}; known teams: {known}", code="unknown_team")

    def training_request(
        self, *, text: str | None, fields: dict[str, Any], timezone: str, now: datetime, channel: str | None,
    ) -> TrainingRequest:
        """``text`` read and ``fields`` laid over it (``policy.intake``), for a team the policy knows: the one named,
        else the channel's; with neither the team stays unset and the decision records the policy's default as an
        assumption."""
        request = request_from(text=text, fields=fields, now=now, timezone=timezone,
                               default_team=(channel and self.policy.team_for_channel(channel)) or None)
        self.check_team(request.team)
        return request

    def plan_input(
        self, *, text: str | None, fields: dict[str, Any], timezone: str | None, now: datetime,
        channel: str | None = None, spend: SpendSnapshot | None = None,
        ledger: Callable[[str], Ledger] | None = None,
    ) -> PlanContext:
        """The one pipeline from what a person gave to a decision: time zone, request, spend, decision.

        ``ledger`` (filing only) reads the team's running and reserved exposure once spend is in hand, so that a
        caller can take its write lock after any slow spend lookup and hold it only while deciding.
        """
        zone = zone_or_raise(timezone)
        moment = local_moment(now, timezone=zone)
        request = self.training_request(text=text, fields=fields, timezone=zone, now=moment, channel=channel)
        if ledger is not None:
            spend = spend if spend is not None else self.spend_for(request)
            team = self.policy.team_or_default(request.team)[0]
            spend = spend.model_copy(update={"ledger": ledger(team)})
        return self.plan(request, now=moment, timezone=zone, spend=spend)

    def spend_for(self, request: TrainingRequest) -> SpendSnapshot:
        return self.spend.get_spend(team=self.policy.team_or_default(request.team)[0], policy=self.policy)

    def plan(
        self, request: TrainingRequest, *, now: datetime, timezone: str = "UTC", spend: SpendSnapshot | None = None,
    ) -> PlanContext:
        """Decide on ``request`` with the team's current spend (read now unless given)."""
        spend = spend if spend is not None else self.spend_for(request)
        try:
            decision = decide(request, catalog=self.catalog, policy=self.policy, spend=spend, now=now)
            if self.capacity is not None:
                decision = self._with_capacity(request, decision, spend=spend, now=now)
        except ValidationError as exc:
            raise RequestError(describe_validation(exc), code="invalid_request") from None
        return PlanContext(request=request, decision=decision, spend=spend, timezone=timezone)

    def _with_capacity(self, request: TrainingRequest, first: Decision, *, spend: SpendSnapshot,
                       now: datetime) -> Decision:
        """Decide again with what the account can start; a choice that moved to figures not yet read asks once more
        (at most ``CAPACITY_ROUNDS`` reads in all)."""
        assert self.capacity is not None
        decision, view = first, None
        for _ in range(CAPACITY_ROUNDS):
            view = self.capacity.view_for(decision, now=now, known=view)
            decision = decide(request, catalog=self.catalog, policy=self.policy, spend=spend, now=now, capacity=view)
            check = decision.plan.capacity
            if not view.known or check is None or not any("not read" in r for r in check.reasons):
                break
        return decision


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


def make_planner(settings: Settings, *, spend: SpendProvider, cache: Cache | None = None) -> Planner:
    """The planner the settings describe: the policy file, the catalog snapshot in force, ``spend`` and capacity."""
    catalog, policy = load_catalog(catalog_source(settings)), load_policy(settings)
    return Planner(catalog=catalog, policy=policy, spend=spend,
                   capacity=make_capacity_provider(settings, catalog=catalog, policy=policy, cache=cache))


def make_capacity_provider(settings: Settings, *, catalog: Catalog, policy: PolicyConfig,
                           cache: Cache | None = None) -> CapacityProvider:
    """AWS when credentials are configured (or ``GPUOPS_CAPACITY=aws``), else unknown capacity: never assumed fine."""
    from service.aws.clients import ClientFactory, credentials_configured
    from service.capacity.view import AwsCapacity, UnknownCapacity

    factory = ClientFactory.from_settings(settings)
    mode = settings.capacity
    if mode == "auto":
        mode = "aws" if credentials_configured(factory=factory) else "unknown"
    if mode == "unknown":
        return UnknownCapacity()
    return AwsCapacity(factory=factory, cache=cache if cache is not None else MemoryCache(), catalog=catalog,
                       policy=policy, ttl_seconds=settings.capacity_ttl_seconds)
