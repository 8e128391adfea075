"""The Army Reinforcement Step (§5.2): corps counters and army factors the scenario
places, removed corps counters brought back where it designates "a corps counter"
(§5.2.4.1), and scenario money (§5.2.5), power by power in §5.2's order.

Which removed counter comes back, and in which of the arrival's areas, is the `comeback`
decision of the power's player (EIA-I280): `COMEBACK <corps> <area>`, answered by a standing
`POLICY comeback DO COMEBACK …` or when asked; asked only when there is a choice, and by
default the first removed counter in the scenario's order in the arrival's first area.
"""

from __future__ import annotations

from collections.abc import Mapping

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.scenario import LEVY_KINDS, CorpsArrival, Reinforcement, Scenario
from pbem.rules.empires_in_arms.garrisons import add_to_city, city_room
from pbem.rules.empires_in_arms.irregulars import place_irregulars
from pbem.rules.empires_in_arms.leaders import return_leaders
from pbem.rules.empires_in_arms.state import Corps, GameState, Leader
from pbem.rules.empires_in_arms.supply import enemy_corps_in, enemy_forces_in



def army_reinforcement(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§5.2 in the scenario's reinforcement order: money first (§5.2.5), then new corps
    counters (§5.2.1.1) and removed ones brought back (§5.2.4.1), then army factors
    (§5.2.2.1), then leaders off the map (§5.3); a minor free state's with its controller's
    (§7.1.1)."""
    year, month = scenario.date(state.turn)
    for power in [p for major in scenario.data.reinforcement_order for p in scenario.forces_of(major)]:
        amount = sum(m.amount for m in scenario.data.money if (m.power, m.year, m.month) == (power, year, month))
        if amount:
            state.powers[power].money += amount
            ctx.say(f"{power} receives {amount} money points", to=state.owner(power), rule="§5.2.5")
        for counter in scenario.data.corps:
            entry = counter.enters
            if counter.power == power and entry is not None and (entry.year, entry.month) == (year, month):
                place_corps(ctx, state, scenario, counter.id, entry.area, counter.factors)
        for index, arrival in enumerate(scenario.data.corps_arrivals):
            if (arrival.power, arrival.year, arrival.month) == (power, year, month):
                bring_back(ctx, state, scenario, arrival, index)
        place_irregulars(ctx, state, scenario, power)
        for entry in scenario.data.reinforcements:
            if (entry.power, entry.year, entry.month) == (power, year, month):
                place_factors(ctx, state, scenario, entry)
        return_leaders(ctx, state, power)


def place_corps(ctx: DecisionPort, state: GameState, scenario: Scenario, corps_id: str, area: str,
                factors: Mapping[str, int], placed: str = "places corps") -> None:
    """§5.2.1.1: `corps_id` with `factors` in `area` — a new counter, or a removed one brought
    back (§5.2.4.1) —, lost with its factors if the area is enemy-held or holds enemy corps
    (EIA-I3: enemy-held means an enemy garrison, or enemy corps, hold its city, EIA-I140)."""
    counter = scenario.counters[corps_id]
    title = scenario.areas[area].title
    if enemy_forces_in(state, scenario, counter.power, area) and (
            enemy_corps_in(state, scenario, counter.power, area) or state.garrison_in(area) is not None
            or any(scenario.at_war(counter.power, c.power) for c in state.corps_inside(area))):
        ctx.say(f"{counter.power} {corps_id} cannot be placed in {title}: the enemy holds it; it is lost",
                rule="§5.2.1.1")
        return
    state.corps.append(Corps(corps_id, counter.power, counter.movement, area, dict(sorted(factors.items())),
                             dict(sorted(counter.capacity.items()))))
    for leader in scenario.data.leaders:
        if leader.corps == corps_id and not any(lead.id == leader.id for lead in state.leaders):
            state.leaders.append(Leader(leader.id, leader.power, corps_id))
    ctx.say(f"{counter.power} {placed} {corps_id} in {title}", rule="§5.2.1.1")


COMEBACK = "COMEBACK"


def removed_counters(state: GameState, scenario: Scenario, power: str) -> list[str]:
    """§5.2.4.1 (EIA-I280): the power's regular corps counters that have been on the map, or
    were due on it, and are off it now — demobilised (§5.2.4), emptied (§5.2.3), eliminated
    (§7.4.1.3.2, §7.5.5) or lost at their placement (§5.2.1.1) — in the scenario's order. A
    feudal or insurrection corps standing down keeps its own way back (§10.1.3.3), and the
    Tyrol corps never comes back (§10.1.5.1.2)."""
    year, month = scenario.date(state.turn)
    return [c.id for c in scenario.data.corps
            if c.power == power and c.kind == "regular" and state.corps_by_id(c.id) is None
            and (c.enters is None or (c.enters.year, c.enters.month) <= (year, month))]


def _comeback(text: str) -> str | None:
    words = text.split()
    if not words or words[0].upper() != COMEBACK:
        return None
    if len(words) != 3:
        raise Refusal("answer a corps arrival with COMEBACK <corps> <area>")
    return f"{COMEBACK} {words[1]} {words[2]}"


def _check_comeback(request: Request, value: str) -> str:
    """The corps one of the power's removed counters, the area one of the arrival's, as the
    scenario spells them; else a refusal that says why (§5.2.4.1)."""
    _, name, where = value.split()
    power = request.power
    corps = next((c for c in request.options if c.lower() == name.lower()), None)
    if corps is None:
        removed = ", ".join(request.options)
        on_map = next((c for c in request.context["on_map"] if c.lower() == name.lower()), None)
        other = next((p for c, p in request.context["others"].items() if c.lower() == name.lower()), None)
        if on_map is not None:
            raise Refusal(f"{on_map} is on the map: only a removed corps counter comes back (§5.2.4.1); "
                          f"{power}'s removed counters: {removed}")
        if other is not None:
            raise Refusal(f"{name} is a corps counter of {other}, not of {power}: a power brings back only its own "
                          f"(§5.2.4.1); {power}'s removed counters: {removed}")
        raise Refusal(f"{power} has no removed corps counter named {name!r} (§5.2.4.1): {removed}")
    area = next((a for a in request.context["areas"] if a.lower() == where.lower()), None)
    if area is None:
        raise Refusal(f"the corps counter enters in {' or '.join(request.context['areas'])}, not {where} "
                      "(§5.2.4.1)")
    return f"{COMEBACK} {corps} {area}"


COMEBACK_KIND = LineKind(
    "comeback", "the scenario designates a corps counter as your reinforcement: bring back one of your removed "
                "corps counters (§5.2.4.1): COMEBACK <corps> <area>",
    parse=_comeback, form=lambda answer: answer, check=_check_comeback, keywords=(COMEBACK,))


def bring_back(ctx: DecisionPort, state: GameState, scenario: Scenario, arrival: CorpsArrival, index: int) -> None:
    """§5.2.4.1: "In scenarios a corps counter may be brought back on the map when a corps
    counter is designated as a reinforcement." One of the power's removed counters comes back
    with the arrival's factors, as far as its capacity holds them (§5.2.2), placed as a new
    counter is (§5.2.1.1). Its player chooses the counter and the area (`comeback`) when
    there is a choice; the default is the first removed counter in the arrival's first area.
    With no removed counter the arrival is lost (EIA-I280)."""
    power = arrival.power
    holder = state.holder(power)
    to = state.owner(power)
    removed = removed_counters(state, scenario, power)
    where = " or ".join(scenario.areas[a].title for a in arrival.areas)
    if not removed:
        ctx.say(f"{power} has no removed corps counter to bring back in {where}: its corps counter reinforcement "
                "is lost", to=to, rule="§5.2.4.1")
        return
    answer = f"{COMEBACK} {removed[0]} {arrival.areas[0]}"
    if holder is not None and (len(removed) > 1 or len(arrival.areas) > 1):
        on_map = [c.id for c in state.corps if c.power == power]
        others = {c.id: c.power for c in scenario.data.corps if c.power != power}
        answer = ctx.decide(ctx.request(
            kind=COMEBACK_KIND.name, player=holder, power=power, purpose=f"comeback:{index}", default=answer,
            options=tuple(removed), rule="§5.2.4.1",
            context={"areas": list(arrival.areas), "on_map": on_map, "others": others},
            prompt=f"A corps counter is {power}'s reinforcement in {where}: which removed counter comes back, and "
                   f"where? COMEBACK <corps> <area> ({', '.join(removed)})"))
    _, corps_id, area = answer.split()
    capacity = scenario.counters[corps_id].capacity
    factors = {kind: min(count, capacity.get(kind, 0)) for kind, count in arrival.factors.items()}
    lost = sum(arrival.factors.values()) - sum(factors.values())
    if lost == sum(arrival.factors.values()):  # an empty counter is removed at once (§5.2.3)
        ctx.say(f"{corps_id} can hold none of the factors its arrival brings: they are lost and the counter stays "
                "off the map", to=to, rule="§5.2.2")
        return
    if lost:
        ctx.say(f"{corps_id} holds {lost} factors fewer than its arrival brings: they are lost", to=to,
                rule="§5.2.2")
    place_corps(ctx, state, scenario, corps_id, area, {k: n for k, n in factors.items() if n},
                placed="brings back corps")


def place_factors(ctx: DecisionPort, state: GameState, scenario: Scenario, entry: Reinforcement) -> None:
    """§5.2.2.1: to the power's corps in the area as far as their capacity goes, in the
    corps' order, then infantry and militia to the city's garrison as far as it holds
    them (§7.3.3.4); what cannot be placed is lost (§5.2.2). The placement is fixed by
    rule rather than asked (EIA-I10)."""
    title = scenario.areas[entry.area].title
    placed: list[str] = []
    lost = 0
    for kind, count in sorted(entry.factors.items()):
        # feudal and insurrection corps get factors only by levy or prisoner exchange (§5.2.2.2.1)
        for corps in [c for c in state.corps_in(entry.area)
                      if c.power == entry.power and scenario.corps_kind(c.id) not in LEVY_KINDS]:
            room = corps.capacity.get(kind, 0) - corps.factors.get(kind, 0)
            taken = min(room, count)
            if taken > 0:
                corps.factors[kind] = corps.factors.get(kind, 0) + taken
                corps.factors = dict(sorted(corps.factors.items()))
                placed.append(f"{taken} {kind} to {corps.id}")
                count -= taken
        if count and kind in ("INF", "MIL"):  # garrison factors (§7.3.3.3)
            count -= _to_garrison(state, scenario, entry, kind, count, placed)
        lost += count
    ctx.say(f"{entry.power} reinforcements in {title}: " + (", ".join(placed) or "none placed")
            + (f"; {lost} factors cannot be placed and are lost" if lost else ""),
            to=state.owner(entry.power), rule="§5.2.2.1")


def _to_garrison(state: GameState, scenario: Scenario, entry: Reinforcement, kind: str, count: int,
                 placed: list[str]) -> int:
    """Into the area's own or vacant city as far as it holds them, while no enemy corps
    stands in the area (EIA-I3: the city is then not the enemy's to refuse them)."""
    if enemy_corps_in(state, scenario, entry.power, entry.area):
        return 0
    taken = min(count, city_room(state, scenario, entry.power, entry.area))
    if taken > 0:
        add_to_city(state, entry.power, entry.area, kind, taken)
        placed.append(f"{taken} {kind} to the garrison of {scenario.areas[entry.area].city.name}")
    return max(taken, 0)
