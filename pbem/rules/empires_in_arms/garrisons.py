"""Garrisons (§7.3.3): factors a corps detaches into a city or onto its own depot as it
moves, or absorbs from them, and depot garrisons that take refuge in a city."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.rules.empires_in_arms.movement import OrderError
from pbem.rules.empires_in_arms.orders import Change
from pbem.rules.empires_in_arms.scenario import LEVY_KINDS, Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState, Garrison
from pbem.rules.empires_in_arms.supply import enemy_corps_in

#: §7.3.3.3: garrisons are infantry and militia; §7.3.3.2: cavalry and guard detached as
#: garrisons become infantry for the rest of the game; artillery is never detached.
AS_GARRISON = {"INF": "INF", "MIL": "MIL", "CAV": "INF", "GRD": "INF"}
DEPOT_CAPACITY = 10  # §7.3.3.5


@dataclass(frozen=True)
class Detached:
    """Factors a corps left on its way (§7.4.1.3.1 may still take forage losses from them)."""

    area: str
    kind: str  # as the garrison holds them
    count: int
    on_depot: bool


def city_room(state: GameState, scenario: Scenario, power: str, area: str, *, allies: bool = False) -> int:
    """How many factors of `power` the area's city may still take: its own or a vacant
    city (§7.3.3), or with `allies` an ally's too — a corps goes inside an allied city, a
    garrison factor never joins an ally's garrison (EIA-I220) — up to 5 × its spires
    (§7.3.3.4) less its garrison and the corps inside; 0 when there is none."""
    city = scenario.areas[area].city
    holder = state.city_holder(area)
    if city is None or (holder is not None and holder != power
                        and not (allies and scenario.allied(holder, power))):
        return 0
    return max(0, 5 * city.spires - city_factors(state, area))


def city_factors(state: GameState, area: str) -> int:
    """The factors in the city of `area`: its garrison's, and the corps' and irregulars'
    inside, which count too (§7.5.1.1.4, §7.4.5.1)."""
    garrison = state.garrison_in(area)
    return (garrison.strength if garrison is not None else 0) + sum(c.strength for c in state.besieged_in(area))


def add_to_city(state: GameState, power: str, area: str, kind: str, count: int) -> None:
    garrison = next((g for g in state.garrisons if g.area == area), None)
    if garrison is None or (garrison.power != power and not garrison.strength):
        if garrison is not None:
            state.garrisons.remove(garrison)
        garrison = Garrison(power, area, {})
        state.garrisons.append(garrison)
    garrison.factors[kind] = garrison.factors.get(kind, 0) + count
    garrison.factors = dict(sorted(garrison.factors.items()))


def garrison_into_city(state: GameState, scenario: Scenario, power: str, area: str, factors: int) -> int:
    """Move up to `factors` depot garrison factors (counted as infantry, EIA-I5) into the
    area's city as far as it holds them; how many went in."""
    moved = min(city_room(state, scenario, power, area), max(factors, 0))
    if moved:
        add_to_city(state, power, area, "INF", moved)
    return moved


def no_exchange(scenario: Scenario, corps: Corps) -> None:
    """Feudal and insurrection corps neither detach, absorb nor exchange factors (§7.3.3,
    §5.2.3, §10.1.3.4, §10.1.4.2)."""
    kind = scenario.corps_kind(corps.id)
    if kind in LEVY_KINDS:
        raise OrderError(f"{corps.id} is a {kind} corps: it neither detaches, absorbs nor exchanges factors "
                         f"({'§10.1.3.4' if kind == 'feudal' else '§10.1.4.2'})")


def minor_at_home(state: GameState, scenario: Scenario, power: str) -> bool:
    """Whether `power` is a minor free state whose garrisons stay in its own country
    (§7.3.3.1.1, §7.3.3.5.2, §7.5.4.1.2.3.1) — unless option 12.3.8 lets them garrison outside
    its borders (EIA-I223)."""
    return scenario.powers[power].controller is not None and state.options.get("minor_garrisons") != "yes"


def minor_exchanges_at_home(state: GameState, scenario: Scenario, corps: Corps, verb: str) -> None:
    """§7.3.3.1.1: a minor free state's forces detach and absorb only in their own country,
    where its factors may garrison its controller's depots too (§7.3.3.5.2); `OrderError`
    elsewhere, unless option 12.3.8 is on (EIA-I223)."""
    power = scenario.powers[corps.power]
    if minor_at_home(state, scenario, corps.power) and scenario.areas[corps.area].owner != corps.power:
        raise OrderError(f"{corps.id} is a corps of the minor free state {power.name}: it may {verb} only within "
                         f"its own country, not in {scenario.areas[corps.area].title} (§7.3.3.1.1)")


def detach(state: GameState, scenario: Scenario, corps: Corps, count: int, kind: str, *,
           may_empty: bool = False) -> Detached:
    """§7.3.3: a corps leaves `count` factors of `kind` as a garrison in an unbesieged
    friendly or vacant city of its area, or else on its own depot there; never artillery
    (§7.3.3.2), never infantry or militia where enemy corps stand outside the city
    (§7.3.3.1), never the corps' last factor while moving (§7.3.3.1.2; `may_empty` in the
    Army Reinforcement Step, which then removes the corps, §5.2.3)."""
    title = scenario.areas[corps.area].title
    no_exchange(scenario, corps)
    if kind not in AS_GARRISON:
        raise OrderError(f"{kind} factors cannot be detached as a garrison (§7.3.3.2, §7.3.3.3)")
    if count < 1 or corps.factors.get(kind, 0) < count:
        raise OrderError(f"{corps.id} has {corps.factors.get(kind, 0)} {kind} to detach, not {count}")
    if count >= corps.strength and not may_empty:
        raise OrderError(f"detaching cannot empty {corps.id}: a corps keeps at least one factor (§7.3.3.1.2)")
    minor_exchanges_at_home(state, scenario, corps, "detach")
    if AS_GARRISON[kind] in ("INF", "MIL") and enemy_corps_in(state, scenario, corps.power, corps.area):
        raise OrderError(f"infantry and militia cannot be detached in {title}: enemy corps are there (§7.3.3.1)")
    garrison_kind = AS_GARRISON[kind]
    if city_room(state, scenario, corps.power, corps.area) >= count:
        add_to_city(state, corps.power, corps.area, garrison_kind, count)
        on_depot = False
    else:
        depot = state.depot_in(corps.area)
        if depot is None or depot.power != scenario.major(corps.power) or depot.garrison + count > DEPOT_CAPACITY:
            raise OrderError(f"there is no city of {corps.power} or vacant city, nor a depot of {corps.power}, in "
                             f"{title} with room for {count} more factors (§7.3.3, §7.3.3.4, §7.3.3.5)")
        depot.garrison += count
        on_depot = True
    corps.factors[kind] -= count
    corps.factors = {k: n for k, n in corps.factors.items() if n}
    return Detached(corps.area, garrison_kind, count, on_depot)


def absorb(state: GameState, scenario: Scenario, corps: Corps, count: int, kind: str) -> None:
    """§7.3.3: a corps takes factors from its power's garrison in the area's city, or else
    from its own depot there, as far as its capacity allows; never infantry or militia where
    enemy corps stand outside the city (§7.3.3.1)."""
    title = scenario.areas[corps.area].title
    no_exchange(scenario, corps)
    if kind not in ("INF", "MIL"):
        raise OrderError(f"garrisons hold infantry and militia only, not {kind} (§7.3.3.3)")
    room = corps.capacity.get(kind, 0) - corps.factors.get(kind, 0)
    if count < 1 or count > room:
        raise OrderError(f"{corps.id} has room for {max(room, 0)} more {kind}, not {count} (§7.3.3)")
    if enemy_corps_in(state, scenario, corps.power, corps.area):
        raise OrderError(f"infantry and militia cannot be absorbed in {title}: enemy corps are there (§7.3.3.1)")
    minor_exchanges_at_home(state, scenario, corps, "absorb")
    garrison = state.garrison_in(corps.area)
    depot = state.depot_in(corps.area)
    if garrison is not None and garrison.power == corps.power and garrison.factors.get(kind, 0) >= count:
        garrison.factors[kind] -= count
        garrison.factors = {k: n for k, n in garrison.factors.items() if n}
    elif kind == "INF" and depot is not None and depot.power == scenario.major(corps.power) \
            and depot.garrison >= count:
        depot.garrison -= count  # depot garrisons are infantry (EIA-I5)
    else:
        raise OrderError(f"no garrison of {corps.power} in {title} holds {count} {kind} (§7.3.3)")
    corps.factors[kind] = corps.factors.get(kind, 0) + count
    corps.factors = dict(sorted(corps.factors.items()))


def change_garrison(state: GameState, scenario: Scenario, corps: Corps, change: Change) -> Detached | None:
    """A path's DETACH or ABSORB (§7.3.3); what was detached, if anything."""
    if change.verb == "DETACH":
        return detach(state, scenario, corps, change.count, change.kind)
    absorb(state, scenario, corps, change.count, change.kind)
    return None


def take_back(state: GameState, detached: Detached, count: int) -> int:
    """Remove up to `count` of the factors once detached (a forage loss, §7.4.1.3.1) from
    the garrison that holds them; how many were still there."""
    if detached.on_depot:
        depot = state.depot_in(detached.area)
        taken = min(count, depot.garrison if depot else 0)
        if depot is not None:
            depot.garrison -= taken
        return taken
    garrison = state.garrison_in(detached.area)
    taken = min(count, garrison.factors.get(detached.kind, 0) if garrison else 0)
    if garrison is not None and taken:
        garrison.factors[detached.kind] -= taken
        garrison.factors = {k: n for k, n in garrison.factors.items() if n}
    return taken
