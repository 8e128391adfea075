"""Victory data as a GM types it (§22, §33.1): every mistake in an objective or a result table
is named by `pbem scenario check`, never a traceback; and the view hands the reports the VP
table they close with (the GM's always, everyone's once the game is over)."""

from __future__ import annotations

import copy

import pytest
from campaigns import play
from conftest import ROOT

from pbem.core.datafile import load_data_file
from pbem.core.ruleset import ScenarioError, Seat
from pbem.core.view import read_view
from pbem.rules.ratio_regis.options import Options
from pbem.rules.ratio_regis.scenario import check_scenario, load_scenario
from pbem.rules.ratio_regis.state import initial_state
from pbem.rules.ratio_regis.victory import province_leader

RAW = load_data_file(ROOT / "examples" / "ratio-regis" / "victory.toml")


def _with(change) -> dict:
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


def test_the_example_scenarios_are_clean():
    assert check_scenario(load_scenario(RAW)) == []
    assert check_scenario(load_scenario(load_data_file(ROOT / "examples" / "ratio-regis" / "victory-solo.toml"))) == []


def test_unknown_names_in_objectives_are_listed():
    def change(raw):
        raw["powers"][0]["objectives"] = [
            {"areas": ["Milano"]}, {"provinces": ["Lombardia"]}, {"regions": [{"count": 2, "theaters": ["XX"]}]},
            {"merchants_in": ["TC-Nowhere"]}, {"pass_to_possess": ["Antwerp"], "powers": ["FRA"]}]
        raw["victory"]["minor_objectives"] = {"ZZZ": [{"areas": ["Paris"], "powers": ["ABC"]}]}
        raw["victory"]["thresholds"] = [{"vp": 5, "result": "Defeat"}, {"vp": 3, "result": "Draw"}]
    problems = check_scenario(load_scenario(_with(change)))
    assert problems == [
        "power SPA: objective 1: unknown area 'Milano'",
        "power SPA: objective 2: unknown province 'Lombardia' (no area has it)",
        "power SPA: objective 3: unknown theater 'XX'",
        "power SPA: objective 4: unknown trade center 'TC-Nowhere'",
        "power SPA: objective 5: a power card's objective is its power's; powers is for event cards",
        "victory: objectives of unknown minor power 'ZZZ' (no minor card has it)",
        "victory: objective 1 of ZZZ: unknown power 'ABC'",
        "victory: thresholds go up from 0 VP, each once (§33.1), not [5, 3]",
    ]


def test_an_objective_without_a_condition_is_refused_by_the_schema():
    raw = _with(lambda raw: raw["powers"][0].update(objectives=[{"text": "Glory", "vp": 2}]))
    with pytest.raises(ScenarioError) as error:
        load_scenario(raw)
    assert "an objective needs a condition" in str(error.value)


@pytest.fixture(scope="module")
def demo():
    return play("demo").projection()


def test_every_report_closes_with_the_vp_table_once_the_game_is_over(demo):
    for viewer in ["gm", "public", *demo.data.players]:
        closing = read_view(demo.view(viewer)).closing
        assert [t.title for t in closing] == ["Victory points: the game is over, Henri of Navarre won"]
        assert closing[0].columns == ["Player", "Powers", "VP", "Turn 7", "Breakdown"]
        assert [row[:3] for row in closing[0].rows] == [["Henri of Navarre", "HUG", "9"],
                                                        ["Elizabeth Tudor", "ENG", "5"],
                                                        ["Anne of Paris", "FRA", "4"]]


def test_only_the_gm_sees_the_vp_table_during_the_game():
    projection = play("demo", upto=12).projection()
    assert [t.title for t in read_view(projection.view("gm")).closing] == ["Victory points"]
    assert read_view(projection.view("p1")).closing == []


def test_a_province_s_vp_go_to_the_most_possessions_and_to_nobody_on_a_tie():
    scenario = load_scenario(RAW)
    state = initial_state(scenario, Options(), [Seat("p1", "P1"), Seat("p2", "P2")])
    assert province_leader(state, scenario, "Lombardy") == "SPA"  # Milan and Pavia against Cremona
    state.areas["Pavia"].possessor = None
    assert province_leader(state, scenario, "Lombardy") is None  # one each
    assert province_leader(state, scenario, "Scotland") is None  # the minor's: no power possesses it
