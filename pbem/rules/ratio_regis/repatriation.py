"""Repatriation (§14; examples §31.1–§31.2): a power's units that must leave the areas or
seas where they stand, because of a diplomatic event (a card, RR-I69; later alliances,
peace and expeditionary corps, §20.4.2, §21.2.2, §21.5.3).

§14: "This movement is carried out troop by troop and squadron by squadron, and does not
require the use of any action (in fact, many times it is conducted in the impulse of
another player)." `repatriate` is the whole procedure, in the rulebook's order (RR-I68):

1. troops (§14.1): each troop separately makes a tactical move ending in a controlled area,
   a strategic move (§14.1.1), or disperses in its theater's box. The owner answers one
   `repatriate` request per troop, all asked together (RR-I74);
2. squadrons (§14.2): those in port in an area left, at sea in a sea left, and any left
   without a base within the naval operation distance go to base as if their port had been
   lost (§11.6, RR-I75);
3. fortresses (§14.3): they cannot be repatriated and are eliminated; a leader on one goes
   to another unit of its power, not besieged, that the owner chooses (`reassign`, RR-I76).
   So does a leader commanding an army entirely of allies when they leave (`reassignment`).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles, sieges
from pbem.rules.ratio_regis.actions import route_text, stack_count, stacking_limit
from pbem.rules.ratio_regis.interception import cross
from pbem.rules.ratio_regis.movement import Convoy, allied_area, controls, interested, siege_crossable
from pbem.rules.ratio_regis.naval import rebase_stranded, send_to_base
from pbem.rules.ratio_regis.orders import parse_line
from pbem.rules.ratio_regis.reassignment import reassign
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Leader, Troop

#: How many of the nearest strategic routes a `repatriate` request's prompt spells out.
ROUTES_SHOWN = 4


@dataclass(frozen=True)
class Route:
    """A strategic route from the troop's area: the places crossed, seas by id (§10.2)."""

    places: tuple[str, ...]
    seas: int

    @property
    def steps(self) -> int:
        return len(self.places) - 1


@dataclass
class Choices:
    """What one troop may do (§14.1): the legal answers, the default, the reason each area
    its power controls cannot be reached (`why_not`, keyed like the answers' tails), the
    strategic routes and tactical paths by destination."""

    options: list[str]
    default: str
    why_not: dict[str, str]
    routes: dict[str, Route]
    paths: dict[str, tuple[str, ...]]


# -- the procedure ----------------------------------------------------------------
def repatriate(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, places: Sequence[str], *,
               why: str) -> list[str]:
    """§14: `power`'s units leave `places` (areas, or seas by id) — troops (§14.1), then
    squadrons (§14.2), then fortresses and their leaders (§14.3). No action is spent (§14).
    Returns the chronicle lines (each also said)."""
    left = [p for p in places if p in scenario.areas or p in scenario.seas]
    texts = _troops(state, scenario, judge, power, left, why)
    texts += _squadrons(state, scenario, judge, power, left)
    texts += _fortresses(state, scenario, judge, power, left, why)
    sieges.lift_ended_sieges(state, judge)  # besiegers gone, or their target (§13.4.5)
    if not texts:
        texts.append(f"{power} has no unit to repatriate from {', '.join(left)} (§14)")
        judge.say(texts[-1], rule="§14")
    return texts


def repatriate_troop(state: GameState, scenario: Scenario, judge: DecisionPort, troop: Troop, *, why: str) -> str:
    """§14.1 for one troop alone, the others of its power staying where they are (an
    expeditionary corps going home, §21.2.2)."""
    return _troops(state, scenario, judge, troop.power, [troop.area], why, only=troop.id)[0]


def _troops(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, left: Sequence[str], why: str,
            only: str | None = None) -> list[str]:
    """§14.1, RR-I74: one `repatriate` request per troop (the troop `only`, if given), asked
    together so one mail answers them all; carried out in troop order. A troop with a single
    possibility is not asked. An answer that an earlier troop made impossible (it filled the
    area) takes the default as it stands then (said in the chronicle)."""
    troops = [t for t in state.troops if t.power == power and t.area in left and only in (None, t.id)]
    if not troops:
        return []
    player = state.powers[power].player
    asked: list[tuple[Troop, Any]] = []
    answers: dict[str, str] = {}
    for troop in troops:
        choices = troop_choices(state, scenario, troop, left)
        if player is None or len(choices.options) == 1:
            answers[troop.id] = choices.default
            continue
        leader = state.leader_on(troop.id)
        asked.append((troop, judge.request(
            kind="repatriate", player=player, power=power, purpose="repatriate", default=choices.default,
            options=choices.options, rule="§14.1",
            prompt=f"{why}: {troop.id}{f' with {leader.id}' if leader else ''} must leave {troop.area} (§14.1): "
                   + _prompt(choices, scenario),
            context={"troop": troop.id, "subject": troop.id, "area": troop.area, "leader": leader.id if leader else "",
                     "why": why, "why_not": choices.why_not})))
    if asked:
        for (troop, _), answer in zip(asked, judge.decide_all([request for _, request in asked]), strict=True):
            answers[troop.id] = answer
    texts = []
    for troop in troops:
        if troop.area not in left or state.troop(troop.id) is None:
            continue  # gone meanwhile
        texts.append(_carry_out(state, scenario, judge, troop, left, answers[troop.id]))
        judge.say(texts[-1], rule="§14.1")
    return texts


def _prompt(choices: Choices, scenario: Scenario) -> str:
    """What the troop may do, nearest strategic routes first."""
    parts = []
    if choices.paths:
        parts.append(f"a tactical move to {', '.join(choices.paths)}")
    if choices.routes:
        nearest = sorted(choices.routes, key=lambda area: _distance(scenario, area, choices.routes[area]))
        shown = [f"{area} by {route_text(choices.routes[area].places, scenario)}" for area in nearest[:ROUTES_SHOWN]]
        more = len(nearest) - len(shown)
        parts.append(f"a strategic move home ({'; '.join(shown)}{f'; {more} more' if more > 0 else ''})")
    parts.append("dispersal in the theater's box")
    return ", ".join(parts[:-1]) + (" or " if len(parts) > 1 else "") + parts[-1] + f"; default {choices.default}"


def _carry_out(state: GameState, scenario: Scenario, judge: DecisionPort, troop: Troop, left: Sequence[str],
               answer: str) -> str:
    """One troop's answer, checked again against the state as it is now (RR-I74)."""
    choices = troop_choices(state, scenario, troop, left)
    note = ""
    if _canonical(answer) not in [_canonical(option) for option in choices.options]:
        note = f"{answer} is no longer possible, so {choices.default} (RR-I74); "
        answer = choices.default
    command = parse_line(answer)
    origin = troop.area
    if command.means == "MOVE":
        troop.area = command.place
        path = choices.paths[command.place]
        return note + f"{troop.power} repatriates {troop.id} by a tactical move {'>'.join(path)} (§14.1)"
    if command.means == "STRAT":
        route = choices.routes[command.place]
        text = f"{troop.power} repatriates {troop.id} strategically {route_text(route.places, scenario)} (§14.1.1)"
        if route.seas:
            judge.say(note + text + " — by sea", rule="§14.1.1")
            convoy = Convoy(troop.power)  # RR-I72: no escort; the interceptors in the scenario's power order
            for sea in [place for place in route.places if place in scenario.seas]:
                if not cross(state, scenario, SimpleNamespace(judge=judge), convoy, sea, [troop.id]):
                    battles.disperse(state, scenario, judge, troop.id)
                    return (f"{troop.power}'s {troop.id} loses the interception at @{sea} on its way home from "
                            f"{origin} and disperses to {troop.box} (§14.1.1)")
            troop.area = command.place
            return f"{troop.power}'s {troop.id} reaches {command.place} by sea (§14.1.1)"
        troop.area = command.place
        return note + text
    battles.disperse(state, scenario, judge, troop.id)
    return note + f"{troop.power} disperses {troop.id} from {origin} to {troop.box} (§14.1)"


# -- what a troop may do ------------------------------------------------------------
def troop_choices(state: GameState, scenario: Scenario, troop: Troop, left: Sequence[str]) -> Choices:
    """§14.1 for one troop: tactical moves (RR-I70), strategic moves (§14.1.1, RR-I71,
    RR-I72) and dispersal; the default is the strategic move to the nearest area, else
    dispersal (RR-I73). A besieged troop cannot leave its fortress: it may only disperse."""
    disperse = f"REPATRIATE {troop.id} DISPERSE"
    if troop.besieged or troop.area is None:
        why = {"*": f"{troop.id} is besieged: it cannot leave the fortress, only disperse (RR-I68)"}
        return Choices([disperse], disperse, why, {}, {})
    routes = strategic_routes(state, scenario, troop, left)
    paths = tactical_paths(state, scenario, troop, left)
    options = [f"REPATRIATE {troop.id} MOVE TO {area}" for area in paths]
    options += [f"REPATRIATE {troop.id} TO {area}" for area in routes]
    options.append(disperse)
    nearest = min(routes, key=lambda area: _distance(scenario, area, routes[area]), default=None)
    default = f"REPATRIATE {troop.id} TO {nearest}" if nearest else disperse
    return Choices(options, default, _why_not(state, scenario, troop, left, routes, paths), routes, paths)


def _distance(scenario: Scenario, area: str, route: Route) -> tuple[int, int, int]:
    """RR-I73: nearer is fewer seas crossed, then fewer places, then the scenario's order."""
    return route.seas, route.steps, _order(scenario)[area]


def _order(scenario: Scenario) -> dict[str, int]:
    return {area.id: index for index, area in enumerate(scenario.data.areas)}


def _has_room(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    """§15.1.1: the troop arrives without overstacking the area."""
    return stack_count(state, area, power) + 1 <= stacking_limit(state, scenario, area, power)


def _enemies(state: GameState, power: str, area: str) -> list[Troop]:
    """§14.1.1 "areas with enemy troops": troops of any power at war with `power`, besieged or not."""
    return [t for t in state.troops_in(area) if t.power != power and state.at_war(power, t.power)]


def _destination(state: GameState, scenario: Scenario, power: str, area: str, left: Sequence[str]) -> bool:
    """RR-I70: a repatriated troop ends in an area its power controls (not in revolt, §18.3),
    that it is not leaving, free of enemy troops and with room for it."""
    return (area not in left and state.exists(area) and controls(state, power, area)
            and not _enemies(state, power, area) and _has_room(state, scenario, power, area))


def tactical_paths(state: GameState, scenario: Scenario, troop: Troop,
                   left: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """§14.1 "a tactical move that ends in a controlled area" (§12.1; RR-I70): one or two
    steps along land links, each area entered controlled by the power, free of enemy troops
    and enemy fortresses (so no reaction, combat or siege arises) and in a theater of
    interest; the end one of the power's areas with room. By destination in the scenario's
    area order, each with its shortest path: a neighbour is reached in one step, never by a
    detour through another neighbour listed before it; ties by adjacency order."""
    power, start = troop.power, troop.area

    def passable(area: str) -> bool:
        fortress = state.fortress_in(area)
        return (state.exists(area) and interested(state, scenario, power, area) and _may_enter(scenario, troop, area)
                and controls(state, power, area) and not _enemies(state, power, area)
                and not (fortress is not None and fortress.power != power and state.at_war(power, fortress.power)))

    firsts = [area for area in scenario.areas[start].adjacent if area in scenario.areas and passable(area)]
    found: dict[str, tuple[str, ...]] = {first: (start, first) for first in firsts
                                         if _destination(state, scenario, power, first, left)}
    for first in firsts:
        for second in scenario.areas[first].adjacent:
            if second in scenario.areas and second != start and passable(second) \
                    and _destination(state, scenario, power, second, left):
                found.setdefault(second, (start, first, second))
    order = _order(scenario)
    return {area: found[area] for area in sorted(found, key=order.__getitem__)}


def host_power(state: GameState, troop: Troop) -> str | None:
    """RR-I71: the power whose territory the troop stands in — the controller of its area,
    when that is another power (§14.1.1 "an area owned by a major power")."""
    controller = state.areas[troop.area].controller
    return controller if controller not in (None, troop.power) else None


def strategic_routes(state: GameState, scenario: Scenario, troop: Troop, left: Sequence[str], *,
                     through_enemies: bool = False) -> dict[str, Route]:
    """§14.1.1 (RR-I71, RR-I72): the best strategic route of the troop alone to every area
    it may end in, by destination in the scenario's area order.

    The route crosses, besides seas (no NOD for troops, RR-I41), the areas a strategic move
    may cross (§10.2: controlled by the power or an ally, §21.2.1, or holding its other troops; never a besieged
    fortress's area but as `siege_crossable` allows, RR-I55, RR-I280, nor a theater of no interest, §18.4.1)
    and also the areas of the power whose territory the troop stands in, counted as an ally's (§14.1.1), but never an
    area with enemy troops (§14.1.1) — unless `through_enemies` (to explain a refusal).
    Best is fewest seas, then fewest places; a tie goes to the first found in the scenario's
    adjacency order (areas before seas)."""
    power, start = troop.power, troop.area
    host = host_power(state, troop)

    def crossable(area: str, from_sea: bool) -> bool:
        if not state.exists(area) or not interested(state, scenario, power, area) \
                or not _may_enter(scenario, troop, area):
            return False
        if not siege_crossable(state, scenario, power, area, from_sea=from_sea):
            return False
        if not through_enemies and _enemies(state, power, area):
            return False
        own = any(t.power == power and t.id != troop.id and not t.besieged for t in state.troops_in(area))
        return (controls(state, power, area) or own or (host is not None and controls(state, host, area))
                or allied_area(state, power, area))

    best: dict[str, Route] = {}
    counter = 0
    frontier: list[tuple[int, int, int, str, tuple[str, ...]]] = [(0, 0, counter, start, (start,))]
    while frontier:
        seas, steps, _, place, path = heapq.heappop(frontier)
        if place in best:
            continue
        best[place] = Route(path, seas)
        for nxt in _neighbours(scenario, place):
            if nxt in best:
                continue
            at_sea = nxt in scenario.seas
            if not at_sea and not crossable(nxt, place in scenario.seas):
                continue
            counter += 1
            heapq.heappush(frontier, (seas + at_sea, steps + 1, counter, nxt, path + (nxt,)))
    order = _order(scenario)
    ends = [place for place in best if place in scenario.areas and place != start
            and _destination(state, scenario, power, place, left) and _may_enter(scenario, troop, place)]
    return {area: best[area] for area in sorted(ends, key=order.__getitem__)}


def _may_enter(scenario: Scenario, troop: Troop, area: str) -> bool:
    """§20.2, RR-I251: an allied minor's troop is repatriated within its minor's theater and its
    border areas, as it moves (RR-I150)."""
    return troop.minor is None or scenario.minor_may_enter(troop.minor, area)


def _neighbours(scenario: Scenario, place: str) -> list[str]:
    """§10.2's legs: land to adjacent land or to a sea of its coast; sea to an adjacent sea
    or to a coastal area on it."""
    if place in scenario.seas:
        return list(scenario.seas[place].adjacent) + scenario.port_areas(place)
    area = scenario.areas[place]
    return [a for a in area.adjacent if a in scenario.areas] + list(area.seas)


def _why_not(state: GameState, scenario: Scenario, troop: Troop, left: Sequence[str], routes: dict[str, Route],
             paths: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """Why each area the power controls is not an answer (keys: the answers' tails, `TO
    Lorraine`, `MOVE TO Lorraine`; `*` for any other place)."""
    power = troop.power
    relaxed = strategic_routes(state, scenario, troop, left, through_enemies=True)
    why: dict[str, str] = {"*": f"a repatriated troop ends in an area {power} controls, free of enemy troops and with "
                                f"room (§14.1, RR-I70)"}
    for area in scenario.areas:
        if not state.exists(area) or not controls(state, power, area) or area == troop.area:
            continue
        reason = ""
        if area in left:
            reason = f"{troop.id} must leave {area} (§14)"
        elif not _may_enter(scenario, troop, area):
            reason = (f"{troop.id} is {troop.minor}'s: it stays in {scenario.minors[troop.minor].theater} and its "
                      f"border areas (§20.2)")
        elif _enemies(state, power, area):
            reason = f"{area} holds enemy troops (§14.1.1)"
        elif not _has_room(state, scenario, power, area):
            reason = (f"{area} is full: {stack_count(state, area, power)} of {power}'s troops, the limit is "
                      f"{stacking_limit(state, scenario, area, power)} (§15.1.1)")
        elif area not in routes:
            if area in relaxed:
                blocked = [p for p in relaxed[area].places[1:] if p in scenario.areas and _enemies(state, power, p)]
                reason = (f"every route to {area} crosses an area with enemy troops ({', '.join(blocked)}), which "
                          f"a repatriation may not do (§14.1.1)")
            else:
                host = host_power(state, troop)
                through = f"{power}'s areas" + (f" or {host}'s" if host else "")
                reason = f"no strategic route through {through} reaches {area} (§14.1.1)"
        if reason:
            why[f"TO {area}"] = reason
        if area not in paths:
            why[f"MOVE TO {area}"] = reason or (
                f"a tactical move goes one or two areas through {power}'s own areas, free of enemies (§12.1, "
                f"RR-I70); {area} is reached by a strategic move: REPATRIATE {troop.id} TO {area}")
    return why


# -- squadrons ----------------------------------------------------------------------
def _squadrons(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, left: Sequence[str]) -> list[str]:
    """§14.2 (RR-I75): squadrons in port in an area left, or at sea in a sea left, go to base
    "as if the control of a port was lost" (§11.6: home port if still a base, else the
    nearest, the owner choosing on a tie), as they were, operational or under repair; then
    every squadron of the power left without a base within the naval operation distance
    (the ports left not counting) does the same (§11.1.1)."""
    texts = []
    for squadron in [s for s in state.squadrons if s.power == power and (s.port in left or s.sea in left)]:
        where = squadron.where()
        texts.append(f"{power}'s squadron {squadron.id} must leave {where}: "
                     + send_to_base(state, scenario, judge, squadron, damaged=False, avoid=left) + " (§14.2, §11.6)")
        judge.say(texts[-1], rule="§14.2")
    return texts + rebase_stranded(state, scenario, judge, power, avoid=[p for p in left if p in scenario.areas])


# -- fortresses and leaders -----------------------------------------------------------
def _fortresses(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, left: Sequence[str],
                why: str) -> list[str]:
    """§14.3: "Fortresses cannot be repatriated; instead, they are eliminated" — built or
    under construction. A leader on one is reassigned (RR-I76) once they all are gone."""
    texts = []
    riders: list[tuple[Leader, str]] = []
    for fortress in [f for f in state.fortresses if f.power == power and f.area in left]:
        riders += [(lead, fortress.id) for lead in state.leaders if lead.unit == fortress.id]
        state.fortresses.remove(fortress)
        texts.append(f"{power}'s fortress {fortress.id} in {fortress.area} cannot be repatriated and is eliminated "
                     f"(§14.3)")
        judge.say(texts[-1], rule="§14.3")
    for leader, fortress in riders:
        texts.append(reassign(state, judge, leader, why, lost=f"the fortress {fortress} carrying your leader "
                                                                f"{leader.id} is eliminated",
                               left=f"the eliminated fortress {fortress}"))
        judge.say(texts[-1], rule="§14.3")
    return texts


def _canonical(text: str) -> str:
    return " ".join(text.upper().split())
