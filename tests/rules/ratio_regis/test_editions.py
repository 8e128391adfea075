"""An edition's data file (map, cards, leaders) named by a scenario (`edition = "<file>"`):
read into the resolved scenario a campaign stores, and its problems reported by file."""

from __future__ import annotations

import tomllib

import pytest

from conftest import ROOT
from pbem.core.canonical import canonical_json, sha256_hex
from pbem.core.datafile import DataFileError, load_data_file
from pbem.core.ruleset import ScenarioError
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.scenario import EDITION_TABLES

RULES = RatioRegis()
WAR = ROOT / "examples/ratio-regis/war.toml"
EDITION = ROOT / "examples/ratio-regis/editions/war-in-france.toml"
#: The digest of examples/ratio-regis/war.toml when it held its map, cards and leaders itself,
#: with what was added since: the alliance permissions of its powers' cards, the cards 16–24 and
#: leader L13 of the edition (alliances and card events, §21.1, §26), Land Technology's effect as the
#: auction reads it (§19.3), v2.1's Spanish names as area aliases, and Zeeland's dotted connections
#: (v2.1 §15.2).
WAR_BEFORE_THE_SPLIT = "891bad029e1a44d103e738cd8d2bc31068070200cef5af2ed197d800d4246281"


def test_a_scenario_reads_as_its_set_up_with_the_edition_tables_merged_in():
    resolved = load_data_file(WAR)
    setup = tomllib.loads(WAR.read_text(encoding="utf-8"))
    tables = tomllib.loads(EDITION.read_text(encoding="utf-8"))
    assert setup["edition"] == "editions/war-in-france.toml" and not set(EDITION_TABLES) & set(setup)
    assert resolved["edition"] == tables["edition"]  # the edition's identity, not the path
    assert {key: resolved[key] for key in EDITION_TABLES} == {key: tables[key] for key in EDITION_TABLES}
    assert RULES.check_scenario(RULES.load_scenario(resolved)) == []


def test_the_split_scenario_is_the_single_file_it_was_cut_from():
    """Campaigns created from war.toml before the split replay, and new ones start alike:
    less the edition's identity, the resolved data has the single file's digest."""
    resolved = load_data_file(WAR)
    del resolved["edition"]
    assert sha256_hex(canonical_json(resolved)) == WAR_BEFORE_THE_SPLIT


def _scenario_with(tmp_path, setup: str, edition: str) -> dict:
    (tmp_path / "edition.toml").write_text(edition, encoding="utf-8")
    (tmp_path / "scenario.toml").write_text(setup, encoding="utf-8")
    return load_data_file(tmp_path / "scenario.toml")


def _split(war_setup_extra: str = "", edition_extra: str = "") -> tuple[str, str]:
    setup = WAR.read_text(encoding="utf-8").replace('"editions/war-in-france.toml"', '"edition.toml"')
    return setup + war_setup_extra, EDITION.read_text(encoding="utf-8") + edition_extra


def test_a_scenario_repeating_an_edition_table_is_refused(tmp_path):
    setup, edition = _split('\n[[leaders]]\nid = "X1"\nname = "X"\nability = "tactical"\n')
    with pytest.raises(DataFileError, match="leaders also in its edition edition.toml"):
        _scenario_with(tmp_path, setup, edition)


def test_a_missing_or_anonymous_edition_file_is_named(tmp_path):
    setup, _ = _split()
    (tmp_path / "scenario.toml").write_text(setup, encoding="utf-8")
    with pytest.raises(DataFileError, match="its edition edition.toml: .*no such file"):
        load_data_file(tmp_path / "scenario.toml")
    with pytest.raises(DataFileError, match=r"starts with an \[edition\] table"):
        _scenario_with(tmp_path, setup, '[[theaters]]\nid = "WE"\nname = "W"\nboxes = [{ id = "WE", name = "W" }]\n')


def test_schema_problems_of_the_edition_name_it(tmp_path):
    setup, edition = _split()
    edition = edition.replace('theater = "WE"', "theater = 5", 1)
    with pytest.raises(ScenarioError) as error:
        RULES.load_scenario(_scenario_with(tmp_path, setup, edition))
    assert error.value.problems == ["edition france-mediterranean: areas.0.theater: Input should be a valid string"]


def test_an_edition_for_other_rules_is_refused(tmp_path):
    setup, edition = _split()
    edition = edition.replace('rules_version = "1.2.4"', 'rules_version = "1.1"', 1)
    with pytest.raises(ScenarioError, match="edition france-mediterranean is for ratio-regis 1.1, the scenario for "
                                            "ratio-regis 1.2.4"):
        RULES.load_scenario(_scenario_with(tmp_path, setup, edition))


def test_an_edition_file_checked_alone_says_what_it_is():
    with pytest.raises(ScenarioError) as error:
        RULES.load_scenario(load_data_file(EDITION))
    assert error.value.problems == ["this is an edition's data file, not a scenario: check a scenario that names "
                                    "it with edition = \"<file>\""]
