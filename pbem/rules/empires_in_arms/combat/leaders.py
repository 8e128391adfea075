"""Leader casualties (option 12.7), captured leaders, and the political points of a field
combat (§7.5.2.10.1.3)."""

from __future__ import annotations

from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force
from pbem.rules.empires_in_arms.combat.models import LeaderCasualty

PP_CAP = 3  # "up to a maximum of +3" (§7.5.2.10.1.3)
BIG_CORPS = 20  # "more than 20 factors … is treated as 2 corps"


def political_points(loser: Force) -> int:
    """Half a point per corps of the loser used in any round (a corps of more than 20
    factors counts as two), fractions up, at most 3 (§7.5.2.10.1.3)."""
    halves = sum(2 if t.start > BIG_CORPS else 1 for t in loser.troops if t.id in loser.used)
    return min(PP_CAP, -(-halves // 2))


def award(victor: Force, loser: Force) -> tuple[int, int]:
    """(victor's gain, loser's loss): NAPOLEON commanding the victor +1, the loser −2 more,
    both after the cap (§7.5.2.10.1.3.1–2; EIA-I70, research §4.12 item 9)."""
    points = political_points(loser)
    gain = points + (1 if victor.commander is not None and victor.commander.napoleon else 0)
    loss = points + (2 if loser.commander is not None and loser.commander.napoleon else 0)
    return gain, loss


def capture_all(force: Force) -> None:
    force.captured.extend(leader.id for leader in force.leaders if leader.id not in force.captured)


def casualties(fight: Fight, force: Force) -> tuple[LeaderCasualty, ...]:
    """Option 12.7: a side with leaders rolls two dice; on 12 a leader drawn at random (by
    id order) is killed on a 6, else wounded for as many months as the die shows."""
    present = sorted((leader for leader in force.leaders if leader.id not in force.captured), key=lambda l: l.id)
    if not present:
        return ()
    dice = fight.roll(f"{force.name}/leader-casualty/1", "§12.7") + fight.roll(f"{force.name}/leader-casualty/2",
                                                                               "§12.7")
    if dice != 12:
        return ()
    leader = present[fight.port.draw_index(f"{fight.battle.id}/{force.name}/leader-casualty/who", len(present),
                                           rule="§12.7")]
    die = fight.roll(f"{force.name}/leader-casualty/fate", "§12.7")
    fight.say(f"{leader.id} is {'killed' if die == 6 else f'wounded for {die} months'}", "§12.7")
    return (LeaderCasualty(leader=leader.id, killed=die == 6, months=0 if die == 6 else die),)
