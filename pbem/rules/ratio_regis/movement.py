"""Strategic movement of troops (§10.2): the route checked.

A single troop crosses any number of areas that its power controls, or that hold its
own unbesieged troops, and seas, and may not end at sea. A land leg joins adjacent
areas; a sea leg goes from a coastal area to one of its seas, between adjacent seas, or
from a sea to a coastal area on it (§10.2). The route is checked whole before anything
moves (`plan_route`); a route with seas is then carried by `sea_moves.travel`, which
resolves the naval interceptions (§10.2.1, §11.4.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.core.orders import unknown_name
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


@dataclass
class Convoy:
    """What the mover of troops by sea says in its order (§11.4.1): the escort and the
    order in which the interceptors fight; and the powers that have tried already (each
    tries once per move). `escort_squadrons` is fixed when the escort is checked."""

    power: str
    escort: str | None = None
    fights: tuple[str, ...] = ()
    tried: set[str] = field(default_factory=set)
    escort_squadrons: list[str] = field(default_factory=list)


def interested(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    """§18.4.1: interest from the power's card, and from events played (RR-I52)."""
    return scenario.interested(power, area, state.interests.get(power, ()))


def keep_minors_home(state: GameState, scenario: Scenario, moving: Sequence[str], area: str) -> None:
    """§20.2, RR-I150: an allied minor's troop stays in its minor's theater and its border areas."""
    for troop_id in moving:
        troop = state.troop(troop_id)
        if troop is not None and troop.minor and not scenario.minor_may_enter(troop.minor, area):
            raise IllegalOrder(f"{troop.id} is {troop.minor}'s and cannot leave {scenario.minors[troop.minor].theater} "
                               f"for {area} (§20.2)")


def controls(state: GameState, power: str, area: str) -> bool:
    """Control for bases and strategic moves: an area in revolt counts as uncontrolled
    (§18.3 "it cannot, for example, trace strategic movements")."""
    return state.areas[area].controller == power and not state.areas[area].rebellion


def allied_area(state: GameState, power: str, area: str) -> bool:
    """§21.2.1: an area an ally controls (not in revolt), which strategic moves and supply
    may use as the power's own — but not tactical moves, nor its ports as bases."""
    return any(controls(state, ally, area) for ally in state.allies(power))


def resolve_area(scenario: Scenario, word: str, state: GameState | None = None) -> str:
    """An area in play from what the player wrote, or a message with a suggestion. An
    inactive area does not exist for play (§18.2.1): with `state`, one an event has not
    activated is refused; without it, one inactive in the scenario (RR-I82)."""
    area = scenario.find_area(word)
    if area is None:
        raise IllegalOrder(unknown_name("area", word, scenario.area_words))
    inactive = not state.exists(area) if state is not None else not scenario.areas[area].active
    if inactive:
        raise IllegalOrder(f"{area} is an inactive area: it does not exist for play until an event activates it "
                           f"(§18.2.1)")
    return area


def plan_route(state: GameState, scenario: Scenario, power: str, moving: Sequence[str], start: str,
               steps: Sequence[str]) -> list[str]:
    """The places of a strategic path from `start`, each leg checked (§10.2): seas as
    their ids, never ending at sea."""
    here = start
    route = [here]
    for word in steps:
        if word.startswith("@"):
            nxt = sea_leg(scenario, here, word)
        else:
            nxt = resolve_area(scenario, word, state)
            if here in scenario.seas:
                if here not in scenario.areas[nxt].seas:
                    raise IllegalOrder(f"{nxt} is not on the coast of @{here} (§10.2)")
            elif nxt not in scenario.areas[here].adjacent:
                raise IllegalOrder(f"{nxt} is not adjacent to {here}")
            land_leg(state, scenario, power, moving, nxt, from_sea=here in scenario.seas)
        here = nxt
        route.append(here)
    if here in scenario.seas:
        raise IllegalOrder("a troop cannot end a strategic move at sea (§10.2)")
    if not controls(state, power, here) and allied_area(state, power, here) \
            and not _own_troops(state, power, moving, here):
        raise IllegalOrder(f"{here} is an ally's area: a strategic move may cross it but ends in an area of "
                           f"{power}'s or with its troops (§21.2.1, RR-I183)")
    return route


def _own_troops(state: GameState, power: str, moving: Sequence[str], area: str) -> bool:
    return any(t.power == power and t.id not in moving and not t.besieged for t in state.troops_in(area))


def land_leg(state: GameState, scenario: Scenario, power: str, moving: Sequence[str], nxt: str, *,
             from_sea: bool = False) -> None:
    """§10.2: an area the power or an ally (§21.2.1) controls (not in revolt, §18.3), or one
    holding its own troops (not moving); a besieged fortress's area only as `siege_crossable`
    allows (§10.2, RR-I55, RR-I280), never a theater of no interest (§18.4.1)."""
    if not interested(state, scenario, power, nxt):
        raise IllegalOrder(f"{power} has no interest in {scenario.areas[nxt].theater}: no strategic move through "
                           f"{nxt} (§18.4.1)")
    keep_minors_home(state, scenario, moving, nxt)
    if not siege_crossable(state, scenario, power, nxt, from_sea=from_sea):
        raise IllegalOrder(siege_refusal(state, nxt))
    if controls(state, power, nxt) or allied_area(state, power, nxt) or _own_troops(state, power, moving, nxt):
        return
    controller = state.areas[nxt].controller or "nobody"
    revolt = f" (in revolt, {state.areas[nxt].rebellion}, it counts as uncontrolled, §18.3)" \
        if state.areas[nxt].rebellion and controller == power else ""
    raise IllegalOrder(f"{nxt} is controlled by {controller}{revolt} and holds no {power} troop: a strategic move "
                       f"crosses only controlled areas or areas with own troops (§10.2)")


def siege_crossable(state: GameState, scenario: Scenario, power: str, area: str, *, from_sea: bool) -> bool:
    """§10.2: under v1.2.4 no besieged fortress's area is crossed unless it is a port (RR-I55);
    under v2.1 an area the power itself besieges is, and one another power besieges only if
    it is a port entered from the sea (RR-I280)."""
    besieger = state.areas[area].besieger
    if besieger is None:
        return True
    if state.options.variant != "v2.1":
        return scenario.coastal(area)
    return besieger == power or (scenario.coastal(area) and from_sea)


def siege_refusal(state: GameState, area: str) -> str:
    if state.options.variant != "v2.1":
        return f"{area} holds a besieged fortress and is no port: a strategic move cannot cross it (§10.2)"
    return (f"{area} holds a fortress {state.areas[area].besieger} besieges: a strategic move crosses it only if "
            f"it is a port entered from the sea (v2.1 §10.2)")


def sea_leg(scenario: Scenario, here: str, word: str) -> str:
    """§10.2: land to sea from a coastal area to one of its seas; sea to an adjacent sea."""
    sea = next((s for s in scenario.seas if s.lower() == word[1:].lower()), None)
    if sea is None:
        raise IllegalOrder(unknown_name("sea", word, scenario.sea_words))
    if here in scenario.seas:
        if sea not in scenario.seas[here].adjacent:
            raise IllegalOrder(f"@{sea} is not adjacent to @{here}")
    elif sea not in scenario.areas[here].seas:
        raise IllegalOrder(f"{here} is not on the coast of @{sea} (§10.2)")
    return sea
