"""A scenario of Empires in Arms as data (§1.3: a land-only game), validated by pydantic.

A scenario names its powers in the fixed orders of the Land Phase (§7.1) and the Army
Reinforcement Step (§5.2), the wars it fixes, the map (areas with terrain, forage value,
owner, city; borders with rivers), the corps, leaders, depots and garrisons at the start,
the reinforcements, corps counters brought back (§5.2.4.1) and money that arrive month by
month (§5.2.2.1, §5.2.5), its victory conditions and its charts (`charts.py`). Invented data
is marked `synthetic = true`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pbem.core.ruleset import checked_scenario
from pbem.rules.empires_in_arms.calendar import date_of, turn_of_date
from pbem.rules.empires_in_arms.charts import FACTOR_TYPES, Charts


#: Corps of the levies (§10.1.3, §10.1.4): they neither detach, absorb nor exchange factors and
#: take no reinforcements; the Tyrol corps is "used the same as any other Austrian corps" (§10.1.5.1).
LEVY_KINDS = ("feudal", "insurrection")
#: Corps a scenario may leave off the map for their player to place (§10.1.4.1, §10.1.5).
OFF_MAP_KINDS = ("insurrection", "tyrol")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Date(Strict):
    year: int
    month: int = Field(ge=1, le=12)


class Entry(Date):
    """When and where a corps counter enters as a reinforcement (§5.2.1.1)."""

    area: str


class Power(Strict):
    code: str = Field(pattern=r"^[A-Z]{2,3}$")
    name: str
    money: int = Field(0, ge=0)  # money points at the start (§5.2.5)
    # The basic morale of its regular infantry and cavalry (§7.5.2.6.1), "3.5" as printed.
    infantry_morale: str = "3.0"
    cavalry_morale: str = "3.0"
    # A minor free state names its controlling major power: its forces move, fight and are
    # supplied in that power's sequence and under its player (§7.1.1, §7.3.1, EIA-I163).
    controller: str | None = None
    # Option 12.3.2, British training: the month since which this minor free state (Hanover or
    # Portugal) has been British-controlled without a break (EIA-I243).
    trained_since: Date | None = None
    synthetic: bool = False


class City(Strict):
    name: str
    spires: int = Field(ge=1)  # supply value; garrison capacity 5 × spires (§7.3.3.4)
    fleches: int = Field(0, ge=0)  # siege value: a fortress has fleches
    capital: bool = False


class Area(Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    name: str = ""
    terrain: str
    forage: int = Field(ge=0)
    owner: str | None = None  # the power whose territory it is (None: no power's)
    winter_zone: bool = True  # §9.2
    city: City | None = None
    x: float | None = None
    y: float | None = None
    synthetic: bool = False

    @property
    def title(self) -> str:
        return self.name or self.id


class Link(Strict):
    a: str
    b: str
    river: bool = False


class CorpsCounter(Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    power: str
    movement: str  # a kind of the movement chart's allowances (§7.3.1.1)
    area: str | None = None  # on the map at the start, or
    enters: Entry | None = None  # placed by the scenario later (§5.2.1.1)
    factors: dict[str, int] = {}
    capacity: dict[str, int] = {}
    # The counter back's morale where it is not its power's (§7.5.2.6.1.1: feudal, Janissary …).
    infantry_morale: str | None = None
    cavalry_morale: str | None = None
    # Its own ratings, which command a combat where no leader is present (§10.6.1).
    strategic: int = Field(0, ge=0)
    tactical: int = Field(0, ge=0)
    inside: bool = False  # inside its area's city at the start (§7.3.4)
    # A Turkish feudal or Austrian insurrection corps (§10.1.3, §10.1.4), and the areas of its
    # home province (feudal, §10.1.3.3.1) or of the border provinces it keeps to (§10.1.4.1.3);
    # or the Austrian Tyrol corps, off the map at the start, and the Tyrol's areas (§10.1.5).
    kind: Literal["regular", "feudal", "insurrection", "tyrol"] = "regular"
    home: list[str] = []
    synthetic: bool = False


class IrregularCounter(Strict):
    """A cossack, freikorps or guerrilla counter (§10.1.1, §10.1.2) the scenario places: on the
    map at the start (`area`) or "as reinforcements when directed by the scenario" (`enters`,
    §10.1.2). A cossack or freikorps counter is one factor (§2.4.1)."""

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    power: str
    kind: Literal["cossack", "freikorps", "guerrilla"]
    factors: int = Field(1, ge=1)
    area: str | None = None
    enters: Entry | None = None
    synthetic: bool = False


class Province(Strict):
    """A province of a power with guerrillas (§10.1.1): its areas and its guerrilla value, printed
    on the map next to its name."""

    name: str
    power: str
    areas: list[str]
    guerrilla: int = Field(0, ge=0)
    synthetic: bool = False


class Leader(Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")
    power: str
    corps: str
    strategic: int = Field(ge=0)
    tactical: int = Field(ge=0)
    tactical_max: int = Field(4, ge=1)  # corps it commands at full rating (§10.6.1.2.1)
    seniority: str = Field("D", pattern=r"^[ABCD]$")  # §10.6.1.1.2
    napoleon: bool = False  # NAPOLEON's political points (§7.5.2.10.1.3.1–2)
    cavalry: bool = False  # the cavalry leader symbol: +1 to a pursuit's die (§7.5.2.10.2.2.1, §10.6.1.3)
    synthetic: bool = False


class DepotSetup(Strict):
    power: str
    area: str
    garrison: int = Field(0, ge=0)


class GarrisonSetup(Strict):
    power: str
    area: str
    factors: dict[str, int]


class Reinforcement(Date):
    power: str
    area: str
    factors: dict[str, int]


class CorpsArrival(Date):
    """§5.2.4.1: "a corps counter is designated as a reinforcement" — no counter named: its
    power brings back one of its removed counters, in one of `areas`, holding `factors`."""

    power: str
    areas: list[str] = Field(min_length=1)
    factors: dict[str, int]


class Money(Date):
    power: str
    amount: int = Field(ge=0)


class Victory(Strict):
    """One set of victory conditions of a power (§13 is missing from the file, so a scenario
    states its own, EIA-I21, EIA-I203): every condition given must be met, when the scenario
    ends or, with `at`, when that month ends. A power with several sets wins by any of them."""

    power: str
    holds: list[str] = []  # areas it holds (its corps there, or its garrison in the city; no enemy corps)
    capitals: list[str] = []  # powers whose capital city it holds, as an area of `holds`
    enemy_corps_lost: int = Field(0, ge=0)  # enemy corps counters eliminated, at least (§7.4.1.3.2, §7.5.5)
    enemy_factors_lost: int = Field(0, ge=0)  # army factors its enemies lost in combat, at least
    at: Date | None = None  # judged when this month ends, and then the scenario ends; else at its end
    text: str = ""
    synthetic: bool = False


class ScenarioData(Strict):
    id: str
    title: str
    ruleset: str = "empires-in-arms"
    synthetic: bool = False
    start: Date
    end: Date
    land_order: list[str]
    reinforcement_order: list[str]
    wars: list[tuple[str, str]] = []
    # Allies for the whole scenario (§1.3 fixes a scenario's politics), and the allies that
    # announced combined movement (§4.9*, §7.1.2), each group in the order its members move
    # within their joint sequence (§7.3.8.1, EIA-I161).
    alliances: list[tuple[str, str]] = []
    combined: list[list[str]] = []
    powers: list[Power]
    areas: list[Area]
    links: list[Link]
    corps: list[CorpsCounter] = []
    irregulars: list[IrregularCounter] = []
    provinces: list[Province] = []
    leaders: list[Leader] = []
    depots: list[DepotSetup] = []
    garrisons: list[GarrisonSetup] = []
    reinforcements: list[Reinforcement] = []
    corps_arrivals: list[CorpsArrival] = []
    money: list[Money] = []
    victory: list[Victory] = []
    charts: Charts = Charts()
    # The combat charts (shaped like the Game Card's, `combat/charts.py`); empty: the shipped
    # synthetic ones. The combat options of §12.3/§12.7 and the morale method (§7.5.2.6.1).
    combat_charts: dict[str, Any] = {}
    combat_options: dict[str, Any] = {}


@dataclass(frozen=True, eq=False)
class Scenario:
    """A validated scenario with its lookups."""

    data: ScenarioData
    areas: dict[str, Area] = field(init=False)
    neighbours: dict[str, tuple[str, ...]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "areas", {a.id: a for a in self.data.areas})
        adjacent: dict[str, list[str]] = {a.id: [] for a in self.data.areas}
        for link in self.data.links:
            adjacent.setdefault(link.a, []).append(link.b)
            adjacent.setdefault(link.b, []).append(link.a)
        object.__setattr__(self, "neighbours", {a: tuple(sorted(n)) for a, n in adjacent.items()})

    @cached_property
    def rivers(self) -> frozenset[frozenset[str]]:
        return frozenset(frozenset((link.a, link.b)) for link in self.data.links if link.river)

    @cached_property
    def powers(self) -> dict[str, Power]:
        return {p.code: p for p in self.data.powers}

    @cached_property
    def counters(self) -> dict[str, CorpsCounter]:
        return {c.id: c for c in self.data.corps}

    def corps_kind(self, corps_id: str) -> str:
        """`regular`, `feudal`, `insurrection` or `tyrol` (§10.1.3, §10.1.4, §10.1.5)."""
        counter = self.counters.get(corps_id)
        return counter.kind if counter is not None else "regular"

    @property
    def power_order(self) -> list[str]:
        """The major powers in the scenario's fixed order (the Land Phase's, §7.1)."""
        return list(self.data.land_order)

    def major(self, code: str) -> str:
        """The major power whose sequence moves `code`'s forces: its controller for a minor
        free state (§7.1.1), else itself."""
        controller = self.powers[code].controller if code in self.powers else None
        return controller or code

    def in_fixed_order(self, codes: Iterable[str]) -> list[str]:
        """`codes` (major powers and minor free states) in the fixed order (§7.1), a minor
        free state right after its controller (§7.1.1), minors in the scenario's order."""
        listed = [p.code for p in self.data.powers]
        return sorted(set(codes), key=lambda c: (self.power_order.index(self.major(c)), listed.index(c)))

    def forces_of(self, power: str) -> list[str]:
        """A major power and the minor free states it controls, in the scenario's order."""
        return [p.code for p in self.data.powers if self.major(p.code) == power]

    def allied(self, a: str, b: str) -> bool:
        a, b = self.major(a), self.major(b)
        return a == b or (a, b) in self.data.alliances or (b, a) in self.data.alliances

    @cached_property
    def sequences(self) -> list[tuple[str, ...]]:
        """The Land Phase's power sequences (§7.1): one per major power in the fixed order,
        except that allies moving combined share one, in the slot of the ally that would
        have moved last (§7.1.2), each taking its own part of it in the group's order."""
        order = self.power_order
        slots: list[tuple[str, ...]] = []
        for code in order:
            group = next((tuple(g) for g in self.data.combined if code in g), (code,))
            if code == max(group, key=order.index):
                slots.append(group)
        return slots

    @cached_property
    def land_parts(self) -> list[str]:
        """The major powers in the order they take their parts of the Land Phase (§7.1,
        §7.1.2): the fixed order, allies moving combined one after another in their slot."""
        return [power for group in self.sequences for power in group]

    def combined_with(self, power: str) -> tuple[str, ...]:
        """The powers of `power`'s sequence (itself alone unless moving combined, §7.1.2)."""
        return next((s for s in self.sequences if power in s), (power,))

    def capital_of(self, power: str) -> str | None:
        """The area of `power`'s capital city in the scenario (the first, in the map's order)."""
        return next((a.id for a in self.data.areas if a.owner == power and a.city and a.city.capital), None)

    @property
    def charts(self) -> Charts:
        return self.data.charts

    @property
    def months(self) -> int:
        """How many monthly turns the scenario lasts."""
        start, end = self.data.start, self.data.end
        return turn_of_date(start.year, start.month, end.year, end.month)

    def date(self, turn: int) -> tuple[int, int]:
        return date_of(self.data.start.year, self.data.start.month, turn)

    def turn_of(self, year: int, month: int) -> int:
        return turn_of_date(self.data.start.year, self.data.start.month, year, month)

    def at_war(self, a: str, b: str) -> bool:
        """A minor free state is at war with its controller's enemies (§7.1.1, EIA-I163)."""
        a, b = self.major(a), self.major(b)
        return (a, b) in self.data.wars or (b, a) in self.data.wars

    def crosses_river(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.rivers


def load_scenario(raw: Mapping[str, Any]) -> Scenario:
    """Validate scenario data; every problem is listed."""
    return checked_scenario(ScenarioData, raw, Scenario, check_scenario)


def check_politics(data: ScenarioData, majors: list[str]) -> list[str]:
    """Minor free states, alliances and combined movement as §7.1.1, §7.1.2 and §4.9* allow
    them: a minor's controller is a major power; wars and alliances are between major powers
    (a minor shares its controller's, EIA-I163); allies are not at war; a combined group is
    two or more allies, each power in one group at most."""
    problems = [f"power {p.code}: its controller {p.controller!r} is not a major power (§7.1.1)"
                for p in data.powers if p.controller is not None and p.controller not in majors]
    problems += [f"power {p.code}: only a minor free state is trained by its controller (12.3.2)"
                 for p in data.powers if p.trained_since is not None and p.controller is None]
    for what, pairs in (("war", data.wars), ("alliance", data.alliances)):
        problems += [f"{what} {a}–{b}: name major powers; a minor free state shares its controller's (§7.1.1)"
                     for a, b in pairs if a not in majors or b not in majors]
    wars = {frozenset(pair) for pair in data.wars}
    problems += [f"alliance {a}–{b}: the two are at war" for a, b in data.alliances if frozenset((a, b)) in wars]
    allied = {frozenset(pair) for pair in data.alliances}
    seen: list[str] = []
    for group in data.combined:
        if len(group) < 2 or any(code not in majors for code in group):
            problems.append(f"combined {', '.join(group)}: name two or more major powers (§7.1.2)")
        problems += [f"combined {', '.join(group)}: {a} and {b} are not allies (§7.1.2)"
                     for i, a in enumerate(group) for b in group[i + 1:] if frozenset((a, b)) not in allied]
        problems += [f"combined {', '.join(group)}: {code} moves combined twice" for code in group if code in seen]
        seen += group
    return problems


def check_scenario(scenario: Scenario) -> list[str]:
    """What a schema cannot see: unknown names, duplicate ids, orders that are not the powers."""
    data, problems = scenario.data, []
    codes = [p.code for p in data.powers]
    majors = [p.code for p in data.powers if p.controller is None]
    for what, ids in (("power", codes), ("area", [a.id for a in data.areas]), ("corps", [c.id for c in data.corps]),
                      ("leader", [lead.id for lead in data.leaders])):
        problems += [f"{what} {i} is given twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    ids = [c.id for c in data.corps] + [i.id for i in data.irregulars]
    problems += [f"irregular {i} has the id of a corps or another irregular" for i in
                 sorted({i.id for i in data.irregulars if ids.count(i.id) > 1})]
    for name, order in (("land_order", data.land_order), ("reinforcement_order", data.reinforcement_order)):
        if sorted(order) != sorted(majors):
            problems.append(f"{name} must name every power once ({', '.join(majors)}), not {', '.join(order)}")
    problems += [f"war {a}–{b}: unknown power" for a, b in data.wars if a not in codes or b not in codes]
    problems += check_politics(data, majors)
    if (data.end.year, data.end.month) < (data.start.year, data.start.month):
        problems.append("the scenario ends before it starts")

    def area(where: str, name: str | None) -> None:
        if name is not None and name not in scenario.areas:
            problems.append(f"{where}: unknown area {name!r}")

    def power(where: str, code: str | None) -> None:
        if code is not None and code not in codes:
            problems.append(f"{where}: unknown power {code!r}")

    def factors(where: str, counts: Mapping[str, int]) -> None:
        for kind, count in counts.items():
            if kind not in FACTOR_TYPES:
                problems.append(f"{where}: unknown factor type {kind!r} (known: {', '.join(FACTOR_TYPES)})")
            if count < 0:
                problems.append(f"{where}: {kind} is negative")

    for a in data.areas:
        power(f"area {a.id}", a.owner)
        if a.terrain not in data.charts.movement.terrain_cost:
            problems.append(f"area {a.id}: terrain {a.terrain!r} is not on the movement chart")
    for link in data.links:
        area(f"link {link.a}–{link.b}", link.a)
        area(f"link {link.a}–{link.b}", link.b)
    for c in data.corps:
        power(f"corps {c.id}", c.power)
        area(f"corps {c.id}", c.area)
        area(f"corps {c.id}", c.enters.area if c.enters else None)
        factors(f"corps {c.id}", c.factors)
        factors(f"corps {c.id} capacity", c.capacity)
        if (c.area is None) == (c.enters is None) and not (c.kind in OFF_MAP_KINDS and c.area is None):
            problems.append(f"corps {c.id}: give either its area or when it enters")
        if c.kind == "tyrol" and (c.area is not None or c.enters is not None):
            problems.append(f"corps {c.id}: the Tyrol corps starts off the map; its player places it (§10.1.5)")
        if c.movement not in data.charts.movement.allowance:
            problems.append(f"corps {c.id}: movement {c.movement!r} is not on the movement chart")
        over = [k for k, n in c.factors.items() if n > c.capacity.get(k, 0)]
        if over:
            problems.append(f"corps {c.id}: more {', '.join(over)} than its capacity")
        for name in c.home:
            area(f"corps {c.id} home", name)
        if c.kind != "regular" and not c.home:
            problems.append(f"corps {c.id}: a {c.kind} corps names its home areas (§10.1.3.3.1, §10.1.4.1.3)")
    for i in data.irregulars:
        power(f"irregular {i.id}", i.power)
        area(f"irregular {i.id}", i.area)
        area(f"irregular {i.id}", i.enters.area if i.enters else None)
        if (i.area is None) == (i.enters is None):
            problems.append(f"irregular {i.id}: give either its area or when it enters")
        if i.kind != "guerrilla" and i.factors != 1:
            problems.append(f"irregular {i.id}: a {i.kind} counter is exactly one factor (§2.4.1)")
    for province in data.provinces:
        power(f"province {province.name}", province.power)
        for name in province.areas:
            area(f"province {province.name}", name)
    counters = {c.id: c for c in data.corps}
    for lead in data.leaders:
        power(f"leader {lead.id}", lead.power)
        if lead.corps not in counters or counters[lead.corps].power != lead.power:
            problems.append(f"leader {lead.id}: {lead.corps!r} is not a corps of {lead.power}")
    for d in data.depots:
        power(f"depot at {d.area}", d.power)
        area(f"depot of {d.power}", d.area)
    for g in data.garrisons:
        power(f"garrison at {g.area}", g.power)
        area(f"garrison of {g.power}", g.area)
        factors(f"garrison at {g.area}", g.factors)
        if g.area in scenario.areas and scenario.areas[g.area].city is None:
            problems.append(f"garrison at {g.area}: the area has no city")
    problems += _cities_held(scenario)
    for r in data.reinforcements:
        power(f"reinforcement {r.year}-{r.month}", r.power)
        area(f"reinforcement {r.year}-{r.month}", r.area)
        factors(f"reinforcement {r.year}-{r.month}", r.factors)
    for arrival in data.corps_arrivals:
        where = f"corps arrival {arrival.year}-{arrival.month}"
        power(where, arrival.power)
        for name in arrival.areas:
            area(where, name)
        factors(where, arrival.factors)
    for m in data.money:
        power(f"money {m.year}-{m.month}", m.power)
    capitals = {a.owner for a in data.areas if a.city is not None and a.city.capital}
    for v in data.victory:
        power("victory", v.power)
        for name in v.holds:
            area(f"victory of {v.power}", name)
        for code in v.capitals:
            power(f"victory of {v.power}", code)
            if code in codes and code not in capitals:
                problems.append(f"victory of {v.power}: {code} has no capital city in the scenario")
        if not (v.holds or v.capitals or v.enemy_corps_lost or v.enemy_factors_lost):
            problems.append(f"victory of {v.power}: give at least one condition (holds, capitals, "
                            "enemy_corps_lost, enemy_factors_lost)")
        if v.at is not None and not ((data.start.year, data.start.month) <= (v.at.year, v.at.month)
                                     <= (data.end.year, data.end.month)):
            problems.append(f"victory of {v.power}: {v.at.year}-{v.at.month} is not a month of the scenario")
    return problems


def _cities_held(scenario: Scenario) -> list[str]:
    """Corps that start inside a city (§7.3.4): the area has a city, held by their power alone,
    and it holds them with its garrison, 5 factors a spire (§7.3.3.4, §7.5.1.1.4)."""
    problems = []
    for area_id in dict.fromkeys(c.area for c in scenario.data.corps if c.inside and c.area):
        city = scenario.areas[area_id].city if area_id in scenario.areas else None
        inside = [c for c in scenario.data.corps if c.inside and c.area == area_id]
        garrisons = [g for g in scenario.data.garrisons if g.area == area_id]
        if city is None:
            problems += [f"corps {c.id}: {area_id} has no city to be inside" for c in inside]
            continue
        powers = sorted({c.power for c in inside} | {g.power for g in garrisons})
        if len(powers) > 1:
            problems.append(f"city of {area_id}: held by {' and '.join(powers)} at once")
        held = sum(sum(c.factors.values()) for c in inside) + sum(sum(g.factors.values()) for g in garrisons)
        if held > 5 * city.spires:
            problems.append(f"city of {area_id}: {held} factors inside, more than its {5 * city.spires}")
    return problems
