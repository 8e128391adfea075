"""The scenario's map in the core's map shape: each Area in its holder's colour, the Sea
Zones, the players' forces and every border once, drawn by the reports' map drawing."""

from __future__ import annotations

from pbem import resources
from pbem.core.datafile import load_data_file
from pbem.reports.maps import draw_map
from pbem.rules.eu_price_of_power.scenario import load_scenario
from pbem.rules.eu_price_of_power.views import scenario_map

EXAMPLE = resources.examples_dir() / "eu-price-of-power" / "scenario.toml"


def test_the_start_map_colours_areas_by_their_holder_and_shows_forces_and_borders():
    gmap = scenario_map(load_scenario(load_data_file(EXAMPLE)))
    areas = {a["id"]: a for a in gmap["areas"]}
    assert (areas["WESTMARCH"]["controller"], areas["CALEDON"]["controller"]) == ("WES", "SCO")
    assert areas["LOMBARDA"]["controller"] == "VEN"  # Mediol (2) outweighs Genua (1)
    assert areas["ALPINE"]["controller"] == "OST"  # Tirol and Chur tie: the Province listed first
    assert areas["ISLES"]["controller"] is None and areas["CARIB"]["kind"] == "sea"
    assert areas["LUSIA"]["units"] == ["HES fleet"] and areas["CHANNEL"]["units"] == ["WES fleet"]
    pairs = [frozenset((link["a"], link["b"])) for link in gmap["links"]]
    assert len(pairs) == len(set(pairs))
    kinds = {frozenset((link["a"], link["b"])): link["kind"] for link in gmap["links"]}
    assert kinds[frozenset(("WESTMARCH", "CALEDON"))] == "mountain"
    assert kinds[frozenset(("WESTMARCH", "NORTH_SEA"))] == "sea coast"
    assert kinds[frozenset(("OCEAN", "CARIB"))] == "sea"
    svg = draw_map(gmap)
    assert "Westmarch" in svg and "Sea of Isles" in svg and "synthetic" in svg
