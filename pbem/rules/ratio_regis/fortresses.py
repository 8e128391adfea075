"""Fortress construction (§9.4, §31.5): started in one impulse, finished in a later one; a
major's fortresses in an allied minor destroyed when the alliance ends (§20.2)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.movement import resolve_area
from pbem.rules.ratio_regis.orders import Fort
from pbem.rules.ratio_regis.reassignment import reassign
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import Fortress, GameState


def fortress(state: GameState, scenario: Scenario, power: str, order: Fort, run: ImpulseRun) -> str:
    """START: an under-construction fortress in an area the power controls, not in revolt,
    one per area. FINISH: a fortress that was under construction at the start of the
    impulse becomes operational, unless a revolt has broken out there since (§9.4, §18.3:
    finishing is building, RR-I83)."""
    area = resolve_area(scenario, order.area, state)
    existing = state.fortress_in(area)
    if order.step == "FINISH":
        if existing is None or existing.power != power:
            raise IllegalOrder(f"{power} has no fortress under construction in {area}")
        if existing.built:
            raise IllegalOrder(f"the fortress in {area} is finished already")
        if state.areas[area].rebellion:
            raise IllegalOrder(f"{area} is in revolt ({state.areas[area].rebellion}): no fortress can be built there, "
                               f"nor finished (§18.3)")
        if existing.id not in run.start.building:
            raise IllegalOrder(f"the fortress in {area} was started this impulse: it is finished in a later one "
                               f"(§9.4)")
        existing.built = True
        return f"{power} finishes the fortress {existing.id} in {area}"
    if existing is not None:
        raise IllegalOrder(f"{area} already has a fortress ({existing.id} of {existing.power}): one per area (§9.4)")
    status = state.areas[area]
    if status.controller != power:
        raise IllegalOrder(f"{area} is not controlled by {power} (§9.4)")
    if status.rebellion:
        raise IllegalOrder(f"{area} is in revolt: no fortress can be built there (§18.3)")
    built = state.new_fortress(power, area, built=False)
    return f"{power} starts building fortress {built.id} in {area}"


def in_minor(state: GameState, power: str, areas: Sequence[str]) -> list[Fortress]:
    """`power`'s own fortresses in a minor's `areas` (its card fortresses are the minor's, §20.2)."""
    return [f for f in state.fortresses if f.power == power and f.minor is None and f.area in areas]


def destroy_in_minor(judge: DecisionPort, state: GameState, power: str, areas: Sequence[str]) -> list[str]:
    """§20.2: a major may build fortresses in its allied minor's areas, "although they will be
    destroyed as soon as the alliance ends" (v2.1: "as soon as the alliance is not renewed") —
    `power`'s own fortresses in `areas`, built or not (the minor's card fortresses are the
    minor's); a siege of one ends with it (§13.4.5, RR-I252). Their leaders are not lost: §14.3
    "Leaders in fortresses that must be destroyed … are removed and assigned to any other troop,
    squadron or own fortress that is not besieged" (`reassign`, RR-I76). Returns what went."""
    notes = []
    doomed = in_minor(state, power, areas)
    for fortress in doomed:
        state.fortresses.remove(fortress)
        status = state.areas[fortress.area]
        if status.besieger is not None:
            for troop in state.troops_in(fortress.area):
                troop.besieged = False
            status.besieger, status.siege_casualties = None, 0
        notes.append(f"{power}'s fortress {fortress.id} in {fortress.area} is destroyed")
    gone = [f.id for f in doomed]
    for leader in [lead for lead in state.leaders if lead.unit in gone]:
        notes.append(reassign(state, judge, leader, f"{power}'s fortress {leader.unit} is destroyed with the alliance "
                              f"(§20.2)", lost=f"your leader {leader.id} is left without its fortress",
                              left=f"the fortress {leader.unit}", excluded=gone))
    return notes


def alliance_over(judge: DecisionPort, state: GameState, former: str, areas: Sequence[str]) -> list[str]:
    """§20.2: the minor changed ally (by card, event, peace or conquest, §20.3): its former
    ally's fortresses in its areas are destroyed, and said (RR-I252)."""
    notes = destroy_in_minor(judge, state, former, areas)
    if not notes:
        return []
    text = f"{former}'s alliance is over: " + "; ".join(notes) + " (§20.2)"
    judge.say(text, rule="§20.2")
    return [text]
