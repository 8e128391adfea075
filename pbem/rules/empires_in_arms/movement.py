"""Land movement (§7.3): one corps along its path, area by area, with the costs of the
movement chart and the rules that stop it. `trace` only checks and measures a move; the
power sequence (`sequence.py`) carries it out."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.orders import unknown_name
from pbem.rules.empires_in_arms.orders import Change, Move
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState
from pbem.rules.empires_in_arms.supply import enemy_corps_in


class OrderError(ValueError):
    """An order that the rules do not allow now; the message says why, citing the rule."""


@dataclass(frozen=True)
class Leg:
    """One area of a move: entered at `cost` (0 for the start area a path may open with),
    why the corps must stop there, and the garrison change it makes there (§7.3.3)."""

    area: str
    cost: int
    stops: str = ""  # why the corps must stop here ("" when it need not)
    change: Change | None = None
    entered: bool = True


def allowance(scenario: Scenario, corps: Corps, force: bool) -> int:
    """§7.3.1.1, §7.3.1.2: the movement allowance, one more when force marching."""
    chart = scenario.charts.movement
    return chart.allowance[corps.movement] + (chart.force_march if force else 0)


def area_named(scenario: Scenario, name: str) -> str:
    """The area a player wrote, in any case, or `OrderError` with a suggestion."""
    found = next((a for a in scenario.areas if a.lower() == name.lower()), None)
    if found is None:
        raise OrderError(unknown_name("area", name, scenario.areas))
    return found


def own_corps(state: GameState, power: str, name: str, scenario: Scenario | None = None) -> Corps:
    """The power's corps a player wrote; given the scenario, a minor free state's corps is
    its controller's to move (§7.1.1, §7.3.1)."""
    def ordered(corps: Corps) -> bool:
        return (scenario.major(corps.power) if scenario is not None else corps.power) == power

    corps = next((c for c in state.corps if c.id.lower() == name.lower()), None)
    if corps is None:
        raise OrderError(unknown_name("corps", name, [c.id for c in state.corps if ordered(c)]))
    if not ordered(corps):
        raise OrderError(f"{corps.id} is a corps of {corps.power}, not of {power}")
    return corps


def may_enter(scenario: Scenario, power: str, area: str) -> str:
    """Why `power` may not enter `area` ("" when it may): another power's territory needs
    access or war (§10.3; EIA-I4: access is not granted in a scenario, so only war opens it).
    A minor free state and its controller are open to each other (§7.3.1, EIA-I163), and a
    scenario's allies grant each other voluntary access (§10.3.1.2, EIA-I165)."""
    owner = scenario.areas[area].owner
    if owner is None or scenario.allied(power, owner) or scenario.at_war(power, owner):
        return ""
    return (f"{scenario.areas[area].title} is {scenario.powers[owner].name}'s territory and "
            f"{power} is not at war with {owner} (§10.3)")


def trace(state: GameState, scenario: Scenario, power: str, move: Move) -> tuple[Corps, list[Leg]]:
    """Check a move against the state: each area next to the one before, open to the power,
    affordable (§7.3.2.3), and not beyond an area where the corps must stop (§7.3.2.1). A
    corps inside a city leaves it at no cost, unless the city is besieged (§7.3.4)."""
    corps = own_corps(state, power, move.corps, scenario)
    if state.placed.get(corps.id) == state.turn:
        raise OrderError(f"{corps.id} is placed on the map this turn and may not move (§10.1.3.3.2, §10.1.4.1.4)")
    if state.besieged(corps):
        raise OrderError(f"{corps.id} is besieged in the city of {scenario.areas[corps.area].title} and cannot "
                         "move out (§7.3.4); it may attack its besiegers (ATTACK BESIEGERS)")
    left = allowance(scenario, corps, move.force)
    chart = scenario.charts.movement
    here, legs = corps.area, []
    for i, stop in enumerate(move.path):
        area = area_named(scenario, stop.area)
        title = scenario.areas[area].title
        if i == 0 and area == corps.area:  # the path opens where the corps stands (to detach or absorb there)
            legs.append(Leg(area, 0, change=stop.change, entered=False))
            continue
        if legs and legs[-1].stops:
            raise OrderError(f"{corps.id} must stop in {scenario.areas[here].title}: {legs[-1].stops}")
        if area not in scenario.neighbours[here]:
            raise OrderError(f"{title} is not next to {scenario.areas[here].title}")
        why = may_enter(scenario, corps.power, area)
        if why:
            raise OrderError(why)
        if scenario.corps_kind(corps.id) == "insurrection" and area not in scenario.counters[corps.id].home:
            raise OrderError(f"{corps.id} is an insurrection corps: it moves only within its border provinces "
                             "(§10.1.4.1.3)")
        enemies = enemy_corps_in(state, scenario, power, area)
        cost = chart.terrain_cost[scenario.areas[area].terrain]
        if enemies and scenario.crosses_river(here, area):
            cost += chart.river_into_enemy  # §7.3.1.3.2
        if cost > left:
            raise OrderError(f"entering {title} costs {cost} movement points and {corps.id} has {left} left "
                             "(§7.3.2.3)")
        left -= cost
        stops = "enemy corps there (§7.3.2.1)" if enemies else ""
        legs.append(Leg(area, cost, stops, stop.change))
        here = area
    return corps, legs
