"""Powers the rules play: The Rise of Portugal's Emirates (§33.1 "Emirates Rules"; RR-I290…RR-I295).

"After each Portuguese impulse, the minor power will act according to the list": a power of the
scenario that no player runs, whose card (`Power.automatic`) names the power it answers and its
acts in the list's order. Each act whose condition holds is carried out, in that order, and said
in the chronicle with §33.1 (RR-I291). Its piracy is the piracy action of §11.5 (the victim
guards as usual, the dice are the combat's); its troop, asked nothing, stands in its area and
fights there (RR-I294); it never makes peace (RR-I293).
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import piracy
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.orders import Piracy
from pbem.rules.ratio_regis.scenario import Automatic, Scenario
from pbem.rules.ratio_regis.state import GameState, War

RULE = "§33.1"


def is_automatic(scenario: Scenario, power: str) -> bool:
    return power in scenario.powers and scenario.powers[power].automatic is not None


def endless(scenario: Scenario, war: War) -> bool:
    """RR-I293: a war with an automatic power lasts until it disappears — it is never
    negotiated, at turn end or forced (§33.1: Portugal needs no CB against it, turn after turn)."""
    return any(is_automatic(scenario, side) for side in war.sides)


def negotiates(state: GameState, scenario: Scenario, power: str) -> bool:
    """RR-I293: forced negotiations (§21.4.2) are not for an automatic power, nor for a power
    whose only enemies are automatic."""
    return not is_automatic(scenario, power) and any(
        not endless(scenario, war) for war in state.wars if power in war.sides)


def after_impulse(ctx: DecisionPort, state: GameState, player: str, new_run: Callable[[], ImpulseRun]) -> None:
    """§33.1: after an impulse of `player`, each automatic power answering one of its powers
    carries out its acts in its card's order (RR-I291). Their acts share one run, `new_run()`,
    made when the first of them begins (most impulses have none to make)."""
    scenario: Scenario = ctx.scenario
    run: ImpulseRun | None = None
    for code in scenario.power_order:
        auto = scenario.powers[code].automatic
        if auto is not None and state.powers[code].active and state.powers[auto.after].player == player:
            run = run or new_run()
            for act in auto.acts:
                if not state.powers[code].active:
                    break
                ACTS[act](ctx, state, scenario, code, auto, run)


def _fall(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, auto: Automatic,
          run: ImpulseRun) -> None:
    """§33.1 "If Aden is taken by Portugal, the minor power disappears": its units leave the
    map (fortresses too), its wars end, it is out of play (RR-I295)."""
    if state.areas[auto.capital].controller != auto.after:
        return
    gone = state.remove_units_of(code)
    state.wars = [w for w in state.wars if code not in w.sides]
    state.powers[code].active = False
    ctx.say(f"{auto.after} has taken {auto.capital}: {scenario.powers[code].name} disappears"
            + (f" with {', '.join(gone)}" if gone else ""), rule=RULE)


def _pirate(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, auto: Automatic,
            run: ImpulseRun) -> None:
    """§33.1 "Fleet at sea → piracy to Portugal": each operational squadron at sea pirates with
    the piracy action (§11.5.2); where the action is not possible the chronicle says why."""
    for squadron in [s for s in state.squadrons if s.power == code and s.sea is not None and not s.repair]:
        ctx.say(f"{scenario.powers[code].name}'s fleet {squadron.id} is at sea: it pirates {auto.after}", rule=RULE)
        try:
            piracy.piracy(state, scenario, code, Piracy(squadron.id, auto.after), run)
        except IllegalOrder as error:
            ctx.say(f"{scenario.powers[code].name}'s {squadron.id} makes no piracy against {auto.after}: {error}",
                    rule=RULE)


def _sortie(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, auto: Automatic,
            run: ImpulseRun) -> None:
    """§33.1 "Fleet in port → take it out to sea": to the power's sea, one under repair
    repaired first (RR-I292: no player pays for it; the list leaves no fleet in port)."""
    for squadron in [s for s in state.squadrons if s.power == code and s.port is not None]:
        ctx.say(f"{scenario.powers[code].name} takes {squadron.id} out of {squadron.port}"
                + (", repaired," if squadron.repair else "") + f" to @{auto.sea}", rule=RULE)
        squadron.base = squadron.port
        squadron.port, squadron.sea, squadron.repair = None, auto.sea, False


def _refit(ctx: DecisionPort, state: GameState, scenario: Scenario, code: str, auto: Automatic,
           run: ImpulseRun) -> None:
    """§33.1 "Fleet destroyed and it is the beginning of the turn → place it damaged in port":
    after its answered power's first impulse of the turn (RR-I291), each squadron destroyed
    (back in its pool, §9.2) returns under repair to its port."""
    if state.half is None or state.half.impulse > len(state.players):
        return
    pool = state.powers[code].squadron_pool
    for quality in sorted(pool, reverse=True):
        while pool[quality] > 0:
            squadron = state.new_squadron(code, int(quality), port=auto.port, repair=True)
            ctx.say(f"{scenario.powers[code].name}'s destroyed fleet returns damaged to {auto.port}: {squadron.id}",
                    rule=RULE)


ACTS = {"fall": _fall, "pirate": _pirate, "sortie": _sortie, "refit": _refit}
