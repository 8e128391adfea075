"""What a combat needs and what it returns: the engine's own types (§13).

The game state never enters the engine: the caller builds a `Combat` from it, runs
`fight`, and applies the `CombatResult` back. Every type here is a frozen dataclass of
plain values (strings, ints, tuples), so a combat can be written down in a test or a
case file as it is in the playbook.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

# -- combat types (§13, §11.4.2, §11.5) ------------------------------------------
NAVAL, FIELD, SIEGE, SUBJUGATION, PIRACY, SUPPORT = "naval", "field", "siege", "subjugation", "piracy", "support"
COMBAT_TYPES = (NAVAL, FIELD, SIEGE, SUBJUGATION, PIRACY, SUPPORT)

ATTACKER, DEFENDER = "attacker", "defender"
SIDES = (ATTACKER, DEFENDER)

# -- unit kinds -------------------------------------------------------------------
TROOP, SQUADRON, FORTRESS, REBEL, INDEPENDENT = "troop", "squadron", "fortress", "rebel", "independent"
UNIT_KINDS = (TROOP, SQUADRON, FORTRESS, REBEL, INDEPENDENT)

# -- terrain (§13.3.4, §13.5.3) ---------------------------------------------------
CLEAR, FOREST, MARSH, MOUNTAIN = "clear", "forest", "marsh", "mountain"
TERRAINS = (CLEAR, FOREST, MARSH, MOUNTAIN)

# -- leader abilities, in the order that picks the commander (§17.3.2) -----------
TACTICAL, ADMIRAL, DETERMINED, CREATIVE, ORGANIZER = "tactical", "admiral", "determined", "creative", "organizer"
ABILITIES = (TACTICAL, ADMIRAL, DETERMINED, CREATIVE, ORGANIZER)

# -- how a subjugation is opposed (§13.5.2, §13.5.4, §13.5.7) ---------------------
OPPOSE_TROOPS, OPPOSE_FORTRESS, OPPOSE_REBEL, OPPOSE_INDEPENDENT = "troops", "fortress", "rebel", "independent"
OPPOSE_AREA = "area"  # a mini-map area resists by itself, A3 or A2 (§13.5.7)

# -- die ids that are not units ----------------------------------------------------
CONSCRIPT = "CONSCRIPT"  # the Q1 die of §13.1.9
FORCE = "FORCE"  # the one die of a side in a subjugation (§13.5.4)


def other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


@dataclass(frozen=True)
class Unit:
    """A troop, squadron, fortress, rebellion or independent area in the combat.

    `category` is the printed number of the face up (a fortress is 3). `besieged` marks
    troops of a besieged garrison joining a relief battle (§13.3.5)."""

    id: str
    kind: str
    category: int
    veteran: bool = False
    may_be_casualty: bool = True
    besieged: bool = False


@dataclass(frozen=True)
class Leader:
    """A leader with the side; only an extraordinary leader's ability counts (§17.3)."""

    id: str
    ability: str = ""
    extraordinary: bool = False


@dataclass(frozen=True)
class Modifier:
    """One advantage (+1) or disadvantage (-1) to one die's category (§13.1.2); two
    disadvantages are two modifiers."""

    amount: int
    reason: str
    rule: str


@dataclass(frozen=True)
class CombatCard:
    """A combat card the player holds (§8.2.2 "Combat cards"); `effect` is a key of
    `cards.CARD_EFFECTS`."""

    number: int
    title: str
    effect: str


@dataclass(frozen=True)
class Side:
    """One side: the power, the player who decides, what it brings.

    `modifiers` are the ones the rules of §13 do not derive from the combat itself
    (events, scenario rules); the engine adds terrain, naval support, siege casualties
    and the like. `technologies` holds e.g. "land" (Land Technology, §19.3)."""

    power: str
    player: str
    units: tuple[Unit, ...] = ()
    leaders: tuple[Leader, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    cards: tuple[CombatCard, ...] = ()
    technologies: tuple[str, ...] = ()


@dataclass(frozen=True)
class Combat:
    """One combat. The attacker is the side whose impulse it is (§13.3.2) unless
    `active` says otherwise; in naval combats the two are alike (§13.2.2).

    Field battles read `terrain`, `rough_pass`, `amphibious`, `sortie`, `relief`;
    sieges read `siege_casualties` and `supported`; subjugations read `opposition`,
    `opposed_from`, `all_moved`, `home_area`, `mini_map`; piracy reads
    `interceptor_in_port` and `merchants`. `supported` names the side that has naval
    support after the contest of §11.4.2 (see `support.py`). `options` holds the
    campaign's choices from `COMBAT_OPTIONS`."""

    id: str
    type: str
    area: str
    attacker: Side
    defender: Side
    active: str = ATTACKER
    terrain: str = CLEAR
    base_battlefield: int | None = None
    rough_pass: bool = False
    amphibious: bool = False
    sortie: bool = False
    relief: bool = False
    supported: str | None = None
    siege_casualties: int = 0
    commercial_port: bool = False
    mini_map: bool = False
    opposition: str = OPPOSE_TROOPS
    opposed_from: int = 1
    all_moved: bool = False
    home_area: bool = False
    interceptor_in_port: bool = False
    merchants: int = 0
    victim: str = ""  # piracy: the power whose merchants are attacked, if not the interceptor's
    options: Mapping[str, str] = field(default_factory=dict)

    def side(self, name: str) -> Side:
        return self.attacker if name == ATTACKER else self.defender


# -- the result ---------------------------------------------------------------------
@dataclass(frozen=True)
class DieRoll:
    """One die as rolled: its category after (dis)advantages, the raw faces (re-rolls
    first), the modified value after every +1, what it scored."""

    side: str
    die: str
    category: int
    raws: tuple[int, ...]
    value: int
    plus: tuple[str, ...]
    battle_points: int
    casualty: bool


@dataclass(frozen=True)
class SideResult:
    power: str
    committed: tuple[str, ...]
    dice: int
    conscript: bool
    battle_points: int
    casualties: int
    disband_results: int  # D suffered, before conversion
    eliminated: tuple[str, ...]
    dispersed: tuple[str, ...]
    damaged: tuple[str, ...]  # squadrons flipped to under repair, back to base (§13.2.5)
    leaders_eliminated: tuple[str, ...]
    leaders_dispersed: tuple[str, ...]
    veteran: str | None  # the troop flipped to its veteran side (§13.3.8, §16.1)
    cards_played: tuple[int, ...]
    returns_to_base: tuple[str, ...]  # the loser's other squadrons (§13.2.5)


@dataclass(frozen=True)
class CombatResult:
    """What happened. `winner` is a side name or None for a draw; `morale_to` is the
    side that receives a morale counter (§21.3.5); `control_to` the side that takes or
    may take the area (field: may, §13.3.7; siege: on capitulation; subjugation: on a
    win or paid for, §13.5.4); `retreat` the side that must retreat (§13.3.6)."""

    combat: str
    type: str
    battlefield: int
    winner: str | None
    dice: tuple[DieRoll, ...]
    attacker: SideResult
    defender: SideResult
    morale_to: str | None = None
    unrest: tuple[tuple[str, int], ...] = ()  # (power, change): conscripts (§13.1.9), piracy (§11.5.2)
    control_to: str | None = None
    retreat: str | None = None
    capitulated: bool = False
    siege_casualties: int = 0  # total after the assault (§13.4.2)
    paid_to_take: tuple[str, ...] = ()  # troops the subjugator dispersed to take the area (§13.5.4)
    pay_to_take: int = 0  # troops a subjugator that did not win may disperse to take the area
    merchant_dropped: bool = False  # piracy: the victim removes a merchant (§11.5.2)
    interceptor_may_repeat: bool = False  # piracy: an undamaged interceptor may intercept again (§11.4.3)
    besieged_return: tuple[str, ...] = ()  # relief battle lost: joined besieged go back in (§13.3.5)

    def side(self, name: str) -> SideResult:
        return self.attacker if name == ATTACKER else self.defender

    @property
    def loser(self) -> str | None:
        return None if self.winner is None else other(self.winner)
