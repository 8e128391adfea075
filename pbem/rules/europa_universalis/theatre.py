"""The 1492 set-up placed on a map (XXVII.1.1): a theatre names the map and the countries
placed on it, and where each major's raised forces stand — the rulebook says they "are
raised" and places none (EU-I12). Who owns which province comes from the extracted set-up
(EU-I15 for a province two tables name), never from the theatre file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pbem.rules.europa_universalis.geography import GameMap, map_problems
from pbem.rules.europa_universalis.rulebook import Force, Rulebook

NAVAL = ("ND", "NGD", "NTD", "NWD", "F⊕", "F⊖")


class TheatreError(ValueError):
    """A theatre file that does not fit its schema; the message names the field."""


class Placed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    armies_at: str | None = None  # where its land forces stand (a major's; EU-I12)
    fleets_at: str | None = None  # the port where its fleets stand
    off_map: list[str] = []  # its provinces the map leaves out, named so


class Theatre(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    map: GameMap
    countries: list[Placed] = Field(alias="country", min_length=1)


@dataclass(frozen=True)
class Stack:
    country: str
    at: str
    force: Force


@dataclass
class Placement:
    owners: dict[str, str] = field(default_factory=dict)  # province → its owner in 1492
    stacks: list[Stack] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ports: dict[str, str] = field(default_factory=dict)  # province → its port, from the map


def load_theatre(data: dict[str, Any]) -> Theatre:
    try:
        return Theatre.model_validate(data)
    except ValidationError as error:
        raise TheatreError("; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()[:5])) from None


def owners_1492(book: Rulebook, countries: list[str]) -> dict[str, str]:
    """Each province of `countries` and its owner in 1492: a major's set-up first, then the
    minors' deviations of XXVII.1.1.11 §A ("Trentino does initially belong to HABSBURGUM"),
    then a minor's own list, where a province already owned stays with its owner (EU-I15)."""
    owners: dict[str, str] = {}
    for name in countries:
        major = book.major(name)
        for province in major.provinces if major else []:
            owners[province] = name
    for clause in book.setup_1492_minors:
        found = re.match(r"^(.+?) (?:does |do )?initially belongs? to ([A-ZÆ ]+)\.$", clause.text)
        if found and found.group(2) in countries:
            for province in re.split(r", | and ", found.group(1)):
                owners.setdefault(province, found.group(2))
    for name in countries:
        minor = None if book.major(name) else book.minor(name)
        for province in minor.provinces if minor else []:
            owners.setdefault(province.name, name)
    return owners


def place_1492(book: Rulebook, theatre: Theatre) -> Placement:
    game_map = theatre.map
    names = [c.name for c in theatre.countries]
    placement = Placement(problems=list(map_problems(game_map)), ports={p.id: p.port for p in game_map.provinces})
    unknown = [n for n in names if not book.major(n) and not book.minor(n)]
    placement.problems += [f"country {n}: neither a major of the 1492 set-up nor a minor of XXV" for n in unknown]
    placement.owners = owners_1492(book, [n for n in names if n not in unknown])
    on_map = {p.id for p in game_map.provinces}
    for country in theatre.countries:
        own = [p for p, owner in placement.owners.items() if owner == country.name]
        missing = [p for p in own if p not in on_map and p not in country.off_map]
        if missing:
            placement.problems.append(f"{country.name}: {', '.join(missing)} on no province of the map "
                                      f"(name them in off_map if the map leaves them out)")
        placement.problems += [f"{country.name}: off_map names {p}, which is on the map" for p in country.off_map if p in on_map]
        placement.problems += [f"{country.name}: off_map names {p}, not its province in 1492"
                               for p in country.off_map if placement.owners.get(p) != country.name]
        placement.problems += _forces(book, country, placement)
    placement.problems += [f"{p.id}: owned in 1492 by none of the countries placed" for p in game_map.provinces
                           if p.id not in placement.owners]
    return placement


def _port(placement: Placement, province: str) -> str:
    return placement.ports.get(province, "none")


def _forces(book: Rulebook, country: Placed, placement: Placement) -> list[str]:
    major = book.major(country.name)
    if major is None:
        return []
    problems = []
    for force in major.forces:
        at = country.fleets_at if force.unit in NAVAL else country.armies_at
        what = "fleets_at" if force.unit in NAVAL else "armies_at"
        if at is None:
            problems.append(f"{country.name}: {force.count} {force.unit} raised in 1492 but no {what}")
        elif placement.owners.get(at) != country.name:
            problems.append(f"{country.name}: {what} {at} is not its province in 1492")
        elif force.unit in NAVAL and _port(placement, at) == "none":
            problems.append(f"{country.name}: fleets_at {at} has no port")
        else:
            placement.stacks.append(Stack(country.name, at, force))
    return problems
