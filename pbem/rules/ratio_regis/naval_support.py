"""Naval support of a coastal combat (§11.4.2; examples §28.7, §30.4).

Before a field battle, a siege assault or a subjugation in a coastal area, every power
with an operational fleet or squadron in a sea on that coast, at war with one side of the
combat (and not with both), may announce support for the other side (`support`, default
`PASS`, RR-I44). The announcements are simultaneous and cannot be withdrawn. The combat
engine's contest (`combat.support.contest`) then decides which side has the support,
fighting a naval combat (battlefield 3) when both sides have some; its result is applied
like any naval combat's. Under v2.1 a winner not allied to the side it supported gives
that side nothing (RR-I281).
"""

from __future__ import annotations

from dataclasses import replace

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.combat.support import Supporter, SupportResult, contest, with_support
from pbem.rules.ratio_regis.naval import commercial_port_on, groups_at
from pbem.rules.ratio_regis.reactions import ask_all
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def supported(state: GameState, scenario: Scenario, judge: DecisionPort, combat: cm.Combat) -> cm.Combat:
    """`combat` with the side that has naval support after §11.4.2, asking every
    eligible power first (nothing is asked inland or when no fleet is near)."""
    if combat.area not in scenario.areas or not scenario.coastal(combat.area):
        return combat
    seas = scenario.areas[combat.area].seas
    asks, fleets = [], []
    for power in scenario.power_order:
        sides = _sides_for(state, combat, power)
        player = state.powers[power].player
        groups = groups_at(state, scenario, power, seas) if sides and player else {}
        if not groups:
            continue
        fleets.append((power, sides, groups))
        helped = [combat.side(side).power for side in sides]
        options = ([f"SUPPORT WITH {name}" for name in groups] if len(sides) == 1 else
                   [f"SUPPORT WITH {name} FOR {who}" for name in groups for who in helped])
        asks.append((player, power, {
            "options": options + ["PASS"], "default": "PASS",
            "context": {"area": combat.area, "combat": combat.type, "supports": ",".join(helped),
                        "against": ",".join(combat.side(cm.other(side)).power for side in sides)}}))
    answers = ask_all(judge, asks, "support", rule="§11.4.2",
                      prompt=f"a {combat.type} combat in {combat.area} ({combat.attacker.power} against "
                             f"{combat.defender.power}): support a side with a fleet on its coast, or PASS")
    supporters = []
    for (power, sides, groups), answer in zip(fleets, answers, strict=True):
        if answer.word != "SUPPORT":
            continue
        side = next(s for s in sides if answer.place in (None, combat.side(s).power))
        squadrons = groups[answer.unit]
        supporters.append(Supporter(side, battles.side(state, scenario, power, [s.id for s in squadrons])))
        judge.say(f"{power} supports {combat.side(side).power} in {combat.area} with {answer.unit} (§11.4.2)",
                  rule="§11.4.2")
    if not supporters:
        return combat
    supporters = _revolt_supporter(scenario, judge, combat, supporters)
    sea = state.squadron(supporters[0].fleet.units[0].id).sea
    result = contest(judge, combat, tuple(supporters), sea=sea, commercial_port=commercial_port_on(state, scenario, sea))
    if result.combat is not None:
        battles.apply_result(state, scenario, judge, result.combat, result.naval)
        result = _allied_winner(state, judge, combat, result)
    who = combat.side(result.supported).power if result.supported else "neither side"
    judge.say(f"naval support in {combat.area}: {who}", rule="§11.4.2")
    return with_support(combat, result)


def _allied_winner(state: GameState, judge: DecisionPort, combat: cm.Combat, result: SupportResult) -> SupportResult:
    """v2.1 §11.4.2: no side has the support when the fleet that won the naval combat "is not
    allied to the side it supported" — neither that side's power nor its ally (RR-I281). A
    revolt has no allies: the power fighting for it (RR-I56) keeps its support."""
    side = result.supported
    if state.options.variant != "v2.1" or side is None or _revolt(combat.side(side)):
        return result
    winner = result.fighting[0] if side == combat.active else result.fighting[1]
    helped = combat.side(side).power
    if winner == helped or state.allied(winner, helped):
        return result
    judge.say(f"{winner} won the naval combat but is not {helped}'s ally: no side has naval support "
              f"(v2.1 §11.4.2)", rule="§11.4.2")
    return replace(result, supported=None)


def _sides_for(state: GameState, combat: cm.Combat, power: str) -> list[str]:
    """The sides `power` may support: each whose enemy it is at war with — both when at war
    with both (RR-I53); a combatant supports itself. A revolt fights whoever subjugates it:
    powers at war with the subjugator may support the revolt (RR-I56)."""
    mine = next((name for name in cm.SIDES if combat.side(name).power == power
                 and not _revolt(combat.side(name))), None)
    if mine is not None:
        enemy = combat.side(cm.other(mine))
        return [mine] if _revolt(enemy) or _at_war(state, power, enemy.power) else []
    return [cm.other(name) for name in cm.SIDES
            if not _revolt(combat.side(name)) and _at_war(state, power, combat.side(name).power)]


def _revolt(side: cm.Side) -> bool:
    return any(unit.kind == cm.REBEL for unit in side.units)


def _revolt_supporter(scenario: Scenario, judge: DecisionPort, combat: cm.Combat, supporters: list[Supporter]) -> list[Supporter]:
    """§11.4.2 "when revolts are being supported, vitality will be used to resolve ties"
    (RR-I56): a revolt cannot choose among the powers supporting it, so the one with the
    highest vitality fights for it (a tie: the scenario's power order); the others stay out."""
    rebels = [s for s in supporters if _revolt(combat.side(s.side))]
    if len(rebels) < 2:
        return supporters
    order = scenario.power_order
    chosen = max(rebels, key=lambda s: (scenario.powers[s.fleet.power].vitality, -order.index(s.fleet.power)))
    judge.say(f"the revolt in {combat.area} is supported by {chosen.fleet.power}, of highest vitality (§11.4.2)",
              rule="§11.4.2")
    return [s for s in supporters if s is chosen or s not in rebels]


def _at_war(state: GameState, power: str, other: str) -> bool:
    return other != power and other in state.powers and state.at_war(power, other)
