"""Unit tests of commerce (§19.2): what counts as a commercial port in each edition, the
monopolies the VP count reads, and the lines of the two commerce decisions."""

from __future__ import annotations

import tomllib

import pytest

from conftest import ROOT
from pbem.core.decisions import Answered, Refused
from pbem.core.engine import Request
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis.commerce import COMPETITION_KIND, MERCHANTS_KIND, commercial_port, monopolies
from pbem.rules.ratio_regis.control import take_control
from pbem.rules.ratio_regis.options import read_options
from pbem.rules.ratio_regis.scenario import load_scenario
from pbem.rules.ratio_regis.state import initial_state
from tests.support.judge import Judge

SCENARIO = load_scenario(tomllib.loads((ROOT / "examples/ratio-regis/commerce.toml").read_text()))


def state_of(variant: str):
    seats = [Seat("p1", "P1"), Seat("p2", "P2")]
    return initial_state(SCENARIO, read_options({"variant": variant}), seats)


@pytest.mark.parametrize("area, v124, v21", [
    ("Barcelona", True, True),   # a port the map marks commercial, in both editions
    ("Valencia", False, False),  # a coastal area without a commercial port
    ("Elmina", True, False),     # an overseas home area: a commercial port in v1.2.4 only
    ("Arguin", False, True),     # a fortress on a mini-map: a commercial port in v2.1 only
])
def test_commercial_ports_by_edition(area, v124, v21):
    assert commercial_port(state_of("v1.2.4"), SCENARIO, area) is v124
    assert commercial_port(state_of("v2.1"), SCENARIO, area) is v21


def test_a_fortress_under_construction_on_a_mini_map_is_no_commercial_port_yet():
    state = state_of("v2.1")
    state.fortress_in("Arguin").built = False
    assert not commercial_port(state, SCENARIO, "Arguin")


@pytest.mark.parametrize("variant, razed", [("v1.2.4", True), ("v2.1", False)])
def test_an_overseas_home_area_taken_by_combat_is_razed_only_where_it_is_a_commercial_port(variant, razed):
    state = state_of(variant)
    take_control(state, SCENARIO, Judge(SCENARIO), "NED", "Elmina", "subjugation")
    assert state.areas["Elmina"].razed is razed


def test_monopolies_are_the_centers_with_two_own_merchants():
    state = state_of("v1.2.4")
    state.merchants = {"TC-WM": {"SPA": 2, "BAR": 1}, "TC-EA": {"SPA": 1}, "TC-GUI": {"SPA": 2}}
    assert monopolies(state, "SPA") == ["TC-GUI", "TC-WM"]
    assert monopolies(state, "BAR") == []


def _request(kind: str, power: str | None, key: str, default: str = "", **context) -> Request:
    return Request(key=key, kind=kind, player="p1", power=power, prompt="", default=default, context=context)


def test_a_merchants_line_picks_the_power_it_names_or_the_first_not_answered():
    fra = _request("merchants", "FRA", "k1", centers=("TC-WM", "TC-EA"))
    ned = _request("merchants", "NED", "k2", centers=("TC-GUI",))
    read = MERCHANTS_KIND.read("NED enter tc-gui", [fra, ned], {})
    assert isinstance(read, Answered) and read.request is ned and read.value == "ENTER TC-GUI"
    read = MERCHANTS_KIND.read("ENTER NONE", [fra, ned], {"k1": "ENTER ALL"})
    assert isinstance(read, Answered) and read.request is ned
    read = MERCHANTS_KIND.read("ENTER TC-EA, TC-WM", [fra], {})
    assert isinstance(read, Answered) and read.value == "ENTER TC-WM,TC-EA"


def test_a_merchants_line_nobody_asks_for_says_why():
    assert isinstance(MERCHANTS_KIND.read("ENTER ALL", [], {}), Refused)
    fra = _request("merchants", "FRA", "k1", centers=("TC-WM",))
    refused = MERCHANTS_KIND.read("SPA ENTER ALL", [fra], {})
    assert isinstance(refused, Refused) and "SPA is not asked" in refused.reason
    refused = MERCHANTS_KIND.read("ENTER", [fra], {})
    assert isinstance(refused, Refused) and "ENTER ALL, ENTER NONE" in refused.reason


def test_a_competition_policy_answers_only_its_center():
    request = _request("competition", None, "k1", center="TC-WM", tied=("POR", "BAR"))
    assert COMPETITION_KIND.answer_policy("ORDER TC-WM BAR,POR", request) == "ORDER TC-WM BAR,POR"
    assert COMPETITION_KIND.answer_policy("ORDER TC-EA BAR,POR", request) is None
    assert COMPETITION_KIND.check_policy("FIRST BAR").startswith("a competition policy answers with")


def test_the_order_form_names_the_power_so_each_line_answers_its_own_request():
    request = _request("merchants", "FRA", "k1", default="ENTER ALL", centers=("TC-WM",))
    form = MERCHANTS_KIND.order_form(request)
    assert form == "FRA ENTER ALL"
    assert MERCHANTS_KIND.answer_policy(form, request) == "ENTER ALL"
