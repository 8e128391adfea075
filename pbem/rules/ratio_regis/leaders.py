"""Leaders (§17): building one from the shared pool (§17.2) with the extraordinary side
(§17.3), swapping two at the start of an impulse (§8.2.2, v1.2.4), reattaching one
(§17.1), and the commander of a force (§17.3.2)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.orders import unknown_name
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.orders import Attach, BuildLeader, Swap
from pbem.rules.ratio_regis.scenario import ABILITY_ORDER, Scenario
from pbem.rules.ratio_regis.state import GameState, Leader

EXTRAORDINARY_UNREST = 3  # §17.3


def own_unit(state: GameState, power: str, unit_id: str) -> str:
    """The id of a troop, squadron or fortress of `power` on the map, or why not."""
    owner = state.unit_power(unit_id.upper())
    if owner != power:
        raise IllegalOrder(f"{power} has no troop, squadron or fortress {unit_id}")
    return unit_id.upper()


def besieged(state: GameState, unit_id: str) -> bool:
    troop = state.troop(unit_id)
    if troop is not None:
        return troop.besieged
    fortress = next((f for f in state.fortresses if f.id == unit_id), None)
    return fortress is not None and state.areas[fortress.area].besieger is not None


def own_leader(state: GameState, power: str, leader_id: str) -> Leader:
    leader = state.leader(leader_id)
    if leader is None or leader.power != power:
        raise IllegalOrder(f"{power} has no leader {leader_id}")
    return leader


def build_leader(state: GameState, scenario: Scenario, power: str, order: BuildLeader, run: ImpulseRun) -> str:
    """§17.2: a leader drawn at random from the pool onto an own unbesieged unit, or in
    place of an own leader (even besieged; it goes back to the pool). The extraordinary
    side is taken when the ability is one the order names in EXTRA-IF (or ANY) and unrest
    does not exceed vitality; it costs +3 unrest (§17.3, §28.15)."""
    unknown = [a for a in order.extra_if if a not in ABILITY_ORDER and a != "any"]
    if unknown:
        raise IllegalOrder(unknown_name("ability", unknown[0], ABILITY_ORDER + ("any",)))
    replaced = own_leader(state, power, order.replace) if order.replace else None
    host = own_unit(state, power, order.unit)
    if replaced is not None and replaced.unit != host:
        raise IllegalOrder(f"{replaced.id} is on {replaced.unit}, not on {host}")
    if replaced is None:
        if besieged(state, host):
            raise IllegalOrder(f"{host} is besieged: a new leader goes on an unbesieged unit (§17.2)")
        if state.leader_on(host) is not None:
            raise IllegalOrder(f"{host} already carries {state.leader_on(host).id}: write REPLACE "
                               f"{state.leader_on(host).id} to replace it")
    if not state.leader_pool:
        raise IllegalOrder("no leader is left in the pool (§17.2)")
    drawn = state.leader_pool.pop(run.judge.draw_index("leader", len(state.leader_pool), rule="§17.2"))
    card = scenario.leaders[drawn]
    wants = "any" in order.extra_if or card.ability in order.extra_if
    unrest = state.powers[power].unrest
    extraordinary = wants and unrest <= scenario.powers[power].vitality
    if replaced is not None:
        state.leaders.remove(replaced)
        state.leader_pool.append(replaced.id)
    state.leaders.append(Leader(id=drawn, power=power, unit=host, extraordinary=extraordinary))
    text = f"{power} builds leader {drawn} ({card.name}, {card.ability}) on {host}"
    if replaced is not None:
        text += f" in place of {replaced.id}"
    if extraordinary:
        state.powers[power].unrest += EXTRAORDINARY_UNREST
        text += f", extraordinary side (+{EXTRAORDINARY_UNREST} unrest, now {state.powers[power].unrest})"
    elif wants:
        text += f", ordinary side: unrest {unrest} exceeds vitality {scenario.powers[power].vitality} (§17.3)"
    else:
        text += ", ordinary side"
    run.judge.say(text, rule="§17.2, §17.3")
    return text


def swap_leaders(state: GameState, scenario: Scenario, power: str, order: Swap, run: ImpulseRun) -> str:
    """§8.2.2 (v1.2.4): at the start of the impulse two leaders of a power, neither
    besieged, exchange places."""
    if state.options.variant == "v2.1":
        raise IllegalOrder("Ultima Ratio Regis v2.1 has no swap of leaders at the start of the impulse (§8.2.2; "
                           "it moves one leader at the end of the impulse instead: E ATTACH <leader> TO <unit>)")
    first, second = own_leader(state, power, order.first), own_leader(state, power, order.second)
    if first.id == second.id:
        raise IllegalOrder("name two different leaders")
    for leader in (first, second):
        if besieged(state, leader.unit):
            raise IllegalOrder(f"{leader.id} is besieged and cannot be swapped (§8.2.2)")
    first.unit, second.unit = second.unit, first.unit
    return f"{power} swaps leaders {first.id} (now on {first.unit}) and {second.id} (now on {second.unit})"


def attach_leader(state: GameState, scenario: Scenario, power: str, order: Attach, run: ImpulseRun) -> str:
    """§17.1, §18.1: at no cost a leader moves to another own unit in the same area, sea
    or dispersion box."""
    leader = own_leader(state, power, order.leader)
    host = own_unit(state, power, order.unit)
    if state.unit_place(host) != state.unit_place(leader.unit):
        raise IllegalOrder(f"{host} is not where {leader.id} is ({state.unit_place(leader.unit)}) (§17.1)")
    if state.leader_on(host) is not None and state.leader_on(host).id != leader.id:
        raise IllegalOrder(f"{host} already carries {state.leader_on(host).id}")
    leader.unit = host
    return f"{power} attaches {leader.id} to {host}"


def move_leader_at_impulse_end(state: GameState, scenario: Scenario, power: str, order: Attach,
                               run: ImpulseRun) -> str:
    """v2.1 §8.2.2: at the end of the impulse each power may move one leader onto any of its
    own troops, fleets (squadrons) or fortresses, if the leader is not besieged and does not
    end up besieged; the unit must carry no leader yet."""
    leader = own_leader(state, power, order.leader)
    host = own_unit(state, power, order.unit)
    if besieged(state, leader.unit):
        raise IllegalOrder(f"{leader.id} is besieged and cannot leave (v2.1 §8.2.2)")
    if besieged(state, host):
        raise IllegalOrder(f"{host} is besieged: {leader.id} may not end up besieged (v2.1 §8.2.2)")
    if state.leader_on(host) is not None and state.leader_on(host).id != leader.id:
        raise IllegalOrder(f"{host} already carries {state.leader_on(host).id}")
    leader.unit = host
    return f"{power} moves {leader.id} to {host} at the end of the impulse (v2.1 §8.2.2)"


def leaders_with(state: GameState, unit_ids: Sequence[str]) -> list[Leader]:
    """The leaders riding on these units, in unit order."""
    return [lead for unit in unit_ids for lead in state.leaders if lead.unit == unit]


def commander_ability(state: GameState, scenario: Scenario, unit_ids: Sequence[str]) -> str:
    """§17.3.2: the ability of the force's commander: the first in the list's order among
    its extraordinary leaders ("" if none)."""
    abilities = {scenario.leaders[lead.id].ability for lead in leaders_with(state, unit_ids) if lead.extraordinary}
    return next((a for a in ABILITY_ORDER if a in abilities), "")


def remove_unit_leader(state: GameState, unit_id: str) -> list[str]:
    """A unit eliminated takes its leader with it: back to the pool (§13.1.7, §17.1)."""
    gone = [lead for lead in state.leaders if lead.unit == unit_id]
    for lead in gone:
        state.leaders.remove(lead)
        state.leader_pool.append(lead.id)
    return [lead.id for lead in gone]


def turn_ordinary(state: GameState) -> list[str]:
    """§17.3.3, §23.1.2: at turn end every extraordinary leader turns to its ordinary side for
    good; returns the leaders turned."""
    turned = [lead for lead in state.leaders if lead.extraordinary]
    for lead in turned:
        lead.extraordinary = False
    return [lead.id for lead in turned]
