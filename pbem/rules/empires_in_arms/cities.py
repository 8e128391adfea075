"""Corps inside cities (§7.3.4, §7.5.1.1): a corps enters the city of the area where its move
ends, or retires into it when attacked, as far as the city holds all its factors; inside, it
is no field force — it neither stops an enemy move nor is attacked in the field (§7.3.7.1) —
and under siege it is besieged with the garrison (§7.4.5, §7.5.4). A city its besiegers take
may be held at once by factors they detach into it (§7.4.5.2).

The defender's choice to retire (§7.5.1.1) and the besieger's choice to hold a city taken
(§7.4.5.2) are asked of their powers alone, answered first by a standing policy
(`POLICY retire WHEN area=Ulm DO RETIRE ALL`, `POLICY occupy DO OCCUPY NONE`); the defaults
fight in the field and leave the city vacant (EIA-I141, EIA-I146)."""

from __future__ import annotations

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.depots import enemy_depot_garrison
from pbem.rules.empires_in_arms.garrisons import AS_GARRISON, city_factors, city_room, detach
from pbem.rules.empires_in_arms.movement import OrderError
from pbem.rules.empires_in_arms.removal import remove_corps
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.state import Corps, GameState, Irregular
from pbem.rules.empires_in_arms.supply import enemy_corps_in, enemy_irregulars_in


# -- entering a city (§7.3.4; leaving it is the start of any move, movement.py) ---------------
def enter_city(state: GameState, scenario: Scenario, corps: Corps | Irregular) -> None:
    """§7.3.4, §7.5.1.1: the corps — or cossacks, freikorps or guerrillas, which then form part
    of the city's garrison (§7.3.3.3.1, EIA-I224) — goes inside its area's city, at no movement
    cost — a city of its power or an ally's (§10.3.2.1, EIA-I220) or vacant, not besieged, with
    room for every factor of the corps (§7.5.1.1.4), and no enemy corps in the field, cossacks,
    freikorps nor depot garrison, which it must attack instead (§7.3.7.1, §7.3.7.2, §10.1.2.2)."""
    area = scenario.areas[corps.area]
    if area.city is None:
        raise OrderError(f"{area.title} has no city for {corps.id} to enter (§7.3.4)")
    if state.siege_in(corps.area) is not None:
        raise OrderError(f"the city of {area.title} is besieged: {corps.id} cannot enter it (§7.3.4)")
    holder = state.city_holder(corps.area)
    if holder is not None and holder != corps.power and not scenario.allied(holder, corps.power):
        raise OrderError(f"the city of {area.title} is held by {holder}: {corps.id} enters only a city of "
                         f"{corps.power} or a vacant one, or an ally's (§7.5.1.1, §10.3.2.1)")
    if enemy_corps_in(state, scenario, corps.power, corps.area):
        raise OrderError(f"enemy corps stand in {area.title}: {corps.id} must stop and attack them rather than "
                         "enter the city (§7.3.7.1)")
    if any(i.kind != "guerrilla" for i in enemy_irregulars_in(state, scenario, corps.power, corps.area)):
        raise OrderError(f"enemy cossacks or freikorps stand in {area.title}: {corps.id} must attack them rather "
                         "than enter the city (§7.3.7.2)")
    if enemy_depot_garrison(state, scenario, corps.power, corps.area):
        raise OrderError(f"an enemy depot garrison stands in {area.title}: {corps.id} must attack it rather than "
                         "enter the city (§7.3.7.2)")
    room = city_room(state, scenario, corps.power, corps.area, allies=True)
    if corps.strength > room:
        raise OrderError(f"the city of {area.title} holds {room} more factors, not the {corps.strength} of "
                         f"{corps.id} (§7.3.3.4, §7.5.1.1.4)")
    corps.inside = True


def leave_for_move(state: GameState, scenario: Scenario, counter: Corps | Irregular) -> None:
    """§7.3.4: a counter inside an unbesieged city moves out of it at no cost as its move
    begins; a besieged one cannot move (`OrderError`)."""
    if not counter.inside:
        return
    if state.besieged(counter):
        raise OrderError(f"{counter.id} is besieged in the city of {scenario.areas[counter.area].title} and cannot "
                         "move out (§7.3.4); it may attack its besiegers (ATTACK BESIEGERS)")
    counter.inside = False


# -- retiring into the city when attacked (§7.5.1.1) -----------------------------------------
def _corps_named(verb: str):
    """The parser of a line `<verb> ALL | NONE | <corps> …`: ("ALL",), ("NONE",) or the names."""
    def parse(text: str) -> tuple[str, ...] | None:
        words = text.replace(",", " ").split()
        if not words or words[0].upper() != verb:
            return None
        if len(words) < 2:
            raise Refusal(f"write {verb} ALL, {verb} NONE or {verb} <corps> …")
        if len(words) == 2 and words[1].upper() in ("ALL", "NONE"):
            return (words[1].upper(),)
        return tuple(dict.fromkeys(words[1:]))
    return parse


_retire = _corps_named("RETIRE")


def _retire_fits(request: Request, ids: tuple[str, ...]) -> tuple[str, ...]:
    """The corps named may retire and fit into the city together (§7.5.1.1.4); ALL takes as
    many of them as fit, in the order offered."""
    sizes, room = request.context.get("sizes", {}), request.context.get("room", 0)
    if ids == ("NONE",):
        return ()
    if ids == ("ALL",):
        chosen: list[str] = []
        for corps in request.options:
            if sum(sizes[c] for c in chosen) + sizes[corps] <= room:
                chosen.append(corps)
        return tuple(chosen)
    names = {o.lower(): o for o in request.options}
    unknown = [i for i in ids if i.lower() not in names]
    if unknown:
        raise Refusal(f"{unknown[0]} may not retire into the city here (choose from {', '.join(request.options)})")
    chosen = [names[i.lower()] for i in ids]
    if sum(sizes[c] for c in chosen) > room:
        raise Refusal(f"the city holds {room} more factors: {', '.join(chosen)} do not fit together (§7.5.1.1.4)")
    return tuple(chosen)


# `RETIRE <leader>` is also a land order (§5.3, EIA-I180): a RETIRE line answers this reaction
# only while one is owed, and is otherwise the land orders' to read.
RETIRE_KIND = LineKind("retire", "your corps attacked in the field may retire into the city of their area "
                                 "(§7.5.1.1): RETIRE ALL | NONE | <corps> …", parse=_retire,
                       form=lambda ids: "RETIRE " + (" ".join(ids) or "NONE"), check=_retire_fits,
                       keywords=("RETIRE",), defers=("RETIRE",))


def retire_into_city(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, attacker: str) -> None:
    """§7.5.1.1: the defenders of a field combat declared in `area` may retire into its city,
    own, an ally's or vacant and unbesieged, as far as it holds whole corps (§7.5.1.1.4). Each
    defending power is asked in the fixed order and offered what room the powers before it left
    (§7.5.1.1.1, EIA-I141, EIA-I220). Depot garrisons stay on their depot."""
    city = scenario.areas[area].city
    if city is None or state.siege_in(area) is not None:
        return
    defenders = enemy_corps_in(state, scenario, attacker, area)
    for power in scenario.in_fixed_order(c.power for c in defenders):
        room, holder = city_room(state, scenario, power, area, allies=True), state.holder(scenario.major(power))
        fitting = [c for c in defenders if c.power == power and c.strength <= room]
        if not fitting or holder is None:
            continue
        chosen = ctx.decide(ctx.request(
            kind=RETIRE_KIND.name, player=holder, power=power, purpose=f"retire:{area}:{power}", default=[],
            options=tuple(c.id for c in fitting), rule="§7.5.1.1",
            prompt=f"{attacker} attacks your corps in {scenario.areas[area].title}: retire into the city of "
                   f"{city.name} (room for {room} factors)?",
            context={"battle": area, "area": area, "enemy": attacker, "city": city.name, "room": room,
                     "sizes": {c.id: c.strength for c in fitting}}))
        for corps in [c for c in fitting if c.id in chosen]:
            corps.inside = True
            ctx.say(f"{power} {corps.id} retires into the city of {city.name} in {scenario.areas[area].title}",
                    rule="§7.5.1.1")


# -- leaving the city when the siege is broken (§7.5.4.2.1.5, §7.5.4.2.3.2) ------------------
def _leave_named(request: Request, ids: tuple[str, ...]) -> tuple[str, ...]:
    """The corps named are the power's inside the city; ALL is every one of them."""
    if ids == ("NONE",):
        return ()
    if ids == ("ALL",):
        return tuple(request.options)
    names = {o.lower(): o for o in request.options}
    unknown = [i for i in ids if i.lower() not in names]
    if unknown:
        raise Refusal(f"{unknown[0]} is not a corps of yours inside the city (choose from {', '.join(request.options)})")
    return tuple(names[i.lower()] for i in ids)


LEAVE_KIND = LineKind("leave", "the siege of your city is broken: your corps inside may move out into its area "
                               "(§7.5.4.2.1.5, §7.5.4.2.3.2): LEAVE ALL | NONE | <corps> …",
                      parse=_corps_named("LEAVE"), form=lambda ids: "LEAVE " + (" ".join(ids) or "NONE"),
                      check=_leave_named, keywords=("LEAVE",))


def leave_city(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, rule: str) -> None:
    """§7.5.4.2.1.5, §7.5.4.2.3.2: when the besieged or their relief win, "any previously
    besieged corps may, if desired, be immediately moved out of the city into the surrounding
    area". Each power with corps inside is asked in the fixed order (EIA-I221), answered first
    by a standing `POLICY leave … DO LEAVE …`; the default, NONE, keeps them inside. Its
    cossacks, freikorps and guerrillas inside are offered with them (EIA-I224)."""
    title = scenario.areas[area].title
    inside = state.besieged_in(area)
    for power in scenario.in_fixed_order(c.power for c in inside):
        holder = state.holder(scenario.major(power))
        if holder is None:
            continue
        chosen = ctx.decide(ctx.request(
            kind=LEAVE_KIND.name, player=holder, power=power, purpose=f"leave:{area}:{power}", default=[],
            options=tuple(c.id for c in inside if c.power == power), rule=rule,
            prompt=f"the siege of {title} is broken: move your corps out of the city into the area?",
            context={"area": area}))
        for corps in [c for c in inside if c.power == power and c.id in chosen]:
            corps.inside = False
            ctx.say(f"{power} {corps.id} moves out of the city into {title}", rule=rule)


# -- a city taken by its besiegers (§7.4.5.2, §7.5.4.1.3.5) ---------------------------------
def surrender_city(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, taker: str, why: str,
                   rule: str, where: str = "") -> None:
    """Every factor left in the city — its garrison, the corps inside — surrenders and the
    leaders inside are prisoners; the besiegers may then detach factors to hold it."""
    title = scenario.areas[area].title
    for garrison in [g for g in state.garrisons if g.area == area]:
        state.powers[garrison.power].factors_lost += garrison.strength  # prisoners count as lost (EIA-I203)
    state.garrisons = [g for g in state.garrisons if g.area != area]
    alone = [lead.id for lead in state.leaders if lead.city == area]  # without a corps (§7.3.3.4)
    if alone:
        state.leaders = [lead for lead in state.leaders if lead.city != area]
        ctx.say(f"{', '.join(alone)} {'is' if len(alone) == 1 else 'are'} captured in the city of {title}", rule=rule)
    for counter in state.irregulars_inside(area):
        state.irregulars.remove(counter)
        state.powers[counter.power].factors_lost += counter.factors
        ctx.say(f"{counter.power} {counter.id} surrenders in {title}", rule=rule)
    inside = state.corps_inside(area)
    for corps in inside:
        captured = [lead.id for lead in state.leaders if lead.corps == corps.id]
        state.leaders = [lead for lead in state.leaders if lead.corps != corps.id]
        state.corps.remove(corps)
        state.powers[corps.power].factors_lost += corps.strength
        state.powers[corps.power].corps_lost += 1
        ctx.say(f"{corps.power} {corps.id} surrenders in {title}"
                + (f"; {', '.join(captured)} {'is' if len(captured) == 1 else 'are'} captured" if captured else ""),
                rule=rule)
    ctx.say(f"{taker} takes {where or title}: {why}", rule=rule)
    occupy(ctx, state, scenario, area, taker)


def _occupy(text: str) -> list | None:
    words = text.replace(",", " ").split()
    if not words or words[0].upper() != "OCCUPY":
        return None
    if len(words) == 2 and words[1].upper() == "NONE":
        return []
    if len(words) != 5 or not words[1].isdigit() or words[3].upper() != "FROM":
        raise Refusal("write OCCUPY <n> <type> FROM <corps>, or OCCUPY NONE")
    return [int(words[1]), words[2].upper(), words[4]]


def _occupy_fits(request: Request, answer: list) -> list:
    """The corps is the besieger's there; it detaches INF, MIL, CAV or GRD (as infantry),
    keeps one factor (§7.3.3.1.2), and the city holds them (§7.3.3.4)."""
    if not answer:
        return answer
    count, kind, name = answer
    factors = request.context.get("factors", {})
    corps = next((c for c in factors if c.lower() == name.lower()), None)
    if corps is None:
        raise Refusal(f"{name} is not a corps of yours in the city's area (choose from {', '.join(factors)})")
    if kind not in AS_GARRISON:
        raise Refusal(f"{kind} factors cannot hold a city: detach INF, MIL, CAV or GRD (§7.3.3.2, §7.3.3.3)")
    have, strength, room = factors[corps].get(kind, 0), sum(factors[corps].values()), request.context.get("room", 0)
    if count < 1 or count > have or count >= strength or count > room:
        raise Refusal(f"{corps} may detach 1 to {min(have, strength - 1, room)} {kind} into the city (it keeps a "
                      f"factor, §7.3.3.1.2; the city holds {room}, §7.3.3.4)")
    return [count, kind, corps]


OCCUPY_KIND = LineKind("occupy", "your besiegers took a city: detach factors to hold it (§7.4.5.2): "
                                 "OCCUPY <n> <type> FROM <corps> | OCCUPY NONE", parse=_occupy,
                       form=lambda a: f"OCCUPY {a[0]} {a[1]} FROM {a[2]}" if a else "OCCUPY NONE", check=_occupy_fits,
                       keywords=("OCCUPY",))


def occupy(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, taker: str) -> None:
    """§7.4.5.2: the besiegers of a city taken may detach factors into it at once, as a corps
    detaches a garrison (§7.3.3); asked of the besieger when one of its corps there could
    (EIA-I146). Default: none, and the city stays vacant."""
    corps = [c for c in state.corps_in(area) if c.power == taker and not c.inside
             and c.strength > 1 and any(k in AS_GARRISON for k in c.factors)]
    holder, room = state.holder(taker), city_room(state, scenario, taker, area)
    if not corps or holder is None or not room:
        return
    title = scenario.areas[area].title
    answer = ctx.decide(ctx.request(
        kind=OCCUPY_KIND.name, player=holder, power=taker, purpose=f"occupy:{area}", default=[],
        options=tuple(c.id for c in corps), rule="§7.4.5.2",
        prompt=f"the city of {title} is yours to hold: detach factors into it?",
        context={"area": area, "room": room, "factors": {c.id: dict(c.factors) for c in corps}}))
    if not answer:
        return
    count, kind, name = answer
    detaching = state.corps_by_id(name)
    try:
        if detaching is None:
            raise OrderError(f"{name} is no longer there")
        detach(state, scenario, detaching, count, kind)
    except OrderError as error:
        ctx.say(f"{taker} cannot hold {title}: {error}", to=(holder,), rule="§7.4.5.2")
        return
    held = f"{count} {kind}" + (f" as {AS_GARRISON[kind]}" if AS_GARRISON[kind] != kind else "")
    ctx.say(f"{taker} {detaching.id} detaches {held} to hold the city of {title}", rule="§7.4.5.2")


def starve(ctx: DecisionPort, state: GameState, scenario: Scenario, area: str, loss: int) -> int:
    """§7.4.5.2: `loss` factors lost by the besieged — the garrison's first, then the corps'
    inside in the forage chart's loss order (EIA-I6, EIA-I142); a corps emptied leaves the
    map unless nothing is left, when the city surrenders. Returns the factors left in it."""
    garrison = state.garrison_in(area)
    if garrison is not None:
        for kind in list(garrison.factors):
            taken = min(loss, garrison.factors[kind])
            garrison.factors[kind] -= taken
            loss -= taken
    for counter in state.irregulars_inside(area):  # garrison factors too (§7.3.3.3.1, EIA-I224)
        taken = min(loss, counter.factors)
        counter.factors -= taken
        loss -= taken
    order = scenario.charts.forage.loss_order
    for corps in state.corps_inside(area):
        for kind in sorted(corps.factors, key=lambda k: order.index(k) if k in order else len(order)):
            taken = min(loss, corps.factors[kind])
            corps.factors[kind] -= taken
            loss -= taken
        corps.factors = {k: n for k, n in corps.factors.items() if n}
    left = city_factors(state, area)
    if left:  # when nothing is left the city surrenders, its leaders prisoners (surrender_city)
        for counter in [i for i in state.irregulars_inside(area) if not i.factors]:
            state.irregulars.remove(counter)
            ctx.say(f"{counter.power} {counter.id} is eliminated by hunger in a besieged city", rule="§7.4.5.2")
        for corps in [c for c in state.corps_inside(area) if not c.strength]:
            remove_corps(ctx, state, corps, "by hunger in a besieged city", "§7.4.5.2")
    return left
