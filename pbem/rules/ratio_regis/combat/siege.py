"""Siege assaults (§13.4; example §32.1).

Battlefield 3; the owner of a supporting fleet may change it by 1, then organizers and
cards (§13.4.4; RR-C2 for the order). The fortress fights as Q3. Disadvantages: the side
facing an enemy fleet's support, and the besieged one per siege casualty (§13.4.3). A
conscript needs no leader (§13.1.9). Every 2 D disperse a besieger troop or add a siege
casualty to the besieged, never dispersed; the loser of an assault that is not a draw
suffers at least one (§13.4.2). The fortress goes only when no troops that fought are
left. The besieged capitulate when their siege casualties exceed the troops left, when
the fortress is eliminated, or by choice before the dice; then the besieger takes the
area, the fortress is destroyed and the surviving besieged troops disperse (§13.4.5).
Veterans as in field battles (§13.4.6); morale per the option `siege_morale` (RR-C9).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.combat.battle import DISPERSE, SIEGE_CASUALTY, Battle, CombatRules, Fighter, ask
from pbem.rules.ratio_regis.combat.field import siege_casualty_modifiers, support_modifier
from pbem.rules.ratio_regis.combat.model import (ATTACKER, DEFENDER, FORTRESS, SIEGE, TACTICAL, TROOP, Combat,
                                                 CombatResult, Modifier)
from pbem.rules.ratio_regis.combat.options import option

BASE_BATTLEFIELD = 3


def modifiers(combat: Combat, name: str) -> list[Modifier]:
    found = support_modifier(combat, name)
    if name == DEFENDER:
        found += siege_casualty_modifiers(combat.siege_casualties, "per siege casualty", "§13.4.3")
    return found


def losses_from(combat: Combat, name: str, disband_results: int, lost: bool, leader: bool) -> int:
    """Every 2 D make one loss; the loser of a decided assault suffers at least one."""
    return max(disband_results // 2, 1 if lost else 0)


RULES = CombatRules(type=SIEGE, rule="§13.4", base=BASE_BATTLEFIELD, fleet_adjusts=True, plus_ability=TACTICAL,
                    veterans=True, conscript=lambda combat, side: True, modifiers=modifiers, losses_from=losses_from,
                    loss_kind=lambda combat, name: SIEGE_CASUALTY if name == DEFENDER else DISPERSE,
                    morale=lambda combat: option(combat.options, "siege_morale") == "yes")


def capitulates(ctx: DecisionPort, battle: Battle) -> bool:
    """§13.4.5: before the dice the besieged may capitulate. Default: hold."""
    return ask(ctx, battle, DEFENDER, kind="capitulate", default=False, rule="§13.4.5",
               prompt=f"Siege of {battle.combat.area}: capitulate before the dice? CAPITULATE or HOLD",
               options=("CAPITULATE", "HOLD"), siege_casualties=battle.combat.siege_casualties)


def _surrender(garrison: Fighter) -> None:
    """The fortress is destroyed and the surviving besieged troops disperse."""
    for unit in garrison.side.units:
        if unit.id in garrison.removed():
            continue
        (garrison.eliminated if unit.kind == FORTRESS else garrison.dispersed).append(unit.id)


def capitulation(battle: Battle) -> CombatResult:
    """A voluntary capitulation: no dice are rolled."""
    _surrender(battle.fighters[DEFENDER])
    battle.winner = ATTACKER
    return battle.result(capitulated=True, control_to=ATTACKER,
                         siege_casualties=battle.combat.siege_casualties)


def conclude(battle: Battle) -> CombatResult:
    garrison = battle.fighters[DEFENDER]
    total = battle.combat.siege_casualties + battle.siege_added
    troops_left = [u for u in garrison.side.units if u.kind == TROOP and u.id not in garrison.removed()]
    fortress_lost = any(u.kind == FORTRESS and u.id in garrison.eliminated for u in garrison.side.units)
    capitulated = fortress_lost or total > len(troops_left)
    if capitulated:
        _surrender(garrison)
    return battle.result(capitulated=capitulated, control_to=ATTACKER if capitulated else None,
                         siege_casualties=total)
