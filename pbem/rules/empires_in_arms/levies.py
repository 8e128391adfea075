"""Turkish feudal and Austrian insurrection corps (§10.1.3, §10.1.4): corps that neither
detach, absorb nor exchange factors (`garrisons.no_exchange`), get no scenario reinforcements
(§5.2.2.2.1), and may stand down off the map in their power's Land Movement Step. A feudal
corps comes back in its home province in a later one (§10.1.3.3); an insurrection corps keeps
to its border provinces (§10.1.4.1.3) and stands down when a retreat takes it out of them.
An insurrection corps off the map is placed by its owner when an enemy corps, cossack or
freikorps enters its border provinces (§10.1.4.1): the `insurrection` reaction. Their December
levy (§10.1.3.1, §10.1.4.3) is campaign-only.
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.area_answers import area_answer_kind
from pbem.rules.empires_in_arms.movement import OrderError, area_named, own_corps
from pbem.rules.empires_in_arms.orders import Return, StandDown
from pbem.rules.empires_in_arms.removal import successor
from pbem.rules.empires_in_arms.scenario import LEVY_KINDS, Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState, Irregular


def stand_down(state: GameState, scenario: Scenario, power: str, order: StandDown) -> str:
    """§10.1.3.2, §10.1.4.2: a feudal or insurrection corps leaves the map with its factors,
    unless it is besieged in a city; its leaders join another corps of the power in the field
    or the city it leaves, or leave the map (EIA-I7)."""
    corps = own_corps(state, power, order.corps)
    kind = scenario.corps_kind(corps.id)
    if kind not in LEVY_KINDS:
        raise OrderError(f"{corps.id} is no feudal or insurrection corps: only they stand down "
                         "(§10.1.3.2, §10.1.4.2)")
    if state.besieged(corps):
        raise OrderError(f"{corps.id} is besieged in the city of {scenario.areas[corps.area].title}: a besieged "
                         "corps may not stand down (§10.1.3.2)")
    state.corps.remove(corps)
    state.stood_down.append(corps)
    other = successor(state, corps)
    for leader in state.leaders:
        if leader.corps == corps.id:
            leader.corps = other.id if other else None
    return f"{power}'s {kind} corps {corps.id} stands down off the map"


def return_corps(state: GameState, scenario: Scenario, power: str, order: Return) -> Corps:
    """§10.1.3.3: a feudal corps that stood down comes back to an area of its home province
    holding no unbesieged enemy corps (§10.1.3.3.1; EIA-I3: the province stays its power's);
    it may not move this turn (§10.1.3.3.2). An insurrection corps comes back only when
    activated (§10.1.4.2). The Tyrol corps is placed by the same order (§10.1.5, `tyrol_area`),
    once in a scenario: removed, it never comes back (§10.1.5.1.2)."""
    corps = next((c for c in state.stood_down if c.id.lower() == order.corps.lower() and c.power == power), None)
    if corps is None:
        tyrol = next((c for c in scenario.data.corps if c.id.lower() == order.corps.lower() and c.power == power
                      and c.kind == "tyrol"), None)
        if tyrol is not None and state.corps_by_id(tyrol.id) is None:
            raise OrderError(f"{tyrol.id} has been removed from the map: it is not placed again in this war "
                             "(§10.1.5.1.2)")
        raise OrderError(f"{power} has no corps named {order.corps!r} stood down off the map (§10.1.3.3)")
    counter = scenario.counters[corps.id]
    if counter.kind == "tyrol":
        place(state, corps, tyrol_area(state, scenario, corps, order.area))
        return corps
    if counter.kind == "insurrection":
        raise OrderError(f"{corps.id} is an insurrection corps: after standing down it returns only when the enemy "
                         "enters its border provinces (§10.1.4.2)")
    area = area_named(scenario, order.area)
    if area not in counter.home:
        raise OrderError(f"{corps.id} comes back only in its home province: "
                         f"{', '.join(scenario.areas[a].title for a in counter.home)} (§10.1.3.3.1)")
    held = [a for a in counter.home
            if any(scenario.at_war(power, c.power) and not state.besieged(c) for c in state.corps_in(a))]
    if held:
        raise OrderError(f"{corps.id}'s home province holds enemy corps in {scenario.areas[held[0]].title} "
                         "(§10.1.3.3.1)")
    place(state, corps, area)
    return corps


def tyrol_area(state: GameState, scenario: Scenario, corps: Corps, name: str) -> str:
    """§10.1.5: "If a major power to which the Tyrol province has been ceded goes to war with
    Austria, the Austrian player may … place the Tyrol corps marker in any Tyrol area that does
    not contain an enemy corps." A scenario states the ceded Tyrol as data (EIA-I242): the
    Tyrol corps' home areas, owned by the power they were ceded to (EIA-I3); its wars are
    fixed, so the corps may be placed from its first month while that power, or the major
    power controlling it, is at war with the corps' own. The area placed in, or `OrderError`."""
    home = scenario.counters[corps.id].home
    ceded = sorted({owner for a in home if (owner := scenario.areas[a].owner) and owner != corps.power},
                   key=list(scenario.powers).index)  # the scenario's order of powers
    if not any(scenario.at_war(corps.power, owner) for owner in ceded):
        raise OrderError(f"{corps.id} is placed only when a power the Tyrol has been ceded to is at war with "
                         f"{corps.power} (§10.1.5)" + (f": {', '.join(ceded)} is not" if ceded else
                                                        ": the Tyrol has not been ceded"))
    area = area_named(scenario, name)
    title = scenario.areas[area].title
    if area not in home:
        raise OrderError(f"{corps.id} is placed in a Tyrol area: {', '.join(scenario.areas[a].title for a in home)} "
                         "(§10.1.5)")
    if any(scenario.at_war(corps.power, c.power) for c in state.corps_in(area)):
        raise OrderError(f"{title} holds an enemy corps: the Tyrol corps is placed in a Tyrol area that does not "
                         "(§10.1.5)")
    return area


def place(state: GameState, corps: Corps, area: str) -> None:
    """A corps that stood down back on the map; it does not move this turn (§10.1.3.3.2,
    §10.1.4.1.4)."""
    state.stood_down.remove(corps)
    corps.area, corps.inside = area, False  # back in the field, whatever city it stood down from
    state.corps.append(corps)
    state.placed[corps.id] = state.turn


INSURRECTION, HERE, NONE = "INSURRECTION", "HERE", "NONE"


INSURRECTION_KIND = area_answer_kind(
    "insurrection", "an enemy enters the border provinces of your insurrection corps off the map: place them "
                    "(§10.1.4.1): INSURRECTION <area> | INSURRECTION HERE | INSURRECTION NONE",
    INSURRECTION, (HERE, NONE),
    usage="answer an enemy entering your border provinces with INSURRECTION <area>, INSURRECTION HERE or "
          "INSURRECTION NONE",
    outside="the insurrection corps are placed within their border provinces: {areas} (§10.1.4.1)")


def activation(ctx: DecisionPort, state: GameState, scenario: Scenario, mover: Corps | Irregular) -> bool:
    """§10.1.4.1: "immediately after" an enemy corps, cossack or freikorps enters an area of the
    border provinces of insurrection corps off the map, their owner may place them there or
    anywhere else within those provinces, at their strength (`insurrection`, answered by a
    standing `POLICY insurrection …` or when asked; default NONE, since they "need not be placed
    at the first opportunity", §10.1.4.1.2). True when a corps must then stop: they were placed
    where it stands (§10.1.4.1.1; not cossacks or freikorps)."""
    waiting = [c for c in state.stood_down if scenario.corps_kind(c.id) == "insurrection"
               and mover.area in scenario.counters[c.id].home and scenario.at_war(mover.power, c.power)]
    stop = False
    for power in scenario.in_fixed_order(c.power for c in waiting):
        holder = state.holder(power)
        if holder is None:
            continue
        own = [c for c in waiting if c.power == power]
        home = [a for a in scenario.areas if any(a in scenario.counters[c.id].home for c in own)]
        title = scenario.areas[mover.area].title
        answer = ctx.decide(ctx.request(
            kind=INSURRECTION_KIND.name, player=holder, power=power, purpose=f"insurrection:{mover.area}",
            default=f"{INSURRECTION} {NONE}", options=tuple(home), rule="§10.1.4.1",
            context={"area": mover.area, "enemy": mover.power, "corps": mover.id},
            prompt=f"{mover.power} {mover.id} enters {title}: place {', '.join(c.id for c in own)} there "
                   f"(INSURRECTION HERE), elsewhere in {', '.join(home)} (INSURRECTION <area>), or not yet "
                   "(INSURRECTION NONE)?"))
        where = answer.split()[1]
        if where == NONE:
            continue
        area = mover.area if where == HERE else where
        for corps in own:
            place(state, corps, area)
        ctx.say(f"{power} raises its insurrection corps {', '.join(c.id for c in own)} in "
                f"{scenario.areas[area].title} as {mover.power} {mover.id} enters {title}", rule="§10.1.4.1")
        stop = stop or (area == mover.area and isinstance(mover, Corps))
    return stop


def out_of_bounds(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§10.1.4.1.3: an insurrection corps a retreat took out of its border provinces stands
    down at once."""
    for corps in [c for c in state.corps if scenario.corps_kind(c.id) == "insurrection"
                  and c.area not in scenario.counters[c.id].home]:
        ctx.say(stand_down(state, scenario, corps.power, StandDown(corps.id))
                + ": a retreat took it out of its border provinces", rule="§10.1.4.1.3")
