"""Step 5, withdrawals (§7.5.2.5), and withdrawal before an outflank that has not arrived
(§7.5.2.12.2). Withdrawing units retreat as after a combat, moved by their owner, unpursued."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.chits import operation
from pbem.rules.empires_in_arms.combat.commander import command
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force, Troop

IRREGULAR_ESCAPE = 4  # cossacks and freikorps: "4 or less" against a cavalry corps (§10.1.2.2.3)
STAY = ("garrison",)  # depot garrisons cannot leave their depot (§7.5.3.4, EIA-I69)


def withdraw(force: Force, troops: list[Troop]) -> None:
    for troop in troops:
        troop.gone = True
        force.withdrew.append(troop.id)


def movers(force: Force) -> list[Troop]:
    return [t for t in force.present() if t.unit.category not in STAY]


def all_cavalry(force: Force) -> bool:
    return all(t.total == t.cavalry for t in force.present())


def resolve_withdrawal(fight: Fight) -> bool:
    """The defender chose Withdraw: automatic against Probe (§7.5.2.5.2.1); else the
    commander's SR (chart note, option 12.3.3.2) or, with no leader, each corps its own
    (§7.5.2.5.2.2); cossacks and freikorps with them by §10.1.2.2.3. True when nothing that
    must fight is left (§7.5.2.5.1)."""
    force, enemy = fight.defender, fight.attacker
    if fight.attacker.chit == "probe":
        withdraw(force, movers(force))
        fight.say("the defender withdraws before the probe", "§7.5.2.5.2.1")
        return not force.present()
    bonus = operation(fight).withdraw_sr
    if fight.battle.options.cavalry_withdrawals and all_cavalry(force) and not all_cavalry(enemy):
        bonus += 1
    corps = [t for t in force.present() if t.is_corps]
    if force.commander is not None:
        rating = command(force, fight.battle.options).strategic + bonus
        die = fight.roll(f"day{fight.day}/withdraw", "§7.5.2.5.2.2")
        going = corps if die <= rating else []
        fight.say(f"the defender's withdrawal: {die} against SR {rating}", "§7.5.2.5.2.2")
    else:
        going = []
        for troop in corps:
            die = fight.roll(f"day{fight.day}/withdraw/{troop.id}", "§7.5.2.5.2.2")
            if die <= troop.unit.strategic + bonus:
                going.append(troop)
    irregulars = [t for t in force.present() if t.unit.category in ("cossacks", "freikorps")]
    if going and irregulars:
        hunted = any(t.unit.cavalry_symbol for t in enemy.corps())
        if not hunted or fight.roll(f"day{fight.day}/withdraw/irregulars", "§10.1.2.2.3") <= IRREGULAR_ESCAPE:
            going += irregulars
    withdraw(force, going + [t for t in force.present() if t.unit.category == "guerrillas"])
    if going:
        fight.say(f"withdrawn: {', '.join(t.id for t in going)}", "§7.5.2.5.2.3")
    return not [t for t in force.present()]
