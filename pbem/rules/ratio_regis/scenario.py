"""Scenario data for Ratio Regis (§7, §33; DESIGN §7).

A scenario is a TOML file validated by the pydantic models below. The rulebook's map,
power cards and event cards are images in the source, so shipped scenarios are
invented and mark every invented element `synthetic: true`. `check_scenario` finds
what the schema cannot: asymmetric adjacency, unknown ids, unreachable areas and
card tables with holes.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pbem.core.ruleset import ScenarioError

#: §8.1.4: cards per turn by number of players (a scenario may override any entry).
DECK_SIZE_TABLE: dict[int, int] = {3: 39, 4: 40, 5: 40, 6: 42, 7: 42, 8: 48}

#: The two troop counter types of a power card (§9.1): regular side first.
COUNTER_TYPES = ("2-3", "3-4")

FIRST_GAME_YEAR = 1490
YEARS_PER_TURN = 15
LAST_GAME_TURN = 20


class _Element(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    synthetic: bool = False


class DispersionBox(_Element):
    id: str
    name: str


class Theater(_Element):
    """A theater of operations with its dispersion box(es) (§18.1; WE has two)."""

    id: str
    name: str
    boxes: list[DispersionBox] = Field(min_length=1)


class Area(_Element):
    id: str
    name: str
    theater: str
    box: str | None = None  # the dispersion box it belongs to; the theater's only box if omitted
    x: int
    y: int
    stacking: int = 4  # §15.1: 4 on the main map, 2 in mini-map domains, 1 elsewhere
    key: bool = False
    port: bool = False  # commercial port
    seas: list[str] = []  # adjacent seas (coastal area)
    adjacent: list[str] = []
    possessor: str | None = None
    controller: str | None = None  # defaults to the possessor
    active: bool = True  # inactive areas do not exist for play (§7.2, §18.2.1)


class Sea(_Element):
    id: str
    name: str
    x: int
    y: int
    adjacent: list[str] = []


class Power(_Element):
    """A major power's card (§3.2, §24): the parts the sequence of play needs."""

    code: str = Field(pattern=r"^[A-Z]{3}$")
    name: str
    vitality: int = Field(ge=0)
    income: int = Field(ge=0)
    troops: dict[Literal["2-3", "3-4"], int] = {}  # available counters by type
    home_areas: list[str] = []
    enters: int | None = None  # the turn a power entering later deploys (§8.1.2)


class Group(_Element):
    name: str
    powers: list[str] = Field(min_length=1)
    starting_vp: int = 0
    vp_per_turn: int = 0


class PlayerSetup(_Element):
    """The power groups for one number of players (§7.1, §33)."""

    players: int = Field(ge=1, le=8)
    groups: list[Group] = Field(min_length=1)


class Deployment(_Element):
    """Troops a power starts with; `turn` defaults to the power's entry turn."""

    power: str
    counter: Literal["2-3", "3-4"]
    area: str | None = None
    box: str | None = None
    count: int = Field(default=1, ge=1)


class Card(_Element):
    number: int = Field(ge=1)
    title: str
    kind: Literal["historical", "generic"]
    points: int = Field(ge=0)
    priority: Literal["always", "hand4", "none"] = "none"  # §8.2.2 "Card play"
    combat: bool = False
    turns: tuple[int, int] | None = None  # historical cards: first and last turn in play


class DeckRules(_Element):
    sizes: dict[int, int] = {}  # overrides of DECK_SIZE_TABLE by number of players
    excluded: list[int] = []  # card numbers the scenario removes from the game (§26.4)


class TurnRule(_Element):
    turn: int
    text: str


class ScenarioData(_Element):
    id: str
    title: str
    ruleset: Literal["ratio-regis"] = "ratio-regis"
    rules_version: str = "1.2.4"
    first_turn: int = Field(ge=1)
    last_turn: int = Field(ge=1)
    theaters: list[Theater] = Field(min_length=1)
    areas: list[Area] = Field(min_length=1)
    seas: list[Sea] = []
    powers: list[Power] = Field(min_length=1)
    player_setups: list[PlayerSetup] = Field(min_length=1)
    deployment: list[Deployment] = []
    cards: list[Card] = []
    deck: DeckRules = DeckRules()
    turn_rules: list[TurnRule] = []


class Scenario:
    """A validated scenario with the look-ups the rules use."""

    def __init__(self, data: ScenarioData):
        self.data = data
        self.areas = {a.id: a for a in data.areas}
        self.seas = {s.id: s for s in data.seas}
        self.theaters = {t.id: t for t in data.theaters}
        self.powers = {p.code: p for p in data.powers}
        self.cards = {c.number: c for c in data.cards}
        self.power_order = [p.code for p in data.powers]

    # -- areas and boxes --------------------------------------------------
    def box_of(self, area_id: str) -> str:
        area = self.areas[area_id]
        return area.box or self.theaters[area.theater].boxes[0].id

    @cached_property
    def boxes(self) -> dict[str, tuple[str, DispersionBox]]:
        """Every dispersion box id -> (its theater id, the box)."""
        return {b.id: (t.id, b) for t in self.data.theaters for b in t.boxes}

    def find_area(self, word: str) -> str | None:
        """An active area's id from its id or name, ignoring case."""
        return self._area_names.get(word.lower())

    @cached_property
    def _area_names(self) -> dict[str, str]:
        names = {}
        for area in self.data.areas:
            if area.active:
                names[area.name.lower()] = area.id
                names[area.id.lower()] = area.id
        return names

    @cached_property
    def area_words(self) -> list[str]:
        return [a.id for a in self.data.areas if a.active]

    def home_box(self, power: str) -> str:
        """The dispersion box of the power's home (§8.2.2, §18.1): the box holding most of
        its home areas; ties go to the scenario's box order (RR-I6)."""
        counts = {box: 0 for box in self.boxes}
        for area in self.powers[power].home_areas:
            counts[self.box_of(area)] += 1
        return max(counts, key=lambda box: (counts[box], -list(self.boxes).index(box)))

    def home_theater(self, power: str) -> str:
        """The theater with most of the power's home areas (§9.1); ties by scenario order (RR-I6)."""
        order = list(self.theaters)
        counts = {t: 0 for t in order}
        for area in self.powers[power].home_areas:
            counts[self.areas[area].theater] += 1
        return max(order, key=lambda t: (counts[t], -order.index(t)))

    # -- players and cards ------------------------------------------------
    def setup_for(self, players: int) -> PlayerSetup | None:
        return next((s for s in self.data.player_setups if s.players == players), None)

    def deck_size(self, players: int) -> int | None:
        return self.data.deck.sizes.get(players, DECK_SIZE_TABLE.get(players))

    def historical_cards(self, turn: int) -> list[Card]:
        """Historical cards in play this turn, less the scenario's exclusions (§8.1.4)."""
        excluded = set(self.data.deck.excluded)
        return [c for c in self.data.cards if c.kind == "historical" and c.number not in excluded
                and c.turns is not None and c.turns[0] <= turn <= c.turns[1]]

    def generic_cards(self) -> list[Card]:
        excluded = set(self.data.deck.excluded)
        return [c for c in self.data.cards if c.kind == "generic" and c.number not in excluded]

    def turn_label(self, turn: int) -> str:
        start = FIRST_GAME_YEAR + (turn - 1) * YEARS_PER_TURN
        return f"Turn {turn} ({start}–{start + YEARS_PER_TURN - 1})"


def load_scenario(raw: Mapping[str, Any]) -> Scenario:
    """Validate scenario data; every schema problem is listed (§7, DESIGN §7)."""
    try:
        data = ScenarioData.model_validate(dict(raw))
    except ValidationError as error:
        raise ScenarioError([_describe(e) for e in error.errors()]) from None
    problems = _duplicates(data)
    if problems:
        raise ScenarioError(problems)
    return Scenario(data)


def _describe(error: Any) -> str:
    where = ".".join(str(part) for part in error["loc"]) or "scenario"
    return f"{where}: {error['msg']}"


def _duplicates(data: ScenarioData) -> list[str]:
    problems = []
    lists = {
        "area or sea id": [a.id for a in data.areas] + [s.id for s in data.seas],
        "theater id": [t.id for t in data.theaters],
        "dispersion box id": [b.id for t in data.theaters for b in t.boxes],
        "power code": [p.code for p in data.powers],
        "card number": [c.number for c in data.cards],
        "player count": [s.players for s in data.player_setups],
    }
    for what, values in lists.items():
        seen: set = set()
        for value in values:
            if value in seen:
                problems.append(f"duplicate {what} {value!r}")
            seen.add(value)
    return problems


def check_scenario(scenario: Scenario) -> list[str]:
    """Consistency problems a schema cannot see (DESIGN §7)."""
    data = scenario.data
    problems: list[str] = []
    if data.first_turn > data.last_turn:
        problems.append(f"first_turn {data.first_turn} is after last_turn {data.last_turn}")
    if data.last_turn > LAST_GAME_TURN and not data.synthetic:
        problems.append(f"last_turn {data.last_turn}: the game has {LAST_GAME_TURN} turns (§1); only a synthetic "
                        "scenario may run longer")
    problems += _check_map(scenario)
    problems += _check_powers(scenario)
    problems += _check_setups(scenario)
    problems += _check_deck(scenario)
    return problems


def _check_map(scenario: Scenario) -> list[str]:
    problems = []
    areas, seas = scenario.areas, scenario.seas
    for area in scenario.data.areas:
        if area.theater not in scenario.theaters:
            problems.append(f"area {area.id}: unknown theater {area.theater!r}")
        elif area.box is not None and area.box not in [b.id for b in scenario.theaters[area.theater].boxes]:
            problems.append(f"area {area.id}: box {area.box!r} is not a dispersion box of {area.theater}")
        for other in area.adjacent:
            if other not in areas:
                problems.append(f"area {area.id}: unknown adjacent area {other!r}")
            elif area.id not in areas[other].adjacent:
                problems.append(f"adjacency is not symmetric: {area.id} lists {other} but {other} does not list {area.id}")
        for sea in area.seas:
            if sea not in seas:
                problems.append(f"area {area.id}: unknown sea {sea!r}")
        for who, field in (("possessor", area.possessor), ("controller", area.controller)):
            if field is not None and field not in scenario.powers:
                problems.append(f"area {area.id}: unknown {who} {field!r}")
    for sea in scenario.data.seas:
        for other in sea.adjacent:
            if other not in seas:
                problems.append(f"sea {sea.id}: unknown adjacent sea {other!r}")
            elif sea.id not in seas[other].adjacent:
                problems.append(f"adjacency is not symmetric: {sea.id} lists {other} but {other} does not list {sea.id}")
    problems += [f"area {a} cannot be reached from {scenario.data.areas[0].id}" for a in _unreachable(scenario)]
    return problems


def _unreachable(scenario: Scenario) -> list[str]:
    """Active areas not connected to the first one by land links, coasts and seas."""
    graph: dict[str, set[str]] = {}
    for area in scenario.data.areas:
        if not area.active:
            continue
        graph.setdefault(area.id, set()).update(
            a for a in area.adjacent if a in scenario.areas and scenario.areas[a].active)
        for sea in area.seas:
            graph[area.id].add(sea)
            graph.setdefault(sea, set()).add(area.id)
    for sea in scenario.data.seas:
        graph.setdefault(sea.id, set()).update(s for s in sea.adjacent if s in scenario.seas)
    start = next((a.id for a in scenario.data.areas if a.active), None)
    seen, frontier = {start}, [start]
    while frontier:
        for neighbour in sorted(graph.get(frontier.pop(), ())):
            if neighbour not in seen:
                seen.add(neighbour)
                frontier.append(neighbour)
    return [a.id for a in scenario.data.areas if a.active and a.id not in seen]


def _check_powers(scenario: Scenario) -> list[str]:
    problems = []
    for power in scenario.data.powers:
        for area in power.home_areas:
            if area not in scenario.areas:
                problems.append(f"power {power.code}: unknown home area {area!r}")
    placed: dict[tuple[str, str], int] = {}
    stacks: dict[str, int] = {}
    for entry in scenario.data.deployment:
        if entry.power not in scenario.powers:
            problems.append(f"deployment: unknown power {entry.power!r}")
            continue
        if (entry.area is None) == (entry.box is None):
            problems.append(f"deployment of {entry.power}: give exactly one of area or box")
        elif entry.area is not None and entry.area not in scenario.areas:
            problems.append(f"deployment of {entry.power}: unknown area {entry.area!r}")
        elif entry.box is not None and entry.box not in scenario.boxes:
            problems.append(f"deployment of {entry.power}: unknown dispersion box {entry.box!r}")
        elif entry.area is not None:
            stacks[entry.area] = stacks.get(entry.area, 0) + entry.count
        key = (entry.power, entry.counter)
        placed[key] = placed.get(key, 0) + entry.count
    for (power, counter), count in sorted(placed.items()):
        if power in scenario.powers and count > scenario.powers[power].troops.get(counter, 0):
            problems.append(f"deployment of {power}: {count} {counter} troops placed but its card has "
                            f"{scenario.powers[power].troops.get(counter, 0)}")
    for area, count in sorted(stacks.items()):
        if count > scenario.areas[area].stacking:
            problems.append(f"deployment: {count} troops in {area} exceed its stacking limit "
                            f"{scenario.areas[area].stacking} (§15.1)")
    return problems


def _check_setups(scenario: Scenario) -> list[str]:
    problems = []
    for setup in scenario.data.player_setups:
        if len(setup.groups) != setup.players:
            problems.append(f"{setup.players} players: {len(setup.groups)} power groups (one per player is needed)")
        seen: set[str] = set()
        for group in setup.groups:
            for code in group.powers:
                if code not in scenario.powers:
                    problems.append(f"{setup.players} players, group {group.name}: unknown power {code!r}")
                elif code in seen:
                    problems.append(f"{setup.players} players: power {code} is in two groups")
                seen.add(code)
    return problems


def _check_deck(scenario: Scenario) -> list[str]:
    """Every player count must have a deck size the cards can fill in every turn (§8.1.4)."""
    problems = []
    for number in scenario.data.deck.excluded:
        if number not in scenario.cards:
            problems.append(f"deck: excluded card {number} does not exist")
    for card in scenario.data.cards:
        if card.kind == "historical" and card.turns is None:
            problems.append(f"card {card.number} ({card.title}): a historical card needs turns = [first, last]")
    generic = len(scenario.generic_cards())
    for setup in scenario.data.player_setups:
        size = scenario.deck_size(setup.players)
        if size is None:
            problems.append(f"deck: no deck size for {setup.players} players (the §8.1.4 table starts at 3; "
                            f"add deck.sizes)")
            continue
        if size % setup.players:
            problems.append(f"deck: {size} cards cannot be dealt equally to {setup.players} players")
        for turn in range(scenario.data.first_turn, scenario.data.last_turn + 1):
            needed = size - len(scenario.historical_cards(turn))
            if needed > generic:
                problems.append(f"deck: turn {turn} with {setup.players} players needs {needed} generic cards "
                                f"but only {generic} are in the game")
    return problems
