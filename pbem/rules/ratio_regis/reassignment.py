"""§14.3: leaders left without their unit — a fortress eliminated, or an army made entirely
of allies whose troops leave the power's service — go to another unit of their power, as its
owner chooses (the `reassign` decision, RR-I76, RR-I286). Used by the repatriations of §14, the
expeditionary corps going home (§21.2.2) and the minors' units leaving the map (§20.4)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.reactions import ask
from pbem.rules.ratio_regis.state import GameState, Leader, Troop


def leaders_left(state: GameState, judge: DecisionPort, troops: Sequence[str], why: str,
                 going: Sequence[str] = ()) -> list[str]:
    """§14.3: "the same also applies to leaders who were commanding armies entirely of allies, and
    that were left without troops because they were no longer allies". A leader on one of
    `troops`, which leave its power's service, moves to a troop of its power beside it (its army
    was not all allies); with none it is reassigned like a fortress's leader (`reassign`, RR-I76,
    RR-I286), never onto `troops` or the other units `going` with them. Returns the chronicle
    lines."""
    texts = []
    leaving = [*troops, *going]
    for leader in [lead for lead in state.leaders if lead.unit in troops]:
        troop = state.troop(leader.unit)
        fellow = _fellow(state, leader, troop, leaving)
        if fellow is not None:
            leader.unit = fellow.id
            texts.append(f"{leader.power}'s leader {leader.id} leaves {troop.id} for {fellow.id}, which it still "
                         f"commands in {troop.area} (§14.3)")
        else:
            texts.append(reassign(state, judge, leader, why, lost=f"{troop.id} leaves {leader.power}'s service and "
                                                                  f"your leader {leader.id} commands no troop",
                                   left=f"the allied troop {troop.id}", excluded=leaving))
        judge.say(texts[-1], rule="§14.3")
    return texts


def _fellow(state: GameState, leader: Leader, troop: Troop, leaving: Sequence[str]) -> Troop | None:
    """The first troop of the leader's power in the troop's area, not leaving, besieged only if
    the troop was, carrying no leader (RR-I286)."""
    carrying = {lead.unit for lead in state.leaders}
    return next((t for t in state.troops if t.area is not None and t.area == troop.area and t.power == leader.power
                 and t.id not in leaving and t.id not in carrying and t.besieged == troop.besieged), None)


def reassign_hosts(state: GameState, power: str, excluded: Sequence[str] = ()) -> list[str]:
    """RR-I76: the units a displaced leader may go to (§14.3 "any other troop, squadron or
    own fortress that is not besieged"): the power's troops on the map not besieged, its
    squadrons, its built fortresses not under siege — each without a leader already, and none
    of `excluded` (units leaving it) — in that order, each in id order."""
    carrying = {lead.unit for lead in state.leaders} | set(excluded)
    troops = [t.id for t in state.troops if t.power == power and t.area is not None and not t.besieged]
    squadrons = [s.id for s in state.squadrons if s.power == power]
    forts = [f.id for f in state.fortresses if f.power == power and f.built and state.areas[f.area].besieger is None]
    return [unit for unit in troops + squadrons + forts if unit not in carrying]


def reassign(state: GameState, judge: DecisionPort, leader: Leader, why: str, *, lost: str, left: str,
              excluded: Sequence[str] = ()) -> str:
    """§14.3: the owner chooses the leader's new unit (`reassign`: ATTACH <leader> TO <unit>);
    default the first of `reassign_hosts`. A single possibility is not asked; with none the
    leader goes back to the pool (RR-I76). `lost` says to the owner why, `left` names the unit
    it leaves."""
    hosts = reassign_hosts(state, leader.power, excluded)
    if not hosts:
        state.leaders.remove(leader)
        state.leader_pool.append(leader.id)
        return (f"{leader.power}'s leader {leader.id} has no unit left to go to and returns to the leader pool "
                f"(§14.3, RR-I76)")
    options = [f"ATTACH {leader.id} TO {unit}" for unit in hosts]
    player = state.powers[leader.power].player
    if player is None or len(options) == 1:
        host = hosts[0]
    else:
        answer = ask(judge, player, leader.power, "reassign", options=options, default=options[0],
                     context={"leader": leader.id, "subject": leader.id, "unit": leader.unit, "why": why,
                              "why_not": {"*": f"{leader.id} goes to a troop, squadron or built fortress of "
                                               f"{leader.power}'s, not besieged and carrying no leader (§14.3)"}},
                     prompt=f"{why}: {lost} (§14.3): choose the unit it goes to; default {options[0]}",
                     rule="§14.3")
        host = answer.place
    leader.unit = host
    return f"{leader.power}'s leader {leader.id} leaves {left} for {host} (§14.3)"
