"""Naval interception of troops crossing a sea (§10.2.1, §11.4.1, §18.6.3; research §4.7).

When troops moving strategically (or landing, §12.3.2) enter a sea, every power at war
with the mover that has an operational fleet or squadron there may announce one to
intercept (`intercept`, default `PASS`, RR-I41). The mover's escort (`ESCORT <fleet>` in
the order, RR-I42) and its order of fights (`FIGHT <POWER>,…`, RR-I43) come with the
order. Each interceptor fights one naval combat (battlefield 2); without an escort it
needs 1 BP to win. A draw or a mover's win lets the next one fight; any interceptor's
win stops the move. A power that tried once may not try again in the same move.
"""

from __future__ import annotations

from collections.abc import Sequence
from pbem.rules.ratio_regis import battles
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.movement import Convoy
from pbem.rules.ratio_regis.naval import bases, commercial_port_on, dissolve_before_battle, groups_at, own_group
from pbem.rules.ratio_regis.reactions import ask_all
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Squadron


def check_escort(state: GameState, scenario: Scenario, convoy: Convoy, departure: str) -> None:
    """RR-I42: an operational fleet or squadron of the mover "with a naval base at the
    port of departure": in port there, or at sea within the NOD of that port."""
    if convoy.escort is None:
        return
    squadrons = own_group(state, convoy.power, convoy.escort)
    for squadron in squadrons:
        if squadron.repair:
            raise IllegalOrder(f"the escort {squadron.id} is under repair (§9.3)")
        in_port = squadron.port == departure
        at_sea = squadron.sea is not None and departure in bases(state, scenario, convoy.power, squadron.sea,
                                                                 minor=squadron.minor)
        if not (in_port or at_sea):
            raise IllegalOrder(f"the escort {convoy.escort} is not based at the port of departure {departure} "
                               f"(§11.4.1): it must be in port there or at sea within its naval operation distance")
    convoy.escort_squadrons = [s.id for s in squadrons]


def interceptor_seas(state: GameState, scenario: Scenario, power: str, sea: str) -> list[str]:
    """§18.6.3 (RR-I40): the seas from which the power's fleets may intercept in `sea`:
    the sea itself, and the other sea of a strategic port the power controls on it."""
    seas = [sea]
    for area in scenario.data.areas:
        if area.strategic_port and sea in area.seas and state.areas[area.id].controller == power:
            seas += [s for s in area.seas if s not in seas]
    return seas


def interceptors(state: GameState, scenario: Scenario, mover: str, sea: str,
                 tried: set[str] = frozenset()) -> dict[str, dict[str, list[Squadron]]]:
    """Every power at war with the mover, not yet tried, with a fleet that may intercept
    in `sea`: power -> its fleets by name."""
    found = {}
    for power in scenario.power_order:
        if power == mover or power in tried or not state.at_war(mover, power):
            continue
        groups = groups_at(state, scenario, power, interceptor_seas(state, scenario, power, sea))
        if groups:
            found[power] = groups
    return found


def cross(state: GameState, scenario: Scenario, run, convoy: Convoy, sea: str, troops: Sequence[str]) -> bool:
    """§11.4.1: the interceptions of one sea entered; True if the troops go on."""
    candidates = interceptors(state, scenario, convoy.power, sea, convoy.tried)
    asks = []
    for power, groups in candidates.items():
        player = state.powers[power].player
        if player is None:
            continue
        asks.append((player, power, {
            "options": [f"INTERCEPT WITH {name}" for name in groups] + ["PASS"], "default": "PASS",
            "context": {"sea": sea, "enemy": convoy.power, "troops": len(troops), "escort": convoy.escort or ""}}))
    answers = ask_all(run.judge, asks, "intercept", rule="§11.4.1",
                      prompt=f"{convoy.power} moves {', '.join(troops)} across @{sea}: intercept with one fleet, "
                             f"or PASS")
    announced = {power: candidates[power][answer.unit] for (_, power, _), answer in zip(asks, answers, strict=True)
                 if answer.word == "INTERCEPT"}
    order = [p for p in convoy.fights if p in announced] + [p for p in announced if p not in convoy.fights]
    for power in order:
        convoy.tried.add(power)
        if not _fight(state, scenario, run, convoy, sea, power, announced[power]):
            return False
    return True


def _fight(state: GameState, scenario: Scenario, run, convoy: Convoy, sea: str, power: str,
           fleet: list[Squadron]) -> bool:
    escort = [s for s in (state.squadron(i) for i in convoy.escort_squadrons) if s is not None and not s.repair]
    interceptor = [s for s in fleet if state.squadron(s.id) is not None and not s.repair]
    escort = dissolve_before_battle(state, run.judge, escort, power)
    interceptor = dissolve_before_battle(state, run.judge, interceptor, convoy.power)
    if not interceptor:
        return True
    combat = cm.Combat(
        id=f"intercept-{sea}-{power}", type=cm.NAVAL, area=sea,
        attacker=battles.side(state, scenario, convoy.power, [s.id for s in escort]),
        defender=battles.side(state, scenario, power, [s.id for s in interceptor]),
        commercial_port=commercial_port_on(state, scenario, sea), options=dict(state.options.combat))
    result = battles.fight(run.judge, combat)
    battles.apply_result(state, scenario, run.judge, combat, result)
    stopped = result.winner == cm.DEFENDER
    outcome = ("wins: the move is stopped" if stopped else
               "is beaten" if result.winner == cm.ATTACKER else "draws: the move goes on")
    run.judge.say(f"{power} intercepts {convoy.power} at @{sea} and {outcome}", rule="§11.4.1")
    return not stopped
