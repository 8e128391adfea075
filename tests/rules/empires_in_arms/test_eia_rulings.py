"""The GM's typed rulings on an Empires in Arms state, and their refusals."""

from __future__ import annotations

import tomllib

import pytest

from pbem import resources
from pbem.core.engine import Seat
from pbem.core.ruleset import RulingError, load

EXAMPLE = resources.examples_dir() / "empires-in-arms" / "scenario.toml"
RULESET = load("empires-in-arms")


@pytest.fixture
def game():
    scenario = RULESET.load_scenario(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    return RULESET.initial_state(scenario, {}, [Seat("p1", "Anne"), Seat("p2", "Karl")]), scenario


def test_money_sets_a_powers_treasury(game):
    state, scenario = game
    RULESET.apply_ruling(state, scenario, "money", {"power": "fr", "amount": "3"})
    assert state.powers["FR"].money == 3


def test_factors_to_nothing_removes_the_corps_and_frees_its_leader(game):
    state, scenario = game
    RULESET.apply_ruling(state, scenario, "factors", {"corps": "FR-I", "type": "INF", "count": "0"})
    assert state.corps_by_id("FR-I").factors == {"CAV": 2}
    RULESET.apply_ruling(state, scenario, "factors", {"corps": "FR-I", "type": "CAV", "count": "0"})
    assert state.corps_by_id("FR-I") is None
    assert next(lead for lead in state.leaders if lead.id == "Napoleon").corps is None


def test_move_corps_puts_a_counter_elsewhere(game):
    state, scenario = game
    RULESET.apply_ruling(state, scenario, "move-corps", {"corps": "au-i", "area": "linz"})
    assert state.corps_by_id("AU-I").area == "Linz"


@pytest.mark.parametrize(("kind", "args", "message"), [
    ("money", {"power": "RU", "amount": "3"}, "unknown power 'RU'"),
    ("money", {"power": "FR", "amount": "-3"}, "amount=<n> must be a whole number of 0 or more, not '-3'"),
    ("factors", {"corps": "FR-X", "type": "INF", "count": "1"}, "unknown corps 'FR-X'"),
    ("factors", {"corps": "FR-I", "type": "HORSE", "count": "1"}, "unknown factor type 'HORSE'"),
    ("move-corps", {"corps": "FR-I", "area": "Moscow"}, "unknown area 'Moscow'"),
    ("peace", {}, "unknown ruling 'peace'"),
])
def test_a_ruling_that_cannot_apply_says_why(game, kind, args, message):
    state, scenario = game
    with pytest.raises(RulingError, match=message):
        RULESET.apply_ruling(state, scenario, kind, args)
