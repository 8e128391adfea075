"""A scenario's victory conditions as data (§13 is missing from the rules file, so each
scenario states its own, EIA-I21, EIA-I203): areas held, enemy capitals held, enemy corps
eliminated and army factors lost, judged when the scenario ends or at a month it names."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.scenario import Scenario, Victory
from pbem.rules.empires_in_arms.state import GameState
from pbem.rules.empires_in_arms.supply import enemy_corps_in


def holds(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    """EIA-I21: a power holds an area where no enemy corps stands and its own corps does,
    or its garrison holds the area's city; a minor free state's corps and garrisons hold for
    its controller (§7.1.1)."""
    if enemy_corps_in(state, scenario, power, area):
        return False
    garrison = state.garrison_in(area)
    return (any(scenario.major(c.power) == power for c in state.corps_in(area))
            or (garrison is not None and scenario.major(garrison.power) == power))


def enemy_losses(state: GameState, scenario: Scenario, power: str) -> tuple[int, int]:
    """The corps counters and army factors lost by the powers at war with `power` (EIA-I203)."""
    enemies = [p for code, p in state.powers.items() if scenario.at_war(power, code)]
    return sum(p.corps_lost for p in enemies), sum(p.factors_lost for p in enemies)


def met(state: GameState, scenario: Scenario, condition: Victory) -> bool:
    """Every condition of the set is met (EIA-I203)."""
    areas = [*condition.holds, *(scenario.capital_of(code) or "" for code in condition.capitals)]
    corps, factors = enemy_losses(state, scenario, condition.power)
    return (all(holds(state, scenario, condition.power, area) for area in areas)
            and corps >= condition.enemy_corps_lost and factors >= condition.enemy_factors_lost)


def judged_now(condition: Victory, date: tuple[int, int], last: bool) -> bool:
    """A set with `at` is judged when that month ends, one without it when the scenario does."""
    return (condition.at.year, condition.at.month) == date if condition.at is not None else last


def decide_victory(ctx: DecisionPort, state: GameState, scenario: Scenario, *, last: bool = True) -> bool:
    """At the end of a month: the sets of conditions due now are judged, and every power that
    meets one wins. At the scenario's end, when none does, the scenario is drawn; before it, a
    win ends the scenario at once (EIA-I203). True when the game ends."""
    date = scenario.date(state.turn)
    due = [(c, met(state, scenario, c)) for c in scenario.data.victory if judged_now(c, date, last)]
    winners = list(dict.fromkeys(c.power for c, done in due if done))
    if not last and not winners:
        return False
    state.winners = list(dict.fromkeys([*state.winners, *winners]))
    for condition, done in due:
        outcome = "meets" if done else "does not meet"
        ctx.say(f"{condition.power} {outcome} its victory conditions: {describe(scenario, condition)}", rule="§13")
    if last and scenario.data.victory and not state.winners:
        ctx.say("no power met its victory conditions: the scenario is drawn", rule="§13")
    return True


def describe(scenario: Scenario, condition: Victory) -> str:
    if condition.text:
        return condition.text
    parts = []
    if condition.holds:
        parts.append("hold " + ", ".join(scenario.areas[a].title for a in condition.holds))
    if condition.capitals:
        parts.append("hold the capital of " + ", ".join(scenario.powers[c].name for c in condition.capitals))
    if condition.enemy_corps_lost:
        parts.append(f"eliminate {condition.enemy_corps_lost} enemy corps")
    if condition.enemy_factors_lost:
        parts.append(f"inflict {condition.enemy_factors_lost} factors of losses")
    when = f" by the end of {condition.at.year}-{condition.at.month:02d}" if condition.at else ""
    return "; ".join(parts) + when
