"""Guard commitment (option 12.3.4) and artillery bombardment (option 12.3.5), Step 8 (§7.5.2.8)."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.casualties import take_losses
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force

GUARDS = ("AU", "FR", "PR", "RU")  # 12.3.4.3: British and Spanish guards cannot commit
DOUBLE_GUARDS = ("FR", "RU")
BOMBARDMENT_TABLE = "5-5"  # 12.3.5.4
MILITIA_LIMIT = 20  # morale loss 2.0 (§7.5.2.9.2.1, 12.3.5.2)


def guard_factors(force: Force) -> dict[str, int]:
    counts: dict[str, int] = {}
    for troop in force.fighting():
        if troop.factors["guard"] and troop.unit.power in GUARDS:
            counts[troop.unit.power] = counts.get(troop.unit.power, 0) + troop.factors["guard"]
    return counts


def committed_nation(force: Force) -> str:
    """One nationality's guard is committed, all of it (12.3.4, 12.3.4.3): the one with most
    guard factors, then by name (EIA-I71)."""
    counts = guard_factors(force)
    return min(counts, key=lambda power: (-counts[power], power))


def max_shift(force: Force) -> int:
    counts = guard_factors(force)
    if not counts or force.guard_committed_today:
        return 0
    nation = committed_nation(force)
    return 2 if nation in DOUBLE_GUARDS and counts[nation] >= 2 else 1


def commit_guards(fight: Fight) -> dict[str, int]:
    """Both sides' commitments, written and revealed together (12.3.4.1); each committing side
    loses guard factors on the GUARD COMMITMENT TABLE (12.3.4.4). Returns each committing
    side's shift, 0 when every committed guard factor was lost (the side breaks, 12.3.4.5)."""
    able = [f for f in fight.forces() if max_shift(f)]
    if not fight.battle.options.guard_commitment or not able:
        return {}
    requests = [fight.ask(f, kind="guard", prompt=f"Round {fight.round}: commit your guard?", default=0,
                          rule="§12.3.4", options=tuple(str(s) for s in range(max_shift(f) + 1)),
                          max_shift=max_shift(f)) for f in able]
    shifts = {}
    for force, shift in zip(able, fight.port.decide_all(requests)):
        if not shift:
            continue
        force.guard_committed_today = True
        nation = committed_nation(force)
        die = fight.roll(f"day{fight.day}/round{fight.round}/{force.name}/guard", "§12.3.4.4")
        lost = (fight.charts.guard.plus_one if shift == 1 else fight.charts.guard.plus_two)[die - 1]
        guards = [t for t in force.fighting() if t.unit.power == nation and t.factors["guard"]]
        take_losses(guards, lost, ["guard"], fight.charts)
        shifts[force.name] = shift if any(t.factors["guard"] for t in guards) else 0
        fight.say(f"{force.name} commits the {nation} guard (+{shift}): die {die}, {lost} guard factors lost",
                  "§12.3.4.4")
    return shifts


def bombard(fight: Fight) -> None:
    """Artillery corps fire first on the 5-5 table, losses only, simultaneous, never in marsh
    (12.3.5.1–4); a bombarding side's artillery factors are the percentage base (EIA-I72)."""
    if not fight.battle.options.artillery or fight.battle.terrain == "marsh":
        return
    hits = {}
    for force in fight.forces():
        guns = sum(t.factors["artillery"] for t in force.fighting() if t.unit.artillery_corps)
        if guns:
            die = fight.roll(f"day{fight.day}/round{fight.round}/{force.name}/bombardment", "§12.3.5.4")
            percent, _ = fight.charts.resolve(BOMBARDMENT_TABLE, die)
            hits[force.name] = fight.charts.casualty(percent, guns)
    for force in fight.forces():
        target = fight.enemy(force)
        if hits.get(force.name):
            take_losses(target.fighting(), hits[force.name], target.side.loss_order, fight.charts,
                        militia=target.morale_loss < MILITIA_LIMIT)
            fight.say(f"{force.name}'s artillery bombards: {hits[force.name]} losses", "§12.3.5")
