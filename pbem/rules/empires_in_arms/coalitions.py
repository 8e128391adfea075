"""Several powers in one area (§7.3.8) and allies moving combined (§7.1.2).

§7.3.8 carries the asterisk of a campaign-only rule, but a scenario with allies, minor free
states or a power at peace with both sides has no other rule for an area where a combat is
declared among three or more powers' forces, and §7.1.2 (no asterisk) moves combined allies
by its steps (EIA-I160). Its Step 3, war declared by a third power, is political (§4*) and
left out: a scenario's wars are fixed (§1.3).

Where the phasing sequence's corps stand with enemy corps an attack is declared (Steps 2 and
5). The attacking force is the sequence's powers there and every ally of theirs at war with
all the defending powers (Step 6); the defending force is every power at war with the first
attacker there (Steps 3 and 7). Every other power's corps, cossacks and freikorps leave the
area for the adjacent area closest to their supply (Steps 4 and 6, EIA-I241); garrisons of
cities and depots, the corps inside cities (EIA-I140) and guerrillas stay, ignored.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.movement import may_enter
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState, Irregular
from pbem.rules.empires_in_arms.supply import reach, valid_depots


def lead_attacker(state: GameState, scenario: Scenario, phasing: Sequence[str], area: str) -> str | None:
    """The power of the phasing sequence that declares the attack in `area` (Steps 2, 5):
    the first in the sequence's order whose corps stand there with field forces it is at war
    with (corps, cossacks or freikorps, §7.3.8.2)."""
    here = field_forces(state, area)
    return next((power for power in phasing
                 if any(scenario.major(c.power) == power for c in state.field_corps_in(area))
                 and any(scenario.at_war(power, f.power) for f in here)), None)


def defending_powers(state: GameState, scenario: Scenario, attacker: str, area: str) -> list[str]:
    """The major powers of the defending force (Steps 3, 7): those with field forces in `area`
    at war with the attacker, in the fixed order."""
    found = {scenario.major(f.power) for f in field_forces(state, area) if scenario.at_war(attacker, f.power)}
    return sorted(found, key=scenario.power_order.index)


def field_forces(state: GameState, area: str) -> list[Corps | Irregular]:
    """The corps in the field, cossacks and freikorps in `area` (§7.3.8.2's field forces: corps
    inside its city are not; guerrillas are never attacked, §10.1.1.3)."""
    return [*state.field_corps_in(area), *(i for i in state.irregulars_in(area) if i.kind != "guerrilla")]


def attacking_powers(state: GameState, scenario: Scenario, phasing: Sequence[str], attacker: str,
                     area: str) -> list[str]:
    """The major powers of the attacking force (Steps 5, 6): the attacker, and the powers of
    its sequence and its allies with corps in `area` at war with every defending power;
    the attacker first, then the fixed order."""
    defenders = defending_powers(state, scenario, attacker, area)
    present = {scenario.major(c.power) for c in state.field_corps_in(area)}
    joining = [p for p in scenario.power_order if p != attacker and p in present
               and (p in phasing or scenario.allied(p, attacker))
               and all(scenario.at_war(p, d) for d in defenders)]
    return [attacker, *joining]


def clear_area(ctx: DecisionPort, state: GameState, scenario: Scenario, phasing: Sequence[str], area: str) -> None:
    """Steps 4 and 6: where an attack is declared, the corps, cossacks and freikorps of every
    power neither attacking nor defending leave the area ("all major powers … must now leave
    the area", EIA-I241). Garrisons stay (Step 7), and guerrillas, which nobody attacks
    (§10.1.1.3.1, §10.1.1.3.5)."""
    attacker = lead_attacker(state, scenario, phasing, area)
    if attacker is None:
        return
    sides = {*attacking_powers(state, scenario, phasing, attacker, area),
             *defending_powers(state, scenario, attacker, area)}
    for force in [f for f in field_forces(state, area) if scenario.major(f.power) not in sides]:
        step_aside(ctx, state, scenario, force)


def step_aside(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps | Irregular) -> None:
    """Step 4: the corps (or cossacks, or freikorps) moves to an adjacent area it may enter and
    where none of its enemies' corps stand — for freikorps, of its power's territory
    (§10.1.2.2) — the one closest to a depot of its power's valid chains (if possible no
    further than the area it leaves), the map's order breaking ties (EIA-I162), so a power's
    cossacks and freikorps go where its corps go when they may (EIA-I241); with no such area
    it stays and is ignored in the combat (Step 7)."""
    title = scenario.areas[corps.area].title
    power = scenario.major(corps.power)
    furthest = len(scenario.areas)
    depots = [d.area for d in valid_depots(state, scenario, power)]

    def distance(area: str) -> int:
        near = reach(state, scenario, power, area, furthest)
        return min((near[d] for d in depots if d in near), default=furthest + 1)

    open_areas = [a.id for a in scenario.data.areas if a.id in scenario.neighbours[corps.area]
                  and not may_enter(scenario, corps.power, a.id)
                  and not any(scenario.at_war(corps.power, c.power) for c in state.corps_in(a.id))
                  and not (isinstance(corps, Irregular) and corps.kind == "freikorps" and a.owner != corps.power)]
    if not open_areas:
        ctx.say(f"{corps.power} {corps.id} has no area to leave {title} for: it stays, out of the combat",
                rule="§7.3.8.7")
        return
    corps.area = min(open_areas, key=distance)
    ctx.say(f"{corps.power} {corps.id} is not in the combat in {title} and leaves for "
            f"{scenario.areas[corps.area].title}", rule="§7.3.8.4")


def closed_to_ally(state: GameState, scenario: Scenario, power: str, area: str) -> str:
    """Step 5: a later ally of a combined sequence may not enter an area holding forces of an
    earlier ally where an attack is declared, unless at war with every defending power there
    ("" when it may)."""
    group = scenario.combined_with(power)
    earlier = group[:group.index(power)] if power in group else ()
    attacker = lead_attacker(state, scenario, earlier, area)
    if attacker is None:
        return ""
    peace = [d for d in defending_powers(state, scenario, attacker, area) if not scenario.at_war(power, d)]
    if not peace:
        return ""
    return (f"{attacker} has declared an attack in {scenario.areas[area].title} on {', '.join(peace)}, with which "
            f"{power} is not at war (§7.3.8.5)")
