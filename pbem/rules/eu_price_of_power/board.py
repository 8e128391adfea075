"""The map of EU: The Price of Power as data (§2.2 "The Map Board", "Important Terms").

Regions are the boards and the Distant Continents' boxes; Areas (land, with their religion
slot, HRE membership, Elector eagle, mountain borders and coasts) hold Provinces (Tax Value
1 or 2, Capitals, Ports facing Sea Zones, Gold); Sea Zones (galley marks, Trade Protection
slots) border each other; Trade Nodes are maritime (facing Sea Zones) or inland (in an
Area). Adjacency is listed on both sides, so a one-sided entry is a mistake
`check_board` names, with unknown ids, ports on seas their Area has no coast on, and Areas
no land, coast or sea route reaches.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import Field, model_validator

from pbem.rules.eu_price_of_power.effects import Religion
from pbem.rules.eu_price_of_power.sources import Strict

_ID = r"^[A-Za-z][A-Za-z0-9_-]*$"


class _Element(Strict):
    synthetic: bool = False


class Region(_Element):
    """A board (the Main Map's Western and Eastern Europe) or a Distant Continent's box,
    whose number links it to Trade Cards (§12.6)."""

    id: str = Field(pattern=_ID)
    name: str
    distant: bool = False
    continent: int | None = None

    @model_validator(mode="after")
    def _numbered(self) -> Region:
        if self.distant != (self.continent is not None):
            raise ValueError(f"region {self.id}: a Distant Continent, and only one, has a number (§12.6)")
        return self


class Area(_Element):
    id: str = Field(pattern=_ID)
    name: str
    region: str
    religion: Religion | None = None  # what its Religion slot shows (§2.2, §15.3); None on a desert
    religion_slot: str | None = None  # the Area whose slot it shares ("Some slots apply to more than one Area")
    hre: bool = False  # inside the HRE border (§2.2, §18.3)
    elector: bool = False  # an Elector Area (§18.9)
    adjacent: list[str] = []  # Areas sharing a land border
    mountains: list[str] = []  # of those, the borders across mountains (§9.5)
    seas: list[str] = []  # Sea Zones it borders (a coastal Area)
    territory: int | None = None  # a Distant Territory's circled number: no Province (§2.2)
    desert: bool = False  # an impassable desert (Map Oddities)
    x: float | None = None  # where the map drawing places it
    y: float | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Area:
        if self.elector and not self.hre:
            raise ValueError(f"area {self.id}: an Elector Area lies inside the HRE (§2.2)")
        stray = [m for m in self.mountains if m not in self.adjacent]
        if stray:
            raise ValueError(f"area {self.id}: a mountain border with {', '.join(stray)}, which it is not adjacent to")
        return self


class Port(_Element):
    seas: list[str] = Field(min_length=1)  # the Sea Zones it faces
    large: bool = False  # counts as 2 Ports for all purposes (§2.2)
    island: bool = False  # sieged only with Ships in an adjacent Sea Zone (§2.2)
    inactive: bool = False  # a grayed-out Distant Port (§2.2)


class Province(_Element):
    id: str = Field(pattern=_ID)
    name: str
    area: str
    tax_value: Literal[1, 2] = 1  # Small 1, Large 2 (§2.2)
    flag: str | None = None  # the realm whose flag it shows: a Core of that realm (§7.6)
    capital: bool = False  # its flag's Capital (underlined, §2.2)
    port: Port | None = None
    gold: bool = False  # a Gold Province (§2.2, §12.1)


class SeaZone(_Element):
    id: str = Field(pattern=_ID)
    name: str
    region: str
    adjacent: list[str] = []
    galleys: Literal["*", "†"] | None = None  # galleys may exist here (§2.2, §9.9)
    trade_slots: int = Field(2, ge=0, le=3)  # Trade Protection slots (§2.2: "2–3")
    costly: list[str] = []  # adjacent zones across a G, H or I connection: +1 Monarch Power (Map Oddities)
    x: float | None = None
    y: float | None = None


class TradeNode(_Element):
    """A maritime node faces Sea Zones; an inland node lies in an Area; a desert node is
    adjacent to the named Areas bordering its desert (§12.2, Map Oddities)."""

    id: str = Field(pattern=_ID)
    name: str
    kind: Literal["maritime", "inland"]
    seas: list[str] = []
    area: str | None = None
    areas: list[str] = []

    @model_validator(mode="after")
    def _placed(self) -> TradeNode:
        if self.kind == "maritime" and (not self.seas or self.area):
            raise ValueError(f"node {self.id}: a Maritime Trade Node faces Sea Zones and lies in no Area (§12.2)")
        if self.kind == "inland" and (self.seas or not (self.area or self.areas)):
            raise ValueError(f"node {self.id}: an Inland Trade Node lies in an Area (or a desert beside Areas, §12.2)")
        return self


@dataclass(frozen=True, eq=False)
class Board:
    """The map's lookups."""

    regions: dict[str, Region]
    areas: dict[str, Area]
    provinces: dict[str, Province]
    seas: dict[str, SeaZone]
    nodes: dict[str, TradeNode]
    in_area: dict[str, tuple[str, ...]] = field(init=False)

    def __post_init__(self) -> None:
        in_area: dict[str, list[str]] = {a: [] for a in self.areas}
        for province in self.provinces.values():
            in_area.setdefault(province.area, []).append(province.id)
        object.__setattr__(self, "in_area", {a: tuple(p) for a, p in in_area.items()})

    @classmethod
    def of(cls, regions: Iterable[Region], areas: Iterable[Area], provinces: Iterable[Province],
           seas: Iterable[SeaZone], nodes: Iterable[TradeNode]) -> Board:
        return cls({r.id: r for r in regions}, {a.id: a for a in areas}, {p.id: p for p in provinces},
                   {s.id: s for s in seas}, {n.id: n for n in nodes})

    def distant(self, area: str) -> bool:
        """An Area of a Distant Continent (§2.2)."""
        region = self.regions.get(self.areas[area].region) if area in self.areas else None
        return region is not None and region.distant


def unknown(where: str, what: str, names: Iterable[str | None], table: Mapping[str, object]) -> list[str]:
    """`where`'s names (None: none given) that are not in `table`, each a problem."""
    return [f"{where}: unknown {what} {name!r}" for name in names if name is not None and name not in table]


def check_board(board: Board) -> list[str]:
    """Unknown ids, one-sided adjacency, ports on seas their Area has no coast on, and
    Areas and Sea Zones nothing reaches from the first Area."""
    problems: list[str] = []
    for area in board.areas.values():
        where = f"area {area.id}"
        problems += unknown(where, "region", [area.region], board.regions)
        problems += unknown(where, "area (religion slot)", [area.religion_slot], board.areas)
        problems += unknown(where, "sea zone", area.seas, board.seas)
        problems += [f"mountain border {area.id}–{other} is given on one side only" for other in area.mountains
                     if other in board.areas and area.id not in board.areas[other].mountains]
        if area.territory is not None and board.in_area.get(area.id):
            problems.append(f"{where}: a Territory has no Province (§2.2)")
        if area.religion is None and not area.desert and not board.distant(area.id):
            problems.append(f"{where}: give the religion its slot shows (§2.2, §15.3)")
    for province in board.provinces.values():
        where = f"province {province.id}"
        problems += unknown(where, "area", [province.area], board.areas)
        if province.port is None or province.area not in board.areas:
            continue
        for sea in province.port.seas:
            if sea not in board.seas:
                problems.append(f"{where}: its port faces unknown sea zone {sea!r}")
            elif sea not in board.areas[province.area].seas:
                problems.append(f"{where}: its port faces {sea}, which its area {province.area} does not border")
    for sea in board.seas.values():
        problems += unknown(f"sea zone {sea.id}", "region", [sea.region], board.regions)
        problems += [f"sea zone {sea.id}: its costly connection to {c} is not one of its adjacent zones"
                     for c in sea.costly if c not in sea.adjacent]
    problems += _one_sided("area", board.areas) + _one_sided("sea zone", board.seas)
    for node in board.nodes.values():
        problems += unknown(f"node {node.id}", "sea zone", node.seas, board.seas)
        problems += unknown(f"node {node.id}", "area", [node.area, *node.areas], board.areas)
    problems += [f"{name} cannot be reached from {next(iter(board.areas))}" for name in _unreached(board)]
    return problems


def _one_sided(what: str, spaces: Mapping[str, Area | SeaZone]) -> list[str]:
    """Adjacency to unknown spaces, or listed on one side only."""
    problems = []
    for space in spaces.values():
        for other in space.adjacent:
            if other not in spaces:
                problems.append(f"{what} {space.id}: unknown adjacent {what} {other!r}")
            elif space.id not in spaces[other].adjacent:
                problems.append(f"adjacency is not symmetric: {space.id} lists {other} but {other} does not "
                                f"list {space.id}")
    return problems


def _unreached(board: Board) -> list[str]:
    """Areas (not deserts) and Sea Zones not joined to the first Area by land borders,
    coasts and sea borders, in the map's order."""
    graph: dict[str, set[str]] = {name: set() for name in [*board.areas, *board.seas]}
    for area in board.areas.values():
        if area.desert:
            continue
        graph[area.id].update(a for a in area.adjacent if a in board.areas and not board.areas[a].desert)
        for sea in area.seas:
            if sea in board.seas:
                graph[area.id].add(sea)
                graph[sea].add(area.id)
    for sea in board.seas.values():
        graph[sea.id].update(s for s in sea.adjacent if s in board.seas)
    if not board.areas:
        return []
    start = next(iter(board.areas))
    seen, frontier = {start}, [start]
    while frontier:
        for neighbour in sorted(graph[frontier.pop()]):
            if neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    return [name for name in graph if name not in seen and not (name in board.areas and board.areas[name].desert)]
