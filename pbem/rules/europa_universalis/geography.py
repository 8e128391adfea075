"""The European map as data (I.1): provinces with their terrain (I.1.2 §D), fortress, port,
the sea zones they touch and their neighbours by frontier (I.1.2 §F: regular, river, mountain
pass, strait); sea zones and theirs. The rulebook file has no map (research §7), so a GM who
owns the game types the real one; the shipped theatre of 1492 is synthetic (`synthetic =
true`). `map_problems` finds what a typed map gets wrong — a frontier printed on one side
only or with two kinds, an id nobody defines, a part of the map no path reaches — and is
what `pbem scenario check` runs once the ruleset exists.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

TERRAINS = ("plain", "sparse_forest", "dense_forest", "northern_forest", "mountain", "swamp", "desert")
FRONTIERS = ("regular", "river", "pass", "strait")
#: A province's harbour as the map prints it (research §7): none, a port, a circled anchor
#: (where a Præsidio may stand), an arsenal.
PORTS = ("none", "port", "circled", "arsenal")
NAME = r"^[^\s].*[^\s]$|^[^\s]$"


class Place(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Province(Place):
    id: str = Field(pattern=NAME)  # the province name as the rulebook prints it ("Île-de-France")
    city: str = ""
    terrain: Literal[TERRAINS]
    fortress: int = Field(0, ge=0, le=5)  # the basic fortress level printed on the map
    port: Literal[PORTS] = "none"
    capital: bool = False
    income: int | None = Field(None, ge=0)
    neighbours: dict[str, Literal[FRONTIERS]] = {}  # province id → the frontier between them
    coasts: list[str] = []  # the sea zones it touches
    synthetic: bool = False


class SeaZone(Place):
    id: str = Field(pattern=NAME)
    neighbours: list[str] = []  # adjacent sea zones
    synthetic: bool = False


class GameMap(Place):
    synthetic: bool = False
    note: str = ""
    provinces: list[Province]
    seas: list[SeaZone] = []

    def province(self, name: str) -> Province | None:
        return next((p for p in self.provinces if p.id == name), None)


def map_problems(game_map: GameMap) -> list[str]:
    """Every mistake found, each a sentence naming its place; none: the map is usable."""
    problems: list[str] = []
    provinces = {p.id: p for p in game_map.provinces}
    seas = {s.id: s for s in game_map.seas}
    for kind, ids in (("province", [p.id for p in game_map.provinces]), ("sea zone", [s.id for s in game_map.seas])):
        problems += [f"{kind} {name} is defined twice" for name in sorted({i for i in ids if ids.count(i) > 1})]
    problems += [f"{name} is both a province and a sea zone" for name in sorted(set(provinces) & set(seas))]
    for province in game_map.provinces:
        for other, frontier in province.neighbours.items():
            back = provinces.get(other)
            if other == province.id:
                problems.append(f"{province.id} lists itself as a neighbour")
            elif back is None:
                problems.append(f"{province.id}: neighbour {other} is no province of the map")
            elif province.id not in back.neighbours:
                problems.append(f"{province.id} lists {other} as a neighbour, but {other} does not list {province.id}")
            elif back.neighbours[province.id] != frontier:
                problems.append(f"{province.id}–{other}: a {frontier} frontier on one side, "
                                f"{back.neighbours[province.id]} on the other")
        for sea in province.coasts:
            if sea not in seas:
                problems.append(f"{province.id}: coast on {sea}, no sea zone of the map")
        if province.port != "none" and not province.coasts:
            problems.append(f"{province.id} has a {province.port} but no coast")
    for sea in game_map.seas:
        for other in sea.neighbours:
            if other not in seas:
                problems.append(f"sea zone {sea.id}: neighbour {other} is no sea zone of the map")
            elif sea.id not in seas[other].neighbours:
                problems.append(f"sea zone {sea.id} lists {other}, but {other} does not list {sea.id}")
    unreached = sorted((set(provinces) | set(seas)) - _reached(game_map))
    if unreached:
        problems.append(f"no path by land or sea reaches {', '.join(unreached)}")
    return problems


def _reached(game_map: GameMap) -> set[str]:
    """The provinces and sea zones connected to the first province, by frontiers, coasts and
    sea-zone adjacency."""
    links: dict[str, set[str]] = {p.id: set(p.neighbours) | set(p.coasts) for p in game_map.provinces}
    for sea in game_map.seas:
        links.setdefault(sea.id, set()).update(sea.neighbours)
    for province in game_map.provinces:
        for sea in province.coasts:
            links.setdefault(sea, set()).add(province.id)
    if not game_map.provinces:
        return set()
    start = game_map.provinces[0].id
    reached, queue = {start}, deque([start])
    while queue:
        for other in sorted(links.get(queue.popleft(), ())):
            if other not in reached:
                reached.add(other)
                queue.append(other)
    return reached
