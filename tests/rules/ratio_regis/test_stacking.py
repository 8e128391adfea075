"""Unit tests of stacking at the end of an action (§15.1.1, RR-I5): what is over its limit
and which action is refused, fortresses and besieged garrisons included (§13.3.5)."""

from __future__ import annotations

import pytest

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.actions import check_stacking
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.stacking import overstacked

RULES = RatioRegis()
SCENARIO = RULES.load_scenario(load_data_file(ROOT / "examples/ratio-regis/war.toml"))
AREA = "Paris"


def with_troops(power: str, count: int, *, besieged: bool = False):
    state = RULES.initial_state(SCENARIO, {}, [Seat("p1", "p1"), Seat("p2", "p2"), Seat("p3", "p3")])
    state.troops = [t for t in state.troops if t.area != AREA]
    for _ in range(count):
        state.powers[power].pool["2-3"] = 1
        state.new_troop(power, "2-3", 2, area=AREA).besieged = besieged
    return state


def test_a_full_area_is_not_over_its_limit():
    limit = SCENARIO.areas[AREA].stacking
    state = with_troops("FRA", limit)
    assert overstacked(state, SCENARIO) == []
    check_stacking(state, SCENARIO, [AREA])


def test_one_troop_more_than_the_limit_is_over_it_and_refused():
    limit = SCENARIO.areas[AREA].stacking
    state = with_troops("FRA", limit + 1)
    assert overstacked(state, SCENARIO) == [(AREA, "FRA", 1)]
    with pytest.raises(IllegalOrder, match=f"{AREA} would hold {limit + 1} troops"):
        check_stacking(state, SCENARIO, [AREA])


def test_a_besieged_garrison_as_large_as_the_limit_is_over_it_with_its_fortress():
    limit = SCENARIO.areas[AREA].stacking
    state = with_troops("FRA", limit, besieged=True)
    assert overstacked(state, SCENARIO) == [(AREA, "FRA", 1)]
    with pytest.raises(IllegalOrder, match=f"{AREA} would hold {limit + 1} troops"):
        check_stacking(state, SCENARIO, [AREA])
