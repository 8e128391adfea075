"""Unit tests of the naval war: NOD between maps (§11.1.3, §18.6.2; §28.9), landings'
crossings (§12.3.1, §12.3.3; §28.10–§28.11), strategic ports (§18.6.3), order lines."""

from __future__ import annotations

import copy

import pytest

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.interception import interceptor_seas, interceptors
from pbem.rules.ratio_regis.landing import crossing
from pbem.rules.ratio_regis.movement import plan_route
from pbem.rules.ratio_regis.naval import bases
from pbem.rules.ratio_regis.orders import parse_line
from pbem.rules.ratio_regis.state import War

RULES = RatioRegis()
RAW = load_data_file(ROOT / "examples/ratio-regis/war.toml")


def oceans(nod: int = 2):
    """war.toml with a mini-map: the South Atlantic and Cape Colony (Africa), the Caribbean; the
    North Sea and East Atlantic transoceanic; NOD `nod` after Nautical Astrolabe (§28.8)."""
    raw = copy.deepcopy(RAW)
    raw["naval"]["nod_other"] = nod
    for sea in raw["seas"]:
        if sea["id"] in ("NS", "EA"):
            sea["transoceanic"] = True
            if sea["id"] == "EA":
                sea["adjacent"] += ["SOA", "CAR"]
    raw["seas"] += [{"id": "SOA", "name": "South Atlantic", "x": 0, "y": 0, "adjacent": ["EA"], "map": "africa"},
                    {"id": "CAR", "name": "Caribbean", "x": 0, "y": 0, "adjacent": ["EA"], "map": "america"}]
    raw["theaters"].append({"id": "AF", "name": "Africa", "boxes": [{"id": "AF", "name": "Africa"}]})
    raw["areas"].append({"id": "CapeColony", "name": "Cape Colony", "theater": "AF", "x": 0, "y": 0,
                         "stacking": 1, "seas": ["SOA"], "independent": "A2", "map": "africa"})
    return RULES.load_scenario(raw)


def state_of(scenario):
    return RULES.initial_state(scenario, {}, [Seat("p1", "p1"), Seat("p2", "p2"), Seat("p3", "p3")])


def test_transoceanic_seas_count_as_one_between_maps_28_9():
    scenario = oceans()
    assert scenario.sea_distance("NS", "CAR") == 2  # NS+EA one sea, then the Caribbean
    assert scenario.sea_distance("NS", "EA") == 2  # on one map the seas count apart
    state = state_of(scenario)
    assert "Amsterdam" in bases(state, scenario, "NED", "CAR")  # a Dutch fleet may operate there


def test_landing_between_maps_28_11():
    scenario = oceans()
    assert crossing(state_of(scenario), scenario, "Amsterdam", "CapeColony", ("@NS", "@EA", "@SOA"), 1) == ["NS", "EA", "SOA"]
    with pytest.raises(IllegalOrder, match="single troop"):
        crossing(state_of(scenario), scenario, "Amsterdam", "CapeColony", ("@NS", "@EA", "@SOA"), 2)


def test_landing_between_maps_needs_nod_2():
    scenario = oceans(nod=1)
    with pytest.raises(IllegalOrder, match="beyond the naval operation distance"):
        crossing(state_of(scenario), scenario, "Amsterdam", "CapeColony", ("@NS", "@EA", "@SOA"), 1)


def test_landing_needs_interest_28_10():
    from pbem.rules.ratio_regis.tactical import may_enter
    scenario = oceans()
    with pytest.raises(IllegalOrder, match="no interest in AF"):
        may_enter(state_of(scenario), scenario, "NED", "CapeColony")


def test_routes_by_sea():
    scenario = oceans()
    state = state_of(scenario)
    assert plan_route(state, scenario, "ENG", ["T17"], "London", ["@NS", "@EA", "Chester"]) == \
        ["London", "NS", "EA", "Chester"]
    with pytest.raises(IllegalOrder, match="not on the coast of @NS"):
        plan_route(state, scenario, "ENG", ["T17"], "London", ["@NS", "Chester"])
    with pytest.raises(IllegalOrder, match="@WM is not adjacent to @NS"):
        plan_route(state, scenario, "ENG", ["T17"], "London", ["@NS", "@WM", "Genoa"])


def test_strategic_port_joins_its_seas_for_interception():
    scenario = oceans()
    state = state_of(scenario)
    assert interceptor_seas(state, scenario, "ENG", "EA") == ["EA", "NS"]
    assert interceptor_seas(state, scenario, "FRA", "EA") == ["EA"]
    state.wars.append(War(sides=("FRA", "ENG")))
    found = interceptors(state, scenario, "FRA", "EA")
    assert list(found) == ["ENG"] and list(found["ENG"]) == ["S7", "S8", "S9"]


@pytest.mark.parametrize("line", [
    "ENG I STRAT TROOP T17 PATH London>@NS>@EA>Chester ESCORT L4 FIGHT FRA,SPA",
    "ENG I STRAT ARMY L4 ON T17 PATH London(+T18)>@NS>Calais(-T18)>Rouen ESCORT S9",
    "NED I LAND T20 TO CapeColony VIA @NS>@EA>@SOA ESCORT S10 FIGHT SPA SUBJUGATE",
    "ENG I NAVAL L4 TO @EA ATTACK S3,L9",
    "BAR I PIRACY S5 VS SPA",
])
def test_naval_orders_read_back(line):
    assert parse_line(line).text() == line
