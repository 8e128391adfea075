"""A scenario's victory conditions as data (§13 is missing from the rules file, so each
scenario states its own): the areas a power must hold when the last month ends."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.scenario import Scenario, Victory
from pbem.rules.empires_in_arms.state import GameState
from pbem.rules.empires_in_arms.supply import enemy_corps_in


def holds(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    """EIA-I21: a power holds an area where no enemy corps stands and its own corps does,
    or its garrison holds the area's city."""
    if enemy_corps_in(state, scenario, power, area):
        return False
    garrison = state.garrison_in(area)
    return any(c.power == power for c in state.corps_in(area)) or (garrison is not None and garrison.power == power)


def met(state: GameState, scenario: Scenario, condition: Victory) -> bool:
    return all(holds(state, scenario, condition.power, area) for area in condition.holds)


def decide_victory(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """At the end of the scenario's last month every power whose conditions are met wins."""
    state.winners = [c.power for c in scenario.data.victory if met(state, scenario, c)]
    for condition in scenario.data.victory:
        outcome = "meets" if condition.power in state.winners else "does not meet"
        ctx.say(f"{condition.power} {outcome} its victory conditions: {describe(scenario, condition)}", rule="§13")
    if scenario.data.victory and not state.winners:
        ctx.say("no power met its victory conditions: the scenario is drawn", rule="§13")


def describe(scenario: Scenario, condition: Victory) -> str:
    return condition.text or "hold " + ", ".join(scenario.areas[a].title for a in condition.holds)
