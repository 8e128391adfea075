"""Pursuit after a break or a withdrawal at the end of a day (§7.5.2.10.2)."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.casualties import take_pursuit_losses
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force, Troop
from pbem.rules.empires_in_arms.combat.named_losses import PURSUIT, apply as apply_named

COLUMN_SHIFT = {"forest": -1, "mountain": -1, "desert": -1, "marsh": -2}  # §7.5.2.10.2.2.2–3


def cavalry_leader_bonus(victor: Force, pursuers: list[Troop]) -> int:
    """+1 with a cavalry leader present whose nationality has a pursuing cavalry factor
    (§7.5.2.10.2.2.1, §10.6.1.3)."""
    powers = {t.unit.power for t in pursuers if t.cavalry > 0}
    return 1 if any(leader.cavalry_symbol and leader.power in powers for leader in victor.leaders) else 0


def pursue(fight: Fight, victor: Force, loser: Force, *, rounds: int, fixed_class: int | None = None,
           pursuers: list[Troop] | None = None) -> int:
    """The loss points the victor's cavalry inflicts, taken at once from the loser; the class
    from the victor's morale loss and the rounds fought (3+ once a battle lasted a day), or 1
    against a withdrawal at day's end, then shifted for terrain; below 1 there is none."""
    pursuers = victor.present() if pursuers is None else pursuers
    cavalry = sum(t.cavalry for t in pursuers)
    if cavalry == 0 or not loser.present():
        return 0
    chosen = fixed_class or fight.charts.class_of_pursuit(victor.total_morale_loss, 3 if fight.day > 1 else rounds)
    column = chosen + COLUMN_SHIFT.get(fight.battle.terrain, 0)
    if column < 1:
        fight.say(f"no pursuit (class {chosen} shifted to {column})", "§7.5.2.10.2.2.4")
        return 0
    die = fight.roll("pursuit", "§7.5.2.10.2.3") + cavalry_leader_bonus(victor, pursuers)
    percent = fight.charts.pursuit_percent(column, die)
    points = fight.charts.casualty(percent, cavalry)
    asked = fight.losses_request(loser, loser.present(), points, PURSUIT)
    if asked is not None:  # option chosen_losses: the loser names them (§7.5.2.9.2)
        apply_named(loser.present(), fight.port.decide(asked))
    else:
        take_pursuit_losses(loser.present(), points, loser.side.loss_order, fight.charts,
                            proportional=fight.contingents(loser, "pursuit"))
    loser.pursuit_losses += points
    fight.say(f"{victor.name} pursues: class {column}, die {die}, {percent}% of {cavalry} cavalry = {points} losses",
              "§7.5.2.10.2")
    return points
