"""What each viewer sees (research §7.3, EIA-I18): a corps' counter is public, its strength
and its power's money are its owner's and the GM's only."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pbem import resources
from pbem.core.engine import Seat
from pbem.core.ruleset import load
from pbem.core.view import read_view

EXAMPLE = resources.examples_dir() / "empires-in-arms" / "scenario.toml"
RULESET = load("empires-in-arms")


def start():
    scenario = RULESET.load_scenario(tomllib.loads(EXAMPLE.read_text(encoding="utf-8")))
    return RULESET.initial_state(scenario, {}, [Seat("p1", "Anne"), Seat("p2", "Karl")]), scenario


def test_a_player_sees_its_own_strengths_and_not_the_others():
    state, scenario = start()
    france = RULESET.view(state, scenario, "p1")
    assert france["corps"]["FR-I"]["factors"] == {"CAV": 2, "INF": 12}
    assert france["corps"]["AU-I"] == {"power": "AU", "area": "Munich", "inside": False, "factors": "hidden"}
    assert france["powers"]["FR"]["money"] == 10 and france["powers"]["AU"]["money"] == "hidden"


def test_the_gm_sees_everything():
    state, scenario = start()
    gm = RULESET.view(state, scenario, "gm")
    assert gm["corps"]["AU-I"]["factors"] == {"CAV": 2, "INF": 14}
    assert gm["powers"]["AU"]["money"] == 8


def test_the_public_sees_counters_depots_and_garrisons_only():
    state, scenario = start()
    public = RULESET.view(state, scenario, "public")
    assert all(corps["factors"] == "hidden" for corps in public["corps"].values())
    assert public["depots"]["Munich"] == {"power": "AU", "garrison": 2}
    assert public["garrisons"]["Ulm"] == {"power": "AU", "factors": {"INF": 4}}
    rows = next(s for s in public["sections"] if s["title"].startswith("Corps"))["rows"]
    assert all(row[-1] == "?" for row in rows)


def test_the_view_keeps_pbems_contract_and_draws_the_scenario_map():
    state, scenario = start()
    view = read_view(RULESET.view(state, scenario, "p2"))
    assert view.owner("AU") == "p2" and view.owner("FR") == "p1"
    assert view.turn_label == "September 1805"
    assert len(view.map.areas) == 14
    assert {link.kind for link in view.map.links} == {"land", "river"}
    assert "FR-I" in next(a for a in view.map.areas if a.id == "Strasbourg").units


IRREGULARS = Path(__file__).resolve().parents[2] / "cases" / "empires-in-arms" / "scenarios" / "irregulars.toml"


def test_cossacks_and_freikorps_show_their_factors_to_everyone():
    """§2.4.1: the strengths of cossacks, freikorps and guerrillas are shown on the counters
    (EIA-I183), while a feudal corps' stays its owner's."""
    scenario = RULESET.load_scenario(tomllib.loads(IRREGULARS.read_text(encoding="utf-8")))
    state = RULESET.initial_state(scenario, {}, [Seat("p1", "Anne"), Seat("p2", "Karl"), Seat("p3", "Selim")])
    france = RULESET.view(state, scenario, "p1")
    assert france["irregulars"]["AU-Cos"] == {"power": "AU", "kind": "cossack", "area": "Bohemia", "factors": 1}
    assert france["corps"]["TU-Feu"]["factors"] == "hidden"
    section = next(s for s in france["sections"] if s["title"].startswith("Cossacks, freikorps and guerrillas"))
    assert ["AU-Frk", "AU", "freikorps", "Vienna", "1"] in section["rows"]
