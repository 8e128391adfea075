"""The named interpretations (EUPOP-I…): one per Appendix A item and per page-14 Action, each
with the rulebook lines it reads and a value of a checked shape, and the same table in the
docs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.rules.eu_price_of_power.interpretations import (InterpretationError, constants, read_table, table,
                                                          TABLE)

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "eu-price-of-power.md"


def test_appendix_a_items_are_eupop_i1_to_i48_in_order():
    entries = table()
    assert [e.appendix for e in entries[:48]] == list(range(1, 49))
    assert all(e.appendix is None for e in entries[48:])


def test_page_14s_actions_each_have_a_reading():
    names = {e.name: e for e in table()}
    for action in ("increase_stability", "convert_area", "colonize", "take_repay_loan", "replenish_manpower",
                   "cut_ties"):
        assert "§5.2" in " ".join(names[action].rules) or "§5.3" in " ".join(names[action].rules)


def test_the_stability_reading_is_the_rulebooks_worked_cost():
    # §7.3: "to increase Stability from +2 to +3 … you must pay (5 + 2 =) 7".
    base = constants()["increase_stability"]
    assert [(a.resource, a.amount) for a in base] == [("adm", 5)]


def test_a_campaign_sets_an_option_of_the_same_shape():
    values = constants({"keep_card_cost": [{"resource": "adm", "amount": 1}], "papal_action_takes_turn": False})
    assert [(a.resource, a.amount) for a in values["keep_card_cost"]] == [("adm", 1)]
    assert values["papal_action_takes_turn"] is False
    assert constants()["keep_card_cost"][0].amount == 2


def test_a_setting_of_another_shape_or_of_no_option_is_refused_by_name():
    with pytest.raises(InterpretationError) as error:
        constants({"keep_card_cost": 3, "no_cb_penalty": [{"resource": "prestige", "amount": 2}], "nonsense": 1,
                   "papal_action_takes_turn": 1})
    message = str(error.value)
    assert "keep_card_cost: 3 is not of the shape of EUPOP-I1's value" in message
    assert "no_cb_penalty: not an interpretation a campaign may set" in message
    assert "nonsense: not an interpretation a campaign may set" in message
    assert "papal_action_takes_turn: 1 is not of the shape" in message


def test_a_gap_in_the_numbering_and_a_name_given_twice_are_named(tmp_path):
    text = TABLE.read_text(encoding="utf-8").replace('id = "EUPOP-I2"\n', 'id = "EUPOP-I3"\n', 1)
    text = text.replace('name = "explore_cost"', 'name = "keep_card_cost"', 1)
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InterpretationError) as error:
        read_table(path)
    assert "EUPOP-I3 is not EUPOP-I2" in str(error.value)
    assert "keep_card_cost is named twice" in str(error.value)


def test_every_interpretation_cites_rulebook_lines_and_its_rules():
    for entry in table():
        assert entry.source.lines and all(first <= last for first, last in entry.source.lines), entry.id
        assert all(rule.startswith("§") for rule in entry.rules), entry.id


def test_the_docs_table_lists_every_interpretation_with_its_name_and_confidence():
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| (EUPOP-I\d+) \|.*$", DOC.read_text(encoding="utf-8"),
                                                        re.M)}
    assert sorted(rows, key=lambda i: int(i[7:])) == [e.id for e in table()]
    for entry in table():
        assert f"`{entry.name}`" in rows[entry.id] and f"| {entry.confidence} |" in rows[entry.id], entry.id


def test_a_named_reading_is_set_only_to_one_of_its_alternatives():
    assert constants({"final_scoring_tiebreak": "stability"})["final_scoring_tiebreak"] == "stability"
    with pytest.raises(InterpretationError) as error:
        constants({"final_scoring_tiebreak": "most_cubes"})
    assert ("final_scoring_tiebreak: 'most_cubes' is not one of EUPOP-I25's readings (tax_income, stability, "
            "prestige_track)") in str(error.value)


def test_a_named_option_without_its_alternatives_is_refused(tmp_path):
    text = TABLE.read_text(encoding="utf-8").replace('alternatives = ["tax_income", "stability", "prestige_track"]\n',
                                                     "", 1)
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InterpretationError) as error:
        read_table(path)
    assert "EUPOP-I25: a named reading players may disagree with lists its alternatives" in str(error.value)
