"""Collapse of a major power (§21.6; example §32.10): an event makes a power collapse. It
cannot end its wars voluntarily; a war it loses leaves the areas the winner controls to the
winner for good; once it is at peace with all its enemies it is removed from the game. So do
the contenders of the French Wars of Religion that lose in a turn of collapse or are left
without possessions (§33.4, RR-I275). The negotiations themselves are `negotiation.py`'s; this
module holds what is collapse's own."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import french_wars, minors
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState


def begin(state: GameState, power: str) -> str:
    """§21.6 "Some events specify the collapse of a major power"."""
    if not state.powers[power].active:
        return f"{power} is not in play: it cannot collapse"
    if power not in state.collapsing:
        state.collapsing.append(power)
    return f"{power} collapses (§21.6): it cannot end its wars voluntarily, and leaves the game once at peace"


def keep_conquests(state: GameState, scenario: Scenario, loser: str, winner: str) -> list[str]:
    """§21.6: the collapsing loser "does not recover the areas controlled by the winner, but
    these pass directly as its possessions"; returns the areas."""
    taken = [a.id for a in scenario.data.areas
             if state.areas[a.id].possessor == loser and state.areas[a.id].controller == winner]
    for area in taken:
        state.areas[area].possessor = winner
    return taken


def remove(state: GameState, scenario: Scenario, judge: DecisionPort, power: str) -> str:
    """§21.6 "Once at peace with all its enemies … Eliminate all its military units, along
    with the rest of the markers, and finally place independent (active A3) counters in all the
    territories it still controlled, and the major power card is discarded" (§32.10). Its
    leaders leave the game with their units; its merchants, casus belli and forced peace go
    (RR-I168). Its allied minors turn neutral first (§20.4.1)."""
    minors.abandon(judge, state, scenario, power, f"{power}'s collapse")  # §21.6: its minors turn neutral
    units = state.remove_units_of(power)
    for held in state.merchants.values():
        held.pop(power, None)
    state.casus_belli = [cb for cb in state.casus_belli if power not in cb]
    state.forced_peace = [pair for pair in state.forced_peace if power not in pair]
    independent = []
    for area in scenario.data.areas:
        status = state.areas[area.id]
        if status.controller == power:
            status.controller = status.possessor = None
            status.independent, status.rebellion = "A3", None
            independent.append(area.id)
        elif status.possessor == power:
            status.possessor = status.controller  # nobody's possession any more: its holder keeps it
    state.powers[power].active = False
    state.collapsing = [p for p in state.collapsing if p != power]
    text = (f"{power} is at peace with all its enemies and leaves the game (§21.6): {len(units)} unit(s) eliminated"
            f"; {', '.join(independent) or 'no area'} become(s) active A3 independent areas")
    judge.say(text, rule="§21.6")
    return text


def after_french_peace(state: GameState, scenario: Scenario, judge: DecisionPort, loser: str | None) -> None:
    """After a peace between contenders: §33.4 "Turn 7: Huguenots and Catholic League apply
    collapse rules (provided that peace is not reached with the card Catherine de Medici) …
    Turn 8: French contenders apply the collapse rules" — a loser the turn names collapses
    (§21.6: its other wars end in peace and it leaves the game, `negotiation.py`), unless the
    turn's sparing card has been played this turn; then the contenders left without possessions
    disappear."""
    wars = scenario.french_wars(state.turn)
    spared = wars.spared_by is not None and any(scenario.cards[n].title == wars.spared_by for n in state.discard)
    if spared and loser in wars.collapse:
        judge.say(f"{loser} loses, but {wars.spared_by} has been played this turn: it does not collapse (§33.4)",
                  rule="§33.4")
    elif loser is not None and loser in wars.collapse and loser not in state.collapsing:
        judge.say(f"{loser} loses a war of the French Wars of Religion in a turn of collapse: "
                  f"{begin(state, loser)}", rule="§33.4, §21.6")
    _disappear(state, scenario, judge)


def _disappear(state: GameState, scenario: Scenario, judge: DecisionPort) -> None:
    """§33.4 "French powers without possessions disappear immediately": a contender that
    possesses no area leaves the game as a collapsed power does (§21.6, `collapse.remove`)."""
    for power in french_wars.contenders(state, scenario):
        if not any(status.possessor == power for status in state.areas.values()):
            judge.say(f"{power} has no possessions left: it disappears (§33.4, RR-I275)", rule="§33.4")
            state.wars = [war for war in state.wars if power not in war.sides]
            remove(state, scenario, judge, power)
