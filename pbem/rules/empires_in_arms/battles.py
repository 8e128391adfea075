"""Where a power sequence leads to combat (§7.3.7, §7.5.1): the combats are declared,
recorded as the combat procedures will need them, and reported. Their resolution
(§7.5.2–§7.5.4) is the combat subpackage's; joining it to the state is not adjudicated
yet, so both sides stay where they stand."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Battle, GameState
from pbem.rules.empires_in_arms.supply import enemy_corps_in


def declare_combats(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str,
                    across_river: dict[str, str]) -> None:
    """§7.3.7.1: the phasing power attacks enemy corps in every area where its corps stand
    with them; §7.3.7.2: a corps ending its move where only an enemy depot garrison stands
    attacks it. Areas in the map's order; `across_river` maps a corps that entered its area
    across a river this sequence to that area (§7.5.2.7.1)."""
    for area in scenario.data.areas:
        attacking = [c.id for c in state.corps_in(area.id) if c.power == power]
        if not attacking:
            continue
        defending = enemy_corps_in(state, scenario, power, area.id)
        depot = state.depot_in(area.id)
        crossed = [c for c in attacking if across_river.get(c) == area.id]
        if defending:
            sides = sorted({c.power for c in defending}, key=scenario.power_order.index)
            battle = Battle(area.id, "field", power, attacking, sides, [c.id for c in defending], crossed)
            what = (f"field combat in {area.title}: {power} ({', '.join(attacking)}) attacks "
                    f"{', '.join(sides)} ({', '.join(battle.defending)})")
            rule = "§7.3.7.1"
        elif depot is not None and depot.garrison and scenario.at_war(power, depot.power):
            battle = Battle(area.id, "depot-garrison", power, attacking, [depot.power], [], crossed)
            what = f"combat in {area.title}: {power} ({', '.join(attacking)}) attacks the {depot.power} depot garrison"
            rule = "§7.3.7.2"
        else:
            continue
        state.battles.append(battle)
        river = f" ({', '.join(crossed)} across the river, §7.5.2.7.1)" if crossed else ""
        ctx.say(f"{what}{river}; its resolution (§7.5) is not adjudicated yet", rule=rule)


def describe(scenario: Scenario, battle: Battle) -> str:
    """A declared combat in one line, for the reports."""
    title = scenario.areas[battle.area].title
    against = ", ".join(battle.defending) or f"the {', '.join(battle.defenders)} depot garrison"
    return f"{title}: {battle.attacker} ({', '.join(battle.attacking)}) against {against}"
