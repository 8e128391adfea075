"""The Army Reinforcement Step (§5.2): corps counters and army factors the scenario
places, and scenario money (§5.2.5), power by power in §5.2's order."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.scenario import LEVY_KINDS, Reinforcement, Scenario
from pbem.rules.empires_in_arms.garrisons import add_to_city, city_room
from pbem.rules.empires_in_arms.irregulars import place_irregulars
from pbem.rules.empires_in_arms.leaders import return_leaders
from pbem.rules.empires_in_arms.state import Corps, GameState, Leader
from pbem.rules.empires_in_arms.supply import enemy_corps_in, enemy_forces_in



def army_reinforcement(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§5.2 in the scenario's reinforcement order: money first (§5.2.5), then new corps
    counters (§5.2.1.1), then army factors (§5.2.2.1), then leaders off the map (§5.3); a
    minor free state's with its controller's (§7.1.1)."""
    year, month = scenario.date(state.turn)
    for power in [p for major in scenario.data.reinforcement_order for p in scenario.forces_of(major)]:
        amount = sum(m.amount for m in scenario.data.money if (m.power, m.year, m.month) == (power, year, month))
        if amount:
            state.powers[power].money += amount
            holder = state.holder(power)
            ctx.say(f"{power} receives {amount} money points", to=(holder,) if holder else (), rule="§5.2.5")
        for counter in scenario.data.corps:
            entry = counter.enters
            if counter.power == power and entry is not None and (entry.year, entry.month) == (year, month):
                place_corps(ctx, state, scenario, counter.id)
        place_irregulars(ctx, state, scenario, power)
        for entry in scenario.data.reinforcements:
            if (entry.power, entry.year, entry.month) == (power, year, month):
                place_factors(ctx, state, scenario, entry)
        return_leaders(ctx, state, power)


def place_corps(ctx: DecisionPort, state: GameState, scenario: Scenario, corps_id: str) -> None:
    """§5.2.1.1: lost with its factors if the area is enemy-held or holds enemy corps
    (EIA-I3: enemy-held means an enemy garrison, or enemy corps, hold its city, EIA-I140)."""
    counter = scenario.counters[corps_id]
    area = counter.enters.area
    title = scenario.areas[area].title
    if enemy_forces_in(state, scenario, counter.power, area) and (
            enemy_corps_in(state, scenario, counter.power, area) or state.garrison_in(area) is not None
            or any(scenario.at_war(counter.power, c.power) for c in state.corps_inside(area))):
        ctx.say(f"{counter.power} {corps_id} cannot be placed in {title}: the enemy holds it; it is lost",
                rule="§5.2.1.1")
        return
    state.corps.append(Corps(corps_id, counter.power, counter.movement, area, dict(sorted(counter.factors.items())),
                             dict(sorted(counter.capacity.items()))))
    for leader in scenario.data.leaders:
        if leader.corps == corps_id and not any(lead.id == leader.id for lead in state.leaders):
            state.leaders.append(Leader(leader.id, leader.power, corps_id))
    ctx.say(f"{counter.power} places corps {corps_id} in {title}", rule="§5.2.1.1")


def place_factors(ctx: DecisionPort, state: GameState, scenario: Scenario, entry: Reinforcement) -> None:
    """§5.2.2.1: to the power's corps in the area as far as their capacity goes, in the
    corps' order, then infantry and militia to the city's garrison as far as it holds
    them (§7.3.3.4); what cannot be placed is lost (§5.2.2). The placement is fixed by
    rule rather than asked (EIA-I10)."""
    title = scenario.areas[entry.area].title
    holder = state.holder(entry.power)
    placed: list[str] = []
    lost = 0
    for kind, count in sorted(entry.factors.items()):
        # feudal and insurrection corps get factors only by levy or prisoner exchange (§5.2.2.2.1)
        for corps in [c for c in state.corps_in(entry.area)
                      if c.power == entry.power and scenario.corps_kind(c.id) not in LEVY_KINDS]:
            room = corps.capacity.get(kind, 0) - corps.factors.get(kind, 0)
            taken = min(room, count)
            if taken > 0:
                corps.factors[kind] = corps.factors.get(kind, 0) + taken
                corps.factors = dict(sorted(corps.factors.items()))
                placed.append(f"{taken} {kind} to {corps.id}")
                count -= taken
        if count and kind in ("INF", "MIL"):  # garrison factors (§7.3.3.3)
            count -= _to_garrison(state, scenario, entry, kind, count, placed)
        lost += count
    ctx.say(f"{entry.power} reinforcements in {title}: " + (", ".join(placed) or "none placed")
            + (f"; {lost} factors cannot be placed and are lost" if lost else ""),
            to=(holder,) if holder else (), rule="§5.2.2.1")


def _to_garrison(state: GameState, scenario: Scenario, entry: Reinforcement, kind: str, count: int,
                 placed: list[str]) -> int:
    """Into the area's own or vacant city as far as it holds them, while no enemy corps
    stands in the area (EIA-I3: the city is then not the enemy's to refuse them)."""
    if enemy_corps_in(state, scenario, entry.power, entry.area):
        return 0
    taken = min(count, city_room(state, scenario, entry.power, entry.area))
    if taken > 0:
        add_to_city(state, entry.power, entry.area, kind, taken)
        placed.append(f"{taken} {kind} to the garrison of {scenario.areas[entry.area].city.name}")
    return max(taken, 0)
