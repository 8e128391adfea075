"""Piracy and privateering (§11.5, §11.4.3, §13.2.3; example §27.4).

Always one squadron against one, battlefield 1, nothing adjusts it (§13.2.4). With no
interceptor the pirate needs 1 BP to succeed (§11.5.2). An interceptor in port has a
disadvantage (§11.4.3, §13.2.3). 2 D damage a squadron (§13.2.5; §27.4: a difference of
2 damaged the pirate); the loser goes back to base. If the pirate wins, its power's
unrest falls by the victim's merchants in the trade center and the victim's rises as
much; the victim may then remove one merchant (§11.5.2). Morale never changes (one
die). An interceptor that was not damaged may intercept again (§11.4.3).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.combat.battle import DAMAGE, Battle, CombatRules, ask
from pbem.rules.ratio_regis.combat.model import ADMIRAL, ATTACKER, DEFENDER, PIRACY, Combat, CombatResult, Modifier


def modifiers(combat: Combat, name: str) -> list[Modifier]:
    if name == DEFENDER and combat.interceptor_in_port:
        return [Modifier(-1, "intercepting from port", "§11.4.3, §13.2.3")]
    return []


RULES = CombatRules(type=PIRACY, rule="§11.5", base=1, fixed=True, plus_ability=ADMIRAL, modifiers=modifiers,
                    loss_kind=lambda combat, name: DAMAGE, morale=lambda combat: False)


def conclude(ctx: DecisionPort, battle: Battle) -> CombatResult:
    combat = battle.combat
    victim = combat.victim or combat.defender.power
    unrest: list[tuple[str, int]] = []
    dropped = False
    if battle.winner == ATTACKER:
        unrest = [(combat.attacker.power, -combat.merchants), (victim, combat.merchants)]
        dropped = ask(ctx, battle, DEFENDER, kind="drop-merchant", default=False, rule="§11.5.2",
                      options=("DROPMERCHANT YES", "DROPMERCHANT NO"), merchants=combat.merchants,
                      prompt=f"The pirate won in {combat.area}: remove one of your merchants? DROPMERCHANT YES or NO")
    sides = {}
    for name, f in battle.fighters.items():
        back = [u.id for u in f.side.units] if battle.winner not in (None, name) else f.dispersed
        sides[name] = battle.side_result(name, damaged=f.dispersed, returns_to_base=back)
    interceptor = battle.fighters[DEFENDER]
    return battle.result(sides, unrest=unrest, merchant_dropped=dropped,
                         interceptor_may_repeat=bool(interceptor.side.units) and not interceptor.dispersed)
