"""Ratio Regis v1.2.4 as a pbem ruleset: the `Ruleset` protocol wired to the modules
named after the game's concepts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.engine import Request
from pbem.core.ruleset import ScenarioError, Seat, Step
from pbem.rules.ratio_regis import bench, rulings, scenario as scenarios
from pbem.rules.ratio_regis import state as states
from pbem.rules.ratio_regis import turn, views
from pbem.rules.ratio_regis.auction import BID_KIND, GROUP_KIND
from pbem.rules.ratio_regis.bidding import AUCTION_KIND
from pbem.rules.ratio_regis.combat.answers import COMBAT_KINDS
from pbem.rules.ratio_regis.commerce import COMMERCE_KINDS
from pbem.rules.ratio_regis.deployment import DEPLOYMENT_KIND
from pbem.rules.ratio_regis.dice import DICE_PURPOSES
from pbem.rules.ratio_regis.impulse import IMPULSE_KIND, START_KIND
from pbem.rules.ratio_regis.minors import MINOR_LEAVE_KIND, MINOR_WAR_KIND, REINFORCE_KIND
from pbem.rules.ratio_regis.negotiation import NEGOTIATE_KIND
from pbem.rules.ratio_regis.options import OptionError, read_options
from pbem.rules.ratio_regis.peace_terms import TERMS_KIND
from pbem.rules.ratio_regis.power_cards import SUBSTITUTE_KIND
from pbem.rules.ratio_regis.reactions import REACTION_KINDS

#: Every decision the game asks, in the order an order line is offered to them: a combat
#: answer by its keyword first, then the lines of the order grammar, and last the impulse
#: script, which takes every other line while an impulse is owed.
DECISION_KINDS = (*COMBAT_KINDS, BID_KIND, GROUP_KIND, DEPLOYMENT_KIND, SUBSTITUTE_KIND, START_KIND, AUCTION_KIND,
                  REINFORCE_KIND, MINOR_WAR_KIND, MINOR_LEAVE_KIND, NEGOTIATE_KIND, TERMS_KIND, *REACTION_KINDS,
                  *COMMERCE_KINDS, IMPULSE_KIND)


class RatioRegis:
    name = "ratio-regis"
    title = "Ratio Regis"
    version = "1.2.4"
    decision_kinds = DECISION_KINDS
    dice_purposes = DICE_PURPOSES

    # -- scenario and state -------------------------------------------------
    def load_scenario(self, data: Mapping[str, Any]) -> scenarios.Scenario:
        return scenarios.load_scenario(data)

    def check_scenario(self, scenario: scenarios.Scenario) -> list[str]:
        return scenarios.check_scenario(scenario)

    def check_options(self, options: Mapping[str, Any]) -> list[str]:
        try:
            read_options(options)
        except OptionError as error:
            return [str(error)]
        return []

    def initial_state(self, scenario: scenarios.Scenario, options: Mapping[str, Any],
                      seats: Sequence[Seat]) -> states.GameState:
        try:
            chosen = read_options(options)
        except OptionError as error:
            raise ScenarioError([str(error)]) from None
        if scenario.setup_for(len(seats)) is None:
            counts = ", ".join(str(s.players) for s in scenario.data.player_setups)
            raise ScenarioError([f"scenario {scenario.data.id} has no power groups for {len(seats)} players "
                                 f"(it is for {counts})"])
        return states.initial_state(scenario, chosen, seats)

    def encode_state(self, state: states.GameState) -> bytes:
        return states.encode_state(state)

    def decode_state(self, data: bytes) -> states.GameState:
        return states.decode_state(data)

    def next_step(self, state: states.GameState, scenario: scenarios.Scenario) -> Step | None:
        return turn.next_step(state, scenario)

    def view(self, state: states.GameState, scenario: scenarios.Scenario, viewer: str) -> dict:
        return views.view(state, scenario, viewer)

    # -- the GM's rulings and the turn of a step (issue 6) ---------------------------
    rulings = rulings.RULINGS

    def apply_ruling(self, state: states.GameState, scenario: scenarios.Scenario, kind: str,
                     args: Mapping[str, Any]) -> None:
        rulings.apply_ruling(state, scenario, kind, args)

    def turn_of(self, step: str) -> int | None:
        return rulings.turn_of(step)

    turn_name = "turn"  # §8: the game sequence, turn by turn

    def scenario_map(self, scenario: scenarios.Scenario) -> dict:
        return views.scenario_map(scenario)

    # -- bench hooks (pbem bench replay) ------------------------------------------
    def bench_scenario(self) -> dict:
        return bench.bench_scenario()

    def bench_policies(self) -> list[tuple[str, str]]:
        return bench.bench_policies()

    def bench_orders(self, request: Request, state: states.GameState, scenario: scenarios.Scenario,
                     n: int) -> list[str]:
        return bench.bench_orders(self, request, state, scenario, n)
