"""Objectives (§3.2, §22): what a power must hold at the end of the turn to score them.

An objective of a power card, an event card or a minor power's card is scenario data
(`scenario.Objective`); every condition it gives must hold — objectives joined with "+"
score only together (§22). Control is effective control: an area in revolt is not
controlled (§18.3, RR-I220). Possession is nominal (glossary): what a province or a region
counts. A province counts the areas of minor powers allied to the power (§22 "including
allies"; the alliances between major powers have all ended at E1, §23, RR-I222).
"""

from __future__ import annotations

from pbem.rules.ratio_regis.movement import controls
from pbem.rules.ratio_regis.scenario import Objective, Region, Scenario
from pbem.rules.ratio_regis.state import GameState


def met(state: GameState, scenario: Scenario, power: str, objective: Objective) -> bool:
    """§22: every condition of the objective holds for `power` now."""
    return (all(controls(state, power, area) for area in objective.areas)
            and all(holds_province(state, scenario, power, province) for province in objective.provinces)
            and all(held_in_region(state, scenario, power, region) >= region.count for region in objective.regions)
            and all(passed_to(state, power, area) for area in objective.pass_to_possess)
            and all(state.merchants.get(tc, {}).get(power, 0) > 0 for tc in objective.merchants_in)
            and (objective.merchants is None or merchants_of(state, power) >= objective.merchants))


def counts_as_key(scenario: Scenario, area: str, a: str, b: str) -> bool:
    """§21.3.5: "Specific areas that appear as objectives for one of the contenders count as key
    areas (in wars between them)" — for the morale lost with the area and the areas counted at
    the peace (§21.5.1): a key area, or an area an objective of `a`'s or `b`'s card names
    (to control or to pass to possess, RR-I297)."""
    return scenario.areas[area].key or any(area in o.areas or area in o.pass_to_possess
                                           for power in (a, b) for o in scenario.powers[power].objectives)


def describe(objective: Objective) -> str:
    """The objective as the card words it, else its conditions joined with "+" (§22)."""
    if objective.text:
        return objective.text
    parts = list(objective.areas)
    parts += [f"province {p}" for p in objective.provinces]
    parts += [f"{r.count} areas in {', '.join([*r.theaters, *r.areas])}" for r in objective.regions]
    parts += [f"pass to possess {a}" for a in objective.pass_to_possess]
    parts += [f"a merchant in {tc}" for tc in objective.merchants_in]
    if objective.merchants is not None:
        parts.append(f"{objective.merchants} merchants")
    return " + ".join(parts)


def allied_minor_areas(state: GameState, scenario: Scenario, power: str) -> list[str]:
    """The areas in play of the minor powers allied to `power` that no power possesses (§20)."""
    return [a.id for a in scenario.data.areas
            if a.minor is not None and ally_of(state, a.minor) == power and state.exists(a.id)
            and state.areas[a.id].possessor is None]


def ally_of(state: GameState, minor: str) -> str | None:
    """The major power allied to the minor (§20.3), None while it is neutral or not in play."""
    found = state.minors.get(minor)
    return found.ally if found is not None else None


def holds_province(state: GameState, scenario: Scenario, power: str, province: str) -> bool:
    """§22: "to possess (including allies) more than half of the areas" of the province (its
    areas in play, §18.2.1)."""
    areas = [a for a in scenario.province_areas(province) if state.exists(a)]
    allied = set(allied_minor_areas(state, scenario, power))
    held = [a for a in areas if state.areas[a].possessor == power or a in allied]
    return 2 * len(held) > len(areas)


def held_in_region(state: GameState, scenario: Scenario, power: str, region: Region) -> int:
    """§22 "possessing a specific number of areas in a territory": the areas in play of the
    region's theaters and list that `power` possesses."""
    return sum(1 for a in scenario.data.areas
               if (a.theater in region.theaters or a.id in region.areas) and state.exists(a.id)
               and state.areas[a.id].possessor == power)


def passed_to(state: GameState, power: str, area: str) -> bool:
    """§22 "Pass to possess": the area started the turn not possessed by `power` and ends it
    possessed by it (its possessor at turn start is in `possessed_at_start`, RR-I223)."""
    return state.possessed_at_start.get(area, "") != power and state.areas[area].possessor == power


def merchants_of(state: GameState, power: str) -> int:
    """The power's merchants on the map, in every trade center (§19.2)."""
    return sum(by_power.get(power, 0) for by_power in state.merchants.values())


def note_possessors(state: GameState, scenario: Scenario) -> None:
    """At turn start, who possesses each area some "pass to possess" objective names, so the
    turn end knows which passed to a new possessor during the turn (§22, RR-I223)."""
    state.possessed_at_start = {a: state.areas[a].possessor or "" for a in scenario.pass_to_possess}

