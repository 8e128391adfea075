"""Fortress construction (§9.4, §31.5): started in one impulse, finished in a later one."""

from __future__ import annotations

from pbem.rules.ratio_regis.actions import ImpulseRun, register
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.movement import resolve_area
from pbem.rules.ratio_regis.orders import Fort
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


@register(Fort)
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
