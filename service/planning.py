"""From a plan input to a ``Decision``: parse the text, lay the structured fields over it, resolve the team, read
spend and call the pure engine (``policy.tree.decide``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from contract.plans import PlanFields
from policy.calibration import Calibration
from policy.catalog import Catalog, load_catalog
from policy.config import PolicyConfig, default_policy, load_policy_file
from policy.decision import Decision, plan_hash
from policy.errors import RequestError
from policy.intake import describe_validation, local_moment, request_from, zone_or_raise
from policy.parse import Reading, read_request
from policy.questions import NeedsInput, ask_after_deciding, unanswered
from policy.request import TrainingRequest
from policy.spend import Ledger, SpendSnapshot
from policy.tree import decide
from service.settings import Settings
from service.spend.providers import SpendProvider

FIELD_NAMES = tuple(PlanFields.model_fields)


@dataclass(frozen=True)
class PlanContext:
    """Everything one decision was made from, kept with the plan revision."""

    request: TrainingRequest
    decision: Decision
    spend: SpendSnapshot
    timezone: str
    calibration_factor: float | None = None  # the learnt correction the plan's hours carry; None: none

    @property
    def plan_hash(self) -> str:
        return plan_hash(self.decision.model_dump(mode="json"))


@dataclass(frozen=True)
class Planner:
    """The catalog, the policy and the spend source in force."""

    catalog: Catalog
    policy: PolicyConfig
    spend: SpendProvider
    # The learnt corrections of estimated hours in force (cached by whoever supplies them); None: none learnt.
    calibration: Callable[[], Calibration] | None = None

    def settled(self) -> Planner:
        """This planner with its calibration read now and held: for deciding while a write lock is held (SQLite
        serialises every transaction, so a read under the lock would wait for the lock itself)."""
        if self.calibration is None:
            return self
        held = self.calibration()
        return replace(self, calibration=lambda: held)

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
        calibration = self.calibration() if self.calibration is not None else None  # read before any write lock
        if ledger is not None:
            spend = spend if spend is not None else self.spend_for(request)
            team = self.policy.team_or_default(request.team)[0]
            spend = spend.model_copy(update={"ledger": ledger(team)})
        return self.plan(request, now=moment, timezone=zone, spend=spend, calibration=calibration)

    def ask_or_plan(
        self, *, text: str | None, fields: dict[str, Any], timezone: str | None, now: datetime,
        channel: str | None = None, spend: SpendSnapshot | None = None,
        ledger: Callable[[str], Ledger] | None = None,
    ) -> PlanContext | NeedsInput:
        """``plan_input``, unless the reading or the decision leaves something only the person can settle: then
        the questions (``policy.questions``) and what was read. A field given answers its question."""
        zone = zone_or_raise(timezone)
        moment = local_moment(now, timezone=zone)
        reading = read_request(text, now=moment, tz=zone) if text else Reading(fields={})
        given = {k for k, v in fields.items() if v is not None}
        # What cannot be planned however a question is answered (no model size, an unknown team) is refused first.
        request = request_from(text=text, fields=fields, now=moment, timezone=zone, reading=reading,
                               default_team=(channel and self.policy.team_for_channel(channel)) or None)
        self.check_team(request.team)
        asked = unanswered(reading.questions, given)
        if asked:
            return NeedsInput(questions=asked, request=request)
        if ledger is not None:
            spend = spend if spend is not None else self.spend_for(request)
            spend = spend.model_copy(update={"ledger": ledger(self.policy.team_or_default(request.team)[0])})
        context = self.plan(request, now=moment, timezone=zone, spend=spend)
        after = ask_after_deciding(said=request, decision=context.decision, policy=self.policy, given=given)
        return NeedsInput(questions=after, request=request) if after else context

    def spend_for(self, request: TrainingRequest) -> SpendSnapshot:
        return self.spend.get_spend(team=self.policy.team_or_default(request.team)[0], policy=self.policy)

    def plan(
        self, request: TrainingRequest, *, now: datetime, timezone: str = "UTC", spend: SpendSnapshot | None = None,
        calibration: Calibration | None = None,
    ) -> PlanContext:
        """Decide on ``request`` with the team's current spend and learnt calibration (each read now unless given)."""
        spend = spend if spend is not None else self.spend_for(request)
        if calibration is None and self.calibration is not None:
            calibration = self.calibration()
        try:
            decision = decide(request, catalog=self.catalog, policy=self.policy, spend=spend, now=now,
                              calibration=calibration)
        except ValidationError as exc:
            raise RequestError(describe_validation(exc), code="invalid_request") from None
        return PlanContext(request=request, decision=decision, spend=spend, timezone=timezone,
                           calibration_factor=_factor(decision, calibration, self.catalog))


def _factor(decision: Decision, calibration: Calibration | None, catalog: Catalog) -> float | None:
    """The correction the chosen plan's hours carry (the one ``decide`` applied to its family)."""
    req = decision.request
    if calibration is None or req.task is None or req.params is None:
        return None
    spec = catalog.instances.get(decision.plan.instance_type)
    found = spec and calibration.correction(family=spec.family, task=req.task.value, params=req.params)
    return found.factor if found else None


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


def make_planner(settings: Settings, *, spend: SpendProvider,
                 calibration: Callable[[], Calibration] | None = None) -> Planner:
    """The planner the settings describe: the policy file, the catalog snapshot in force, ``spend`` and the learnt
    ``calibration`` of estimated hours."""
    return Planner(catalog=load_catalog(catalog_source(settings)), policy=load_policy(settings), spend=spend,
                   calibration=calibration)
