"""AWS regions by the places people call them, and the areas they lie in.

One table, taken from AWS's list of regions (code, official name): the words a person uses for each region's place
("frankfurt", "n. virginia", "são paulo") and the areas it counts in ("europe", "eu", "us", "asia"). The parser
reads a place as its region and an area as "search only the policy's regions there"; the decision tree narrows the
search to an area with ``in_area``. A place or area names where the work may run, which is often a data-residency
rule, so the EU is the EU member states' regions (not London or Zurich) while Europe is every ``eu-`` region.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ALL_REGIONS", "AREA_JOIN", "area_label", "AREA_WORDS", "AREAS", "AwsRegion", "in_area", "place_of",
           "PLACE_WORDS", "REGIONS"]


@dataclass(frozen=True, slots=True)
class AwsRegion:
    code: str
    name: str  # AWS's name, e.g. "Europe (Frankfurt)"
    places: tuple[str, ...]  # the words that name this region alone, lower case
    areas: frozenset[str]


def _region(code: str, name: str, places: tuple[str, ...], *areas: str) -> AwsRegion:
    return AwsRegion(code, name, places, frozenset(areas))


_US, _NA, _EUROPE, _EU, _ASIA, _APAC = "us", "north-america", "europe", "eu", "asia", "asia-pacific"
_ME = "middle-east"
_US_EAST, _US_WEST = "us-east", "us-west"  # AWS's own halves of the US: "on the east coast", "US West"
REGIONS: tuple[AwsRegion, ...] = (
    _region("us-east-1", "US East (N. Virginia)", ("n. virginia", "n virginia", "northern virginia", "virginia"),
            _US, _NA, _US_EAST),
    _region("us-east-2", "US East (Ohio)", ("ohio",), _US, _NA, _US_EAST),
    _region("us-west-1", "US West (N. California)", ("n. california", "n california", "northern california",
                                                     "california"), _US, _NA, _US_WEST),
    _region("us-west-2", "US West (Oregon)", ("oregon",), _US, _NA, _US_WEST),
    _region("ca-central-1", "Canada (Central)", ("montreal", "montr\u00e9al", "canada central"), "canada", _NA),
    _region("ca-west-1", "Canada West (Calgary)", ("calgary",), "canada", _NA),
    _region("mx-central-1", "Mexico (Central)", ("mexico", "m\u00e9xico"), _NA),
    _region("sa-east-1", "South America (S\u00e3o Paulo)", ("sao paulo", "s\u00e3o paulo", "brazil"),
            "south-america"),
    _region("eu-central-1", "Europe (Frankfurt)", ("frankfurt", "germany"), _EUROPE, _EU),
    _region("eu-central-2", "Europe (Zurich)", ("zurich", "z\u00fcrich", "switzerland"), _EUROPE),
    _region("eu-west-1", "Europe (Ireland)", ("ireland", "dublin"), _EUROPE, _EU),
    _region("eu-west-2", "Europe (London)", ("london", "uk", "united kingdom", "britain", "great britain"), _EUROPE),
    _region("eu-west-3", "Europe (Paris)", ("paris", "france"), _EUROPE, _EU),
    _region("eu-south-1", "Europe (Milan)", ("milan", "italy"), _EUROPE, _EU),
    _region("eu-south-2", "Europe (Spain)", ("spain", "aragon"), _EUROPE, _EU),
    _region("eu-north-1", "Europe (Stockholm)", ("stockholm", "sweden"), _EUROPE, _EU),
    _region("af-south-1", "Africa (Cape Town)", ("cape town", "south africa"), "africa"),
    _region("il-central-1", "Israel (Tel Aviv)", ("tel aviv", "israel"), _ME),
    _region("me-south-1", "Middle East (Bahrain)", ("bahrain",), _ME),
    _region("me-central-1", "Middle East (UAE)", ("uae", "united arab emirates"), _ME),
    _region("ap-east-1", "Asia Pacific (Hong Kong)", ("hong kong",), _ASIA, _APAC),
    _region("ap-east-2", "Asia Pacific (Taipei)", ("taipei", "taiwan"), _ASIA, _APAC),
    _region("ap-south-1", "Asia Pacific (Mumbai)", ("mumbai",), "india", _ASIA, _APAC),
    _region("ap-south-2", "Asia Pacific (Hyderabad)", ("hyderabad",), "india", _ASIA, _APAC),
    _region("ap-southeast-1", "Asia Pacific (Singapore)", ("singapore",), _ASIA, _APAC),
    _region("ap-southeast-2", "Asia Pacific (Sydney)", ("sydney",), "australia", _APAC),
    _region("ap-southeast-3", "Asia Pacific (Jakarta)", ("jakarta", "indonesia"), _ASIA, _APAC),
    _region("ap-southeast-4", "Asia Pacific (Melbourne)", ("melbourne",), "australia", _APAC),
    _region("ap-southeast-5", "Asia Pacific (Malaysia)", ("malaysia", "kuala lumpur"), _ASIA, _APAC),
    _region("ap-southeast-6", "Asia Pacific (New Zealand)", ("new zealand", "auckland"), _APAC),
    _region("ap-southeast-7", "Asia Pacific (Thailand)", ("thailand", "bangkok"), _ASIA, _APAC),
    _region("ap-northeast-1", "Asia Pacific (Tokyo)", ("tokyo",), "japan", _ASIA, _APAC),
    _region("ap-northeast-2", "Asia Pacific (Seoul)", ("seoul", "korea", "south korea"), _ASIA, _APAC),
    _region("ap-northeast-3", "Asia Pacific (Osaka)", ("osaka",), "japan", _ASIA, _APAC),
)  # fmt: skip

# area → how a sentence names it
AREAS: dict[str, str] = {
    _US: "the US", _NA: "North America", "canada": "Canada", "south-america": "South America", _EUROPE: "Europe",
    _EU: "the EU", "africa": "Africa", _ME: "the Middle East", _ASIA: "Asia", _APAC: "Asia Pacific",
    "india": "India", "australia": "Australia", "japan": "Japan", _US_EAST: "US East", _US_WEST: "US West",
}
# the words for each area, lower case ("us" is read only as "US" or "the us": the parser checks its case)
AREA_WORDS: dict[str, str] = {
    "us": _US, "u.s.": _US, "u.s": _US, "usa": _US, "united states": _US, "america": _US,
    "north america": _NA, "canada": "canada", "south america": "south-america", "europe": _EUROPE,
    "eu": _EU, "european union": _EU, "africa": "africa", "middle east": _ME, "asia": _ASIA,
    "asia pacific": _APAC, "asia-pacific": _APAC, "apac": _APAC, "india": "india", "australia": "australia",
    "japan": "japan", "east coast": _US_EAST, "us east": _US_EAST, "west coast": _US_WEST, "us west": _US_WEST,
}  # fmt: skip
PLACE_WORDS: dict[str, str] = {place: r.code for r in REGIONS for place in r.places}
ALL_REGIONS: tuple[str, ...] = tuple(r.code for r in REGIONS)
_BY_CODE = {r.code: r for r in REGIONS}


def place_of(code: str) -> str | None:
    """AWS's name of a region ("Europe (Frankfurt)"), or None for a code the table does not hold."""
    region = _BY_CODE.get(code)
    return region.name if region else None


# Several areas said together ("in the US or the EU") are one area, their names joined: a region in any lies in it.
AREA_JOIN = "|"


def in_area(regions: Iterable[str], area: str) -> list[str]:
    """Those of ``regions`` that lie in ``area`` (in any of the areas it joins), in their order."""
    wanted = set(area.split(AREA_JOIN))
    return [code for code in regions if code in _BY_CODE and not wanted.isdisjoint(_BY_CODE[code].areas)]


def area_label(area: str) -> str:
    """The area as a sentence names it ("Europe", "the EU", "the US or the EU")."""
    return " or ".join(AREAS.get(one, one) for one in area.split(AREA_JOIN))
