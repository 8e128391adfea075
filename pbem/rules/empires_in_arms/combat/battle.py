"""A land combat from its first day to its end (§7.5.2 Steps 1–13): the days, the end of a
day, and the result. `field_combat`, `trivial_combat` and the siege combats run this with
their own `Procedure`."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.combat import chits, morale
from pbem.rules.empires_in_arms.combat.charts import Charts
from pbem.rules.empires_in_arms.combat.commander import choose_commander
from pbem.rules.empires_in_arms.combat.context import Fight
from pbem.rules.empires_in_arms.combat.forces import Force
from pbem.rules.empires_in_arms.combat.leaders import award, capture_all, casualties
from pbem.rules.empires_in_arms.combat.models import Battle, BattleResult, DayRecord, SideResult, show_tenths
from pbem.rules.empires_in_arms.combat.outflank import arrive, rejoin
from pbem.rules.empires_in_arms.combat.pursuit import pursue
from pbem.rules.empires_in_arms.combat.reinforcement import attempt_all
from pbem.rules.empires_in_arms.combat.rounds import Procedure, fight_round, pinning_gone
from pbem.rules.empires_in_arms.combat.withdrawal import resolve_withdrawal

ROUNDS = 3  # a combat "day" (§7.5.2.7)


@dataclass
class Outcome:
    ended: str
    winner: str | None = None
    retreat: dict[str, str] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)


def run(port: DecisionPort, battle: Battle, charts: Charts, proc: Procedure) -> BattleResult:
    """§7.5.2: each side's commander chosen (§7.5.2.9.1, §10.6.1.1), then the combat fought day
    by day (§7.5.2.13) until one side wins, withdraws or the days run out."""
    fight = Fight(battle, charts, port, Force.of("attacker", battle.attacker), Force.of("defender", battle.defender))
    for force in fight.forces():
        force.commander = choose_commander(force.leaders, [t.unit.minor_of or t.unit.power for t in force.corps()],
                                           force.side.preferred)
        if len(force.leaders) > 1 and force.commander is not None:
            fight.say(f"{force.name}'s commander: {force.commander.id}, of "
                      f"{', '.join(lead.id for lead in force.leaders)}", "§10.6.1.1")
    days: list[DayRecord] = []
    base: dict[str, int] = {}
    limits = [d for d in (proc.max_days, battle.max_days) if d]
    last_day = min(limits) if limits else None
    while True:
        outcome = one_day(fight, proc, base)
        days.append(DayRecord(day=fight.day, attacker_chit=fight.attacker.chit, defender_chit=fight.defender.chit,
                              rounds=fight.round))
        if outcome is None:
            outcome = Outcome("undecided") if last_day == fight.day else day_end(fight, proc)
        if outcome is not None:
            return result(fight, proc, outcome, days)
        fight.day += 1
        rejoin(fight)


def one_day(fight: Fight, proc: Procedure, base: dict[str, int]) -> Outcome | None:
    """One day of combat (§7.5.2 Steps 1–9): the chits and an outflank (Steps 1–4), the
    defender's withdrawal (Step 5), the day's final morale (Step 6), then the rounds until a
    side breaks; None when the day ends undecided."""
    fight.round = 0
    if proc.chits:
        chits.choose_chits(fight)
        flanker = chits.outflanker(fight)
        if flanker is not None:
            chits.split(fight, flanker)
        if fight.defender.chit == "withdraw" and resolve_withdrawal(fight):
            return Outcome("withdrawal", retreat={"defender": "by_owner"})
    note = chits.operation(fight) if proc.chits else None
    for force in fight.forces():
        if fight.day == 1:
            base[force.name] = morale.base_morale(force.present(), fight.battle.options.morale_method, fight.charts)
        modifier = 0 if note is None else (note.attacker_morale if force is fight.attacker else note.defender_morale)
        force.final_morale = morale.final_morale(base[force.name], fight.day, modifier)
        force.morale_loss = 0
        force.guard_committed_today = False
    fight.say(f"day {fight.day}: final morale attacker {show_tenths(fight.attacker.final_morale)}, defender "
              f"{show_tenths(fight.defender.final_morale)}", "§7.5.2.6")
    for number in range(1, ROUNDS + 1):
        fight.round = number
        if fight_round(fight, proc):
            return decided(fight, proc)
        if number < ROUNDS:
            if proc.reinforcements:
                attempt_all(fight)
            if proc.chits and arrive(fight):
                return Outcome("withdrawal", retreat={"defender": "by_owner"})
    return None


def decided(fight: Fight, proc: Procedure) -> Outcome:
    """Step 10 (§7.5.2.10): who won, who is pursued and who retreats."""
    a, d = fight.attacker, fight.defender
    gone = {f.name: not f.present() or pinning_gone(f) for f in fight.forces()}
    down = {f.name: f.broken or gone[f.name] for f in fight.forces()}
    if down["attacker"] and down["defender"]:
        if gone["attacker"] and gone["defender"]:
            return Outcome("eliminated")
        if gone["attacker"] or gone["defender"]:
            winner = d if gone["attacker"] else a  # §7.5.2.10.4.1: the broken side wins, stays
            return won(fight, proc, winner, fight.enemy(winner), "eliminated")
        return Outcome("both_broken", retreat={"attacker": "by_owner"})  # §7.5.2.10.4.2
    loser = a if down["attacker"] else d
    return won(fight, proc, fight.enemy(loser), loser, "eliminated" if gone[loser.name] else "broken")


def won(fight: Fight, proc: Procedure, victor: Force, loser: Force, ended: str) -> Outcome:
    """A side has broken (§7.5.2.10): pursuit (§7.5.2.10.2), surrender where the procedure
    says so (sieges, §7.5.4), the leaders of a force wholly gone captured (§7.5.2.10.2.3,
    EIA-I78), and the political points of victory (§7.5.2.10.1.3)."""
    if proc.pursuit:
        pursuers = [t for t in victor.present() if t.id not in proc.not_pursuing]
        pursue(fight, victor, loser, rounds=fight.round, pursuers=pursuers)
    if loser.name in proc.surrender_on_loss:
        surrender(loser)
    if not loser.present():
        capture_all(loser)
    outcome = Outcome(ended, victor.name, retreat={loser.name: "by_victor"} if loser.present() else {})
    if proc.political:
        gain, loss = award(victor, loser)
        outcome.points = {victor.name: gain, loser.name: -loss}
    return outcome


def surrender(force: Force) -> None:
    """All its factors and leaders become prisoners (§7.5.2.10.3.6)."""
    for troop in force.present():
        troop.gone = True
        force.surrendered.append(troop.id)


def day_end(fight: Fight, proc: Procedure) -> Outcome | None:
    """Step 13 (§7.5.2.13): both sides write FIGHT or WITHDRAW, revealed together."""
    requests = [fight.ask(f, kind="day_end", prompt=f"End of day {fight.day}: fight on or withdraw?", default="fight",
                          options=("fight", "withdraw"), rule="§7.5.2.13") for f in fight.forces()]
    choices = dict(zip(("attacker", "defender"), fight.port.decide_all(requests)))
    leaving = [f for f in fight.forces() if choices[f.name] == "withdraw"]
    if not leaving:
        return None
    if len(leaving) == 1 and proc.pursuit:
        pursue(fight, fight.enemy(leaving[0]), leaving[0], rounds=ROUNDS, fixed_class=1)  # §7.5.2.10.2.1
    return Outcome("day_end", retreat={f.name: "by_owner" for f in leaving if f.present()})


def result(fight: Fight, proc: Procedure, outcome: Outcome, days: list[DayRecord]) -> BattleResult:
    """The combat's result for the map: each side's losses, retreat and surrendered garrisons
    (§7.5.2.10.3, §7.5.5), with the days fought."""
    sides = {}
    for force in fight.forces():
        retreat = outcome.retreat.get(force.name, "none")
        surrendered = [t.id for t in force.present() if t.unit.category == "garrison"] if retreat != "none" else []
        if surrendered and len(surrendered) == len(force.present()):
            retreat = "none"  # nothing left to move
        stayed = [t for t in force.troops if t.id not in force.withdrew and t.id not in force.surrendered]
        fought = any(day.rounds for day in days)
        hurt = casualties(fight, force) if fought and proc.optional_rules and fight.battle.options.leader_casualties \
            else ()
        sides[force.name] = SideResult(
            final_morale=show_tenths(force.final_morale), morale_loss=show_tenths(force.total_morale_loss),
            losses={t.id: t.losses() for t in force.troops if any(t.lost.values())},
            pursuit_losses=force.pursuit_losses, broken=force.broken,
            eliminated=bool(stayed) and all(t.total == 0 for t in stayed),
            withdrew=tuple(force.withdrew), retreat=retreat, surrendered=tuple(surrendered + force.surrendered),
            leaders_captured=tuple(force.captured), leader_casualties=hurt, joined=tuple(force.joined),
            political_points=outcome.points.get(force.name, 0))
    return BattleResult(battle=fight.battle.id, kind=proc.kind, winner=outcome.winner, ended=outcome.ended,
                        days=tuple(days), attacker=sides["attacker"], defender=sides["defender"])
