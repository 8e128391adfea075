"""Leaders moving between corps (§10.6.2): a leader moves only with a corps it began the
Land Movement Step with, so at the step's start it may join any corps of its power in
its own area, and then moves with that corps (EIA-I131). A player's standing choices for
his leaders (EIA-I180, EIA-I181): which to retire from the map and where each returns
(§5.3), and which commands among equally senior leaders (§10.6.1.1.2)."""

from __future__ import annotations

from pbem.core.orders import unknown_name
from pbem.rules.empires_in_arms.movement import OrderError, own_corps
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.orders import FIRST, HOLD, JoinCorps, Place, PreferCommanders, Retire
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState, Leader


def any_leader(state: GameState, scenario: Scenario, power: str, name: str) -> Leader:
    """The power's leader a player wrote, in any case, on the map or off it; a minor free
    state's leaders are its controller's to order (§7.1.1)."""
    leader = next((lead for lead in state.leaders if lead.id.lower() == name.lower()), None)
    if leader is None:
        raise OrderError(unknown_name("leader", name, [lead.id for lead in state.leaders
                                                       if scenario.major(lead.power) == power]))
    if scenario.major(leader.power) != power:
        raise OrderError(f"{leader.id} is a leader of {leader.power}, not of {power}")
    return leader


def own_leader(state: GameState, scenario: Scenario, power: str, name: str) -> Leader:
    """The power's leader a player wrote, in any case, on the map: with a corps or in a city
    (§7.3.3.4)."""
    leader = any_leader(state, scenario, power, name)
    if leader.corps is None and not leader.city:
        raise OrderError(f"{leader.id} is off the map; it returns in an Army Reinforcement Step (§5.3)")
    return leader


def same_nation(leader: Leader, corps: Corps) -> None:
    """§10.6.2: a leader joins only a corps of its own nation (a minor free state's leaders
    its corps, §7.1.1); `OrderError` otherwise."""
    if corps.power != leader.power:
        raise OrderError(f"{leader.id} is a leader of {leader.power}; {corps.id} is a corps of {corps.power}: a leader "
                         "joins a corps of its own nation (§10.6.2)")


def join_corps(state: GameState, scenario: Scenario, power: str, order: JoinCorps) -> str:
    """§10.6.2: the leader leaves its corps for another of its nation in the same area — or
    the city it stays in for a corps of its nation inside (§7.3.3.4, EIA-I222); the line the
    chronicle says, or `OrderError` saying why not."""
    leader = own_leader(state, scenario, power, order.leader)
    corps, current = own_corps(state, power, order.corps, scenario), state.corps_by_id(leader.corps or "")
    same_nation(leader, corps)
    if leader.city:
        if corps.area != leader.city or not corps.inside:
            raise OrderError(f"{leader.id} is in the city of {leader.city} without a corps: it joins only a corps "
                             f"inside that city, which {corps.id} is not (§7.3.3.4)")
        leader.corps, leader.city = corps.id, ""
        return f"{power} {leader.id} joins {corps.id} in the city of {corps.area}"
    if current is None or corps.area != current.area:
        raise OrderError(f"{leader.id} is with {leader.corps} in {current.area if current else '?'}; "
                         f"{corps.id} is in {corps.area}: a leader joins a corps in its own area (§10.6.2)")
    if corps.id == current.id:
        raise OrderError(f"{leader.id} is already with {corps.id}")
    leader.corps = corps.id
    return f"{power} {leader.id} leaves {current.id} for {corps.id} in {corps.area}"


# -- standing choices for leaders (§5.3, §10.6.1.1.2) -------------------------------------------
def order_retirement(state: GameState, scenario: Scenario, power: str, order: Retire) -> str:
    """§5.3: a leader on the map is retired in the next Army Reinforcement Step (EIA-I180), or
    the first one after that its corps is no longer besieged in a city (`return_leaders`)."""
    leader = own_leader(state, scenario, power, order.leader)
    leader.retire = True
    return f"{power} {leader.id} retires from the map in the next Army Reinforcement Step"


def order_placement(state: GameState, scenario: Scenario, power: str, order: Place) -> str:
    """§5.3: "leader reinforcements may be placed with any corps": where the leader goes when it
    next returns (EIA-I180) — with a corps of its nation on the map now (§10.6.2), kept off the
    map (HOLD), or with its nation's first corps (FIRST, the default of EIA-I7)."""
    leader = any_leader(state, scenario, power, order.leader)
    if order.corps == HOLD:
        leader.place = HOLD
        return f"{power} keeps {leader.id} off the map when it could return"
    if order.corps == FIRST:
        leader.place = ""
        return f"{power} {leader.id} returns with its power's first corps"
    corps = own_corps(state, power, order.corps, scenario)
    same_nation(leader, corps)
    leader.place = corps.id
    return f"{power} {leader.id} returns with {corps.id}"


def prefer_commanders(state: GameState, scenario: Scenario, power: str, order: PreferCommanders) -> list[str]:
    """§10.6.1.1.2: "the controlling player may choose which leader to use" among equally senior
    ones: the power's leaders it names, in its order, are chosen first (EIA-I181)."""
    named = [any_leader(state, scenario, power, name).id for name in order.leaders]
    twice = next((n for i, n in enumerate(named) if n in named[:i]), None)
    if twice:
        raise OrderError(f"COMMAND names {twice} twice; name each leader once (§10.6.1.1.2)")
    return named


def return_leaders(ctx: DecisionPort, state: GameState, power: str) -> None:
    """§5.3 in the power's Army Reinforcement Step: leaders ordered to retire leave the map and
    may return in a later step; leaders off the map (a wounded one after its months, option
    12.7) return with the corps their PLACE order names while it is on the map, else with the
    power's first corps (EIA-I7), unless the order holds them off the map (EIA-I180). A PLACE
    order naming a corps is spent when the leader returns. "Leaders may not be retired if in a
    besieged city": the order of one whose corps, or whose city without a corps (EIA-I222), is
    besieged waits for a later step (EIA-I180). A leader in a city without a corps stays there
    rather than return with a corps (§7.3.3.4)."""
    for leader in state.leaders:
        if leader.power == power and leader.retire:
            corps = state.corps_by_id(leader.corps) if leader.corps is not None else None
            besieged = corps.area if corps is not None and state.besieged(corps) \
                else leader.city if leader.city and state.siege_in(leader.city) is not None else ""
            if besieged:
                ctx.say(f"{leader.id} is besieged in the city of {besieged} and may not retire yet",
                        to=state.owner(power), rule="§5.3")
                continue
            leader.retire = False
            if leader.corps is not None or leader.city:  # not if it has left the map since its order
                leader.corps, leader.city, leader.back = None, "", state.turn + 1
                ctx.say(f"{leader.id} retires from the map", rule="§5.3")
    first = next((c for c in state.corps if c.power == power), None)
    for leader in state.leaders:
        if leader.power != power or leader.corps is not None or leader.city or first is None \
                or leader.back > state.turn:
            continue
        if leader.place == HOLD:
            ctx.say(f"{leader.id} stays off the map (PLACE {leader.id} HOLD)", to=state.owner(power), rule="§5.3")
            continue
        chosen = state.corps_by_id(leader.place) if leader.place else None
        corps = chosen if chosen is not None and chosen.power == power else first
        leader.corps, leader.place = corps.id, ""
        ctx.say(f"{leader.id} returns to the map with {power} {corps.id}", rule="§5.3")
