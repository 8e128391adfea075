"""The game state of Ratio Regis as plain data (research §5).

Everything here is a `msgspec.Struct` so the state encodes to canonical JSON (hashed at
every resolved step) and decodes to a fresh copy for every run of a step. Hidden
information (hands) lives here too; it leaves only through `views.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis.options import Options
from pbem.rules.ratio_regis.scenario import Scenario

# Phases of the sequence of play, in order (§7, §8).
AUCTION_BIDS = "auction-bids"
AUCTION_GROUPS = "auction-groups"
TURN_START = "turn-start"
HALF_TURN_START = "half-turn-start"
IMPULSE = "impulse"
TURN_END = "turn-end"
FINISHED = "finished"

CLOCKWISE, COUNTER_CLOCKWISE = "CW", "CCW"


class PlayerState(msgspec.Struct):
    id: str
    name: str
    seat: int  # 1-based seating order, fixed for the game (§7.1.1)
    game_order: int = 0  # "player 1", "player 2" … from the auction (§7.1.1)
    bid: int | None = None  # revealed only once every bid is in
    group: int | None = None  # 1-based index into the scenario's groups for this player count
    vp: int = 0
    vp_per_turn: int = 0
    hand: list[int] = []  # card numbers, secret (§8.1.4)


class PowerState(msgspec.Struct):
    code: str
    player: str | None = None
    active: bool = True  # False until a power entering later has deployed (§8.1.2)
    unrest: int = 0
    pool: dict[str, int] = {}  # troop counters available to build, by type (§9.1)
    intrinsic_used: bool = False  # only with the option intrinsic_action=turn (RR-I1)


class Troop(msgspec.Struct):
    """A troop counter on the map (`area`) or in a dispersion box (`box`)."""

    id: str
    power: str
    counter: str  # "2-3" or "3-4"
    quality: int
    area: str | None = None
    box: str | None = None

    def where(self) -> str:
        return self.area if self.area is not None else f"dispersed ({self.box})"


class AreaState(msgspec.Struct):
    possessor: str | None = None
    controller: str | None = None


class War(msgspec.Struct):
    """Two powers at war. The war rules (§21) fill this list; §8.2.3 reads it."""

    sides: tuple[str, str]


class HalfTurn(msgspec.Struct):
    """Who starts, the direction, and whose impulse it is (§8.2)."""

    chooser: str
    first: str | None = None
    direction: str | None = None
    current: str | None = None
    impulse: int = 0


class GameState(msgspec.Struct):
    phase: str
    turn: int
    options: Options
    players: list[PlayerState]  # in seating order
    powers: dict[str, PowerState]
    areas: dict[str, AreaState]
    troops: list[Troop] = []
    next_troop: int = 1
    discard: list[int] = []  # cards played this turn, face up, in the order played
    half: HalfTurn | None = None
    wars: list[War] = []
    winners: list[str] = []

    # -- look-ups ---------------------------------------------------------
    def player(self, player_id: str) -> PlayerState:
        return next(p for p in self.players if p.id == player_id)

    def by_game_order(self) -> list[PlayerState]:
        return sorted(self.players, key=lambda p: (p.game_order, p.seat))

    def powers_of(self, player_id: str, scenario: Scenario) -> list[str]:
        """The active powers a player controls, in the scenario's power order."""
        return [code for code in scenario.power_order
                if self.powers[code].player == player_id and self.powers[code].active]

    def troop(self, troop_id: str) -> Troop | None:
        return next((t for t in self.troops if t.id.lower() == troop_id.lower()), None)

    def troops_in(self, area: str) -> list[Troop]:
        return [t for t in self.troops if t.area == area]

    def at_war(self, power: str) -> bool:
        return any(power in war.sides for war in self.wars)

    def new_troop(self, power: str, counter: str, quality: int, *, area: str | None = None,
                  box: str | None = None) -> Troop:
        """A counter taken from the power's pool, with the next engine id (T1, T2 …)."""
        self.powers[power].pool[counter] -= 1
        troop = Troop(f"T{self.next_troop}", power, counter, quality, area, box)
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
    players = [PlayerState(seat.id, seat.name, index) for index, seat in enumerate(seats, start=1)]
    powers = {p.code: PowerState(p.code, active=p.enters is None or p.enters <= data.first_turn,
                                 unrest=p.vitality, pool=dict(p.troops)) for p in data.powers}
    areas = {a.id: AreaState(a.possessor, a.controller if a.controller is not None else a.possessor)
             for a in data.areas}
    state = GameState(AUCTION_BIDS, data.first_turn, options, players, powers, areas)
    for power in data.powers:
        if state.powers[power.code].active:
            deploy(state, scenario, power.code)
    return state


def deploy(state: GameState, scenario: Scenario, power: str) -> list[Troop]:
    """Place a power's scenario deployment (§24 as scenario data) and activate it."""
    state.powers[power].active = True
    placed = []
    for entry in scenario.data.deployment:
        if entry.power == power:
            for _ in range(entry.count):
                placed.append(state.new_troop(power, entry.counter, regular_quality(entry.counter),
                                              area=entry.area, box=entry.box))
    return placed


_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder(GameState)


def encode_state(state: GameState) -> bytes:
    return _encoder.encode(state)


def decode_state(data: bytes) -> GameState:
    return _decoder.decode(data)
