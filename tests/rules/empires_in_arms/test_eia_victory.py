"""The victory conditions a scenario states (EIA-I203): their checks name every problem."""

from __future__ import annotations

import tomllib

import pytest

from pbem import resources
from pbem.core.ruleset import ScenarioError, load

EXAMPLE = resources.examples_dir() / "empires-in-arms" / "scenario.toml"


def problems_with(victory: dict) -> list[str]:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["victory"] = [victory]
    with pytest.raises(ScenarioError) as error:
        load("empires-in-arms").load_scenario(data)
    return error.value.problems


def test_a_set_needs_a_condition():
    assert problems_with({"power": "FR"}) == [
        "victory of FR: give at least one condition (holds, capitals, enemy_corps_lost, enemy_factors_lost)"]


def test_its_month_must_be_one_of_the_scenarios():
    assert problems_with({"power": "FR", "holds": ["Ulm"], "at": {"year": 1806, "month": 1}}) == [
        "victory of FR: 1806-1 is not a month of the scenario"]


def test_a_capital_must_be_on_the_map():
    assert problems_with({"power": "AU", "capitals": ["FR"]}) == ["victory of AU: FR has no capital city in the scenario"]
    assert problems_with({"power": "AU", "capitals": ["RU"]}) == ["victory of AU: unknown power 'RU'"]


def test_losses_cannot_be_negative():
    assert problems_with({"power": "FR", "enemy_corps_lost": -1}) == [
        "victory.0.enemy_corps_lost: Input should be greater than or equal to 0"]
