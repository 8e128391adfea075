"""Retreat after combat (§7.5.2.10.3) on a small map:

    A — B — C (depot)
    |   |
    D — E ⇒ F (arrow E–F)
"""

from pbem.rules.empires_in_arms.combat.models import RetreatMap
from pbem.rules.empires_in_arms.combat.retreat import retreat_route

LINKS = {"A": ("B", "D"), "B": ("A", "C", "E"), "C": ("B",), "D": ("A", "E"), "E": ("B", "D", "F"), "F": ("E",)}


def land(**more):
    return RetreatMap(neighbours=LINKS, arrows=(("E", "F"),), **more)


def test_retreat_goes_one_area_towards_the_nearest_depot():
    """§7.5.2.10.3.1."""
    assert retreat_route(land(depots=("C",)), "E") == ("B",)


def test_with_no_depot_the_retreat_heads_for_the_capital():
    """§7.5.2.10.3.1: "or if none is on the map, towards that force's nearest controlled national capital"."""
    assert retreat_route(land(capitals=("D",)), "B") == ("A",)  # A and E are equally close: by name (EIA-I77)


def test_a_retreat_into_enemies_goes_on_one_more_area():
    """§7.5.2.10.3.3."""
    assert retreat_route(land(depots=("C",), blocked=("B",)), "E") == ("B", "C")


def test_never_over_an_arrow():
    """§7.5.2.10.3.4: the depot beyond the arrow draws nobody across it; from F there is no way."""
    assert retreat_route(land(depots=("F",)), "E") == ("B",)
    assert retreat_route(land(depots=("C",)), "F") is None


def test_never_twice_into_an_area_and_with_no_route_the_force_surrenders():
    """§7.5.2.10.3.5–6."""
    assert retreat_route(land(depots=("C",), blocked=("A", "B")), "C") == ("B", "A", "D")
    assert retreat_route(land(depots=("C",), blocked=("B", "C", "D", "E")), "A") is None
