"""§8.1.2: a power whose card changes. "If the military forces on the map of that major
power do not coincide with those available, the same types of units can be substituted,
provided they are worse (for example, you can degrade I3 units to I2 units). If this is not
possible, the units are eliminated."
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.leaders import remove_unit_leader
from pbem.rules.ratio_regis.scenario import COUNTER_TYPES, PowerCardChange, Scenario
from pbem.rules.ratio_regis.state import GameState, regular_quality


def change_cards(ctx: DecisionPort, state: GameState) -> None:
    """The powers whose card changes this turn take its forces (§8.1.2)."""
    scenario: Scenario = ctx.scenario
    for code in scenario.power_order:
        change = next((c for c in scenario.powers[code].cards if c.turn == state.turn), None)
        if change is not None:
            for text in take_card(state, code, change):
                ctx.say(text, rule="§8.1.2")


def take_card(state: GameState, power: str, card: PowerCardChange) -> list[str]:
    """RR-I207: the units that match a counter or quality of the new card keep it, the oldest
    (lowest id) first; of the rest, 3-4 troops are degraded to 2-3 and Q3 squadrons to Q2
    while the card has those left, and the others are eliminated. Veterans stay veterans. The
    pools become what the new card has less what is on the map."""
    texts = [f"{power} takes a new power card: troops {card.troops}, squadrons {card.squadrons}"]
    left = {counter: card.troops.get(counter, 0) for counter in COUNTER_TYPES}
    for troop in _unmatched([t for t in state.troops if t.power == power], left, lambda t: t.counter):
        if troop.counter == COUNTER_TYPES[1] and left[COUNTER_TYPES[0]] > 0:
            left[COUNTER_TYPES[0]] -= 1
            veteran = troop.veteran
            troop.counter = COUNTER_TYPES[0]
            troop.quality = regular_quality(troop.counter) + veteran
            texts.append(f"{troop.id} degraded to {troop.counter}")
        else:
            state.troops.remove(troop)
            texts.append(f"{troop.id} eliminated: the new card has no counter for it"
                         + "".join(f" ({t})" for t in remove_unit_leader(state, troop.id)))
    fleet = {quality: card.squadrons.get(quality, 0) for quality in ("2", "3")}
    for squadron in _unmatched([s for s in state.squadrons if s.power == power], fleet, lambda s: str(s.quality)):
        if squadron.quality == 3 and fleet["2"] > 0:
            fleet["2"] -= 1
            squadron.quality = 2
            texts.append(f"{squadron.id} degraded to Q2")
        else:
            state.squadrons.remove(squadron)
            texts.append(f"{squadron.id} eliminated: the new card has no squadron for it"
                         + "".join(f" ({t})" for t in remove_unit_leader(state, squadron.id)))
    state.powers[power].pool = left
    state.powers[power].squadron_pool = fleet
    return texts


def _unmatched(units: list, left: dict[str, int], kind: Callable[[Any], str]) -> list:
    """The units, oldest first, for which `left` has no slot of their kind; the slots the
    others take are counted off `left`."""
    rest = []
    for unit in sorted(units, key=lambda u: int(u.id[1:])):
        if left.get(kind(unit), 0) > 0:
            left[kind(unit)] -= 1
        else:
            rest.append(unit)
    return rest
