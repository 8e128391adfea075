"""Unit tests of the border areas' dispersion boxes (§18.5, RR-I287), on the synthetic minors
scenario, where Lyon (Western Europe) borders Savoy's Turin and Nice (Western Mediterranean)."""

from __future__ import annotations

import tomllib

from conftest import ROOT
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.battles import disperse
from pbem.rules.ratio_regis.borders import dispersal_boxes
from pbem.rules.ratio_regis.state import Troop
from tests.support.judge import Judge

RULES = RatioRegis()
SCENARIO = RULES.load_scenario(tomllib.loads((ROOT / "examples/ratio-regis/minors.toml").read_text()))


def fresh():
    return RULES.initial_state(SCENARIO, {}, [Seat("p1", "p1"), Seat("p2", "p2"), Seat("p3", "p3")])


def troop(state, power, area, minor=None):
    unit = Troop(id="T99", power=power, counter="2-3", quality=2, area=area, minor=minor)
    state.troops.append(unit)
    return unit


def test_a_border_area_offers_both_theaters_boxes_its_own_first():
    state = fresh()
    assert dispersal_boxes(state, SCENARIO, troop(state, "FRA", "Lyon"), "Lyon") == ["WE-C", "WM"]


def test_an_area_inside_its_theater_has_one_box():
    state = fresh()
    assert dispersal_boxes(state, SCENARIO, troop(state, "FRA", "Paris"), "Paris") == ["WE-C"]


def test_a_minors_troop_disperses_only_in_its_own_theater():
    """§18.5: minors "cannot disperse outside the theaters where they normally operate": Savoy's
    troop in Lyon goes to the Western Mediterranean, though Lyon is Western Europe's."""
    state = fresh()
    savoyard = troop(state, "FRA", "Lyon", minor="SAV")
    assert dispersal_boxes(state, SCENARIO, savoyard, "Lyon") == ["WM"]
    disperse(state, SCENARIO, Judge(), savoyard.id)  # a single box: nobody is asked
    assert (savoyard.area, savoyard.box) == (None, "WM")


def test_the_owner_chooses_the_other_theaters_box():
    state = fresh()
    state.powers["FRA"].player = "p2"
    french = troop(state, "FRA", "Lyon")
    judge = Judge(**{"": "BOX WM"})  # the request names no subject: the fake answers it by the empty one
    disperse(state, SCENARIO, judge, french.id)
    assert judge.asked[0].kind == "box" and judge.asked[0].default == "BOX WE-C"
    assert french.box == "WM"
