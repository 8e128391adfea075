"""The `agitation` decision of social agitation at turn end (§23.2; examples §32.8, §32.9):
whom it asks, what it offers and how an answer reads (`dynasty.py` carries it out).

"For each level of unrest that exceeds twice its vitality, the major power must place one
R2 revolt in one of its possessions … The major power can disperse troops. Each dispersed
troop factor cancels the appearance of one of these revolts." A power whose unrest exceeds
twice its vitality is asked, with the others at once (a batch, research §2.7): `KEEP` (the
default: disperse nothing, every revolt is placed), `DISPERSE <troop>,…` (troops on the map,
not besieged, each cancelling as many revolts as its quality) or `DYNASTY` (a voluntary
dynastic change instead, §23.2–§23.3) (RR-I104, RR-I105).
"""

from __future__ import annotations

from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.orders import Reaction
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState

KEEP, DYNASTY = "KEEP", "DYNASTY"
_ANSWERS = "KEEP (place every revolt), DISPERSE <troop>,… (each cancels as many revolts as its quality) or DYNASTY"


def excess(state: GameState, scenario: Scenario, power: str) -> int:
    """§23.2: the levels of unrest above twice the power's vitality (0 when not above)."""
    return max(0, state.powers[power].unrest - 2 * scenario.powers[power].vitality)


def dispersible(state: GameState, power: str) -> dict[str, int]:
    """The troops that may disperse against revolts, with their quality: on the map and not
    besieged ("do not count those that were already dispersed", §23.2; RR-I105)."""
    return {t.id: t.quality for t in state.troops if t.power == power and t.area is not None and not t.besieged}


def request(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str) -> Request:
    """The `agitation` request to the owner of an agitated power."""
    power, over = state.powers[code], excess(state, scenario, code)
    troops = dispersible(state, code)
    listed = ",".join(f"{t} (Q{q})" for t, q in troops.items()) or "none"
    return ctx.request(
        kind="agitation", player=power.player, power=code, purpose="agitation", default=KEEP,
        options=[KEEP, DYNASTY] + ([f"DISPERSE <troop>,… of {','.join(troops)}"] if troops else []),
        prompt=f"{code}'s unrest {power.unrest} exceeds twice its vitality "
               f"({2 * scenario.powers[code].vitality}) by {over}: {over} R2 revolt(s) in its possessions, "
               f"less one per quality point of troops it disperses now (troops: {listed}): {_ANSWERS}",
        rule="§23.2",
        context={"power": code, "excess": over, "unrest": power.unrest, "eligible": tuple(troops),
                 "quality": troops})


def read_agitation(command: Reaction, request: Request) -> tuple[str | None, str]:
    """The canonical answer (`DISPERSE T3,T9`, troops in the request's order) to an
    `agitation` request, or why not. A troop whose quality is not needed to cancel the
    revolts is refused (RR-I105)."""
    if command.word in (KEEP, DYNASTY):
        return command.word, ""
    if command.word != "DISPERSE":
        return None, f"{command.text()} does not answer this decision: write {_ANSWERS}"
    power, allowed = request.power, list(request.context.get("eligible", ()))
    quality: dict[str, int] = dict(request.context.get("quality", {}))
    named = [u.upper() for u in command.units]
    wrong = [u for u in named if u not in allowed]
    if wrong:
        return None, (f"{', '.join(wrong)}: not a troop {power} may disperse (its troops on the map, not besieged: "
                      f"{', '.join(allowed) or 'none'}) (§23.2)")
    if len(set(named)) != len(named):
        return None, "name each troop once"
    over = int(request.context.get("excess", 0))
    spare = [u for u in named if sum(quality[n] for n in named) - quality[u] >= over]
    if spare:
        return None, (f"{over} revolt(s) are cancelled without {spare[0]}: disperse only the troops needed "
                      f"(§23.2, RR-I105)")
    return "DISPERSE " + ",".join(u for u in allowed if u in named), ""
