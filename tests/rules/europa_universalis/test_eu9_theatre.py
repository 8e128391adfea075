"""The synthetic theatre of 1492 (examples/europa-universalis/theatre-1492.toml) and the map
check a GM's typed map goes through: every mistake named, and the rulebook's 1492 set-up of
France, Spain, Venice and the minors of Italy and the Empire placed on it."""

from __future__ import annotations

import tomllib

import pytest

from pbem.resources import examples_dir
from pbem.rules.europa_universalis.geography import GameMap, map_problems
from pbem.rules.europa_universalis.rulebook import load_rulebook
from pbem.rules.europa_universalis.theatre import TheatreError, load_theatre, place_1492

THEATRE = examples_dir() / "europa-universalis" / "theatre-1492.toml"


def theatre_data() -> dict:
    return tomllib.loads(THEATRE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def book():
    return load_rulebook()


def test_the_theatre_is_synthetic_and_covers_france_spain_italy_and_the_empire(book):
    theatre = load_theatre(theatre_data())
    assert theatre.map.synthetic and all(p.synthetic for p in theatre.map.provinces)
    assert all(s.synthetic for s in theatre.map.seas)
    ids = {p.id for p in theatre.map.provinces}
    assert len(ids) >= 60
    assert set(book.major("FRANCIA").national) <= ids
    assert set(book.major("HISPANIA").national) <= ids
    assert set(next(r for r in book.regions if r.name == "ITALY").members) <= ids
    assert {p.name for p in book.minor("HABSBURGUM").provinces} | {"Bayern", "Pfalz", "Köln", "Trier", "Mainz"} <= ids
    kinds = {p.terrain for p in theatre.map.provinces}
    assert {"plain", "mountain", "sparse_forest", "swamp"} <= kinds
    assert any(p.fortress for p in theatre.map.provinces) and any(p.port == "arsenal" for p in theatre.map.provinces)
    assert {s.id for s in theatre.map.seas} >= {"Golfe du Lion", "Mer Tyrrhénienne", "Adriatique", "Manche"}


def test_the_1492_set_up_is_placed_without_a_problem(book):
    placement = place_1492(book, load_theatre(theatre_data()))
    assert placement.problems == []
    owners = placement.owners
    assert owners["Île-de-France"] == "FRANCIA" and owners["Veneto"] == "VENETIA"
    # XXVII.1.1.11 §A.1–A.2 (L29354–29355): Trentino is HABSBURGUM's, Bresse SABAUDIA's in 1492.
    assert owners["Trentino"] == "HABSBURGUM" and owners["Bresse"] == "SABAUDIA"
    # SICILIÆ's list names Saldígna, HISPANIA's set-up owns it (L29192): the set-up wins (EU-I15).
    assert owners["Saldígna"] == "HISPANIA"
    assert owners["Corsica"] == "GENUA" and owners["Lucca"] == "LUCA"
    france = [(s.at, s.force.count, s.force.unit) for s in placement.stacks if s.country == "FRANCIA"]
    # XXVII.1.1.4 §E (L29182): "1A⊕, 1A⊕, 1ND and 2NGD are raised".
    assert france == [("Île-de-France", 1, "A⊕"), ("Île-de-France", 1, "A⊕"), ("Provence", 1, "ND"), ("Provence", 2, "NGD")]


def edited(change) -> GameMap:
    data = theatre_data()["map"]
    change(data)
    return GameMap.model_validate(data)


def province(data: dict, name: str) -> dict:
    return next(p for p in data["provinces"] if p["id"] == name)


def test_a_frontier_printed_on_one_side_only_is_named():
    game_map = edited(lambda d: province(d, "Armor")["neighbours"].pop("Maine"))
    assert map_problems(game_map) == ["Maine lists Armor as a neighbour, but Armor does not list Maine"]


def test_a_frontier_of_two_kinds_is_named():
    game_map = edited(lambda d: province(d, "Armor")["neighbours"].update({"Maine": "river"}))
    assert map_problems(game_map) == ["Armor–Maine: a river frontier on one side, regular on the other",
                                      "Maine–Armor: a regular frontier on one side, river on the other"]


def test_unknown_ids_are_named():
    def change(d):
        province(d, "Armor")["neighbours"]["Bretagne"] = "regular"
        province(d, "Armor")["coasts"].append("Mer Celtique")
        d["seas"][0]["neighbours"].append("Océan")
    problems = map_problems(edited(change))
    assert "Armor: neighbour Bretagne is no province of the map" in problems
    assert "Armor: coast on Mer Celtique, no sea zone of the map" in problems
    assert "sea zone Mer du Nord: neighbour Océan is no sea zone of the map" in problems


def test_an_unreachable_province_is_named():
    def change(d):
        d["provinces"].append({"id": "Isola", "terrain": "plain"})
    assert map_problems(edited(change)) == ["no path by land or sea reaches Isola"]


def test_a_port_without_a_coast_and_a_twice_defined_province_are_named():
    def change(d):
        province(d, "Berry")["port"] = "port"
        d["provinces"].append(dict(province(d, "Berry")))
    problems = map_problems(edited(change))
    assert problems[0] == "province Berry is defined twice"
    assert "Berry has a port but no coast" in problems


def test_placement_problems_are_named(book):
    data = theatre_data()
    data["country"][0]["armies_at"] = "Castilla La Nueva"
    data["country"][2]["off_map"] = ["Dalmacija"]
    data["country"].append({"name": "ATLANTIS"})
    problems = place_1492(book, load_theatre(data)).problems
    assert "FRANCIA: armies_at Castilla La Nueva is not its province in 1492" in problems
    assert "VENETIA: Corfou, Kreta, Cyclades, Chypre on no province of the map (name them in off_map if the map leaves them out)" in problems
    assert "country ATLANTIS: neither a major of the 1492 set-up nor a minor of XXV" in problems


def test_a_theatre_that_does_not_fit_its_schema_is_refused_by_field():
    data = theatre_data()
    data["map"]["provinces"][0]["terrain"] = "jungle"
    with pytest.raises(TheatreError, match=r"map\.provinces\.0\.terrain"):
        load_theatre(data)
