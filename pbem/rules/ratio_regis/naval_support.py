"""Naval support of a coastal combat (§11.4.2; examples §28.7, §30.4).

Before a field battle, a siege assault or a subjugation in a coastal area, every power
with an operational fleet or squadron in a sea on that coast, at war with one side of the
combat (and not with both), may announce support for the other side (`support`, default
`PASS`, RR-I44). The announcements are simultaneous and cannot be withdrawn. The combat
engine's contest (`combat.support.contest`) then decides which side has the support,
fighting a naval combat (battlefield 3) when both sides have some; its result is applied
like any naval combat's.
"""

from __future__ import annotations

from pbem.rules.ratio_regis import battles
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.combat.support import Supporter, contest, with_support
from pbem.rules.ratio_regis.naval import commercial_port_on, groups_at
from pbem.rules.ratio_regis.reactions import ask_all
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def supported(state: GameState, scenario: Scenario, judge, combat: cm.Combat) -> cm.Combat:
    """`combat` with the side that has naval support after §11.4.2, asking every
    eligible power first (nothing is asked inland or when no fleet is near)."""
    if combat.area not in scenario.areas or not scenario.coastal(combat.area):
        return combat
    seas = scenario.areas[combat.area].seas
    asks, fleets = [], []
    for power in scenario.power_order:
        side = _side_for(state, combat, power)
        player = state.powers[power].player
        groups = groups_at(state, scenario, power, seas) if side and player else {}
        if not groups:
            continue
        helped = combat.side(side).power
        fleets.append((power, side, groups))
        asks.append((player, power, {
            "options": [f"SUPPORT WITH {name}" for name in groups] + ["PASS"], "default": "PASS",
            "context": {"area": combat.area, "combat": combat.type, "supports": helped,
                        "against": combat.side(cm.other(side)).power}}))
    answers = ask_all(judge, asks, "support", rule="§11.4.2",
                      prompt=f"a {combat.type} combat in {combat.area} ({combat.attacker.power} against "
                             f"{combat.defender.power}): support a side with a fleet on its coast, or PASS")
    supporters = []
    for (power, side, groups), answer in zip(fleets, answers, strict=True):
        if answer.word != "SUPPORT":
            continue
        squadrons = groups[answer.unit]
        supporters.append(Supporter(side, battles.side(state, scenario, power, [s.id for s in squadrons])))
        judge.say(f"{power} supports {combat.side(side).power} in {combat.area} with {answer.unit} (§11.4.2)",
                  rule="§11.4.2")
    if not supporters:
        return combat
    sea = state.squadron(supporters[0].fleet.units[0].id).sea
    result = contest(judge, combat, tuple(supporters), sea=sea, commercial_port=commercial_port_on(state, scenario, sea))
    if result.combat is not None:
        battles.apply_result(state, scenario, judge, result.combat, result.naval)
    who = combat.side(result.supported).power if result.supported else "neither side"
    judge.say(f"naval support in {combat.area}: {who}", rule="§11.4.2")
    return with_support(combat, result)


def _side_for(state: GameState, combat: cm.Combat, power: str) -> str | None:
    """The side `power` may support: the one whose enemy it is at war with (a combatant
    supports itself); nobody's if at war with both or neither (RR-I44)."""
    against = [name for name in cm.SIDES if _at_war(state, power, combat.side(name).power)]
    if len(against) != 1:
        return None
    return cm.other(against[0])


def _at_war(state: GameState, power: str, other: str) -> bool:
    return other != power and other in state.powers and state.at_war(power, other)
