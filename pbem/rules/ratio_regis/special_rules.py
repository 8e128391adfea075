"""Turn special rules (§8.1.1, §34) and the events in force at a scenario's start (§7.2,
§26.1), applied at turn start from the scenario's data.

A scenario's own rules for its first turn replace the turn sheet's (§33 "Instructions"):
the scenario file holds, for each turn, the rules that apply, so the sheet of a turn the
scenario starts in is simply not copied there.
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import alliances, events, french_wars, minors, objectives, rebellions
from pbem.rules.ratio_regis.scenario import Activation, Alliance, Markers, Scenario, SpecialEffect
from pbem.rules.ratio_regis.state import GameState

#: The card effects that last (§26.1 "events … active"); the others happened once, before
#: the scenario starts, and its map shows their result (RR-I203).
LASTING_EFFECTS = ("set_nod", "allow_piracy", "add_interest", "activate")


def apply_turn(ctx: DecisionPort, state: GameState) -> None:
    """§8.1.1: this turn's special rules, announced and their effects applied in order; at
    the scenario's first turn the active events of earlier turns first (§26.1)."""
    scenario: Scenario = ctx.scenario
    state.excluded_turn = []
    state.cardless = None
    if state.turn == scenario.data.first_turn:
        state.minors_out = [e.minor_appears for rule in scenario.data.turn_rules if rule.turn > state.turn
                            for e in rule.effects if e.minor_appears is not None]  # RR-I271
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
    if effect.minor_appears is not None:
        return _appear(state, scenario, effect.minor_appears)
    if effect.alliance is not None:
        return _alliance(ctx, state, scenario, effect.alliance)
    if effect.objectives is not None:
        return "at the end of the turn, VP for: " + "; ".join(
            f"{objectives.describe(o)} ({o.vp} VP{', ' + ', '.join(o.powers) if o.powers else ''})"
            for o in effect.objectives) + " (§22)"
    if effect.cardless is not None:
        state.cardless = (effect.cardless.impulses, effect.cardless.actions)
        return (f"played without cards: {effect.cardless.impulses} impulses a player, each of "
                f"{effect.cardless.actions} actions (§33.1)")
    if effect.revolt_at_end is not None:
        return (f"at the end of the turn the independent areas of {', '.join(_parts(scenario, effect.revolt_at_end))} "
                f"become {effect.revolt_at_end.level} revolts (§33.4)")
    if effect.french_wars is not None:
        return (f"the French Wars of Religion this turn, between {', '.join(effect.french_wars.contenders)}: "
                f"war among them costs no morale and peace is not compulsory (§33.4, RR-I275)")
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


def _appear(state: GameState, scenario: Scenario, code: str) -> str:
    """§34, RR-I271: the minor power comes into play, neutral (§20.1); before, its card was
    out of play: no event auctioned its alliance."""
    name = scenario.minors[code].name
    if code not in state.minors_out:
        return f"the minor power {name} is in play already"
    state.minors_out.remove(code)
    return f"the minor power {name} appears: its card is in play, neutral (§20.1)"


def _alliance(ctx: DecisionPort, state: GameState, scenario: Scenario, alliance: Alliance) -> str:
    """§34, RR-I272: the turn allies two major powers, as an alliance declared at the start of
    the turn (§21.1: each may enter the other's wars; it ends with the turn unless `until_war`),
    or makes a major power a minor power's ally, as an alliance card would (§20.3.2). Powers at
    war do not ally (§21.1), and a minor not in play yet has no ally (RR-I271)."""
    power, other = alliance.powers
    if other in scenario.minors:
        name = scenario.minors[other].name
        if other in state.minors_out:
            return f"{name} is not in play yet: no alliance with {power} (RR-I271)"
        if state.minors[other].ally == power:
            return f"{name} is {power}'s ally already"
        minors.ally(ctx, state, scenario, other, power, "the turn's special rule")  # says what follows from it
        return f"{name} is now {power}'s ally (§20.3.2)"
    if state.at_war(power, other):
        return f"{power} and {other} are at war: they do not ally (§21.1)"
    if state.allied(power, other):
        return f"{power} and {other} are allied already"
    lasting = "until war breaks out between them" if alliance.until_war else "until the end of the turn"
    joined = alliances.ally_powers(state, scenario, ctx, power, other)
    return "; ".join([f"{power} and {other} are allied {lasting}, in forced peace with each other (§21.1)", *joined])


def end_of_turn(ctx: DecisionPort, state: GameState) -> None:
    """The turn's special rules that act at its end, after its peace negotiations and the end of
    its alliances (E1): the French Wars of Religion's end (§33.4, RR-I275), and independent areas
    turning into revolts (§33.4 "Turn 9: At the end of the turn, independent A3 areas in France
    become R3 rebellions", RR-I276)."""
    scenario: Scenario = ctx.scenario
    french_wars.end_of_wars(ctx, state, scenario)
    for rule in scenario.data.turn_rules:
        for effect in rule.effects if rule.turn == state.turn else ():
            if effect.revolt_at_end is not None:
                ctx.say(_revolt(state, scenario, effect.revolt_at_end), rule="§33.4")


def _parts(scenario: Scenario, markers: Markers) -> list[str]:
    return [*markers.parts.theaters, *markers.parts.provinces, *markers.parts.areas]


def _revolt(state: GameState, scenario: Scenario, markers: Markers) -> str:
    """RR-I276: each independent area of the parts in play whose level matches the revolt's (A3
    for R3, A2 for R2) goes back to the power whose home area it is, in revolt at that level."""
    level = markers.level
    turned = []
    for area in scenario.parts(markers.parts):
        status = state.areas[area]
        owner = next((p.code for p in scenario.data.powers if area in p.home_areas), None)
        if state.exists(area) and status.independent == "A" + level[1:] and owner is not None:
            status.independent, status.possessor, status.controller, status.rebellion = None, owner, owner, level
            turned.append(f"{area} ({owner})")
    return f"Independent areas become {level} revolts: {', '.join(turned) or 'none'} (§33.4, §18.3)"
