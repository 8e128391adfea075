"""Strategic movement of troops (§10.2).

A single troop crosses any number of areas that its power controls, or that hold its
own unbesieged troops, and may not end at sea. Legs by sea (a coastal area to an
adjacent sea, §10.2) and their interception (§10.2.1, §11.4.1) belong to the naval
rules: `_sea_leg` is the place they go; until then a sea in a path is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.orders import unknown_name
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop


class IllegalOrder(ValueError):
    """An order the rules forbid in the current state; the message says why."""


def resolve_area(scenario: Scenario, word: str) -> str:
    """An active area's id from what the player wrote, or a message with a suggestion."""
    area = scenario.find_area(word)
    if area is None:
        raise IllegalOrder(unknown_name("area", word, scenario.area_words))
    return area


def strategic_move(state: GameState, scenario: Scenario, troop: Troop, path: Sequence[str]) -> list[str]:
    """Move `troop` along `path` (§10.2); returns the areas crossed, start included.

    The path may repeat the troop's area as its first step or start from the next one.
    """
    if troop.area is None:
        raise IllegalOrder(f"{troop.id} is dispersed; regroup it first (§9.5)")
    steps = list(path)
    if steps and scenario.find_area(steps[0]) == troop.area:
        steps = steps[1:]
    if not steps:
        raise IllegalOrder("the path names no area to move to")
    here = troop.area
    route = [here]
    for word in steps:
        if word.startswith("@"):
            here = _sea_leg(scenario, here, word[1:])
        else:
            nxt = resolve_area(scenario, word)
            _land_leg(state, scenario, troop, here, nxt)
            here = nxt
        route.append(here)
    if here in scenario.seas:
        raise IllegalOrder("a troop cannot end a strategic move at sea (§10.2)")
    troop.area = here
    return route


def _land_leg(state: GameState, scenario: Scenario, troop: Troop, here: str, nxt: str) -> None:
    if nxt not in scenario.areas[here].adjacent:
        raise IllegalOrder(f"{nxt} is not adjacent to {here}")
    if state.areas[nxt].controller == troop.power:
        return
    if any(t.power == troop.power and t.id != troop.id for t in state.troops_in(nxt)):
        return
    controller = state.areas[nxt].controller or "nobody"
    raise IllegalOrder(f"{nxt} is controlled by {controller} and holds no {troop.power} troop: a strategic move "
                       f"crosses only controlled areas or areas with own troops (§10.2)")


def _sea_leg(scenario: Scenario, here: str, sea: str) -> str:
    """Land to sea, sea to sea, sea to land (§10.2): arrives with the naval rules
    (interception §10.2.1 needs fleets and wars)."""
    if sea.upper() not in scenario.seas:
        raise IllegalOrder(unknown_name("sea", sea, scenario.seas))
    raise IllegalOrder("strategic moves by sea are not adjudicated yet (they come with the naval rules, §10.2.1)")
