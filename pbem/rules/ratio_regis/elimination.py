"""Voluntary elimination and degradation of units at turn end (§23.1.2; example §32.6).

Every power with a player and units is asked at once by a `disband` decision (its
request and its answers: `disband.py`); this module carries the answers out. Eliminated
units leave as in combat (`battles.eliminate`), so a fortress given up ends its siege
(§13.4.5).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles, disband, sieges
from pbem.rules.ratio_regis.orders import OrderSyntaxError, parse_line
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, regular_quality


def voluntary(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23.1.2: every power with a player and units may give up units (back to its pool)
    and degrade others; the owners answer at once, default `KEEP` (RR-I85)."""
    asks = [(code, request) for code in scenario.power_order
            if (request := disband.request(ctx, state, code)) is not None]
    answers = ctx.decide_all([request for _, request in asks]) if asks else []
    for (code, _), answer in zip(asks, answers, strict=True):
        if answer != disband.KEEP:
            ctx.say(apply(state, scenario, ctx, code, answer), rule="§23.1.2")


def apply(state: GameState, scenario: Scenario, ctx: DecisionPort, power: str, answer: str) -> str:
    """Carry out a `disband` answer: leaders first (back to the pool), then the units (their
    counters back to the pool, RR-I33; a unit's leader with it), then the degradations."""
    try:
        command = parse_line(answer)
    except OrderSyntaxError:  # a recorded answer was checked when given
        return f"{power}: the answer {answer!r} cannot be read and is ignored (§23.1.2)"
    gone, lowered = (command.units, command.degrade) if command.word == "ELIMINATE" else ((), command.units)
    for unit in gone:
        leader = state.leader(unit)
        if leader is not None and unit.startswith("L"):
            state.leaders.remove(leader)
            state.leader_pool.append(leader.id)
    for unit in gone:
        if not unit.startswith("L"):
            battles.eliminate(state, unit)
    for squadron in state.squadrons:
        if squadron.fleet is not None and state.leader(squadron.fleet) is None:
            squadron.fleet = None
    for unit in lowered:
        _degrade(state, power, unit)
    sieges.lift_ended_sieges(state, ctx)
    parts = []
    if gone:
        parts.append(f"eliminates {', '.join(gone)} (back to its pool)")
    if lowered:
        parts.append(f"degrades {', '.join(f'{u} to Q{_quality(state, u)}' for u in lowered)}")
    return f"{power} " + " and ".join(parts) + " (§23.1.2)"


def _degrade(state: GameState, power: str, unit: str) -> None:
    """§23.1.2, RR-I86: a veteran troop turns to its regular side; a 3-4 troop becomes a
    2-3 one and a Q3 squadron a Q2 one, the higher counter going back to the pool for the
    lower one taken from it."""
    troop = state.troop(unit)
    if troop is not None:
        if troop.veteran:
            troop.quality = regular_quality(troop.counter)
            return
        pool = state.minors[troop.minor].pool if troop.minor else state.powers[power].pool  # RR-I140
        pool["3-4"] = pool.get("3-4", 0) + 1
        pool["2-3"] -= 1
        troop.counter, troop.quality = "2-3", regular_quality("2-3")
        return
    squadron = state.squadron(unit)
    pool = state.powers[power].squadron_pool
    pool["3"] = pool.get("3", 0) + 1
    pool["2"] -= 1
    squadron.quality = 2


def _quality(state: GameState, unit: str) -> int:
    found = state.troop(unit) or state.squadron(unit)
    return found.quality
