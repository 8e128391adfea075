"""Unrest (§19.1): one helper moves it, the two actions that lower it (§19.1.1–§19.1.2).

Every change of unrest that may lower it goes through `adjust` (or `change`, which also says
it) — combat results (piracy, §11.5.2), the GM's ruling, these actions, the economic phase
and the dynastic change: unrest never falls below 0 (§23.1.1 "which cannot be less than 0").
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.orders import LowerUnrest, Subsidise
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def adjust(state: GameState, power: str, delta: int) -> str:
    """§19.1: move a power's unrest by `delta`, never below 0; returns "unrest 10 → 11"."""
    before = state.powers[power].unrest
    state.powers[power].unrest = max(0, before + delta)
    return f"unrest {before} → {state.powers[power].unrest}"


def change(ctx: DecisionPort, state: GameState, power: str, delta: int, why: str, rule: str) -> None:
    """`adjust`, said in the chronicle with its cause."""
    ctx.say(f"{power}: {why}: {adjust(state, power, delta)}", rule=rule)


def allied(state: GameState, power: str, other: str) -> bool:
    """Whom a power may subsidise (§19.1.2): a major allied with it (§21.1), or another active
    power of the same player (RR-I101)."""
    mine, theirs = state.powers[power], state.powers.get(other)
    if theirs is None or other == power or not theirs.active:
        return False
    return state.allied(power, other) or (theirs.player is not None and theirs.player == mine.player)


def lower_unrest(state: GameState, scenario: Scenario, power: str, order: LowerUnrest, run: ImpulseRun) -> str:
    """§19.1.1: one action point lowers the power's own unrest by 1; at 0 there is nothing
    to lower and the order is refused (RR-I100)."""
    if state.powers[power].unrest == 0:
        raise IllegalOrder(f"{power}'s unrest is 0 already: there is nothing to lower (§19.1.1)")
    return f"{power} lowers its unrest: {adjust(state, power, -1)} (§19.1.1)"


def subsidise(state: GameState, scenario: Scenario, power: str, order: Subsidise, run: ImpulseRun) -> str:
    """§19.1.2: one action point of the power lowers an allied major power's unrest by 1
    (RR-I100, RR-I101)."""
    ally = order.ally
    if ally not in state.powers:
        raise IllegalOrder(f"there is no power {ally} to subsidise (powers: {', '.join(scenario.power_order)})")
    if not allied(state, power, ally):
        raise IllegalOrder(f"{power} may subsidise only an allied major power: {ally} is not its ally (§19.1.2, "
                           f"RR-I101)")
    if state.powers[ally].unrest == 0:
        raise IllegalOrder(f"{ally}'s unrest is 0 already: there is nothing to lower (§19.1.2)")
    return f"{power} subsidises its ally {ally}: {ally}'s {adjust(state, ally, -1)} (§19.1.2)"
