"""Scenario data for Ratio Regis (§7, §33; DESIGN §7).

A scenario is a TOML file validated by the pydantic models below. The rulebook's map,
power cards and event cards are images in the source, so shipped scenarios are
invented and mark every invented element `synthetic: true`. `check_scenario` finds
what the schema cannot: asymmetric adjacency, unknown ids, unreachable areas and
card tables with holes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

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


Terrain = Literal["open", "forest", "mountain", "marsh"]
Ability = Literal["tactical", "admiral", "determined", "creative", "organizer"]
#: §17.3.2: when several extraordinary leaders are in a force, the first in this order commands.
ABILITY_ORDER: tuple[str, ...] = ("tactical", "admiral", "determined", "creative", "organizer")


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
    rough: list[str] = []  # adjacent areas reached across a rough pass (§13.3.4)
    terrain: Terrain = "open"  # §13.3.3–§13.3.4, §13.5.3
    possessor: str | None = None
    controller: str | None = None  # defaults to the possessor
    active: bool = True  # False: an inactive area, not in play until an event activates it (§7.2, §18.2.1)
    independent: Literal["A2", "A3"] | None = None  # an active independent area (§18.2.2); on an inactive
    # area, the level it takes when an event activates it without naming one (RR-I82)
    rebellion: Literal["R2", "R3"] | None = None  # a rebellion at the start (§18.3)
    strategic_port: bool = False  # its seas count as one for interception and piracy (§18.6.3)
    map: str = "main"  # the map or mini-map it is drawn on (§10.4, §12.3.3, §18.7)
    aliases: list[str] = []  # other names players may write, e.g. v2.1's Spanish names ("Londres")
    province: str | None = None  # the province it belongs to (§18.3: a revolt never takes a province's last area)
    minor: str | None = None  # the minor power whose area it is (§18.3, §20; its card in `minors`)
    dotted: list[str] = []  # adjacent areas joined by a blue-and-white dotted connection (v2.1 §15.2)


class Sea(_Element):
    id: str
    name: str
    x: int
    y: int
    adjacent: list[str] = []
    mediterranean: bool = False  # galleys (§18.6.1)
    map: str = "main"  # the map or mini-map it is drawn on (§10.4, §11.1.3)
    transoceanic: bool = False  # Baltic, North Sea, East Atlantic: one sea between maps (§11.1.3, §18.6.2)


class TradeCenter(_Element):
    """A trade center (§19.2.1): on a sea (maritime) or of a theater (Eastern Europe)."""

    id: str
    name: str
    sea: str | None = None
    theater: str | None = None
    capacity: int = Field(default=2, ge=1)
    merchants: dict[str, int] = {}  # merchants at the start, by power
    immune: bool = False  # no piracy against it (§19.2.1: Eastern Europe)


class LeaderCard(_Element):
    """A leader counter of the shared pool (§17.2): ordinary side, extraordinary ability."""

    id: str = Field(pattern=r"^L[0-9]+$")
    name: str
    ability: Ability
    historical: bool = False  # enters only with its event (§17.3.1)


class NavalRules(_Element):
    """Naval operation distance (§11.1) and the closed Mediterranean (§18.6.1)."""

    nod_mediterranean: int = Field(default=2, ge=1)
    nod_other: int = Field(default=1, ge=1)
    mediterranean_closed: bool = True


class WarSetup(_Element):
    """A war in progress when the scenario starts (§21.3)."""

    sides: tuple[str, str]
    cause: Literal["event", "declaration", "ally", "scenario"] = "scenario"


class Region(_Element):
    """Part of an objective (§22 "possessing a specific number of areas in a territory"): at
    least `count` areas possessed among the areas of `theaters` and the `areas` listed
    (§32.7: "11 areas in America and the Philippines")."""

    count: int = Field(ge=1)
    theaters: list[str] = []
    areas: list[str] = []


class Objective(_Element):
    """An objective of a power card, an event card or a minor power's card (§3.2, §22), worth
    `vp` at the end of the turn (§23.1.3). Every condition it gives must hold — the card's
    objectives joined with "+" are one objective (§22): `areas` each controlled; `provinces`
    each possessed for more than half of their areas, allies included; `regions` each held;
    `pass_to_possess` each passed to the power during the turn ("Pass to possess", §22);
    `merchants_in` a merchant of the power in each trade center and `merchants` at least that
    many in all (§22 "by trade"). On an event card, `powers` are the powers that may score it
    (none listed: any power that meets it). `text` is the card's wording (RR-I221)."""

    text: str = ""
    vp: int = Field(default=1, ge=1)
    areas: list[str] = []
    provinces: list[str] = []
    regions: list[Region] = []
    pass_to_possess: list[str] = []
    merchants_in: list[str] = []
    merchants: int | None = Field(default=None, ge=1)
    powers: list[str] = []

    @model_validator(mode="after")
    def _some_condition(self) -> Objective:
        if not (self.areas or self.provinces or self.regions or self.pass_to_possess or self.merchants_in
                or self.merchants):
            raise ValueError("an objective needs a condition: areas, provinces, regions, pass_to_possess, "
                             "merchants_in or merchants")
        return self


class PowerCardChange(_Element):
    """§8.1.2: from `turn` on the power plays with another card, whose available troop
    counters and squadrons replace the old card's."""

    turn: int = Field(ge=1)
    troops: dict[Literal["2-3", "3-4"], int] = {}
    squadrons: dict[Literal["2", "3"], int] = {}


class Automatic(_Element):
    """A power no player runs whose acts the rules carry out (§33.1's Emirates, RR-I290): after
    each impulse of the player of `after`, its `acts` in their order, each where its condition
    holds — `fall`: `capital` controlled by `after` removes the power and its units; `pirate`:
    its squadrons at sea pirate `after` (§11.5); `sortie`: its squadrons in port, repaired, sail
    to `sea`; `refit`: in the turn's first round of impulses, a squadron destroyed returns under
    repair to `port` (RR-I291, RR-I292). It never negotiates peace with `after` (RR-I293)."""

    after: str
    acts: list[Literal["fall", "pirate", "sortie", "refit"]] = Field(min_length=1)
    sea: str
    port: str
    capital: str


class Power(_Element):
    """A major power's card (§3.2, §24): the parts the sequence of play needs."""

    code: str = Field(pattern=r"^[A-Z]{3}$")
    name: str
    vitality: int = Field(ge=0)
    income: int = Field(ge=0)
    troops: dict[Literal["2-3", "3-4"], int] = {}  # available counters by type
    squadrons: dict[Literal["2", "3"], int] = {}  # available squadrons by quality (§9.2)
    home_areas: list[str] = []
    enters: int | None = None  # the turn a power entering later deploys (§8.1.2)
    piracy: bool = False  # its card allows piracy (§11.5.1)
    interests: list[str] = []  # theaters of interest (§18.4.1); empty: every theater
    objectives: list[Objective] = []  # the card's objectives, 1 VP each at the end of the turn (§3.2, §22)
    alliances: list[str] = []  # major powers its card lets it ally with (§21.1, §28.1)
    diplomacy: dict[str, int] = {}  # the vitality its card gives in minor auctions, by minor or "*" (§20.3.1, §29.2)
    military_victory: list[str] = []  # powers its card names "military victory against": 1 VP a condition (§21.5.3)

    points: int | None = Field(default=None, ge=0)  # deployment points (§24, §33): it deploys as its player chooses
    domains: list[str] = []  # areas it possesses as domains when it deploys (§24, §33)
    allies: list[str] = []  # minor powers allied at its deployment, by code or name (§24, §20.3.4, RR-I260)
    unrest: int | None = Field(default=None, ge=0)  # starting unrest instead of its vitality (§34 turn 1, turn 8)
    cards: list[PowerCardChange] = []  # a new power card from a turn on: its forces (§8.1.2)
    muslim: bool = False  # ☪ on its card; the others are Christian (§34 turn 1: Christian–Muslim diplomacy, RR-I253)
    automatic: Automatic | None = None  # run by the rules, not a player (§33.1's Emirates, RR-I290)

class Minor(_Element):
    """A minor power's card (§20, RR-I140): its units and card fortresses, its theater, whether it
    is independent (§20.5) or mercenary (§20.6, no areas), and the major it starts allied to (none:
    neutral, §20.1). Its areas are the map's areas with `minor` = its code."""

    code: str = Field(pattern=r"^[A-Z]{3}$")
    name: str
    theater: str
    troops: dict[Literal["2-3", "3-4"], int] = {}
    squadrons: dict[Literal["2", "3"], int] = {}
    fortresses: list[str] = []  # areas of the fortresses printed on its card (§20.3.2)
    independent: bool = False
    mercenary: bool = False
    ally: str | None = None
    muslim: bool = False  # ☪ on its card; the others are Christian (§34 turn 1: Christian–Muslim diplomacy, RR-I253)


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
    """Units a power starts with (§24 as data), placed when the power enters.

    `unit` says what: a troop (`counter`, `veteran`), a squadron (`quality`, in port at
    `area` or at `sea`, `status` operational or repair), a fortress (`area`, `status`
    operational or construction), a leader (`leader` from the pool, on the power's
    first unit at `area`/`sea`, `extraordinary`) or, for a power entering later, merchants
    (`trade_center`, §24)."""

    power: str
    unit: Literal["troop", "squadron", "fortress", "leader", "merchant"] = "troop"
    counter: Literal["2-3", "3-4"] | None = None
    quality: int | None = Field(default=None, ge=2, le=3)
    area: str | None = None
    box: str | None = None
    sea: str | None = None
    count: int = Field(default=1, ge=1)
    status: Literal["operational", "repair", "construction"] = "operational"
    veteran: bool = False
    leader: str | None = None
    extraordinary: bool = False
    base: str | None = None  # a squadron at sea: its home port (RR-I51)
    trade_center: str | None = None  # a merchant's trade center (§24: an entering power places its merchants)


class ControlMarkers(_Element):
    """`give_control`: control markers of `power` placed in `areas` (§31.1, RR-I69)."""

    power: str
    areas: list[str] = Field(min_length=1)


class Repatriation(_Element):
    """`repatriate`: `power`'s units must leave `places` — areas, or seas by id (§14, RR-I68)."""

    power: str
    places: list[str] = Field(min_length=1)


class Rebellion(_Element):
    """An event's rebellions (§18.3, RR-I80): `count` revolts of `level` placed by the player
    of the card, one at a time, in the areas the event lists — `areas` as written, then the
    areas of `provinces`, of the minor powers `minors` and the possessions of `powers`, in
    the scenario's order. §18.3's limits (no key area, commercial port, area with military
    units, or last area of a province or minor without revolt) hold unless `limits` is
    false (the event says so) or no listed area fits them."""

    level: Literal["R2", "R3"]
    count: int = Field(default=1, ge=1)
    areas: list[str] = []
    provinces: list[str] = []
    minors: list[str] = []
    powers: list[str] = []
    limits: bool = True


class Activation(_Element):
    """Inactive independent areas an event brings into play (§18.2.1 → §18.2.2) as A2 or
    A3; without `level`, each area's own `independent` level (RR-I82)."""

    areas: list[str] = Field(min_length=1)
    level: Literal["A2", "A3"] | None = None


class PowerChange(_Element):
    """`unrest` or `vp`: `power`'s unrest, or its player's VP, changed by `change` (§19.1, §22)."""

    power: str
    change: int


class Veterans(_Element):
    """`veterans`: `count` regular troops of `power` turn veteran (§16.1, §36.7), those of
    `area` if given, the first in the engine's order (RR-I184)."""

    power: str
    count: int = Field(default=1, ge=1)
    area: str | None = None


class HistoricalLeader(_Element):
    """`leader`: the historical leader `leader` enters on its extraordinary side without
    unrest (§17.3.1) on `power`'s largest army (RR-I184), `veterans` of whose regular
    troops turn veteran (§36.7)."""

    power: str
    leader: str
    veterans: int = Field(default=0, ge=0)


def _kinds(model: type[BaseModel]) -> tuple[str, ...]:
    """The kinds of an effect model: its fields, less the `synthetic` mark, in declared order."""
    return tuple(name for name in model.model_fields if name != "synthetic")


def _exactly_one(what: str) -> Any:
    """A validator for an effect model whose entry is exactly one of its kinds."""
    def check(self: BaseModel) -> BaseModel:
        kinds = _kinds(type(self))
        if sum(getattr(self, name) is not None for name in kinds) != 1:
            raise ValueError(f"{what} is exactly one of {', '.join(kinds)}")
        return self
    return model_validator(mode="after")(check)


class Effect(_Element):
    """One effect of a card's event (RR-I52, RR-I69), applied when the card is played
    (§8.2.2): `set_nod` raises the naval operation distance everywhere to at least N (§11.1,
    §28.8); `allow_piracy` lets a power pirate (§11.5.1); `add_interest` = [power, theater]
    gives a power interest in a theater (§18.4.1, §28.10); `start_war` = [power, power]
    starts a war between two powers (§21.3, §31.1); `give_control` = {power, areas} places
    the power's control markers (§31.1); `give_morale` = [giver, receiver] moves a morale
    counter (§21.3.4, §31.1); `repatriate` = {power, places} sends the power's units home
    from those areas or seas (§14, §31.2); `rebellion` places revolts (§18.3, RR-I80);
    `activate` brings inactive independent areas into play (§18.2, RR-I82);
    `casus_belli` = [holder, against] gives a CB, or, the pair being at war, one more VP to
    the war's winner (§21.3.2, §31.6); `allow_alliance` = [power, power] lets the two ally
    (§21.1); `technology` auctions a technology (§19.3); `minor_alliance` auctions the
    alliance of a minor (§20.3.1); `leader` brings a historical leader in (§17.3.1); `unrest`
    and `vp` change a power's unrest or its player's VP; `veterans` turns troops veteran
    (§16.1); `collapse` makes a power collapse (§21.6); `capacity` = {center: n} changes trade
    centers' capacities for the rest of the game (§19.2.1 "may be changed by … events").
    Exactly one per entry."""

    set_nod: int | None = Field(default=None, ge=1)
    allow_piracy: str | None = None
    add_interest: tuple[str, str] | None = None
    start_war: tuple[str, str] | None = None
    give_control: ControlMarkers | None = None
    give_morale: tuple[str, str] | None = None
    repatriate: Repatriation | None = None
    rebellion: Rebellion | None = None
    activate: Activation | None = None
    casus_belli: tuple[str, str] | None = None
    allow_alliance: tuple[str, str] | None = None
    technology: Literal["siege", "land", "naval", "industrial"] | None = None
    minor_alliance: str | None = None
    leader: HistoricalLeader | None = None
    unrest: PowerChange | None = None
    vp: PowerChange | None = None
    veterans: Veterans | None = None
    collapse: str | None = None
    capacity: dict[str, int] | None = None

    _one = _exactly_one("an effect")


#: The effects a card's event may have, in the order `Effect` declares them.
EFFECT_NAMES = _kinds(Effect)


class Card(_Element):
    number: int = Field(ge=1)
    title: str
    kind: Literal["historical", "generic"]
    points: int = Field(ge=0)
    priority: Literal["always", "hand4", "none"] = "none"  # §8.2.2 "Card play"
    combat: bool = False
    turns: tuple[int, int] | None = None  # historical cards: first and last turn in play
    effects: list[Effect] = []  # what its event does, applied when played (RR-I52)
    objectives: list[Objective] = []  # its event's objectives, for the end of the turn it is played (§22)


class DeckRules(_Element):
    sizes: dict[int, int] = {}  # overrides of DECK_SIZE_TABLE by number of players
    excluded: list[int] = []  # card numbers the scenario removes from the game (§26.4)


class Parts(_Element):
    """Parts of the map as the scenarios name them (§7.2, §33, §34): whole theaters, whole
    provinces, single areas, less the areas `except_areas` names."""

    theaters: list[str] = []
    provinces: list[str] = []
    areas: list[str] = []
    except_areas: list[str] = []


class Markers(_Element):
    """Independent (A2/A3) or rebellion (R2/R3) markers placed on parts of the map (§7.2)."""

    level: Literal["A2", "A3", "R2", "R3"]
    parts: Parts


class Exclusion(_Element):
    """Cards removed from the deck by title (§8.1.4, §34): for this turn only, or for the
    rest of the game (`game = true`)."""

    cards: list[str] = Field(min_length=1)
    game: bool = False


class Possession(_Element):
    """Areas a power takes as home areas or domains (§24; §34 turn 5 "Poland: add Gdansk")."""

    power: str
    areas: list[str] = Field(min_length=1)


class Merchants(_Element):
    """Merchants placed in a trade center by a special rule (§34 turns 1, 5), free of cost."""

    trade_center: str
    power: str
    count: int = Field(default=1, ge=1, le=2)


class Cardless(_Element):
    """A turn played without cards (§33.1 "It is played without cards, … 3 impulses of 2
    actions each"): each player has `impulses` impulses, each with `actions` actions (RR-I270)."""

    impulses: int = Field(ge=1)
    actions: int = Field(ge=1)


class FrenchWars(_Element):
    """The French Wars of Religion in force this turn (§33.4 "Special rules: French Wars of
    Religion (Turns 6, 7 and 8)", RR-I275): the contenders, France first (its home areas are
    "French"), whether a peace between them returns France's key areas (turn 6), which of
    them collapse when they lose a war to another contender (turns 7 and 8), and whether the
    wars end with the turn, with the alliances France then makes by winner (turn 8)."""

    contenders: list[str] = Field(min_length=2)
    return_key_areas: bool = False
    collapse: list[str] = []  # contenders applying the collapse rules this turn (turn 7: HUG, CLG; turn 8: all)
    decide: bool = False  # the wars end at this turn's end: the winner takes France's place (turn 8)
    spared_by: str | None = None  # a card whose play this turn spares losers the collapse (turn 7: Catherine de Medici)
    allies: dict[str, list[str]] = {}  # by winner, the powers France is allied with for the next turn


class SpecialEffect(_Element):
    """One effect of a turn's special rule (§8.1.1, §34), applied at turn start: `activate`
    and `deactivate` parts of the map (§7.2, §18.2.1); `markers` places independents or
    rebellions (§7.2); `interests` is the turn's INTEREST table for the powers it names
    (§18.4.1); `add_interest` = [power, theater]; `exclude` removes cards from the deck
    (§8.1.4); `capacity` sets trade centers' capacities (§19.2.1); `merchants` places
    merchants; `fixed_merchants` = {center: n} places merchants of no power in play, which
    commercial competition never removes (§34: "two Venetian merchants in CM"); `possess` gives
    a power areas (§24); `interfaith_diplomacy` = n: from this turn on, a minor's alliance
    between a Christian and a Muslim power costs n more unrest, the bid limit unchanged (§34 turn
    1, RR-I253); `minor_appears` brings a minor power's card into play in that turn, out
    of play before it (§34 turn 3 "The minor power Palatinate appears", RR-I271); `alliance` =
    {powers = [A, B], until_war} allies two powers by the turn — a major and a minor power's
    code makes the major the minor's ally (§34, RR-I272); `objectives` are scored at this turn's
    end like an event's (§22, RR-I273); `cardless` plays the turn without cards (§33.1,
    RR-I270); `french_wars` makes the turn one of the French Wars of Religion (§33.4, RR-I275);
    `revolt_at_end` = {level, parts} turns, at the turn's end, the independent areas of those
    parts into revolts of that level (§33.4 "Turn 9", RR-I276). Exactly one per entry."""

    activate: Parts | None = None
    deactivate: Parts | None = None
    markers: Markers | None = None
    interests: dict[str, list[str]] | None = None
    add_interest: tuple[str, str] | None = None
    exclude: Exclusion | None = None
    capacity: dict[str, int] | None = None
    merchants: Merchants | None = None
    fixed_merchants: dict[str, int] | None = None
    possess: Possession | None = None
    interfaith_diplomacy: int | None = Field(default=None, ge=1)
    minor_appears: str | None = None  # a minor power's code (§34, RR-I271)
    alliance: Alliance | None = None  # powers allied by the turn (§34, RR-I272)
    objectives: list[Objective] | None = None  # VP at this turn's end (§22, RR-I273)
    cardless: Cardless | None = None  # the turn's impulses without cards (§33.1, RR-I270)
    french_wars: FrenchWars | None = None  # the French Wars of Religion this turn (§33.4, RR-I275)
    revolt_at_end: Markers | None = None  # at the turn's end, independent areas there revolt (§33.4 turn 9, RR-I276)

    _one = _exactly_one("a special rule's effect")


#: The effects a turn's special rule may have, in the order `SpecialEffect` declares them.
SPECIAL_EFFECT_NAMES = _kinds(SpecialEffect)


class TurnRule(_Element):
    """A special rule of a turn (§8.1.1, §34): its text, announced, and its effects, applied
    in order. Rules no effect expresses yet stay text for the players and the GM."""

    turn: int
    text: str
    effects: list[SpecialEffect] = []


class Threshold(_Element):
    """A result reached with at least `vp` VP at the game's end (§33.1, a solitaire scenario);
    `win` when that result is a victory (RR-I228)."""

    vp: int = Field(ge=0)
    result: str
    win: bool = False


class ProvinceVP(_Element):
    """`vp` at the end of each turn from `turns[0]` to `turns[1]` for the power with most
    possessions in `province`; on a tie nobody gains them (v2.1 turn 9, the Thirty Years' War)."""

    province: str
    vp: int = Field(ge=1)
    turns: tuple[int, int]


class VictoryRules(_Element):
    """A scenario's own VP rules (§33), read by the VP rules: results by VP thresholds instead
    of a winner, and VP for possessions in provinces; the minor powers' objectives, scored for
    the major power allied to the minor (§22), and, under v2.1, `final_bonus` VP less each
    power's unrest for its player at the end of the last turn (v2.1 §9.1, The Rise of Portugal:
    "+12 VP − unrest", RR-I228)."""

    thresholds: list[Threshold] = []
    province_vp: list[ProvinceVP] = []
    minor_objectives: dict[str, list[Objective]] = {}  # by minor power (its card's code, §20)
    final_bonus: int | None = None


class Alliance(_Element):
    """Two major powers allied at the start (§21.1, §33.4 "until war breaks out, the
    Netherlands and Spain are allied"), or by a turn's special rule (where the second may
    be a minor power, RR-I272); read by the alliances' rules."""

    powers: tuple[str, str]
    until_war: bool = False


#: The tables of an edition's data file: the fixed data every scenario of the edition shares
#: — the map (theaters, areas, seas, trade centers), the cards and the leaders.
EDITION_TABLES = ("theaters", "areas", "seas", "trade_centers", "cards", "leaders")


class Edition(_Element):
    """The `[edition]` table of an edition's data file: which edition (and rules) its
    tables are. A scenario read with its edition (`edition = "<file>"`, see
    `pbem.core.datafile`) carries this table instead of the path, and its
    `EDITION_TABLES` come from that file."""

    id: str
    title: str
    ruleset: Literal["ratio-regis"] = "ratio-regis"
    rules_version: str = "1.2.4"


class EditionData(_Element):
    """An edition's data file on its own (checked with `pbem scenario check`)."""

    edition: Edition
    theaters: list[Theater] = Field(min_length=1)
    areas: list[Area] = Field(min_length=1)
    seas: list[Sea] = []
    trade_centers: list[TradeCenter] = []
    cards: list[Card] = []
    leaders: list[LeaderCard] = []


class ScenarioData(_Element):
    id: str
    title: str
    ruleset: Literal["ratio-regis"] = "ratio-regis"
    rules_version: str = "1.2.4"
    edition: Edition | None = None  # the edition whose data file gave the EDITION_TABLES
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
    trade_centers: list[TradeCenter] = []
    leaders: list[LeaderCard] = []
    naval: NavalRules = NavalRules()
    wars: list[WarSetup] = []
    casus_belli: list[tuple[str, str]] = []  # (holder, against) at the start (§21.3.2)
    forced_peace: list[tuple[str, str]] = []  # pairs in forced peace at the start (§21.5.4)
    minors: list[Minor] = []  # the minor powers' cards (§20)
    alliances: list[Alliance] = []  # major powers allied at the start (§24, §21.1)
    active_events: list[str] = []  # titles of events of earlier turns in force (§7.2, §26.1)
    victory: VictoryRules = VictoryRules()  # the scenario's own VP rules (§33)


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
        self.trade_centers = {t.id: t for t in data.trade_centers}
        self.leaders = {card.id: card for card in data.leaders}
        self.minors = {m.code: m for m in data.minors}

    # -- areas and boxes --------------------------------------------------
    def box_of(self, area_id: str) -> str:
        area = self.areas[area_id]
        return area.box or self.theaters[area.theater].boxes[0].id

    @cached_property
    def boxes(self) -> dict[str, tuple[str, DispersionBox]]:
        """Every dispersion box id -> (its theater id, the box)."""
        return {b.id: (t.id, b) for t in self.data.theaters for b in t.boxes}

    def find_area(self, word: str) -> str | None:
        """An area's id from its id or name, ignoring case. Inactive areas are found too, so
        that one an event has activated can be named; whether an area is in play is the
        state's to say (`GameState.exists`, §18.2.1)."""
        return self._area_names.get(word.lower())

    @cached_property
    def _area_names(self) -> dict[str, str]:
        names = {}
        for area in self.data.areas:
            for word in (*area.aliases, area.name, area.id):
                names[word.lower()] = area.id
        return names

    @cached_property
    def area_words(self) -> list[str]:
        return [a.id for a in self.data.areas]

    def province_areas(self, province: str) -> list[str]:
        """The areas of a province, in scenario order (§18.3)."""
        return [a.id for a in self.data.areas if a.province == province]

    def parts(self, parts: Parts) -> list[str]:
        """The areas of the parts named (§7.2, §33), in scenario order."""
        return [a.id for a in self.data.areas
                if (a.theater in parts.theaters or a.province in parts.provinces or a.id in parts.areas)
                and a.id not in parts.except_areas]

    def card_titled(self, title: str) -> Card | None:
        """A card by its title, ignoring case (the playbook names cards by title, §26.1, §34)."""
        return next((c for c in self.data.cards if c.title.lower() == title.lower()), None)

    def minor_areas(self, minor: str) -> list[str]:
        """The areas of a minor power, in scenario order (§18.3)."""
        return [a.id for a in self.data.areas if a.minor == minor]

    def starting_ally(self, minor: str) -> str | None:
        """RR-I260: the major a minor starts allied to (§24, §20.3.4): its card's `ally`, or the
        first power whose `allies` name it by code or name (none: neutral, §20.1)."""
        card = self.minors[minor]
        return card.ally or next((p.code for p in self.data.powers
                                  if card.code in p.allies or card.name in p.allies), None)

    def home_box(self, power: str) -> str:
        """The dispersion box of the power's home (§8.2.2, §18.1): the box holding most of
        its home areas; ties go to the scenario's box order (RR-I6)."""
        counts = {box: 0 for box in self.boxes}
        for area in self.powers[power].home_areas:
            counts[self.box_of(area)] += 1
        return max(counts, key=lambda box: (counts[box], -list(self.boxes).index(box)))

    def home_theater(self, power: str) -> str:
        """The theater with most of the power's home areas (§9.1); ties by scenario order (RR-I6);
        a power with no home area (the Huguenots) counts its domains (RR-I296)."""
        order = list(self.theaters)
        counts = {t: 0 for t in order}
        card = self.powers[power]
        for area in card.home_areas or card.domains:
            counts[self.areas[area].theater] += 1
        return max(order, key=lambda t: (counts[t], -order.index(t)))

    def home_province(self, power: str) -> str | None:
        """v2.1 §9.1: the province with most of the power's home areas; ties by scenario order
        (RR-I6); None when the scenario gives its home areas no province."""
        home = set(self.powers[power].home_areas)
        counts: dict[str, int] = {}
        for area in self.data.areas:  # scenario order, so the first province wins a tie
            if area.id in home and area.province is not None:
                counts[area.province] = counts.get(area.province, 0) + 1
        return max(counts, key=lambda p: counts[p], default=None)

    @cached_property
    def sea_words(self) -> list[str]:
        return [f"@{s.id}" for s in self.data.seas]

    def coastal(self, area_id: str) -> bool:
        return bool(self.areas[area_id].seas)

    def port_areas(self, sea: str) -> list[str]:
        """The coastal areas on a sea, in scenario order (inactive ones too: the state says
        which are in play, §18.2.1)."""
        return [a.id for a in self.data.areas if sea in a.seas]

    def trade_center_of(self, sea: str) -> TradeCenter | None:
        return next((t for t in self.data.trade_centers if t.sea == sea), None)

    def nod(self, sea: str) -> int:
        """The naval operation distance for squadrons in `sea` (§11.1, scenario data)."""
        naval = self.data.naval
        return naval.nod_mediterranean if self.seas[sea].mediterranean else naval.nod_other

    def sea_distance(self, start: str, goal: str) -> int | None:
        """Seas crossed from `start` to `goal` counting `start` as 1 (NOD, §11.1). Between
        maps the transoceanic seas count as one (§11.1.3, §18.6.2): a step between two of
        them costs nothing."""
        between = self.seas[start].map != self.seas[goal].map
        best = {start: 1}
        frontier = [(1, start)]
        while frontier:
            frontier.sort()
            distance, sea = frontier.pop(0)
            if sea == goal:
                return distance
            if distance > best[sea]:
                continue
            for other in self.seas[sea].adjacent:
                free = between and self.seas[sea].transoceanic and self.seas[other].transoceanic
                step = distance + (0 if free else 1)
                if step < best.get(other, step + 1):
                    best[other] = step
                    frontier.append((step, other))
        return None

    def rough(self, here: str, there: str) -> bool:
        return there in self.areas[here].rough or here in self.areas[there].rough

    def interested_in_theater(self, power: str, theater: str, added: Sequence[str] = ()) -> bool:
        """§18.4.1: the theater is one of the power's card (a card without interests has them
        all) or one `added` by events — without the border areas of RR-I27 (§20.3.1, §21.5.3)."""
        interests = self.powers[power].interests
        return not interests or theater in [*interests, *added]

    def dotted(self, here: str, there: str) -> bool:
        return there in self.areas[here].dotted or here in self.areas[there].dotted

    def interested(self, power: str, area_id: str, added: Sequence[str] = ()) -> bool:
        """§18.4.1, §18.5: a power may act in a theater of interest (its card's, and `added`
        by events), and in the areas of other theaters that border one (RR-I27)."""
        area = self.areas[area_id]
        if self.interested_in_theater(power, area.theater, added):
            return True
        return any(self.interested_in_theater(power, self.areas[other].theater, added)
                   for other in area.adjacent if other in self.areas)

    def minor_may_enter(self, minor: str, area_id: str) -> bool:
        """§20.2: "the allied minor power's troops cannot leave the theater of operations to which
        the minor power belongs (except for border areas of the theater)" — its theater and the
        areas bordering it, as for interest (RR-I27, RR-I150); a mercenary's go anywhere (§20.6)."""
        card = self.minors[minor]
        area = self.areas[area_id]
        return card.mercenary or area.theater == card.theater or any(
            self.areas[other].theater == card.theater for other in area.adjacent if other in self.areas)

    def minor_may_base(self, minor: str, area_id: str) -> bool:
        """§20.2: an allied minor's "fleets cannot use naval bases outside this theater" — no
        border exception, unlike its troops (RR-I250); a mercenary's are its ally's own (§20.6)."""
        card = self.minors[minor]
        return card.mercenary or self.areas[area_id].theater == card.theater

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

    @cached_property
    def generic_numbers(self) -> list[int]:
        """The numbers of `generic_cards`, in scenario order: the pool every turn's deck is
        topped up from (§8.1.4)."""
        return [c.number for c in self.generic_cards()]

    def objectives(self) -> list[Objective]:
        """The objectives of the power cards, the event cards, the minor powers and the turns'
        special rules (§22)."""
        return ([o for p in self.data.powers for o in p.objectives]
                + [o for c in self.data.cards for o in c.objectives]
                + [o for objectives in self.data.victory.minor_objectives.values() for o in objectives]
                + [o for rule in sorted(self.data.turn_rules, key=lambda rule: rule.turn)
                   if self.data.first_turn <= rule.turn <= self.data.last_turn
                   for e in rule.effects for o in e.objectives or []])

    @cached_property
    def pass_to_possess(self) -> list[str]:
        """The areas some "pass to possess" objective names, sorted (§22, RR-I223): whose
        possessor every turn start notes."""
        return sorted({a for o in self.objectives() for a in o.pass_to_possess})

    def turn_objectives(self, turn: int) -> list[Objective]:
        """The objectives a turn's special rules score at its end (RR-I273)."""
        return [o for rule in self.data.turn_rules if rule.turn == turn
                for e in rule.effects for o in e.objectives or []]

    def french_wars(self, turn: int) -> FrenchWars | None:
        """The French Wars of Religion in force in `turn`, if a special rule of it says so (RR-I275)."""
        return next((e.french_wars for rule in self.data.turn_rules if rule.turn == turn for e in rule.effects
                     if e.french_wars is not None), None)

    def alliances_until_war(self) -> set[frozenset[str]]:
        """The pairs allied "until war breaks out" (§33.4), at the start or by a turn's special
        rule (RR-I188, RR-I272)."""
        return ({frozenset(a.powers) for a in self.data.alliances if a.until_war}
                | {frozenset(e.alliance.powers) for rule in self.data.turn_rules for e in rule.effects
                   if e.alliance is not None and e.alliance.until_war})

    def turn_label(self, turn: int) -> str:
        start = FIRST_GAME_YEAR + (turn - 1) * YEARS_PER_TURN
        return f"Turn {turn} ({start}–{start + YEARS_PER_TURN - 1})"


def load_scenario(raw: Mapping[str, Any]) -> Scenario:
    """Validate scenario data; every schema problem is listed (§7, DESIGN §7), those of
    the tables an edition gave with the edition's name."""
    if _edition_file(raw):
        raise ScenarioError(["this is an edition's data file, not a scenario: check a scenario that names it with "
                             "edition = \"<file>\""] + _edition_problems(raw))
    try:
        data = ScenarioData.model_validate(dict(raw))
    except ValidationError as error:
        raise ScenarioError([_describe(e, raw) for e in error.errors()]) from None
    problems = _duplicates(data)
    if data.edition is not None and (data.edition.ruleset, data.edition.rules_version) != \
            (data.ruleset, data.rules_version):
        problems.append(f"edition {data.edition.id} is for {data.edition.ruleset} {data.edition.rules_version}, "
                        f"the scenario for {data.ruleset} {data.rules_version}")
    if problems:
        raise ScenarioError(problems)
    return Scenario(data)


def _edition_file(raw: Mapping[str, Any]) -> bool:
    """An edition's data file read on its own: its `[edition]` table and no scenario id."""
    return isinstance(raw.get("edition"), Mapping) and "id" not in raw


def _edition_problems(raw: Mapping[str, Any]) -> list[str]:
    try:
        EditionData.model_validate(dict(raw))
    except ValidationError as error:
        return [_describe(e, {}) for e in error.errors()]
    return []


def _describe(error: Any, raw: Mapping[str, Any]) -> str:
    loc = error["loc"]
    where = ".".join(str(part) for part in loc) or "scenario"
    edition = raw.get("edition")
    if isinstance(edition, Mapping) and loc and loc[0] in EDITION_TABLES:
        where = f"edition {edition.get('id', '?')}: {where}"
    return f"{where}: {error['msg']}"


def _duplicates(data: ScenarioData) -> list[str]:
    problems = []
    lists = {
        "area or sea id": [a.id for a in data.areas] + [s.id for s in data.seas],
        "theater id": [t.id for t in data.theaters],
        "dispersion box id": [b.id for t in data.theaters for b in t.boxes],
        "power code": [p.code for p in data.powers],
        "card number": [c.number for c in data.cards],
        "trade center id": [t.id for t in data.trade_centers],
        "leader id": [card.id for card in data.leaders],
        "player count": [s.players for s in data.player_setups],
    }
    for what, values in lists.items():
        seen: set = set()
        for value in values:
            if value in seen:
                problems.append(f"duplicate {what} {value!r}")
            seen.add(value)
    return problems + _ambiguous_aliases(data)


def _ambiguous_aliases(data: ScenarioData) -> list[str]:
    """An alias that names another area too (ignoring case) would make an order ambiguous."""
    named: dict[str, str] = {}
    for area in data.areas:
        for word in {area.id.lower(), area.name.lower()}:
            named.setdefault(word, area.id)
    problems = []
    for area in data.areas:
        for alias in area.aliases:
            other = named.setdefault(alias.lower(), area.id)
            if other != area.id:
                problems.append(f"area alias {alias!r} of {area.id} already names {other}")
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
    problems += _check_naval(scenario)
    problems += _check_setups(scenario)
    problems += _check_deck(scenario)
    problems += _check_events(scenario)
    problems += _check_victory(scenario)
    problems += _check_minors(scenario)
    problems += _check_setup_data(scenario)
    return problems


def _check_victory(scenario: Scenario) -> list[str]:
    """What the objectives name (§22), the minor powers with objectives, the result table of a
    one-player scenario (§33.1)."""
    problems = []
    for power in scenario.data.powers:
        for number, objective in enumerate(power.objectives, start=1):
            where = f"power {power.code}: objective {number}"
            problems += _check_objective(scenario, objective, where)
            if objective.powers:
                problems.append(f"{where}: a power card's objective is its power's; powers is for event cards")
    for card in scenario.data.cards:
        for number, objective in enumerate(card.objectives, start=1):
            problems += _check_objective(scenario, objective, f"card {card.number} ({card.title}): objective {number}")
    minors = {m.code for m in scenario.data.minors}
    for minor, objectives in scenario.data.victory.minor_objectives.items():
        if minor not in minors:
            problems.append(f"victory: objectives of unknown minor power {minor!r} (no minor card has it)")
        for number, objective in enumerate(objectives, start=1):
            problems += _check_objective(scenario, objective, f"victory: objective {number} of {minor}")
    levels = [t.vp for t in scenario.data.victory.thresholds]
    if levels and (levels[0] != 0 or levels != sorted(set(levels))):
        problems.append(f"victory: thresholds go up from 0 VP, each once (§33.1), not {levels}")
    return problems


def _check_objective(scenario: Scenario, objective: Objective, where: str) -> list[str]:
    """The areas, provinces, theaters, trade centers and powers an objective names."""
    provinces = {a.province for a in scenario.data.areas if a.province}
    problems = [f"{where}: unknown area {a!r}" for a in [*objective.areas, *objective.pass_to_possess]
                if a not in scenario.areas]
    problems += [f"{where}: unknown province {p!r} (no area has it)" for p in objective.provinces
                 if p not in provinces]
    for region in objective.regions:
        if not region.theaters and not region.areas:
            problems.append(f"{where}: a region names theaters or areas")
        problems += [f"{where}: unknown theater {t!r}" for t in region.theaters if t not in scenario.theaters]
        problems += [f"{where}: unknown area {a!r}" for a in region.areas if a not in scenario.areas]
    problems += [f"{where}: unknown trade center {tc!r}" for tc in objective.merchants_in
                 if tc not in scenario.trade_centers]
    problems += [f"{where}: unknown power {p!r}" for p in objective.powers if p not in scenario.powers]
    return problems


def _check_minors(scenario: Scenario) -> list[str]:
    """A minor's card (§20, RR-I140): its theater, ally and card fortresses exist; a mercenary
    minor has no areas (§20.6), any other has some, all in its theater."""
    problems = []
    for minor in scenario.data.minors:
        where = f"minor {minor.code}"
        areas = scenario.minor_areas(minor.code)
        if minor.theater not in scenario.theaters:
            problems.append(f"{where}: unknown theater {minor.theater!r}")
        if minor.ally is not None and minor.ally not in scenario.powers:
            problems.append(f"{where}: allied to unknown power {minor.ally!r}")
        if minor.mercenary and areas:
            problems.append(f"{where}: a mercenary minor has no areas (§20.6), but {', '.join(areas)} name it")
        if not minor.mercenary and not areas:
            problems.append(f"{where}: no area names it as its minor")
        problems += [f"{where}: area {a} is not in its theater {minor.theater}" for a in areas
                     if scenario.areas[a].theater != minor.theater]
        problems += [f"{where}: card fortress in {a}, which is not one of its areas" for a in minor.fortresses
                     if a not in areas]
        allied = list(dict.fromkeys([*([minor.ally] if minor.ally else []),
                                     *[p.code for p in scenario.data.powers
                                       if minor.code in p.allies or minor.name in p.allies]]))
        if len(allied) > 1:
            problems.append(f"{where}: allied at the start to more than one power ({', '.join(allied)}) (§24)")
    return problems


#: The names a scenario gives itself, not its edition's data: an unknown one is the scenario's fault.
NOT_EDITION = ("power", "minor", "power or minor")


def _check_setup_data(scenario: Scenario) -> list[str]:
    """The names the set-up by points, the special rules, the alliances and the active
    events use (§24, §33, §34). A name of the map or the cards missing is what the edition
    file lacks when the scenario has one: said so, with who names it, so that a GM typing in
    the edition of the game they own sees exactly what to add."""
    data = scenario.data
    known = {"theater": set(scenario.theaters), "area": set(scenario.areas), "trade center": set(scenario.trade_centers),
             "province": {a.province for a in data.areas if a.province}, "power": set(scenario.powers),
             "card": {c.title.lower() for c in data.cards}, "minor": set(scenario.minors),
             "power or minor": set(scenario.powers) | set(scenario.minors)}
    wanted: dict[tuple[str, str], list[str]] = {}
    for kind, name, who in _setup_names(data):
        if (name.lower() if kind == "card" else name) not in known[kind]:
            wanted.setdefault((kind, name), []).append(who)
    where = f"edition {data.edition.id} lacks" if data.edition is not None else "unknown"
    problems = [f"{'unknown' if kind in NOT_EDITION else where} {kind} {name!r} "
                f"(named by {', '.join(dict.fromkeys(who))})"
                for (kind, name), who in wanted.items()]
    problems += [f"turn {rule.turn} special rule: revolt_at_end places a rebellion (R2 or R3), "
                 f"not {e.revolt_at_end.level}"
                 for rule in data.turn_rules for e in rule.effects
                 if e.revolt_at_end is not None and not e.revolt_at_end.level.startswith("R")]
    problems += [f"turn {rule.turn} special rule: trade center {tc} with capacity {capacity} (0 or more, §19.2.1)"
                 for rule in data.turn_rules for effect in rule.effects
                 for tc, capacity in sorted((effect.capacity or {}).items()) if capacity < 0]
    grouped = {code for setup in data.player_setups for group in setup.groups for code in group.powers}
    for power in data.powers:
        if power.points is not None and power.enters is None and power.code not in grouped:
            problems.append(f"power {power.code}: deploys by points but is in no group")
        problems += [f"power {power.code}: a new card at turn {change.turn}, outside turns "
                     f"{data.first_turn + 1}–{data.last_turn} (§8.1.2)" for change in power.cards
                     if not data.first_turn < change.turn <= data.last_turn]
    return problems


def _setup_names(data: ScenarioData) -> Iterator[tuple[str, str, str]]:
    """(kind, name, who names it) for every name the set-up data and the special rules use."""
    for power in data.powers:
        yield from (("area", area, f"{power.code}'s home areas") for area in power.home_areas)
        yield from (("area", area, f"{power.code}'s domains") for area in power.domains)
        yield from (("theater", theater, f"{power.code}'s interests") for theater in power.interests)
    for rule in data.turn_rules:
        for effect in rule.effects:
            yield from ((kind, name, f"turn {rule.turn} special rule") for kind, name in _effect_names(effect))
    yield from (("card", title, "the active events") for title in data.active_events)
    yield from (("power", code, "an alliance") for alliance in data.alliances for code in alliance.powers)
    yield from (("province", rule.province, "the scenario's VP rules") for rule in data.victory.province_vp)


def _effect_names(effect: SpecialEffect) -> Iterator[tuple[str, str]]:
    """(kind, name) for the theaters, provinces, areas, cards, trade centers and powers a
    special rule's effect names."""
    for parts in (effect.activate, effect.deactivate, effect.markers.parts if effect.markers else None,
                  effect.revolt_at_end.parts if effect.revolt_at_end else None):
        if parts is not None:
            yield from (("theater", name) for name in parts.theaters)
            yield from (("province", name) for name in parts.provinces)
            yield from (("area", name) for name in [*parts.areas, *parts.except_areas])
    for power, theaters in sorted((effect.interests or {}).items()):
        yield "power", power
        yield from (("theater", theater) for theater in theaters)
    if effect.add_interest is not None:
        yield "power", effect.add_interest[0]
        yield "theater", effect.add_interest[1]
    yield from (("card", title) for title in (effect.exclude.cards if effect.exclude else []))
    yield from (("trade center", tc) for tc in sorted(effect.capacity or {}))
    yield from (("trade center", tc) for tc in sorted(effect.fixed_merchants or {}))
    if effect.merchants is not None:
        yield "trade center", effect.merchants.trade_center
        yield "power", effect.merchants.power
    if effect.possess is not None:
        yield "power", effect.possess.power
        yield from (("area", area) for area in effect.possess.areas)
    if effect.minor_appears is not None:
        yield "minor", effect.minor_appears
    if effect.alliance is not None:
        yield "power", effect.alliance.powers[0]
        yield "power or minor", effect.alliance.powers[1]
    if effect.french_wars is not None:
        wars = effect.french_wars
        yield from (("power", power) for power in [*wars.contenders, *wars.collapse])
        yield from (("power", power) for winner, allies in sorted(wars.allies.items()) for power in [winner, *allies])
        if wars.spared_by is not None:
            yield "card", wars.spared_by
    for objective in effect.objectives or []:
        yield from (("area", area) for area in [*objective.areas, *objective.pass_to_possess])
        yield from (("province", province) for province in objective.provinces)
        yield from (("power", power) for power in objective.powers)


def _check_events(scenario: Scenario) -> list[str]:
    """The areas, provinces, minors and powers an event's rebellions and activations name
    (§18.2, §18.3, RR-I80, RR-I82)."""
    problems = []
    provinces = {a.province for a in scenario.data.areas if a.province}
    minors = {a.minor for a in scenario.data.areas if a.minor}
    for card in scenario.data.cards:
        where = f"card {card.number} ({card.title})"
        for effect in card.effects:
            if effect.rebellion is not None:
                rebellion = effect.rebellion
                if not (rebellion.areas or rebellion.provinces or rebellion.minors or rebellion.powers):
                    problems.append(f"{where}: a rebellion names no areas, provinces, minors or powers")
                problems += [f"{where}: rebellion in unknown area {a!r}" for a in rebellion.areas
                             if a not in scenario.areas]
                problems += [f"{where}: rebellion in unknown province {p!r} (no area has it)"
                             for p in rebellion.provinces if p not in provinces]
                problems += [f"{where}: rebellion in unknown minor power {m!r} (no area has it)"
                             for m in rebellion.minors if m not in minors]
                problems += [f"{where}: rebellion in the possessions of unknown power {p!r}"
                             for p in rebellion.powers if p not in scenario.powers]
            if effect.activate is not None:
                for area in effect.activate.areas:
                    if area not in scenario.areas:
                        problems.append(f"{where}: unknown area {area!r} to activate")
                    elif scenario.areas[area].active:
                        problems.append(f"{where}: {area} is active from the start; only an inactive area "
                                        f"(active = false) is activated (§18.2.1)")
                    elif (effect.activate.level or scenario.areas[area].independent) is None:
                        problems.append(f"{where}: activating {area} needs a level (A2 or A3) in the effect or "
                                        f"as the area's independent (§18.2.2)")
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
        if not area.active and (area.possessor or area.controller or area.rebellion):
            problems.append(f"area {area.id}: an inactive area does not exist for play, so it has no possessor, "
                            f"controller or rebellion (§18.2.1)")
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
        for ally in power.alliances:
            if ally not in scenario.powers or ally == power.code:
                problems.append(f"power {power.code}: its card's alliances name {ally!r}, not another power (§21.1)")
        problems += [f"power {power.code}: military_victory names unknown power {other!r}"
                     for other in power.military_victory if other not in scenario.powers]
        problems += _check_automatic(scenario, power)
    placed: dict[tuple[str, str], int] = {}
    stacks: dict[tuple[str, str], int] = {}
    for entry in scenario.data.deployment:
        if entry.power not in scenario.powers:
            problems.append(f"deployment: unknown power {entry.power!r}")
            continue
        problems += _check_deployment(scenario, entry)
        if entry.unit == "troop" and entry.area is not None and entry.area in scenario.areas:
            stacks[entry.area, entry.power] = stacks.get((entry.area, entry.power), 0) + entry.count
        if entry.unit in ("troop", "squadron"):
            key = (entry.power, entry.counter if entry.unit == "troop" else str(entry.quality))
            placed[key] = placed.get(key, 0) + entry.count
    for (power, kind), count in sorted(placed.items(), key=str):
        card = scenario.powers[power]
        have = card.troops.get(kind, 0) if "-" in str(kind) else card.squadrons.get(kind, 0)
        what = f"{kind} troops" if "-" in str(kind) else f"Q{kind} squadrons"
        if count > have:
            problems.append(f"deployment of {power}: {count} {what} placed but its card has {have}")
    for (area, power), count in sorted(stacks.items()):
        limit = deployment_stacking_limit(scenario, area, power)
        if count > limit:
            problems.append(f"deployment: {count} troops of {power} in {area} exceed its stacking limit {limit} "
                            f"(§15.1, §15.1.1)")
    return problems


def deployment_stacking_limit(scenario: Scenario, area: str, power: str) -> int:
    """§15.1, §15.1.1: the area's limit for the troops a power deploys there, +1 when an
    extraordinary Organizer of the power deploys there too ("an organizer leader increases
    stacking limit by 1", §17.3.2); each power is counted apart (RR-I90)."""
    organizer = any(entry.unit == "leader" and entry.power == power and entry.area == area and entry.extraordinary
                    and entry.leader in scenario.leaders and scenario.leaders[entry.leader].ability == "organizer"
                    for entry in scenario.data.deployment)
    return scenario.areas[area].stacking + organizer


def _check_deployment(scenario: Scenario, entry: Deployment) -> list[str]:
    """One deployment entry: the fields its kind of unit needs, and known places."""
    who = f"deployment of {entry.power}"
    if entry.unit == "merchant" or entry.trade_center is not None:
        return _check_merchant(scenario, entry, who)
    places = [p for p in (entry.area, entry.box, entry.sea) if p is not None]
    if len(places) != 1:
        return [f"{who}: give exactly one of area, box or sea"]
    if entry.area is not None and entry.area not in scenario.areas:
        return [f"{who}: unknown area {entry.area!r}"]
    if entry.area is not None and not scenario.areas[entry.area].active:
        return [f"{who}: {entry.area} is an inactive area, not in play (§18.2.1)"]
    if entry.box is not None and entry.box not in scenario.boxes:
        return [f"{who}: unknown dispersion box {entry.box!r}"]
    if entry.sea is not None and entry.sea not in scenario.seas:
        return [f"{who}: unknown sea {entry.sea!r}"]
    if entry.unit == "troop" and entry.counter is None:
        return [f"{who}: a troop needs its counter (2-3 or 3-4)"]
    if entry.unit == "squadron":
        if entry.quality is None:
            return [f"{who}: a squadron needs its quality (2 or 3)"]
        if entry.box is not None or (entry.area is not None and not scenario.coastal(entry.area)):
            return [f"{who}: a squadron is placed at sea or in a port (§9.2)"]
    if entry.base is not None and (entry.unit != "squadron" or entry.sea is None
                                   or entry.base not in scenario.areas or not scenario.coastal(entry.base)):
        return [f"{who}: base {entry.base!r}: only a squadron at sea has one, a coastal area (RR-I51)"]
    if entry.unit == "fortress" and entry.area is None:
        return [f"{who}: a fortress stands in an area"]
    if entry.unit == "leader":
        if entry.leader not in scenario.leaders:
            return [f"{who}: unknown leader {entry.leader!r} (the scenario's leaders: "
                    f"{', '.join(scenario.leaders) or 'none'})"]
    return []


def _check_merchant(scenario: Scenario, entry: Deployment, who: str) -> list[str]:
    """§24: merchants a power entering later places in a trade center (those of the powers
    in play at the start are the trade center's `merchants`)."""
    if entry.unit != "merchant" or entry.trade_center not in scenario.trade_centers:
        return [f"{who}: a merchant needs a known trade_center, and only a merchant has one"]
    if any(p is not None for p in (entry.area, entry.box, entry.sea)):
        return [f"{who}: a merchant goes into its trade center, not an area, box or sea"]
    if scenario.powers[entry.power].enters is None:
        return [f"{who}: merchants at the start are the trade center's `merchants`; a deployment's merchant is "
                f"for a power entering later (§24)"]
    return []


def _check_naval(scenario: Scenario) -> list[str]:
    """Rough passes, dotted connections, trade centers, strategic ports, leaders, wars (§11, §13.3.4, §15.2,
    §18.6, §19.2)."""
    problems = []
    for area in scenario.data.areas:
        for other in area.rough:
            if other not in area.adjacent:
                problems.append(f"area {area.id}: rough pass to {other!r}, which is not adjacent")
        for other in area.dotted:
            if other not in area.adjacent:
                problems.append(f"area {area.id}: dotted connection to {other!r}, which is not adjacent")
        if area.strategic_port and len(area.seas) != 2:
            problems.append(f"area {area.id}: a strategic port joins two seas (§18.6.3), it has {len(area.seas)}")
        if area.independent and area.possessor:
            problems.append(f"area {area.id}: an independent area has no possessor (§18.2)")
    for tc in scenario.data.trade_centers:
        if (tc.sea is None) == (tc.theater is None):
            problems.append(f"trade center {tc.id}: give exactly one of sea or theater")
        elif tc.sea is not None and tc.sea not in scenario.seas:
            problems.append(f"trade center {tc.id}: unknown sea {tc.sea!r}")
        elif tc.theater is not None and tc.theater not in scenario.theaters:
            problems.append(f"trade center {tc.id}: unknown theater {tc.theater!r}")
        for power, count in sorted(tc.merchants.items()):
            if power not in scenario.powers:
                problems.append(f"trade center {tc.id}: unknown power {power!r}")
            elif not 1 <= count <= 2:
                problems.append(f"trade center {tc.id}: {power} has {count} merchants (1 or 2, §19.2.2)")
    seen: set[str] = set()
    for entry in scenario.data.deployment:
        if entry.unit == "leader" and entry.leader is not None:
            if entry.leader in seen:
                problems.append(f"deployment: leader {entry.leader} is placed twice")
            seen.add(entry.leader)
    for war in scenario.data.wars:
        for side in war.sides:
            if side not in scenario.powers:
                problems.append(f"war {war.sides[0]}-{war.sides[1]}: unknown power {side!r}")
    for holder, against in scenario.data.casus_belli:
        for side in (holder, against):
            if side not in scenario.powers:
                problems.append(f"casus belli {holder}>{against}: unknown power {side!r}")
    for first, second in scenario.data.forced_peace:
        for side in (first, second):
            if side not in scenario.powers:
                problems.append(f"forced peace {first}-{second}: unknown power {side!r}")
    for card in scenario.data.cards:
        for effect in card.effects:
            problems += [f"card {card.number} ({card.title}): {problem}" for problem in _check_effect(scenario, effect)]
    return problems


def _check_effect(scenario: Scenario, effect: Effect) -> list[str]:
    """The powers, theaters, areas and seas an event's effect names (RR-I52, RR-I69)."""
    powers: list[str] = []
    problems = []
    if effect.allow_piracy is not None:
        powers.append(effect.allow_piracy)
    if effect.add_interest is not None:
        powers.append(effect.add_interest[0])
        if effect.add_interest[1] not in scenario.theaters:
            problems.append(f"effect names unknown theater {effect.add_interest[1]!r}")
    if effect.collapse is not None:
        powers.append(effect.collapse)
    for pair, what in ((effect.start_war, "start_war"), (effect.give_morale, "give_morale"),
                       (effect.casus_belli, "casus_belli"), (effect.allow_alliance, "allow_alliance")):
        if pair is not None:
            powers += list(pair)
            if pair[0] == pair[1]:
                problems.append(f"{what} names {pair[0]} twice: it is between two powers")
    if effect.give_control is not None:
        powers.append(effect.give_control.power)
        problems += [f"give_control: unknown area {area!r}" for area in effect.give_control.areas
                     if area not in scenario.areas]
    problems += [f"capacity: unknown trade center {tc!r}" for tc in sorted(effect.capacity or {})
                 if tc not in scenario.trade_centers]
    problems += [f"capacity: trade center {tc} with capacity {n} (0 or more, §19.2.1)"
                 for tc, n in sorted((effect.capacity or {}).items()) if n < 0]
    if effect.minor_alliance is not None and effect.minor_alliance not in scenario.minors:
        problems.append(f"minor_alliance names unknown minor power {effect.minor_alliance!r}")
    if effect.repatriate is not None:
        powers.append(effect.repatriate.power)
        problems += [f"repatriate: unknown area or sea {place!r}" for place in effect.repatriate.places
                     if place not in scenario.areas and place not in scenario.seas]
    for change in (effect.unrest, effect.vp, effect.veterans, effect.leader):
        if change is not None:
            powers.append(change.power)
    if effect.veterans is not None and effect.veterans.area not in (None, *scenario.areas):
        problems.append(f"veterans: unknown area {effect.veterans.area!r}")
    if effect.leader is not None:
        card = scenario.leaders.get(effect.leader.leader)
        if card is None or not card.historical:
            problems.append(f"leader: {effect.leader.leader!r} is not a historical leader of the pool (§17.3.1)")
    return [f"effect names unknown power {power!r}" for power in powers if power not in scenario.powers] + problems


def _check_automatic(scenario: Scenario, power: Power) -> list[str]:
    """RR-I290: an automatic power answers another power's impulses, on its own sea and port,
    and is run by no player."""
    auto = power.automatic
    if auto is None:
        return []
    where = f"power {power.code}: automatic"
    problems = [] if auto.after in scenario.powers and auto.after != power.code else \
        [f"{where}: after names {auto.after!r}, not another power"]
    problems += [] if auto.sea in scenario.seas else [f"{where}: unknown sea {auto.sea!r}"]
    problems += [f"{where}: unknown area {area!r}" for area in (auto.port, auto.capital) if area not in scenario.areas]
    problems += [f"{where}: {setup.players} players, group {group.name} runs it: an automatic power has no player"
                 for setup in scenario.data.player_setups for group in setup.groups if power.code in group.powers]
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
