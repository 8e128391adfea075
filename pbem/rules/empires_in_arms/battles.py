"""Where a power sequence leads to combat (§7.3.7, §7.5.1): the combats are declared and
reported. Their resolution (§7.5.2–§7.5.4) is the combat subpackage's; joining it to the
state is not adjudicated yet, so both sides stay where they stand."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import GameState
from pbem.rules.empires_in_arms.supply import enemy_corps_in


def declare_combats(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str) -> None:
    """§7.3.7.1: the phasing power attacks enemy corps in every area where its corps stand
    with them; §7.3.7.2: a corps ending its move where only an enemy depot garrison stands
    attacks it. Areas in the map's order."""
    for area in scenario.data.areas:
        attackers = [c.id for c in state.corps_in(area.id) if c.power == power]
        if not attackers:
            continue
        defenders = enemy_corps_in(state, scenario, power, area.id)
        depot = state.depot_in(area.id)
        if defenders:
            sides = sorted({c.power for c in defenders}, key=scenario.power_order.index)
            what = f"field combat in {area.title}: {power} ({', '.join(attackers)}) attacks " + \
                   f"{', '.join(sides)} ({', '.join(c.id for c in defenders)})"
            rule = "§7.3.7.1"
        elif depot is not None and depot.garrison and scenario.at_war(power, depot.power):
            what = f"combat in {area.title}: {power} ({', '.join(attackers)}) attacks the {depot.power} depot garrison"
            rule = "§7.3.7.2"
        else:
            continue
        state.battles.append(what)
        ctx.say(f"{what}; its resolution (§7.5) is not adjudicated yet", rule=rule)
