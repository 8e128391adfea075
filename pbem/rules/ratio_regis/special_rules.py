"""Turn special rules (§8.1.1, §34) and the events in force at a scenario's start (§7.2,
§26.1), applied at turn start from the scenario's data.

A scenario's own rules for its first turn replace the turn sheet's (§33 "Instructions"):
the scenario file holds, for each turn, the rules that apply, so the sheet of a turn the
scenario starts in is simply not copied there.
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import events, rebellions
from pbem.rules.ratio_regis.scenario import Activation, Scenario, SpecialEffect
from pbem.rules.ratio_regis.state import GameState

#: The card effects that last (§26.1 "events … active"); the others happened once, before
#: the scenario starts, and its map shows their result (RR-I203).
LASTING_EFFECTS = ("set_nod", "allow_piracy", "add_interest", "activate")


def apply_turn(ctx: DecisionPort, state: GameState) -> None:
    """§8.1.1: this turn's special rules, announced and their effects applied in order; at
    the scenario's first turn the active events of earlier turns first (§26.1)."""
    scenario: Scenario = ctx.scenario
    state.excluded_turn = []
    if state.turn == scenario.data.first_turn:
        _active_events(ctx, state, scenario)
    for rule in scenario.data.turn_rules:
        if rule.turn != state.turn:
            continue
        ctx.say(f"Special rule of the turn: {rule.text}", rule="§8.1.1")
        for effect in rule.effects:
            ctx.say(f"  {apply_effect(ctx, state, scenario, effect)}", rule="§8.1.1")


def _active_events(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§7.2, §26.1, RR-I203: the events of the turns not played are in force: their
    lasting effects apply, and their cards, played already, are out of the deck."""
    state.active_events = list(scenario.data.active_events)
    if state.active_events:
        ctx.say("Active events of earlier turns: " + ", ".join(state.active_events), rule="§26.1")
    for title in state.active_events:
        card = scenario.card_titled(title)
        if card is None:
            continue
        if card.number not in state.excluded:
            state.excluded.append(card.number)
        lasting = card.model_copy(update={"effects": [e for e in card.effects
                                                      if any(getattr(e, n) is not None for n in LASTING_EFFECTS)]})
        events.apply_event(state, scenario, ctx, lasting)


def apply_effect(ctx: DecisionPort, state: GameState, scenario: Scenario, effect: SpecialEffect) -> str:
    """One special rule's effect (the kinds `SpecialEffect` names); returns what it did."""
    if effect.activate is not None:
        return _activate(state, scenario, scenario.parts(effect.activate))
    if effect.deactivate is not None:
        areas = [a for a in scenario.parts(effect.deactivate) if state.exists(a)]
        state.inactive += areas
        return f"out of play (§7.2): {', '.join(areas) or 'nothing new'}"
    if effect.markers is not None:
        return _markers(state, scenario, effect.markers.level, scenario.parts(effect.markers.parts))
    if effect.interests is not None or effect.add_interest is not None:
        table = effect.interests if effect.interests is not None else {effect.add_interest[0]: [effect.add_interest[1]]}
        return "; ".join(_interest(state, scenario, power, theaters) for power, theaters in sorted(table.items()))
    if effect.exclude is not None:
        return _exclude(state, scenario, effect.exclude.cards, effect.exclude.game)
    if effect.capacity is not None:
        state.capacities.update(effect.capacity)
        return "trade center capacity: " + ", ".join(f"{tc} {n}" for tc, n in sorted(effect.capacity.items()))
    if effect.fixed_merchants is not None:
        state.fixed_merchants.update(effect.fixed_merchants)
        return "merchants no competition removes: " + ", ".join(
            f"{n} in {tc}" for tc, n in sorted(effect.fixed_merchants.items()))
    if effect.merchants is not None:
        m = effect.merchants
        there = state.merchants.setdefault(m.trade_center, {})
        there[m.power] = there.get(m.power, 0) + m.count
        return f"{m.count} merchant(s) of {m.power} placed in {m.trade_center} (§19.2)"
    if effect.interfaith_diplomacy is not None:
        state.interfaith_diplomacy = effect.interfaith_diplomacy
        return (f"a minor's alliance between a Christian and a Muslim power costs {effect.interfaith_diplomacy} more "
                f"unrest, the bid limit unchanged (§20.3.1, RR-I253)")
    taken = [a for a in effect.possess.areas if state.exists(a)]
    for area in taken:
        state.areas[area].possessor = state.areas[area].controller = effect.possess.power
        state.areas[area].independent = state.areas[area].rebellion = None
    return f"{effect.possess.power} possesses {', '.join(taken)} (§24)"


def _activate(state: GameState, scenario: Scenario, areas: list[str]) -> str:
    """§18.2.1: inactive areas come into play — as active independents when the map gives
    them a level (RR-I82), else as they are printed (a power's home areas wait for its
    deployment, §24)."""
    waiting = [a for a in areas if not state.exists(a)]
    leveled = [a for a in waiting if scenario.areas[a].independent]
    texts = rebellions.activate(state, scenario, Activation(areas=leveled)) if leveled else []
    plain = [a for a in waiting if a not in leveled]
    for area in plain:
        state.inactive.remove(area)
    if plain:
        texts.append(f"in play: {', '.join(plain)}")
    return "; ".join(texts) or "activated: nothing new"


def _markers(state: GameState, scenario: Scenario, level: str, areas: list[str]) -> str:
    """§7.2: independent markers make an area independent (no possessor, §18.2.2);
    rebellion markers put it in revolt (§18.3)."""
    placed = [a for a in areas if state.exists(a)]
    for area in placed:
        status = state.areas[area]
        if level.startswith("A"):
            status.independent, status.possessor, status.controller, status.rebellion = level, None, None, None
        else:
            status.rebellion = level
    return f"{level} placed in {', '.join(placed) or 'no area in play'} (§7.2)"


def _interest(state: GameState, scenario: Scenario, power: str, theaters: list[str]) -> str:
    """§18.4.1, RR-I206: the turn's INTEREST table gives a power its theaters of interest;
    those beyond its card's are kept as added, and none is taken away."""
    added = state.interests.setdefault(power, [])
    new = [t for t in theaters if t not in scenario.powers[power].interests and t not in added]
    added += new
    return f"{power} interest {', '.join(theaters)}" + (f" (new: {', '.join(new)})" if new else "")


def _exclude(state: GameState, scenario: Scenario, titles: list[str], game: bool) -> str:
    """§8.1.4, §34: cards out of the deck for this turn, or for the rest of the game."""
    into = state.excluded if game else state.excluded_turn
    for title in titles:
        card = scenario.card_titled(title)
        if card is not None and card.number not in into:
            into.append(card.number)
    return f"out of the deck {'for the game' if game else 'this turn'}: {', '.join(titles)} (§8.1.4)"
