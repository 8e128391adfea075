"""Amphibious landings (§12.3, §11.1.2, §12.3.3; example §28.11).

A troop or army that began the impulse in a coastal area and has taken no action crosses
the sea to a coastal area within the naval operation distance — a crossing resolved like
a strategic move, interceptable, aborted if an interceptor wins (§12.3.2) — and then enters
the target as a tactical move: the defender's reactions, a field battle with the landing's
disadvantages (§13.3.3), or a siege, or a subjugation when ordered. Beaten, the survivors
go back to the departure area. Between maps: NOD 2 at least, one troop (§12.3.3).
"""

from __future__ import annotations

from pbem.rules.ratio_regis import french_wars, tactical
from pbem.rules.ratio_regis.actions import ImpulseRun, check_stacking
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.interception import check_escort, cross
from pbem.rules.ratio_regis.movement import Convoy, resolve_area, sea_leg
from pbem.rules.ratio_regis.naval import nod as naval_distance
from pbem.rules.ratio_regis.orders import Land
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop


def land(state: GameState, scenario: Scenario, power: str, order: Land, run: ImpulseRun) -> str:
    """§12.3: the crossing, then the landing itself."""
    troops = tactical.force(state, power, order.units)
    source = troops[0].area
    _check_force(scenario, troops, source, run)
    target = resolve_area(scenario, order.area, state)
    if not scenario.coastal(target):
        raise IllegalOrder(f"{target} is not a coastal area: a landing goes from coast to coast (§12.3)")
    tactical.may_enter(state, scenario, power, target)
    french_wars.check_entry(state, scenario, power, target)  # §33.4 (RR-I275)
    seas = crossing(state, scenario, source, target, order.via, len(troops))
    convoy = Convoy(power, order.escort, order.fights)
    check_escort(state, scenario, convoy, source)
    _check_escort_v21(state, convoy, len(troops))
    ids = [t.id for t in troops]
    immune = tactical.determined_immune(state, scenario, troops, run)  # a landing is a tactical move (§12.3, §17.3.2)
    run.ledger.acted.update(ids)
    for sea in seas:
        if not cross(state, scenario, run, convoy, sea, ids):
            text = f"{power}'s landing from {source} to {target} is stopped at @{sea}: {', '.join(ids)} stay in {source}"
            run.judge.say(text, rule="§12.3.2")
            return text
    texts: list[str] = []
    fought, stopped = tactical._step(state, scenario, power, troops, source, target, order, run, texts,
                                     amphibious=True, immune=immune)
    survivors = [t for t in troops if t.area == target]
    if order.subjugate and survivors and not fought and not stopped:
        texts.append(tactical.subjugate_area(state, scenario, power, target, survivors, run, all_moved=True))
    check_stacking(state, scenario, [source, target])
    return f"{power} lands from {source} across " + ">".join(f"@{s}" for s in seas) + ": " + "; ".join(texts)


def _check_escort_v21(state: GameState, convoy: Convoy, count: int) -> None:
    """v2.1 §12.3.1: a landing needs an escort fleet based at the port of departure (checked
    as any escort is, RR-I42), and lands no more troops than the escort has squadrons."""
    if state.options.variant != "v2.1":
        return
    if convoy.escort is None:
        raise IllegalOrder("under v2.1 a landing needs an escort fleet based at the port of departure (§12.3.1): "
                           "name it with ESCORT <fleet>")
    if count > len(convoy.escort_squadrons):
        raise IllegalOrder(f"under v2.1 the escort lands at most one troop per squadron (§12.3.1): "
                           f"{len(convoy.escort_squadrons)} squadron(s) for {count} troops")


def _check_force(scenario: Scenario, troops: list[Troop], source: str, run: ImpulseRun) -> None:
    """§12.3.1: the force began the impulse in this coastal area and has taken no action."""
    if not scenario.coastal(source):
        raise IllegalOrder(f"{source} is not a coastal area: a landing starts on a coast (§12.3.1)")
    for troop in troops:
        if run.start.areas.get(troop.id) != source or troop.id in run.ledger.acted:
            raise IllegalOrder(f"{troop.id} did not begin the impulse in {source} without acting since: only a force "
                               f"that began the impulse on the coast and has taken no action may land (§12.3.1)")


def crossing(state: GameState, scenario: Scenario, source: str, target: str, via: tuple[str, ...],
             size: int) -> list[str]:
    """The seas crossed: as written (`VIA`), else the first sea both coasts share. The
    target must lie within the NOD of the departure port (§11.1.2; RR-I48: the NOD of the
    target's sea); between maps the NOD must be 2 or more and the force one troop (§12.3.3)."""
    if via:
        seas, here = [], source
        for word in via:
            here = sea_leg(scenario, here, word)
            seas.append(here)
        if seas[-1] not in scenario.areas[target].seas:
            raise IllegalOrder(f"{target} is not on the coast of @{seas[-1]}, the last sea of VIA (§12.3)")
    else:
        shared = [s for s in scenario.areas[source].seas if s in scenario.areas[target].seas]
        if not shared:
            raise IllegalOrder(f"{source} and {target} share no sea: name the seas crossed (VIA @A>@B) (§12.3)")
        seas = shared[:1]
    last = seas[-1]
    nod = naval_distance(state, scenario, last)
    distance = min(d for s in scenario.areas[source].seas if (d := scenario.sea_distance(s, last)) is not None)
    if distance > nod:
        raise IllegalOrder(f"{target} is {distance} seas from {source}, beyond the naval operation distance "
                           f"({nod}) (§11.1.2, §12.3.1)")
    if scenario.areas[source].map != scenario.areas[target].map:
        if nod < 2:
            raise IllegalOrder("a landing between maps needs a naval operation distance of 2 or more (§12.3.3)")
        if size > 1:
            raise IllegalOrder("a landing between maps carries a single troop (with its leader) (§12.3.3)")
    return seas
