"""The synthetic scenario and the check `pbem scenario check` will run: every problem of a bad
scenario is named — one-sided adjacency, unknown ids, unreachable areas, holes in tables —
and the counts the rulebook gives hold."""

from __future__ import annotations

import copy
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import resources
from pbem.core.datafile import load_data_file
from pbem.core.ruleset import ScenarioError
from pbem.rules.eu_price_of_power.interpretations import constants
from pbem.rules.eu_price_of_power.scenario import load_scenario

EXAMPLE = resources.examples_dir() / "eu-price-of-power" / "scenario.toml"


@cache
def _example() -> dict:
    return load_data_file(EXAMPLE)


def example() -> dict:
    return copy.deepcopy(_example())


def problems_of(data: dict) -> list[str]:
    with pytest.raises(ScenarioError) as error:
        load_scenario(data)
    return error.value.problems


def by_id(table: list[dict], key: str, value: str) -> dict:
    return next(entry for entry in table if entry[key] == value)


def test_the_example_is_a_synthetic_scenario_of_four_realms_and_a_few_dozen_provinces():
    scenario = load_scenario(example())
    data = scenario.data
    assert data.synthetic and data.edition is not None and data.edition.synthetic
    assert data.seating == ["WES", "VAL", "OST", "HES"] and len(data.nprs) == 12
    assert len(data.provinces) == 50 and len(data.areas) == 26
    assert data.hre is not None and data.hre.emperor == "OST" and data.hre.authority == 3
    assert sum(a.elector for a in data.areas) == 4 and any(n.dnpr for n in data.nprs)
    assert {n.kind for n in data.nodes} == {"maritime", "inland"}
    # §16.2: "a number of Events equal to the number of players plus 1"; 4 Rounds an Age (EUPOP-I45).
    assert scenario.events_per_round == 5
    assert len(data.decks.events[0].first + data.decks.events[0].second) == 4 * 5
    invented = [*data.areas, *data.provinces, *data.seas, *data.nodes, *data.realms, *data.nprs]
    assert all(item.synthetic for item in invented)


def test_one_sided_adjacency_and_mountains_are_named():
    data = example()
    by_id(data["areas"], "id", "LOWEN")["adjacent"].remove("SAXMARK")
    by_id(data["seas"], "id", "BISCAY")["adjacent"].remove("OCEAN")
    by_id(data["areas"], "id", "CALEDON")["mountains"] = []
    problems = problems_of(data)
    assert "adjacency is not symmetric: SAXMARK lists LOWEN but LOWEN does not list SAXMARK" in problems
    assert "adjacency is not symmetric: OCEAN lists BISCAY but BISCAY does not list OCEAN" in problems
    assert "mountain border WESTMARCH–CALEDON is given on one side only" in problems


def test_unknown_ids_are_each_named():
    data = example()
    by_id(data["areas"], "id", "VALOIS")["adjacent"].append("ATLANTIS")
    by_id(data["provinces"], "id", "Lowen")["area"] = "LOWLANDS"
    by_id(data["realms"], "tag", "WES")["merchants"] = ["DOGGER", "HANSA"]
    by_id(data["realms"], "tag", "VAL")["armies"][0]["area"] = "PARIS"
    data["decks"]["action"].append("S-z99")
    by_id(data["nprs"], "tag", "NAV")["overlord"] = "CAS"
    by_id(data["missions"], "id", "s-val-italy")["effects"] = [{"kind": "claim", "where": {"areas": ["SAVOY"]}}]
    problems = problems_of(data)
    for problem in ("area VALOIS: unknown adjacent area 'ATLANTIS'", "province Lowen: unknown area 'LOWLANDS'",
                    "realm WES merchant: unknown node 'HANSA'", "realm VAL army: unknown area 'PARIS'",
                    "decks.action: unknown card 'S-z99'", "realm NAV: its overlord 'CAS' is not another NPR (§13.2)",
                    "card s-val-italy: unknown area 'SAVOY'"):
        assert problem in problems


def test_an_area_no_land_coast_or_sea_reaches_is_named():
    data = example()
    island = by_id(data["areas"], "id", "CALEDON")
    island["seas"], island["adjacent"], island["mountains"] = [], [], []
    by_id(data["areas"], "id", "WESTMARCH")["adjacent"].remove("CALEDON")
    by_id(data["areas"], "id", "WESTMARCH")["mountains"] = []
    by_id(data["provinces"], "id", "Dunmore").pop("port")
    assert "CALEDON cannot be reached from WESTMARCH" in problems_of(data)


def test_a_port_on_a_sea_its_area_has_no_coast_on_is_named():
    data = example()
    by_id(data["provinces"], "id", "Lindum")["port"]["seas"] = ["CHANNEL"]
    assert "province Lindum: its port faces CHANNEL, which its area FENWOLD does not border" in problems_of(data)


def test_a_hole_in_a_trade_cards_income_rows_is_named():
    data = example()
    rows = by_id(data["trade_cards"], "id", "s-t1")["rows"]
    rows[1]["power_to"] = 4  # 3-4 then 6+: nothing for 5
    rows[2]["power_from"] = 2  # bottom row from 2
    problems = problems_of(data)
    assert "trade card s-t1: a hole or overlap in its income rows between 3 and 6 Trade Power (§12.5)" in problems
    assert "trade card s-t1: the bottom income row starts at 2 Trade Power, not 1 (§12.5)" in problems


def test_holes_in_the_player_mat_are_named():
    data = example()
    data["mat"]["small_towns"]["spots"].pop()  # 19 slots for 20 Small Towns
    data["mat"]["vassals"]["spots"][0]["holds"] = 2
    data["mat"]["stability"] = [level for level in data["mat"]["stability"] if level["level"] != 2]
    data["mat"]["large_towns"]["spots"][3]["income"] = 1
    data["mat"]["large_towns"]["spots"][7]["holds"] = 2
    problems = problems_of(data)
    assert "mat large_towns: one Town to a slot (§3)" in problems
    assert "mat small_towns: its spots hold 19 pieces, not 20 (§3)" in problems
    assert "mat vassals: 1 token on the first spot and 2 on each other (§3)" in problems
    assert "mat stability: give each level from -3 to +3 once (§7.3), not [-3, -2, -1, 0, 1, 3]" in problems
    assert ("mat large_towns: a later spot shows less than an earlier one (§7.5: income grows as pieces are "
            "placed)") in problems


def test_the_mats_track_pieces_are_the_rulebooks():
    # §3: "place 20 Small and 8 Large [Towns] in the slots (1 in each slot) of their Town Track";
    # "1 [Vassal token] on the first spot of their Vassal Track, and 2 … in every other spot";
    # component list: "Vassal tokens (19)".
    mat = load_scenario(example()).data.mat
    assert (mat.small_towns.pieces, mat.large_towns.pieces, mat.vassals.pieces) == (20, 8, 19)


def test_the_synthetic_vassal_track_gives_section_4_7s_income_of_4_tokens():
    # §4.7's example: "14 from Tax Income (12 from [Towns] and (2) from 4 [Vassal tokens])".
    mat = load_scenario(example()).data.mat
    assert mat.vassals.shown(4)[0] == 2
    assert mat.vassals.shown(0) == (0, 0)


def test_the_stability_track_is_section_7_3s():
    # §7.3: +1 or higher: 2 more Tax Income; +2 or higher: may remove Unrest; +3: 2 more Monarch Power;
    # −1 or lower: 2 less; −2 or lower: add Unrest; −3: 1 less Monarch Power.
    levels = {s.level: s for s in load_scenario(example()).data.mat.stability}
    assert [levels[n].income for n in range(-3, 4)] == [-2, -2, -2, 0, 2, 2, 2]
    assert [levels[n].unrest for n in (-3, -2, -1, 1, 2, 3)] == ["must_add", "must_add", None, None, "may_remove",
                                                                 "may_remove"]
    assert (levels[3].monarch_power, levels[-3].monarch_power) == (2, -1)


def test_an_age_without_8_a_events_or_a_realms_2_events_is_named():
    data = example()
    age = data["decks"]["events"][0]
    age["first"].remove("1A-1")
    age["second"].remove("1WES-2")
    age["second"].append("1VAL-1")
    problems = problems_of(data)
    # §16.1: "All scenarios must include 8 A-Events per Age."
    assert "Age 1 events: 7 A-Events; every scenario includes 8 per Age (§16.1)" in problems
    # §16.1: "There are 2 Realm-specific Events per Age for each of the Major Powers".
    assert "Age 1 events: 1 Events of WES; each player realm has 2 per Age (§16.1)" in problems
    assert "event 1VAL-1 is dealt twice" in problems


def test_an_event_in_the_wrong_half_is_named():
    data = example()
    age = data["decks"]["events"][0]
    age["first"].remove("1A-1")
    age["second"].append("1A-1")
    age["second"].remove("1A-6")
    age["first"].append("1A-6")
    problems = problems_of(data)
    assert "Age 1 events: event 1A-1 is marked (1) and goes in the other half (§16)" in problems
    assert "Age 1 events: event 1A-6 is marked (2) and goes in the other half (§16)" in problems


def test_a_card_the_rulebook_gives_only_in_part_cannot_be_dealt():
    data = example()
    data["decks"]["action"].append("counterespionage")
    problems = problems_of(data)
    assert ("decks: card counterespionage (Counterespionage) is given only in part by the rulebook (its character); "
            "type in the printed card or deal a synthetic one") in problems


def test_mission_links_are_checked_both_ways():
    data = example()
    by_id(data["missions"], "id", "s-wes-isle")["unlocks"] = []
    problems = problems_of(data)
    assert ("mission s-wes-north lists s-wes-isle among its prerequisites but s-wes-isle does not list it among its "
            "unlocks") in problems


def test_the_set_up_draws_are_there():
    data = example()
    data["decks"]["ideas"].remove("s-tactics")
    data["decks"]["milestones"].remove("ms-1-war-1")
    data["decks"]["milestones"].remove("ms-1-war-2")
    problems = problems_of(data)
    # §3: "Place the 3 Basic Ideas … Draw 2 cards from each deck … to form a 3 x 3 grid."
    assert "decks.ideas: the 3 Basic Ideas are one of each type (§3), not ['adm', 'dip']" in problems
    # §17.3: "In each Age, 1 card is randomly drawn from each of the 4 decks".
    assert "decks.milestones: no Age 1 Milestone for warfare (§17.3)" in problems


def test_pieces_beyond_the_rules_are_named():
    data = example()
    by_id(data["realms"], "tag", "WES")["armies"][0]["infantry"] = 9  # Manpower 4 (§3: Available = the tracks')
    by_id(data["realms"], "tag", "OST")["influence"]["SAXMARK"] = 5  # with none: 5 is the limit (§11.1)
    by_id(data["realms"], "tag", "VAL")["influence"]["SAXMARK"] = 1
    by_id(data["realms"], "tag", "HES")["influence"]["TLAXCA"] = 1
    by_id(data["realms"], "tag", "VAL")["towns"].append("Lowen")
    by_id(data["nprs"], "tag", "LOW")["provinces"].append("Brugen")
    problems = problems_of(data)
    assert "realm LOW: province Brugen is listed twice" in problems
    assert "realm WES: 9 Regular Units in its Armies, more than its Manpower 4 (§3, §9.3)" in problems
    assert "area SAXMARK: 6 Influence, more than 5 (§11.1)" in problems
    assert "realm HES: Influence in TLAXCA, on a Distant Continent (§5.4)" in problems
    assert "province Lowen: held by both VAL and LOW" in problems


def test_a_complete_edition_has_the_standard_editions_cards():
    data = example()
    data["edition"] = {**data["edition"], "complete": True}
    problems = problems_of(data)
    # Component list: "Action Cards (108)", "Event Cards (110/221)".
    assert "edition middle-sea: 54 action cards; the Standard Edition has 108 (component list)" in problems
    assert "edition middle-sea: 25 events; the Standard Edition has 110 (component list)" in problems


def test_a_schema_error_names_its_place():
    data = example()
    by_id(data["provinces"], "id", "Roma")["tax_value"] = 3
    data["realms"][0]["stability"] = 4
    problems = problems_of(data)
    assert any(p.startswith("provinces.34.tax_value:") for p in problems)
    assert any(p.startswith("realms.0.stability:") for p in problems)


def test_the_rebel_die_is_section_14_2s_six_results():
    # §14.2 "Rebel Dice Results": Rebellion, Lose 2 [Ducats], Lose 1 [MP], No effect, Exhaust 1, Remove 1 [Unrest].
    dice = {d.kind: d for d in load_scenario(example()).data.dice}
    assert sorted(s for face in dice["rebel"].faces for s in face.symbols) == sorted(
        ["rebellion", "lose_ducats", "lose_monarch_power", "no_effect", "exhaust", "remove_unrest"])
    assert not dice["rebel"].synthetic and all(dice[k].synthetic for k in ("infantry", "cavalry", "artillery"))


def test_dice_with_strange_faces_or_missing_are_named():
    data = example()
    data["dice"] = [d for d in data["dice"] if d["kind"] != "cavalry"]
    by_id(data["dice"], "kind", "infantry")["faces"][5] = {"symbols": ["rebellion"]}
    by_id(data["dice"], "kind", "rebel")["faces"][3] = {"symbols": ["rebellion"]}
    by_id(data["dice"], "kind", "exploration")["faces"][0] = {}
    problems = problems_of(data)
    assert "dice: give the cavalry die once, not 0 times" in problems
    assert ("infantry die: rebellion is not one of its symbols (infantry, outlined_infantry, cavalry, artillery, "
            "wound, capture)") in problems
    assert "rebel die: each of its six results on one face (§14.2)" in problems
    assert "exploration die: the Exploration Die's faces, and only they, carry numbers (§5.1)" in problems


def test_an_emperor_outside_the_hre_and_a_core_without_the_whole_area_are_named():
    data = example()
    data["hre"]["emperor"] = "VAL"
    by_id(data["realms"], "tag", "WES")["cores"] = ["WESTMARCH", "CALEDON"]
    problems = problems_of(data)
    # §18.3: "All Realms whose Capital is inside the dotted HRE border are considered to be HRE Members".
    assert "hre: the Emperor VAL's capital lies outside the HRE, so it is no member (§18.3)" in problems
    # §7.6: "To place a [Core token], a PR needs to Own all the Provinces in the target Area".
    assert "realm WES: a Core token in CALEDON, where it does not Own every Province (§7.6)" in problems
    assert not any("WESTMARCH, where" in p for p in problems)


def test_a_territory_with_a_province_and_a_costly_link_that_is_no_border_are_named():
    data = example()
    data["provinces"].append({"id": "Fort", "name": "Fort", "area": "ISLES", "synthetic": True})
    by_id(data["seas"], "id", "CARIB")["costly"] = ["WEST_MED"]
    by_id(data["nodes"], "id", "ADRIA")["seas"] = ["ADRIATIC"]
    problems = problems_of(data)
    assert "area ISLES: a Territory has no Province (§2.2)" in problems
    assert "province Fort: no realm holds it at the start (§2.2: each Province shows its Realm's flag)" in problems
    assert "sea zone CARIB: its costly connection to WEST_MED is not one of its adjacent zones" in problems
    assert "node ADRIA: unknown sea zone 'ADRIATIC'" in problems


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path


LEAVES = list(_leaves(_example()))


def _at(data, keys):
    """The table or list at `keys`, or None where an earlier edit replaced one on the way."""
    for key in keys:
        listed = isinstance(data, list) and isinstance(key, int) and key < len(data)
        if listed or isinstance(data, dict) and key in data:
            data = data[key]
        else:
            return None
    return data


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(LEAVES), st.sampled_from(["ZZZ", "", 0, -1, 99, None, [], "Roma",
                                                                        "WESTMARCH", True])),
                min_size=1, max_size=4))
def test_a_mangled_scenario_is_answered_with_its_problems_never_a_traceback(edits):
    data = example()
    for path, value in edits:
        target = _at(data, path[:-1])
        if isinstance(target, dict) or isinstance(target, list) and path[-1] < len(target):
            target[path[-1]] = value
    try:
        load_scenario(data)
    except ScenarioError as error:
        assert error.problems and all(isinstance(p, str) for p in error.problems)


def test_the_synthetic_mat_follows_its_interpretation():
    # EUPOP-I58: a track's Manpower is half its Tax Income, rounded up (§2.2); Small Towns 1, Large 2 (§7.5).
    assert constants()["player_mat_tracks"] == "half_income_rounded_up"
    mat = load_scenario(example()).data.mat
    for track in (mat.small_towns, mat.large_towns, mat.vassals):
        assert track.synthetic and all(spot.manpower == -(-spot.income // 2) for spot in track.spots)
    assert [s.income for s in mat.small_towns.spots] == list(range(1, 21))
    assert [s.income for s in mat.large_towns.spots] == list(range(2, 17, 2))
