"""Turn special rules as data (§8.1.1, §34, RR-I270…RR-I274): what `pbem scenario check` says
of the new effects and of a fixed deployment's merchants."""

from __future__ import annotations

import copy

import pytest

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.rules.ratio_regis import RatioRegis

RULES = RatioRegis()
TURN_RULES = load_data_file(ROOT / "examples/ratio-regis/turn-rules.toml")


def problems(edit) -> list[str]:
    data = copy.deepcopy(TURN_RULES)
    edit(data)
    return RULES.check_scenario(RULES.load_scenario(data))


def test_the_example_checks_clean():
    assert problems(lambda data: None) == []


@pytest.mark.parametrize(("entry", "said"), [
    ({"power": "NED", "unit": "merchant"}, "a merchant needs a known trade_center"),
    ({"power": "NED", "unit": "merchant", "trade_center": "TC-Nowhere"}, "a merchant needs a known trade_center"),
    ({"power": "NED", "unit": "troop", "counter": "2-3", "area": "Utrecht", "trade_center": "TC-WM"},
     "only a merchant has one"),
    ({"power": "NED", "unit": "merchant", "trade_center": "TC-WM", "area": "Amsterdam"}, "not an area, box or sea"),
    ({"power": "SPA", "unit": "merchant", "trade_center": "TC-WM"}, "for a power entering later (§24)"),
])
def test_a_deployments_merchant_is_checked(entry, said):
    found = problems(lambda data: data["deployment"].append(entry))
    assert any(said in problem for problem in found), found


def test_an_effect_naming_an_unknown_minor_or_power_is_refused():
    def edit(data):
        data["turn_rules"].append({"turn": 7, "text": "x", "effects": [{"minor_appears": "PAL"},
                                                                     {"alliance": {"powers": ["SPA", "XYZ"]}}]})
    found = problems(edit)
    assert "unknown minor 'PAL' (named by turn 7 special rule)" in found
    assert "unknown power or minor 'XYZ' (named by turn 7 special rule)" in found


def test_an_effect_is_exactly_one_kind():
    def edit(data):
        data["turn_rules"].append({"turn": 7, "text": "x", "effects": [{"minor_appears": "SCO",
                                                                     "cardless": {"impulses": 3, "actions": 2}}]})
    with pytest.raises(Exception, match="exactly one of"):
        problems(edit)
