"""Naval tactical movement and attacks (§11.3; examples §28.5, §28.6).

`NAVAL <fleet> [TO @sea] ATTACK <target>,…`: the fleet (named by its leader) or squadron
may first move to an adjacent sea within the naval operation distance (§11.1, galleys
§18.6.1), then looks for the enemy fleets named, in order. Each target's owner fights or
withdraws to its base (`engage`, default `FIGHT`, RR-I49). While the targets withdraw or
are beaten the attack goes on; a draw or a defeat ends the action (a new action may try
again).
"""

from __future__ import annotations

from pbem.rules.ratio_regis import battles
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.interception import interceptors
from pbem.rules.ratio_regis.naval import (bases, check_minor_reach, check_not_pirated, check_stays, commercial_port_on,
                                          dissolve_before_battle, galley_check, groups_at, nod, own_group,
                                          resolve_sea, send_to_base)
from pbem.rules.ratio_regis.orders import Naval
from pbem.rules.ratio_regis.reactions import ask
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Squadron


def naval_attack(state: GameState, scenario: Scenario, power: str, order: Naval, run: ImpulseRun) -> str:
    """§11.3: the optional move, then the attacks in the order named."""
    fleet = own_group(state, power, order.unit)
    check_free(fleet, run)
    sea = fleet[0].sea
    texts = []
    if order.sea:
        check_stays(state, fleet)
        there = resolve_sea(scenario, order.sea)
        if there not in scenario.seas[sea].adjacent:
            raise IllegalOrder(f"@{there} is not adjacent to @{sea} (§11.3)")
        galley_check(scenario, sea, there)
        if not bases(state, scenario, power, there):
            raise IllegalOrder(f"@{there} is beyond the naval operation distance ({nod(state, scenario, there)}) of every "
                               f"{power} port (§11.1)")
        check_minor_reach(state, scenario, fleet, [f"@{there}"])
        for squadron in fleet:
            squadron.sea = there
        sea = there
        texts.append(f"{power} moves {order.unit} to @{sea}")
        run.judge.say(texts[-1], rule="§11.3")
    targets = [_target(state, scenario, power, sea, name) for name in order.targets]
    run.ledger.acted.update(s.id for s in fleet)
    for (enemy, name, squadrons) in targets:
        attackers = [s for s in fleet if state.squadron(s.id) is not None and s.sea == sea and not s.repair]
        present = [s for s in squadrons if state.squadron(s.id) is not None and s.sea == sea]
        if not attackers or not present:
            continue
        text, won = _engage(state, scenario, run, power, attackers, enemy, name, present, sea)
        texts.append(text)
        if not won:
            break
    return "; ".join(texts)


def check_free(fleet: list[Squadron], run: ImpulseRun) -> None:
    """An operational force at sea that has not pirated this impulse (§11.5.1)."""
    for squadron in fleet:
        if squadron.repair:
            raise IllegalOrder(f"{squadron.id} is under repair (§9.3)")
        if squadron.sea is None:
            raise IllegalOrder(f"{squadron.id} is in port: it sails at the start of the impulse (F SAIL) or moves "
                               f"strategically (§11.6)")
        check_not_pirated(squadron, run)


def _target(state: GameState, scenario: Scenario, power: str, sea: str,
            name: str) -> tuple[str, str, list[Squadron]]:
    for enemy in scenario.power_order:
        if enemy != power and state.at_war(power, enemy):
            groups = groups_at(state, scenario, enemy, [sea])
            match = next((n for n in groups if n.upper() == name.upper()
                          or any(s.id.upper() == name.upper() for s in groups[n])), None)
            if match is not None:
                return enemy, match, groups[match]
    found = interceptors(state, scenario, power, sea)
    listed = ", ".join(f"{name} ({enemy})" for enemy, groups in found.items() for name in groups if True)
    raise IllegalOrder(f"{name} is no enemy fleet at @{sea} (enemy fleets there: {listed or 'none'}) (§11.3)")


def _engage(state: GameState, scenario: Scenario, run: ImpulseRun, power: str, fleet: list[Squadron], enemy: str,
            name: str, targets: list[Squadron], sea: str) -> tuple[str, bool]:
    """The target's owner fights or withdraws to base; True if the attack may go on. A combined
    fleet that would fight a power some of its squadrons are not at war with dissolves first."""
    fleet = dissolve_before_battle(state, run.judge, fleet, enemy)
    targets = dissolve_before_battle(state, run.judge, targets, power)
    if not fleet or not targets:
        return f"no naval combat at @{sea}: no squadron left to fight (§21.2.3)", bool(fleet)
    player = state.powers[enemy].player
    answer = "FIGHT"
    if player is not None:
        answer = ask(run.judge, player, enemy, "engage", options=["FIGHT", "WITHDRAW"], default="FIGHT",
                     context={"sea": sea, "enemy": power, "fleet": name, "enemy_squadrons": len(fleet),
                              "my_squadrons": len(targets)},
                     prompt=f"{power} attacks your {name} at @{sea} with {len(fleet)} squadron(s): FIGHT or WITHDRAW "
                            f"to base", rule="§11.3").word
    if answer == "WITHDRAW":
        moves = [send_to_base(state, scenario, run.judge, squadron, damaged=False) for squadron in targets]
        text = f"{enemy} withdraws {name} from @{sea}: " + "; ".join(moves)
        run.judge.say(text, rule="§11.3")
        return text, True
    combat = cm.Combat(id=f"naval-{sea}-{name}", type=cm.NAVAL, area=sea,
                       attacker=battles.side(state, scenario, power, [s.id for s in fleet]),
                       defender=battles.side(state, scenario, enemy, [s.id for s in targets]),
                       commercial_port=commercial_port_on(state, scenario, sea), options=dict(state.options.combat))
    result = battles.fight(run.judge, combat)
    battles.apply_result(state, scenario, run.judge, combat, result)
    text = f"naval combat at @{sea}: " + battles.outcome(combat, result)
    run.judge.say(text, rule="§11.3")
    return text, result.winner == cm.ATTACKER
