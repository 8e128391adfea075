"""Several powers in one scenario (§7.1.1, §7.1.2, §7.3.8, §4.9*): the scenario's minor free
states, alliances and combined movement checked, and the Land Phase's sequences they give."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pbem.core.ruleset import ScenarioError, Seat, load

COALITION = Path(__file__).parents[2] / "cases" / "empires-in-arms" / "scenarios" / "coalition.toml"


def coalition() -> dict:
    return tomllib.loads(COALITION.read_text(encoding="utf-8"))


def problems_of(data: dict) -> list[str]:
    with pytest.raises(ScenarioError) as error:
        load("empires-in-arms").load_scenario(data)
    return error.value.problems


def test_combined_allies_share_the_slot_of_the_one_that_would_move_last():
    scenario = load("empires-in-arms").load_scenario(coalition())
    assert scenario.sequences == [("FR",), ("SP",), ("AU", "RU"), ("PR",)]
    assert scenario.land_parts == ["FR", "SP", "AU", "RU", "PR"]
    assert scenario.combined_with("RU") == ("AU", "RU")


def test_a_minor_free_state_shares_its_controllers_wars_and_allies():
    scenario = load("empires-in-arms").load_scenario(coalition())
    assert scenario.major("BAV") == "FR"
    assert scenario.at_war("BAV", "AU") and not scenario.at_war("BAV", "PR")
    assert scenario.allied("BAV", "SP") and scenario.allied("BAV", "FR")
    assert scenario.forces_of("FR") == ["FR", "BAV"]


def test_the_fixed_orders_name_the_major_powers_only():
    data = coalition()
    data["land_order"] = [*data["land_order"], "BAV"]
    assert problems_of(data) == ["land_order must name every power once (FR, RU, SP, AU, PR), "
                                 "not FR, RU, SP, AU, PR, BAV"]


def test_bad_politics_are_each_named():
    data = coalition()
    data["powers"][1]["controller"] = "XX"
    data["alliances"].append(["FR", "AU"])
    data["combined"] = [["AU", "RU"], ["RU", "PR"], ["FR"]]
    problems = problems_of(data)
    assert "power BAV: its controller 'XX' is not a major power (§7.1.1)" in problems
    assert "alliance FR–AU: the two are at war" in problems
    assert "combined RU, PR: RU and PR are not allies (§7.1.2)" in problems
    assert "combined RU, PR: RU moves combined twice" in problems
    assert "combined FR: name two or more major powers (§7.1.2)" in problems


def test_wars_and_alliances_name_major_powers():
    data = coalition()
    data["wars"].append(["BAV", "PR"])
    assert problems_of(data) == [
        "war BAV–PR: name major powers; a minor free state shares its controller's (§7.1.1)"]


def test_a_minor_free_states_corps_are_its_controllers_to_see_and_the_powers_table_names_allies():
    ruleset = load("empires-in-arms")
    scenario = ruleset.load_scenario(coalition())
    state = ruleset.initial_state(scenario, {}, [Seat(f"p{i}", f"p{i}") for i in range(1, 6)])
    assert state.holder("BAV") == "p1"
    assert ruleset.view(state, scenario, "p1")["corps"]["BAV-I"]["factors"] == {"INF": 5}
    assert ruleset.view(state, scenario, "p4")["corps"]["BAV-I"]["factors"] == "hidden"
    powers = ruleset.view(state, scenario, "p4")["sections"][0]
    assert powers["columns"][-2:] == ["Allied with", "Minor free states"]
    assert powers["rows"][0][-2:] == ["SP", "BAV"]
    assert powers["rows"][3][-2:] == ["RU (combined)", "-"]
