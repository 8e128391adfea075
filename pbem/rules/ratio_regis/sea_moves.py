"""Strategic movement across seas (§10.2, §10.2.1), of armies and fleets (§10.3) and
between maps (§10.4).

`travel` carries troops along a checked route (`movement.plan_route`) and stops them in
the last land area crossed when an interceptor wins (§10.2.1). `strategic_stack` is the
`STRAT ARMY|FLEET` action: a leader placed on any own troop or squadron moves it with up
to four units, picking up `(+id)` and dropping `(-id)` along the path.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.rules.ratio_regis.actions import ImpulseRun, check_stacking, own_troop, route_text
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.interception import check_escort, cross
from pbem.rules.ratio_regis.movement import Convoy, plan_route
from pbem.rules.ratio_regis.naval import (check_minor_reach, check_not_pirated, check_stays, own_squadron, port_limit,
                                          resolve_sea, sail_path)
from pbem.rules.ratio_regis.orders import StratStack, Stop
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop

#: §10.3: never more than four troops or squadrons in the stack.
STACK_LIMIT = 4


def travel(state: GameState, scenario: Scenario, run: ImpulseRun | None, convoy: Convoy | None,
           route: Sequence[str], troops: list[Troop],
           changes: Mapping[int, tuple[Sequence[Troop], Sequence[Troop]]] = {}) -> list[str]:
    """Carry `troops` along `route` (places, seas by id); at a land place `i` the stack
    takes and drops `changes[i]`. Each sea entered may be intercepted (§11.4.1); a lost
    interception puts the troops in the last land area crossed and ends the move
    (§10.2.1). Returns the places actually crossed."""
    power = troops[0].power
    first_sea = next((i for i, place in enumerate(route) if place in scenario.seas), None)
    if first_sea is not None:
        if run is None:
            raise IllegalOrder("this move cannot cross a sea (§10.2)")
        convoy = convoy or Convoy(power)
        check_escort(state, scenario, convoy, route[first_sea - 1])
    carried = list(troops)
    last_land = route[0]
    for index, place in enumerate(route[1:], start=1):
        if place in scenario.seas:
            if not cross(state, scenario, run, convoy, place, [t.id for t in carried]):
                for troop in carried:
                    troop.area = last_land
                run.judge.say(f"{', '.join(t.id for t in carried)} go back to {last_land} (§10.2.1)",
                              rule="§10.2.1")
                return list(route[:index]) + [last_land]
            continue
        last_land = place
        taken, dropped = changes.get(index, ((), ()))
        for troop in dropped:
            troop.area = place
            carried.remove(troop)
        carried += taken
    for troop in carried:
        troop.area = route[-1]
    return list(route)


def map_of(scenario: Scenario, place: str) -> str:
    return scenario.seas[place].map if place in scenario.seas else scenario.areas[place].map


def strategic_stack(state: GameState, scenario: Scenario, power: str, order: StratStack, run: ImpulseRun) -> str:
    """§10.3: a leader (not besieged) is placed on any own troop or squadron, which moves
    with the troops or squadrons it takes and drops on the way, never more than four;
    not between maps (§10.4)."""
    leader = state.leader(order.leader)
    if leader is None or leader.power != power:
        raise IllegalOrder(f"{power} has no leader {order.leader}")
    host = state.troop(leader.unit)
    if host is not None and host.besieged:
        raise IllegalOrder(f"{leader.id} is besieged (§10.3)")
    if order.kind == "ARMY":
        text = _army(state, scenario, power, order, run)
    else:
        text = _fleet(state, scenario, power, order, run)
    leader.unit = order.unit
    return text


def _split(stops: Sequence[Stop], scenario: Scenario, start: str) -> tuple[Stop, list[Stop]]:
    """The first stop may repeat the start (to take units there)."""
    first = stops[0].place
    here = resolve_sea(scenario, first) if first.startswith("@") else scenario.find_area(first)
    if here == start:
        return stops[0], list(stops[1:])
    return Stop(start), list(stops)


def _army(state: GameState, scenario: Scenario, power: str, order: StratStack, run: ImpulseRun) -> str:
    lead = own_troop(state, power, order.unit)
    if lead.area is None or lead.besieged:
        raise IllegalOrder(f"{lead.id} is not free on the map (§10.3)")
    start, stops = _split(order.stops, scenario, lead.area)
    if start.drop:
        raise IllegalOrder("nothing can be dropped where the move starts")
    if not stops:
        raise IllegalOrder("the path names no area to move to")
    route = plan_route(state, scenario, power, [lead.id], lead.area, [s.place for s in stops])
    if any(map_of(scenario, place) != map_of(scenario, route[0]) for place in route):
        raise IllegalOrder("armies and fleets do not move between maps: move single troops (§10.4)")
    carried = [lead] + _troops_at(state, power, start.take, lead.area)
    _check_limit(len(carried))
    changes: dict[int, tuple[list[Troop], list[Troop]]] = {}
    count = len(carried)
    for index, stop in enumerate(stops, start=1):
        if (stop.take or stop.drop) and route[index] in scenario.seas:
            raise IllegalOrder(f"troops are taken or dropped in land areas, not at sea (@{route[index]})")
        dropped = [own_troop(state, power, u) for u in stop.drop]
        taken = _troops_at(state, power, stop.take, route[index])
        if lead in dropped:
            raise IllegalOrder(f"{lead.id} carries the leader and goes to the end of the move")
        count += len(taken) - len(dropped)
        _check_limit(count)
        changes[index] = (taken, dropped)
    moving = carried + [t for taken, _ in changes.values() for t in taken]
    moved = travel(state, scenario, run, Convoy(power, order.escort, order.fights), route, carried, changes)
    check_stacking(state, scenario, [p for p in route if p in scenario.areas])
    run.ledger.acted.update(t.id for t in moving)
    return f"{power} moves army {order.leader} strategically " + route_text(moved, scenario)


def _troops_at(state: GameState, power: str, ids: Sequence[str], area: str) -> list[Troop]:
    troops = [own_troop(state, power, u) for u in ids]
    wrong = [t.id for t in troops if t.area != area or t.besieged]
    if wrong:
        raise IllegalOrder(f"{', '.join(wrong)} cannot be taken in {area}: not free there")
    return troops


def _check_limit(count: int) -> None:
    if count > STACK_LIMIT:
        raise IllegalOrder(f"never more than {STACK_LIMIT} troops or squadrons in a strategic move (§10.3)")


def _fleet(state: GameState, scenario: Scenario, power: str, order: StratStack, run: ImpulseRun) -> str:
    lead = own_squadron(state, power, order.unit)
    start_place = lead.sea or lead.port
    start, stops = _split(order.stops, scenario, start_place)
    if not stops:
        raise IllegalOrder("the path names no sea to move to")
    carried = [lead] + [own_squadron(state, power, u) for u in start.take]
    for squadron in carried[1:]:
        if squadron.sea != lead.sea or squadron.port != lead.port or squadron.repair:
            raise IllegalOrder(f"{squadron.id} is not operational with {lead.id} where the move starts")
    _check_limit(len(carried))
    for squadron in carried:
        check_not_pirated(squadron, run)
    check_stays(state, carried)
    route = sail_path(state, scenario, lead, [s.place for s in stops])
    check_minor_reach(state, scenario, carried, route)
    if any(map_of(scenario, p if p in scenario.areas else p[1:]) != map_of(scenario, route[0].lstrip("@"))
           for p in route):
        raise IllegalOrder("armies and fleets do not move between maps: move single squadrons (§10.4)")
    for index, (place, stop) in enumerate(zip(route[1:], stops, strict=True), start=1):
        if not place.startswith("@") and (stop.take or stop.drop):
            raise IllegalOrder(f"a fleet takes and drops squadrons at sea, not in port ({place})")
        here = place[1:]
        for unit in stop.drop:
            squadron = own_squadron(state, power, unit)
            if squadron not in carried or squadron is lead:
                raise IllegalOrder(f"{unit} is not a squadron the fleet can drop here")
            carried.remove(squadron)
            squadron.sea, squadron.port, squadron.fleet = here, None, None
        for unit in stop.take:
            squadron = own_squadron(state, power, unit)
            if squadron.sea != here or squadron.repair:
                raise IllegalOrder(f"{unit} is not operational at @{here} to be taken")
            check_not_pirated(squadron, run)
            check_minor_reach(state, scenario, [squadron], route[index:])
            carried.append(squadron)
        _check_limit(len(carried))
    if lead.port is not None:
        port_limit(state, scenario, lead.port, order.leader, len(carried))
    for squadron in carried:
        squadron.sea, squadron.port = lead.sea, lead.port
        squadron.base = lead.port or squadron.base
        squadron.fleet = order.leader if lead.sea is not None else None
    return f"{power} moves fleet {order.leader} strategically " + ">".join(route)
