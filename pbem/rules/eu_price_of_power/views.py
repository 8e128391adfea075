"""What the map of EU: The Price of Power looks like at the start of a scenario, in the
core's map shape (`pbem.core.view.GameMap`), for `pbem scenario check --draw` once the
ruleset exists: each Area where the data places it, in the colour of the realm holding most
of its Tax Value (§2.2), the Sea Zones, the players' Armies and Fleets, and the borders —
land, mountain, coast and sea."""

from __future__ import annotations

from collections import Counter

from pbem.rules.eu_price_of_power.scenario import Scenario


def scenario_map(scenario: Scenario) -> dict:
    """The map as the scenario sets it up."""
    board = scenario.board
    units: dict[str, list[str]] = {}
    for realm in scenario.data.realms:
        for number, army in enumerate(realm.armies, 1):
            units.setdefault(army.area, []).append(f"{realm.tag} army {number}")
        if realm.fleet is not None:
            at = board.provinces[realm.fleet.at].area if realm.fleet.at in board.provinces else realm.fleet.at
            units.setdefault(at, []).append(f"{realm.tag} fleet")
    areas = [{"id": a.id, "name": a.name, "x": a.x, "y": a.y, "kind": "land", "controller": _holder(scenario, a.id),
              "units": units.get(a.id, []), "synthetic": a.synthetic} for a in board.areas.values()]
    areas += [{"id": s.id, "name": s.name, "x": s.x, "y": s.y, "kind": "sea", "units": units.get(s.id, []),
               "synthetic": s.synthetic} for s in board.seas.values()]
    links = [{"a": a.id, "b": other, "kind": "mountain" if other in a.mountains else "land"}
             for a in board.areas.values() for other in a.adjacent if a.id < other]
    links += [{"a": a.id, "b": sea, "kind": "sea coast"} for a in board.areas.values() for sea in a.seas]
    links += [{"a": s.id, "b": other, "kind": "sea"} for s in board.seas.values() for other in s.adjacent
              if s.id < other]
    return {"areas": areas, "links": links}


def _holder(scenario: Scenario, area: str) -> str | None:
    """The realm holding the most Tax Value in `area`; a tie goes to the Province listed first."""
    value: Counter[str] = Counter()
    for province in scenario.board.in_area.get(area, ()):
        if province in scenario.holders:
            value[scenario.holders[province]] += scenario.board.provinces[province].tax_value
    return value.most_common(1)[0][0] if value else None
