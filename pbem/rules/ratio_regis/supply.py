"""Supply (§15.2, §28.8): sieges and subjugations need it."""

from __future__ import annotations

from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def enemy_fleet_at(state: GameState, power: str, sea: str) -> bool:
    return any(s.sea == sea and state.at_war(power, s.power) for s in state.squadrons)


def supplied(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    """§15.2: the area is adjacent to one the power or an ally (§21.2.1) controls; or adjacent to an area
    holding its unbesieged troops, with no enemy fortress in `area` (RR-I28 reads
    "supplied troop" without recursion); or a port on a sea free of fleets of powers at
    war with it. Under v2.1 a dotted connection joins no area for supply (RR-I283)."""
    card = scenario.areas[area]
    linked = [other for other in card.adjacent
              if not (state.options.variant == "v2.1" and scenario.dotted(area, other))]
    for other in linked:
        if state.areas[other].controller in (power, *state.allies(power)) and not state.areas[other].rebellion:
            return True
    enemy_fort = state.fortress_in(area)
    if enemy_fort is None or enemy_fort.power == power or not enemy_fort.built:
        if any(t.power == power and not t.besieged for other in linked for t in state.troops_in(other)):
            return True
    return any(not enemy_fleet_at(state, power, sea) for sea in card.seas)
