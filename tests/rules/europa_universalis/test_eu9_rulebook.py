"""The extracted tables against the rulebook: each count the rulebook states (the line that
states it is quoted), the totals it prints, and every cross-reference between the tables."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from pbem.rules.europa_universalis.rulebook import (
    DATA, MAJOR_CODES, TURNS, Rulebook, RulebookError, load_rulebook, read_rulebook,
)


@pytest.fixture(scope="module")
def book() -> Rulebook:
    return load_rulebook()


def known_provinces(book: Rulebook) -> set[str]:
    """Every province the tables name an owner or a list for in 1492."""
    owned = {p for major in book.setup_1492_majors for p in major.provinces}
    listed = {p.name for minor in book.minors for p in minor.provinces}
    neutral = {p for c in book.setup_1492_minors if "initially neutral" in c.text
               for p in re.split(r", | and ", c.text.split(" are initially neutral")[0])}
    return owned | listed | neutral


def test_the_periods_add_up_to_the_62_turns_of_the_great_campaign():
    # II.4.2, L1055–1061: "Period I, 1492-1519: 6 turns" … "Period VII, 1750-1800: 10 turns".
    assert 6 + 8 + 11 + 9 + 8 + 10 + 10 == TURNS


def test_eight_majors_are_placed_in_1492(book):
    # L29109: "designed for 9 players. One of them only starts to play in period III, taking
    # the role of the Dutch": XXVII.1.1.3–10 place the other eight.
    assert [m.country for m in book.setup_1492_majors] == [
        "ANGLIA", "FRANCIA", "HISPANIA", "POLONIA", "PORTUGALLIA", "RUSSIA", "TURCIA", "VENETIA"]


def test_the_1492_set_up_reads_as_printed(book):
    # XXVII.1.1.4, L29160–29182.
    france = book.major("FRANCIA")
    assert (france.monarch.name, france.monarch.adm, france.monarch.dip, france.monarch.mil) == ("Charles VIII", 5, 7, 9)
    assert france.monarch.dies_turn == 4 and france.monarch.stability == 3
    assert len(france.national) == 26 and france.national[0] == "Finistère" and france.national[-1] == "Picardie"
    assert (france.fti, france.dti, france.treasury, france.land_tech, france.naval_tech) == (1, 2, 100, 9, 7)
    assert [(f.count, f.unit) for f in france.forces] == [(1, "A⊕"), (1, "A⊕"), (1, "ND"), (2, "NGD")]
    spain = book.major("HISPANIA")
    assert [(e.status, e.minor) for e in spain.diplomatic_track] == [
        ("SUB", "GENUA"), ("RM", "SANCTA SEDES"), ("RM", "SICILIÆ")]
    assert spain.forces[1].contents == "4NGD/1NTD"


def test_each_major_has_its_manufactures_in_its_own_provinces(book):
    for major in book.setup_1492_majors:
        for manufacture in major.manufactures:
            assert manufacture.province in major.provinces, (major.country, manufacture)


def test_no_province_belongs_to_two_majors_in_1492(book):
    seen: dict[str, str] = {}
    for major in book.setup_1492_majors:
        for province in major.provinces:
            assert province not in seen, f"{province}: {seen.get(province)} and {major.country}"
            seen[province] = major.country


def test_every_minor_on_a_diplomatic_track_exists(book):
    for major in book.setup_1492_majors:
        for entry in major.diplomatic_track:
            assert book.minor(entry.minor), f"{major.country}'s track names {entry.minor}, not a minor of XXV"


def test_the_minors_1492_deviations_name_minors_that_list_those_provinces(book):
    # XXVII.1.1.11 §A: "Trentino does initially belong to HABSBURGUM" …
    checked = 0
    for clause in book.setup_1492_minors:
        found = re.match(r"^(.+?) (?:does |do )?initially belongs? to ([A-ZÆ ]+)\.$", clause.text)
        if found:
            minor = book.minor(found.group(2))
            assert minor, clause.text
            for province in re.split(r", | and ", found.group(1)):
                assert province in {p.name for p in minor.provinces}, (province, minor.name)
                checked += 1
    assert checked == 5  # Trentino; Bresse; Gotland, Västergotland, Skåne


def test_each_minor_with_a_province_list_adds_up_to_its_printed_income(book):
    # XXV.3–6 print each minor's "Income: N" after its provinces and other incomes.
    for minor in book.minors + book.independent_kingdoms:
        if minor.income is None:
            continue
        amounts = [p.income for p in minor.provinces] + [o.income for o in minor.other_income]
        known = sum(a for a in amounts if a is not None)
        if None in amounts:
            assert known < minor.income, minor.name  # lost incomes (EU-I13) are the rest
        elif minor.name == "EASTERN PRUSSIA":
            assert known == minor.income + 1  # L26465 prints 22 for 5 + 6 + 6 + 6 (EU-I21)
        else:
            assert known == minor.income, f"{minor.name}: {known} ≠ {minor.income}"


def test_the_potential_independent_kingdoms(book):
    # XXV.6 (L26445–26516); FINLANDIA's and NORVEGIA's blocks are lost in the conversion.
    assert [k.name for k in book.independent_kingdoms] == [
        "BELGICA", "CATALANA", "EASTERN PRUSSIA", "HIBERNIA", "LITUANIA", "LIVONIA", "POMMERANIA"]
    provinces = known_provinces(book)
    for kingdom in book.independent_kingdoms:
        assert {p.name for p in kingdom.provinces} <= provinces, kingdom.name


def test_the_minors_of_europe_and_the_minor_majors(book):
    # XXV.3 (L25795–26286) and XXV.4 (L26287–26320): 66 + 4 headings; XXV.4 holds HABSBURGUM,
    # HOLLANDIA, PORTUGALLIA and SUECIA ("Minor/Major countries", L25773).
    assert len(book.minors) == 70
    assert [m.name for m in book.minors if m.major] == ["HABSBURGUM", "HOLLANDIA", "PORTUGALLIA", "SUECIA"]
    names = [m.name for m in book.minors]
    assert len(set(names)) == len(names)
    for minor in book.minors:
        assert set(minor.control) <= set(MAJOR_CODES)
        assert len(set(minor.control)) == len(minor.control), minor.name
    # L25969 prints SUE twice and PRU not at all: the first place counts (EU-I14).
    assert book.minor("GENUA").control == ["HIS", "FRA", "POR", "ANG", "SUE", "POL", "HOL", "AUS", "VEN", "RUS", "TUR"]


def test_each_habsburg_vassal_holds_the_lands_of_its_kingdom(book):
    # XXV.7 (L26517–26554): HABSBURGENSIS BOHEMIA, HUNGARIA, LOMBARDIA and SICILIÆ, the same
    # provinces at the same incomes as the minors of XXV.3 — which mends SICILIÆ's torn list.
    assert [v.name for v in book.habsburg_vassals] == [
        "HABSBURGENSIS BOHEMIA", "HABSBURGENSIS HUNGARIA", "HABSBURGENSIS LOMBARDIA", "HABSBURGENSIS SICILIÆ"]
    for vassal in book.habsburg_vassals:
        kingdom = book.minor(vassal.name.removeprefix("HABSBURGENSIS "))
        assert vassal.provinces == kingdom.provinces and vassal.income == kingdom.income, vassal.name
        assert sum(p.income for p in vassal.provinces) == vassal.income


def test_the_minors_of_the_rotw_and_their_incomes(book):
    # XXV.2 §C (L25760–25770) lists the countries of the ROTW; XXV.5 gives each its block.
    names = {m.name for m in book.rotw_minors}
    assert {"ACEH", "ADEN", "AYMAN", "AZTECA", "BISINAGAR", "CHINA", "DURRANIS IMP.", "GUZARATE", "HYDERABADA",
            "INCA", "IROQUOIS", "MOGOLIS IMP.", "MYSURIA", "ORMUS", "SIBERIA", "SUDANIA"} <= names
    assert len(book.rotw_minors) == 17
    for minor in book.rotw_minors:
        fixed = [i.income for i in minor.other_income if i.income is not None]
        if minor.income is None:
            continue
        if any(i.income is None and "[" not in i.source and not re.match(r"^\d+ \w+$", i.source)
               for i in minor.other_income):
            assert sum(fixed) < minor.income, minor.name  # a lost value (EU-I13) is the rest
        else:
            assert sum(fixed) == minor.income, f"{minor.name}: {sum(fixed)} ≠ {minor.income}"


def test_every_minor_the_1492_set_up_names_exists(book):
    # XXVII.1.1.11 §B–C (L29360–29392): "HOLLANDIA has a TF lv. 5 …", "AYMAN has a COL lv. 4 …".
    minors = {m.name for m in book.minors} | {m.name for m in book.rotw_minors}
    named = [re.match(r"^([A-ZÆ][A-ZÆ. ]+?) (?:has|also owns|OWNS)\b", c.text) for c in book.setup_1492_minors
             if c.clause[0] in "BC"]
    named = [m.group(1) for m in named if m]
    assert len(named) >= 15
    assert sorted(set(named) - minors) == []


def test_the_regions_name_known_provinces(book):
    # I.4.4; Kexholm is FINLAND's fifth province though SUECIA's list (L26314) omits it.
    provinces = known_provinces(book)
    for region in book.regions:
        if region.kind == "land":
            missing = sorted(set(region.members) - provinces - {"Kexholm"})
            assert not missing, f"{region.name}: {missing}"
    assert {"Puglia", "Calabria"} <= set(next(r for r in book.regions if r.name == "ITALY").members)


def test_every_leader_belongs_to_a_major_and_plays_within_the_game(book):
    # XXVI lists the named leaders of twelve majors (XXVI.1 ANGLIA … XXVI.12 VENETIA).
    majors = {m.country for m in book.setup_1492_majors} | {t.country for t in book.transfers if t.country}
    assert {leader.country for leader in book.leaders} == majors
    assert len(majors) == 12
    assert len(book.leaders) == 346
    for leader in book.leaders:
        assert leader.turns or leader.event or leader.list in ("land leaders", "named leaders"), leader.name
        assert leader.rank or leader.list == "missionaries", leader.name


def test_the_49_economic_events(book):
    # Table XVI.1 numbers them up to "49 Treachery" (L16065); XVI.2 describes each.
    assert [e.number for e in book.economic_events] == list(range(1, 50))
    assert book.economic_events[48].title == "TREACHERY"


def test_the_political_events_and_the_fifteen_not_written(book):
    # "15 events tagged NotEvenWritten" (research §0): the tag stands on fifteen headings.
    assert len(book.political_events) == 215
    ids = [e.id for e in book.political_events]
    assert len(set(ids)) == len(ids)
    assert sum(not e.written for e in book.political_events) == 15
    assert all(e.id.startswith(e.period + "-") for e in book.political_events)


def test_every_event_and_subevent_of_the_contents_exists(book):
    events = {e.id: e for e in book.political_events}
    assert len(book.event_contents) == 318
    for entry in book.event_contents:
        assert entry.event in events, entry
        if entry.subevent:
            assert entry.subevent in {s.letter for s in events[entry.event].subevents}, entry


def test_each_period_table_names_an_event_of_its_period_for_every_roll(book):
    # III.6 §C–E (L2233–2241): two dice, the first a column, the second a row; 10 on either
    # die sends the roll elsewhere. Period II's table is missing, VI's garbled (EU-I4).
    events = {e.id for e in book.political_events}
    assert [t.period for t in book.event_tables] == ["I", "III", "IV", "V", "VII"]
    for table in book.event_tables:
        faces = [f for column in table.columns for f in range(int(column.split("-")[0]), int(column.split("-")[-1]) + 1)]
        assert faces == list(range(1, 11)), table.period
        assert len(table.cells) == 9 * (len(table.columns) - 1)
        for cell in table.cells:
            assert f"{table.period}-{cell.event}" in events or f"{table.period}-{cell.event} (1)" in events, (table.period, cell)
    assert "+1 then" in book.event_tables[0].ten_column


def test_every_subevent_an_event_names_exists(book):
    for event in book.political_events:
        letters = {s.letter for s in event.subevents}
        for named in event.names_subevents:
            assert named.letter in letters, (event.id, named)


def test_the_global_revolt_table_strikes_each_country_as_often_as_the_designers_note_says(book):
    # Table XVII.3 (L16466–16485), a row for each 2d10 roll, and the design note's percentages
    # per period (L16491–16500): the chance of a 2d10 sum s is (s − 1)% up to 11, (21 − s)% above.
    assert [row.roll for row in book.global_revolts] == list(range(2, 21))
    assert [odds.period for odds in book.revolt_odds] == ["I", "II", "III", "IV", "V", "VI", "VII"]
    for odds in book.revolt_odds:
        struck: dict[str, int] = {}
        for row in book.global_revolts:
            country = row.targets[odds.period].country
            struck[country] = struck.get(country, 0) + (row.roll - 1 if row.roll <= 11 else 21 - row.roll)
        assert {c: p for c, p in struck.items() if p} == {c: p for c, p in odds.percent.items() if p}, odds.period
        assert set(struck) <= set(MAJOR_CODES) | {"COL"}


def test_each_revolt_group_gives_a_place_for_every_face_of_the_die(book):
    # XVII.2.3–10: "Central England 1. Kent, 2–3. Lincolnshire, 4. Wessex, 5–6. Gloucester,
    # 7–10. East Anglia" (L16526); a group with an alternative list covers the die once per list.
    assert len(book.revolt_groups) == 102
    for group in book.revolt_groups:
        faces = [face for entry in group.entries for face in range(entry.low, entry.high + 1)]
        assert faces and faces == list(range(1, 11)) * (len(faces) // 10), (group.table, group.group, faces)
    assert {g.table for g in book.revolt_groups} == {"ANG", "FRA", "HIS", "POR, SUE and COL", "HOL and AUS",
                                                    "POL and PRU", "RUS", "VEN and TUR"}
    provinces = known_provinces(book)
    english = [e.place for g in book.revolt_groups if g.table == "ANG" for e in g.entries]
    assert len(english) == 43 and set(english) <= provinces


def test_each_revolt_location_table_strikes_a_group_or_a_province_for_every_result(book):
    # XVII.2.1 §B (L16460): "Roll 1d10+the Stability … on the target country's table"; each
    # table prints the results <0, 0 … 13 (FRA's lost its result column: EU-I22).
    tables: dict[str, list[str]] = {}
    for row in book.revolt_locations:
        tables.setdefault(row.table, []).append(row.result)
    assert all(results == ["<0"] + [str(n) for n in range(14)] for results in tables.values()), tables
    assert len(tables) == 8
    for table in ("ANG", "FRA", "HIS", "RUS"):  # one column per period group, all seven periods
        periods = [p for column in next(r for r in book.revolt_locations if r.table == table).places for p in column.periods]
        assert periods == ["I", "II", "III", "IV", "V", "VI", "VII"], table
    groups = {g.group for g in book.revolt_groups}
    provinces = known_provinces(book)
    rest = {place.place for row in book.revolt_locations for place in row.places
            if place.place not in groups and place.place not in provinces and not place.place.startswith("CTZ ")}
    # Groups that pick a random COL/TP (or, for the Peasants War, the HRE) rather than a
    # province, the sea zone Adriatique, and Brandenburg (BRANDENBURGUM's province list is lost).
    assert rest == {"America", "Asia", "Europe", "ROTW", "ROTW (POR)", "ROTW (SUE)", "New Spain", "Peasants War",
                    "Indonesia", "Singala", "Slaves", "Outposts", "TP", "Adriatique", "Brandenburg"}


def test_each_country_has_five_objectives_a_period(book):
    # XIV.3.3 §B.1 (L11710): "each player must secretly pick 3 of the possible 5 objectives".
    majors = {m.country for m in book.setup_1492_majors} | {t.country for t in book.transfers if t.country}
    periods: dict[tuple[str, str], list[str]] = {}
    for objective in book.objectives:
        assert objective.country in majors, objective
        periods.setdefault((objective.country, objective.period), []).append(objective.letter)
    assert all(letters == ["A", "B", "C", "D", "E"] for letters in periods.values()), periods
    assert len(periods) == 61
    # XIV.4.2.1 §B (L11882): "Calais: 45 VPs — ANGLIA owns Picardie or a Præsidio in it."
    calais = next(o for o in book.objectives if (o.country, o.period, o.letter) == ("ANGLIA", "I", "B"))
    assert (calais.title, calais.value, calais.main) == ("Calais", "45 VPs", False)
    assert calais.condition == "ANGLIA owns Picardie or a Præsidio in it."


def test_each_1492_monarch_and_heir_is_in_the_monarchs_of_its_country(book):
    # XXVII.1.1 §A of each major against XV's lists (e.g. XV.1.3.1 §A, L13061: "Henry VII reigns
    # in 1492, with values 7/5/6").
    for major in book.setup_1492_majors:
        listed = [m for m in book.monarchs if m.country == major.country]
        king = major.monarch
        assert any(king.name in m.name and m.values == (king.adm, king.dip, king.mil) for m in listed), major.country
        if king.next and not king.next.startswith("either"):
            assert any(king.next in m.name for m in listed), (major.country, king.next)


def test_the_trade_centres_count_the_zones_the_1492_trade_fleets_sail(book):
    # XIII.2 §E.1 (L11435): the CC Mediterranee counts "STZ Mer Caspienne, STZ Mer Noire
    # occidentale, STZ Golfe du Lion, STZ Mer Ionienne, CTZ TURCIA and CTZ VENETIA"; §G: the
    # CC Atlantic all other zones. Venice's trade fleets of 1492 (L29344) are all Mediterranean.
    centres = {c.centre: c for c in book.trade_centres}
    assert sorted(centres) == ["CC Atlantic", "CC Indian", "CC Mediterranee"]
    assert centres["CC Atlantic"].all_other_zones and not centres["CC Mediterranee"].all_other_zones
    counted = [zone for c in book.trade_centres for zone in c.zones]
    assert len(counted) == len(set(counted)) == 10
    assert {tf.zone for tf in book.major("VENETIA").trade_fleets} <= set(centres["CC Mediterranee"].zones)
    for major in book.setup_1492_majors:
        assert all(tf.zone.startswith(("STZ ", "CTZ ")) for tf in major.trade_fleets)


def test_a_damaged_data_file_is_refused_by_name(tmp_path):
    for path in DATA.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    leaders = json.loads((tmp_path / "leaders.json").read_text(encoding="utf-8"))
    leaders["records"][0]["turns"] = [70, 72]
    (tmp_path / "leaders.json").write_text(json.dumps(leaders), encoding="utf-8")
    with pytest.raises(RulebookError, match=r"leaders\.json: records\.0\.turns: .*not turns of the game"):
        read_rulebook(tmp_path)


def test_tables_from_two_seeds_are_refused(tmp_path):
    for path in DATA.glob("*.json"):
        shutil.copy(path, tmp_path / path.name)
    regions = json.loads((tmp_path / "regions.json").read_text(encoding="utf-8"))
    regions["source"]["sha256"] = "0" * 64
    (tmp_path / "regions.json").write_text(json.dumps(regions), encoding="utf-8")
    with pytest.raises(RulebookError, match="different seeds"):
        read_rulebook(tmp_path)
