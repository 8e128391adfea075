"""Field battles (§13.3): battles, interceptions, sorties and relief battles; examples
§30.4 (with its naval prelude in `support.py`) and §32.1's opening battle.

Battlefield 4; the defender may reduce it to 3 in forest, 2 in marsh or mountain or
across a rough pass, 3/2 after an amphibious landing (open/other terrain), 3 in open
terrain for sorties and relief battles (§13.3.4). Disadvantages: the attacker in
mountain or marsh, the army facing an enemy fleet's support, an amphibious landing,
and one per siege casualty for a sortie or for a relief army the besieged join
(§13.3.3, §13.3.5). A fortress fights as Q3 but is never eliminated here and never
sorties. Each D disperses one troop (§13.3.6). The loser retreats (a losing sortie stays
besieged); the winner may take control (§13.3.7); a side that eliminated an enemy unit
may make one troop veteran (§13.3.8).
"""

from __future__ import annotations

from pbem.rules.ratio_regis.combat.battle import Battle, CombatRules
from pbem.rules.ratio_regis.combat.model import (ATTACKER, CLEAR, DEFENDER, FIELD, FOREST, MARSH, MOUNTAIN,
                                                 TACTICAL, Combat, CombatResult, Modifier, Side)

BASE_BATTLEFIELD = 4


def defender_floor(combat: Combat) -> int:
    """The smallest battlefield the defender may choose (§13.3.4)."""
    floors = [BASE_BATTLEFIELD]
    if combat.terrain == FOREST:
        floors.append(3)
    if combat.terrain in (MARSH, MOUNTAIN) or combat.rough_pass:
        floors.append(2)
    if combat.amphibious:
        floors.append(3 if combat.terrain == CLEAR else 2)
    if (combat.sortie or combat.relief) and combat.terrain == CLEAR:
        floors.append(3)
    return min(floors)


def support_modifier(combat: Combat, name: str) -> list[Modifier]:
    """The side facing an enemy fleet's support has a disadvantage (§11.4.2)."""
    if combat.supported is not None and combat.supported != name:
        return [Modifier(-1, "enemy naval support", "§11.4.2")]
    return []


def siege_casualty_modifiers(count: int, reason: str, rule: str) -> list[Modifier]:
    return [Modifier(-1, reason, rule)] * count


def modifiers(combat: Combat, name: str) -> list[Modifier]:
    found = support_modifier(combat, name)
    if name == ATTACKER and combat.terrain in (MOUNTAIN, MARSH):
        found.append(Modifier(-1, f"attacking in {combat.terrain}", "§13.3.3"))
    if name == ATTACKER and combat.amphibious:
        found.append(Modifier(-1, "amphibious landing", "§13.3.3"))
    if name == ATTACKER and combat.sortie:
        found += siege_casualty_modifiers(combat.siege_casualties, "sortie, per siege casualty", "§13.3.3")
    if combat.relief and any(u.besieged for u in combat.side(name).units):
        found += siege_casualty_modifiers(combat.siege_casualties, "besieged joined, per siege casualty", "§13.3.5")
    return found


def may_conscript(combat: Combat, side: Side) -> bool:
    return bool(side.leaders)


RULES = CombatRules(type=FIELD, rule="§13.3", base=BASE_BATTLEFIELD, plus_ability=TACTICAL, veterans=True,
                    fortress_eliminable=False, defender_floor=defender_floor, conscript=may_conscript,
                    modifiers=modifiers, losses_from=lambda combat, name, d, lost, leader: d)


def conclude(battle: Battle) -> CombatResult:
    """Retreat, control and, in a relief battle, the besieged going back in (§13.3.5–7)."""
    combat, winner = battle.combat, battle.winner
    retreat = None if winner is None else (DEFENDER if winner == ATTACKER else ATTACKER)
    if retreat == ATTACKER and combat.sortie:
        retreat = None  # a losing sortie stays besieged (§13.3.6)
    back = ()
    if combat.relief and winner == DEFENDER:
        f = battle.fighters[ATTACKER]
        back = tuple(u.id for u in f.units if u.besieged and u.id not in f.removed())
    return battle.result(retreat=retreat, control_to=winner, besieged_return=back)
