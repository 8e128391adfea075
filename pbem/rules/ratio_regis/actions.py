"""Power actions (§9) and the end-of-impulse move home (§8.2.2, §18.1).

Each action checks its legality against the state and either changes the state and
returns what happened (one chronicle line), or raises `IllegalOrder` and leaves the
state as it was. Later issues add squadrons, fortresses, leaders, tactical movement …
as more functions of the same shape, dispatched from `ACTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.movement import Convoy, IllegalOrder, resolve_area, strategic_move
from pbem.rules.ratio_regis.orders import (Attach, BuildTroop, FormFleet, Home, Regroup, Sail, Sortie, StratTroop,
                                           Swap, Verb)
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop, regular_quality

#: Free steps at the start of an impulse (§8.2.2, §11.6, §13.3.1) and at any time (§11.2, §17.1).
FREE_AT_START = (Sail, Sortie, Swap)
FREE_ANY_TIME = (FormFleet, Attach)


def counter_for(quality: int) -> str:
    """Q2 is a 2-3 counter on its 2 side, Q3 a 3-4 counter on its 3 side (§9.1)."""
    return {2: "2-3", 3: "3-4"}.get(quality, "")


def stacking_limit(state: GameState, scenario: Scenario, area: str, power: str | None = None) -> int:
    """§15.1, §17.3.2: the area's limit, +1 with an extraordinary Organizer present."""
    organizer = any(lead.extraordinary and scenario.leaders[lead.id].ability == "organizer"
                    and state.unit_place(lead.unit) == area and (power is None or lead.power == power)
                    for lead in state.leaders)
    return scenario.areas[area].stacking + organizer


def stack_count(state: GameState, area: str, power: str | None = None) -> int:
    """Troops counted for stacking (§15.1.1): unbesieged troops of one side, or the
    besieged and their fortress."""
    troops = [t for t in state.troops_in(area) if power is None or t.power == power]
    return len(troops) + any(t.besieged for t in troops)


def check_stacking(state: GameState, scenario: Scenario, areas: Collection[str]) -> None:
    """No area may be over its stacking limit when an action ends (§15.1.1).

    RR-I5: an action that would end overstacked is refused (the player rewrites it)
    rather than carried out with the excess dispersed. Each power's troops are counted
    apart (besiegers and besieged, §13.3.5).
    """
    for area in sorted(set(areas)):
        if area not in scenario.areas:
            continue
        powers = sorted({t.power for t in state.troops_in(area)})
        counts = {p: stack_count(state, area, p) for p in powers}
        power = max(powers, key=lambda p: counts[p]) if powers else None
        count = counts.get(power, 0)
        limit = stacking_limit(state, scenario, area, power)
        if count > limit:
            raise IllegalOrder(f"{area} would hold {count} troops, over its stacking limit of {limit} (§15.1.1)")


def own_troop(state: GameState, power: str, troop_id: str) -> Troop:
    troop = state.troop(troop_id)
    if troop is None or troop.power != power:
        raise IllegalOrder(f"{power} has no troop {troop_id}")
    return troop


def build_troop(state: GameState, scenario: Scenario, power: str, order: BuildTroop, run: ImpulseRun) -> str:
    """§9.1: a counter from the power's pool; 2-3 troops on their 2 side in any controlled
    possession, not in revolt (§18.3), 3-4 troops on their 3 side in the theater with most
    home areas (RR-I3); the action may include a strategic move of the new troop (§10.2)."""
    counter = counter_for(order.quality)
    if not counter:
        raise IllegalOrder("troops are built as Q2 (a 2-3 counter) or Q3 (a 3-4 counter) (§9.1)")
    if state.powers[power].pool.get(counter, 0) < 1:
        raise IllegalOrder(f"{power} has no {counter} troop counter left to build")
    area = resolve_area(scenario, order.area, state)
    status = state.areas[area]
    if status.possessor != power or status.controller != power:
        raise IllegalOrder(f"{area} is not a possession controlled by {power} (§9.1)")
    if status.rebellion:
        raise IllegalOrder(f"{area} is in revolt ({status.rebellion}): no troop can be recruited there until the "
                           f"rebellion is put down (§18.3)")
    if counter == "3-4":
        _check_elite_area(state, scenario, power, area)
    troop = state.new_troop(power, counter, regular_quality(counter), area=area)
    built = f"{power} builds {troop.id} (Q{troop.quality}) at {area}"
    return _then_move(state, scenario, troop, order.path, run, built)


def _check_elite_area(state: GameState, scenario: Scenario, power: str, area: str) -> None:
    if state.options.elite_build == "home-areas":
        if area not in scenario.powers[power].home_areas:
            raise IllegalOrder(f"{power} builds 3-4 troops only in its home areas (§9 table; option elite_build)")
        return
    theater = scenario.home_theater(power)
    if scenario.areas[area].theater != theater:
        raise IllegalOrder(f"{power} builds 3-4 troops only in {theater}, the theater with most of its home "
                           f"areas (§9.1)")


def regroup(state: GameState, scenario: Scenario, power: str, order: Regroup, run: ImpulseRun) -> str:
    """§9.5: a troop dispersed at the start of the impulse goes to a controlled area of its
    dispersion box's theater (WE has two boxes), not in revolt (§18.3); it may then move
    strategically."""
    troop = own_troop(state, power, order.troop)
    if troop.id not in run.start.dispersed:
        raise IllegalOrder(f"{troop.id} was not dispersed at the start of this impulse (§9.5)")
    area = resolve_area(scenario, order.area, state)
    if scenario.box_of(area) != troop.box:
        raise IllegalOrder(f"{area} is not in the area of dispersion box {troop.box} (§9.5)")
    if state.areas[area].controller != power:
        raise IllegalOrder(f"{area} is not controlled by {power} (§9.5)")
    if state.areas[area].rebellion:
        raise IllegalOrder(f"{area} is in revolt ({state.areas[area].rebellion}): no troop can regroup there (§18.3)")
    troop.box, troop.area = None, area
    return _then_move(state, scenario, troop, order.path, run, f"{power} regroups {troop.id} at {area}")


def _then_move(state: GameState, scenario: Scenario, troop: Troop, path, run: ImpulseRun, text: str) -> str:
    """§9.1, §9.5: a built or regrouped troop may make one strategic move in the same
    action; stacking must hold where it was placed and where it ends (§15.1.1)."""
    touched = [troop.area]
    if path:
        route = strategic_move(state, scenario, troop, path, run)
        touched.append(troop.area)
        text += " and moves it " + route_text(route, scenario)
    check_stacking(state, scenario, touched)
    return text


def strategic_troop(state: GameState, scenario: Scenario, power: str, order: StratTroop,
                    run: ImpulseRun) -> str:
    """§10.2: one troop (with its leader, once leaders exist) along a path."""
    troop = own_troop(state, power, order.troop)
    route = strategic_move(state, scenario, troop, order.path, run, Convoy(power, order.escort, order.fights))
    check_stacking(state, scenario, [troop.area])
    run.ledger.acted.add(troop.id)
    return f"{power} moves {troop.id} strategically " + route_text(route, scenario)


def route_text(route: Sequence[str], scenario: Scenario) -> str:
    """A route as the chronicle writes it: seas with their @."""
    return ">".join(f"@{place}" if place in scenario.seas else place for place in route)


def move_home(state: GameState, scenario: Scenario, power: str, order: Home, run: ImpulseRun) -> str:
    """§8.2.2 / §18.1 (RR-I2): one unit to the dispersion box of the power's home theater."""
    troop = own_troop(state, power, order.troop)
    box = scenario.home_box(power)
    if troop.box == box:
        raise IllegalOrder(f"{troop.id} is already in {box}")
    if state.options.home_move == "dispersed-only" and troop.box is None:
        raise IllegalOrder(f"only a dispersed troop may go home (§18.1; option home_move); {troop.id} is in "
                           f"{troop.area}")
    origin = troop.where()
    troop.area, troop.box = None, box
    return f"{power} brings {troop.id} home from {origin} to {box}"


class ImpulseStart:
    """What the rules test as of the start of the impulse (§8.2.2 "Start of impulse",
    research §2.4 step 1a): dispersed troops (may regroup), squadrons under repair (may be
    repaired), fortresses under construction (may be finished), squadrons at sea (may
    pirate there), troops in coastal areas (may land)."""

    def __init__(self, state: GameState):
        self.dispersed = frozenset(t.id for t in state.troops if t.box is not None)
        self.under_repair = frozenset(s.id for s in state.squadrons if s.repair)
        self.building = frozenset(f.id for f in state.fortresses if not f.built)
        self.at_sea = {s.id: s.sea for s in state.squadrons if s.sea is not None}
        self.areas = {t.id: t.area for t in state.troops if t.area is not None and not t.besieged}


@dataclass
class ImpulseRun:
    """One run of an impulse script: the adjudicator (dice and decisions), the start
    snapshot, what the impulse has spent, and whose impulse it is."""

    judge: DecisionPort
    start: ImpulseStart
    ledger: Any
    player: str


Action = Callable[[GameState, Scenario, str, Verb, ImpulseRun], str]

ACTIONS: dict[type, Action] = {
    BuildTroop: build_troop,
    Regroup: regroup,
    StratTroop: strategic_troop,
    Home: move_home,
}


def register(verb: type) -> Callable[[Action], Action]:
    """Add an action of another module to `ACTIONS` (the modules named after the game's
    concepts each register theirs)."""
    def wrap(function: Action) -> Action:
        ACTIONS[verb] = function
        return function
    return wrap
