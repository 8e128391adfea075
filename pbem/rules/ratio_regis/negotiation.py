"""Peace negotiations (§21.4–§21.5; examples §21.5.1, §31.10, §31.11, §32.3, §32.10).

A war ends by negotiation: voluntary, at the start of the power's own impulse when it has
lost at least half its morale (§21.4.1: `<POWER> F PEACE WITH <enemy>`), forced when it has
lost its last morale counter or its last possession (§21.4.2: it picks the enemy, a
`negotiate` decision), and for every war at turn end (§23, in §21.5.5's order). `make_peace`
is the procedure of §21.5: the area adjustment and the requester's penalty (§21.5.1), the
cap, the result, unrest (§21.5.2) and the war's VP, the terms (§21.5.3, `peace_terms.py`),
the return of areas and the repatriations (§14), forced peace (§21.5.4) and the morale
counters recovered (§21.3.4). A collapsing power (§21.6) then makes peace with every other
enemy and leaves the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.core.orders import unknown_name
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import automatic, collapse, french_wars, independents
from pbem.rules.ratio_regis.actions import ImpulseRun
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.objectives import counts_as_key
from pbem.rules.ratio_regis.orders import PeaceTalks
from pbem.rules.ratio_regis.peace_terms import apply_terms, ask_terms, gain_vp
from pbem.rules.ratio_regis.repatriation import repatriate
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import AreaState, GameState, War
from pbem.rules.ratio_regis.war import give_morale


@dataclass
class Talks:
    """One negotiation's count: the virtual points each side holds besides real counters
    (§21.5.1 "this difference is also taken into account")."""

    war: War
    virtual: dict[str, int]

    def held(self, power: str) -> int:
        return self.war.morale.get(power, 0) + self.virtual[power]

    def status(self) -> str:
        a, b = self.war.sides
        return f"{a} {self.held(a)}–{self.held(b)} {b}"


def deliver(state: GameState, talks: Talks, giver: str) -> str:
    """§21.5.1 "deliver" a morale point: one of the giver's own counters; with none left, one
    it took from this enemy handed back (RR-I162); with neither, a virtual point."""
    war = talks.war
    receiver = war.enemy(giver)
    if state.powers[giver].morale > 0:
        state.powers[giver].morale -= 1
        war.morale[receiver] = war.morale.get(receiver, 0) + 1
        return f"{giver} gives one of its counters"
    if war.morale.get(giver, 0) > 0:
        war.morale[giver] -= 1
        state.powers[receiver].morale += 1
        return f"{giver} hands back one of {receiver}'s counters"
    talks.virtual[receiver] += 1
    return f"{giver} has none to give or hand back: a virtual point"


@dataclass(frozen=True)
class Losses:
    """What a power lost to its enemy in the area adjustment (§21.5.1)."""

    areas: int  # non-key areas
    colonies: int  # mini-map colonies (v2.1: mini-map home areas)


def areas_lost(state: GameState, scenario: Scenario, power: str, enemy: str) -> Losses:
    """§21.5.1 (RR-I163): the power's areas its enemy controls now, key areas not counted
    (their loss already cost morale), nor areas that count as key for being an objective of
    either (§21.3.5, RR-I297). On the mini-maps each colony counts 1 by itself; v2.1
    counts only home areas so, the domains there counting as other areas."""
    v21 = state.options.variant == "v2.1"
    home = scenario.powers[power].home_areas
    areas = colonies = 0
    for area in scenario.data.areas:
        status = state.areas[area.id]
        if status.possessor != power or status.controller != enemy or not state.exists(area.id) \
                or counts_as_key(scenario, area.id, power, enemy):
            continue
        colony = area.map != "main" and (area.id in home or not v21)
        colonies += colony
        areas += not colony
    return Losses(areas, colonies)


def make_peace(state: GameState, scenario: Scenario, judge: DecisionPort, war: War, *,
               requester: str | None = None) -> str:
    """§21.5: the whole negotiation of `war`; `requester` opened it (None: turn end, whose
    penalty step is skipped, §21.5). Returns the result's chronicle line."""
    a, b = war.sides
    talks = Talks(war, {a: 0, b: 0})
    why = f"requested by {requester}" if requester else "at turn end"
    judge.say(f"Peace negotiations between {a} and {b} ({why}): war status {talks.status()}", rule="§21.5")
    for receiver, lost in war.owed:
        judge.say(f"{war.enemy(receiver)} does not give {receiver} the counter it owes ({lost}): in the book "
                  f"this negotiation comes first and the loss never happens (§21.4.2, RR-I161)", rule="§21.4.2")
    _adjust_for_areas(state, scenario, judge, talks)
    if requester is not None:
        text = deliver(state, talks, requester)
        judge.say(f"{requester} asked for peace: {text}; {talks.status()}", rule="§21.5.1")
    winner, margin = _result(scenario, talks)
    text = _settle(state, judge, talks, winner, margin)
    ceded: list[str] = []
    state.wars.remove(war)  # at peace: a minor the terms move and the repatriations below meet no enemy (§14.1.1)
    independents.war_over(judge, state, scenario, war)  # §20.5: before the terms, which may move the minor
    if winner is not None and margin > 0:
        ceded = apply_terms(state, scenario, judge, winner, war.enemy(winner),
                            ask_terms(state, scenario, judge, winner, war.enemy(winner), margin))
    state.powers[a].morale += war.morale.get(b, 0)
    state.powers[b].morale += war.morale.get(a, 0)
    _return_areas(state, scenario, judge, war, winner, ceded)
    religious = french_wars.between(state, scenario, a, b)  # §33.4: "peace … is not compulsory" (RR-I275)
    if not religious and (a, b) not in state.forced_peace and (b, a) not in state.forced_peace:
        state.forced_peace.append((a, b))
    judge.say(f"{a} and {b} are at peace, " + ("free to declare war again this turn (§33.4)" if religious else
              "in forced peace until the end of the turn (§21.5.4)") + "; each recovers its morale counters "
              f"(§21.3.4): {a} has {state.powers[a].morale}, {b} {state.powers[b].morale}", rule="§21.5.4")
    if religious:
        collapse.after_french_peace(state, scenario, judge, war.enemy(winner) if winner else None)
    for side in war.sides:
        if side in state.collapsing:
            _collapse(state, scenario, judge, side, at_turn_end=requester is None)
    return text


def _adjust_for_areas(state: GameState, scenario: Scenario, judge: DecisionPort, talks: Talks) -> None:
    """§21.5.1: the net loser of non-key areas delivers one point per two areas of difference
    (rounded down), and each side one per mini-map colony lost."""
    a, b = talks.war.sides
    lost = {a: areas_lost(state, scenario, a, b), b: areas_lost(state, scenario, b, a)}
    difference = lost[a].areas - lost[b].areas
    owed = {a: max(difference, 0) // 2 + lost[a].colonies, b: max(-difference, 0) // 2 + lost[b].colonies}
    said = [f"{p} lost {lost[p].areas} non-key area(s)" + (f" and {lost[p].colonies} colony(ies)"
                                                            if lost[p].colonies else "") for p in (a, b)]
    steps = [deliver(state, talks, p) for p in (a, b) for _ in range(owed[p])]
    judge.say(f"Area adjustment: {'; '.join(said)}: " + (", ".join(steps) if steps else "nothing to deliver")
              + f"; {talks.status()}", rule="§21.5.1")


def _result(scenario: Scenario, talks: Talks) -> tuple[str | None, int]:
    """§21.5.1: the favourable side wins by the differential, capped at the loser's vitality."""
    a, b = talks.war.sides
    difference = talks.held(a) - talks.held(b)
    if difference == 0:
        return None, 0
    winner = a if difference > 0 else b
    return winner, min(abs(difference), scenario.powers[talks.war.enemy(winner)].vitality)


def _settle(state: GameState, judge: DecisionPort, talks: Talks, winner: str | None, margin: int) -> str:
    """§21.5.2 unrest, virtual points included (§31.11); the war's card VP to the winner
    (§21.3.1, §22)."""
    war = talks.war
    a, b = war.sides
    if winner is None:
        for power in (a, b):
            state.powers[power].unrest += talks.held(war.enemy(power))
        text = (f"The war between {a} and {b} ends in a draw ({talks.status()}): unrest {a} +{talks.held(b)}, "
                f"{b} +{talks.held(a)}")
        judge.say(text, rule="§21.5.2")
        return text
    loser = war.enemy(winner)
    lost = talks.held(loser) + margin  # what the winner holds, as capped
    state.powers[winner].unrest += talks.held(loser) // 2
    state.powers[loser].unrest += lost
    text = (f"{winner} wins the war against {loser} by {margin}"
            + (f" (capped at {loser}'s vitality)" if talks.held(winner) - talks.held(loser) > margin else "")
            + f": unrest {winner} +{talks.held(loser) // 2}, {loser} +{lost}")
    vp = (war.cause == "event") + war.card_vp
    judge.say(text + (f"; the war's card VP: {gain_vp(state, winner, vp)}" if vp else ""), rule="§21.5.2, §22")
    return text


def _return_areas(state: GameState, scenario: Scenario, judge: DecisionPort, war: War, winner: str | None,
                  ceded: list[str]) -> None:
    """§21.5.3: areas each side controls of the other's go back unless ceded (a collapsing
    loser's pass to the winner, §21.6); then each side's units leave the other's areas (§14),
    and third powers leave the areas ceded unless at war with the new owner (RR-I166)."""
    a, b = war.sides
    loser = war.enemy(winner) if winner else None
    kept = collapse.keep_conquests(state, scenario, loser, winner) if loser in state.collapsing else []
    if kept:
        judge.say(f"{loser} collapses: {', '.join(kept)} become {winner}'s possessions (§21.6)", rule="§21.6")
    if loser is not None and french_wars.between(state, scenario, loser, winner):
        kept = french_wars.keep_conquests(state, scenario, loser, winner)
        judge.say(f"Peace between contenders of the French Wars of Religion: {', '.join(kept) or 'no area'} "
                  f"taken from {loser} become {winner}'s possessions (§33.4)", rule="§33.4")
    returned = []
    for area in scenario.data.areas:
        status = state.areas[area.id]
        if {status.possessor, status.controller} == {a, b} and area.id not in ceded:
            status.controller = status.possessor
            returned.append(area.id)
    if returned:
        judge.say(f"Areas returned: {', '.join(returned)} (§21.5.3)", rule="§21.5.3")
    for power in (a, b):
        places = _units_in(state, scenario, power, lambda status, enemy=war.enemy(power): status.controller == enemy)
        if places:
            repatriate(state, scenario, judge, power, places, why=f"peace between {a} and {b}")
    for third in scenario.power_order:
        if third in (a, b) or not state.powers[third].active or (winner and state.at_war(third, winner)):
            continue
        places = [p for p in _units_in(state, scenario, third, lambda status: True) if p in ceded]
        if places:
            repatriate(state, scenario, judge, third, places, why=f"{', '.join(places)} ceded to {winner}")


def _units_in(state: GameState, scenario: Scenario, power: str, where: Callable[[AreaState], bool]) -> list[str]:
    """The areas, in the scenario's order, where `power` has troops, fortresses or squadrons
    in port and `where(status)` holds."""
    held = ({t.area for t in state.troops if t.power == power and t.area}
            | {f.area for f in state.fortresses if f.power == power}
            | {s.port for s in state.squadrons if s.power == power and s.port})
    return [a.id for a in scenario.data.areas if a.id in held and where(state.areas[a.id])]


def _collapse(state: GameState, scenario: Scenario, judge: DecisionPort, power: str, *, at_turn_end: bool) -> None:
    """§21.6: the collapsing power "is now forced to negotiate peace with any other major
    powers with which it was at war (even if it was winning)", in the order the wars broke
    out, as the requester except at turn end (RR-I167); then it leaves the game."""
    for war in [w for w in state.wars if power in w.sides]:
        if war in state.wars:
            make_peace(state, scenario, judge, war, requester=None if at_turn_end else power)
    if power in state.collapsing and not state.at_war(power):
        collapse.remove(state, scenario, judge, power)


# -- voluntary negotiation (§21.4.1) --------------------------------------------------------
def morale_lost(state: GameState, power: str) -> int:
    """The counters `power`'s current enemies hold from it (§21.4.1)."""
    return sum(war.morale.get(war.enemy(power), 0) for war in state.wars if power in war.sides)


def may_ask(state: GameState, scenario: Scenario, power: str) -> bool:
    """§21.4.1 "lost at least half of its morale points" (RR-I160: exactly half or more,
    so a vitality of 5 asks with 3 lost; `peace_half=down`: 2)."""
    vitality = scenario.powers[power].vitality
    needed = vitality // 2 if state.options.peace_half == "down" else -(-vitality // 2)
    return morale_lost(state, power) >= needed


def ask_for_peace(state: GameState, scenario: Scenario, power: str, order: PeaceTalks, run: ImpulseRun) -> str:
    """§21.4.1: at the start of its impulse (`F`), a power that has lost at least half its
    morale to its enemies opens negotiations with any of them; it may do so again while the
    condition holds. A collapsing power cannot (§21.6)."""
    enemy = order.target
    if enemy not in scenario.powers:
        raise IllegalOrder(unknown_name("power", enemy, scenario.power_order))
    war = state.war(power, enemy)
    if war is None:
        raise IllegalOrder(f"{power} is not at war with {enemy}")
    if power in state.collapsing:
        raise IllegalOrder(f"{power} is collapsing: it cannot end a war voluntarily (§21.6)")
    if not may_ask(state, scenario, power):
        raise IllegalOrder(f"{power} has lost {morale_lost(state, power)} of its {scenario.powers[power].vitality} "
                           f"morale counters to its enemies: it asks for peace with at least half lost (§21.4.1, "
                           f"RR-I160)")
    return make_peace(state, scenario, run.judge, war, requester=power)


# -- forced negotiation (§21.4.2) -----------------------------------------------------------
def must_negotiate(state: GameState, power: str) -> bool:
    """§21.4.2: a power at war with no morale counter left, or without the control of any
    of its possessions; a possession in revolt is not controlled (§18.3: its possessor
    "loses control" of it)."""
    if not state.powers[power].active or not state.at_war(power):
        return False
    holds = any(status.possessor == power and status.controller == power and not status.rebellion
                for status in state.areas.values())
    return state.powers[power].morale < 1 or not holds


def forced_negotiations(state: GameState, scenario: Scenario, judge: DecisionPort) -> list[str]:
    """§21.4.2 (RR-I161): after the action or event in which a power lost its last morale
    counter or its last possession, it negotiates with an enemy it picks; after each
    negotiation the first power in the scenario's order still or newly in that state and at
    war negotiates next, until none is; then the impulse goes on.

    The book stops the game at the instant of the last counter and resumes the action after
    the negotiation, so a counter lost later in it comes from those the negotiation gave back
    (§21.5.1's second example: 1–4). Here the action runs to its end first — peace in the
    middle of a combat would repatriate units the combat is still moving, and battles and
    control would have to call peace, an import circle — so such a loss is owed (`War.owed`,
    written by `give_morale`) and given after each negotiation by whoever recovered counters;
    one owed to the enemy the power negotiates with goes with that war (`make_peace`). A
    power the debts leave with none negotiates again."""
    if not state.wars:  # only a power at war negotiates: nothing to look for after most actions
        return []
    texts = []
    while (power := next((p for p in scenario.power_order if must_negotiate(state, p)
                          and automatic.negotiates(state, scenario, p)), None)) is not None:
        enemy = choose_enemy(state, judge, power)
        judge.say(f"{power} must open peace negotiations (§21.4.2): it chooses {enemy}", rule="§21.4.2")
        texts.append(make_peace(state, scenario, judge, state.war(power, enemy), requester=power))
        for debtor in scenario.power_order:
            pay_owed(state, judge, debtor)
    return texts


def pay_owed(state: GameState, judge: DecisionPort, power: str) -> None:
    """§21.5.1 "A must deliver one of its newly recovered morale": the counters `power` owes
    (RR-I161), in the order of its wars and, in each, of the losses, while it has any."""
    for war in [w for w in state.wars if power in w.sides]:
        for receiver, why in [debt for debt in war.owed if debt[0] == war.enemy(power)]:
            if state.powers[power].morale < 1:
                return
            war.owed.remove((receiver, why))
            give_morale(state, judge, power, receiver, f"{why}, owed since its last counter", "§21.3.5, §21.4.2")


def enemies(state: GameState, power: str) -> list[str]:
    """`power`'s enemies, most counters held from it first, then in the order of the wars."""
    wars = [war for war in state.wars if power in war.sides]
    ranked = sorted(range(len(wars)), key=lambda i: -wars[i].morale.get(wars[i].enemy(power), 0))
    return [wars[i].enemy(power) for i in ranked]


def choose_enemy(state: GameState, judge: DecisionPort, power: str) -> str:
    """The `negotiate` decision: the enemy the forced power negotiates with (§21.4.2: "not
    mandatory … with the major power that has received the last point"); default the one
    holding most of its counters (RR-I161). One enemy, or a power nobody plays: not asked."""
    choices = enemies(state, power)
    player = state.powers[power].player
    if len(choices) == 1 or player is None:
        return choices[0]
    request = judge.request(kind="negotiate", player=player, power=power, purpose="negotiate",
                            default=f"NEGOTIATE WITH {choices[0]}",
                            options=[f"NEGOTIATE WITH {enemy}" for enemy in choices], rule="§21.4.2",
                            context={"power": power, "enemies": tuple(choices)},
                            prompt=f"{power} must open peace negotiations (§21.4.2): choose the enemy "
                                   f"({', '.join(choices)}); default NEGOTIATE WITH {choices[0]}")
    return judge.decide(request).split()[-1]


def _parse_negotiate(text: str) -> str | None:
    words = text.upper().split()
    if not words or words[0] != "NEGOTIATE":
        return None
    if words == ["NEGOTIATE", "AUTO"]:
        return "AUTO"
    if len(words) != 3 or words[1] != "WITH":
        raise Refusal("write NEGOTIATE WITH <power> or NEGOTIATE AUTO")
    return words[2]


def _check_negotiate(request: Request, enemy: str) -> str:
    if enemy == "AUTO":
        return request.default
    if enemy not in request.context["enemies"]:
        raise Refusal(f"{request.context['power']} is not at war with {enemy} (its enemies: "
                      f"{', '.join(request.context['enemies'])})")
    return f"NEGOTIATE WITH {enemy}"


def _form_negotiate(value: str) -> str:
    if value.startswith("NEGOTIATE"):
        return value
    return "NEGOTIATE AUTO" if value == "AUTO" else f"NEGOTIATE WITH {value}"


NEGOTIATE_KIND = LineKind("negotiate", "the enemy you open forced peace negotiations with (§21.4.2): "
                                       "NEGOTIATE WITH <power> | NEGOTIATE AUTO",
                          parse=_parse_negotiate, form=_form_negotiate, check=_check_negotiate,
                          keywords=("NEGOTIATE",))



# -- turn end (§23, E1) ---------------------------------------------------------------------
def end_of_turn(judge: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§23: "All wars … are terminated" through negotiations without a requester (§21.5),
    in v2.1 §21.5.5's order (a clarification, both editions; RR-I165): wars begun by a card
    first, in the order the cards were played, then the others in the order they broke out.
    Then the areas held of third powers go back (§13.3.7); casus belli lapse (§21.3.2). A war
    with a power the rules play goes on (§33.1, RR-I293)."""
    played = {card: index for index, card in enumerate(state.discard)}
    order = sorted(range(len(state.wars)), key=lambda i: (state.wars[i].card not in played,
                                                          played.get(state.wars[i].card, 0), i))
    for war in [state.wars[i] for i in order]:
        if war in state.wars and not automatic.endless(scenario, war):
            make_peace(state, scenario, judge, war)
    _return_third_powers_areas(state, scenario, judge)
    state.casus_belli = []


def _return_third_powers_areas(state: GameState, scenario: Scenario, judge: DecisionPort) -> None:
    """§13.3.7: a power holding an area of a third power it is not at war with "must eliminate
    the control marker (if still retained) at the end of the turn, returning it to the nominal
    owner" — once every war has ended, any area a major power controls and another possesses;
    the holder's units there go home (§14, RR-I166)."""
    held: dict[str, list[str]] = {}
    for area in scenario.data.areas:
        status = state.areas[area.id]
        if status.possessor in state.powers and status.controller in state.powers \
                and status.controller != status.possessor:
            held.setdefault(status.controller, []).append(area.id)
            status.controller = status.possessor
    for power in [p for p in scenario.power_order if p in held]:
        judge.say(f"{power} returns {', '.join(held[power])} to their owners at turn end (§13.3.7)", rule="§13.3.7")
        places = [p for p in _units_in(state, scenario, power, lambda status: True) if p in held[power]]
        if places:
            repatriate(state, scenario, judge, power, places, why="control returned at turn end")
