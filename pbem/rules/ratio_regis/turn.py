"""The sequence of play (§7–§8, §23): which step comes next, turn start and turn end.

Turn end runs its steps in the order of research §2.5, E1 to E7 (RR-I229).
"""

from __future__ import annotations

from pbem.core.engine import StepError
from pbem.core.port import DecisionPort
from pbem.core.ruleset import Step
from pbem.rules.ratio_regis import (alliances, auction, commerce, deck, deployment, dynasty, economy, elimination,
                                    expeditions, impulse, leaders, minors, negotiation, objectives, power_cards,
                                    special_rules, technology, veterans, victory)
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import (AUCTION_BIDS, AUCTION_GROUPS, FINISHED, HALF_TURN_START, IMPULSE,
                                          TURN_END, TURN_START, GameState, deploy)



def next_step(state: GameState, scenario: Scenario) -> Step | None:
    """The step the state is waiting for, keyed so every step of a game is unique."""
    turn = state.turn
    if state.phase == AUCTION_BIDS:
        return Step("setup/bids", auction.bids, "Major power auction: sealed bids (§7.1.1)")
    if state.phase == AUCTION_GROUPS:
        chooser = auction.next_chooser(state)
        return Step(f"setup/group-{chooser.game_order}", auction.choose_group,
                    f"Player {chooser.game_order} chooses a power group (§7.1.1)")
    if state.phase == TURN_START:
        return Step(f"t{turn}/start", turn_start, f"Turn {turn} start (§8.1)")
    if state.phase == HALF_TURN_START:
        return Step(f"t{turn}/half-turn", impulse.start_half_turn, f"Turn {turn}: start of the half turn (§8.2.1)")
    if state.phase == IMPULSE:
        number = state.half.impulse
        return Step(f"t{turn}/impulse-{number}", impulse.impulse, f"Turn {turn}, impulse {number} (§8.2.2)")
    if state.phase == TURN_END:
        return Step(f"t{turn}/end", turn_end, f"Turn {turn} end (§8.3, §23)")
    if state.phase == FINISHED:
        return None
    raise StepError(f"unknown phase {state.phase!r}")


def turn_start(ctx: DecisionPort, state: GameState) -> None:
    """§8.1: the turn's special rules (§8.1.1), new power cards and entry of new powers,
    fixed or by points (§8.1.2, §7.2, §24), trade adjustments (§8.1.3), and the deck built
    and dealt (§8.1.4)."""
    scenario: Scenario = ctx.scenario
    ctx.say(f"{scenario.turn_label(state.turn)} begins", rule="§8.1")
    special_rules.apply_turn(ctx, state)
    power_cards.change_cards(ctx, state)
    _enter_new_powers(ctx, state, scenario)
    deployment.deploy_by_points(ctx, state)
    minors.deploy_starting_allies(ctx, state)  # §24, §20.3.2: the starting allies' minors (RR-I260)
    if state.turn != scenario.data.first_turn:
        commerce.adjust_trade(ctx, state, scenario)
    for power in state.powers.values():
        power.intrinsic_used = False
    objectives.note_possessors(state, scenario)
    deck.build_and_deal(ctx, state)
    state.half = None
    state.phase = HALF_TURN_START


def _enter_new_powers(ctx: DecisionPort, state: GameState, scenario: Scenario) -> None:
    """§8.1.2: powers whose entry turn has come deploy from the scenario's data (those with
    points deploy as their players choose, `deployment.py`)."""
    for code in scenario.power_order:
        if scenario.powers[code].enters == state.turn and not state.powers[code].active \
                and scenario.powers[code].points is None:
            placed = deploy(state, scenario, code) + deployment.enter_merchants(state, scenario, code)
            ctx.say(f"{scenario.powers[code].name} enters the game: "
                    + (", ".join(placed) or "no units"), rule="§8.1.2")


def turn_end(ctx: DecisionPort, state: GameState) -> None:
    """§8.3, §23, in the order of research §2.5: E1 wars end in peace negotiations (§21.5) and
    alliances end, E2 commercial competition (§19.2.4), E3 the economic phase (§23.1.1), E4
    degradation and voluntary elimination (§23.1.2), E5 social agitation and dynastic changes
    (§23.2–§23.3), E6 VP (§23.1.3, §22), E7 the next turn, or the game's end after the scenario's
    last turn, its forced dynastic changes first (the most VP wins, ties by game order, §23.4)."""
    scenario: Scenario = ctx.scenario
    negotiation.end_of_turn(ctx, state, scenario)  # E1: every war ends in peace negotiations (§21.5)
    state.forced_peace = []  # §21.5.4: forced peace lasts until the end of the turn
    expeditions.repatriate_all(ctx, state, scenario)  # §21.2.2: the expeditionary corps go home
    alliances.end_alliances(ctx, state)  # §23: every alliance ends with the turn
    special_rules.end_of_turn(ctx, state)  # §33.4: the turn's rules that act at its end (RR-I275, RR-I276)
    commerce.compete(ctx, state, scenario)  # E2 (§19.2.4)
    economy.economic_phase(ctx, state, scenario)  # E3 (§23.1.1)
    veterans.degrade(ctx, state, scenario)  # E4 (§23.1.2)
    technology.expire(ctx, state)
    turned = leaders.turn_ordinary(state)
    if turned:
        ctx.say(f"Extraordinary leaders turn to their ordinary side: {', '.join(turned)}", rule="§17.3.3, §23.1.2")
    elimination.voluntary(ctx, state, scenario)
    minors.return_eliminated(ctx, state)
    dynasty.social_agitation(ctx, state, scenario)  # E5 (§23.2–§23.3)
    victory.count(ctx, state, scenario)  # E6 (§23.1.3)
    if state.turn >= scenario.data.last_turn:
        dynasty.last_turn(ctx, state, scenario)  # E7: §23.4's forced dynastic changes, before the winner
    victory.end_or_next_turn(ctx, state, scenario)  # E7
