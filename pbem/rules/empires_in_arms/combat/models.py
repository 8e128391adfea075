"""What crosses the boundary of the combat engine (§7.5): the battle eia-core builds from its
state, and the result it applies back. Pydantic models, frozen; everything inside the engine
is a dataclass (`forces.py`).

Morale values and losses are written as decimal strings with one place ("3.5", "0.2"), as the
rulebook and its cards print them, and held as integer tenths: no float enters the game's
arithmetic.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, model_validator

#: The kinds of army factor the combat rules tell apart (§2.4, §7.5.2.6.1, §10.1).
FACTOR_KINDS = ("infantry", "cavalry", "artillery", "guard", "militia", "cossack", "freikorps", "guerrilla")
FactorKind = Literal["infantry", "cavalry", "artillery", "guard", "militia", "cossack", "freikorps", "guerrilla"]
#: Cavalry "of any type" (§7.5.2.9.2.2, §7.5.2.10.2.3, option 12.3.3.1).
CAVALRY_KINDS = ("cavalry", "cossack", "freikorps")
Terrain = Literal["clear", "forest", "mountain", "desert", "marsh"]
SideName = Literal["attacker", "defender"]


def tenths(value: object) -> int:
    """A morale figure ("3.5", "-0.5") as integer tenths; integers are refused as ambiguous
    (is 3 "3.0" or "0.3"?) and floats because the game's arithmetic has none."""
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError(f"write a morale figure as a decimal string such as \"3.5\", not {value!r}")
    try:
        number = Decimal(value.strip()) * 10
    except InvalidOperation:
        raise ValueError(f"{value!r} is not a decimal number such as \"3.5\"") from None
    if number != number.to_integral_value():
        raise ValueError(f"{value!r} has more than one decimal place")
    return int(number)


def show_tenths(value: int) -> str:
    """Integer tenths written back as the rulebook prints them ("3.8", "-0.5")."""
    sign = "-" if value < 0 else ""
    return f"{sign}{abs(value) // 10}.{abs(value) % 10}"


#: A morale figure: "3.5" in data, 35 inside.
Morale = Annotated[int, BeforeValidator(tenths), PlainSerializer(show_tenths, return_type=str)]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)


class Factors(Frozen):
    """Army factors by kind (a depot garrison's factors are infantry)."""

    infantry: int = Field(0, ge=0)
    cavalry: int = Field(0, ge=0)
    artillery: int = Field(0, ge=0)
    guard: int = Field(0, ge=0)
    militia: int = Field(0, ge=0)
    cossack: int = Field(0, ge=0)
    freikorps: int = Field(0, ge=0)
    guerrilla: int = Field(0, ge=0)

    def as_dict(self) -> dict[str, int]:
        return {kind: getattr(self, kind) for kind in FACTOR_KINDS}

    @property
    def total(self) -> int:
        return sum(self.as_dict().values())


class Unit(Frozen):
    """A corps, a cossack or freikorps counter, a depot garrison or a guerrilla group in the
    battle (§7.5.1.2). Morale values are the counter back's (§7.5.2.6.1.1): an artillery
    corps carries its power's regular infantry morale as `infantry_morale`."""

    id: str
    power: str
    category: Literal["corps", "cossacks", "freikorps", "garrison", "guerrillas"] = "corps"
    factors: Factors
    infantry_morale: Morale = "3.0"
    cavalry_morale: Morale = "3.0"
    strategic: int = Field(0, ge=0)
    tactical: int = Field(0, ge=0)
    cavalry_symbol: bool = False
    artillery_corps: bool = False
    #: The major power controlling this minor free state's corps (§7.5.2.6.1.2, §7.5.4.1.2.3.1).
    minor_of: str | None = None


class Leader(Frozen):
    """A leader counter (§10.6): ratings, seniority, the cavalry symbol (§10.6.1.3)."""

    id: str
    power: str
    strategic: int = Field(ge=0)
    tactical: int = Field(ge=0)
    tactical_max: int = Field(ge=1)
    seniority: Literal["A", "B", "C", "D"] = "D"
    cavalry_symbol: bool = False
    #: NAPOLEON's political points (§7.5.2.10.1.3.1–2).
    napoleon: bool = False


class ReinforcementGroup(Frozen):
    """Forces in one adjacent area (or a city) that may try to join (§7.5.2.11): eia-core
    lists only those the rules let come (no arrow, no disembarking, no other combat)."""

    id: str
    units: tuple[Unit, ...]
    leaders: tuple[Leader, ...] = ()
    #: In mountain, forest or marsh, or coming across a river: SR −1 (§7.5.2.11.3).
    hindered: bool = False


#: The owner's standing order of the kinds to lose first (§7.5.2.9.2: "in any fashion").
DEFAULT_LOSS_ORDER: tuple[FactorKind, ...] = (
    "militia", "guerrilla", "freikorps", "cossack", "infantry", "cavalry", "artillery", "guard")


class Side(Frozen):
    player: str
    power: str
    units: tuple[Unit, ...] = Field(min_length=1)
    leaders: tuple[Leader, ...] = ()
    reinforcements: tuple[ReinforcementGroup, ...] = ()
    loss_order: tuple[FactorKind, ...] = DEFAULT_LOSS_ORDER
    #: Option 12.3.6: the loss order of each nationality of the side whose player is not the
    #: side's, "the controlling players decide the types of factors to be lost by each
    #: contingent" (EIA-I244); a nationality not named takes the side's.
    loss_orders: dict[str, tuple[FactorKind, ...]] = {}
    #: The owner's standing declaration that its commander's tactical rating is at most this
    #: on the COMMANDER CHART (§7.5.2.9.1.2); None: the rating as it is.
    declared_tactical: int | None = Field(None, ge=0)
    #: The owner's leaders chosen first, in this order, among equally senior ones (§10.6.1.1.2).
    preferred: tuple[str, ...] = ()


class Options(Frozen):
    """The rulebook's choices and optional rules that touch combat (§7.5.2.6.1, §12.3, §12.7)."""

    morale_method: Literal[1, 2] = 1
    cavalry_superiority: bool = False  # 12.3.3.1
    cavalry_withdrawals: bool = False  # 12.3.3.2
    guard_commitment: bool = False  # 12.3.4
    artillery: bool = False  # 12.3.5
    corps_leaders: bool = False  # 12.3.7.1
    further_reductions: bool = False  # 12.3.7.2
    leader_casualties: bool = False  # 12.7
    proportional_losses: bool = False  # 12.3.6: mixed nationalities share a side's losses
    chosen_losses: bool = False  # §7.5.2.9.2: each owner names his losses (EIA-I300)


class Battle(Frozen):
    """One land combat in one area (§7.5.1): the phasing side attacks."""

    id: str
    area: str
    terrain: Terrain = "clear"
    attacker: Side
    defender: Side
    #: Any attacking force crossed a river or arrow, or disembarked, to enter (§7.5.2.7.1).
    river: bool = False
    options: Options = Options()
    #: Limited field combats (a relief, §7.5.4.2.3) last one day; None: until decided.
    max_days: int | None = Field(None, ge=1)
    #: Both commanders agreed to fight a field combat as a trivial one (§7.5.3, §7.5.3.5).
    agreed_trivial: bool = False

    @model_validator(mode="after")
    def _distinct(self) -> Battle:
        for what, ids in (("unit", [u.id for s in (self.attacker, self.defender) for u in _all_units(s)]),
                          ("leader", [x.id for s in (self.attacker, self.defender) for x in _all_leaders(s)])):
            twice = sorted({i for i in ids if ids.count(i) > 1})
            if twice:
                raise ValueError(f"{what} {', '.join(twice)} appears more than once in the battle")
        return self


def _all_units(side: Side) -> list[Unit]:
    return [*side.units, *(u for group in side.reinforcements for u in group.units)]


def _all_leaders(side: Side) -> list[Leader]:
    return [*side.leaders, *(x for group in side.reinforcements for x in group.leaders)]


# -- the result ---------------------------------------------------------------------------
class LeaderCasualty(Frozen):
    leader: str
    killed: bool
    months: int = 0


class SideResult(Frozen):
    final_morale: str = "0.0"
    morale_loss: str = "0.0"
    losses: dict[str, Factors] = {}
    pursuit_losses: int = 0
    broken: bool = False
    eliminated: bool = False
    #: Units that withdrew (§7.5.2.5, §7.5.2.12.2, §7.5.2.13.1): their owner moves them.
    withdrew: tuple[str, ...] = ()
    #: Who moves the side's survivors away: the victor (§7.5.2.10.3) or the owner.
    retreat: Literal["none", "by_victor", "by_owner"] = "none"
    surrendered: tuple[str, ...] = ()
    leaders_captured: tuple[str, ...] = ()
    leader_casualties: tuple[LeaderCasualty, ...] = ()
    joined: tuple[str, ...] = ()
    political_points: int = 0


class DayRecord(Frozen):
    day: int
    attacker_chit: str = ""
    defender_chit: str = ""
    rounds: int = 0


class BattleResult(Frozen):
    battle: str
    kind: Literal["field", "limited", "trivial", "assault", "garrison_attack"]
    winner: SideName | None = None
    #: broken, eliminated, withdrawal (Step 5), day_end (Step 13), undecided (a day limit).
    ended: Literal["broken", "eliminated", "withdrawal", "day_end", "undecided", "both_broken"]
    days: tuple[DayRecord, ...] = ()
    attacker: SideResult
    defender: SideResult


class City(Frozen):
    """A besieged city: its siege value (fleches) and garrison capacity (§7.5.4.1.1)."""

    id: str
    fleches: int = Field(0, ge=0)
    capacity: int = Field(ge=0)


class Siege(Frozen):
    """A siege in one area (§7.5.4): the besiegers attack, the garrison is the defender.
    `refuge`: the garrison has a friendly unbesieged city to go to with the honours of war
    (and, if a minor free state's, one inside its country) (§7.5.4.1.2.3.1)."""

    id: str
    area: str
    city: City
    besieger: Side
    garrison: Side
    refuge: bool = True
    options: Options = Options()


class SiegeResult(Frozen):
    siege: str
    die: int
    table: Literal["sortie", "nr", "breach"]
    #: "none", "declined", "defender" or "besieger": who lost a factor to a sortie.
    sortie: Literal["none", "declined", "defender", "besieger"] = "none"
    sortie_loss: str = ""
    #: What followed a breach: honours of war, a surrender, or an assault.
    breach: Literal["none", "honours", "surrender", "assault"] = "none"
    assault: BattleResult | None = None
    city_captured: bool = False
    besieger_points: int = 0
    garrison_points: int = 0


class RetreatMap(Frozen):
    """What a retreat needs of the map (§7.5.2.10.3), built by eia-core for one retreating
    force: land adjacency, crossing arrows, the areas holding unbesieged enemy corps,
    cossacks, freikorps or depot garrisons, the depots of a nationality in the force, and the
    force's controlled national capitals."""

    neighbours: dict[str, tuple[str, ...]]
    arrows: tuple[tuple[str, str], ...] = ()
    blocked: tuple[str, ...] = ()
    depots: tuple[str, ...] = ()
    capitals: tuple[str, ...] = ()
