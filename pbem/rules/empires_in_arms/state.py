"""The game state of an Empires in Arms scenario as plain data (research §5).

Every part is a `msgspec.Struct`, so the state encodes to canonical JSON (hashed at every
resolved step) and decodes to a fresh copy for every run of a step. Corps strengths live
here and leave only through `views.py`, which shows them to their owner and the GM alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from pbem.core.canonical import StructCodec
from pbem.core.ruleset import Seat
from pbem.rules.empires_in_arms.scenario import OFF_MAP_KINDS, Scenario

# Where the month stands (§3): the Army Reinforcement Step, the Land Phase (one power
# sequence after another, `land_index`), the Time Record Phase; then the game is over.
REINFORCEMENT = "reinforcement"
LAND = "land"
TIME_RECORD = "time-record"
FINISHED = "finished"


class PowerState(msgspec.Struct):
    code: str
    player: str | None = None
    money: int = 0  # money points (§5.2.5); depot costs are summed in halves and rounded up (§7.4.2.1)
    political: int = 0  # political points won and lost in combat (§7.5.2.10.1.3), the Status Card's
    loss_order: list[str] = []  # factor types its corps lose first in combat, its LOSSES order (EIA-I130)
    tactical: int | None = None  # its commanders' tactical rating declared at most this (§7.5.2.9.1.2)
    trivial: bool = False  # it agrees to fight field combats as trivial ones (§7.5.3.5, EIA-I133)
    withdrawal: list[str] = []  # areas its withdrawing corps take first among equally close ones (EIA-I135)
    commanders: list[str] = []  # its leaders preferred in command among equally senior ones (§10.6.1.1.2)
    supplies: list[str] = []  # the allies it lets live off its depots, paying their costs (§7.4.2.2, EIA-I164)
    corps_lost: int = 0  # its corps counters eliminated by combat or foraging (§7.4.1.3.2, §7.5.5; EIA-I203)
    factors_lost: int = 0  # its army factors lost in combat, sieges included (§7.5.2.9.2; EIA-I203)


class Corps(msgspec.Struct):
    id: str
    power: str
    movement: str
    area: str
    factors: dict[str, int] = {}
    capacity: dict[str, int] = {}
    inside: bool = False  # inside its area's city (§7.3.4, §7.5.1.1), not a field force

    @property
    def strength(self) -> int:
        return sum(self.factors.values())


class Irregular(msgspec.Struct):
    """A cossack, freikorps or guerrilla counter (§10.1.1, §10.1.2): its factors show on its
    face (§2.4.1), so they are public."""

    id: str
    power: str
    kind: str  # cossack, freikorps or guerrilla
    area: str
    factors: int = 1
    attacks: bool = False  # guerrillas ordered to attack in their power's Land Combat Step (§10.1.1.3)
    inside: bool = False  # inside its area's city, part of its garrison (§7.3.3.3.1, §7.3.4), not a field force

    @property
    def strength(self) -> int:
        return self.factors


class Leader(msgspec.Struct):
    id: str
    power: str
    corps: str | None = None  # the corps it commands and moves with; None: off the map (§5.3)
    back: int = 0  # a wounded leader returns no earlier than this month (option 12.7)
    retire: bool = False  # its RETIRE order: it leaves the map in the next Army Reinforcement Step (§5.3)
    place: str = ""  # its PLACE order: the corps it returns with, HOLD, or "" for the first corps (EIA-I7)
    city: str = ""  # the area whose city it stays in after its corps inside was eliminated (§7.3.3.4)


class Depot(msgspec.Struct):
    power: str
    area: str
    garrison: int = 0  # army factors of its own power (§7.3.3.5)
    placed: int = 0  # the turn it was placed (0: at the start)


class Garrison(msgspec.Struct):
    """A city's garrison factors (§7.3.3.3)."""

    power: str
    area: str
    factors: dict[str, int] = {}

    @property
    def strength(self) -> int:
        return sum(self.factors.values())


class Siege(msgspec.Struct):
    """An enemy city garrison besieged (§7.5.4): where, and by which power's corps there."""

    area: str
    power: str


class Part(msgspec.Struct):
    """A power's part of a combined sequence (§7.1.2): its land orders and the corps that
    crossed a river into their area (§7.5.2.7.1), kept for the sequence's Land Combat Step."""

    power: str
    orders: list[str] = []
    crossed: dict[str, str] = {}


class Battle(msgspec.Struct):
    """A combat a power sequence declared (§7.3.7) and fought: where, who attacks with which
    corps, who defends, whether an attacking corps came across a river (§7.5.2.7.1), and how
    it ended. `kind` is `field` (§7.3.7.1) or `depot-garrison` (§7.3.7.2)."""

    area: str
    kind: str
    attacker: str
    attacking: list[str]
    defenders: list[str]
    defending: list[str] = []
    across_river: list[str] = []  # attacking corps that entered the area across a river this sequence
    outcome: str = ""  # how it ended, as every power may read it (strengths stay hidden)
    allies: list[str] = []  # the powers attacking with the attacker (§7.3.8.5–6)


class GameState(msgspec.Struct):
    turn: int = 1  # the month of the scenario, 1 = its first
    phase: str = REINFORCEMENT
    land_index: int = 0  # whose power sequence of the Land Phase is next (§7.1)
    powers: dict[str, PowerState] = {}
    corps: list[Corps] = []
    irregulars: list[Irregular] = []  # cossacks, freikorps and guerrillas on the map (§10.1.1, §10.1.2)
    stood_down: list[Corps] = []  # feudal and insurrection corps off the map with their factors (§10.1.3.2)
    placed: dict[str, int] = {}  # the turn a corps came back on the map; it does not move then (§10.1.3.3.2)
    leaders: list[Leader] = []
    depots: list[Depot] = []
    garrisons: list[Garrison] = []
    battles: list[Battle] = []  # combats fought this month, with their outcomes
    sieges: list[Siege] = []  # city garrisons besieged, in the order the sieges began
    winners: list[str] = []  # the powers that met their victory conditions when the scenario ended
    army_orders: bool = False  # the campaign option army_orders: the Army Reinforcement Step asks (§5.2.3–4)
    # The parts of the current power sequence already taken (more than one when allies move
    # combined): their combats and sieges come in the sequence's Land Combat Step (§7.1.2, EIA-I161).
    combined: list[Part] = []
    options: dict[str, str] = {}  # the other campaign options not left at their default (`options.py`)

    # -- lookups ----------------------------------------------------------------
    def corps_by_id(self, corps_id: str) -> Corps | None:
        return next((c for c in self.corps if c.id == corps_id), None)

    def corps_in(self, area: str) -> list[Corps]:
        return [c for c in self.corps if c.area == area]

    def irregulars_in(self, area: str) -> list[Irregular]:
        """The irregulars in the field of `area`, not inside its city (§7.3.4, EIA-I224)."""
        return [i for i in self.irregulars if i.area == area and not i.inside]

    def irregulars_inside(self, area: str) -> list[Irregular]:
        """The cossacks, freikorps and guerrillas inside the city of `area` (§7.3.3.3.1)."""
        return [i for i in self.irregulars if i.area == area and i.inside]

    def besieged_in(self, area: str) -> list[Corps | Irregular]:
        """Every counter inside the city of `area`: its corps, then its irregulars (§7.3.4)."""
        return [*self.corps_inside(area), *self.irregulars_inside(area)]

    def irregular_by_id(self, irregular_id: str) -> Irregular | None:
        return next((i for i in self.irregulars if i.id == irregular_id), None)

    def depot_in(self, area: str) -> Depot | None:
        return next((d for d in self.depots if d.area == area), None)

    def garrison_in(self, area: str) -> Garrison | None:
        return next((g for g in self.garrisons if g.area == area and g.strength), None)

    def siege_in(self, area: str) -> Siege | None:
        return next((s for s in self.sieges if s.area == area), None)

    def field_corps_in(self, area: str) -> list[Corps]:
        """The corps in the field of `area`, not inside its city (§7.3.4, §7.3.7.1)."""
        return [c for c in self.corps if c.area == area and not c.inside]

    def corps_inside(self, area: str) -> list[Corps]:
        """The corps inside the city of `area` (§7.3.4)."""
        return [c for c in self.corps if c.area == area and c.inside]

    def city_holder(self, area: str) -> str | None:
        """The power whose garrison, corps or irregulars are inside the city of `area` (§7.3.3.4,
        §7.3.4, §7.3.3.3.1)."""
        garrison, inside = self.garrison_in(area), self.besieged_in(area)
        return garrison.power if garrison is not None else (inside[0].power if inside else None)

    def besieged(self, corps: Corps | Irregular) -> bool:
        """Whether `corps` (or an irregular counter) is inside a city under siege (§7.3.4, §7.4.5)."""
        return corps.inside and self.siege_in(corps.area) is not None

    def holder(self, power: str) -> str | None:
        return self.powers[power].player

    def owner(self, power: str) -> tuple[str, ...]:
        """Whom a line only the power's player may read goes to: its holder, or no one while
        the power has none (the GM reads every line)."""
        holder = self.holder(power)
        return (holder,) if holder else ()


_codec = StructCodec(GameState)
encode_state = _codec.encode
decode_state = _codec.decode
copy_state = _codec.copy


def holders(scenario: Scenario, seats: Sequence[Seat]) -> dict[str, str | None]:
    """Who holds each power: the seats in order take the major powers in the scenario's fixed
    order, one each, and go round again when there are fewer players than powers (EIA-I1); a
    minor free state is held by its controller's player (§7.1.1)."""
    majors = {code: seats[i % len(seats)].id if seats else None for i, code in enumerate(scenario.power_order)}
    return {p.code: majors[scenario.major(p.code)] for p in scenario.data.powers}


def initial_state(scenario: Scenario, seats: Sequence[Seat], army_orders: bool = False,
                  options: dict[str, str] | None = None) -> GameState:
    """The scenario's set-up: corps on the map, leaders with their corps, depots, garrisons."""
    owners = holders(scenario, seats)
    data = scenario.data
    return GameState(
        powers={p.code: PowerState(p.code, owners[p.code], p.money) for p in data.powers},
        corps=[Corps(c.id, c.power, c.movement, c.area, dict(sorted(c.factors.items())),
                     dict(sorted(c.capacity.items())), c.inside) for c in data.corps if c.area is not None],
        # an insurrection corps the scenario does not place waits off the map for its activation
        # (§10.1.4.1), the Tyrol corps for its player to place it (§10.1.5)
        stood_down=[Corps(c.id, c.power, c.movement, c.home[0], dict(sorted(c.factors.items())),
                          dict(sorted(c.capacity.items()))) for c in data.corps
                    if c.kind in OFF_MAP_KINDS and c.area is None and c.enters is None],
        irregulars=[Irregular(i.id, i.power, i.kind, i.area, i.factors) for i in data.irregulars if i.area is not None],
        leaders=[Leader(lead.id, lead.power, lead.corps if scenario.counters[lead.corps].area else None)
                 for lead in data.leaders],
        depots=[Depot(d.power, d.area, d.garrison) for d in data.depots],
        garrisons=[Garrison(g.power, g.area, dict(sorted(g.factors.items()))) for g in data.garrisons],
        army_orders=army_orders,
        options=dict(options or {}),
    )
