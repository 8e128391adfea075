"""One combat round (Steps 7–10 of §7.5.2): guard and artillery, both dice, simultaneous
losses, breaking and elimination. Shared by field, trivial, assault and garrison attack
combats, which differ in what their `Procedure` switches on."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.rules.empires_in_arms.combat.casualties import take_losses
from pbem.rules.empires_in_arms.combat.chits import field_table, terrain_table
from pbem.rules.empires_in_arms.combat.commander import die_modifiers
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force
from pbem.rules.empires_in_arms.combat.guard import MILITIA_LIMIT, bombard, commit_guards
from pbem.rules.empires_in_arms.combat.leaders import capture_all
from pbem.rules.empires_in_arms.combat.models import show_tenths
from pbem.rules.empires_in_arms.combat.named_losses import ROUND, apply as apply_named


@dataclass(frozen=True)
class Procedure:
    """What a kind of combat uses of the field combat procedure."""

    kind: str
    chits: bool = True
    tables: tuple[str, str] | None = None  # fixed (attacker, defender) tables, without chits
    terrain: bool = True
    leaders: bool = True
    cavalry: bool = True
    loss_rules: bool = True  # §7.5.2.9.2.1–2 (militia, cavalry on breaking)
    pursuit: bool = True
    reinforcements: bool = True
    optional_rules: bool = True  # guard, artillery, leader casualties
    max_days: int | None = None
    political: bool = True
    #: Sides whose survivors surrender when they lose (§7.5.3.4, §7.5.4.1.3.5).
    surrender_on_loss: tuple[str, ...] = ()
    #: Units whose cavalry does not pursue (a sortieing garrison in a relief, §7.5.4.2.3).
    not_pursuing: tuple[str, ...] = ()


def table_for(fight: Fight, proc: Procedure, force: Force, guard_shift: int) -> str:
    if proc.chits:
        return field_table(fight, force, guard_shift)
    fixed = proc.tables[0 if force is fight.attacker else 1]
    return terrain_table(fight, force, fixed, guard_shift) if proc.terrain else fixed


def fight_round(fight: Fight, proc: Procedure) -> bool:
    """Fight round `fight.round`; True when a side broke or was eliminated."""
    shifts = commit_guards(fight) if proc.optional_rules else {}
    if proc.optional_rules:
        bombard(fight)
    for force in fight.forces():
        force.mark_used()
    modifiers = die_modifiers(fight.charts, fight.attacker, fight.defender, fight.battle.options,
                              leaders=proc.leaders, cavalry=proc.cavalry)
    inflicted = {}
    for force, modifier in zip(fight.forces(), modifiers):
        if shifts.get(force.name, 1) == 0:
            continue  # its guard was lost whole: it breaks without fighting (12.3.4.5)
        table = table_for(fight, proc, force, shifts.get(force.name, 0))
        die = fight.roll(f"day{fight.day}/round{fight.round}/{force.name}", "§7.5.2.9") + modifier
        percent, morale = fight.charts.resolve(table, die)
        losses = fight.charts.casualty(percent, force.inflicting())
        inflicted[force.name] = (losses, morale)
        fight.say(f"day {fight.day} round {fight.round}: {force.name} on {table}, die {die}: {percent}% of "
                  f"{force.inflicting()} = {losses} losses, morale -{show_tenths(morale)}", "§7.5.2.9")
    for force in fight.forces():
        morale = inflicted.get(fight.enemy(force).name, (0, 0))[1]
        force.morale_loss += morale
        force.total_morale_loss += morale
        force.broken = force.morale_loss >= force.final_morale or shifts.get(force.name) == 0
    enemy_broke = {f.name: fight.enemy(f).broken for f in fight.forces()}
    for force in fight.forces():
        if shifts.get(force.name) and not enemy_broke[force.name]:
            # 12.3.4.6: broken in this round, so its losses start with a cavalry factor (§7.5.2.9.2.2)
            force.broken = True
    losses = {force.name: inflicted.get(fight.enemy(force).name, (0, 0))[0] for force in fight.forces()}
    named = name_losses(fight, proc, losses)
    for force in fight.forces():
        take(fight, proc, force, losses[force.name], named.get(force.name))
    for force in fight.forces():
        settle(fight, force)
    return any(f.broken or not f.present() for f in fight.forces())


def limits(proc: Procedure, force: Force) -> tuple[bool, bool]:
    """Whether militia may be lost at will (§7.5.2.9.2.1), and whether a cavalry factor goes
    first, the side breaking this round (§7.5.2.9.2.2)."""
    return not proc.loss_rules or force.morale_loss < MILITIA_LIMIT, proc.loss_rules and force.broken


def name_losses(fight: Fight, proc: Procedure, losses: dict[str, int]) -> dict[str, str]:
    """With option chosen_losses, each side's owner names the round's losses of its fighting
    units, both answers revealed together (§7.5.2.9.2); by side, those asked."""
    asked = {}
    for force in fight.forces():
        militia, cavalry_first = limits(proc, force)
        found = fight.losses_request(force, force.fighting(), losses[force.name], ROUND, militia=militia,
                                     cavalry_first=cavalry_first)
        if found is not None:
            asked[force.name] = found
    return dict(zip(asked, fight.port.decide_all(list(asked.values())), strict=True)) if asked else {}


def take(fight: Fight, proc: Procedure, force: Force, losses: int, named: str | None = None) -> None:
    """The owner's losses — those he named, or by his standing loss order: from the pinning
    force while an outflank is on its way, the excess on the outflanking force once the pinning
    force is gone (§7.5.2.10.1.2.2)."""
    militia, cavalry_first = limits(proc, force)
    before = {t.id: dict(t.lost) for t in force.troops}
    if named is not None:
        left = losses - apply_named(force.fighting(), named)
    else:
        left = take_losses(force.fighting(), losses, force.side.loss_order, fight.charts, militia=militia,
                           cavalry_first=cavalry_first,
                           proportional=fight.contingents(force, f"day{fight.day}/round{fight.round}"))
    if left and force.flank_arrived is False:
        take_losses(force.flank(), left, force.side.loss_order, fight.charts)
    taken = [f"{t.id} {lost - before[t.id][kind]} {kind}" for t in force.troops for kind, lost in t.lost.items()
             if lost > before[t.id][kind]]
    if taken:  # each unit's losses of the round, for the owner and for cases (docs/cases.md)
        fight.say(f"day {fight.day} round {fight.round}: {force.name} loses {', '.join(taken)}", "§7.5.2.9.2")


def settle(fight: Fight, force: Force) -> None:
    """A pinning force broken or eliminated before its outflank arrives breaks the whole side;
    eliminated, its leaders are captured (§7.5.2.10.1.2); a side of artillery alone breaks
    (12.3.5.6)."""
    if force.flank_arrived is False and not force.pinning():
        force.broken = True
        capture_all(force)
    fighting = force.fighting()
    if fight.battle.options.artillery and fighting and all(t.unit.artillery_corps for t in fighting):
        force.broken = True
    if force.broken:
        fight.say(f"{force.name} breaks (morale loss {show_tenths(force.morale_loss)} against "
                  f"{show_tenths(force.final_morale)})", "§7.5.2.10.1.1")


def pinning_gone(force: Force) -> bool:
    return force.flank_arrived is False and not force.pinning()
