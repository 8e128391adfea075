"""A corps counter designated as a reinforcement (§5.2.4.1): the default when the deadline
passes, and the scenario check of the arrival's names."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.core.ruleset import ScenarioError, Seat
from pbem.rules.empires_in_arms.reinforcement import bring_back
from pbem.rules.empires_in_arms.scenario import load_scenario
from pbem.rules.empires_in_arms.state import initial_state
from tests.rules.empires_in_arms.combat.eia_kit import Scripted

SCENARIO = Path(__file__).parents[2] / "cases" / "empires-in-arms" / "scenarios" / "comeback.toml"


def data() -> dict:
    return tomllib.loads(SCENARIO.read_text(encoding="utf-8"))


def test_the_default_is_the_first_removed_counter_in_the_arrivals_first_area():
    scenario = load_scenario(data())
    state = initial_state(scenario, [Seat("p1", "P1"), Seat("p2", "P2")])
    state.turn = 3  # November 1805
    state.corps = [c for c in state.corps if c.id not in ("FR-Cav", "FR-II")]
    ctx = Scripted()
    bring_back(ctx, state, scenario, scenario.data.corps_arrivals[0], 0)
    [request] = ctx.asked
    assert (request.kind, request.player, request.default) == ("comeback", "p1", "COMEBACK FR-II Strasbourg")
    # FR-Gd, due this month and not on the map (as when lost at its placement, §5.2.1.1), is removed too
    assert request.options == ("FR-II", "FR-Cav", "FR-Gd")
    assert state.corps_by_id("FR-II").area == "Strasbourg"
    assert state.corps_by_id("FR-II").factors == {"INF": 8}


def test_an_arrivals_unknown_names_are_each_named():
    raw = data()
    raw["corps_arrivals"][0]["areas"] = ["Strasbourg", "Atlantis"]
    raw["corps_arrivals"][1]["power"] = "XX"
    with pytest.raises(ScenarioError) as error:
        load_scenario(raw)
    assert "corps arrival 1805-11: unknown area 'Atlantis'" in error.value.problems
    assert "corps arrival 1805-11: unknown power 'XX'" in error.value.problems
