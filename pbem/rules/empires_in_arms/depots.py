"""The Depot Creation/Removal Step (§7.2) and depots entered by an enemy (§7.3.6)."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.movement import OrderError, area_named
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.garrisons import garrison_into_city
from pbem.rules.empires_in_arms.state import Depot, GameState
from pbem.rules.empires_in_arms.supply import (blocked, enemy_corps_in, enemy_forces_in, enemy_irregulars_in, reach,
                                              valid_depots)


def enemy_depot_garrison(state: GameState, scenario: Scenario, power: str, area: str) -> Depot | None:
    """The depot in `area` of a power at war with `power`, when it holds a garrison: that
    garrison is a field force the power's forces attack (§7.3.7.2, §7.5.1.2)."""
    depot = state.depot_in(area)
    return depot if depot is not None and depot.garrison and scenario.at_war(power, depot.power) else None


def remove_depot(state: GameState, scenario: Scenario, power: str, name: str) -> str:
    """§7.2: a power removes its depot; its garrison goes into a friendly or vacant city of
    the area as far as the city holds it, the rest is destroyed. Returns what happened."""
    area = area_named(scenario, name)
    depot = state.depot_in(area)
    if depot is None or depot.power != power:
        raise OrderError(f"{power} has no depot in {scenario.areas[area].title}")
    state.depots.remove(depot)
    kept = garrison_into_city(state, scenario, power, area, depot.garrison)
    lost = depot.garrison - kept
    return f"{power} removes its depot in {scenario.areas[area].title}" + (
        f"; {kept} garrison factors go into the city" if kept else "") + (f"; {lost} are destroyed" if lost else "")


def place_depot(state: GameState, scenario: Scenario, power: str, name: str) -> str:
    """§7.2: one money point; one depot per area; not where unbesieged enemy corps are
    unless an own corps is there too; in a friendly city area of the power's territory
    (§7.2.1) or within two unblocked areas of a depot of a valid chain that stood before
    this turn (§7.2.3), outside its territory only with an own corps there (§7.2.3.3.2) and
    only in the territory of an enemy (§7.2.3.3.1)."""
    area = area_named(scenario, name)
    title, chart = scenario.areas[area].title, scenario.charts.supply
    if state.depot_in(area) is not None:
        raise OrderError(f"{title} already has a depot (one per area, §7.2)")
    if len([d for d in state.depots if d.power == power]) >= chart.depot_limit:
        raise OrderError(f"{power} has all its {chart.depot_limit} depot counters on the map (§7.2)")
    if state.powers[power].money < chart.depot_price:
        raise OrderError(f"a depot costs {chart.depot_price} money point and {power} has "
                         f"{state.powers[power].money} (§7.2)")
    own_corps = any(c.power == power for c in state.corps_in(area))
    if (enemy_corps_in(state, scenario, power, area) or enemy_irregulars_in(state, scenario, power, area)) \
            and not own_corps:
        raise OrderError(f"enemy corps, guerrillas, freikorps or cossacks are in {title} and no corps of {power} "
                         "(§7.2)")
    owner = scenario.areas[area].owner
    in_city_area = (owner == power and scenario.areas[area].city is not None
                    and not enemy_forces_in(state, scenario, power, area))
    if not in_city_area:
        if owner != power and not own_corps:
            raise OrderError(f"a depot outside {power}'s territory needs a corps of {power} in {title} (§7.2.3.3.2)")
        if owner not in (None, power) and not scenario.at_war(power, owner):
            raise OrderError(f"{title} is {owner}'s territory and {power} is not at war with it (§7.2.3.3.1)")
        anchors = valid_depots(state, scenario, power, before=state.turn)
        near = reach(state, scenario, power, area, chart.chain_gap)
        if not any(d.area in near for d in anchors) or blocked(state, scenario, power, area):
            raise OrderError(f"{title} is not a friendly city area of {power} nor within {chart.chain_gap} unblocked "
                             f"areas of a depot of a valid supply chain placed before this month (§7.2.1, §7.2.3)")
    state.powers[power].money -= chart.depot_price
    state.depots.append(Depot(power, area, 0, state.turn))
    return f"{power} places a depot in {title} for {chart.depot_price} money point"


def convert_depot(state: GameState, scenario: Scenario, power: str, depot: Depot) -> str:
    """§7.3.6.1, §7.5.2.14: an enemy depot taken becomes one of `power`'s, at no money cost,
    only if it is then a supply source or an extension of a valid supply chain (§7.2.3), and
    only while the power has a depot counter left (§7.2, EIA-I100). Returns why it cannot be,
    or "" once it is converted (new this month: no anchor for this month's depots)."""
    title, chart = scenario.areas[depot.area].title, scenario.charts.supply
    if len([d for d in state.depots if d.power == power]) >= chart.depot_limit:
        return f"{power} has all its {chart.depot_limit} depot counters on the map (§7.2)"
    index = state.depots.index(depot)
    taken = Depot(power, depot.area, 0, state.turn)
    state.depots[index] = taken
    if taken in valid_depots(state, scenario, power):
        return ""
    state.depots[index] = depot
    return (f"a {power} depot in {title} would be neither a supply source nor within {chart.chain_gap} unblocked "
            f"areas of a depot of a valid supply chain (§7.2.3)")


def converted(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, who: str, depot: Depot,
              rule: str) -> bool:
    """An enemy depot taken on a `CONVERT DEPOT` order — by `who` ending its move on it
    (§7.3.6.1) or by `power` winning the combat there (§7.5.2.14) — converted when
    `convert_depot` allows, with the chronicle line either way. Whether it was."""
    title = scenario.areas[depot.area].title
    why_not = convert_depot(state, scenario, power, depot)
    if not why_not:
        ctx.say(f"{who} converts the {depot.power} depot in {title} into its own", rule=rule)
        return True
    ctx.say(f"{power} cannot convert the {depot.power} depot in {title}: {why_not}", rule=rule)
    return False


def check_conversion(state: GameState, scenario: Scenario, power: str, name: str) -> str:
    """A `CONVERT DEPOT` order, on the state once the power's moves are made: an enemy depot
    stands in the area and a corps of the power there may take it (§7.3.6.1, §7.5.2.14).
    Whether it would then supply is judged when it is taken. Returns the area."""
    area = area_named(scenario, name)
    depot, title = state.depot_in(area), scenario.areas[area].title
    if depot is None or not scenario.at_war(power, depot.power):
        raise OrderError(f"{title} has no depot of a power {power} is at war with to convert (§7.3.6.1)")
    if not any(c.power == power for c in state.corps_in(area)):
        raise OrderError(f"no corps of {power} ends its move in {title} to take the {depot.power} depot (§7.3.6.1)")
    return area
