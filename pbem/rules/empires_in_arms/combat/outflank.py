"""Step 12, the arrival of an outflanking force (§7.5.2.12), and the withdrawal it allows a
Withdraw side while it has not arrived (§7.5.2.12.2)."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.chits import operation
from pbem.rules.empires_in_arms.combat.commander import command
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.withdrawal import movers, withdraw

ROUGH = ("forest", "mountain", "marsh")  # §7.5.2.12.1.2
SECOND_TRY = 2  # §7.5.2.12.1.3


def arrive(fight: Fight) -> bool:
    """Roll for the arrival of any outflanking force on its way after rounds 1 and 2; True
    when the combat ends because a Withdraw side leaves before round 2."""
    for force in fight.forces():
        if force.flank_arrived is not False or not force.flank():
            continue
        rating = command(force, fight.battle.options).strategic + operation(fight).outflank_sr
        rating -= 1 if fight.battle.terrain in ROUGH else 0
        rating += SECOND_TRY if fight.round == 2 else 0
        die = fight.roll(f"day{fight.day}/round{fight.round}/{force.name}/outflank", "§7.5.2.12.1")
        force.flank_arrived = die <= rating
        fight.say(f"{force.name}'s outflanking force {'arrives' if force.flank_arrived else 'is not there yet'} "
                  f"(die {die} against SR {rating})", "§7.5.2.12.1")
        enemy = fight.enemy(force)
        if fight.round == 1 and not force.flank_arrived and enemy.chit == "withdraw":
            withdraw(enemy, movers(enemy))
            fight.say(f"{enemy.name} withdraws before the outflank arrives", "§7.5.2.12.2")
            return not enemy.present()
    return False


def rejoin(fight: Fight) -> None:
    """Outflanking forces not yet arrived rejoin overnight (§7.5.2.13.2.2)."""
    for force in fight.forces():
        for troop in force.troops:
            if troop.role == "flank":
                troop.role = "main"
        force.flank_arrived = None
