"""The monthly turn (§3) in the rulebook's order, and the asterisk rule (§1.3).

Every phase and step of the sequence of play is listed here as data. Those marked
campaign-only (an asterisk in the rule heading) are kept in their place and reported as
not part of a scenario; a scenario plays the Army Reinforcement Step, the Land Phase and
the Time Record Phase.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.port import DecisionPort
from pbem.core.ruleset import Step
from pbem.rules.empires_in_arms import sequence
from pbem.rules.empires_in_arms.calendar import ends_quarter, is_winter, label
from pbem.rules.empires_in_arms.army import army_orders
from pbem.rules.empires_in_arms.reinforcement import army_reinforcement
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import FINISHED, LAND, REINFORCEMENT, TIME_RECORD, GameState
from pbem.rules.empires_in_arms.victory import decide_victory


@dataclass(frozen=True)
class Phase:
    name: str
    rule: str
    campaign_only: bool = False
    quarterly: bool = False


#: §3's sequence of play; the asterisked phases and steps are campaign-only (§1.3).
BEFORE_LAND = (
    Phase("Political Phase", "§4", campaign_only=True),
    Phase("Naval Reinforcement Step", "§5.1", campaign_only=True),
    Phase("Army Reinforcement Step", "§5.2"),
    Phase("Naval Phase", "§6", campaign_only=True),
)
AFTER_LAND = (
    Phase("Conquest Step", "§7.7", campaign_only=True),
    Phase("Economic Phase", "§8", campaign_only=True, quarterly=True),
    Phase("Time Record Phase", "§9"),
)


def next_step(state: GameState, scenario: Scenario) -> Step | None:
    """The step the state waits for, keyed `m<turn>/…` so every step of a game is unique."""
    turn = state.turn
    year, month = scenario.date(turn)
    when = label(year, month)
    if state.phase == REINFORCEMENT:
        return Step(f"m{turn}/reinforcement", reinforcement_phase, f"{when}: Reinforcement Phase (§5)")
    if state.phase == LAND:
        power = sequence.phasing_power(state, scenario)
        return Step(f"m{turn}/land-{power}", sequence.power_sequence, f"{when}: {power}'s land sequence (§7.1)")
    if state.phase == TIME_RECORD:
        return Step(f"m{turn}/time-record", time_record, f"{when}: Time Record Phase (§9)")
    return None


def _not_in_scenario(ctx: DecisionPort, phases: tuple[Phase, ...], month: int) -> None:
    for phase in phases:
        if phase.campaign_only and (not phase.quarterly or ends_quarter(month)):
            ctx.say(f"{phase.name} ({phase.rule}*): campaign games only, not part of a scenario", rule="§1.3")


def reinforcement_phase(ctx: DecisionPort, state: GameState) -> None:
    """The month opens: the campaign-only phases before the Land Phase are passed over
    (§1.3) and the Army Reinforcement Step is played (§5.2)."""
    scenario: Scenario = ctx.scenario
    year, month = scenario.date(state.turn)
    ctx.say(f"{label(year, month)} begins" + (" (winter, §9.1)" if is_winter(month) else ""), rule="§3")
    _not_in_scenario(ctx, BEFORE_LAND, month)
    army_reinforcement(ctx, state, scenario)
    if state.army_orders:
        army_orders(ctx, state, scenario)
    state.battles = []
    state.phase = LAND
    state.land_index = 0


def time_record(ctx: DecisionPort, state: GameState) -> None:
    """§9: the month ends; the game ends after the scenario's last month."""
    scenario: Scenario = ctx.scenario
    year, month = scenario.date(state.turn)
    _not_in_scenario(ctx, AFTER_LAND, month)
    if state.turn >= scenario.months:
        state.phase = FINISHED
        ctx.say(f"{label(year, month)} was the scenario's last month: the game is over", rule="§9")
        decide_victory(ctx, state, scenario)
        return
    if decide_victory(ctx, state, scenario, last=False):
        state.phase = FINISHED
        ctx.say(f"the scenario ends with {label(year, month)}: {', '.join(state.winners)} met "
                "victory conditions due this month", rule="§13")
        return
    state.turn += 1
    state.phase = REINFORCEMENT
    ctx.say(f"the month marker moves to {label(*scenario.date(state.turn))}", rule="§9")
