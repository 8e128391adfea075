"""Supply sources, depot supply chains and what depot supply costs (§7.2.3, §7.4.2;
research §4.3)."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection

from pbem.rules.empires_in_arms.calendar import is_winter
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, Depot, GameState, Irregular


# -- who is where ---------------------------------------------------------------------
def enemy_corps_in(state: GameState, scenario: Scenario, power: str, area: str) -> list[Corps]:
    """Enemy corps in the field of `area`: those inside its city neither stop a move nor are
    attacked in the field (§7.3.7.1); they are besieged instead (§7.5.4)."""
    return [c for c in state.field_corps_in(area) if scenario.at_war(power, c.power)]


def enemy_irregulars_in(state: GameState, scenario: Scenario, power: str, area: str) -> list[Irregular]:
    """Enemy cossacks, freikorps and guerrillas in `area`: they block supply (§7.2.3.2.1,
    §10.1.1.3.2, §10.1.2.2.1) and depot placement (§7.2)."""
    return [i for i in state.irregulars_in(area) if scenario.at_war(power, i.power)]


def enemy_forces_in(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    """Unbesieged enemy corps, cossacks, freikorps, guerrillas, city garrison or depot garrison in
    `area` (§7.2.3.2.1): a besieged garrison, and corps besieged with it, block nothing beyond
    their city (EIA-I143); irregulars inside a city block as its garrison does (EIA-I224)."""
    garrison = state.garrison_in(area)
    depot = state.depot_in(area)
    unbesieged = state.siege_in(area) is None
    return bool(any(scenario.at_war(power, c.power) and not state.besieged(c) for c in state.corps_in(area))
                or enemy_irregulars_in(state, scenario, power, area)
                or (garrison is not None and unbesieged and scenario.at_war(power, garrison.power))
                or (unbesieged and any(scenario.at_war(power, i.power) for i in state.irregulars_inside(area)))
                or (depot is not None and depot.garrison and scenario.at_war(power, depot.power)))


def blocked(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    """§7.2.3.2.1: enemy forces block an area unless an unbesieged own corps or garrison is
    also there (a besieged one unblocks nothing, EIA-I143)."""
    if not enemy_forces_in(state, scenario, power, area):
        return False
    own_garrison = state.garrison_in(area)
    unbesieged = state.siege_in(area) is None
    return not (any(c.power == power and not state.besieged(c) for c in state.corps_in(area))
                or (own_garrison is not None and unbesieged and own_garrison.power == power))


def reach(state: GameState, scenario: Scenario, power: str, start: str, furthest: int) -> dict[str, int]:
    """Every area at most `furthest` areas from `start` by a route whose intervening areas
    are not blocked (§7.2.3, §7.4.2.1.1), with its distance. The route may end in a blocked
    area but never passes through one."""
    found = {start: 0}
    queue = deque([start])
    while queue:
        area = queue.popleft()
        if found[area] == furthest or (area != start and blocked(state, scenario, power, area)):
            continue
        for other in scenario.neighbours[area]:
            if other not in found:
                found[other] = found[area] + 1
                queue.append(other)
    return found


# -- supply sources and chains (§7.2.3) ------------------------------------------------
def is_source(state: GameState, scenario: Scenario, depot: Depot) -> bool:
    """§7.2.3.1: a depot in a controlled, unbesieged city area of its power's home nation,
    unoccupied by enemy forces (EIA-I3: a city is controlled by its power while no enemy
    garrison holds it)."""
    area = scenario.areas[depot.area]
    return (area.city is not None and area.owner == depot.power
            and not enemy_forces_in(state, scenario, depot.power, depot.area))


def valid_depots(state: GameState, scenario: Scenario, power: str, *, before: int | None = None) -> list[Depot]:
    """The power's depots that are a supply source or in a valid supply chain (§7.2.3.2):
    depots no more than two unblocked areas apart leading back to a source. `before` keeps
    only depots placed before that turn (§7.2.3: a new depot's anchor). Another power's
    depots never join the chain (§7.2.3.3.3)."""
    own = [d for d in state.depots if d.power == power and (before is None or d.placed < before)]
    gap = scenario.charts.supply.chain_gap
    valid = [d for d in own if is_source(state, scenario, d)]
    queue = deque(valid)
    while queue:
        depot = queue.popleft()
        near = reach(state, scenario, power, depot.area, gap)
        for other in own:
            if other not in valid and other.area in near and not blocked(state, scenario, power, other.area):
                valid.append(other)
                queue.append(other)
    return sorted(valid, key=lambda d: [a.id for a in scenario.data.areas].index(d.area))


def supplying_depot(state: GameState, scenario: Scenario, power: str, area: str,
                    full: Collection[str] = ()) -> tuple[int, str] | None:
    """The nearest depot of a valid chain that supplies a corps in `area` — its distance and
    its area — leaving out the depots in `full` (option 12.3.1, EIA-I201); among equally near
    ones the first in the map's order. None when there is none within the furthest distance a
    corps may pay for (§7.4.2.1.1)."""
    near = reach(state, scenario, power, area, scenario.charts.supply.furthest)
    found = [(near[d.area], d.area) for d in valid_depots(state, scenario, power)
             if d.area in near and d.area not in full]
    return min(found, key=lambda f: f[0]) if found else None


def supply_cost_halves(scenario: Scenario, distance: int, month: int, area: str) -> int:
    """§7.4.2.1.1 and §7.4.2.1.3: the cost in half money points."""
    chart = scenario.charts.supply
    cost = chart.in_depot_area_halves if distance == 0 else chart.per_area_halves * distance
    if is_winter(month) and scenario.areas[area].winter_zone:
        cost *= chart.winter_multiplier
    return cost


def suppliers(state: GameState, scenario: Scenario, power: str, area: str,
              full: Collection[tuple[str, str]] = ()) -> list[tuple[str, tuple[int, str]]]:
    """Whose depots may supply `power`'s corps in `area`, and the nearest of each (its distance
    and area, §7.4.2.1.1): its own first, then each ally that lets it live off its depots and
    chains, in the fixed order; that ally pays (§7.4.2.2, EIA-I164). A minor free state's forces
    use its controller's (§7.1.1). `full` names (payer, depot area) pairs that supply no more
    corps (option 12.3.1, EIA-I201). Empty when every depot is further than a corps may pay for."""
    power = scenario.major(power)
    payers = [power, *(ally for ally in scenario.power_order
                       if ally != power and scenario.allied(ally, power) and power in state.powers[ally].supplies)]
    found = [(payer, supplying_depot(state, scenario, payer, area, {a for p, a in full if p == payer}))
             for payer in payers]
    return [(payer, depot) for payer, depot in found if depot is not None]
