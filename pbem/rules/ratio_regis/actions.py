"""Power actions (§9): how an action is run and what every action checks.

Each action checks its legality against the state and either changes the state and
returns what happened (one chronicle line), or raises `IllegalOrder` and leaves the
state as it was. The modules named after the game's concepts (troops, naval, sieges,
leaders, tactical movement …) hold theirs, listed in `action_table.ACTIONS`; this module holds what they
share: the impulse's start snapshot, stacking (§15.1) and a route as the chronicle writes it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pbem.core.orders import unknown_name
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.orders import Ally, Attach, Dissolve, FormFleet, PeaceTalks, Sail, Sortie, Swap, Verb
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop

#: Free steps at the start of an impulse (§8.2.2, §11.6, §13.3.1, §21.1, §21.4.1) and at any time (§11.2, §17.1,
#: §21.2.3).
FREE_AT_START = (Sail, Sortie, Swap, Ally, PeaceTalks)
FREE_ANY_TIME = (FormFleet, Attach, Dissolve)


def stacking_limit(state: GameState, scenario: Scenario, area: str, power: str | None = None) -> int:
    """§15.1, §17.3.2: the area's limit, +1 with an extraordinary Organizer present."""
    organizer = any(lead.extraordinary and (power is None or lead.power == power)
                    and scenario.leaders[lead.id].ability == "organizer" and state.unit_place(lead.unit) == area
                    for lead in state.leaders)  # where the leader is, a scan of the units, asked last
    return scenario.areas[area].stacking + organizer


def stack_count(state: GameState, area: str, power: str | None = None) -> int:
    """Troops counted for stacking (§15.1.1): unbesieged troops of one side, or the
    besieged and their fortress."""
    return counted([t for t in state.troops_in(area) if power is None or t.power == power])


def counted(troops: Sequence[Troop]) -> int:
    """§15.1.1: what one side's troops in an area count (`stack_size`)."""
    inside = sum(1 for t in troops if t.besieged)
    return stack_size(len(troops) - inside, inside)


def stack_size(free: int, inside: int) -> int:
    """§15.1.1: one side's troops in an area count one each, their fortress one more when
    they are besieged in it. "The stacking limits are examined separately (relief army,
    besieged and besiegers)" (§13.3.5): a power's troops in its fortress and those outside
    it — the ones that did not join it, §13.4.1 — are two stacks (RR-I88)."""
    return max(free, inside + 1 if inside else 0)


def check_stacking(state: GameState, scenario: Scenario, areas: Collection[str]) -> None:
    """No area may be over its stacking limit when an action ends (§15.1.1).

    RR-I5: an action that would end overstacked is refused (the player rewrites it)
    rather than carried out with the excess dispersed. Each power's troops are counted
    apart (besiegers and besieged, §13.3.5); in each area the largest stack (the first
    power by code on a tie) is held to its limit.
    """
    printed = scenario.areas
    ceiling = most_counted(state)
    for area in sorted({area for area in areas if area in printed}):
        if ceiling.get(area, 0) <= printed[area].stacking:
            continue  # no stack can be over even the printed limit
        here = [t for t in state.troops if t.area == area]
        sides: dict[str, list[Troop]] = {}
        for troop in here:
            sides.setdefault(troop.power, []).append(troop)
        negative, power = min((-counted(troops), power) for power, troops in sides.items())
        limit = stacking_limit(state, scenario, area, power)
        if -negative > limit:
            raise IllegalOrder(f"{area} would hold {-negative} troops, over its stacking limit of {limit} (§15.1.1)")


def most_counted(state: GameState) -> dict[str, int]:
    """The most any one stack can count in each area holding troops, in one pass: all its
    troops, and their fortress when some are besieged (`stack_size`). An area whose ceiling
    is within its limit needs no closer count."""
    troops: dict[str, int] = {}
    besieged: set[str] = set()
    for troop in state.troops:
        if troop.area is not None:
            troops[troop.area] = troops.get(troop.area, 0) + 1
            if troop.besieged:
                besieged.add(troop.area)
    return {area: count + (area in besieged) for area, count in troops.items()}


def stack_sizes(state: GameState, areas: Collection[str] | None = None) -> dict[tuple[str, str], int]:
    """What each power's troops count in each area of the map (in `areas` if given), by
    `stack_size`, in one pass over the troops: it runs at the end of every action."""
    free: dict[tuple[str, str], int] = {}
    inside: dict[tuple[str, str], int] = {}
    for troop in state.troops:
        area = troop.area
        if area is None or (areas is not None and area not in areas):
            continue
        key = (area, troop.power)
        if troop.besieged:
            inside[key] = inside.get(key, 0) + 1
        else:
            free[key] = free.get(key, 0) + 1
    if not inside:  # no siege on the map: each troop counts one
        return free
    return {key: stack_size(free.get(key, 0), inside.get(key, 0)) for key in {**free, **inside}}


def own_troop(state: GameState, power: str, troop_id: str) -> Troop:
    troop = state.troop(troop_id)
    if troop is None or troop.power != power:
        raise IllegalOrder(f"{power} has no troop {troop_id}")
    return troop


def check_other_power(state: GameState, scenario: Scenario, power: str, other: str, doing: str) -> None:
    """The major power an action of `power` names (an alliance, a war): known, another power, in
    play; `doing` is what the refusal says cannot be done to oneself ("declare war on")."""
    if other not in scenario.powers:
        raise IllegalOrder(unknown_name("power", other, scenario.power_order))
    if other == power:
        raise IllegalOrder(f"a power cannot {doing} itself")
    if not state.powers[other].active:
        raise IllegalOrder(f"{other} is not in play")


def route_text(route: Sequence[str], scenario: Scenario) -> str:
    """A route as the chronicle writes it: seas with their @."""
    return ">".join([f"@{place}" if place in scenario.seas else place for place in route])


class ImpulseStart:
    """What the rules test as of the start of the impulse (§8.2.2 "Start of impulse",
    research §2.4 step 1a): dispersed troops (may regroup), squadrons under repair (may be
    repaired), fortresses under construction (may be finished), squadrons at sea (may
    pirate there), troops in coastal areas (may land)."""

    def __init__(self, state: GameState):
        self._found = lambda: state
        for name in ("dispersed", "under_repair", "building", "at_sea", "areas"):
            getattr(self, name)  # read now: `state` goes on changing

    @classmethod
    def when_asked(cls, found: Callable[[], GameState]) -> ImpulseStart:
        """Read from `found()`, the state as the impulse found it, when a rule first asks:
        most impulses never do."""
        start = cls.__new__(cls)
        start._found = found
        return start

    @cached_property
    def _state(self) -> GameState:
        return self._found()

    @cached_property
    def dispersed(self) -> frozenset[str]:
        return frozenset(t.id for t in self._state.troops if t.box is not None)

    @cached_property
    def under_repair(self) -> frozenset[str]:
        return frozenset(s.id for s in self._state.squadrons if s.repair)

    @cached_property
    def building(self) -> frozenset[str]:
        return frozenset(f.id for f in self._state.fortresses if not f.built)

    @cached_property
    def at_sea(self) -> dict[str, str]:
        return {s.id: s.sea for s in self._state.squadrons if s.sea is not None}

    @cached_property
    def areas(self) -> dict[str, str]:
        return {t.id: t.area for t in self._state.troops if t.area is not None and not t.besieged}


@dataclass(slots=True)
class ImpulseRun:
    """One run of an impulse script: the adjudicator (dice and decisions), the start
    snapshot, what the impulse has spent, and whose impulse it is."""

    judge: DecisionPort
    start: ImpulseStart
    ledger: Any
    player: str


Action = Callable[[GameState, Scenario, str, Verb, ImpulseRun], str]
