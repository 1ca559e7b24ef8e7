"""The policy file: teams, budgets, approver groups, families per size class and thresholds.

Loaded in stages, like Cloud Custodian: YAML structure, then the pydantic schema, then cross-field rules. Every
error names the file, the key path and what was expected. The embedded default lives in
``policy/data/default-policy.yaml``, and is read from its data as JSON, ``default-policy.json`` beside it.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache, cached_property
from importlib import resources
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from policy.errors import PolicyFileError, RequestError
from policy.recipes import Recipe, check_recipes
from policy.request import Stage

__all__ = [
    "ApprovalReminders",
    "ApprovalTier",
    "CostAllocationTag",
    "default_policy",
    "DEFAULT_POLICY_NAME",
    "DigestSubscription",
    "EstimateSettings",
    "LaunchProfile",
    "load_policy_file",
    "MEMBER_KINDS",
    "parse_policy",
    "Platforms",
    "policy_warnings",
    "PolicyConfig",
    "RequestDefaults",
    "SizeClass",
    "SlackAccess",
    "TeamPolicy",
    "VpcConfig",
]

DEFAULT_POLICY_NAME = "default-policy.yaml"
# The same policy as JSON (scripts/gen_default_policy.py writes it from the YAML; a test keeps them equal): read with
# the standard library, so loading the default never imports PyYAML, which costs more than the rest of the load.
DEFAULT_POLICY_DATA = "default-policy.json"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ApprovalTier(_Strict):
    """Estimates at or above ``min_usd`` need ``approvals`` approvals (the highest matching tier wins)."""

    min_usd: float = Field(ge=0)
    approvals: int = Field(ge=1, le=10)


class ApprovalReminders(_Strict):
    """Nudging approvers of a request that waits: reminders at growing intervals, then a wider group before expiry."""

    # Hours after a request starts waiting for approval at which its approvers are reminded, increasing (back-off).
    after_hours: list[float] = Field(default_factory=lambda: [2.0, 6.0, 12.0], max_length=10)
    # A group under ``groups`` told this many hours before the approval window closes, while approvals are missing.
    escalation_group: str | None = None
    escalate_before_expiry_hours: float = Field(default=4.0, gt=0)


class SizeClass(_Strict):
    name: str
    max_params: int | None = Field(default=None, gt=0)  # None: no upper bound (the last class)
    families: list[str] = Field(min_length=1)


class Platforms(_Strict):
    eks: bool = False
    hyperpod: bool = False
    ec2: bool = False  # DIY on plain EC2 allowed


class CostAllocationTag(_Strict):
    key: str = "team"
    value: str | None = None  # defaults to the team name


class VpcConfig(_Strict):
    subnets: list[str] = Field(min_length=1)
    security_group_ids: list[str] = Field(min_length=1)


class LaunchProfile(_Strict):
    """What a SageMaker launch needs for this team. Missing fields mean launch is not configured."""

    role_arn: str | None = None
    image: str | None = None
    s3_input: str | None = None
    s3_output: str | None = None
    s3_checkpoints: str | None = None
    vpc: VpcConfig | None = None
    tags: dict[str, str] = Field(default_factory=dict)
    eks_namespace: str = "training"
    # Regions this profile can launch in (its buckets, image and subnets live there). A configured profile without
    # them is planned in the policy's default region only; a team without a profile is planned across all regions.
    regions: list[str] = Field(default_factory=list[str])
    hyperpod_cluster: str | None = None

    def missing(self) -> list[str]:
        """The required fields that are not set, in a stable order."""
        required = ("role_arn", "image", "s3_input", "s3_output", "s3_checkpoints")
        return [name for name in required if not getattr(self, name)]


class RequestDefaults(_Strict):
    """What a request that leaves a field unsaid means; each use is an assumption (docs/design.md §The request)."""

    fine_tune_tokens: int = Field(default=1_000_000_000, gt=0)  # fine-tune, LoRA, QLoRA
    sweep_tokens_per_trial: int = Field(default=1_000_000_000, gt=0)
    sweep_trials: int = Field(default=10, ge=1)
    # Compute-optimal pretraining: ~20 tokens per parameter (Hoffmann et al. 2022, "Chinchilla").
    pretrain_tokens_per_param: float = Field(default=20, gt=0)
    continued_pretrain_tokens: int = Field(default=10_000_000_000, gt=0)
    seq_len: int = Field(default=4096, ge=128)


class EstimateSettings(_Strict):
    """Operational figures of the time and cost model that depend on how a team runs its jobs."""

    # Sustained checkpoint write rate of one instance (local NVMe, synced to S3 by SageMaker), GB/s.
    checkpoint_write_gbps_per_instance: float = Field(default=0.5, gt=0)
    # From an interruption to training again: new capacity, image pull, checkpoint load.
    spot_restart_minutes: float = Field(default=15, ge=0)
    # Throughput uncertainty either side of the estimate (MFU varies with model, data pipeline and network).
    hours_uncertainty: float = Field(default=0.3, ge=0, lt=1)
    # Share of accelerator memory left for the CUDA context, NCCL buffers and allocator fragmentation.
    memory_headroom: float = Field(default=0.1, ge=0, lt=1)
    # Multi-node jobs only on sizes with at least this many accelerators: single-accelerator sizes have at most
    # 25 Gbps and no EFA (AWS Batch GPU jobs documentation, docs/sources.md), so sharding across them is
    # network-bound.
    multi_node_min_accelerators: int = Field(default=4, ge=1)
    # MaxRuntime for the launch: the estimate times this, capped by max_runtime_hours (a job of a stated length stops
    # when it is up).
    max_runtime_factor: float = Field(default=1.5, ge=1)
    # Capacity-block and training-plan offerings are looked up for multi-node jobs of these families running at least
    # this long; an alternative exists only where AWS answered with an offering (priced at its upfront fee).
    capacity_block_min_hours: float = Field(default=24, gt=0)
    capacity_block_families: list[str] = Field(default_factory=lambda: ["p4d", "p4de", "p5", "p5e", "p5en", "p6-b200"])
    # Spot placement score (EC2 GetSpotPlacementScores, 1-10) below which spot in that region is ruled out.
    min_spot_placement_score: int = Field(default=5, ge=1, le=10)
    # Every job spends this long before it trains: capacity, image pull, model and data load (SageMaker reports it as
    # "Starting" and "Downloading"; minutes on a warm account, more for a multi-node job). Billed, so in every plan.
    startup_minutes: float = Field(default=15, ge=0)
    # Checkpoints at least this often, whatever Young/Daly gives (practitioners checkpoint every 15-30 min).
    checkpoint_max_interval_minutes: float = Field(default=30, gt=0)
    # Size classes are a preference, not a filter: a type outside the model's class is compared at its expected cost
    # times (1 + this), so it wins only when it is clearly cheaper or the only one to meet the deadline.
    size_class_penalty: float = Field(default=0.10, ge=0)
    # Data moved between regions, USD per GB (EC2 data transfer between US regions), and bytes per training token of
    # a tokenised dataset (uint32 token ids): a plan outside the team's data region pays this for the dataset.
    transfer_usd_per_gb: float = Field(default=0.02, ge=0)
    dataset_bytes_per_token: float = Field(default=4.0, gt=0)
    # The naive choice savings are measured against (docs/design.md §The decision): this type, on-demand, on SageMaker.
    naive_instance_type: str = "p5.48xlarge"


class DigestSubscription(_Strict):
    channel: str
    time: str = Field(default="09:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    timezone: str = "UTC"


class TeamPolicy(_Strict):
    monthly_budget_usd: float | None = Field(default=None, gt=0)
    approvers: dict[Stage, list[str]] = Field(default_factory=dict)  # stage -> group names
    neuron_ready: bool = False
    platforms: Platforms = Field(default_factory=Platforms)
    cost_allocation_tag: CostAllocationTag = Field(default_factory=CostAllocationTag)
    launch: LaunchProfile = Field(default_factory=LaunchProfile)
    digest: DigestSubscription | None = None
    slack_channels: list[str] = Field(default_factory=list[str])  # channels whose requests default to this team
    # Multi-node synchronous jobs run on spot only when the team opts in (or the request says spot is fine): one
    # interruption stops every node.
    multi_node_spot: bool = False
    # Where the team's training data lives: plans in another region add a transfer line and a caveat. None: not said.
    data_region: str | None = None
    # Who may file requests for this team besides its approvers and people in its slack_channels: Slack actor ids
    # (slack:T…:U…), Slack user groups (usergroup:S…), e-mails (email:…) and names of groups under ``groups``.
    # None: anyone may (policy check warns).
    members: list[str] | None = None
    # What approved jobs run (policy.recipes, docs/training-contract.md): named recipes, and the one a request that
    # names none gets. No recipes: the launch profile's image and input prefix, as before.
    recipes: dict[str, Recipe] = Field(default_factory=dict)
    default_recipe: str | None = None

    def launch_missing(self) -> list[str]:
        """The launch profile fields still needed; with recipes, the image and input come from the recipe."""
        missing = self.launch.missing()
        return [m for m in missing if m not in ("image", "s3_input")] if self.recipes else missing


# Slack ids as Slack writes them: workspaces T… (E… for an Enterprise Grid organisation), conversations C…
# (public), G… (older private channels) and D… (a direct message with the app).
WorkspaceId = Annotated[str, StringConstraints(pattern=r"^[TE][A-Z0-9]+$")]
ChannelId = Annotated[str, StringConstraints(pattern=r"^[CGD][A-Z0-9]+$")]
ActorId = Annotated[str, StringConstraints(pattern=r"^slack:[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_.-]{1,64}$")]


# Entries of a team's ``members``: a prefixed id, else the name of a group under ``groups``.
MEMBER_KINDS: dict[str, re.Pattern[str]] = {
    "slack": re.compile(r"^slack:[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_.-]{1,64}$"),
    "usergroup": re.compile(r"^usergroup:S[A-Z0-9]+$"),
    "email": re.compile(r"^email:[^@\s:]+@[^@\s]+\.[^@\s.]+$"),
}
_MEMBER_SHAPES = "slack:<workspace>:<user>, usergroup:S…, email:name@domain"
# Entries only the bot can resolve to people (Slack user groups, e-mails); the rest are actor ids.
_RESOLVED_KINDS = ("usergroup:", "email:")


class SlackAccess(_Strict):
    """Where gpuops answers. A list left out allows everything, as before there were lists."""

    # Workspace (team) ids whose people may use gpuops.
    workspaces: list[WorkspaceId] | None = Field(default=None, min_length=1)
    # Channel ids gpuops answers in; App Home is not a channel and stays open to the allowed workspaces.
    channels: list[ChannelId] | None = Field(default=None, min_length=1)
    # Whom a refused person is told to ask (actor ids); left empty, every approver named under teams.
    contacts: list[ActorId] = Field(default_factory=list[ActorId])


class PolicyConfig(_Strict):
    version: int = 1
    default_team: str
    default_region: str = "us-east-1"
    regions: list[str] = Field(min_length=1)
    max_instances: int = Field(default=16, ge=1, le=1024)
    max_runtime_hours: float = Field(default=336, gt=0)
    approval_window_hours: float = Field(default=24, gt=0)
    # An eligible approver's reject after the plan is approved (before it launches) blocks the launch. False: the
    # reject is recorded and audited but the approvals stand.
    approval_veto: bool = True
    # Approving a plan judged at or above this many dollars asks the approver to confirm the amount first (a
    # confirmation dialog on Approve). None: no confirmation.
    confirm_approval_above_usd: float | None = Field(default=None, gt=0)
    # Reminders to approvers while a request waits, and the escalation before it expires. None: no reminders.
    approval_reminders: ApprovalReminders | None = None
    rate_limit_per_minute: int = Field(default=30, ge=1)
    spend_stale_after_hours: float = Field(default=24, gt=0)
    # Prices older than these many days are stale: the plan says so and is never approved automatically (`gpuops
    # catalog refresh` reads current ones). Spot prices drift week to week, list prices change a few times a year.
    prices_stale_after_days: float = Field(default=90, gt=0)
    spot_prices_stale_after_days: float = Field(default=30, gt=0)
    reapproval_tolerance: float = Field(default=0.10, ge=0)
    deadline_safety_margin: dict[Stage, float] = Field(
        default_factory=lambda: {Stage.EXPERIMENTAL: 0.10, Stage.PRODUCTION: 0.25}
    )
    auto_approve_below_usd: float = Field(default=0, ge=0)
    # Caps on what is approved automatically per UTC day (judged on exposure): beyond them a person approves.
    auto_approve_daily_per_requester_usd: float | None = Field(default=None, gt=0)
    auto_approve_daily_per_team_usd: float | None = Field(default=None, gt=0)
    approval_tiers: list[ApprovalTier] = Field(min_length=1)
    deny_above_usd: float | None = Field(default=None, gt=0)
    eks_monthly_spend_threshold_usd: float = Field(default=100_000, ge=0)
    # Groups whose members approve buying reserved capacity (capacity blocks, SageMaker training plans); a quota
    # increase is approved by the team's approvers for the request's stage.
    capacity_purchase_approvers: list[str] = Field(default_factory=lambda: ["finance"], min_length=1)
    neuron_families: list[str] = Field(default_factory=lambda: ["trn1", "trn1n", "trn2"])
    size_classes: list[SizeClass] = Field(min_length=1)
    defaults: RequestDefaults = Field(default_factory=RequestDefaults)
    estimate: EstimateSettings = Field(default_factory=EstimateSettings)
    # group -> its people: actor ids ("slack:T123:U456"), Slack user groups ("usergroup:S123") and e-mails
    # ("email:lead@example.com"); the bot resolves the last two (users.lookupByEmail, usergroups.users.list).
    groups: dict[str, list[str]] = Field(default_factory=dict)
    teams: dict[str, TeamPolicy] = Field(min_length=1)
    slack: SlackAccess = Field(default_factory=SlackAccess)

    # --- Asking before planning, and routing money to finance (docs/design.md §Questions, §Guardrails) ---
    # A plan this large whose request did not say experimental or production asks which it is.
    ask_stage_above_usd: float = Field(default=10_000, ge=0)
    ask_stage_above_instances: int = Field(default=8, ge=1)
    # The group that must approve a plan over the team's remaining budget or above finance_above_usd, whatever
    # its stage.
    finance_group: str = "finance"
    finance_above_usd: float | None = Field(default=25_000, gt=0)
    # The tag a launched job's cost center is written under ("cost center ML-4411" on a request): activated as a
    # cost-allocation tag, it lets Cost Explorer and the bill group spend by it. An AWS tag key, not 'aws:' or
    # 'gpuops:' and no team's cost_allocation_tag key (checked when the policy loads).
    cost_center_tag: str = Field(default="CostCenter", min_length=1, max_length=128)

    def team(self, name: str) -> TeamPolicy:
        """The named team's policy; RequestError(code="unknown_team") naming the known teams.

        Never falls back to the default team: its budget, approvers, launch profile and cost tag are not another
        team's.
        """
        found = self.teams.get(name)
        if found is None:
            known = ", ".join(sorted(self.teams))
            raise RequestError(f"Team {name!r} is not in the policy; use one of: {known}.", code="unknown_team")
        return found

    def team_or_default(self, name: str | None) -> tuple[str, TeamPolicy]:
        """(name, policy) of the named team, or of the default team when no name is given (unknown names raise)."""
        chosen = name or self.default_team
        return chosen, self.team(chosen)

    def approver_groups(self, team: str, stage: Stage) -> list[str]:
        return list(self.team(team).approvers.get(stage, []))

    def approvers_for(self, team: str, stage: Stage) -> set[str]:
        """Every actor id named as an approver of this team and stage (not the Slack user groups and e-mails,
        which only the bot can resolve: see ``approver_entries``)."""
        return {e for e in self.approver_entries(team, stage) if not e.startswith(_RESOLVED_KINDS)}

    def approver_entries(self, team: str, stage: Stage) -> set[str]:
        """Every entry of the approver groups of this team and stage: actor ids, ``usergroup:S…`` and ``email:…``."""
        members: set[str] = set()
        for group in self.approver_groups(team, stage):
            members.update(self.groups.get(group, []))
        return members

    def team_for_channel(self, channel: str) -> str | None:
        for name, team in self.teams.items():
            if channel in team.slack_channels:
                return name
        return None

    @cached_property
    def version_hash(self) -> str:
        canonical = json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _check_rules(config: PolicyConfig) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    if config.default_team not in config.teams:
        errors.append(("default_team", f"names team {config.default_team!r}, which is not under teams"))
    if config.default_region not in config.regions:
        errors.append(("default_region", f"{config.default_region!r} is not in regions"))
    for team_name, team in config.teams.items():
        if team.data_region is not None and team.data_region not in config.regions:
            errors.append((f"teams.{team_name}.data_region", f"{team.data_region!r} is not in regions"))
        for stage, groups in team.approvers.items():
            for i, group in enumerate(groups):
                if group not in config.groups:
                    errors.append((f"teams.{team_name}.approvers.{stage.value}[{i}]", f"unknown group {group!r}"))
    if "capacity_purchase_approvers" in config.model_fields_set:  # the default names a group a policy may not have
        for i, group in enumerate(config.capacity_purchase_approvers):
            if group not in config.groups:
                errors.append((f"capacity_purchase_approvers[{i}]", f"unknown group {group!r}"))
    bounds = [c.max_params for c in config.size_classes]
    if bounds[-1] is not None:
        errors.append((f"size_classes[{len(bounds) - 1}].max_params", "the last size class must have no max_params"))
    finite = [b for b in bounds[:-1] if b is not None]
    if len(finite) != len(bounds) - 1 or finite != sorted(finite):
        errors.append(("size_classes", "max_params must be set and increasing on every class but the last"))
    for team_name, team in config.teams.items():
        errors.extend(check_recipes(f"teams.{team_name}", team.recipes, team.default_recipe))
    errors.extend(_check_channels(config))
    errors.extend(_check_members(config))
    errors.extend(_check_group_entries(config))
    errors.extend(_check_reminders(config))
    tiers = [t.min_usd for t in config.approval_tiers]
    if tiers != sorted(tiers):
        errors.append(("approval_tiers", "tiers must be in increasing min_usd order"))
    errors.extend(_check_cost_center_tag(config))
    return errors


# What AWS allows in a tag key: letters, digits, spaces and _ . : / = + - @
_TAG_KEY_RE = re.compile(r"[\w .:/=+\-@]{1,128}")


def _check_cost_center_tag(config: PolicyConfig) -> list[tuple[str, str]]:
    """The cost center's tag must reach the bill: a key AWS accepts, that is no one else's, and that no team's own
    cost-allocation tag writes over on the same job (the launch would fail after approval, or bill the cost center
    to nobody)."""
    key = config.cost_center_tag
    if not _TAG_KEY_RE.fullmatch(key):
        return [("cost_center_tag", f"{key!r} is not an AWS tag key: use letters, digits, spaces and _ . : / = + - @")]
    if key.lower().startswith(("aws:", "gpuops:")):
        return [("cost_center_tag", f"{key!r} starts with a reserved prefix ('aws:' is AWS's own, 'gpuops:' gpuops'); "
                                    "use a key of your own, e.g. CostCenter")]
    return [(f"teams.{name}.cost_allocation_tag.key",
             f"{key!r} is also cost_center_tag: the team's tag would write over a request's cost center on every job; "
             "give them different keys")
            for name, team in config.teams.items() if team.cost_allocation_tag.key == key]


def _check_channels(config: PolicyConfig) -> list[tuple[str, str]]:
    """A team's channel left off ``slack.channels`` could never file a request for it: almost surely a slip."""
    allowed = config.slack.channels
    if allowed is None:
        return []
    errors: list[tuple[str, str]] = []
    for team_name, team in config.teams.items():
        for i, channel in enumerate(team.slack_channels):
            if channel not in allowed:
                errors.append((f"teams.{team_name}.slack_channels[{i}]",
                               f"channel {channel!r} is not in slack.channels, so gpuops refuses requests from it"))
    return errors


def _check_members(config: PolicyConfig) -> list[tuple[str, str]]:
    errors: list[tuple[str, str]] = []
    for team_name, team in config.teams.items():
        for i, entry in enumerate(team.members or []):
            kind, colon, _ = entry.partition(":")
            where = f"teams.{team_name}.members[{i}]"
            if colon and kind in MEMBER_KINDS:
                if not MEMBER_KINDS[kind].match(entry):
                    errors.append((where, f"{entry!r} is not a well-formed {kind} member; expected {_MEMBER_SHAPES}"))
            elif entry not in config.groups:
                errors.append((where, f"unknown group {entry!r}: name a group under groups, or give an id "
                                      f"({_MEMBER_SHAPES})"))
    return errors


def _check_reminders(config: PolicyConfig) -> list[tuple[str, str]]:
    reminders = config.approval_reminders
    if reminders is None:
        return []
    errors: list[tuple[str, str]] = []
    hours = reminders.after_hours
    if any(h <= 0 for h in hours) or hours != sorted(set(hours)):
        errors.append(("approval_reminders.after_hours", "hours must be positive and increasing, e.g. [2, 6, 12]"))
    if reminders.escalation_group is not None and reminders.escalation_group not in config.groups:
        errors.append(("approval_reminders.escalation_group",
                       f"unknown group {reminders.escalation_group!r}: name a group under groups"))
    return errors


def _check_group_entries(config: PolicyConfig) -> list[tuple[str, str]]:
    """A group's user group or e-mail entry must be well formed: a typo would silently leave someone out."""
    errors: list[tuple[str, str]] = []
    for name, entries in config.groups.items():
        for i, entry in enumerate(entries):
            kind = entry.partition(":")[0]
            if entry.startswith(_RESOLVED_KINDS) and not MEMBER_KINDS[kind].match(entry):
                errors.append((f"groups.{name}[{i}]", f"{entry!r} is not a well-formed {kind} entry; expected "
                                                       f"{_MEMBER_SHAPES}"))
    return errors


def policy_warnings(config: PolicyConfig) -> list[tuple[str, str]]:
    """What is valid but probably not meant: (key path, why), for ``gpuops policy check`` to print."""
    warnings = [(f"teams.{name}.members", "not set, so anyone may file requests for this team and spend its "
                 "budget; list who may (actor ids, usergroup:S…, email:…, group names)")
                for name, team in config.teams.items() if team.members is None]
    warnings += [(f"teams.{name}.default_recipe", "not set, so every request for this team must name one of its "
                  f"recipes ({', '.join(sorted(team.recipes))})")
                 for name, team in config.teams.items() if team.recipes and team.default_recipe is None]
    if not config.groups.get(config.finance_group):
        warnings.append(("finance_group", f"names {config.finance_group!r}, which has no members under groups: a "
                         "plan over budget or above finance_above_usd can never be approved"))
    return warnings


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def parse_policy(text: str, *, source: str) -> PolicyConfig:
    """Validate policy YAML text; raise ``PolicyFileError`` listing every problem with its key path."""
    import yaml  # here, not at import: only loading a policy file needs it

    try:
        raw: Any = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else "(yaml)"
        raise PolicyFileError(source, [(where, f"not valid YAML: {getattr(exc, 'problem', exc)}")]) from None
    return _validated(raw, source=source)


def _validated(raw: Any, *, source: str) -> PolicyConfig:
    if not isinstance(raw, dict):
        raise PolicyFileError(source, [("(top level)", "expected a mapping of policy keys")])
    try:
        config = PolicyConfig.model_validate(raw)
    except ValidationError as exc:
        errors = [(_loc(tuple(e["loc"])), e["msg"]) for e in exc.errors()]
        raise PolicyFileError(source, errors) from None
    rule_errors = _check_rules(config)
    if rule_errors:
        raise PolicyFileError(source, rule_errors)
    return config


def load_policy_file(path: str) -> PolicyConfig:
    try:
        with open(path, encoding="utf-8") as handle:  # io-ok: the file the caller named, read once at start-up
            text = handle.read()
    except OSError as exc:
        raise PolicyFileError(path, [("(file)", f"cannot read: {exc.strerror}")]) from None
    return parse_policy(text, source=path)


@cache
def default_policy() -> PolicyConfig:
    """The embedded default policy."""
    text = resources.files("policy.data").joinpath(DEFAULT_POLICY_DATA).read_text(encoding="utf-8")
    return _validated(json.loads(text), source=f"(embedded) {DEFAULT_POLICY_NAME}")
