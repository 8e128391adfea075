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
from pbem.rules.empires_in_arms.cities import starve, surrender_city
from pbem.rules.empires_in_arms.garrisons import add_to_city, city_factors, city_room, minor_at_home
from pbem.rules.empires_in_arms.movement import OrderError, area_named
from pbem.rules.empires_in_arms.orders import AttackBesiegers
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState, Irregular, Siege
from pbem.rules.empires_in_arms.supply import enemy_corps_in


def check_siege(state: GameState, scenario: Scenario, power: str, name: str) -> str:
    """A `BESIEGE` order on the state once the power's moves are made: the area's city holds
    a garrison or corps of a power it is at war with — or enemy corps stand in the field of a
    city area, and may retire into it when attacked (§7.5.1.1.2) — and a corps of the power
    stands in the area (§7.5.4: depot garrisons never besiege). Returns the area."""
    area = area_named(scenario, name)
    title, holder = scenario.areas[area].title, state.city_holder(area)
    own = any(c.power == power and not c.inside for c in state.corps_in(area))
    retiring = own and scenario.areas[area].city is not None and enemy_corps_in(state, scenario, power, area)
    if (holder is None or not scenario.at_war(power, holder)) and not retiring:
        raise OrderError(f"the city of {title} holds no garrison of a power {power} is at war with (§7.5.4), nor "
                         "corps of one, nor do enemy corps stand there that may retire into it (§7.5.1.1.2)")
    if not own:
        raise OrderError(f"no corps of {power} ends its move in {title} to besiege its city (§7.5.4)")
    return area


def refuge(state: GameState, scenario: Scenario, power: str, besieged: str) -> str | None:
    """§7.5.4.1.2.3.1: the nearest friendly-controlled unbesieged city with room, for a
    garrison leaving `besieged` with the honours of war — a city of its power's territory or
    holding its garrison, or its controller's or minor free states' (§7.1.1), with no enemy
    corps in its area (EIA-I102); the map's order breaks ties.
    "Minor free state garrisons may not leave their own country": theirs is a city of it, unless
    option 12.3.8 lets their factors garrison abroad (EIA-I223)."""
    found, queue = {besieged: 0}, deque([besieged])
    while queue:
        area = queue.popleft()
        for other in scenario.neighbours[area]:
            if other not in found:
                found[other] = found[area] + 1
                queue.append(other)
    order = [a.id for a in scenario.data.areas]
    at_home = minor_at_home(state, scenario, power)
    for area in sorted(found, key=lambda a: (found[a], order.index(a))):
        if at_home and scenario.areas[area].owner != power:
            continue
        owner, holder = scenario.areas[area].owner, state.city_holder(area)
        friendly = any(p is not None and scenario.major(p) == scenario.major(power) for p in (owner, holder))
        if (area != besieged and friendly and city_room(state, scenario, power, area)
                and not enemy_corps_in(state, scenario, power, area)):
            return area
    return None


def march_out(state: GameState, scenario: Scenario, power: str, area: str) -> tuple[str, int, int, list[str]]:
    """The garrison leaves its city with the honours of war for its refuge, as many factors
    as the refuge holds, the rest surrendering (EIA-I102); the corps inside go with it into
    the refuge's area, or surrender with their leaders when there is none (EIA-I142).
    Returns (refuge, factors moved, factors surrendered, corps that went)."""
    went = refuge(state, scenario, power, area)
    garrison = state.garrison_in(area)
    state.garrisons = [g for g in state.garrisons if g.area != area]
    moved = 0
    for kind, count in (garrison.factors if garrison is not None else {}).items():
        fits = 0 if went is None else min(count, city_room(state, scenario, power, went))
        if fits:
            add_to_city(state, power, went, kind, fits)
        moved += fits
    for leader in [lead for lead in state.leaders if lead.city == area]:  # without a corps (§7.3.3.4)
        if went is None:
            state.leaders.remove(leader)
        else:
            leader.city = went
    corps = state.besieged_in(area)
    for c in corps:
        if went is None:
            state.leaders = [lead for lead in state.leaders if lead.corps != c.id]
            (state.irregulars if isinstance(c, Irregular) else state.corps).remove(c)
        else:
            c.area, c.inside = went, False
    return went or "", moved, (garrison.strength if garrison else 0) - moved, [c.id for c in corps if went]


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
    """A siege ends when no corps of the besieger is left in the field of the area, or no
    garrison or corps of a power it is at war with is left in the city (§7.5.4, EIA-I103)."""
    for siege in list(state.sieges):
        holder = state.city_holder(siege.area)
        if (holder is not None and scenario.at_war(siege.power, holder)
                and any(c.power == siege.power and not c.inside for c in state.corps_in(siege.area))):
            continue
        state.sieges.remove(siege)
        ctx.say(f"the {siege.power} siege of {scenario.areas[siege.area].title} ends", rule="§7.5.4")


def besieged_supply(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str) -> None:
    """§7.4.5: in its own Supply Step every besieged garrison of `power`, with the corps
    besieged with it, checks supply by the foraging method on the city's supply value (its
    spires): +1 for every full 5 factors in the city, garrison and corps alike, at most +2, no
    other modifier (§7.4.5.1); a factor lost for every point above (§7.4.5.2). When every
    factor is lost the besiegers take the city, its leaders prisoners (EIA-I142)."""
    for siege in list(state.sieges):
        if state.city_holder(siege.area) != power:
            continue
        city, title = scenario.areas[siege.area].city, scenario.areas[siege.area].title
        spires = city.spires if city is not None else 0
        garrison = state.garrison_in(siege.area)
        factors = city_factors(state, siege.area)
        die = ctx.roll("besieged-supply", rule="§7.4.5")
        bonus = min(factors // BESIEGED_SUPPLY_PER, BESIEGED_SUPPLY_MAX)
        loss = min(max(0, die + bonus - spires), factors)
        garrisoned = garrison is not None or bool(state.irregulars_inside(siege.area))  # §7.3.3.3.1
        besieged = f"{power} garrison" if garrisoned else f"{power} corps"
        ctx.say(f"the besieged {besieged} of {title} checks supply: die {die} {bonus:+d} against the city's "
                f"supply value {spires}: " + (f"loses {loss} factors" if loss else "no loss"), rule="§7.4.5.2")
        if loss and not starve(ctx, state, scenario, siege.area, loss):
            surrender_city(ctx, state, scenario, siege.area, siege.power,
                           f"its besieged {'garrison' if garrisoned else 'corps'} is lost to hunger",
                           "§7.4.5.2")
    lift_sieges(ctx, state, scenario)


def check_garrison_attack(state: GameState, scenario: Scenario, power: str, order: AttackBesiegers) -> str:
    """An `ATTACK BESIEGERS` order: the power's garrison or corps hold the area's city under
    siege (§7.5.4.2), and hold the factors and corps it names (§7.5.4.2.1.1). Returns the area."""
    area = area_named(scenario, order.area)
    title = scenario.areas[area].title
    if state.siege_in(area) is None or state.city_holder(area) != power:
        raise OrderError(f"no garrison of {power} is besieged in {title} (§7.5.4.2), nor any corps of {power} "
                         "inside its city")
    garrison = state.garrison_in(area)
    for count, kind in order.factors:
        have = garrison.factors.get(kind, 0) if garrison is not None and garrison.power == power else 0
        if count < 1 or count > have:
            raise OrderError(f"the {power} garrison of {title} has {have} {kind} to attack with, not {count} "
                             "(§7.5.4.2.1.1)")
    inside = {c.id.lower() for c in state.besieged_in(area)}
    stray = next((name for name in order.corps if name.lower() not in inside), None)
    if stray is not None:
        raise OrderError(f"{stray} is not a corps of {power} besieged in {title} (§7.5.4.2.1.1)")
    return area
