"""Land tactical movement (§12.1–§12.2, §12.4–§12.5) and what it starts: evasion and
interception by the defender, field battles (§13.3), sieges planted (§13.4.1),
subjugation with its opposition (§13.5), and control of the area."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import battles, french_wars, land_combat, minimaps, sieges
from pbem.rules.ratio_regis.actions import (ImpulseRun, check_stacking, own_troop, stack_count,
                                            stacking_limit)
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.control import take_control
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.leaders import commander_ability, leaders_with
from pbem.rules.ratio_regis.movement import interested, keep_minors_home, resolve_area
from pbem.rules.ratio_regis.orders import Move, Reaction, Subjugate
from pbem.rules.ratio_regis.reactions import DISPOSITIONS, ask
from pbem.rules.ratio_regis.retreat import fortress_room, retreat, retreat_areas
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState, Troop
from pbem.rules.ratio_regis.supply import supplied


def force(state: GameState, power: str, ids: Sequence[str]) -> list[Troop]:
    """§12.1–§12.2: one troop, or several with a leader (an army), all in one area."""
    troops = [own_troop(state, power, unit) for unit in ids]
    places = {t.area for t in troops}
    if len(places) != 1 or None in places:
        raise IllegalOrder("the moving troops must all stand in one area on the map")
    if any(t.besieged for t in troops):
        raise IllegalOrder("besieged troops leave their fortress only by a sortie (§13.3.1)")
    if len(troops) > 1 and not any(state.leader_on(t.id) for t in troops):
        raise IllegalOrder("several troops move together only as an army, with a leader on one of them (§12.2)")
    return troops


def may_enter(state: GameState, scenario: Scenario, power: str, area: str) -> None:
    """§12.1, §18.2.2, §18.4.1: own areas, areas of powers at war, active independent
    areas (under v2.1 only if free of units of powers it is not at war with, RR-I282); and
    only in theaters of interest (or their border areas)."""
    status = state.areas[area]
    if not interested(state, scenario, power, area):
        raise IllegalOrder(f"{power} has no interest in {scenario.areas[area].theater} (§18.4.1)")
    if status.independent and state.options.variant == "v2.1":
        strangers = sorted({u.power for u in (*state.troops_in(area), state.fortress_in(area)) if u is not None
                            and u.power != power and not state.at_war(power, u.power)})
        if strangers:
            raise IllegalOrder(f"{area} is independent but holds units of {', '.join(strangers)}, not at war with "
                               f"{power}: no tactical move into it (v2.1 §12.1)")
    if status.controller == power or status.independent:
        return
    if status.controller is not None and state.at_war(power, status.controller):
        return
    if status.rebellion and status.possessor == power:
        return
    who = status.controller or "nobody"
    raise IllegalOrder(f"{area} is controlled by {who}, not by {power} nor by a power at war with it (§12.1)")


def enemies_in(state: GameState, power: str, area: str) -> list[Troop]:
    return [t for t in state.troops_in(area) if t.power != power and state.at_war(power, t.power)]


def move(state: GameState, scenario: Scenario, power: str, order: Move, run: ImpulseRun) -> str:
    """§12.1–§12.2: to an adjacent area and, if that caused no combat and held no enemy
    fortress, on to a second one; an army may leave or take troops in the first area."""
    troops = force(state, power, order.units)
    origin = troops[0].area
    first = resolve_area(scenario, order.area, state)
    second = resolve_area(scenario, order.then, state) if order.then else None
    texts = []
    immune = determined_immune(state, scenario, troops, run)
    fought, stopped = _step(state, scenario, power, troops, origin, first, order, run, texts, immune=immune)
    moving = [t for t in troops if t.area == first and not t.besieged]
    if order.leave or order.take:
        moving = _regroup(state, power, moving, first, order)
    if second is not None:
        if fought or stopped:
            raise IllegalOrder(f"the move stopped in {first} (combat or enemy fortress): no second step (§12.1)")
        if not moving:
            raise IllegalOrder(f"no troop is left in {first} to move on")
        fought, stopped = _step(state, scenario, power, moving, first, second, order, run, texts, immune=immune)
    final = second or first
    survivors = [t for t in moving if t.area == final]
    if order.subjugate and survivors and not fought and not stopped:
        texts.append(subjugate_area(state, scenario, power, final, survivors, run, all_moved=True))
    check_stacking(state, scenario, [origin, first, final])
    run.ledger.acted.update(t.id for t in troops)
    return "; ".join(texts)


def determined_immune(state: GameState, scenario: Scenario, troops: Sequence[Troop], run: ImpulseRun) -> bool:
    """§17.3.2 (v1.2.4): a force commanded by an extraordinary Determined leader "cannot be
    intercepted (by land) in the first tactical movement of every impulse" — the leader's
    first move or landing of the impulse (RR-I81). Every leader of the force is marked as
    having moved. Under the option determined=v2.1 there is no such immunity."""
    ids = [t.id for t in troops]
    determined = [lead.id for lead in leaders_with(state, ids)
                  if lead.extraordinary and scenario.leaders[lead.id].ability == "determined"]
    fresh = any(lead not in run.ledger.tactical_leaders for lead in determined)
    run.ledger.tactical_leaders.update(lead.id for lead in leaders_with(state, ids))
    return (state.options.determined == "v1.2.4" and fresh
            and commander_ability(state, scenario, ids) == "determined")


def _regroup(state: GameState, power: str, moving: list[Troop], area: str, order: Move) -> list[Troop]:
    """§12.2: after the first step an army may leave or take troops there."""
    if not any(state.leader_on(t.id) for t in moving):
        raise IllegalOrder("only an army (with a leader) leaves or takes troops on the way (§12.2)")
    left = [own_troop(state, power, u) for u in order.leave]
    if any(t not in moving for t in left):
        raise IllegalOrder("LEAVE names troops that are not moving")
    taken = [own_troop(state, power, u) for u in order.take]
    if any(t.area != area or t.besieged for t in taken):
        raise IllegalOrder(f"TAKE names troops that are not free in {area}")
    kept = [t for t in moving if t not in left] + taken
    if left and not any(state.leader_on(t.id) for t in kept) and len(kept) > 1:
        raise IllegalOrder("the leader must stay with the army that moves on")
    return kept


def _step(state: GameState, scenario: Scenario, power: str, troops: list[Troop], here: str, there: str,
          order: Move, run: ImpulseRun, texts: list[str], *, amphibious: bool = False,
          immune: bool = False) -> tuple[bool, bool]:
    """One step into an adjacent area with the defender's reactions; returns (fought,
    stopped by an enemy fortress). `immune`: no land interception but by a Determined
    leader (§17.3.2, RR-I81)."""
    if there not in scenario.areas[here].adjacent and not amphibious:
        raise IllegalOrder(f"{there} is not adjacent to {here}")
    may_enter(state, scenario, power, there)
    french_wars.check_entry(state, scenario, power, there)  # §33.4 (RR-I275)
    keep_minors_home(state, scenario, [t.id for t in troops], there)
    ids = ", ".join(t.id for t in troops)
    defender = state.areas[there].controller
    intercepted = False
    if defender and defender != power and state.at_war(power, defender) and not state.areas[there].rebellion:
        reaction, intercepted = _react(state, scenario, power, defender, here, there, troops, run, immune)
        if reaction:
            texts.append(reaction)
    for troop in troops:
        troop.area = there
    texts.append(f"{power} moves {ids} from {here} to {there}")
    run.judge.say(texts[-1], rule="§12.1")
    enemies = [t for t in enemies_in(state, power, there) if not t.besieged]
    if enemies:
        texts.append(field_battle(state, scenario, power, troops, enemies, here, there, order, run,
                                  amphibious=amphibious, intercepted=intercepted))
        return True, False
    planted = sieges.plant(state, run.judge, power, there)
    if planted:
        texts.append(planted)
    return False, bool(sieges.besieged_fortress(state, there, power))


def _react(state: GameState, scenario: Scenario, power: str, defender: str, here: str, there: str,
           troops: list[Troop], run: ImpulseRun, immune: bool = False) -> tuple[str, bool]:
    """§12.4: the controller of the area entered may evade with the troops there, or
    intercept from one area of its own; default STAND (RR-I19). Returns the chronicle line
    and whether the move was intercepted."""
    player = state.powers[defender].player
    present = [t for t in state.troops_in(there) if t.power == defender and not t.besieged]
    options = ["STAND"]
    room = fortress_room(state, scenario, defender, there) if present else 0
    if present:
        options += [f"EVADE TO {a}" for a in retreat_areas(state, scenario, defender, there, here)] + ["EVADE DISPERSE"]
        if room:
            options.append("JOINFORT")
    mover_ids = [t.id for t in troops]
    sources, single = _interceptors(state, scenario, defender, there, mover_ids, immune=immune)
    if immune:
        barred = [a for a in _interceptors(state, scenario, defender, there, mover_ids)[0] if a not in sources]
        if barred:
            run.judge.say(f"{power}'s force under its Determined leader cannot be intercepted by land on its first "
                          f"tactical move of the impulse: {defender} may not intercept from {', '.join(barred)} "
                          f"(§17.3.2)", rule="§17.3.2")
    options += [f"INTERCEPT FROM {a}" for a in sources]
    if player is None or options == ["STAND"]:
        return "", False
    eligible = [t.id for t in present] + [t.id for a in sources for t in sources[a]]
    alone = "; ".join(f"from {a} a single troop: INTERCEPT FROM {a} UNITS "
                      f"<one of {', '.join(t.id for t in sources[a])}>" for a in sorted(single))
    answer = ask(run.judge, player, defender, "react", options=options, default="STAND",
                 context={"area": there, "from": here, "enemy": power, "enemy_troops": len(troops),
                          "my_troops": len(present), "present": tuple(t.id for t in present),
                          "fort_room": room,
                          "single": {a: tuple(t.id for t in sources[a]) for a in sorted(single)}},
                 prompt=f"{power} moves {len(troops)} troop(s) from {here} into {there}: intercept, evade or stand"
                        + (f" ({alone}, §12.4.1)" if alone else ""),
                 rule="§12.4", eligible=eligible)
    if answer.word in DISPOSITIONS:
        text = dispose(state, scenario, run.judge, defender, there, present, answer)
    elif answer.word == "INTERCEPT":
        chosen = set(answer.units)
        movers = [t for t in sources[answer.place] if not chosen or t.id in chosen]
        for troop in movers:
            troop.area = there
        text = f"{defender} intercepts from {answer.place} into {there} with {', '.join(t.id for t in movers)} (§12.4.1)"
        run.judge.say(text, rule="§12.4")
        return text, True
    else:
        return "", False
    run.judge.say(text, rule="§12.4")
    return text, False


def dispose(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, area: str,
            present: Sequence[Troop], answer: Reaction) -> str:
    """§12.4.2, §13.4.1: the troops in the area entered evade — to one or several adjacent
    areas, or by dispersing, all of them or a part — or join the fortress, those named
    (RR-I88); those named nowhere stay and fight."""
    parts = answer.parts or (answer,)
    texts = []
    for part in parts:
        movers = [t for t in present if not part.units or t.id in part.units]
        ids = ", ".join(t.id for t in movers)
        if part.word == "JOINFORT":
            for troop in movers:
                troop.besieged = True
            texts.append(f"{power}'s {ids} in {area} withdraw into the fortress (§13.4.1)")
            continue
        for troop in movers:
            if part.place:
                troop.area = part.place
            else:
                battles.disperse(state, scenario, judge, troop.id)
        texts.append(f"{power} evades from {area}: {ids} to {part.place or 'the dispersion box'} (§12.4.2)")
    return "; ".join(texts)


def _interceptors(state: GameState, scenario: Scenario, power: str, target: str,
                  movers: Sequence[str], *, immune: bool = False) -> tuple[dict[str, list[Troop]], set[str]]:
    """§12.4.1: an army (troops with a leader) from an adjacent area, or a single troop
    from one or two areas away through a controlled area (not in revolt, §18.3) free of
    enemy troops. §17.3.2: an army commanded by a Determined leader intercepts from two
    areas away too (RR-I67). In v1.2.4 two Determined leaders interacting behave as ordinary
    ones: against a force commanded by one, the Determined army intercepts like any army;
    and a force `immune` on its first move (RR-I81) can be intercepted only by forces
    commanded by a Determined leader, as ordinary ones.

    To or from a mini-map only a single troop intercepts, from an adjacent area (§12.4.1,
    §18.7, RR-I92).

    Returns the source areas with their troops, and the areas of several troops from which
    only one of them may go (RR-I87: "a single troop … can intercept from a distance of one
    or two areas", whatever else stands there — §31.7: two areas from Paris, "France could
    only intercept with a troop" of its army there)."""
    mover_determined = commander_ability(state, scenario, movers) == "determined"
    cancel = state.options.determined == "v1.2.4" and mover_determined

    def determined(own: list[Troop]) -> bool:
        return commander_ability(state, scenario, [t.id for t in own]) == "determined"

    def may_intercept_from_afar(own: list[Troop]) -> bool:
        return len(own) == 1 or (not cancel and determined(own))

    sources: dict[str, list[Troop]] = {}
    single: set[str] = set()
    for area in scenario.areas[target].adjacent:
        own = [t for t in state.troops_in(area) if t.power == power and not t.besieged]
        if not own or (immune and not determined(own)):
            continue
        if minimaps.interception_limited(scenario, target, area):
            sources[area] = own  # to or from a mini-map: one troop only (RR-I92)
            if len(own) > 1:
                single.add(area)
        elif any(state.leader_on(t.id) for t in own) or len(own) == 1:
            sources[area] = own
        elif not immune:
            sources[area] = own
            single.add(area)
    for middle in scenario.areas[target].adjacent:
        status = state.areas[middle]
        if status.controller != power or status.rebellion or not state.exists(middle) \
                or enemies_in(state, power, middle):
            continue
        for area in scenario.areas[middle].adjacent:
            if area == target or area in sources or minimaps.interception_limited(scenario, target, middle, area):
                continue
            own = [t for t in state.troops_in(area) if t.power == power and not t.besieged]
            if own and may_intercept_from_afar(own) and (not immune or determined(own)):
                sources[area] = own
            elif own and not immune:
                sources[area] = own
                single.add(area)
    return dict(sorted(sources.items())), single


def field_battle(state: GameState, scenario: Scenario, power: str, troops: list[Troop], enemies: list[Troop],
                 here: str, there: str, order: Move, run: ImpulseRun, *, amphibious: bool = False,
                 intercepted: bool = False) -> str:
    """§13.3: the mover attacks the enemy troops (and their fortress's Q3 die) in the area.
    Against besiegers it is a relief battle (§13.3.5): the mover's besieged troops there
    may join it (the commit decision says which). A beaten defender retreats (RR-I60); the
    winner takes the area unless the move says NOCONTROL (RR-I21) or an enemy fortress
    holds out there, now besieged (RR-I61). With the option determined=v2.1 an intercepted
    force's Determined leader fights as a Tactical one (§17.3.2 v2.1, RR-I81)."""
    defender = enemies[0].power
    fortress = state.fortress_in(there)
    fort_id = fortress.id if fortress is not None and fortress.built and fortress.power == defender else None
    relief = state.areas[there].besieger == defender
    inside = [t.id for t in state.troops_in(there) if relief and t.besieged and t.power == power]
    attacker = battles.side(state, scenario, power, [t.id for t in troops] + inside, besieged=inside)
    if intercepted and state.options.determined == "v2.1":
        attacker = _determined_as_tactical(attacker, run)
    combat = cm.Combat(
        id=f"battle-{there}", type=cm.FIELD, area=there, relief=relief, amphibious=amphibious,
        siege_casualties=state.areas[there].siege_casualties, attacker=attacker,
        defender=battles.side(state, scenario, defender, [t.id for t in enemies], fortress=fort_id),
        terrain=battles.TERRAIN[scenario.areas[there].terrain], rough_pass=scenario.rough(here, there),
        commercial_port=scenario.areas[there].port and not state.areas[there].razed,
        mini_map=minimaps.on_mini_map(scenario, there), options=dict(state.options.combat))
    result, text = land_combat.fight(state, scenario, run.judge, combat, f"field battle in {there}")
    run.judge.say(text, rule="§13.3", mark=battles.mark(combat, result))
    if result.winner == cm.ATTACKER:
        beaten = [t for t in state.troops_in(there) if t.power == defender and not t.besieged]
        retreat(state, scenario, run.judge, beaten, there, here, why=f"the battle of {there}")
        sieges.lift_ended_sieges(state, run.judge)
        if relief:
            _withdraw_excess(state, scenario, power, troops, there, here, run)
        planted = sieges.plant(state, run.judge, power, there)
        if planted:
            text += "; " + planted
        elif minimaps.on_mini_map(scenario, there):
            run.judge.say(f"{there} is on a mini-map: the battle won does not give it to {power}, it must be "
                          f"subjugated (§13.5.7, §18.7)", rule="§13.5.7")
        elif order.control and not sieges.besieged_fortress(state, there, power):
            take_control(state, scenario, run.judge, power, there, "field battle won")
    else:
        for troop in [t for t in troops if t.area == there]:
            troop.area = here
    return text


def _determined_as_tactical(side: cm.Side, run: ImpulseRun) -> cm.Side:
    """§17.3.2 (v2.1): "fights as Tactical in field battles where it is intercepted"."""
    turned = [lead.id for lead in side.leaders if lead.extraordinary and lead.ability == cm.DETERMINED]
    if not turned:
        return side
    run.judge.say(f"{', '.join(turned)} (Determined) fight(s) as Tactical: the force was intercepted (§17.3.2, "
                  f"v2.1)", rule="§17.3.2")
    return replace(side, leaders=tuple(replace(lead, ability=cm.TACTICAL) if lead.id in turned else lead
                                       for lead in side.leaders))


def _withdraw_excess(state: GameState, scenario: Scenario, power: str, troops: list[Troop], area: str, entry: str,
                     run: ImpulseRun) -> None:
    """§13.3.5 (RR-I62): after a relief battle won, relief troops over the stacking limit
    alongside the freed garrison withdraw to the area they entered from, the last named
    first."""
    excess = stack_count(state, area, power) - stacking_limit(state, scenario, area, power)
    going = [t for t in troops if t.area == area][::-1][:max(0, excess)]
    for troop in going:
        troop.area = entry
    if going:
        run.judge.say(f"{power} withdraws {', '.join(t.id for t in going)} from {area} to {entry} to keep within "
                      f"stacking (§13.3.5)", rule="§13.3.5")


def subjugate(state: GameState, scenario: Scenario, power: str, order: Subjugate, run: ImpulseRun) -> str:
    """§13.5 (separate action): the force in the area tries again."""
    area = resolve_area(scenario, order.area, state)
    troops = [t for t in state.troops_in(area) if t.power == power and not t.besieged]
    if not troops:
        raise IllegalOrder(f"{power} has no troops in {area}")
    text = subjugate_area(state, scenario, power, area, troops, run, all_moved=False)
    run.ledger.acted.update(t.id for t in troops)
    return text


def subjugate_area(state: GameState, scenario: Scenario, power: str, area: str, troops: list[Troop],
                   run: ImpulseRun, *, all_moved: bool) -> str:
    """§12.5, §13.5: with no opposition the area is taken; an independent area or a
    rebellion always resists, at its level, against the subjugator's troops alone (§18.3:
    "fortresses cannot attack revolts", RR-I83); the controller may oppose from a source
    area."""
    status = state.areas[area]
    if status.controller == power and not status.rebellion:
        raise IllegalOrder(f"{power} controls {area} already")
    if enemies_in(state, power, area):
        raise IllegalOrder(f"enemy troops stand in {area}: that is a field battle, not a subjugation (§13.5.1)")
    if status.controller and status.controller != power and not status.rebellion and \
            not state.at_war(power, status.controller):
        raise IllegalOrder(f"{power} is not at war with {status.controller} (§13.5.1)")
    if not supplied(state, scenario, power, area):
        raise IllegalOrder(f"{area} is out of supply for {power}: no subjugation (§15.2)")
    level = status.independent or status.rebellion
    if level:
        kind = cm.INDEPENDENT if status.independent else cm.REBEL
        opposition = cm.OPPOSE_INDEPENDENT if status.independent else cm.OPPOSE_REBEL
        defender = cm.Side("independent" if status.independent else "rebels", _other_player(state, power),
                           (cm.Unit(level, kind, int(level[1])),))
        return _subjugation(state, scenario, power, area, troops, defender, opposition, 1, all_moved, run)
    controller = status.controller
    if controller is not None and minimaps.on_mini_map(scenario, area):
        return _mini_map_subjugation(state, scenario, power, area, troops, all_moved, run)
    choice = _opposition(state, scenario, power, controller, area, run)
    if choice is None:
        return take_control(state, scenario, run.judge, power, area, "without opposition, §12.5")
    source, means = choice
    distance = 1 if source in scenario.areas[area].adjacent else 2
    if means == "FORTRESS":
        defender = battles.side(state, scenario, controller, [], fortress=state.fortress_in(source).id)
        opposition = cm.OPPOSE_FORTRESS
    else:
        units = [t.id for t in state.troops_in(source) if t.power == controller and not t.besieged]
        defender = battles.side(state, scenario, controller, units)
        opposition = cm.OPPOSE_TROOPS
    return _subjugation(state, scenario, power, area, troops, defender, opposition, distance, all_moved, run)


def _mini_map_subjugation(state: GameState, scenario: Scenario, power: str, area: str, troops: list[Troop],
                          all_moved: bool, run: ImpulseRun) -> str:
    """§13.5.7, §18.7: on a mini-map no troops oppose; the area itself resists, a home area
    as A3, any other as A2, its controller deciding for it (RR-I91)."""
    controller = state.areas[area].controller
    side = battles.side(state, scenario, controller, [])
    defender = replace(side, player=side.player or _other_player(state, power))
    run.judge.say(f"{area} is on a mini-map: no troops oppose its subjugation; the area resists as "
                  f"{minimaps.resistance(scenario, area)} (§13.5.7, §18.7)", rule="§13.5.7")
    return _subjugation(state, scenario, power, area, troops, defender, cm.OPPOSE_AREA, 1, all_moved, run)


def _other_player(state: GameState, power: str) -> str:
    """RR-I29: the dice of a rebellion or independent area are rolled by the engine; the
    request owner is the next player in seating order (it has no choices to make)."""
    ids = [p.id for p in state.players]
    mover = state.powers[power].player
    return ids[(ids.index(mover) + 1) % len(ids)] if mover in ids else ids[0]


def _opposition(state: GameState, scenario: Scenario, power: str, controller: str, area: str,
                run: ImpulseRun) -> tuple[str, str] | None:
    """§13.5.2: the controller may oppose with troops or a fortress from a controlled area
    (not in revolt, RR-I83) adjacent, or two away through a controlled area free of supplied
    enemy troops and not in revolt. Default: oppose from the first source, troops before a
    fortress (RR-I22)."""
    player = state.powers[controller].player
    options = []
    near = list(scenario.areas[area].adjacent)
    far = [b for m in near if state.areas[m].controller == controller and not state.areas[m].rebellion
           and not enemies_in(state, controller, m) for b in scenario.areas[m].adjacent if b != area]
    for source in sorted(dict.fromkeys(near + far), key=lambda a: (a not in near, a)):
        if state.areas[source].controller != controller or state.areas[source].rebellion:
            continue  # troops or fortresses "placed in controlled areas": not in revolt (§13.5.2, §18.3)
        if any(t.power == controller and not t.besieged for t in state.troops_in(source)):
            options.append(f"OPPOSE FROM {source} WITH TROOPS")
        fortress = state.fortress_in(source)
        if fortress is not None and fortress.built and fortress.power == controller and \
                state.areas[source].besieger is None:
            options.append(f"OPPOSE FROM {source} WITH FORTRESS")
    if player is None or not options:
        return None
    answer = ask(run.judge, player, controller, "oppose", options=options + ["NOOPPOSE"], default=options[0],
                 context={"area": area, "enemy": power},
                 prompt=f"{power} subjugates {area}: oppose from one of your areas, or not", rule="§13.5.2")
    if answer.word == "NOOPPOSE":
        return None
    return answer.place, answer.means


def _subjugation(state: GameState, scenario: Scenario, power: str, area: str, troops: list[Troop],
                 defender: cm.Side, opposition: str, distance: int, all_moved: bool, run: ImpulseRun) -> str:
    combat = cm.Combat(
        id=f"subjugation-{area}", type=cm.SUBJUGATION, area=area,
        attacker=battles.side(state, scenario, power, [t.id for t in troops]), defender=defender,
        terrain=battles.TERRAIN[scenario.areas[area].terrain], opposition=opposition, opposed_from=distance,
        all_moved=all_moved, mini_map=minimaps.on_mini_map(scenario, area),
        home_area=minimaps.home_area(scenario, area),
        options=dict(state.options.combat))
    result, text = land_combat.fight(state, scenario, run.judge, combat, f"subjugation of {area}")
    run.judge.say(text, rule="§13.5", mark=battles.mark(combat, result))
    if result.control_to == cm.ATTACKER:
        how = "subjugation won" if result.winner == cm.ATTACKER else "troops dispersed to take it, §13.5.4"
        take_control(state, scenario, run.judge, power, area, how)
    return text
