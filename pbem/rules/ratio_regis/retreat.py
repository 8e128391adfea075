"""Where a beaten army goes (§12.4.2, §13.3.6; examples §28.4, §30.3, §32.1).

The defender that loses a field battle retreats to one or several adjacent areas it
controls that are free of enemies (not in revolt) or hold its unbesieged troops — never
the area the attacker came from — or into its own fortress there, becoming besieged. With
nowhere to go the whole army disperses, troops that did not fight included. The owner
chooses, by a `retreat` decision asked once per group of troops (RR-I60).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles
from pbem.rules.ratio_regis.actions import stacking_limit
from pbem.rules.ratio_regis.orders import parse_line
from pbem.rules.ratio_regis.reactions import ask
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop


def retreat_areas(state: GameState, scenario: Scenario, power: str, area: str, attacker_from: str | None) -> list[str]:
    """§12.4.2, §13.3.6: adjacent areas controlled by `power` and free of enemies (not in
    revolt), or holding its unbesieged troops — never the area the attack came from."""
    found = []
    for other in scenario.areas[area].adjacent:
        if other == attacker_from or not state.exists(other):
            continue
        status = state.areas[other]
        present = state.troops_in(other)
        own = any(t.power == power and not t.besieged for t in present)
        enemies = any(t.power != power and state.at_war(power, t.power) for t in present)
        if own or (status.controller == power and not status.rebellion and not enemies):
            found.append(other)
    return found


def fortress_room(state: GameState, scenario: Scenario, power: str, area: str) -> int:
    """How many more troops of `power` fit in its built fortress in `area` (§15.1.1: a
    besieged fortress counts for stacking); 0 without one."""
    fortress = state.fortress_in(area)
    if fortress is None or not fortress.built or fortress.power != power:
        return 0
    inside = [t for t in state.troops_in(area) if t.power == power and t.besieged]
    used = len(inside) + 1
    return max(0, stacking_limit(state, scenario, area, power) - used)


def retreat(state: GameState, scenario: Scenario, judge: DecisionPort, troops: Sequence[Troop], area: str,
            attacker_from: str | None, *, why: str) -> list[str]:
    """§13.3.6: the beaten defender's `troops` in `area` leave it; returns chronicle lines.

    RR-I60: the owner answers `RETREAT TO <area>`, `RETREAT INTO FORT` or, with nowhere
    to go, nothing (the army disperses). `UNITS` sends part of the army; the rest is asked
    again. Default: into the fortress while there is room, else the first area allowed in
    the scenario's adjacency order (RR-I20). A single possibility is not asked (RR-C1)."""
    texts: list[str] = []
    remaining = [t for t in troops if t.area == area and not t.besieged]
    while remaining:
        power = remaining[0].power
        group = [t for t in remaining if t.power == power]
        room = fortress_room(state, scenario, power, area)
        options = (["RETREAT INTO FORT"] if room else []) + \
            [f"RETREAT TO {a}" for a in retreat_areas(state, scenario, power, area, attacker_from)]
        player = state.powers[power].player
        if not options:
            for troop in group:
                battles.disperse(state, scenario, judge, troop.id)
            texts.append(f"{power}'s army in {area} has nowhere to retreat and disperses: "
                         f"{', '.join(t.id for t in group)} (§13.3.6)")
        else:
            default = options[0]
            answer = ask(judge, player, power, "retreat", options=options, default=default,
                         context={"area": area, "from": attacker_from or "", "battle": why,
                                  "troops": len(group), "fortress_room": room},
                         prompt=f"{why}: your troops in {area} ({', '.join(t.id for t in group)}) must retreat",
                         rule="§13.3.6", eligible=[t.id for t in group]) \
                if player and len(options) > 1 else parse_line(default)
            movers = [t for t in group if not answer.units or t.id in answer.units]
            place = None if answer.means == "FORT" else answer.place
            if place is None:
                movers = movers[:room]
            for troop in movers:
                if place is None:
                    troop.besieged = True
                else:
                    troop.area = place
            where = "into the fortress" if place is None else f"to {place}"
            texts.append(f"{power} retreats {', '.join(t.id for t in movers)} from {area} {where} (§13.3.6)")
        judge.say(texts[-1], rule="§13.3.6")
        remaining = [t for t in troops if t.area == area and not t.besieged]
    return texts

