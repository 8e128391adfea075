"""Empires in Arms (Avalon Hill 1986) as a pbem ruleset, scenario rules (§1.3): the
`Ruleset` protocol wired to the modules named after the game's concepts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.engine import Request
from pbem.core.ruleset import ScenarioError, Seat, Step
from pbem.rules.empires_in_arms import battles, bench, rulings
from pbem.rules.empires_in_arms import scenario as scenarios
from pbem.rules.empires_in_arms import state as states
from pbem.rules.empires_in_arms import turn, views
from pbem.rules.empires_in_arms.army import ARMY_KIND
from pbem.rules.empires_in_arms.battles import COMBAT_KINDS
from pbem.rules.empires_in_arms.cities import LEAVE_KIND, OCCUPY_KIND, RETIRE_KIND
from pbem.rules.empires_in_arms.irregulars import EVADE_KIND
from pbem.rules.empires_in_arms.dice import DICE_PURPOSES
from pbem.rules.empires_in_arms.levies import INSURRECTION_KIND
from pbem.rules.empires_in_arms.options import in_play, read_options
from pbem.rules.empires_in_arms.reactions import DEPOT_ENTRY_KIND
from pbem.rules.empires_in_arms.reinforcement import COMEBACK_KIND
from pbem.rules.empires_in_arms.sequence import LAND_KIND

#: Every decision the game asks, in the order an order line is offered to them: a reaction
#: and the combat's answers by their keywords first, then the two blocks, each taking every
#: other line while it is owed.
DECISION_KINDS = (DEPOT_ENTRY_KIND, RETIRE_KIND, OCCUPY_KIND, LEAVE_KIND, EVADE_KIND, INSURRECTION_KIND, *COMBAT_KINDS,
                  COMEBACK_KIND, ARMY_KIND, LAND_KIND)


class EmpiresInArms:
    name = "empires-in-arms"
    title = "Empires in Arms"
    version = "1986"
    decision_kinds = DECISION_KINDS
    dice_purposes = DICE_PURPOSES
    rulings = rulings.RULINGS

    def load_scenario(self, data: Mapping[str, Any]) -> scenarios.Scenario:
        scenario = scenarios.load_scenario(data)
        problems = battles.check_scenario(scenario)
        if problems:
            raise ScenarioError(problems)
        return scenario

    def check_scenario(self, scenario: scenarios.Scenario) -> list[str]:
        return scenarios.check_scenario(scenario) + battles.check_scenario(scenario)

    def check_options(self, options: Mapping[str, Any]) -> list[str]:
        return read_options(options)[1]

    def initial_state(self, scenario: scenarios.Scenario, options: Mapping[str, Any],
                      seats: Sequence[Seat]) -> states.GameState:
        values, problems = read_options(options)
        if problems:
            raise ScenarioError(problems)
        return states.initial_state(scenario, seats, army_orders=values["army_orders"] == "yes",
                                    options=in_play(values))

    def encode_state(self, state: states.GameState) -> bytes:
        return states.encode_state(state)

    def decode_state(self, data: bytes) -> states.GameState:
        return states.decode_state(data)

    def next_step(self, state: states.GameState, scenario: scenarios.Scenario) -> Step | None:
        return turn.next_step(state, scenario)

    def view(self, state: states.GameState, scenario: scenarios.Scenario, viewer: str) -> dict:
        return views.view(state, scenario, viewer)

    def apply_ruling(self, state: states.GameState, scenario: scenarios.Scenario, kind: str,
                     args: Mapping[str, Any]) -> None:
        rulings.apply_ruling(state, scenario, kind, args)

    def turn_of(self, step: str) -> int | None:
        """Steps are keyed `m<turn>/…`: the month of the scenario."""
        head = step.split("/", 1)[0]
        return int(head[1:]) if head.startswith("m") and head[1:].isdigit() else None

    turn_name = "month"  # §1.3: the scenario game is played month by month

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
