"""Where a power raises its 3-4 troops (§9.1): by an action (`troops.build_troop`) and with
deployment points, which are spent "as explained in the actions chapter" (§24,
`deployment`)."""

from __future__ import annotations

from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def elite_refusal(state: GameState, scenario: Scenario, power: str, area: str) -> str:
    """Why a 3-4 troop of `power` cannot be raised in `area`, or "": only in the theater with
    most of its home areas (§9.1, RR-I3), in v2.1 the province with most (v2.1 §9.1), or only
    in its home areas with option `elite_build` (§9 table)."""
    if state.options.elite_build == "home-areas":
        if area not in scenario.powers[power].home_areas:
            return f"{power} builds 3-4 troops only in its home areas (§9 table; option elite_build)"
        return ""
    province = scenario.home_province(power) if state.options.variant == "v2.1" else None
    if province is not None:
        if scenario.areas[area].province != province:
            return (f"{power} builds 3-4 troops only in {province}, the province with most of its home "
                    f"areas (v2.1 §9.1)")
        return ""
    theater = scenario.home_theater(power)
    if scenario.areas[area].theater != theater:
        return f"{power} builds 3-4 troops only in {theater}, the theater with most of its home areas (§9.1)"
    return ""
