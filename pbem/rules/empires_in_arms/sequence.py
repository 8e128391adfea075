"""A major power's sequence of the Land Phase (§7.1.3): Depot Creation/Removal, Land
Movement, Supply, Land Combat and Guerrilla Steps, the powers one after another in the
scenario's fixed order.

The phasing player answers one request for the whole sequence: a block of land orders,
checked on a copy of the state when it arrives and refused whole, with the reason of every
bad line, when one is illegal (research §2.3: batched). What another power must decide
while it runs — a depot garrison entered by the enemy (§7.3.6.2) — is asked of that power
alone, answered first by its standing order (`POLICY depot-entry DO DESTROY`) and only
then by a pause (`reactions.py`). An order that has become illegal by the time it is
carried out (a reaction changed the map) is dropped with a chronicle line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.decisions import BlockRead, DecisionKind, InBlock, LineRead, Refused, not_owed, verdict
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms import battles, coalitions, reactions, standing
from pbem.rules.empires_in_arms.irregulars import (NAMES, check_guerrilla_attack, guerrilla_step, own_irregular,
                                                   send_guerrillas, trace_irregular)
from pbem.rules.empires_in_arms.levies import activation, return_corps, stand_down
from pbem.rules.empires_in_arms.besieging import (besieged_supply, besieging, check_garrison_attack, check_siege,
                                                  lift_sieges)
from pbem.rules.empires_in_arms.calendar import label
from pbem.rules.empires_in_arms.cities import enter_city, leave_for_move
from pbem.rules.empires_in_arms.depots import check_conversion, place_depot, remove_depot
from pbem.rules.empires_in_arms.foraging import March, forage, take_losses
from pbem.rules.empires_in_arms.garrisons import change_garrison
from pbem.rules.empires_in_arms.leaders import join_corps, order_placement, order_retirement, prefer_commanders
from pbem.rules.empires_in_arms.movement import Leg, OrderError, allowance, own_corps, trace
from pbem.rules.empires_in_arms.orders import (AttackBesiegers, Besiege, Command, ConvertDepot, Forage,
                                               GuerrillasAttack, JoinCorps, Move, OrderSyntaxError, Place, PlaceDepot,
                                               PreferCommanders, RemoveDepot, Retire, Return, Stand, StandDown,
                                               LAND_FORMS, land_keywords, parse_line)
from pbem.rules.empires_in_arms.removal import remove_corps
from pbem.rules.empires_in_arms.scenario import Scenario
from pbem.rules.empires_in_arms.standing import STANDING, StandingOrder
from pbem.rules.empires_in_arms.state import LAND, TIME_RECORD, Corps, GameState, Irregular, Part, copy_state
from pbem.rules.empires_in_arms.supply import supply_cost_halves, suppliers


# -- the orders of one sequence -------------------------------------------------------
#: A player's standing choices for his leaders, carried out first (EIA-I180, EIA-I181).
LEADER_ORDERS = (Retire, Place, PreferCommanders)


def leader_order(state: GameState, scenario: Scenario, power: str, order: Retire | Place | PreferCommanders) -> str:
    """A RETIRE, PLACE or COMMAND line kept in the state; the line the owner is told."""
    if isinstance(order, Retire):
        return order_retirement(state, scenario, power, order)
    if isinstance(order, Place):
        return order_placement(state, scenario, power, order)
    state.powers[power].commanders = prefer_commanders(state, scenario, power, order)
    return (f"{power} prefers in command, among equally senior leaders: "
            f"{', '.join(state.powers[power].commanders) or 'none'}")


@dataclass
class Plan:
    """A power's land orders in the order they are carried out (§7.1.3)."""

    removals: list[RemoveDepot] = field(default_factory=list)
    depots: list[PlaceDepot] = field(default_factory=list)
    leaders: list[JoinCorps] = field(default_factory=list)
    leader_orders: list[Retire | Place | PreferCommanders] = field(default_factory=list)
    stand_downs: list[StandDown] = field(default_factory=list)
    returns: list[Return] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    foraging: list[str] = field(default_factory=list)  # corps ids, lower case
    standing: list[StandingOrder] = field(default_factory=list)  # carried out first, in their order
    converting: list[str] = field(default_factory=list)  # areas whose enemy depot is converted, lower case
    besieging: list[str] = field(default_factory=list)  # areas whose enemy city garrison is besieged, lower case
    sallying: list[AttackBesiegers] = field(default_factory=list)  # its besieged forces attacking, by area
    ambushes: dict[str, int | None] = field(default_factory=dict)  # areas (lower case) whose guerrillas attack: factors

    def converts(self, area: str) -> bool:
        return area.lower() in self.converting

    def besieges(self, area: str) -> bool:
        return area.lower() in self.besieging

    def sally(self, area: str) -> AttackBesiegers | None:
        return next((order for order in self.sallying if order.area.lower() == area.lower()), None)


def plan_of(commands: Sequence[Command]) -> Plan:
    plan = Plan()
    for command in commands:
        if isinstance(command, RemoveDepot):
            plan.removals.append(command)
        elif isinstance(command, PlaceDepot):
            plan.depots.append(command)
        elif isinstance(command, JoinCorps):
            plan.leaders.append(command)
        elif isinstance(command, LEADER_ORDERS):
            plan.leader_orders.append(command)
        elif isinstance(command, StandDown):
            plan.stand_downs.append(command)
        elif isinstance(command, Return):
            plan.returns.append(command)
        elif isinstance(command, Move):
            plan.moves.append(command)
        elif isinstance(command, Forage):
            plan.foraging.append(command.corps.lower())  # names are read in any case
        elif isinstance(command, STANDING):
            plan.standing.append(command)
        elif isinstance(command, ConvertDepot):
            plan.converting.append(command.area.lower())
        elif isinstance(command, Besiege):
            plan.besieging.append(command.area.lower())
        elif isinstance(command, AttackBesiegers):
            plan.sallying.append(command)
        elif isinstance(command, GuerrillasAttack):
            plan.ambushes[command.area.lower()] = command.factors
    return plan


def check_orders(state: GameState, scenario: Scenario, power: str,
                 lines: Sequence[tuple[int, str]]) -> tuple[list[tuple[int, str, Command | None, str]], bool]:
    """Each line read and tried on a copy of the state in the order the sequence carries
    them out (depots removed, depots placed, moves, then what is done where the moves end:
    depots converted, cities besieged, besiegers attacked): (number, text, command, why not)."""
    trial = copy_state(state)
    read: list[tuple[int, str, Command | None, str]] = []
    for number, text in lines:
        try:
            read.append((number, text, parse_line(text), ""))
        except OrderSyntaxError as error:
            read.append((number, text, None, str(error)))
    phases = (STANDING, LEADER_ORDERS, RemoveDepot, PlaceDepot, JoinCorps, StandDown, Return, Move, ConvertDepot,
              Besiege, AttackBesiegers, GuerrillasAttack, Forage)
    moved: dict[str, int] = {}
    stood: set[str] = set()
    for kind in phases:
        for i, (number, text, command, why) in enumerate(read):
            if why or not isinstance(command, kind):
                continue
            try:
                if isinstance(command, STANDING):
                    standing.check(scenario, command, power)
                elif isinstance(command, LEADER_ORDERS):
                    leader_order(trial, scenario, power, command)
                elif isinstance(command, StandDown):
                    stand_down(trial, scenario, power, command)
                    stood.add(command.corps.lower())
                elif isinstance(command, Return):
                    if command.corps.lower() in stood:
                        raise OrderError(f"{command.corps} stands down this turn; it comes back in a later Land "
                                         "Movement Step (§10.1.3.3)")
                    return_corps(trial, scenario, power, command)
                elif isinstance(command, RemoveDepot):
                    remove_depot(trial, scenario, power, command.area)
                elif isinstance(command, PlaceDepot):
                    place_depot(trial, scenario, power, command.area)
                elif isinstance(command, JoinCorps):
                    join_corps(trial, scenario, power, command)
                elif isinstance(command, Move) and (irregular := own_irregular(trial, scenario, power, command.corps)):
                    if irregular.id in moved:
                        raise OrderError(f"{irregular.id} already moves in line {moved[irregular.id]} (§7.3.2)")
                    leave_for_move(trial, scenario, irregular)
                    irregular.area = ([irregular.area, *trace_irregular(trial, scenario, irregular, command)])[-1]
                    moved[irregular.id] = number
                    if command.city:
                        enter_city(trial, scenario, irregular)
                elif isinstance(command, Move):
                    corps = own_corps(trial, power, command.corps, scenario)
                    if corps.id in moved:
                        raise OrderError(f"{corps.id} already moves in line {moved[corps.id]} (§7.3.2)")
                    corps, legs = trace_part(trial, scenario, power, command)
                    moved[corps.id] = number
                    leave_for_move(trial, scenario, corps)
                    for leg in legs:
                        corps.area = leg.area
                        if leg.change:
                            change_garrison(trial, scenario, corps, leg.change)
                    if command.city:
                        enter_city(trial, scenario, corps)
                elif isinstance(command, ConvertDepot):
                    check_conversion(trial, scenario, power, command.area)
                elif isinstance(command, Besiege):
                    check_siege(trial, scenario, power, command.area)
                elif isinstance(command, AttackBesiegers):
                    check_garrison_attack(trial, scenario, power, command)
                elif isinstance(command, GuerrillasAttack):
                    check_guerrilla_attack(trial, scenario, power, command.area, command.factors,
                                           any(isinstance(c, Besiege) and not refused
                                               and c.area.lower() == command.area.lower()
                                               for _, _, c, refused in read))
                elif trial.besieged(corps := own_corps(trial, power, command.corps, scenario)):
                    raise OrderError(f"{corps.id} is besieged: it checks its supply in the city (§7.4.5)")
            except OrderError as error:
                read[i] = (number, text, command, str(error))
    return read, all(not why for _, _, _, why in read)


class LandKind(DecisionKind):
    """A power's whole land sequence as one block of lines (§7.1.3)."""

    name = "land"
    description = "a power's land orders for the month, one per line: " + LAND_FORMS.split(" are ", 1)[1]
    keywords = land_keywords()

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        if any(r.kind == self.name for r in owed):
            return InBlock(self.name)
        try:
            parse_line(text)
        except OrderSyntaxError:
            return None
        return Refused(not_owed(self.name, owed))

    def read_block(self, lines: Sequence[tuple[int, str]], request: Request, state: GameState, scenario: Scenario,
                   player: str) -> BlockRead:
        read, legal = check_orders(state, scenario, request.power or "", lines)
        verdicts = [verdict(n, text, not why, "" if command is None else f"land: {command.text()}", why)
                    for n, text, command, why in read]
        if not legal:
            first = next(f"line {n}: {why}" for n, _, _, why in read if why)
            return BlockRead(verdicts, refused=f"your land orders were refused and nothing was carried out: {first}; "
                                               "correct them and send them all again")
        return BlockRead(verdicts, answer=[c.text() for _, _, c, _ in read
                                           if c is not None and not isinstance(c, Stand)])

    def answer_policy(self, text: str, request: Request) -> list[str] | None:
        return [] if text.strip().upper() in ("STAND", "DEFAULT") else None

    def check_policy(self, text: str) -> str:
        if text.strip().upper() not in ("STAND", "DEFAULT"):
            return ("land orders are checked against the map of their own month, so a standing policy can only "
                    "say DO STAND")
        return ""

    def order_form(self, request: Request) -> str:
        """The default (STAND), after a comment naming the power's corps and where they stand."""
        corps = request.context.get("corps") or {}
        where = [f"# {request.power}'s corps: " + ", ".join(f"{c} in {a}" for c, a in corps.items())] if corps else []
        return "\n".join([*where, *(request.default or ["STAND"])])


LAND_KIND = LandKind()


# -- carrying the sequence out --------------------------------------------------------
def phasing_power(state: GameState, scenario: Scenario) -> str:
    return scenario.land_parts[state.land_index]


def trace_part(state: GameState, scenario: Scenario, power: str, move: Move) -> tuple[Corps, list[Leg]]:
    """A move checked as `trace` does, and against §7.3.8.5 when the power is a later ally of
    a combined sequence: it enters no area where an earlier ally declared an attack on a power
    it is not at war with."""
    corps, legs = trace(state, scenario, power, move)
    for leg in legs:
        why = coalitions.closed_to_ally(state, scenario, power, leg.area) if leg.entered else ""
        if why:
            raise OrderError(why)
    return corps, legs


def power_sequence(ctx: DecisionPort, state: GameState) -> None:
    """§7.1.3: the phasing power's Depot, Movement, Supply, Combat and Guerrilla Steps. Allies
    moving combined (§7.1.2) each take their part in turn, one step each: its orders, depots,
    moves and supply; the last part's Land Combat Step is the whole sequence's, every ally's
    combats, sieges and garrison attacks in it (§7.3.8, EIA-I161)."""
    scenario: Scenario = ctx.scenario
    power = phasing_power(state, scenario)
    group = scenario.combined_with(power)
    year, month = scenario.date(state.turn)
    holder = state.holder(power)
    lines: list[str] = []
    if holder is not None:
        lines = ctx.decide(ctx.request(
            kind="land", player=holder, power=power, purpose=f"land:{power}", default=[], rule="§7.1.3",
            prompt=f"{scenario.powers[power].name}'s land orders for {label(year, month)}",
            context={"power": power, "month": month, "year": year,
                     "corps": {c.id: c.area for c in [*state.corps, *state.irregulars]
                               if scenario.major(c.power) == power}}))
    plan = plan_of([parse_line(text) for text in lines])
    for order in plan.standing:
        standing.carry_out(ctx, state, scenario, power, order)
    for order in plan.leader_orders:
        try:
            rule = "§10.6.1.1.2" if isinstance(order, PreferCommanders) else "§5.3"
            ctx.say(leader_order(state, scenario, power, order), to=state.owner(power), rule=rule)
        except OrderError as error:
            _dropped(ctx, state, power, order.text(), error)
    depot_step(ctx, state, scenario, power, plan)
    marches = movement_step(ctx, state, scenario, power, plan, month)
    supply_step(ctx, state, scenario, power, plan, marches, month)
    state.combined.append(Part(power, lines, {corps: march.crossed_river for corps, march in marches.items()
                                              if march.crossed_river}))
    if power == group[-1]:
        combat_step(ctx, state, scenario, power)
    state.land_index += 1
    if state.land_index >= len(scenario.land_parts):
        state.land_index = 0
        state.phase = TIME_RECORD
    else:
        state.phase = LAND


def combat_step(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str) -> None:
    """The sequence's Land Combat Step (§7.1.3): the field combats of all its parts, the
    guerrillas each sends joining them (§10.1.1.3), then each part's sieges and garrison
    attacks in the sequence's order (§7.3.8.7, EIA-I161); then the sequence's Guerrilla Step
    (§7.6), its corps in the sequence's combats having fought."""
    parts, state.combined = state.combined, []
    plans = [(part.power, plan_of([parse_line(text) for text in part.orders])) for part in parts]
    for who, plan in plans:
        send_guerrillas(state, scenario, who, {a: plan.ambushes[a.lower()] for a in scenario.areas
                                               if a.lower() in plan.ambushes})
    sorties = {area: order for _, plan in plans for area in scenario.areas if (order := plan.sally(area)) is not None}
    relieved = battles.combat_step(
        ctx, state, scenario, power, {corps: area for part in parts for corps, area in part.crossed.items()},
        frozenset(area for area in scenario.areas if any(plan.converts(area) for _, plan in plans)), sorties)
    for who, plan in plans:
        for area in [a for a in scenario.areas if plan.besieges(a)]:
            battles.besiege(ctx, state, scenario, who, area)
        for area in scenario.areas:
            order = plan.sally(area)
            if order is not None and area not in relieved:  # a sortie with a relief attacks no further (§7.5.4.2.3)
                battles.attack_besiegers(ctx, state, scenario, who, order, area)
    fought = {c for b in state.battles if {b.attacker, *b.allies} & {who for who, _ in plans}
              for c in (*b.attacking, *b.defending)}
    for who, _ in plans:
        send_guerrillas(state, scenario, who, {})
    guerrilla_step(ctx, state, scenario, [who for who, _ in plans], fought)


def _dropped(ctx: DecisionPort, state: GameState, power: str, text: str, error: OrderError) -> None:
    ctx.say(f"{power}: {text} is not carried out: {error}", to=state.owner(power), rule="§7.1.3")


def depot_step(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, plan: Plan) -> None:
    """§7.2: depots removed, then placed."""
    for command in [*plan.removals, *plan.depots]:
        try:
            done = (remove_depot if isinstance(command, RemoveDepot) else place_depot)(
                state, scenario, power, command.area)
        except OrderError as error:
            _dropped(ctx, state, power, command.text(), error)
            continue
        ctx.say(done, rule="§7.2")


def movement_step(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, plan: Plan,
                  month: int) -> dict[str, March]:
    """§7.3: leaders join the corps they move with (§10.6.2); then each corps moved on its
    own, area by area; a corps that forages rolls as it completes its move (§7.3.1.4).
    Feudal and insurrection corps stand down and come back before the moves (§10.1.3.2–3);
    cossacks, freikorps and guerrillas move on their own rules (`irregulars.py`)."""
    for order in plan.leaders:
        try:
            ctx.say(join_corps(state, scenario, power, order), rule="§10.6.2")
        except OrderError as error:
            _dropped(ctx, state, power, order.text(), error)
    for levy in [*plan.stand_downs, *plan.returns]:
        try:
            if isinstance(levy, StandDown):
                ctx.say(stand_down(state, scenario, power, levy), rule="§10.1.3.2")
            else:
                corps = return_corps(state, scenario, power, levy)
                if scenario.corps_kind(corps.id) == "tyrol":
                    ctx.say(f"{power} places its Tyrol corps {corps.id} in {scenario.areas[corps.area].title}",
                            rule="§10.1.5")
                else:
                    ctx.say(f"{power} places its feudal corps {corps.id} back in {scenario.areas[corps.area].title}",
                            rule="§10.1.3.3")
        except OrderError as error:
            _dropped(ctx, state, power, levy.text(), error)
    marches: dict[str, March] = {}
    for move in plan.moves:
        try:
            irregular = own_irregular(state, scenario, power, move.corps)
            if irregular is not None:
                move_irregular(ctx, state, scenario, irregular, move)
                continue
            corps, legs = trace_part(state, scenario, power, move)
        except OrderError as error:
            _dropped(ctx, state, power, move.text(), error)
            continue
        march = March(corps.area, [], allowance(scenario, corps, move.force), move.force)
        leave_for_move(state, scenario, corps)
        stopped = False
        for i, leg in enumerate(legs):
            if leg.entered:
                enter(ctx, state, scenario, corps, leg, march)
            if leg.change:
                garrison_change(ctx, state, scenario, corps, leg, march)
            if leg.entered and activation(ctx, state, scenario, corps) and legs[i + 1:]:
                ctx.say(f"{corps.power} {corps.id} must stop in {scenario.areas[corps.area].title}: insurrection "
                        "corps stand there (§10.1.4.1.1)", rule="§10.1.4.1.1")
                stopped = True
                break
        spend_if_besieging(state, plan, corps, march)
        marches[corps.id] = march
        if march.moved:
            ctx.say(f"{corps.power} {corps.id} moves " + " > ".join(scenario.areas[a].title
                                                             for a in [march.start, *march.entered])
                    + (" (force march)" if move.force else ""), rule="§7.3.2")
        if move.city and not stopped:  # stopped short, it is not where its CITY meant (§10.1.4.1.1)
            go_inside(ctx, state, scenario, corps)
        # §7.4.1.1: the forage roll comes after the §7.3.8 procedure the move caused
        coalitions.clear_area(ctx, state, scenario, scenario.combined_with(power), corps.area)
        ravaged = reactions.end_in_enemy_depot(ctx, state, scenario, corps, plan.converts(corps.area))
        if ravaged:
            march.foraged = True
        elif corps.id.lower() in plan.foraging or must_forage(state, scenario, corps, march):
            march.foraged = True
            forage_now(ctx, state, scenario, corps, march, month)
    return marches


def move_irregular(ctx: DecisionPort, state: GameState, scenario: Scenario, irregular: Irregular, move: Move) -> None:
    """Cossacks, freikorps or guerrillas along their path (§7.3.2.2, §10.1.1.3.4, §10.1.2.2);
    they need no supply, so they neither forage nor pay (§7.4); one ending its move on an
    ungarrisoned enemy depot destroys it (§7.3.6.1)."""
    leave_for_move(state, scenario, irregular)
    entered = trace_irregular(state, scenario, irregular, move)
    start = irregular.area
    for area in entered:
        irregular.area = area
        if irregular.kind != "guerrilla":
            activation(ctx, state, scenario, irregular)
    if entered:
        ctx.say(f"{irregular.power} {NAMES[irregular.kind]} {irregular.id} move "
                + " > ".join(scenario.areas[a].title for a in [start, *entered]), rule="§7.3.2")
        reactions.end_in_enemy_depot(ctx, state, scenario, irregular)
    if move.city:  # at the end of its move, as a corps goes in (§7.3.4, EIA-I224)
        go_inside(ctx, state, scenario, irregular)


def go_inside(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps | Irregular) -> None:
    """§7.3.4: the corps (or irregular counter) ends its move inside its area's city, at no
    movement cost."""
    try:
        enter_city(state, scenario, corps)
    except OrderError as error:
        _dropped(ctx, state, corps.power, f"{corps.id} CITY", error)
        return
    ctx.say(f"{corps.power} {corps.id} enters the city of {scenario.areas[corps.area].title}", rule="§7.3.4")


def enter(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps, leg: Leg, march: March) -> None:
    march.crossed_river = leg.area if scenario.crosses_river(corps.area, leg.area) else ""
    corps.area = leg.area
    march.entered.append(leg.area)
    march.unused -= leg.cost
    if scenario.areas[leg.area].owner != corps.power:
        march.left_own_territory = True
    reactions.depot_entered(ctx, state, scenario, corps)


def garrison_change(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps, leg: Leg,
                    march: March) -> None:
    """§7.3.3: factors detached or absorbed as the corps passes, at no movement cost."""
    change = leg.change
    try:
        left = change_garrison(state, scenario, corps, change)
    except OrderError as error:
        _dropped(ctx, state, corps.power, f"{corps.id} {change.verb} {change.count} {change.kind}", error)
        return
    title = scenario.areas[leg.area].title
    if left is None:
        ctx.say(f"{corps.power} {corps.id} absorbs {change.count} {change.kind} from its garrison in {title}",
                rule="§7.3.3")
        return
    march.detached.append(left)
    where = "on its depot" if left.on_depot else "in the city"
    ctx.say(f"{corps.power} {corps.id} leaves {change.count} {left.kind} as a garrison {where} of {title}",
            rule="§7.3.3")


def spend_if_besieging(state: GameState, plan: Plan, corps: Corps, march: March) -> None:
    """§7.4.5.3: a besieging corps forages as if it had spent its full allowance, even in
    the siege's first sequence."""
    if plan.besieges(corps.area) or besieging(state, corps.power, corps.area):
        march.unused = 0


def must_forage(state: GameState, scenario: Scenario, corps: Corps, march: March) -> bool:
    """§7.4.1: a corps that force marched, or is four or more areas from a depot of a valid
    chain, must forage."""
    return march.force_marched or not suppliers(state, scenario, corps.power, corps.area)


def forage_now(ctx: DecisionPort, state: GameState, scenario: Scenario, corps: Corps, march: March,
               month: int) -> None:
    loss = forage(ctx, state, scenario, corps, march, month)
    if not loss:
        return
    take_losses(state, scenario, corps, march, loss)
    if not corps.strength:
        remove_corps(ctx, state, corps, "by foraging", "§7.4.1.3.2")


def supply_step(ctx: DecisionPort, state: GameState, scenario: Scenario, power: str, plan: Plan,
                marches: dict[str, March], month: int) -> None:
    """§7.4: every corps of the power and its minor free states (§7.1.1) that did not forage
    pays for depot supply, costs summed in half money points and rounded up once for each
    power that pays (EIA-I8): the power itself, or an ally whose depots it lives off
    (§7.4.2.2, EIA-I164); a corps four or more areas from a depot, or that the money left
    cannot pay for, forages (§7.4.1, §7.4.2.1). With option 12.3.1 a depot supplies four
    corps at most, in the state's order (EIA-I201)."""
    lift_sieges(ctx, state, scenario)
    besieged_supply(ctx, state, scenario, power)
    halves: dict[str, int] = {}
    supplied: dict[str, list[str]] = {}
    uses: dict[tuple[str, str], int] = {}
    limit = scenario.charts.supply.corps_per_depot if state.options.get("depot_limit") == "yes" else None
    for corps in [c for c in state.corps if scenario.major(c.power) == power
                   and not state.besieged(c)]:  # §7.4.5: besieged_supply
        march = marches.get(corps.id) or March(corps.area, [], allowance(scenario, corps, False))
        spend_if_besieging(state, plan, corps, march)
        if march.foraged:
            continue
        full = {depot for depot, n in uses.items() if limit is not None and n >= limit}
        costs = [(payer, depot, supply_cost_halves(scenario, depot[0], month, corps.area))
                 for payer, depot in suppliers(state, scenario, power, corps.area, full)]
        if corps.id.lower() in plan.foraging or not costs \
                or (halves.get(costs[0][0], 0) + costs[0][2] + 1) // 2 > state.powers[costs[0][0]].money:
            if not costs and full and suppliers(state, scenario, power, corps.area):
                ctx.say(f"{corps.id}: every depot within its reach supplies {limit} corps already: it forages",
                        to=state.owner(power), rule="12.3.1")
            forage_now(ctx, state, scenario, corps, march, month)
            continue
        payer, depot, cost = costs[0]
        uses[(payer, depot[1])] = uses.get((payer, depot[1]), 0) + 1
        halves[payer] = halves.get(payer, 0) + cost
        supplied.setdefault(payer, []).append(corps.id)
    for payer, owed in halves.items():
        paid = (owed + 1) // 2
        state.powers[payer].money -= paid
        holders = tuple(dict.fromkeys(h for h in (state.holder(payer), state.holder(power)) if h))
        whose = "" if payer == power else f" of {power}'s corps (§7.4.2.2)"
        ctx.say(f"{payer} pays {paid} money points for the depot supply{whose} of {', '.join(supplied[payer])}",
                to=holders, rule="§7.4.2.1")
