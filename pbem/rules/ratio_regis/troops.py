"""Troops raised, regrouped, moved strategically and sent home (§9.1, §9.5, §10.2,
§8.2.2, §18.1).

A strategic move's route is checked whole first (`movement.plan_route`); a route with
seas is then carried by `sea_moves.travel`, which resolves the naval interceptions
(§10.2.1, §11.4.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.rules.ratio_regis.actions import ImpulseRun, check_stacking, own_troop, route_text
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.movement import Convoy, plan_route, resolve_area
from pbem.rules.ratio_regis.orders import BuildTroop, Home, Regroup, StratTroop
from pbem.rules.ratio_regis.recruitment import elite_refusal
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.sea_moves import travel
from pbem.rules.ratio_regis.state import GameState, Troop, regular_quality


def counter_for(quality: int) -> str:
    """Q2 is a 2-3 counter on its 2 side, Q3 a 3-4 counter on its 3 side (§9.1)."""
    return {2: "2-3", 3: "3-4"}.get(quality, "")


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
    if counter == "3-4" and (refusal := elite_refusal(state, scenario, power, area)):
        raise IllegalOrder(refusal)
    troop = state.new_troop(power, counter, regular_quality(counter), area=area)
    built = f"{power} builds {troop.id} (Q{troop.quality}) at {area}"
    return _then_move(state, scenario, troop, order.path, run, built)


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


def strategic_move(state: GameState, scenario: Scenario, troop: Troop, path: Sequence[str], run=None,
                   convoy=None) -> list[str]:
    """Move `troop` along `path` (§10.2); returns the places crossed, start included, up
    to where the troop ended (an interception stops it, §10.2.1).

    The path may repeat the troop's area as its first step or start from the next one.
    """
    if troop.area is None:
        raise IllegalOrder(f"{troop.id} is dispersed; regroup it first (§9.5)")
    steps = list(path)
    if steps and scenario.find_area(steps[0]) == troop.area:
        steps = steps[1:]
    if not steps:
        raise IllegalOrder("the path names no area to move to")
    route = plan_route(state, scenario, troop.power, [troop.id], troop.area, steps)
    if set(route) <= scenario.areas.keys():  # no sea crossed
        troop.area = route[-1]
        return route
    return travel(state, scenario, run, convoy, route, [troop])


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
