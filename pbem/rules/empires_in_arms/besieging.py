"""Besieging an enemy city garrison (§7.3.7.1, §7.5.4): a power's corps standing in an area
whose city an enemy garrison holds may stop there and besiege it, by the land order
`BESIEGE <area>`; all of the power's corps in the area are then the besiegers (§7.3.7.1).
The siege is pressed in the power's Land Combat Step, after its field combats (§7.5.4.2.3),
by one assault attempt (EIA-I75, EIA-I101), which `battles.py` hands to `combat/`; a garrison
granted the honours of war after a breach marches to the nearest friendly city (EIA-I102).
The siege lasts while the besiegers stay (EIA-I103): the besieged garrison checks its supply
on the city's supply value (§7.4.5), the besiegers forage as if they had moved their full
allowance (§7.4.5.3)."""

from __future__ import annotations

from collections import deque

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.garrisons import add_to_city, city_room
from pbem.rules.empires_in_arms.movement import OrderError, area_named
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState, Garrison, Siege
from pbem.rules.empires_in_arms.supply import enemy_corps_in


def check_siege(state: GameState, scenario: Scenario, power: str, name: str) -> str:
    """A `BESIEGE` order on the state once the power's moves are made: the area's city holds
    a garrison of a power it is at war with, and a corps of the power stands in the area
    (§7.5.4: depot garrisons never besiege). Returns the area."""
    area = area_named(scenario, name)
    title, garrison = scenario.areas[area].title, state.garrison_in(area)
    if garrison is None or not scenario.at_war(power, garrison.power):
        raise OrderError(f"the city of {title} holds no garrison of a power {power} is at war with (§7.5.4)")
    if not any(c.power == power for c in state.corps_in(area)):
        raise OrderError(f"no corps of {power} ends its move in {title} to besiege its city (§7.5.4)")
    return area


def refuge(state: GameState, scenario: Scenario, garrison: Garrison) -> str | None:
    """§7.5.4.1.2.3.1: the nearest friendly-controlled unbesieged city with room, for a
    garrison leaving with the honours of war — a city of its power's territory or holding its
    garrison, with no enemy corps in its area (EIA-I102); the map's order breaks ties."""
    found, queue = {garrison.area: 0}, deque([garrison.area])
    while queue:
        area = queue.popleft()
        for other in scenario.neighbours[area]:
            if other not in found:
                found[other] = found[area] + 1
                queue.append(other)
    order = [a.id for a in scenario.data.areas]
    for area in sorted(found, key=lambda a: (found[a], order.index(a))):
        own = state.garrison_in(area)
        friendly = scenario.areas[area].owner == garrison.power or (own is not None and own.power == garrison.power)
        if (area != garrison.area and friendly and city_room(state, scenario, garrison.power, area)
                and not enemy_corps_in(state, scenario, garrison.power, area)):
            return area
    return None


def march_out(state: GameState, scenario: Scenario, garrison: Garrison) -> tuple[str, int, int]:
    """The garrison leaves its city with the honours of war for its refuge, as many factors
    as the refuge holds; the rest surrender (EIA-I102). Returns (refuge, moved, surrendered)."""
    area = refuge(state, scenario, garrison)
    state.garrisons.remove(garrison)
    moved = 0
    for kind, count in garrison.factors.items():
        fits = 0 if area is None else min(count, city_room(state, scenario, garrison.power, area))
        if fits:
            add_to_city(state, garrison.power, area, kind, fits)
        moved += fits
    return area or "", moved, garrison.strength - moved


# -- a siege kept from one sequence to the next (EIA-I103) ---------------------------------------
BESIEGED_SUPPLY_PER = 5  # "+1 for every full 5 army factors in the besieged city" (§7.4.5.1)
BESIEGED_SUPPLY_MAX = 2  # "to a maximum of +2"


def begin_siege(state: GameState, area: str, power: str) -> None:
    """§7.3.7.1: `power`'s corps begin the siege of the city in `area`, unless one is on (EIA-I101)."""
    if state.siege_in(area) is None:
        state.sieges.append(Siege(area, power))


def besieging(state: GameState, power: str, area: str) -> bool:
    """Whether `power`'s corps in `area` besiege its city (§7.4.5.3)."""
    siege = state.siege_in(area)
    return siege is not None and siege.power == power


def lift_sieges(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """A siege ends when no corps of the besieger is left in the area, or no garrison of a
    power it is at war with is left in the city (§7.5.4, EIA-I103)."""
    for siege in list(state.sieges):
        garrison = state.garrison_in(siege.area)
        if (garrison is not None and scenario.at_war(siege.power, garrison.power)
                and any(c.power == siege.power for c in state.corps_in(siege.area))):
            continue
        state.sieges.remove(siege)
        ctx.say(f"the {siege.power} siege of {scenario.areas[siege.area].title} ends", rule="§7.5.4")


def besieged_supply(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str) -> None:
    """§7.4.5: in its own Supply Step every besieged garrison of `power` checks supply by the
    foraging method on the city's supply value (its spires): +1 for every full 5 factors in
    the city, at most +2, no other modifier (§7.4.5.1); a factor lost for every point above
    (§7.4.5.2). A garrison that loses every factor leaves the city to the besiegers."""
    for siege in list(state.sieges):
        garrison = state.garrison_in(siege.area)
        if garrison is None or garrison.power != power:
            continue
        city, title = scenario.areas[siege.area].city, scenario.areas[siege.area].title
        spires = city.spires if city is not None else 0
        die = ctx.roll("besieged-supply", rule="§7.4.5")
        bonus = min(garrison.strength // BESIEGED_SUPPLY_PER, BESIEGED_SUPPLY_MAX)
        loss = min(max(0, die + bonus - spires), garrison.strength)
        ctx.say(f"the besieged {power} garrison of {title} checks supply: die {die} {bonus:+d} against the city's "
                f"supply value {spires}: " + (f"loses {loss} factors" if loss else "no loss"), rule="§7.4.5.2")
        for kind in list(garrison.factors):
            taken = min(loss, garrison.factors[kind])
            garrison.factors[kind] -= taken
            loss -= taken
        if not garrison.strength:
            state.garrisons.remove(garrison)
            ctx.say(f"{siege.power} takes {title}: its besieged garrison is lost to hunger", rule="§7.4.5.2")
    lift_sieges(ctx, state, scenario)


def check_garrison_attack(state: GameState, scenario: Scenario, power: str, name: str) -> str:
    """An `ATTACK BESIEGERS` order: the power's garrison holds the area's city under siege
    (§7.5.4.2). Returns the area."""
    area = area_named(scenario, name)
    siege, garrison = state.siege_in(area), state.garrison_in(area)
    if siege is None or garrison is None or garrison.power != power:
        raise OrderError(f"no garrison of {power} is besieged in {scenario.areas[area].title} (§7.5.4.2)")
    return area
