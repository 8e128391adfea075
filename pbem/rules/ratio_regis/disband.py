"""Voluntary elimination and degradation of units at turn end (§23.1.2; example §32.6).

"Major powers can now eliminate (return to their reserve of available units) the units
they do not want for the next turn. They can also degrade them (i.e. pass naval squadrons
E3 to E2, for example) if they wish." After the veterans have turned (§16.2) and the
extraordinary leaders too (§17.3.3), every power with a player and units is asked at once
(a batch, research §2.7) by a `disband` decision: `KEEP` (the default), `ELIMINATE <unit>,…
[DEGRADE <unit>,…]` or `DEGRADE <unit>,…` (RR-I85, RR-I86).
"""

from __future__ import annotations

from typing import Any

from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.orders import OrderSyntaxError, Reaction, parse_line
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, regular_quality

KEEP = "KEEP"
_ANSWERS = "KEEP, ELIMINATE <unit>,… [DEGRADE <unit>,…] or DEGRADE <unit>,…"


def units_of(state: GameState, power: str) -> list[str]:
    """What a power may eliminate (RR-I85): its troops (on the map or dispersed), squadrons,
    fortresses (not under siege) and leaders, in that order, each in engine order."""
    units = [t.id for t in state.troops if t.power == power]
    units += [s.id for s in state.squadrons if s.power == power]
    units += [f.id for f in state.fortresses if f.power == power and state.areas[f.area].besieger is None]
    units += [lead.id for lead in state.leaders if lead.power == power]
    return units


def counter_of(state: GameState, unit: str) -> str:
    """The pool a troop's or squadron's counter returns to ("troop:2-3", "squadron:3");
    "" for fortresses and leaders."""
    troop = state.troop(unit)
    if troop is not None:
        return f"troop:{troop.counter}"
    squadron = state.squadron(unit)
    return f"squadron:{squadron.quality}" if squadron is not None else ""


def degrade_need(state: GameState, unit: str) -> str | None:
    """RR-I86: a veteran troop turns to its regular side (no counter needed, ""); a regular
    3-4 troop becomes a 2-3 troop and a Q3 squadron a Q2 one, each taking the lower counter
    from the pool (the counter it needs); anything else cannot be degraded (None)."""
    troop = state.troop(unit)
    if troop is not None:
        if troop.veteran:
            return ""
        return "troop:2-3" if troop.counter == "3-4" else None
    squadron = state.squadron(unit)
    if squadron is not None and squadron.quality == 3:
        return "squadron:2"
    return None


def _spare(state: GameState, power: str, key: str) -> int:
    kind, counter = key.split(":")
    pool = state.powers[power].pool if kind == "troop" else state.powers[power].squadron_pool
    return pool.get(counter, 0)


def _describe(key: str) -> str:
    kind, counter = key.split(":")
    return f"{counter} troop" if kind == "troop" else f"Q{counter} squadron"


def voluntary(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23.1.2: every power with a player and units may give up units (back to its pool)
    and degrade others; the owners answer at once, default `KEEP` (RR-I85)."""
    asks: list[tuple[str, Any]] = []
    for code in scenario.power_order:
        power = state.powers[code]
        units = units_of(state, code)
        if not power.active or power.player is None or not units:
            continue
        needs = {u: need for u in units if (need := degrade_need(state, u)) is not None}
        spare = {key: _spare(state, code, key) for key in sorted(set(needs.values())) if key}
        asks.append((code, ctx.request(
            kind="disband", player=power.player, power=code, purpose="disband", default=KEEP,
            options=[KEEP, f"ELIMINATE <unit>,… of {','.join(units)} [DEGRADE <unit>,…]"]
            + ([f"DEGRADE <unit>,… of {','.join(needs)}"] if needs else []),
            prompt=f"{code} may eliminate the units it does not want for the next turn (back to its pool) and "
                   f"degrade others: {_ANSWERS}",
            rule="§23.1.2",
            context={"power": code, "eligible": tuple(units), "degradable": tuple(needs), "needs": needs,
                     "counters": {u: c for u in units if (c := counter_of(state, u))}, "spare": spare})))
    answers = ctx.decide_all([request for _, request in asks]) if asks else []
    for (code, _), answer in zip(asks, answers, strict=True):
        if answer != KEEP:
            ctx.say(apply(state, scenario, ctx, code, answer), rule="§23.1.2")


def read_disband(command: Reaction, request: Request) -> tuple[str | None, str]:
    """The canonical answer (`ELIMINATE T3,L2 DEGRADE S5`, units in the request's order)
    to a `disband` request, or why not."""
    if command.word == KEEP:
        return KEEP, ""
    if command.word not in ("ELIMINATE", "DEGRADE"):
        return None, f"{command.text()} does not answer this decision: write {_ANSWERS}"
    power, context = request.power, request.context
    allowed = list(context.get("eligible", ()))
    degradable = list(context.get("degradable", ()))
    gone, lowered = (command.units, command.degrade) if command.word == "ELIMINATE" else ((), command.units)
    wrong = [u for u in (*gone, *lowered) if u not in allowed]
    if wrong:
        return None, (f"{', '.join(wrong)}: not a unit {power} may eliminate or degrade (its units: "
                      f"{', '.join(allowed) or 'none'}; a fortress under siege stays)")
    if len(set(gone)) != len(gone) or len(set(lowered)) != len(lowered):
        return None, "name each unit once"
    both = [u for u in gone if u in lowered]
    if both:
        return None, f"{', '.join(both)} cannot be both eliminated and degraded"
    fixed = [u for u in lowered if u not in degradable]
    if fixed:
        return None, (f"{', '.join(fixed)} cannot be degraded: only a veteran troop (to its regular side), a 3-4 "
                      f"troop (to a 2-3) or a Q3 squadron (to Q2) can be (degradable: "
                      f"{', '.join(degradable) or 'none'}) (§23.1.2, RR-I86)")
    needs, counters, spare = context.get("needs", {}), context.get("counters", {}), context.get("spare", {})
    for key in sorted({needs[u] for u in lowered if needs.get(u)}):
        need = sum(1 for u in lowered if needs.get(u) == key)
        have = spare.get(key, 0) + sum(1 for u in gone if counters.get(u) == key)
        if need > have:
            return None, (f"{power} has {have} {_describe(key)} counter(s) in its pool for {need} degradation(s) "
                          f"(RR-I86)")
    gone_text = ",".join(u for u in allowed if u in gone)
    lowered_text = ",".join(u for u in allowed if u in lowered)
    if not gone:
        return f"DEGRADE {lowered_text}", ""
    return f"ELIMINATE {gone_text}" + (f" DEGRADE {lowered_text}" if lowered else ""), ""


def apply(state: GameState, scenario: Scenario, ctx: DecisionPort, power: str, answer: str) -> str:
    """Carry out a `disband` answer: leaders first (back to the pool), then the units (their
    counters back to the pool, RR-I33; a unit's leader with it), then the degradations."""
    from pbem.rules.ratio_regis import battles, sieges  # the combat bridge sits above the turn-end rules

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
    troop = state.troop(unit)
    if troop is not None:
        if troop.veteran:
            troop.quality = regular_quality(troop.counter)
            return
        pool = state.powers[power].pool
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
