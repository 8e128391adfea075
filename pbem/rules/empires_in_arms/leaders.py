"""Leaders moving between corps (§10.6.2): a leader moves only with a corps it began the
Land Movement Step with, so at the step's start it may join any corps of its power in
its own area, and then moves with that corps (EIA-I131)."""

from __future__ import annotations

from pbem.core.orders import unknown_name
from pbem.rules.empires_in_arms.movement import OrderError, own_corps
from pbem.rules.empires_in_arms.orders import JoinCorps
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState, Leader


def own_leader(state: GameState, scenario: Scenario, power: str, name: str) -> Leader:
    """The power's leader a player wrote, in any case, on the map; a minor free state's
    leaders are its controller's to order (§7.1.1)."""
    leader = next((lead for lead in state.leaders if lead.id.lower() == name.lower()), None)
    if leader is None:
        raise OrderError(unknown_name("leader", name, [lead.id for lead in state.leaders
                                                       if scenario.major(lead.power) == power]))
    if scenario.major(leader.power) != power:
        raise OrderError(f"{leader.id} is a leader of {leader.power}, not of {power}")
    if leader.corps is None:
        raise OrderError(f"{leader.id} is off the map; it returns in an Army Reinforcement Step (§5.3)")
    return leader


def join_corps(state: GameState, scenario: Scenario, power: str, order: JoinCorps) -> str:
    """§10.6.2: the leader leaves its corps for another of its nation in the same area;
    the line the chronicle says, or `OrderError` saying why not."""
    leader = own_leader(state, scenario, power, order.leader)
    corps, current = own_corps(state, power, order.corps, scenario), state.corps_by_id(leader.corps or "")
    if corps.power != leader.power:
        raise OrderError(f"{leader.id} is a leader of {leader.power}; {corps.id} is a corps of {corps.power}: a leader "
                         "joins a corps of its own nation (§10.6.2)")
    if current is None or corps.area != current.area:
        raise OrderError(f"{leader.id} is with {leader.corps} in {current.area if current else '?'}; "
                         f"{corps.id} is in {corps.area}: a leader joins a corps in its own area (§10.6.2)")
    if corps.id == current.id:
        raise OrderError(f"{leader.id} is already with {corps.id}")
    leader.corps = corps.id
    return f"{power} {leader.id} leaves {current.id} for {corps.id} in {corps.area}"
