"""Overstacking when an action ends (§15.1.1; example §30.5).

"When a player finishes an action, overstacked troops must be dispersed." The acting
power's own moves are refused rather than dispersed (RR-I5); what the action did to the
others — an evasion or a retreat into a full area, an interception — is dispersed here,
each owner choosing which troops go (RR-I65).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles
from pbem.rules.ratio_regis.actions import most_counted, stack_count, stack_sizes, stacking_limit
from pbem.rules.ratio_regis.reactions import choice_request, chosen_units
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop


def overstacked(state: GameState, scenario: Scenario) -> list[tuple[str, str, int]]:
    """(area, power, excess) for every power over an area's limit, in the scenario's
    area order, powers by code (§15.1.1: besiegers and besieged are counted apart)."""
    printed = scenario.areas  # the limits before an Organizer's +1
    crowded = {area for area, ceiling in most_counted(state).items()
               if area in printed and ceiling > printed[area].stacking}
    if not crowded:
        return []
    over = [(area, power, count) for (area, power), count in stack_sizes(state, crowded).items()
            if count > printed[area].stacking]
    order = {area: index for index, area in enumerate(printed)}
    found = []
    for area, power, count in sorted(over, key=lambda entry: (order[entry[0]], entry[1])):
        excess = count - stacking_limit(state, scenario, area, power)
        if excess > 0:
            found.append((area, power, excess))
    return found


def lowest_first(state: GameState, troops: list[Troop]) -> list[Troop]:
    """RR-I65's default order of dispersal: lowest quality first, troops without a leader
    before those carrying one, then the latest built (highest number) first."""
    carried = {lead.unit for lead in state.leaders}
    return sorted(troops, key=lambda t: (t.quality, t.id in carried, -_number(t.id)))


def _number(unit: str) -> int:
    digits = "".join(c for c in unit if c.isdigit())
    return int(digits) if digits else 0


def disperse_excess(state: GameState, scenario: Scenario, judge: DecisionPort) -> list[str]:
    """§15.1.1: at the end of an action every power over an area's stacking limit disperses
    the excess to the theater's box (§18.1); the owner chooses which troops by a
    `stacking` decision (`DISPERSE T5` or `DISPERSE AUTO`), default RR-I65's order.
    Free troops are chosen before besieged ones. Returns chronicle lines."""
    texts = []
    for area, power, excess in overstacked(state, scenario):
        present = [t for t in state.troops_in(area) if t.power == power]
        eligible = [t for t in present if not t.besieged] or present
        default = [t.id for t in lowest_first(state, eligible)][:excess]
        player = state.powers[power].player
        if player is None:
            going = default
        else:
            request = choice_request(
                judge, player, power, "stacking", eligible=[t.id for t in eligible], count=excess, default=default,
                context={"area": area, "limit": stacking_limit(state, scenario, area, power)},
                prompt=f"{area} holds {stack_count(state, area, power)} of your troops, over its stacking limit of "
                       f"{stacking_limit(state, scenario, area, power)}: choose {excess} to disperse",
                rule="§15.1.1")
            going = chosen_units(judge.decide(request))
        for unit in going:
            battles.disperse(state, scenario, judge, unit)
        texts.append(f"{power} is over the stacking limit in {area}: {', '.join(going)} dispersed (§15.1.1)")
        judge.say(texts[-1], rule="§15.1.1")
    return texts
