"""The card effects of the alliances' part checked with the scenario (`pbem scenario check`):
every power, area and leader an effect names must exist, and a power card's alliances name
another power (§21.1, §17.3.1)."""

from __future__ import annotations

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.rules.ratio_regis import RatioRegis

RULES = RatioRegis()
WAR = ROOT / "examples/ratio-regis/war.toml"


def _problems(effects: list[dict], alliances: list[str] | None = None) -> list[str]:
    raw = load_data_file(WAR)
    raw["cards"][0]["effects"] = effects
    if alliances is not None:
        raw["powers"][0]["alliances"] = alliances
    return RULES.check_scenario(RULES.load_scenario(raw))


def test_the_war_scenario_with_every_event_kind_is_valid():
    assert _problems([]) == []


def test_check_scenario_names_what_the_new_effects_get_wrong():
    problems = _problems([{"allow_alliance": ["ENG", "ENG"]}, {"casus_belli": ["XXX", "SPA"]},
                          {"unrest": {"power": "YYY", "change": 1}},
                          {"leader": {"power": "SPA", "leader": "L3", "veterans": 1}},
                          {"veterans": {"power": "NED", "count": 1, "area": "Atlantis"}}])
    assert problems == ["card 1 (Royal Edict): allow_alliance names ENG twice: it is between two powers",
                        "card 1 (Royal Edict): effect names unknown power 'XXX'",
                        "card 1 (Royal Edict): effect names unknown power 'YYY'",
                        "card 1 (Royal Edict): leader: 'L3' is not a historical leader of the pool (§17.3.1)",
                        "card 1 (Royal Edict): veterans: unknown area 'Atlantis'"]


def test_a_power_card_allies_with_another_power_only():
    assert _problems([], alliances=["SPA", "ZZZ"]) == [
        "power SPA: its card's alliances name 'SPA', not another power (§21.1)",
        "power SPA: its card's alliances name 'ZZZ', not another power (§21.1)"]
