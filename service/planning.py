"""From a plan input to a ``Decision``: parse the text, lay the structured fields over it, resolve the team, read
spend and call the pure engine (``policy.tree.decide``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

import pydantic_core
from pydantic import ValidationError

from policy.capacity import CapacityView
from policy.catalog import Catalog, load_catalog
from policy.config import PolicyConfig, default_policy, load_policy_file
from policy.decision import Decision, plan_hash
from policy.defaults import format_count
from policy.errors import RequestError
from policy.intake import describe_validation, local_moment, request_from, zone_or_raise
from policy.jobspec import (
    BYTES_PER_TOKEN,
    JobDraft,
    JobFacts,
    draft_job,
    finish_job,
    image_region_warning,
    tokens_from_bytes,
    without_unusable_job,
)
from policy.parse import Reading, read_request
from policy.questions import NeedsInput, ask_after_deciding, unanswered
from policy.request import TrainingRequest
from policy.spend import Ledger, SpendSnapshot
from policy.tree import decide
from service.aws.clients import ClientFactory
from service.cache import Cache, MemoryCache
from service.capacity.view import CapacityProvider
from service.settings import Settings
from service.spend.providers import SpendProvider

if TYPE_CHECKING:  # the wire models are the API's; a preview in the terminal never builds them
    from contract.plans import PlanFields
    from policy.calibration import Calibration  # learnt by the service; a preview has none

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
    calibration_factor: float | None = None  # the learnt correction the plan's hours carry; None: none

    @cached_property
    def document(self) -> dict[str, Any]:
        """The decision's JSON document (``model_dump(mode="json")``), dumped once for its hash and its bytes."""
        return self.decision.model_dump(mode="json")

    @cached_property
    def _written(self) -> tuple[bytes, bool]:
        """``document`` as pydantic writes it with non-finite figures spelt out, and whether none were: then it is
        also the preview's bytes, and the hash may take the fast way (``canonical_bytes``)."""
        text = pydantic_core.to_json(self.document, inf_nan_mode="constants")
        return text, b"NaN" not in text and b"Infinity" not in text

    @cached_property
    def plan_hash(self) -> str:
        return plan_hash(self.document, finite=self._written[1])

    def decision_json(self) -> bytes:
        """The decision as ``model_dump_json`` writes it (an infinite or NaN figure as null, as a model does),
        serialised from ``document`` instead of from the model again: the dump is already made for the hash."""
        text, finite = self._written
        return text if finite else pydantic_core.to_json(self.document, inf_nan_mode="null")


class JobInputs(Protocol):
    """Where the facts about a job's inputs come from (AWS: ``service.aws.jobinputs``); ``blocks``: whether reading
    them may wait on the network."""

    @property
    def blocks(self) -> bool: ...

    def facts(self, *, draft: JobDraft, role_arn: str | None, region: str) -> JobFacts: ...


@dataclass(frozen=True)
class Planner:
    """The catalog, the policy and the spend source in force; ``inputs`` checks a recipe's image and data (None:
    a preview that reads nothing, and says so)."""

    catalog: Catalog
    policy: PolicyConfig
    spend: SpendProvider
    inputs: JobInputs | None = None
    # The learnt corrections of estimated hours in force (cached by whoever supplies them); None: none learnt.
    calibration: Callable[[], Calibration] | None = None

    def settled(self) -> Planner:
        """This planner with its calibration read now and held: for deciding while a write lock is held (SQLite
        serialises every transaction, so a read under the lock would wait for the lock itself)."""
        if self.calibration is None:
            return self
        held = self.calibration()
        return replace(self, calibration=lambda: held)
    capacity: CapacityProvider | None = None  # None: capacity is not looked at (plans carry no capacity figures)

    @property
    def blocks(self) -> bool:
        """Whether planning now may wait on the network or the database, so that an async caller plans in a worker
        thread instead of holding up every other request: spend or capacity read from AWS or Redis, a recipe's
        inputs checked in S3 and ECR (only a team with recipes has any), or learnt corrections due to be read again.
        """
        return (self.spend.blocks
                or (self.capacity is not None and self.capacity.blocks)
                or (self.inputs is not None and self.inputs.blocks
                    and any(team.recipes for team in self.policy.teams.values()))
                or bool(getattr(self.calibration, "due", False)))

    def check_team(self, named: str | None) -> None:
        """Refuse a team the policy does not know, naming the ones it does."""
        if named and named not in self.policy.teams:
            known = ", ".join(sorted(self.policy.teams))
            raise RequestError(f"unknown team {named!r}; known teams: {known}", code="unknown_team")

    def ask_or_plan(
        self, *, text: str | None, fields: dict[str, Any], timezone: str | None, now: datetime,
        channel: str | None = None, spend: SpendSnapshot | None = None,
        ledger: Callable[[str], Ledger] | None = None,
    ) -> PlanContext | NeedsInput:
        """The one pipeline from what a person gave to a decision — time zone, reading, request, spend, decision —
        unless the reading or the decision leaves something only the person can settle: then the questions
        (``policy.questions``) and what was read. A field given answers its question.

        ``ledger`` (filing only) reads the team's running and reserved exposure once spend is in hand, so that a
        caller can take its write lock after any slow spend lookup and hold it only while deciding.
        """
        zone = zone_or_raise(timezone)
        moment = local_moment(now, timezone=zone)
        reading = read_request(text, now=moment, tz=zone) if text else Reading(fields={})
        given = {k for k, v in fields.items() if v is not None}
        # What cannot be planned however a question is answered (no model size, an unknown team) is refused first.
        request = request_from(text=text, fields=fields, now=moment, timezone=zone, reading=reading, asking=True,
                               default_team=(channel and self.policy.team_for_channel(channel)) or None)
        self.check_team(request.team)
        asked = unanswered(reading.questions, given)
        if asked:
            return NeedsInput(questions=asked, request=request)
        context = self._decide_read(request, now=moment, timezone=zone, spend=spend, ledger=ledger)
        after = ask_after_deciding(said=request, decision=context.decision, policy=self.policy, given=given)
        return NeedsInput(questions=after, request=request) if after else context

    def _decide_read(
        self, request: TrainingRequest, *, now: datetime, timezone: str, spend: SpendSnapshot | None,
        ledger: Callable[[str], Ledger] | None,
    ) -> PlanContext:
        """Read what the decision needs from outside — the job's inputs in AWS, the learnt calibration, spend — and
        only then the team's ledger, so a caller's write lock is held only while deciding."""
        checked = self.job_inputs(request)
        calibration = self.calibration() if self.calibration is not None else None
        view = None
        if ledger is not None:
            spend = spend if spend is not None else self.spend_for(request)
            if self.capacity is not None and self.capacity.upfront() is None:  # AWS reads, not under the lock
                view = self._with_capacity(checked[2], spend=spend, now=now, calibration=calibration)[1]
            team = self.policy.team_or_default(request.team)[0]
            spend = spend.model_copy(update={"ledger": ledger(team)})
        return self.plan(request, now=now, timezone=timezone, spend=spend, calibration=calibration, checked=checked,
                         capacity=view)

    def spend_for(self, request: TrainingRequest) -> SpendSnapshot:
        return self.spend.get_spend(team=self.policy.team_or_default(request.team)[0], policy=self.policy)

    def plan(
        self, request: TrainingRequest, *, now: datetime, timezone: str = "UTC", spend: SpendSnapshot | None = None,
        calibration: Calibration | None = None,
        checked: tuple[JobDraft | None, JobFacts, TrainingRequest] | None = None,
        capacity: CapacityView | None = None,
    ) -> PlanContext:
        """Decide on ``request`` with the team's current spend, learnt calibration, its job's inputs and what the
        account can start (each read now unless given)."""
        spend = spend if spend is not None else self.spend_for(request)
        if calibration is None and self.calibration is not None:
            calibration = self.calibration()
        draft, facts, sized = checked if checked is not None else self.job_inputs(request)
        try:
            if capacity is not None:
                decision = decide(sized, catalog=self.catalog, policy=self.policy, spend=spend, now=now,
                                  calibration=calibration, capacity=capacity)
            else:
                decision = self._with_capacity(sized, spend=spend, now=now, calibration=calibration)[0]
        except ValidationError as exc:
            raise RequestError(describe_validation(exc), code="invalid_request") from None
        if draft is not None:
            job = finish_job(draft=draft, facts=facts, request=decision.request)
            unread = [] if facts.image_digest is not None else [
                "the image digest and the dataset's size are read from AWS when the request is filed"]
            elsewhere = image_region_warning(job, region=decision.plan.region)
            warnings = [*decision.warnings, *unread, *([elsewhere] if elsewhere else [])]
            decision = decision.model_copy(update={"job": job, "warnings": warnings})
        return PlanContext(request=request, decision=decision, spend=spend, timezone=timezone,
                           calibration_factor=_factor(decision, calibration, self.catalog))

    def job_inputs(self, request: TrainingRequest) -> tuple[JobDraft | None, JobFacts, TrainingRequest]:
        """The team's recipe for ``request``, what AWS says about its inputs, and the request with its tokens
        taken from the dataset's size when nothing said them (an assumption, stated); job details a team without
        recipes cannot pass on are listed as not read instead (``without_unusable_job``)."""
        team_name, team = self.policy.team_or_default(request.team)
        request = without_unusable_job(request, team_name=team_name, team=team)
        region = request.region or (team.launch.regions[0] if team.launch.regions else self.policy.default_region)
        draft = draft_job(request=request, team_name=team_name, team=team, region=region)
        if draft is None or self.inputs is None:
            return draft, JobFacts(), request
        facts = self.inputs.facts(draft=draft, role_arn=team.launch.role_arn, region=region)
        if request.tokens is not None or facts.dataset_bytes is None:
            return draft, facts, request
        epochs = request.epochs if request.epochs is not None else _epochs(draft)  # said, else the recipe's
        tokens = int(tokens_from_bytes(facts.dataset_bytes) * epochs)
        note = (f"tokens: {format_count(tokens)} from the dataset's {facts.dataset_bytes:,} bytes at ~"
                f"{BYTES_PER_TOKEN} bytes per token of text" + (f", × {epochs:g} epochs" if epochs != 1 else ""))
        return draft, facts, request.model_copy(update={"tokens": tokens, "notes": [*request.notes, note]})

    def _with_capacity(self, request: TrainingRequest, *, spend: SpendSnapshot, now: datetime,
                       calibration: Calibration | None) -> tuple[Decision, CapacityView | None]:
        """The decision with what the account can start, and the view it was made with: decided once when capacity
        is not looked at or cannot be read; else decided again with what the choice needs read, and once more when
        the choice moved to figures not yet read (at most ``CAPACITY_ROUNDS`` reads in all)."""
        upfront = self.capacity.upfront() if self.capacity is not None else None
        decision = decide(request, catalog=self.catalog, policy=self.policy, spend=spend, now=now,
                          calibration=calibration, capacity=upfront)
        if self.capacity is None or upfront is not None:
            return decision, upfront
        view = None
        for _ in range(CAPACITY_ROUNDS):
            view = self.capacity.view_for(decision, now=now, known=view)
            decision = decide(request, catalog=self.catalog, policy=self.policy, spend=spend, now=now, capacity=view,
                              calibration=calibration)
            check = decision.plan.capacity
            if not view.known or check is None or not any("not read" in r for r in check.reasons):
                break
        return decision, view


def _factor(decision: Decision, calibration: Calibration | None, catalog: Catalog) -> float | None:
    """The correction the chosen plan's hours carry (the one ``decide`` applied to its family)."""
    req = decision.request
    if calibration is None or req.task is None or req.params is None:
        return None
    spec = catalog.instances.get(decision.plan.instance_type)
    found = spec and calibration.correction(family=spec.family, task=req.task.value, params=req.params)
    return found.factor if found else None


def _epochs(draft: JobDraft) -> int:
    """The recipe's ``epochs`` (the request's override, else its default) when it has an int one; else 1."""
    spec = draft.recipe.hyperparameters.get("epochs")
    value = draft.overrides.get("epochs", spec.default if spec is not None else None)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1

def plan_fields(model: PlanFields) -> dict[str, Any]:
    """The structured fields a person actually gave."""
    from contract.plans import PlanFields

    return model.model_dump(include=set(PlanFields.model_fields), exclude_none=True)


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


def make_planner(settings: Settings, *, spend: SpendProvider, cache: Cache | None = None,
                 calibration: Callable[[], Calibration] | None = None) -> Planner:
    """The planner the settings describe: the policy file, the catalog snapshot in force, ``spend``, capacity, the
    AWS reads of a recipe's inputs and the learnt ``calibration`` of estimated hours."""
    from service.aws.jobinputs import AwsJobInputs

    catalog, policy = load_catalog(catalog_source(settings)), load_policy(settings)
    return Planner(catalog=catalog, policy=policy, spend=spend,
                   capacity=make_capacity_provider(settings, catalog=catalog, policy=policy, cache=cache),
                   inputs=AwsJobInputs(factory=ClientFactory.from_settings(settings)), calibration=calibration)


def make_capacity_provider(settings: Settings, *, catalog: Catalog, policy: PolicyConfig,
                           cache: Cache | None = None) -> CapacityProvider:
    """AWS when credentials are configured (or ``GPUOPS_CAPACITY=aws``), else unknown capacity: never assumed fine."""
    from service.aws.clients import credentials_configured
    from service.capacity.view import AwsCapacity, UnknownCapacity

    factory = ClientFactory.from_settings(settings)
    mode = settings.capacity
    if mode == "auto":
        mode = "aws" if credentials_configured(factory=factory) else "unknown"
    if mode == "unknown":
        return UnknownCapacity()
    return AwsCapacity(factory=factory, cache=cache if cache is not None else MemoryCache(), catalog=catalog,
                       policy=policy, ttl_seconds=settings.capacity_ttl_seconds)
