"""Step 11, reinforcing attempts after each round (§7.5.2.11)."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.commander import SENIORITY, choose_commander
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force, Troop
from pbem.rules.empires_in_arms.combat.models import ReinforcementGroup

NEEDS_LEADER = ("cossacks", "freikorps", "guerrillas")  # §7.5.2.11.2


def waiting(force: Force) -> list[ReinforcementGroup]:
    return [g for g in force.side.reinforcements if g.id not in force.joined_groups]


def attempt_all(fight: Fight) -> None:
    """Both sides name the groups that try (one sealed batch), then each group dices."""
    asking = [f for f in fight.forces() if waiting(f)]
    if not asking:
        return
    requests = [fight.ask(f, kind="reinforce", prompt="Forces that try to join the battle", default=(),
                          options=tuple(g.id for g in waiting(f)), rule="§7.5.2.11") for f in asking]
    for force, chosen in zip(asking, fight.port.decide_all(requests)):
        for group in waiting(force):
            if group.id in chosen:
                attempt(fight, force, group)


def attempt(fight: Fight, force: Force, group: ReinforcementGroup) -> None:
    """With a leader, his SR for the whole group; otherwise each corps its own, and cossacks,
    freikorps and guerrillas cannot come; SR −1 in rough terrain or across a river (§7.5.2.11.2–3)."""
    hindrance = 1 if group.hindered else 0
    where = f"reinforce/{group.id}/round{fight.round}"
    powers = [u.minor_of or u.power for u in group.units if u.category == "corps"]
    leader = choose_commander(list(group.leaders), powers)
    if leader is not None:
        die = fight.roll(f"day{fight.day}/{where}", "§7.5.2.11.2")
        arriving = list(group.units) if die <= leader.strategic - hindrance else []
    else:
        arriving = [u for u in group.units if u.category == "corps"
                    and fight.roll(f"day{fight.day}/{where}/{u.id}", "§7.5.2.11.2") <= u.strategic - hindrance]
    if not arriving:
        return
    force.joined_groups.add(group.id)
    for unit in arriving:
        force.troops.append(Troop.of(unit, "reinforcement"))
        force.joined.append(unit.id)
    if leader is not None:
        force.leaders.extend(group.leaders)
        current = force.commander
        if current is None or (leader.power == current.power
                               and SENIORITY.index(leader.seniority) < SENIORITY.index(current.seniority)):
            force.commander = leader  # §10.6.1.1.3
    fight.say(f"{force.name} reinforced by {', '.join(u.id for u in arriving)}", "§7.5.2.11.5")
