"""Changes of control (§12.5, §13.3.7, §13.4.5, §13.5.6, §18.2.2) and their
consequences: morale for a key area (§21.3.5), a razed commercial port (§19.2.4, §30.4),
a fortress under construction destroyed (§9.4), squadrons in the port rebased (§11.6) and
squadrons at sea left without a base (§11.1.1, §14.2), a casus belli for a third power
(§13.3.7). `place_control` is the control marker an event places (§31.1, RR-I69)."""

from __future__ import annotations


from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.commerce import commercial_port
from pbem.rules.ratio_regis.conquest import conquest
from pbem.rules.ratio_regis.naval import rebase_stranded, send_to_base
from pbem.rules.ratio_regis.objectives import counts_as_key
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState
from pbem.rules.ratio_regis.war import add_cb, give_morale


def take_control(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, area: str, how: str) -> str:
    """`power` takes control of `area`; returns the chronicle line (also said)."""
    status = state.areas[area]
    loser = status.controller
    notes = []
    if status.independent:
        notes.append(f"the independent area becomes a possession of {power} (§18.2.2)")
        status.independent = None
        status.possessor = power
    if status.rebellion:
        notes.append(f"the rebellion {status.rebellion} is put down (§13.5.6)")
        status.rebellion = None
    status.controller = power
    if commercial_port(state, scenario, area) and not status.razed:
        status.razed = True
        notes.append("its commercial port is razed (§19.2.4)")
    notes += _what_control_undoes(state, scenario, judge, power, area)
    text = f"{power} takes control of {area} ({how})" + ("; " + "; ".join(notes) if notes else "")
    judge.say(text, rule="§12.5, §13.3.7")
    if loser and loser != power:
        rebase_stranded(state, scenario, judge, loser)  # §11.1.1: its squadrons at sea may have lost their base
        if state.at_war(power, loser):
            if counts_as_key(scenario, area, loser, power):
                give_morale(state, judge, loser, power, f"key area {area} lost", "§21.3.5")
            conquest(state, scenario, judge, power, area)
        # §21.3.2: a third power's area taken, even from an enemy that had taken it (add_cb: not if at war)
        if status.possessor and status.possessor != power and add_cb(state, status.possessor, power):
            judge.say(f"{status.possessor} gains a casus belli against {power} (§13.3.7)", rule="§21.3.2")
    return text


def _what_control_undoes(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, area: str) -> list[str]:
    """What any change of control to `power` undoes in `area`: another power's fortress
    under construction is destroyed (§9.4), and the other powers' squadrons in the port go
    to their nearest base at once, operational or under repair as they were (§11.6)."""
    notes = []
    fortress = state.fortress_in(area)
    if fortress is not None and not fortress.built and fortress.power != power:
        state.fortresses.remove(fortress)
        notes.append(f"the fortress under construction {fortress.id} is destroyed (§9.4)")
    return notes + [send_to_base(state, scenario, judge, squadron, damaged=False) + " (§11.6)"
                    for squadron in [s for s in state.squadrons if s.port == area and s.power != power]]


def place_control(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, area: str, how: str) -> str:
    """An event's control marker (§8.2.2, §31.1: "control markers are placed in the three areas
    of Flanders"): `power` controls `area`. RR-I69: only what follows from control itself —
    a fortress under construction of another power is destroyed (§9.4), squadrons in the
    port and at sea left without a base go to their nearest base (§11.6, §11.1.1). No
    combat took the area, so no port is razed (§19.2.4 "due to a combat"), no morale moves
    (§21.3.5 "at the hands of an enemy": the card says what morale it moves) and no casus
    belli arises (§13.3.7); rebellions and independence are left as they are. Troops of other
    powers stay unless the event repatriates them (§14). Returns the chronicle line (also
    said, before the moves of the squadrons stranded at sea)."""
    status = state.areas[area]
    loser = status.controller
    if loser == power:
        text = f"{power} already controls {area} ({how})"
        judge.say(text, rule="§8.2.2")
        return text
    status.controller = power
    notes = _what_control_undoes(state, scenario, judge, power, area)
    text = f"{power} controls {area} ({how})" + ("; " + "; ".join(notes) if notes else "")
    judge.say(text, rule="§8.2.2")
    if loser is not None:
        rebase_stranded(state, scenario, judge, loser)
    return text
