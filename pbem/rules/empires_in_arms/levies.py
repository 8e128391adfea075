"""Turkish feudal and Austrian insurrection corps (§10.1.3, §10.1.4): corps that neither
detach, absorb nor exchange factors (`garrisons.no_exchange`), get no scenario reinforcements
(§5.2.2.2.1), and may stand down off the map in their power's Land Movement Step. A feudal
corps comes back in its home province in a later one (§10.1.3.3); an insurrection corps keeps
to its border provinces (§10.1.4.1.3) and stands down when a retreat takes it out of them.
Their December levy (§10.1.3.1, §10.1.4.3) and their activation by an enemy entering the
border provinces (§10.1.4.1) are not part of this release.
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.movement import OrderError, area_named, own_corps
from pbem.rules.empires_in_arms.orders import Return, StandDown
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState
from pbem.rules.empires_in_arms.supply import enemy_corps_in


def stand_down(state: GameState, scenario: Scenario, power: str, order: StandDown) -> str:
    """§10.1.3.2, §10.1.4.2: a feudal or insurrection corps leaves the map with its factors
    (no corps is ever besieged in a city in this release, EIA-I15); its leaders join another
    corps of the power in the area or leave the map (EIA-I7)."""
    corps = own_corps(state, power, order.corps)
    kind = scenario.corps_kind(corps.id)
    if kind == "regular":
        raise OrderError(f"{corps.id} is no feudal or insurrection corps: only they stand down (§10.1.3.2, §10.1.4.2)")
    state.corps.remove(corps)
    state.stood_down.append(corps)
    other = next((c for c in state.corps_in(corps.area) if c.power == power), None)
    for leader in state.leaders:
        if leader.corps == corps.id:
            leader.corps = other.id if other else None
    return f"{power}'s {kind} corps {corps.id} stands down off the map"


def return_corps(state: GameState, scenario: Scenario, power: str, order: Return) -> Corps:
    """§10.1.3.3: a feudal corps that stood down comes back to an area of its home province
    holding no unbesieged enemy corps (§10.1.3.3.1; EIA-I3: the province stays its power's);
    it may not move this turn (§10.1.3.3.2). An insurrection corps comes back only when
    activated (§10.1.4.2)."""
    corps = next((c for c in state.stood_down if c.id.lower() == order.corps.lower() and c.power == power), None)
    if corps is None:
        raise OrderError(f"{power} has no corps named {order.corps!r} stood down off the map (§10.1.3.3)")
    counter = scenario.counters[corps.id]
    if counter.kind == "insurrection":
        raise OrderError(f"{corps.id} is an insurrection corps: after standing down it returns only when the enemy "
                         "enters its border provinces (§10.1.4.2)")
    area = area_named(scenario, order.area)
    if area not in counter.home:
        raise OrderError(f"{corps.id} comes back only in its home province: "
                         f"{', '.join(scenario.areas[a].title for a in counter.home)} (§10.1.3.3.1)")
    held = [a for a in counter.home if enemy_corps_in(state, scenario, power, a)]
    if held:
        raise OrderError(f"{corps.id}'s home province holds enemy corps in {scenario.areas[held[0]].title} "
                         "(§10.1.3.3.1)")
    state.stood_down.remove(corps)
    corps.area = area
    state.corps.append(corps)
    return corps


def out_of_bounds(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§10.1.4.1.3: an insurrection corps a retreat took out of its border provinces stands
    down at once."""
    for corps in [c for c in state.corps if scenario.corps_kind(c.id) == "insurrection"
                  and c.area not in scenario.counters[c.id].home]:
        ctx.say(stand_down(state, scenario, corps.power, StandDown(corps.id))
                + ": a retreat took it out of its border provinces", rule="§10.1.4.1.3")
