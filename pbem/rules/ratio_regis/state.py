"""The game state of Ratio Regis as plain data (research §5).

Everything here is a `msgspec.Struct` so the state encodes to canonical JSON (hashed at
every resolved step) and decodes to a fresh copy for every run of a step. Hidden
information (hands) lives here too; it leaves only through `views.py`.

Every struct (and `Options`) declares its fields in alphabetical order, keyword-only: the
canonical JSON sorts fields, and written in declaration order they come out sorted already,
so the core's `StructCodec` may use msgspec's cheaper declaration-order encoder.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import msgspec

from pbem.core.canonical import StructCodec
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis.options import Options
from pbem.rules.ratio_regis.scenario import Scenario, TradeCenter

# Phases of the sequence of play, in order (§7, §8).
AUCTION_BIDS = "auction-bids"
AUCTION_GROUPS = "auction-groups"
TURN_START = "turn-start"
HALF_TURN_START = "half-turn-start"
IMPULSE = "impulse"
TURN_END = "turn-end"
FINISHED = "finished"

CLOCKWISE, COUNTER_CLOCKWISE = "CW", "CCW"


class PlayerState(msgspec.Struct, kw_only=True):
    bid: int | None = None  # revealed only once every bid is in
    game_order: int = 0  # "player 1", "player 2" … from the auction (§7.1.1)
    group: int | None = None  # 1-based index into the scenario's groups for this player count
    hand: list[int] = []  # card numbers, secret (§8.1.4)
    id: str
    name: str
    seat: int  # 1-based seating order, fixed for the game (§7.1.1)
    vp: int = 0
    vp_per_turn: int = 0


class PowerState(msgspec.Struct, kw_only=True):
    active: bool = True  # False until a power entering later has deployed (§8.1.2)
    code: str
    intrinsic_used: bool = False  # only with the option intrinsic_action=turn (RR-I1)
    morale: int = 0  # own morale counters not yet given to an enemy (§21.3.4)
    player: str | None = None
    pool: dict[str, int] = {}  # troop counters available to build, by type (§9.1)
    redeployment: int = 0  # points of a redeployment owed at the next turn start after a dynastic change (§23.3)
    revolt_maintenance: int = 0  # rebellions in its territory at the last economic phase: +1 expense each (§23.1.1)
    squadron_pool: dict[str, int] = {}  # squadrons available to build, by quality (§9.2)
    unrest: int = 0


class Troop(msgspec.Struct, kw_only=True):
    """A troop counter on the map (`area`) or in a dispersion box (`box`)."""

    area: str | None = None
    besieged: bool = False  # inside its fortress under siege (§13.4)
    box: str | None = None
    counter: str  # "2-3" or "3-4"
    id: str
    minor: str | None = None  # the allied minor whose counter it is; `power` plays it (§20.2, RR-I140)
    power: str
    quality: int

    def where(self) -> str:
        if self.area is None:
            return f"dispersed ({self.box})"
        return f"{self.area} (besieged)" if self.besieged else self.area

    @property
    def veteran(self) -> bool:
        return self.quality > regular_quality(self.counter)


class Squadron(msgspec.Struct, kw_only=True):
    """A squadron at sea (`sea`) or in port (`port`), operational or under repair (§9.2–§9.3)."""

    base: str | None = None  # its home port: built, deployed, sailed from or last entered (RR-I51)
    fleet: str | None = None  # the leader whose fleet it belongs to (§11.2)
    id: str
    minor: str | None = None  # the allied minor whose squadron it is (§20.2, RR-I140)
    port: str | None = None
    power: str
    quality: int
    repair: bool = False
    sea: str | None = None

    def where(self) -> str:
        if self.sea is not None:
            return f"@{self.sea}"
        return f"{self.port} (port{', under repair' if self.repair else ''})"


class Fortress(msgspec.Struct, kw_only=True):
    """A fortress, under construction until finished (§9.4)."""

    area: str
    built: bool = True
    id: str
    minor: str | None = None  # a fortress printed on an allied minor's card (§20.3.2, RR-I140)
    power: str


class Leader(msgspec.Struct, kw_only=True):
    """A leader on a unit (`unit`: a troop, squadron or fortress id) (§17)."""

    extraordinary: bool = False
    id: str
    power: str
    unit: str


class AreaState(msgspec.Struct, kw_only=True):
    besieger: str | None = None  # the power besieging the fortress here (§13.4)
    controller: str | None = None
    independent: str | None = None  # "A2"/"A3": an active independent area (§18.2.2)
    possessor: str | None = None
    razed: bool = False  # a commercial port with trade interrupted (§19.2.4)
    rebellion: str | None = None  # "R2"/"R3" (§18.3)
    siege_casualties: int = 0  # §13.4.2


class War(msgspec.Struct, kw_only=True):
    """Two powers at war (§21.3); `morale` counts the counters each side holds from
    the other (§21.3.4), `cause` how it began (an event's war gives its winner 1 VP, §21.3.1),
    `owed` the counters a side lost with none left, given after its forced negotiation (§21.4.2)."""

    card: int | None = None  # the card whose event began it: the order of peace at turn end (§21.5.5)
    card_vp: int = 0  # +1 VP to its winner per casus-belli card for the pair played during it (§21.3.1, §22)
    cause: str = "scenario"
    morale: dict[str, int] = {}
    owed: list[tuple[str, str]] = []  # (receiver, why): counters lost after the giver's last one (RR-I161)
    sides: tuple[str, str]

    def enemy(self, power: str) -> str:
        return self.sides[1] if self.sides[0] == power else self.sides[0]


class MinorState(msgspec.Struct, kw_only=True):
    """A minor power (§20, RR-I140): its ally (None: neutral, §20.1) and its counters off the map —
    available for the next alliance, or in the eliminated box until turn end (§20.3.2, §23.1.2)."""

    ally: str | None = None
    eliminated: dict[str, int] = {}  # troop counters by type, squadrons as "Q2"/"Q3"
    neutral_in: list[str] = []  # independent minor: the enemies whose war it stays out of (§20.5)
    pool: dict[str, int] = {}
    squadron_pool: dict[str, int] = {}


class HalfTurn(msgspec.Struct, kw_only=True):
    """Who starts, the direction, and whose impulse it is (§8.2)."""

    chooser: str
    current: str | None = None
    direction: str | None = None
    first: str | None = None
    impulse: int = 0


class VPLine(msgspec.Struct, kw_only=True):
    """VP a player scored (§22): the turn, the power that earned them ("" for the player's
    own, such as the scenario's VP per turn), what for, and how many."""

    player: str
    power: str
    source: str
    turn: int
    vp: int


class GameState(msgspec.Struct, kw_only=True):
    active_events: list[str] = []  # events of earlier turns in force from the start (§7.2, §26.1)
    alliance_permits: list[tuple[str, str]] = []  # pairs an event lets ally, for the rest of the game (§21.1, RR-I180)
    alliances: list[tuple[str, str]] = []  # allied major powers, until turn end (§21.1)
    areas: dict[str, AreaState]
    capacities: dict[str, int] = {}  # trade centers' capacities as the turns' special rules set them (§19.2.1, §34)
    cardless: tuple[int, int] | None = None  # this turn without cards: (impulses a player, actions an impulse) (§33.1)
    casus_belli: list[tuple[str, str]] = []  # (holder, against) (§21.3.2)
    collapsing: list[str] = []  # powers an event made collapse: removed once at peace with all (§21.6)
    combined: dict[str, str] = {}  # an ally's squadron in a combined fleet -> its own power (§21.2.3)
    discard: list[int] = []  # cards played this turn, face up, in the order played
    eliminated: list[tuple[int, str, str]] = []  # (turn, power, "troop"/"squadron") eliminated: upkeep (§23.1.1)
    excluded: list[int] = []  # cards a special rule removed from the deck for the game (§8.1.4, §34)
    excluded_turn: list[int] = []  # cards a special rule removed from this turn's deck (§34 turns 2, 3)
    expeditions: dict[str, str] = {}  # expeditionary troop -> the power that ceded it (§21.2.2)
    fixed_merchants: dict[str, int] = {}  # merchants of no power in play, never removed, by trade center (§34)
    forced_peace: list[tuple[str, str]] = []  # pairs in forced peace until turn end (§21.5.4, RR-I54)
    fortresses: list[Fortress] = []
    half: HalfTurn | None = None
    inactive: list[str] = []  # areas not in play until an event activates them (§18.2.1, RR-I82)
    interests: dict[str, list[str]] = {}  # theaters of interest added by events, by power (§18.4.1)
    interfaith_diplomacy: int = 0  # extra unrest of a Christian–Muslim minor alliance, by special rule (§34, RR-I253)
    leader_pool: list[str] = []  # leader counters available to build, in scenario order (§17.2)
    leaders: list[Leader] = []
    merchants: dict[str, dict[str, int]] = {}  # trade center -> power -> merchants (§19.2)
    merchants_built: dict[str, dict[str, int]] = {}  # trade center -> power -> merchants built this turn, in a
    # dispersion box until they may enter at the next turn start (§19.2.2, §8.1.3)
    minors: dict[str, MinorState] = {}  # the minor powers by code (§20, RR-I140)
    minors_out: list[str] = []  # minor powers a later turn's special rule makes appear: not in play yet (§34, RR-I271)
    next_fortress: int = 1
    next_squadron: int = 1
    next_troop: int = 1
    nod: int = 0  # the naval operation distance raised by events: at least this everywhere (RR-I52)
    options: Options
    phase: str
    piracy: list[str] = []  # powers an event allows piracy (§11.5.1, RR-I52)
    players: list[PlayerState]  # in seating order
    possessed_at_start: dict[str, str] = {}  # "pass to possess" areas: possessor at turn start, "" none (§22)
    powers: dict[str, PowerState]
    squadrons: list[Squadron] = []
    technology: dict[str, str] = {}  # technology -> the power that won it, until turn end (§19.3)
    troops: list[Troop] = []
    turn: int
    vp_lines: list[VPLine] = []  # the VP scored at the last turn end, line by line (§22, §23.1.3)
    wars: list[War] = []
    winners: list[str] = []

    # -- look-ups ---------------------------------------------------------
    def player(self, player_id: str) -> PlayerState:
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)

    def remove_units_of(self, power: str) -> list[str]:
        """Every troop, squadron and fortress of `power` off the map, its leaders leaving the
        game with them (a power leaving the game: §21.6, §33.1); the units' ids."""
        units = ([t.id for t in self.troops if t.power == power] + [s.id for s in self.squadrons if s.power == power]
                 + [f.id for f in self.fortresses if f.power == power])
        self.troops = [t for t in self.troops if t.power != power]
        self.squadrons = [s for s in self.squadrons if s.power != power]
        self.fortresses = [f for f in self.fortresses if f.power != power]
        self.leaders = [lead for lead in self.leaders if lead.power != power]
        return units

    def give_vp(self, power: str, vp: int) -> PlayerState | None:
        """§22: VP belong to players: the player running `power` gains (or loses) `vp`; None
        when nobody runs the power (the VP go to no one)."""
        player_id = self.powers[power].player
        if player_id is None:
            return None
        player = self.player(player_id)
        player.vp += vp
        return player

    def capacity(self, center: TradeCenter) -> int:
        """The places a trade center has for the powers' merchants: its capacity as the turn's
        special rules or events set it, else as printed (§19.2.1), less the merchants of no power
        in play that competition never removes (§34, RR-I211)."""
        return max(0, self.capacities.get(center.id, center.capacity) - self.fixed_merchants.get(center.id, 0))

    def by_game_order(self) -> list[PlayerState]:
        return sorted(self.players, key=lambda p: (p.game_order, p.seat))

    def powers_of(self, player_id: str, scenario: Scenario) -> list[str]:
        """The active powers a player controls, in the scenario's power order."""
        return [code for code in scenario.power_order
                if self.powers[code].player == player_id and self.powers[code].active]

    def runs(self, player_id: str, power: str) -> bool:
        """Whether `power` is one of the player's active powers (in `powers_of`)."""
        found = self.powers.get(power)
        return found is not None and found.player == player_id and found.active

    def exists(self, area: str) -> bool:
        """§18.2.1: an inactive area is treated as if it were not printed on the map."""
        return area not in self.inactive

    def in_revolt(self, area: str) -> bool:
        return self.areas[area].rebellion is not None

    def troop(self, troop_id: str) -> Troop | None:
        """The troop of that id, as written or in any case (ids differ by more than case)."""
        for troop in self.troops:
            if troop.id == troop_id:  # orders echo ids as written: no lowering on the common path
                return troop
        key = troop_id.lower()
        return next((t for t in self.troops if t.id.lower() == key), None)

    def troops_in(self, area: str) -> list[Troop]:
        return [t for t in self.troops if t.area == area]

    def stacks(self, areas: Collection[str] | None = None) -> dict[str, dict[str, list[Troop]]]:
        """The troops on the map (in `areas` if given) by area, then by power, in engine
        order: one pass over the troops for rules that look at many areas (stacking, §15.1.1)."""
        found: dict[str, dict[str, list[Troop]]] = {}
        for troop in self.troops:
            if troop.area is not None and (areas is None or troop.area in areas):
                found.setdefault(troop.area, {}).setdefault(troop.power, []).append(troop)
        return found

    def at_war(self, power: str, other: str | None = None) -> bool:
        """Whether `power` is at war (with `other`, if given)."""
        return any(power in war.sides and (other is None or other in war.sides) for war in self.wars)

    def war(self, power: str, other: str) -> War | None:
        return next((w for w in self.wars if power in w.sides and other in w.sides and power != other), None)

    def squadron(self, squadron_id: str) -> Squadron | None:
        key = squadron_id.lower()
        return next((s for s in self.squadrons if s.id.lower() == key), None)

    def in_forced_peace(self, power: str, other: str) -> bool:
        """§21.5.4: the two powers may neither declare war nor pirate one another; allies are
        in forced peace with each other (§21.1)."""
        return any({power, other} == set(pair) for pair in self.forced_peace) or self.allied(power, other)

    def allied(self, power: str, other: str) -> bool:
        return any({power, other} == set(pair) for pair in self.alliances)

    def allies(self, power: str) -> list[str]:
        """The powers allied with `power`, in the order the alliances were made (§21.1)."""
        return [pair[1] if pair[0] == power else pair[0] for pair in self.alliances if power in pair]

    def squadrons_at(self, sea: str) -> list[Squadron]:
        return [s for s in self.squadrons if s.sea == sea]

    def fortress_in(self, area: str) -> Fortress | None:
        return next((f for f in self.fortresses if f.area == area), None)

    def leader(self, leader_id: str) -> Leader | None:
        key = leader_id.lower()
        return next((lead for lead in self.leaders if lead.id.lower() == key), None)

    def leader_on(self, unit_id: str) -> Leader | None:
        return next((lead for lead in self.leaders if lead.unit == unit_id), None)

    def unit_place(self, unit_id: str) -> str | None:
        """Where a troop, squadron or fortress is: an area, `@sea`, a box, or None."""
        troop = self.troop(unit_id)
        if troop is not None:
            return troop.area or troop.box
        squadron = self.squadron(unit_id)
        if squadron is not None:
            return f"@{squadron.sea}" if squadron.sea else squadron.port
        fortress = next((f for f in self.fortresses if f.id == unit_id), None)
        return fortress.area if fortress is not None else None

    def unit_power(self, unit_id: str) -> str | None:
        unit = self.troop(unit_id) or self.squadron(unit_id) or next(
            (f for f in self.fortresses if f.id == unit_id), None)
        return unit.power if unit is not None else None

    def new_squadron(self, power: str, quality: int, *, sea: str | None = None, port: str | None = None,
                     repair: bool = False) -> Squadron:
        self.powers[power].squadron_pool[str(quality)] -= 1
        squadron = Squadron(id=f"S{self.next_squadron}", power=power, quality=quality, sea=sea, port=port,
                            repair=repair, base=port)
        self.next_squadron += 1
        self.squadrons.append(squadron)
        return squadron

    def new_fortress(self, power: str, area: str, built: bool) -> Fortress:
        fortress = Fortress(id=f"F{self.next_fortress}", power=power, area=area, built=built)
        self.next_fortress += 1
        self.fortresses.append(fortress)
        return fortress

    def record_eliminated(self, power: str, kind: str) -> None:
        """§23.1.1: a troop or squadron eliminated this turn is still maintained at its end."""
        self.eliminated.append((self.turn, power, kind))

    def new_troop(self, power: str, counter: str, quality: int, *, area: str | None = None,
                  box: str | None = None) -> Troop:
        """A counter taken from the power's pool, with the next engine id (T1, T2 …)."""
        self.powers[power].pool[counter] -= 1
        troop = Troop(id=f"T{self.next_troop}", power=power, counter=counter, quality=quality, area=area, box=box)
        self.next_troop += 1
        self.troops.append(troop)
        return troop


def regular_quality(counter: str) -> int:
    """The quality of a counter's regular side: 2-3 on 2, 3-4 on 3 (§9.1)."""
    return int(counter.split("-")[0])


def initial_state(scenario: Scenario, options: Options, seats: Sequence[Seat]) -> GameState:
    """The board before the power auction (§7.2): areas, pools and the first turn's
    deployment from the scenario; powers entering later stay inactive (§8.1.2)."""
    data = scenario.data
    players = [PlayerState(id=seat.id, name=seat.name, seat=index) for index, seat in enumerate(seats, start=1)]
    powers = {p.code: PowerState(code=p.code, active=p.enters is None or p.enters <= data.first_turn,
                                 unrest=p.vitality if p.unrest is None else p.unrest, pool=dict(p.troops), squadron_pool=dict(p.squadrons),
                                 morale=p.vitality) for p in data.powers}
    areas = {a.id: AreaState(possessor=a.possessor,
                             controller=a.controller if a.controller is not None else a.possessor,
                             independent=a.independent if a.active else None, rebellion=a.rebellion)
             for a in data.areas}
    state = GameState(phase=AUCTION_BIDS, turn=data.first_turn, options=options, players=players, powers=powers,
                      areas=areas)
    state.inactive = [a.id for a in data.areas if not a.active]
    state.leader_pool = [card.id for card in data.leaders if not card.historical
                         and not any(d.leader == card.id for d in data.deployment)]
    state.merchants = {tc.id: dict(tc.merchants) for tc in data.trade_centers}
    state.wars = [War(sides=tuple(w.sides), cause=w.cause) for w in data.wars]
    state.casus_belli = [tuple(cb) for cb in data.casus_belli]
    state.forced_peace = [tuple(pair) for pair in data.forced_peace]
    state.alliances = [tuple(alliance.powers) for alliance in data.alliances]  # §21.1, §33 (RR-I188)
    for power in data.powers:
        if state.powers[power.code].active:
            deploy(state, scenario, power.code)
        if power.automatic is not None:  # §33.1: an automatic power holds its capital (RR-I290)
            state.areas[power.automatic.capital] = AreaState(possessor=power.code, controller=power.code)
    state.minors = {m.code: MinorState(ally=scenario.starting_ally(m.code), pool=dict(m.troops),
                                     squadron_pool=dict(m.squadrons))
                    for m in data.minors}
    for code, minor in state.minors.items():  # §20.2: an allied minor's areas count as its ally's (RR-I141)
        for area in scenario.minor_areas(code) if minor.ally else ():
            state.areas[area].controller = state.areas[area].controller or minor.ally
    return state


def deploy(state: GameState, scenario: Scenario, power: str) -> list[str]:
    """Place a power's scenario deployment (§24 as scenario data) and activate it;
    returns what was placed, for the chronicle."""
    state.powers[power].active = True
    placed = []
    for entry in scenario.data.deployment:
        if entry.power != power or entry.unit == "merchant":  # merchants: `deployment.enter_merchants` (§24)
            continue
        for _ in range(entry.count):
            if entry.unit == "troop":
                troop = state.new_troop(power, entry.counter, regular_quality(entry.counter), area=entry.area,
                                        box=entry.box)
                troop.quality += entry.veteran
                placed.append(f"{troop.id} at {troop.where()}")
            elif entry.unit == "squadron":
                squadron = state.new_squadron(power, entry.quality, sea=entry.sea, port=entry.area,
                                              repair=entry.status == "repair")
                squadron.base = entry.area or entry.base or _first_port(state, scenario, power, entry.sea)
                placed.append(f"{squadron.id} at {squadron.where()}")
            elif entry.unit == "fortress":
                fortress = state.new_fortress(power, entry.area, built=entry.status != "construction")
                placed.append(f"{fortress.id} at {fortress.area}")
            else:
                host = first_unit(state, power, entry.area or entry.box, entry.sea)
                state.leaders.append(Leader(id=entry.leader, power=power, unit=host, extraordinary=entry.extraordinary))
                placed.append(f"{entry.leader} on {host}")
    return placed


def _first_port(state: GameState, scenario: Scenario, power: str, sea: str) -> str | None:
    """RR-I51: a squadron deployed at sea without a `base` takes as home port the power's
    first controlled port on that sea in the scenario's order (none: no home port yet)."""
    return next((a for a in scenario.port_areas(sea) if state.areas[a].controller == power), None)


def first_unit(state: GameState, power: str, place: str | None, sea: str | None) -> str:
    """The unit a deployed leader stands on: the power's first troop, squadron or
    fortress at the place (scenario data is checked to have one)."""
    for troop in state.troops:
        if troop.power == power and place is not None and place in (troop.area, troop.box):
            return troop.id
    for squadron in state.squadrons:
        if squadron.power == power and (squadron.sea == sea if sea else squadron.port == place):
            return squadron.id
    for fortress in state.fortresses:
        if fortress.power == power and fortress.area == place:
            return fortress.id
    raise ValueError(f"no unit of {power} at {place or sea} to carry a leader")


_codec = StructCodec(GameState)
encode_state = _codec.encode
decode_state = _codec.decode
