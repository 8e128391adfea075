"""A scenario of EU: The Price of Power as data (§3 Game Setup), validated by pydantic, and
the check `pbem scenario check` runs on it once the ruleset exists.

The edition's fixed data — the map (`board.py`), the Player Mat (`realms.py`), the dice
(`dice.py`) and the cards (`cards.py`) — sits in its edition file (`pbem.core.datafile`); a scenario adds the seating
and First Player, the Ages it plays, each Player Realm's start, the NPRs, the HRE and the
Papal Curia, and its decks: the Events of each Age in two halves (§16), and the Action,
Trade, Idea and Milestone cards in play. `check_scenario` names what a schema cannot see:
unknown ids, one-sided adjacency, unreachable Areas, holes in tables, counts the rulebook
fixes, cards dealt whose text the file lacks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import Field

from pbem.core.ruleset import checked_scenario
from pbem.rules.eu_price_of_power.board import (Area, Board, Province, Region, SeaZone, TradeNode, check_board,
                                                unknown)
from pbem.rules.eu_price_of_power.cards import (ActionCard, EventCard, IdeaCard, MilestoneCard, MissionCard,
                                                TradeCard)
from pbem.rules.eu_price_of_power.dice import Die, check_dice
from pbem.rules.eu_price_of_power.effects import references
from pbem.rules.eu_price_of_power.realms import Mat, NonPlayerRealm, PlayerRealm, check_mat
from pbem.rules.eu_price_of_power.sources import Strict

#: §16.1: "All scenarios must include 8 A-Events per Age."
A_EVENTS_PER_AGE = 8
#: §16.1: "There are 2 Realm-specific Events per Age for each of the Major Powers".
REALM_EVENTS_PER_AGE = 2
#: Component list (Standard Ed.): "Action Cards (108)", "Trade Cards (44)", "Event Cards
#: (110/221)", "Mission Cards (88/160)", "Milestone Cards (48/64)", "Idea Cards (21/30)".
STANDARD_EDITION = {"action_cards": 108, "trade_cards": 44, "events": 110, "missions": 88, "milestones": 48,
                    "ideas": 21}
#: §2: 2–6 players in the multiplayer rules.
PLAYERS = range(2, 7)


class EditionInfo(Strict):
    """The edition file's identity; `complete`: it claims every card of the Standard
    Edition, so the component list's counts apply."""

    id: str
    title: str
    synthetic: bool = False
    complete: bool = False


class Hre(Strict):
    emperor: str  # the Emperor's realm, a PR or an NPR (§18.8)
    authority: int = Field(3, ge=0, le=6)  # §18.1: "the Emperor starts with +3" in a 1444 setup


class Curia(Strict):
    """The Papal Curia at the start (§19.1): Roma, its Cardinal's Province, and the PRs'
    Cardinals in slots 1–6, left to right."""

    roma: str
    cardinals: list[str] = Field([], max_length=6)


class EventDeck(Strict):
    """An Age's Events in the scenario's two halves, shuffled apart, the first on top (§16)."""

    age: int = Field(ge=1, le=4)
    first: list[str]
    second: list[str]


class Decks(Strict):
    events: list[EventDeck] = Field(min_length=1)
    action: list[str] = Field(min_length=1)
    trade: list[str] = Field(min_length=1)  # the starting Trade Deck (§3)
    distant_trade: list[str] = []  # set aside until their Distant Continent is discovered (§12.6)
    ideas: list[str] = Field(min_length=1)
    milestones: list[str] = Field(min_length=1)


class ScenarioData(Strict):
    id: str
    title: str
    ruleset: str = "eu-price-of-power"
    synthetic: bool = False
    edition: EditionInfo | None = None
    seating: list[str]  # the PRs clockwise (§3 step 1)
    first_player: str  # the scenario's first First Player (§4.2)
    events_per_round: int | None = Field(None, ge=1)  # §16.2: players + 1 unless the scenario says otherwise
    realms: list[PlayerRealm]
    nprs: list[NonPlayerRealm] = []
    hre: Hre | None = None
    curia: Curia | None = None
    decks: Decks
    # The edition's tables.
    regions: list[Region]
    areas: list[Area]
    provinces: list[Province]
    seas: list[SeaZone] = []
    nodes: list[TradeNode] = []
    mat: Mat
    dice: list[Die]
    action_cards: list[ActionCard] = []
    events: list[EventCard] = []
    missions: list[MissionCard] = []
    milestones: list[MilestoneCard] = []
    ideas: list[IdeaCard] = []
    trade_cards: list[TradeCard] = []


@dataclass(frozen=True, eq=False)
class Scenario:
    """A validated scenario with its lookups."""

    data: ScenarioData
    board: Board = field(init=False)
    realms: dict[str, PlayerRealm | NonPlayerRealm] = field(init=False)

    def __post_init__(self) -> None:
        d = self.data
        object.__setattr__(self, "board", Board.of(d.regions, d.areas, d.provinces, d.seas, d.nodes))
        object.__setattr__(self, "realms", {r.tag: r for r in [*d.realms, *d.nprs]})

    @cached_property
    def holders(self) -> dict[str, str]:
        """Each Province's realm at the start: its Town's, its Vassal token's or its NPR's
        (the first listed where the data gives two, which the check names)."""
        held: dict[str, str] = {}
        for realm in self.data.realms:
            for province in [*realm.towns, *realm.vassals]:
                held.setdefault(province, realm.tag)
        for npr in self.data.nprs:
            for province in npr.provinces:
                held.setdefault(province, npr.tag)
        return held

    @property
    def ages(self) -> list[int]:
        return [deck.age for deck in self.data.decks.events]

    @property
    def events_per_round(self) -> int:
        return self.data.events_per_round or len(self.data.seating) + 1


def load_scenario(raw: Mapping[str, Any]) -> Scenario:
    """Validate scenario data; every problem is listed."""
    return checked_scenario(ScenarioData, raw, Scenario, check_scenario)


def check_scenario(scenario: Scenario) -> list[str]:
    """Everything a schema cannot see, each problem named."""
    d = scenario.data
    problems = _duplicates(d) + check_board(scenario.board) + check_mat(d.mat) + check_dice(d.dice)
    problems += _seating(scenario) + _holdings(scenario) + _institutions(scenario)
    problems += _events(scenario) + _cards(scenario) + _edition_counts(d)
    return problems


def _duplicates(d: ScenarioData) -> list[str]:
    tables: dict[str, Iterable[str]] = {
        "region": (r.id for r in d.regions), "area": (a.id for a in d.areas),
        "province": (p.id for p in d.provinces), "sea zone": (s.id for s in d.seas), "node": (n.id for n in d.nodes),
        "realm": (r.tag for r in [*d.realms, *d.nprs]), "action card": (c.id for c in d.action_cards),
        "event": (c.id for c in d.events), "mission": (c.id for c in d.missions),
        "milestone": (c.id for c in d.milestones), "idea": (c.id for c in d.ideas),
        "trade card": (c.id for c in d.trade_cards)}
    problems = []
    for what, ids in tables.items():
        counts = Counter(ids)
        problems += [f"{what} {i} is given twice" for i in sorted(i for i, n in counts.items() if n > 1)]
    spaces = Counter([a.id for a in d.areas] + [s.id for s in d.seas])
    problems += [f"{i} is both an area and a sea zone" for i in sorted(i for i, n in spaces.items() if n > 1)]
    return problems


def _seating(scenario: Scenario) -> list[str]:
    d = scenario.data
    tags = [r.tag for r in d.realms]
    problems = []
    if sorted(d.seating) != sorted(tags):
        problems.append(f"seating must name every player realm once ({', '.join(tags)}), not {', '.join(d.seating)}")
    if len(tags) not in PLAYERS:
        problems.append(f"{len(tags)} player realms: the multiplayer rules are for 2 to 6 players (§2)")
    if d.first_player not in tags:
        problems.append(f"first_player {d.first_player!r} is not a player realm")
    return problems


def _holdings(scenario: Scenario) -> list[str]:
    """Every realm's pieces on known places, one realm's piece to a Province, within the
    supply the rulebook gives, and the units a PR's Manpower can field."""
    d, board, problems = scenario.data, scenario.board, []
    holder = scenario.holders
    for realm in [*d.realms, *d.nprs]:
        held = [*realm.towns, *realm.vassals] if isinstance(realm, PlayerRealm) else realm.provinces
        problems += unknown(f"realm {realm.tag}", "province", held, board.provinces)
        problems += [f"province {p}: held by both {holder[p]} and {realm.tag}" for p in held
                     if p in holder and holder[p] != realm.tag]
        problems += [f"realm {realm.tag}: province {p} is listed twice" for p, n in sorted(Counter(held).items())
                     if n > 1]
    for realm in d.realms:
        problems += _player_pieces(scenario, realm)
    for npr in d.nprs:
        problems += [f"realm {npr.tag}: +1 Manpower token on {p}, not one of its provinces (§13.4)"
                     for p in npr.manpower if p not in npr.provinces]
        if npr.overlord is not None and (npr.overlord == npr.tag or not isinstance(
                scenario.realms.get(npr.overlord), NonPlayerRealm)):
            problems.append(f"realm {npr.tag}: its overlord {npr.overlord!r} is not another NPR (§13.2)")
        if npr.ally is not None and not isinstance(scenario.realms.get(npr.ally), PlayerRealm):
            problems.append(f"realm {npr.tag}: its ally {npr.ally!r} is not a player realm (§11.3)")
    problems += [f"province {p}: no realm holds it at the start (§2.2: each Province shows its Realm's flag)"
                 for p in board.provinces if p not in holder]
    for realm in [*d.realms, *d.nprs]:
        capital = board.provinces.get(realm.capital)
        if capital is not None and not capital.capital:
            problems.append(f"realm {realm.tag}: its capital {realm.capital} is not a Capital on the map (§2.2)")
    influence: Counter[str] = Counter()
    for realm in d.realms:
        influence.update(realm.influence)
    problems += [f"area {a}: {n} Influence, more than 5 (§11.1)" for a, n in sorted(influence.items()) if n > 5]
    return problems


def _player_pieces(scenario: Scenario, realm: PlayerRealm) -> list[str]:
    board, mat = scenario.board, scenario.data.mat
    where = f"realm {realm.tag}"
    problems = unknown(where, "area", [*realm.claims, *realm.cores, *realm.influence], board.areas)
    towns = [board.provinces[p] for p in realm.towns if p in board.provinces]
    large = min(sum(1 for p in towns if p.tax_value == 2), mat.large_towns.pieces)
    # Small Towns: one a Small Province, and two a Large Province past the Large Towns (§7.5).
    small = sum(p.tax_value for p in towns) - 2 * large
    if small > 2 * mat.small_towns.pieces:
        problems.append(f"{where}: more Towns than its supply (§7.5)")
    tokens = sum(board.provinces[p].tax_value for p in realm.vassals if p in board.provinces)
    if tokens > mat.vassals.pieces:
        problems.append(f"{where}: {tokens} Vassal tokens, more than its {mat.vassals.pieces} (§11.4)")
    problems += [f"{where}: Claim twice in {a} (one per Area, §16.3)" for a, n in sorted(Counter(realm.claims).items())
                 if n > 1]
    problems += [f"{where}: Influence in {a}, on a Distant Continent (§5.4)" for a in realm.influence
                 if board.distant(a)]
    manpower = sum(getattr(mat, track).shown(placed)[1] for track, placed in
                   (("small_towns", small), ("large_towns", large), ("vassals", tokens)))
    regulars = sum(a.infantry + a.cavalry + a.artillery for a in realm.armies)
    if regulars > manpower:
        problems.append(f"{where}: {regulars} Regular Units in its Armies, more than its Manpower {manpower} "
                        "(§3, §9.3)")
    owned = set(realm.towns)
    problems += [f"{where}: a Core token in {a}, where it does not Own every Province (§7.6)" for a in realm.cores
                 if a in board.areas and not set(board.in_area[a]) <= owned]
    problems += unknown(f"{where} army", "area", (army.area for army in realm.armies), board.areas)
    if realm.fleet is not None:
        problems += _fleet(scenario, realm)
    problems += [f"{where}: two Merchants in {n} (one per node, §12.4)" for n, c in Counter(realm.merchants).items()
                 if c > 1]
    problems += unknown(f"{where} merchant", "node", realm.merchants, board.nodes)
    missions = {m.id: m for m in scenario.data.missions}
    problems += unknown(f"{where} missions", "mission", realm.missions, missions)
    problems += [f"{where}: mission {m} is of {missions[m].realm}'s deck (§17.2)" for m in realm.missions
                 if m in missions and missions[m].realm not in (realm.tag, "generic")]
    starting = [m for m in realm.missions if m in missions and missions[m].starting]
    if realm.missions and len(starting) < 2:
        problems.append(f"{where}: its Mission deck has {len(starting)} Starting Missions; a player picks 2 (§3)")
    return problems


def _fleet(scenario: Scenario, realm: PlayerRealm) -> list[str]:
    board, fleet = scenario.board, realm.fleet
    where = f"realm {realm.tag} fleet"
    port = board.provinces.get(fleet.at)
    if fleet.at not in board.seas and (port is None or port.port is None):
        return [f"{where}: {fleet.at!r} is neither a sea zone nor a port"]
    problems = []
    if fleet.light + fleet.heavy + fleet.galleys > 15:
        problems.append(f"{where}: more than its 15 Ships (§9)")
    slots = board.seas[fleet.at].trade_slots if fleet.at in board.seas else 0
    if fleet.protecting > min(fleet.light, slots):
        problems.append(f"{where}: more Light Ships protecting trade than it has or than the zone has slots, at sea "
                        "(§12.3)")
    if fleet.galleys and fleet.at in board.seas and board.seas[fleet.at].galleys is None:
        problems.append(f"{where}: galleys in {fleet.at}, a zone with no * or † (§2.2)")
    return problems


def _institutions(scenario: Scenario) -> list[str]:
    d, problems = scenario.data, []
    hre_areas = [a.id for a in d.areas if a.hre]
    if d.hre is None and hre_areas:
        problems.append("the map has HRE areas but the scenario names no Emperor (§18)")
    if d.hre is not None:
        if not hre_areas:
            problems.append("the scenario names an Emperor but no area lies inside the HRE (§18)")
        emperor = scenario.realms.get(d.hre.emperor)
        capital = scenario.board.provinces.get(emperor.capital) if emperor is not None else None
        area = scenario.board.areas.get(capital.area) if capital is not None else None
        if emperor is None:
            problems.append(f"hre: unknown emperor {d.hre.emperor!r}")
        elif area is not None and not area.hre:
            problems.append(f"hre: the Emperor {emperor.tag}'s capital lies outside the HRE, so it is no member "
                            "(§18.3)")
    if d.curia is not None:
        if d.curia.roma not in scenario.board.provinces:
            problems.append(f"curia: unknown province {d.curia.roma!r} for Roma")
        players = {r.tag: r for r in d.realms}
        for tag in d.curia.cardinals:
            if tag not in players:
                problems.append(f"curia: cardinal of {tag!r}, not a player realm (§19.1)")
            elif players[tag].religion != "catholic":
                problems.append(f"curia: cardinal of {tag}, which is not Catholic (§15, §19)")
    return problems


def _events(scenario: Scenario) -> list[str]:
    """Each Age's deck: known Events of that Age, sorted into the halves their marks allow,
    8 A-Events, and each player realm's 2 Realm-specific Events and no other realm's (§16)."""
    d, problems = scenario.data, []
    events = {e.id: e for e in d.events}
    ages = scenario.ages
    if ages != list(range(ages[0], ages[0] + len(ages))):
        problems.append(f"decks.events: the Ages follow each other, not {ages} (§16)")
    seen: Counter[str] = Counter()
    players = {r.tag for r in d.realms}
    for deck in d.decks.events:
        where = f"Age {deck.age} events"
        seen.update(deck.first + deck.second)
        cards = [events[i] for i in deck.first + deck.second if i in events]
        problems += unknown(where, "event", deck.first + deck.second, events)
        problems += [f"{where}: event {e.id} is of Age {e.age}" for e in cards if e.age != deck.age]
        for half, wrong in ((deck.first, "2"), (deck.second, "1")):
            problems += [f"{where}: event {i} is marked ({wrong}) and goes in the other half (§16)"
                         for i in half if i in events and events[i].half == wrong]
        a_events = sum(1 for e in cards if e.kind == "A")
        if a_events != A_EVENTS_PER_AGE:
            problems.append(f"{where}: {a_events} A-Events; every scenario includes {A_EVENTS_PER_AGE} per Age "
                            "(§16.1)")
        by_realm = Counter(e.realm for e in cards if e.realm is not None)
        problems += [f"{where}: {by_realm[tag]} Events of {tag}; each player realm has {REALM_EVENTS_PER_AGE} per Age "
                     "(§16.1)" for tag in sorted(players) if by_realm[tag] != REALM_EVENTS_PER_AGE]
        problems += [f"{where}: Events of {tag}, which is not a player realm (§16.1)"
                     for tag in sorted(by_realm) if tag not in players]
        problems += _complete(where, cards)
    problems += [f"event {i} is dealt twice" for i, n in sorted(seen.items()) if n > 1]
    return problems


def _cards(scenario: Scenario) -> list[str]:
    """The decks' cards known and complete, the Idea grid and Milestones the set-up draws
    (§3, §17.3), Mission and Idea links, Trade Cards' income tables, and every realm, Area,
    Province, node and Idea the cards in play name."""
    d, problems = scenario.data, []
    trade = {c.id: c for c in d.trade_cards}
    tables = {"action": {c.id: c for c in d.action_cards}, "trade": trade, "distant_trade": trade,
              "ideas": {c.id: c for c in d.ideas}, "milestones": {c.id: c for c in d.milestones}}
    dealt: list[Any] = []
    for deck, table in tables.items():
        ids = getattr(d.decks, deck)
        problems += unknown(f"decks.{deck}", "card", ids, table)
        dealt += [table[i] for i in ids if i in table]
    problems += _complete("decks", dealt)
    ideas = [tables["ideas"][i] for i in d.decks.ideas if i in tables["ideas"]]
    first_age = scenario.ages[0]
    basic = sorted(i.type for i in ideas if i.basic)
    if basic != ["adm", "dip", "mil"]:
        problems.append(f"decks.ideas: the 3 Basic Ideas are one of each type (§3), not {basic}")
    for kind in ("adm", "dip", "mil"):
        drawn = sum(1 for i in ideas if i.type == kind and not i.basic and i.age <= first_age)
        if drawn < 2:
            problems.append(f"decks.ideas: {drawn} {kind} Ideas of Age {first_age} or earlier; the grid draws 2 (§3)")
    milestones = [tables["milestones"][i] for i in d.decks.milestones if i in tables["milestones"]]
    for age in scenario.ages:
        missing = sorted({"expansion", "politics", "warfare", "economics"} - {m.category for m in milestones
                                                                              if m.age == age})
        if missing:
            problems.append(f"decks.milestones: no Age {age} Milestone for {', '.join(missing)} (§17.3)")
    problems += _mission_links(d.missions)
    for idea in d.ideas:
        problems += unknown(f"idea {idea.id}", "prerequisite", idea.prerequisites, tables["ideas"])
    problems += [f"decks.distant_trade: card {i} names no Distant Continent (§12.6)" for i in d.decks.distant_trade
                 if i in trade and not trade[i].continents]
    for card in dealt:
        if isinstance(card, TradeCard):
            problems += _trade_card(scenario, card)
    played = [*dealt, *(m for m in d.missions if any(m.id in r.missions for r in d.realms)),
              *(e for e in d.events if any(e.id in deck.first + deck.second for deck in d.decks.events))]
    problems += _named(scenario, played)
    return problems


def _complete(where: str, cards: Iterable[Any]) -> list[str]:
    """A card the rulebook gives only in part cannot be dealt: the game would reach what the
    file lacks (its `source.gaps`)."""
    return [f"{where}: card {c.id} ({c.title}) is given only in part by the rulebook ({'; '.join(c.source.gaps)}); "
            "type in the printed card or deal a synthetic one" for c in cards if c.source is not None and c.source.gaps]


def _mission_links(missions: list[MissionCard]) -> list[str]:
    """A Mission's prerequisites and unlocks are known and name it in return (§17.2)."""
    table = {m.id: m for m in missions}
    problems = []
    for mission in missions:
        for mine, theirs in (("prerequisites", "unlocks"), ("unlocks", "prerequisites")):
            for name in getattr(mission, mine):
                if name not in table:
                    problems.append(f"mission {mission.id}: unknown {mine[:-1]} {name!r}")
                elif mission.id not in getattr(table[name], theirs):
                    problems.append(f"mission {mission.id} lists {name} among its {mine} but {name} does not list "
                                    f"it among its {theirs}")
    return problems


def _trade_card(scenario: Scenario, card: TradeCard) -> list[str]:
    """Known nodes and Key Provinces, linked continents on the map, and an income table
    with no hole: rows from 1 Trade Power up, each starting where the one below ends, the
    top one open, more Ducats higher up and at Expanded nodes (§12.1, §12.5)."""
    board, where, problems = scenario.board, f"trade card {card.id}", []
    for option in card.nodes:
        problems += unknown(where, "node", filter(None, (option.node, option.secondary)), board.nodes)
        problems += unknown(where, "key province", (k.province for k in option.key_provinces), board.provinces)
    continents = {r.continent for r in board.regions.values()}
    problems += [f"{where}: no Distant Continent numbered {n} on the map" for n in card.continents
                 if n not in continents]
    rows = list(reversed(card.rows))
    if not rows:
        return problems
    if rows[0].power_from != 1:
        problems.append(f"{where}: the bottom income row starts at {rows[0].power_from} Trade Power, not 1 (§12.5)")
    for below, above in zip(rows, rows[1:]):
        if below.power_to is None or above.power_from != below.power_to + 1:
            problems.append(f"{where}: a hole or overlap in its income rows between {below.power_from} and "
                            f"{above.power_from} Trade Power (§12.5)")
        if above.regular <= below.regular or above.expanded <= below.expanded:
            problems.append(f"{where}: a higher income row pays no more than the one below (§12.5)")
    if rows[-1].power_to is not None:
        problems.append(f"{where}: the top income row is open-ended (\"6+\", §12.1)")
    problems += [f"{where}: an Expanded node pays less than a regular one in the row from {r.power_from} (§12.5)"
                 for r in rows if r.expanded < r.regular]
    return problems


def _named(scenario: Scenario, cards: Iterable[Any]) -> list[str]:
    tables = {"realm": scenario.realms, "province": scenario.board.provinces, "area": scenario.board.areas,
              "node": scenario.board.nodes, "idea": {i.id for i in scenario.data.ideas}}
    problems = []
    for card in cards:
        parts = [*getattr(card, "effects", []), *getattr(card, "requires", []), *getattr(card, "requirements", []),
                 *getattr(card, "immediate", []), *getattr(card, "actions", [])]
        problems += [f"card {card.id}: unknown {what} {name!r}" for what, name in references(parts)
                     if name not in tables[what]]
        if isinstance(card, EventCard) and card.realm is not None:
            problems += unknown(f"card {card.id}", "realm", [card.realm], scenario.realms)
    return problems


def _edition_counts(d: ScenarioData) -> list[str]:
    if d.edition is None or not d.edition.complete:
        return []
    return [f"edition {d.edition.id}: {len(getattr(d, table))} {table.replace('_', ' ')}; the Standard Edition has "
            f"{count} (component list)" for table, count in STANDARD_EDITION.items() if len(getattr(d, table)) != count]
