"""Cossacks, freikorps and guerrillas (§10.1.1, §10.1.2): small counters of factors shown on
their face, which move on their own rules (§7.3.1.1, §7.3.2.2, §10.1.1.3.4, §10.1.2.2), block
enemy supply (§7.2.3.2.1) but need none (§7.4), and fight as the combat rules say (§7.5.1.2).
A scenario places them (`[[irregulars]]`); their creation in a Levy Step (§10.1.2.1) is
campaign-only. The Guerrilla Step of a power sequence (§7.6) is here too.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.area_answers import area_answer_kind
from pbem.rules.empires_in_arms.besieging import besieging
from pbem.rules.empires_in_arms.depots import enemy_depot_garrison
from pbem.rules.empires_in_arms.movement import OrderError, area_named, may_enter
from pbem.rules.empires_in_arms.orders import Move
from pbem.rules.empires_in_arms.scenario import Province, Scenario
from pbem.rules.empires_in_arms.state import GameState, Irregular
from pbem.rules.empires_in_arms.supply import enemy_corps_in, enemy_irregulars_in

#: The counters that fight in field combats (§7.5.1.2); guerrillas only attack by choice (§10.1.1.3).
FIELD_KINDS = ("cossack", "freikorps")
NAMES = {"cossack": "cossacks", "freikorps": "freikorps", "guerrilla": "guerrillas"}


def own_irregular(state: GameState, scenario: Scenario, power: str, name: str) -> Irregular | None:
    """The irregular counter a player named, in any case; None when the name is no irregular's.
    `OrderError` when it is neither the power's nor a minor free state's it controls (§7.1.1)."""
    found = next((i for i in state.irregulars if i.id.lower() == name.lower()), None)
    if found is not None and scenario.major(found.power) != power:
        raise OrderError(f"{found.id} is a {found.kind} counter of {found.power}, not of {power}")
    return found


def field_irregulars(state: GameState, scenario: Scenario, area: str, powers: set[str]) -> list[Irregular]:
    """The cossacks and freikorps in `area` of `powers` and the minor free states they control
    (§7.1.1), and guerrillas their player sends to attack: the irregulars of a combat (§7.5.1.2,
    §10.1.1.3)."""
    return [i for i in state.irregulars_in(area)
            if scenario.major(i.power) in powers and (i.kind in FIELD_KINDS or i.attacks)]


def check_guerrilla_attack(state: GameState, scenario: Scenario, power: str, name: str, factors: int | None = None,
                          with_siege: bool = False) -> str:
    """§10.1.1.3: guerrillas "may attack if the controlling player chooses to use some or all
    of the guerrilla factors present": the power's guerrillas in the area, once its moves are
    made, at least `factors` of them (None: all), and enemy forces there to attack (corps,
    cossacks, freikorps or a depot garrison) — or an enemy city its corps there besiege
    (`with_siege`: "only in conjunction with friendly corps", §10.1.1.3.3). Returns the area,
    or `OrderError`."""
    area = area_named(scenario, name)
    title = scenario.areas[area].title
    present = sum(i.factors for i in state.irregulars_in(area) if scenario.major(i.power) == power
                  and i.kind == "guerrilla")
    if not present:
        raise OrderError(f"{power} has no guerrillas in {title} (§10.1.1.3)")
    if factors is not None and not 1 <= factors <= present:
        raise OrderError(f"{power} has {present} guerrilla factors in {title}: it may send 1 to {present} "
                         "(§10.1.1.3)")
    if with_siege or enemy_corps_in(state, scenario, power, area) \
            or any(i.kind in FIELD_KINDS for i in enemy_irregulars_in(state, scenario, power, area)) \
            or enemy_depot_garrison(state, scenario, power, area):
        return area
    holder = state.city_holder(area)
    if holder is not None and scenario.at_war(power, holder):
        raise OrderError(f"guerrillas may besiege the city of {title} only in conjunction with friendly corps: "
                         "no corps of the power besieges it (§10.1.1.3.3)")
    raise OrderError(f"no enemy forces stand in {title} for the guerrillas to attack (§10.1.1.3)")


#: The suffix of the part of a power's guerrillas it sends when it sends only some (§10.1.1.3).
SENT = "-A"


def send_guerrillas(state: GameState, scenario: Scenario, power: str, sends: dict[str, int | None]) -> None:
    """The guerrillas of the power and its minor free states (§7.1.1) in the areas of `sends`
    attack in its Land Combat Step, all of them or as many factors as it names ("some or all",
    §10.1.1.3, EIA-I189), and no others. Guerrilla factors are interchangeable (§2.4.1): the
    factors sent from a counter that sends only part of them form a counter of their own, named
    with `SENT`, which joins its counter again when `sends` is empty — after the step — or,
    where that counter is not, the guerrillas where it stands (`add_guerrillas`)."""
    own = [i for i in state.irregulars if scenario.major(i.power) == power and i.kind == "guerrilla"]
    for part in [i for i in own if i.id.endswith(SENT)]:
        whole = state.irregular_by_id(part.id.removesuffix(SENT))
        state.irregulars.remove(part)
        if whole is not None and whole.area == part.area:
            whole.factors += part.factors
        else:  # it retreated or its counter is gone: it joins the guerrillas where it stands
            add_guerrillas(state, scenario, part.power, part.area, part.factors)
    for irregular in [i for i in state.irregulars if scenario.major(i.power) == power and i.kind == "guerrilla"]:
        irregular.attacks = False
    for area, factors in sends.items():
        left = factors
        for irregular in [i for i in state.irregulars_in(area)
                          if scenario.major(i.power) == power and i.kind == "guerrilla"]:
            if left is not None and left < irregular.factors:
                if left:
                    irregular.factors -= left
                    part = Irregular(irregular.id + SENT, irregular.power, "guerrilla", area, left, attacks=True)
                    state.irregulars.insert(state.irregulars.index(irregular) + 1, part)
                break
            irregular.attacks = True
            left = None if left is None else left - irregular.factors


def trace_irregular(state: GameState, scenario: Scenario, irregular: Irregular, move: Move) -> list[str]:
    """Check an irregular's move and return the areas it enters. Cossacks and freikorps have the
    cavalry's five movement points, never force march, and pass enemy forces without stopping
    (§7.3.1.1, §7.3.1.2, §7.3.2.2, §10.1.2.2), paying the river's extra point into enemy corps
    (§7.3.1.3.2); freikorps keep to their power's territory
    (§10.1.2.2; EIA-I3: a scenario's control is its ownership). Guerrillas move one adjacent
    area whatever its terrain and never leave their power's territory (§10.1.1.3.4). None
    detaches or absorbs: only corps do (§7.3.3)."""
    name = NAMES[irregular.kind]
    if move.force:
        raise OrderError(f"{name} may not force march (§7.3.1.2)")
    if any(stop.change for stop in move.path):
        raise OrderError(f"{irregular.id} is {name}: only a corps detaches or absorbs factors (§7.3.3)")
    chart = scenario.charts.movement
    left = 1 if irregular.kind == "guerrilla" else chart.allowance["cavalry"]
    here, entered = irregular.area, []
    for i, stop in enumerate(move.path):
        area = area_named(scenario, stop.area)
        title = scenario.areas[area].title
        if i == 0 and area == here:
            continue
        if area not in scenario.neighbours[here]:
            raise OrderError(f"{title} is not next to {scenario.areas[here].title}")
        why = may_enter(scenario, irregular.power, area)
        if why:
            raise OrderError(why)
        owner = scenario.areas[area].owner
        if irregular.kind == "guerrilla":
            if owner != irregular.power:
                raise OrderError(f"guerrillas never leave {irregular.power}'s territory (§10.1.1.3.4)")
            cost = 1  # "one adjacent area (regardless of terrain)"
        else:
            if irregular.kind == "freikorps" and owner != irregular.power:
                raise OrderError(f"freikorps operate only within {irregular.power}'s territory (§10.1.2.2)")
            cost = chart.terrain_cost[scenario.areas[area].terrain]
            if enemy_corps_in(state, scenario, irregular.power, area) and scenario.crosses_river(here, area):
                cost += chart.river_into_enemy  # §7.3.1.3.2
        if cost > left:
            raise OrderError(f"entering {title} costs {cost} movement points and {irregular.id} has {left} left "
                             f"({'§10.1.1.3.4' if irregular.kind == 'guerrilla' else '§7.3.2.3'})")
        left -= cost
        entered.append(area)
        here = area
    return entered


def place_irregulars(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str) -> None:
    """§10.1.2: the cossacks, freikorps and guerrillas the scenario directs to arrive this
    month, placed as a corps counter is (§5.2.1.1): lost where enemy corps stand."""
    year, month = scenario.date(state.turn)
    for counter in scenario.data.irregulars:
        entry = counter.enters
        if counter.power != power or entry is None or (entry.year, entry.month) != (year, month):
            continue
        title = scenario.areas[entry.area].title
        if any(scenario.at_war(power, c.power) for c in state.corps_in(entry.area)):
            ctx.say(f"{power} {NAMES[counter.kind]} {counter.id} cannot be placed in {title}: enemy corps stand "
                    "there; it is lost", rule="§5.2.1.1")
            continue
        state.irregulars.append(Irregular(counter.id, power, counter.kind, entry.area, counter.factors))
        ctx.say(f"{power} places {NAMES[counter.kind]} {counter.id} ({counter.factors}) in {title}", rule="§10.1.2")


def lose_factors(ctx: DecisionPort, state: GameState, irregular: Irregular, count: int, cause: str) -> None:
    """An irregular counter loses factors; with none left it leaves the map."""
    irregular.factors = max(irregular.factors - count, 0)
    if not irregular.factors:
        state.irregulars.remove(irregular)
        ctx.say(f"{irregular.power} {NAMES[irregular.kind]} {irregular.id} are eliminated {cause}", rule="§7.5.5")


# -- retreat before combat (§10.1.2.2.3) -----------------------------------------------------
EVADE, ANY, NONE = "EVADE", "ANY", "NONE"


EVADE_KIND = area_answer_kind(
    "evade", "your cossacks or freikorps, alone in an area, are attacked: retreat them before the combat "
             "(§10.1.2.2.3): EVADE <area> | EVADE ANY | EVADE NONE", EVADE, (ANY, NONE),
    usage="answer cossacks or freikorps attacked alone with EVADE <area>, EVADE ANY or EVADE NONE",
    outside="the counters may retreat only to {areas} (§10.1.2.2.3)")


def evade_before_combat(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, attacker: str,
                        escape: int) -> None:
    """§10.1.2.2.3: unbesieged cossacks and freikorps alone in `area` when `attacker` attacks
    may retreat before any combat into an adjacent area holding no enemy corps; against a force
    with a corps bearing the cavalry symbol only on a die of `escape` or less, rolled once for
    the cossacks and once for the freikorps. Each owner answers for his counters (`evade`): by a
    standing `POLICY evade …` or when asked; the default is to stay (EIA-I187)."""
    counters = [i for i in state.irregulars_in(area) if i.kind in FIELD_KINDS and scenario.at_war(attacker, i.power)]
    # alone in the field: corps of their side inside the city take no part (§7.5.1.2)
    if not counters or any(scenario.at_war(attacker, c.power) for c in state.field_corps_in(area)) \
            or enemy_depot_garrison(state, scenario, attacker, area):
        return
    cavalry = any(c.power == attacker and c.movement == "cavalry" for c in state.field_corps_in(area))
    for power in scenario.in_fixed_order(i.power for i in counters):
        own = [i for i in counters if i.power == power]
        areas = [a for a in scenario.neighbours[area] if retreat_open(state, scenario, own, a)]
        holder = state.holder(power)
        if not areas or holder is None:
            continue
        title = scenario.areas[area].title
        answer = ctx.decide(ctx.request(
            kind=EVADE_KIND.name, player=holder, power=power, purpose=f"evade:{area}", default=f"{EVADE} {NONE}",
            options=tuple(areas), rule="§10.1.2.2.3", context={"area": area, "enemy": attacker},
            prompt=f"{attacker} attacks your {', '.join(i.id for i in own)} alone in {title}: retreat them before "
                   f"the combat to {', '.join(areas)} (EVADE <area> or EVADE ANY), or stay (EVADE NONE)?"))
        where = answer.split()[1]
        if where == NONE:
            ctx.say(f"{power}'s {', '.join(i.id for i in own)} stay in {title}", rule="§10.1.2.2.3")
            continue
        prefer = [a for a in state.powers[power].withdrawal if a in areas]
        target = where if where in areas else next(iter(prefer), areas[0])
        for kind in sorted({i.kind for i in own}):
            group = [i for i in own if i.kind == kind]
            die = ctx.roll("evade", rule="§10.1.2.2.3") if cavalry else None
            if die is not None and die > escape:
                ctx.say(f"{power}'s {NAMES[kind]} cannot retreat before the enemy cavalry (die {die})",
                        rule="§10.1.2.2.3")
                continue
            for irregular in group:
                irregular.area = target
            ctx.say(f"{power}'s {NAMES[kind]} {', '.join(i.id for i in group)} retreat before the combat to "
                    f"{scenario.areas[target].title}", rule="§10.1.2.2.3")


def retreat_open(state: GameState, scenario: Scenario, counters: list[Irregular], area: str) -> bool:
    """An adjacent area the counters may retreat into: no unbesieged enemy corps there, open to
    their power (§10.3), and for freikorps their power's territory (§10.1.2.2)."""
    power = counters[0].power
    if any(scenario.at_war(power, c.power) and not state.besieged(c) for c in state.corps_in(area)) \
            or may_enter(scenario, power, area):
        return False
    return all(i.kind != "freikorps" or scenario.areas[area].owner == power for i in counters)


# -- the Guerrilla Step (§7.6, §10.1.1) -------------------------------------------------------
def guerrilla_step(ctx: DecisionPort, state: GameState, scenario: Scenario, powers: Sequence[str],
                   fought: set[str]) -> None:
    """§7.6: in the Guerrilla Step of the phasing sequence (`powers`, several when allies move
    combined, §7.1.2), the guerrillas of each of its powers and of the minor free states they
    control (§7.1.1) are removed when no enemy factor is left in that nation's territory
    (§10.1.1.4), or else raised in each of its provinces an enemy corps or garrison holds
    (§10.1.1.1.2); and the sequence, "treated as one major power", mounts an anti-guerrilla
    operation in each enemy province where its corps that fought no combat this step stand
    (§10.1.1.2). `fought` names the corps that took part in a combat of its Land Combat Step."""
    for nation in [n for power in powers for n in scenario.forces_of(power)]:
        provinces = [p for p in scenario.data.provinces if p.power == nation]
        if not provinces:
            continue
        if not any(_enemy_factors(state, scenario, nation, a) for a in scenario.areas
                   if scenario.areas[a].owner == nation):
            removed = [i for i in state.irregulars if i.power == nation and i.kind == "guerrilla"]
            for guerrilla in removed:
                state.irregulars.remove(guerrilla)
            if removed:
                ctx.say(f"no enemy is left in {nation}'s territory: its guerrillas leave the map", rule="§10.1.1.4")
        else:
            for province in provinces:
                raise_guerrillas(ctx, state, scenario, province)
    for province in scenario.data.provinces:
        if any(scenario.at_war(power, province.power) for power in powers):
            anti_guerrilla(ctx, state, scenario, powers, province, fought)


def _enemy_factors(state: GameState, scenario: Scenario, power: str, area: str) -> bool:
    garrison = state.garrison_in(area)
    return bool(any(scenario.at_war(power, c.power) for c in state.corps_in(area))
                or enemy_irregulars_in(state, scenario, power, area)
                or (garrison is not None and scenario.at_war(power, garrison.power))
                or enemy_depot_garrison(state, scenario, power, area))


def raise_guerrillas(ctx: DecisionPort, state: GameState, scenario: Scenario, province: Province) -> None:
    """§10.1.1.1.2: a province holding an unbesieged enemy corps or garrison rolls a die; each
    point below its guerrilla value is one guerrilla factor, placed in the first of its areas
    where an enemy stands (the map's order; where is not asked, EIA-I182)."""
    power = province.power
    held = [a for a in province.areas
            if any(scenario.at_war(power, c.power) and not state.besieged(c) for c in state.corps_in(a))
            or ((g := state.garrison_in(a)) is not None and scenario.at_war(power, g.power)
                and state.siege_in(a) is None)]
    if not held:
        return
    die = ctx.roll("guerrillas", rule="§10.1.1.1.2")
    raised = max(province.guerrilla - die, 0)
    if not raised:
        ctx.say(f"no guerrillas rise in {province.name} (die {die}, value {province.guerrilla})", rule="§10.1.1.1.2")
        return
    add_guerrillas(state, scenario, power, held[0], raised)
    ctx.say(f"{raised} guerrilla factor{'s' if raised > 1 else ''} rise in {province.name} "
            f"({scenario.areas[held[0]].title}; die {die}, value {province.guerrilla})", rule="§10.1.1.1.2")


def add_guerrillas(state: GameState, scenario: Scenario, power: str, area: str, factors: int) -> None:
    """Guerrilla factors are interchangeable (§2.4.1): they join the power's guerrillas in the
    area, or form a new counter named after it."""
    here = next((i for i in state.irregulars_in(area) if i.power == power and i.kind == "guerrilla"), None)
    if here is not None:
        here.factors += factors
        return
    base = f"{power}-G-{area}"
    taken = {i.id for i in state.irregulars} | {c.id for c in state.corps}
    name = next(f"{base}{n or ''}" for n in range(len(taken) + 1) if f"{base}{n or ''}" not in taken)
    state.irregulars.append(Irregular(name, power, "guerrilla", area, factors))


def anti_guerrilla(ctx: DecisionPort, state: GameState, scenario: Scenario, powers: Sequence[str],
                   province: Province, fought: set[str]) -> None:
    """§10.1.1.2: a die for a province where the sequence's powers have corps at war with it
    that fought no combat this sequence (+1 with two or more of them); above the province's
    guerrilla value, every guerrilla factor in the province is eliminated; a corps besieged or
    besieging does not count. It is mounted whenever it may: the roll costs the powers nothing
    (EIA-I182)."""
    corps = [c for a in province.areas for c in state.corps_in(a)
             if scenario.major(c.power) in powers and scenario.at_war(c.power, province.power)
             and c.id not in fought and not any(besieging(state, p, a) for p in powers) and not state.besieged(c)]
    guerrillas = [i for i in state.irregulars if i.kind == "guerrilla" and i.area in province.areas
                  and i.power == province.power]
    if not corps or not guerrillas:
        return
    who = " and ".join(p for p in powers if any(scenario.major(c.power) == p for c in corps))
    die = ctx.roll("anti-guerrilla", rule="§10.1.1.2")
    total = die + (1 if len(corps) >= 2 else 0)
    if total <= province.guerrilla:
        ctx.say(f"{who}'s anti-guerrilla operation in {province.name} fails ({total} against "
                f"{province.guerrilla})", rule="§10.1.1.2")
        return
    for guerrilla in guerrillas:
        state.irregulars.remove(guerrilla)
    ctx.say(f"{who}'s anti-guerrilla operation in {province.name} eliminates its guerrillas ({total} against "
            f"{province.guerrilla})", rule="§10.1.1.2")
