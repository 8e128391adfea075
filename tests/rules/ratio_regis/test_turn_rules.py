"""Turn special rules as data (§8.1.1, §34, RR-I270…RR-I275): what `pbem scenario check` says
of the new effects and of a fixed deployment's merchants; the casus belli cards of the French
Wars of Religion."""

from __future__ import annotations

import copy

import pytest

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis, french_wars
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.state import War
from tests.support.judge import Judge

RULES = RatioRegis()
TURN_RULES = load_data_file(ROOT / "examples/ratio-regis/turn-rules.toml")


def problems(edit) -> list[str]:
    data = copy.deepcopy(TURN_RULES)
    edit(data)
    return RULES.check_scenario(RULES.load_scenario(data))


def test_the_example_checks_clean():
    assert problems(lambda data: None) == []


@pytest.mark.parametrize(("entry", "said"), [
    ({"power": "NED", "unit": "merchant"}, "a merchant needs a known trade_center"),
    ({"power": "NED", "unit": "merchant", "trade_center": "TC-Nowhere"}, "a merchant needs a known trade_center"),
    ({"power": "NED", "unit": "troop", "counter": "2-3", "area": "Utrecht", "trade_center": "TC-WM"},
     "only a merchant has one"),
    ({"power": "NED", "unit": "merchant", "trade_center": "TC-WM", "area": "Amsterdam"}, "not an area, box or sea"),
    ({"power": "SPA", "unit": "merchant", "trade_center": "TC-WM"}, "for a power entering later (§24)"),
])
def test_a_deployments_merchant_is_checked(entry, said):
    found = problems(lambda data: data["deployment"].append(entry))
    assert any(said in problem for problem in found), found


def test_an_effect_naming_an_unknown_minor_or_power_is_refused():
    def edit(data):
        data["turn_rules"].append({"turn": 7, "text": "x", "effects": [{"minor_appears": "PAL"},
                                                                     {"alliance": {"powers": ["SPA", "XYZ"]}}]})
    found = problems(edit)
    assert "unknown minor 'PAL' (named by turn 7 special rule)" in found
    assert "unknown power or minor 'XYZ' (named by turn 7 special rule)" in found


def test_an_effect_is_exactly_one_kind():
    def edit(data):
        data["turn_rules"].append({"turn": 7, "text": "x", "effects": [{"minor_appears": "SCO",
                                                                     "cardless": {"impulses": 3, "actions": 2}}]})
    with pytest.raises(Exception, match="exactly one of"):
        problems(edit)


def _turn(turn: int):
    scenario = RULES.load_scenario(copy.deepcopy(TURN_RULES))
    state = RULES.initial_state(scenario, {}, [Seat("p1", "p1"), Seat("p2", "p2")])
    state.turn = turn
    state.powers["NED"].active = True
    return scenario, state


def test_a_casus_belli_card_naming_france_gives_the_contenders_casus_belli_among_them():
    # §33.4 "All CB cards where France appears are ignored. Instead they are treated as CB
    # between France, Huguenots and Catholic League" (RR-I275): turn 7's contenders are France,
    # Spain and the Netherlands, France first.
    scenario, state = _turn(7)
    pairs = french_wars.card_casus_belli(state, scenario, "SPA", "FRA")
    assert pairs == [("FRA", "SPA"), ("FRA", "NED"), ("SPA", "FRA"), ("SPA", "NED"), ("NED", "FRA"), ("NED", "SPA")]
    assert french_wars.card_casus_belli(state, scenario, "SPA", "NED") == []  # the card does not name France


def test_outside_the_wars_of_religion_a_casus_belli_card_is_an_ordinary_one():
    scenario, state = _turn(6)
    assert french_wars.card_casus_belli(state, scenario, "SPA", "FRA") == []
    assert not french_wars.between(state, scenario, "SPA", "FRA")


def test_a_power_at_war_with_a_french_power_may_not_enter_a_french_home_area():
    # §33.4 "Powers at war with French powers can not enter French home areas (except for
    # Calais, if it is not French)" (RR-I275): with France and the Netherlands the contenders,
    # Spain at war with France may not move into Paris while a contender possesses it.
    data = copy.deepcopy(TURN_RULES)
    data["turn_rules"][-1]["effects"] = [{"french_wars": {"contenders": ["FRA", "NED"]}}]
    scenario = RULES.load_scenario(data)
    state = RULES.initial_state(scenario, {}, [Seat("p1", "p1"), Seat("p2", "p2")])
    state.turn = 7
    state.powers["NED"].active = True
    state.wars.append(War(sides=("SPA", "FRA")))
    with pytest.raises(IllegalOrder, match="French home area"):
        french_wars.check_entry(state, scenario, "SPA", "Paris")
    french_wars.check_entry(state, scenario, "FRA", "Paris")  # a contender moves in France freely
    state.areas["Lyon"].possessor = "SPA"  # a French home area that is not French, as Calais held by England
    french_wars.check_entry(state, scenario, "SPA", "Lyon")
    state.turn = 6  # not a turn of the Wars of Religion
    french_wars.check_entry(state, scenario, "SPA", "Paris")


def _wars_turn(**wars):
    data = copy.deepcopy(TURN_RULES)
    data["turn_rules"][-1]["effects"] = [{"french_wars": {"contenders": ["FRA", "SPA", "NED"], **wars}}]
    scenario = RULES.load_scenario(data)
    state = RULES.initial_state(scenario, {}, [Seat("p1", "p1"), Seat("p2", "p2")])
    state.turn = 7
    state.powers["NED"].active = True
    return scenario, state


def test_the_wars_end_early_when_one_contender_other_than_france_is_left():
    # §33.4 "The French Wars of Religion end when there is only one contender left": France and
    # Spain are gone before the deciding turn; the Netherlands, alone, take France's place.
    scenario, state = _wars_turn()
    state.powers["FRA"].active = state.powers["SPA"].active = False
    judge = Judge(scenario)
    french_wars.end_of_wars(judge, state, scenario)
    assert judge.said[0].startswith("The French Wars of Religion end: NED wins")
    assert state.powers["FRA"].active and not state.powers["NED"].active
    assert state.areas["Amsterdam"].possessor == "FRA"


def test_france_alone_or_several_contenders_do_not_end_the_wars_before_the_deciding_turn():
    scenario, state = _wars_turn()
    judge = Judge(scenario)
    french_wars.end_of_wars(judge, state, scenario)  # three contenders standing
    state.powers["SPA"].active = state.powers["NED"].active = False
    french_wars.end_of_wars(judge, state, scenario)  # France alone
    assert judge.said == []


def test_a_revolt_at_the_turns_end_is_a_rebellion_level():
    def edit(data):
        data["turn_rules"].append({"turn": 7, "text": "x", "effects": [
            {"revolt_at_end": {"level": "A3", "parts": {"areas": ["Paris"]}}}]})
    assert problems(edit) == ["turn 7 special rule: revolt_at_end places a rebellion (R2 or R3), not A3"]
