"""Border areas (§18.5): the areas joined to an area of another theater of operations.

"Troops dispersed in these areas can be placed in the dispersed boxes of either of the two
theaters of operations": the owner chooses (`box`: `BOX <box>`), by default the box of the
area's own theater (RR-I287). "Minor powers … cannot disperse outside the theaters where they
normally operate": an allied minor's troop goes only to a box of its minor's theater (a
mercenary's anywhere, §20.6). Interest (§18.4.1, RR-I27) and the return of border areas at peace
(RR-I166) are read where they apply (`scenario.interested`, `negotiation`).
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.reactions import ask
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop


def dispersal_boxes(state: GameState, scenario: Scenario, troop: Troop, area: str) -> list[str]:
    """The boxes a troop dispersed in `area` may go to: its own theater's first, then those of
    the bordering theaters' areas in play, in adjacency order (§18.5); a minor's only in its
    theater."""
    card = scenario.areas[area]
    boxes = [scenario.box_of(area)] + [scenario.box_of(other) for other in card.adjacent
                                       if other in scenario.areas and state.exists(other)
                                       and scenario.areas[other].theater != card.theater]
    if troop.minor and not scenario.minors[troop.minor].mercenary:
        theater = scenario.minors[troop.minor].theater
        boxes = [box for box in boxes if scenario.boxes[box][0] == theater]
    return list(dict.fromkeys(boxes)) or [scenario.box_of(area)]


def dispersal_box(state: GameState, scenario: Scenario, judge: DecisionPort, troop: Troop) -> str:
    """§18.5: where the troop dispersed from its area goes; asked only when there is a choice."""
    boxes = dispersal_boxes(state, scenario, troop, troop.area)
    player = state.powers[troop.power].player
    if len(boxes) < 2 or player is None:
        return boxes[0]
    options = [f"BOX {box}" for box in boxes]
    answer = ask(judge, player, troop.power, "box", options=options, default=options[0],
                 context={"troop": troop.id, "area": troop.area},
                 prompt=f"{troop.id} disperses in the border area {troop.area}: choose the dispersion box it goes to "
                        f"({', '.join(boxes)}); default {boxes[0]}, its own theater's",
                 rule="§18.5")
    return answer.place
