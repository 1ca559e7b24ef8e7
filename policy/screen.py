"""Which instance types a request may use: region, size class, Neuron readiness, hints, memory.

See docs/design.md §Memory and §Candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from policy.candidates import Profile, fits, profile_of
from policy.catalog import Catalog, RegionPrice
from policy.config import PolicyConfig, SizeClass, TeamPolicy
from policy.errors import RequestError
from policy.estimate import Workload
from policy.memo import remembered
from policy.patterns import compiled_on_use
from policy.regions import place_of
from policy.request import TrainingRequest

__all__ = ["by_reason", "check_region", "NOT_ASKED", "Screen", "screen", "size_class", "types_named"]

# Why a type is ruled out when the request named other hardware: never a reason the named hardware cannot run
NOT_ASKED = "not what the request asked for"


@dataclass(slots=True)
class Screen:
    """Types that may run the job, those allowed only as a fall-back, and why the others were ruled out."""

    inside: list[Profile] = field(default_factory=list)
    outside: list[Profile] = field(default_factory=list)
    ruled_out: dict[str, str] = field(default_factory=dict)
    size_class: SizeClass | None = None
    size_class_index: int = 0
    hinted: bool = False


def check_region(region: str, *, catalog: Catalog, policy: PolicyConfig) -> None:
    """Raise unless the region is priced in the catalog and allowed by the policy."""
    if region not in catalog.regions():
        raise RequestError(f"Unknown region {region!r}; the catalog prices: {', '.join(catalog.regions())}.",
                           code="unknown_region")
    if region not in policy.regions:
        allowed = ", ".join(_named(r) for r in policy.regions)
        raise RequestError(f"Region {_named(region)} is not allowed by the policy; use one of: {allowed}.",
                           code="region_not_allowed")


def _named(region: str) -> str:
    """A region with AWS's name of its place, "eu-central-1 (Europe (Frankfurt))", so a region asked for by its
    city is recognised in a refusal."""
    place = place_of(region)
    return f"{region} ({place})" if place else region


def size_class(params: int, policy: PolicyConfig) -> tuple[int, SizeClass]:
    """The first size class whose bound holds the model."""
    for index, cls in enumerate(policy.size_classes):
        if cls.max_params is None or params <= cls.max_params:
            return index, cls
    return len(policy.size_classes) - 1, policy.size_classes[-1]


def screen(
    request: TrainingRequest, *, work: Workload, catalog: Catalog, policy: PolicyConfig, team: TeamPolicy,
    region: str | None = None,
) -> Screen:
    """Sort every type priced in ``region`` (default: the request's) into inside / fall-back / ruled out."""
    region = region or request.region
    assert request.params is not None and region is not None  # complete() filled both
    index, cls = size_class(request.params, policy)
    wanted = _hint_filter(request, catalog)
    excluded = _excluded(request, catalog)
    if wanted is not None and excluded and wanted <= set(excluded):
        raise RequestError(_contradiction(request), code="contradiction")
    # Everything the sorting reads, by value: the service decides the same few kinds of work in the same regions.
    key = ("screen", region, work.sizing, index, tuple(cls.families), None if wanted is None else frozenset(wanted),
           tuple(sorted(excluded.items())), team.neuron_ready, tuple(policy.neuron_families), policy.max_instances,
           bool(request.fp8))
    inside, outside, ruled_out = remembered(catalog, policy.estimate, key, lambda: _sorted_types(
        region, work=work, catalog=catalog, policy=policy, team=team, families=cls.families, wanted=wanted,
        excluded=excluded, fp8=bool(request.fp8)))
    # Fresh lists: a decision merges the screens of its regions into the first.
    result = Screen(list(inside), list(outside), dict(ruled_out), cls, index, wanted is not None)
    if wanted is not None and not result.inside:
        unsold_here = not any(r != NOT_ASKED for r in result.ruled_out.values())  # nothing of it to rule out
        elsewhere = [r for r in policy.regions if r != region and any(catalog.price(t, r) is not None
                                                                      for t in wanted)] if unsold_here else []
        unpriced = unsold_here and not any(p.instance_type in wanted for p in catalog.prices)
        raise RequestError(_nothing_matches(request, region, result, elsewhere, unpriced=unpriced),
                           code="no_matching_instance")
    return result


def _sorted_types(region: str, *, work: Workload, catalog: Catalog, policy: PolicyConfig, team: TeamPolicy,
                  families: list[str], wanted: set[str] | None, excluded: Mapping[str, str], fp8: bool) -> tuple[
        tuple[Profile, ...], tuple[Profile, ...], dict[str, str]]:
    """(inside, outside, ruled out) of the types priced in ``region``."""
    inside: list[Profile] = []
    outside: list[Profile] = []
    ruled_out: dict[str, str] = {}
    table = fits(catalog=catalog, work=work, settings=policy.estimate)
    for price, reason, fallback in _allowed_types(region, catalog=catalog, policy=policy, team=team,
                                                  families=families, wanted=wanted, excluded=excluded, fp8=fp8):
        if reason is not None:
            ruled_out[price.instance_type] = reason
            continue
        prof = profile_of(price, table, outside=fallback)
        if isinstance(prof, str):
            ruled_out[price.instance_type] = prof
        elif prof.min_count > policy.max_instances:
            ruled_out[price.instance_type] = (
                f"memory: needs {prof.min_count} instances, policy max_instances is {policy.max_instances}")
        else:
            (outside if fallback else inside).append(prof)
    return tuple(inside), tuple(outside), ruled_out


# A price in a region, why the policy or the request rules its type out (None: it does not), and whether the type is
# allowed only as a fall-back outside the size class.
_Allowed = tuple[RegionPrice, str | None, bool]


def _allowed_types(region: str, *, catalog: Catalog, policy: PolicyConfig, team: TeamPolicy, families: list[str],
                   wanted: set[str] | None, excluded: Mapping[str, str], fp8: bool) -> tuple[_Allowed, ...]:
    """What the policy and the request say of each type priced in ``region``, before memory is looked at. None of it
    depends on the model, so every model of the same size class, team and hints shares it: a new model only sizes
    the types allowed."""
    key = ("allowed types", region, tuple(families), None if wanted is None else frozenset(wanted),
           tuple(sorted(excluded.items())), team.neuron_ready, tuple(policy.neuron_families), fp8)

    def work_out() -> tuple[_Allowed, ...]:
        out = []
        for price in catalog.prices_in(region):
            reason = _policy_reason(price, catalog=catalog, policy=policy, team=team, wanted=wanted,
                                    excluded=excluded, fp8=fp8)
            fallback = reason is None and wanted is None and \
                catalog.instances[price.instance_type].family not in families
            out.append((price, reason, fallback))
        return tuple(out)

    return remembered(catalog, policy.estimate, key, work_out)


def _policy_reason(price: RegionPrice, *, catalog: Catalog, policy: PolicyConfig, team: TeamPolicy,
                   wanted: set[str] | None, excluded: Mapping[str, str], fp8: bool) -> str | None:
    spec = catalog.instances.get(price.instance_type)
    if spec is None:
        return "not in the catalog's instance list"
    if wanted is not None and price.instance_type not in wanted:
        return NOT_ASKED
    if price.instance_type in excluded:
        return f"excluded by the request (no {excluded[price.instance_type]})"
    if fp8 and not catalog.accelerators[spec.accelerator].fp8:
        return f"{catalog.accelerators[spec.accelerator].name} does not compute in FP8, which the request trains in"
    if spec.family in policy.neuron_families and not team.neuron_ready:
        return "Trainium needs a Neuron-ready team (policy: teams.<team>.neuron_ready)"
    return None


def _hint_filter(request: TrainingRequest, catalog: Catalog) -> set[str] | None:
    """Types the request named (by type, family or accelerator), or None when it named none."""
    types: set[str] | None = None
    if request.instance_type:
        name = request.instance_type.strip().lower()
        by_family = {t for t, spec in catalog.instances.items() if spec.family == name}
        if not by_family:
            catalog.instance(name)  # raises unknown_instance_type with close matches
            by_family = {name}
        types = by_family
    if request.accelerator:
        by_accel = _accelerator_types(request.accelerator.strip().lower(), catalog)
        if not by_accel:
            names = sorted({a.name for a in catalog.accelerators.values()})
            raise RequestError(f"Unknown accelerator {request.accelerator!r}; known: {', '.join(names)}.",
                               code="unknown_accelerator")
        if types is not None and request.instance_type and not types & by_accel:
            carried = sorted({catalog.instances[t].accelerator for t in types if t in catalog.instances})
            raise RequestError(f"{request.instance_type} instances carry {' or '.join(carried)}, not "
                               f"{request.accelerator}: name one of the two, or say \"{request.instance_type} or "
                               f"{request.accelerator}\" to have the plan choose between them.", code="contradiction")
        types = by_accel if types is None else types & by_accel
    if request.hardware_choice:  # "on p5 or p4d", "H100 or A100": any of them
        chosen: set[str] = set()
        for said in request.hardware_choice:
            named = types_named(said, catalog)
            if not named:
                catalog.instance(said.strip().lower())  # raises unknown_instance_type with close matches
            chosen |= named
        types = chosen if types is None else types & chosen
    return types


def types_named(said: str, catalog: Catalog) -> set[str]:
    """The types one name covers: an exact type, a family's types, or an accelerator's (``_accelerator_types``)."""
    name = said.strip().lower().removeprefix("ml.")
    return {t for t, spec in catalog.instances.items() if name in (t, spec.family)} | _accelerator_types(name, catalog)


_MEMORY_SIZE_RE = compiled_on_use(r"(?P<name>.+?)[\s-]*(?P<gib>\d+)\s*gb")


def _accelerator_types(name: str, catalog: Catalog) -> set[str]:
    """The types of an accelerator by its catalog key ("a100-80gb"), its name ("a100", every memory size of it), or
    its name and memory ("a100-40gb": the sizes with that much)."""
    sized = _MEMORY_SIZE_RE.fullmatch(name)
    out = set()
    for t, spec in catalog.instances.items():
        accel = catalog.accelerators[spec.accelerator]
        if name in (spec.accelerator.lower(), accel.name.lower()):
            out.add(t)
        elif sized is not None and sized["name"] == accel.name.lower() and round(
                spec.accelerator_memory_gib or accel.memory_gib or 0) == int(sized["gib"]):
            out.add(t)
    return out


def _excluded(request: TrainingRequest, catalog: Catalog) -> dict[str, str]:
    """Each type the request excludes, with the name that excluded it: an exact type, a family, or an accelerator
    (by its catalog key, "A100-80GB", or its name, "A100", which takes every memory size of it). A name the catalog
    does not know is refused, so a typo never leaves the hardware it meant in the plan."""
    found: dict[str, str] = {}
    for said in request.exclude:
        types = sorted(types_named(said, catalog))
        if not types:
            names = sorted({a.name for a in catalog.accelerators.values()})
            families = sorted({spec.family for spec in catalog.instances.values()})
            raise RequestError(f"Cannot exclude {said!r}: it is no accelerator ({', '.join(names)}), instance family "
                               f"({', '.join(families)}) or instance type gpuops knows.", code="unknown_exclusion")
        for t in types:
            found.setdefault(t, said.strip())
    return found


def by_reason(ruled_out: Mapping[str, str], *, keep: Callable[[str], bool] | None = None) -> list[str]:
    """The types ruled out, those of one reason said once with it ("g5.2xlarge, g5.4xlarge: A10G does not compute
    in FP8 …"), in type order; never the hardware the request did not name (``NOT_ASKED``), and only the reasons
    ``keep`` keeps."""
    grouped: dict[str, list[str]] = {}
    for t, r in sorted(ruled_out.items()):
        if r != NOT_ASKED and (keep is None or keep(r)):
            grouped.setdefault(r, []).append(t)
    return [f"{', '.join(types)}: {r}" for r, types in grouped.items()]


def _contradiction(request: TrainingRequest) -> str:
    """A request that names hardware and excludes all of it ("on p5, no H100s")."""
    asked = " ".join(x for x in (request.instance_type, request.accelerator) if x)
    return (f"The request asks for {asked} but excludes {', '.join(request.exclude)}, which rules out all of it; drop "
            "one of the two: name other hardware, or leave the hardware open.")


def _nothing_matches(request: TrainingRequest, region: str, result: Screen, elsewhere: list[str], *,
                     unpriced: bool) -> str:
    """Why the hardware asked for runs nothing in ``region``: each type's reason, or that it is not sold there, with
    the policy's regions that sell it (``elsewhere``), or that the price snapshot has it in none (``unpriced``)."""
    asked = request.instance_type or request.accelerator or " or ".join(request.hardware_choice) or "named"
    why = "; ".join(by_reason(result.ruled_out))
    where = (f"; of the policy's regions, {', '.join(elsewhere)} {'has' if len(elsewhere) == 1 else 'have'} it"
             if elsewhere else "; the price snapshot has no on-demand price for it in any region, and "
             "`gpuops catalog refresh` reads current prices" if unpriced else "")
    return (f"No {asked} configuration can run this job in {region}"
            + (f" ({why})" if why else f" (not offered there at a known price{where})")
            + ". Name another instance type or region, or leave the hardware open.")
