"""Alliance by conquest (§20.3.3): a power that takes the last area of a minor allied to its enemy
becomes the minor's ally. Called when control changes hands (`control.take_control`); the
alliances made by card, event or peace are in `minors.py`."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.fortresses import alliance_over
from pbem.rules.ratio_regis.leaders import remove_unit_leader
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import Fortress, GameState, Squadron, Troop
from pbem.rules.ratio_regis.war import give_morale


def conquest(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, area: str) -> list[str]:
    """§20.3.3: a power that completely occupies a minor allied to a power it is at war with
    becomes its ally at once; the minor's units go to the eliminated box, and when the minor has
    no key area the loser gives the winner a morale counter (a key area's morale was given when it
    was taken, §21.3.5). A minor occupied by several enemies stays with its ally. Returns what it
    said (nothing when the area completes no conquest)."""
    code = scenario.areas[area].minor
    if code is None or code not in state.minors:
        return []
    status = state.minors[code]
    loser = status.ally
    areas = scenario.minor_areas(code)
    if loser is None or loser == power or not state.at_war(power, loser) \
            or any(state.areas[a].controller != power for a in areas):
        return []
    for unit in [*state.troops, *state.squadrons, *state.fortresses]:
        if unit.minor == code:
            _eliminate(state, unit)
    for counter, count in sorted(status.pool.items()):  # those on its card too: "all the minor power's units"
        status.eliminated[counter] = status.eliminated.get(counter, 0) + count
    for quality, count in sorted(status.squadron_pool.items()):
        status.eliminated[f"Q{quality}"] = status.eliminated.get(f"Q{quality}", 0) + count
    status.pool = {counter: 0 for counter in status.pool}
    status.squadron_pool = {quality: 0 for quality in status.squadron_pool}
    status.ally, status.neutral_in = power, []
    minor = scenario.minors[code]
    text = f"{power} occupies all of {minor.name}, allied to its enemy {loser}: {minor.name} is now allied to {power} " \
           f"and its units are eliminated (§20.3.3)"
    judge.say(text, rule="§20.3.3")
    texts = [text]
    texts += alliance_over(judge, state, loser, areas)
    if not any(scenario.areas[a].key for a in areas):
        texts.append(give_morale(state, judge, loser, power, f"{minor.name}, without a key area, conquered",
                                 "§20.3.3"))
    return texts


def _eliminate(state: GameState, unit: Troop | Squadron | Fortress) -> None:
    """To the minor's eliminated box until turn end (§13.1.7, §20.3.2: not taken by the next
    alliance); a fortress is simply gone (rebuilt with the next alliance)."""
    remove_unit_leader(state, unit.id)
    status = state.minors[unit.minor]
    if isinstance(unit, Troop):
        state.troops.remove(unit)
        status.eliminated[unit.counter] = status.eliminated.get(unit.counter, 0) + 1
    elif isinstance(unit, Squadron):
        state.squadrons.remove(unit)
        status.eliminated[f"Q{unit.quality}"] = status.eliminated.get(f"Q{unit.quality}", 0) + 1
    else:
        state.fortresses.remove(unit)
