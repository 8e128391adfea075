"""Overseas home areas and domains: the mini-maps (§18.7; §12.4.1, §13.5.7, §15.1).

Where an area is drawn is scenario data, its `map`: "main" or the mini-map's name. (The
East areas of the India mini-map "are considered to be part of the main map", §13.5.7:
their data say `map = "main"`.) What the mini-maps change:

- stacking: home areas 4, domains 2, others 1 (§15.1, §18.7) — each area's `stacking` in
  the data;
- conscripts raise no unrest there (§13.1.5, §18.7) — the combat's `mini_map` flag;
- subjugation: never opposed with troops; the area itself resists, a home area as A3, any
  other as A2, and it must be subjugated even after a field battle won there (§13.5.7,
  §18.7; RR-I91);
- interception to or from a mini-map: a single troop, from an adjacent area only (§12.4.1,
  §18.7; RR-I92).
"""

from __future__ import annotations

from pbem.rules.ratio_regis.combat.subjugation import MINI_MAP_HOME, MINI_MAP_OTHER
from pbem.rules.ratio_regis.scenario import Scenario

MAIN_MAP = "main"


def on_mini_map(scenario: Scenario, area: str) -> bool:
    """§18.7: the area is drawn on a mini-map (its `map` is not "main")."""
    return scenario.areas[area].map != MAIN_MAP


def home_area(scenario: Scenario, area: str) -> bool:
    """A home area of any power (the map prints them; RR-I91): it resists as A3 whoever
    holds it now."""
    return any(area in power.home_areas for power in scenario.powers.values())


def resistance(scenario: Scenario, area: str) -> str:
    """§13.5.7: "Home areas count as A3, and the rest as A2"."""
    return f"A{MINI_MAP_HOME if home_area(scenario, area) else MINI_MAP_OTHER}"


def interception_limited(scenario: Scenario, *areas: str) -> bool:
    """§12.4.1 "Interceptions to or from mini-maps may only be made with a single troop
    (with or without leader) and only from an adjacent area": true when any of the areas
    (the target, the source, an area crossed) is on a mini-map."""
    return any(on_mini_map(scenario, area) for area in areas)
