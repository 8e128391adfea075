"""Corps counters leaving the map when their last factor is lost (§7.4.1.3.2, §7.5.5)."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.state import Corps, GameState


def remove_corps(ctx: DecisionPort, state: GameState, corps: Corps, cause: str, rule: str) -> None:
    """A corps that lost every factor leaves the map; its leaders join another corps of
    their power in the area (EIA-I7) or, when none is left, leave the map (§5.3) — unless it
    was inside a city, where they stay (§7.3.3.4, EIA-I222)."""
    state.corps.remove(corps)
    state.powers[corps.power].corps_lost += 1  # for the scenario's victory conditions (EIA-I203)
    ctx.say(f"{corps.power} {corps.id} is eliminated {cause}", rule=rule)
    other = successor(state, corps)
    for leader in state.leaders:
        if leader.corps == corps.id:
            leader.corps = other.id if other else None
            if other is None and corps.inside:
                leader.city = corps.area
                ctx.say(f"{leader.id} stays in the city of {corps.area} without a corps", rule="§7.3.3.4")
                continue
            ctx.say(f"{leader.id} " + (f"joins {other.id}" if other else "leaves the map until a later Army "
                                                                         "Reinforcement Step"), rule="§7.4.1.3.3")


def remove_emptied(state: GameState, corps: Corps, heir: Corps | None) -> None:
    """§5.2.3: a corps whose factors all left is removed; its leaders go with the corps that
    took them, or leave the map (§5.3)."""
    if corps.strength:
        return
    state.corps.remove(corps)
    for leader in state.leaders:
        if leader.corps == corps.id:
            leader.corps = heir.id if heir else None


def successor(state: GameState, corps: Corps) -> Corps | None:
    """The corps that takes in the leaders of `corps`, once it is off the map: another corps of
    its power in the area (EIA-I7), inside the city when it was, where a leader stays
    (§7.3.3.4)."""
    return next((c for c in state.corps_in(corps.area) if c.power == corps.power and c.inside == corps.inside),
                None)
