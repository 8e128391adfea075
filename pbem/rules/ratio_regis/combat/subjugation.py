"""Subjugation combats (§13.5; examples §28.7, §28.12–§28.14, §29.1, §31.8).

One die a side, whatever the forces: Q3 for the subjugator, Q2 for a power opposing
with troops or a fortress, the level for a rebellion or active independent area (R2/A2
= Q2, R3/A3 = Q3); on a mini-map the area itself resists, A3 if a home area, else A2
(§13.5.4, §13.5.7). Disadvantages (§13.5.3): the subjugator if all its troops in the area
moved in this action, and in forest, mountain or marsh; the side facing an enemy
fleet's support; the opponent opposing from two areas away. The pursuit: 1 D disperses
a troop, 2 D with a leader present (§13.5.5); none at all against a fortress. A
subjugator that does not win may disperse 1 troop (draw) or 2 (loss) to take the area
anyway (§13.5.4). Who may oppose, and from where, is the caller's (§13.5.2, §13.5.6).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.combat.battle import Battle, CombatRules, ask
from pbem.rules.ratio_regis.combat.field import support_modifier
from pbem.rules.ratio_regis.combat.model import (ATTACKER, DEFENDER, DETERMINED, FOREST, MARSH, MOUNTAIN,
                                                 OPPOSE_FORTRESS, OPPOSE_INDEPENDENT, OPPOSE_REBEL, SUBJUGATION,
                                                 TROOP, Combat, CombatResult, Modifier)

SUBJUGATOR_CATEGORY, OPPONENT_CATEGORY = 3, 2
MINI_MAP_HOME, MINI_MAP_OTHER = 3, 2  # A3 and A2 (§13.5.7)
DRAW_PRICE, LOSS_PRICE = 1, 2


def die_category(combat: Combat, name: str) -> int:
    """The fixed category of a side's one die (§13.5.4, §13.5.7)."""
    if name == ATTACKER:
        return SUBJUGATOR_CATEGORY
    if combat.opposition in (OPPOSE_REBEL, OPPOSE_INDEPENDENT) and combat.defender.units:
        return combat.defender.units[0].category  # its own level, on a mini-map too (RR-I91)
    if combat.mini_map:
        return MINI_MAP_HOME if combat.home_area else MINI_MAP_OTHER
    return OPPONENT_CATEGORY


def modifiers(combat: Combat, name: str) -> list[Modifier]:
    found = support_modifier(combat, name)
    if name == ATTACKER and combat.all_moved:
        found.append(Modifier(-1, "all the subjugating troops moved in this action", "§13.5.3"))
    if name == ATTACKER and combat.terrain in (FOREST, MOUNTAIN, MARSH):
        found.append(Modifier(-1, f"subjugating in {combat.terrain}", "§13.5.3"))
    if name == DEFENDER and combat.opposed_from > 1:
        found.append(Modifier(-1, "opposing from a non-adjacent area", "§13.5.3"))
    return found


def losses_from(combat: Combat, name: str, disband_results: int, lost: bool, leader: bool) -> int:
    """§13.5.5: one troop per D, per 2 D when a leader is present."""
    return disband_results // 2 if leader else disband_results


RULES = CombatRules(type=SUBJUGATION, rule="§13.5", base=1, fixed=True, plus_ability=DETERMINED,
                    force_die=die_category, modifiers=modifiers, losses_from=losses_from,
                    morale=lambda combat: False, no_pursuit=lambda combat: combat.opposition == OPPOSE_FORTRESS)


def conclude(ctx: DecisionPort, battle: Battle) -> CombatResult:
    """A win takes the area; otherwise the subjugator may pay troops for it (§13.5.4)."""
    if battle.winner == ATTACKER:
        return battle.result(control_to=ATTACKER)
    price = DRAW_PRICE if battle.winner is None else LOSS_PRICE
    force = battle.fighters[ATTACKER]
    troops = [u.id for u in force.side.units if u.kind == TROOP and u.id not in force.removed()]
    paid: list[str] = []
    if len(troops) >= price:
        paid = ask(ctx, battle, ATTACKER, kind="pay-to-take", default=[], rule="§13.5.4", troops=troops, price=price,
                   prompt=f"Subjugation of {battle.combat.area} not won: disperse {price} troop(s) to take it anyway? "
                          f"PAYTAKE <{price} of {', '.join(troops)}> or PAYTAKE NO")
    force.dispersed += paid
    return battle.result(control_to=ATTACKER if paid else None, paid_to_take=tuple(paid), pay_to_take=price)
