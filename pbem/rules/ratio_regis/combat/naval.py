"""Naval combats (§13.2; example §28.6).

Battlefield 2 for a tactical attack or the interception of a strategic move, 3 for a
support contest (`support.py`); an Organizer and cards adjust it within 2..5 (§13.2.4).
Attacker and defender are alike (§13.2.2). A conscript needs a leader and a commercial
port, not razed, in the sea (§13.1.9). Every 2 C eliminate a squadron and every 2 D
damage one: it flips to under repair and goes to its base; the loser's other squadrons
go back to base too (§13.2.5). The loser that rolled 2 dice or more gives a morale
counter (§13.2.6). With nobody opposing (no escort, §11.4.1) the side needs 1 BP to win.
"""

from __future__ import annotations

from pbem.rules.ratio_regis.combat.battle import DAMAGE, Battle, CombatRules
from pbem.rules.ratio_regis.combat.model import ADMIRAL, NAVAL, SUPPORT, SQUADRON, Combat, CombatResult, Side, other

TACTICAL_BATTLEFIELD, SUPPORT_BATTLEFIELD = 2, 3


def may_conscript(combat: Combat, side: Side) -> bool:
    return bool(side.leaders) and combat.commercial_port


def _rules(type_: str, base: int, rule: str) -> CombatRules:
    return CombatRules(type=type_, rule=rule, base=base, plus_ability=ADMIRAL, conscript=may_conscript,
                       loss_kind=lambda combat, name: DAMAGE)


RULES = _rules(NAVAL, TACTICAL_BATTLEFIELD, "§13.2")
SUPPORT_RULES = _rules(SUPPORT, SUPPORT_BATTLEFIELD, "§11.4.2, §13.2")


def conclude(battle: Battle) -> CombatResult:
    """Damaged squadrons and, for the loser, every other squadron go back to base."""
    sides = {}
    for name, f in battle.fighters.items():
        lost = battle.winner == other(name)
        back = [u.id for u in f.side.units if u.kind == SQUADRON and u.id not in f.removed()] if lost else []
        sides[name] = battle.side_result(name, damaged=f.dispersed, returns_to_base=back)
    return battle.result(sides)
