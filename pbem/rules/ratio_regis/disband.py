"""The `disband` decision of voluntary elimination and degradation at turn end (§23.1.2;
example §32.6): whom it asks, what it offers and how an answer reads (`elimination.py`
carries the answers out).

"Major powers can now eliminate (return to their reserve of available units) the units
they do not want for the next turn. They can also degrade them (i.e. pass naval squadrons
E3 to E2, for example) if they wish." After the veterans have turned (§16.2) and the
extraordinary leaders too (§17.3.3), every power with a player and units is asked at once
(a batch, research §2.7) by a `disband` decision: `KEEP` (the default), `ELIMINATE <unit>,…
[DEGRADE <unit>,…]` or `DEGRADE <unit>,…` (RR-I85, RR-I86).
"""

from __future__ import annotations

from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.orders import Reaction
from pbem.rules.ratio_regis.state import Fortress, GameState, Leader, Squadron, Troop

KEEP = "KEEP"
_ANSWERS = "KEEP, ELIMINATE <unit>,… [DEGRADE <unit>,…] or DEGRADE <unit>,…"


def units_of(state: GameState, power: str) -> list[str]:
    """What a power may eliminate (RR-I85): its troops (on the map or dispersed), squadrons,
    fortresses (not under siege) and leaders, in that order, each in engine order."""
    return [unit.id for unit in _units(state, power)]


def _units(state: GameState, power: str) -> list[Troop | Squadron | Fortress | Leader]:
    units: list[Troop | Squadron | Fortress | Leader] = [t for t in state.troops if t.power == power]
    units += [s for s in state.squadrons if s.power == power]
    units += [f for f in state.fortresses if f.power == power and state.areas[f.area].besieger is None]
    units += [lead for lead in state.leaders if lead.power == power]
    return units


def counter_of(unit: Troop | Squadron | Fortress | Leader) -> str:
    """The pool a troop's or squadron's counter returns to ("troop:2-3", "squadron:3");
    "" for fortresses and leaders."""
    if isinstance(unit, Troop):
        return f"troop:{unit.counter}"
    return f"squadron:{unit.quality}" if isinstance(unit, Squadron) else ""


def degrade_need(unit: Troop | Squadron | Fortress | Leader) -> str | None:
    """RR-I86: a veteran troop turns to its regular side (no counter needed, ""); a regular
    3-4 troop becomes a 2-3 troop and a Q3 squadron a Q2 one, each taking the lower counter
    from the pool (the counter it needs); anything else cannot be degraded (None)."""
    if isinstance(unit, Troop):
        if unit.veteran:
            return ""
        return "troop:2-3" if unit.counter == "3-4" else None
    if isinstance(unit, Squadron) and unit.quality == 3:
        return "squadron:2"
    return None


def _spare(state: GameState, power: str, key: str) -> int:
    kind, counter = key.split(":")
    pool = state.powers[power].pool if kind == "troop" else state.powers[power].squadron_pool
    return pool.get(counter, 0)


def _describe(key: str) -> str:
    kind, counter = key.split(":")
    return f"{counter} troop" if kind == "troop" else f"Q{counter} squadron"


def request(ctx: DecisionPort, state: GameState, code: str) -> Request | None:
    """The `disband` request to a power with a player and units (RR-I85), or None: what
    it may eliminate, what it may degrade and the counters that needs (RR-I86)."""
    power = state.powers[code]
    pieces = _units(state, code)
    units = [unit.id for unit in pieces]
    if not power.active or power.player is None or not units:
        return None
    needs = {u.id: need for u in pieces if (need := degrade_need(u)) is not None}
    spare = {key: _spare(state, code, key) for key in sorted(set(needs.values())) if key}
    return ctx.request(
        kind="disband", player=power.player, power=code, purpose="disband", default=KEEP,
        options=[KEEP, f"ELIMINATE <unit>,… of {','.join(units)} [DEGRADE <unit>,…]"]
        + ([f"DEGRADE <unit>,… of {','.join(needs)}"] if needs else []),
        prompt=f"{code} may eliminate the units it does not want for the next turn (back to its pool) and "
               f"degrade others: {_ANSWERS}",
        rule="§23.1.2",
        context={"power": code, "eligible": tuple(units), "degradable": tuple(needs), "needs": needs,
                 "counters": {u.id: c for u in pieces if (c := counter_of(u))}, "spare": spare})


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
