"""The French Wars of Religion (§33.4 "Special rules: French Wars of Religion (Turns 6, 7 and
8)", the turn sheets of §34; RR-I275): in a turn whose special rules name them, the contenders
— France, the Huguenots and the Catholic League — fight by rules of their own. A declaration of
war between contenders costs no morale; a peace between them is not compulsory (no forced
peace follows it), returns no area taken (but France's key areas when the turn says so) and
prices VP as a military victory; a loser the turn submits to the collapse rules collapses, and
a contender left without possessions disappears; a casus belli card naming France gives the
contenders casus belli against each other instead; the contenders' other enemies may not enter
France's home areas; and the wars' end makes a winner, who takes France's place. The
negotiations, declarations and moves are `negotiation.py`'s, `war.py`'s and `tactical.py`'s, the
losers' collapse `collapse.py`'s; this module holds what the Wars of Religion change in them.
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def contenders(state: GameState, scenario: Scenario) -> list[str]:
    """The contenders in play this turn, France first; none outside the Wars of Religion."""
    wars = scenario.french_wars(state.turn)
    return [p for p in wars.contenders if state.powers[p].active] if wars is not None else []


def between(state: GameState, scenario: Scenario, power: str, other: str) -> bool:
    """Whether `power` and `other` are two contenders of this turn's Wars of Religion."""
    found = contenders(state, scenario)
    return power != other and power in found and other in found


def check_entry(state: GameState, scenario: Scenario, power: str, area: str) -> None:
    """§33.4 "Powers at war with French powers can not enter French home areas (except for
    Calais, if it is not French)": a power that is no contender, at war with one, may not move
    into one of France's home areas that a contender possesses (Calais held by England is not
    French, so it may)."""
    found = contenders(state, scenario)
    if not found or power in found or area not in scenario.powers[found[0]].home_areas:
        return
    if state.areas[area].possessor in found and any(state.at_war(power, other) for other in found):
        raise IllegalOrder(f"{area} is a French home area and {power} is at war with a French power: it may not "
                           f"enter it during the French Wars of Religion (§33.4, RR-I275)")


def card_casus_belli(state: GameState, scenario: Scenario, holder: str, against: str) -> list[tuple[str, str]]:
    """§33.4 "All CB cards where France appears are ignored. Instead they are treated as CB
    between France, Huguenots and Catholic League (without the extra VP if they are already at
    war)": the (holder, against) pairs a casus belli card naming France gives instead — each
    contender against each other — or none when the card does not name France or the Wars of
    Religion are not on (then it is an ordinary casus belli)."""
    found = contenders(state, scenario)
    if not found or found[0] not in (holder, against):
        return []
    return [(one, other) for one in found for other in found if one != other]


def keep_conquests(state: GameState, scenario: Scenario, loser: str, winner: str) -> list[str]:
    """§33.4 "In peace conditions (between French powers), areas taken from opponents who lose
    the war are not returned (except for key areas in France in Turn 6)": the areas of the loser
    the winner controls become the winner's possessions; returns them."""
    wars = scenario.french_wars(state.turn)
    france = scenario.powers[wars.contenders[0]].home_areas if wars.return_key_areas else []
    taken = [a.id for a in scenario.data.areas
             if state.areas[a.id].possessor == loser and state.areas[a.id].controller == winner
             and not (a.key and a.id in france)]
    for area in taken:
        state.areas[area].possessor = winner
    return taken


def end_of_wars(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§33.4 "The French Wars of Religion end when there is only one contender left, or at the
    end of T8, in which case the winner is the power that has not collapsed and has the highest
    number of areas in France (ties are resolved using vitality)"; "If the winner is not France",
    it takes France's place; "If the
    Protestants win, during the next turn France will be allied with England and Holland. If the
    Catholic League wins, it will be allied with Spain" (the turn's `allies`). Runs after the
    turn's peace negotiations and the end of its alliances (E1), so those alliances last the
    next turn. Areas "in France" are France's home areas; a tie in both goes to the first
    contender the rule names. A turn's end with one contender left ends them early only when it
    is not France: France alone changes nothing until the deciding turn says it wins."""
    wars = scenario.french_wars(state.turn)
    if wars is None:
        return
    france = wars.contenders[0]
    home = scenario.powers[france].home_areas
    standing = [p for p in wars.contenders if state.powers[p].active and p not in state.collapsing]
    early = len(standing) == 1 and standing[0] != france  # one contender left, and not France
    if not (wars.decide or early):
        return
    if not standing:
        ctx.say("The French Wars of Religion end without a contender standing (§33.4)", rule="§33.4")
        return
    held = {p: sum(state.areas[a].possessor == p for a in home) for p in standing}
    winner = max(standing, key=lambda p: (held[p], scenario.powers[p].vitality))
    ctx.say(f"The French Wars of Religion end: {winner} wins with {held[winner]} area(s) in France "
            f"({', '.join(f'{p} {n}' for p, n in held.items())}; ties by vitality, §33.4)", rule="§33.4")
    if winner != france:
        _take_frances_place(ctx, state, france, winner)
    for ally in wars.allies.get(winner, []):
        if state.powers[ally].active and not state.at_war(france, ally) and not state.allied(france, ally):
            state.alliances.append((france, ally))
            ctx.say(f"{france} and {ally} are allied during the next turn (§33.4)", rule="§33.4")


def _take_frances_place(ctx: DecisionPort, state: GameState, france: str, winner: str) -> None:
    """§33.4 "replace all of its military units with France's (respecting veteranship) and
    replace France's unrest with his own. The player who controlled France immediately takes it
    over": the winner's units, leaders, possessions and merchants become France's, France takes
    its unrest, and the winner leaves the game (RR-I275)."""
    for unit in [*state.troops, *state.squadrons, *state.fortresses, *state.leaders]:
        if unit.power == winner:
            unit.power = france
    for status in state.areas.values():
        if status.possessor == winner:
            status.possessor = france
        if status.controller == winner:
            status.controller = france
    for held in state.merchants.values():
        if winner in held:
            held[france] = min(2, held.get(france, 0) + held.pop(winner))  # §19.2.2: two a power at most
    state.powers[france].unrest = state.powers[winner].unrest
    state.casus_belli = [cb for cb in state.casus_belli if winner not in cb]
    state.forced_peace = [pair for pair in state.forced_peace if winner not in pair]
    state.powers[winner].active = False
    state.powers[france].active = True  # France may have collapsed or disappeared: it comes back as the winner
    ctx.say(f"{winner} takes France's place: its units and possessions are {france}'s, {france}'s unrest is "
            f"{state.powers[france].unrest}, and {winner} leaves the game (§33.4)", rule="§33.4")
