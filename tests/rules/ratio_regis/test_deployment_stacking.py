"""Deployment stacking (§15.1, §15.1.1, RR-I90): each power's troops deployed in an area
within the area's limit, one more with an extraordinary Organizer of the power there."""

from __future__ import annotations

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.rules.ratio_regis import RatioRegis

RULES = RatioRegis()
WAR = ROOT / "examples/ratio-regis/war.toml"


def _problems(*, extra_troops: int, organizer: bool, leader: str = "L1") -> list[str]:
    """War's set-up with `extra_troops` more French 2-3 troops at Tours (3 already; its
    limit is 4), and its leader there (an Organizer) extraordinary or not."""
    raw = load_data_file(WAR)
    raw["powers"] = [{**p, "troops": {**p["troops"], "2-3": p["troops"].get("2-3", 0) + 3}} if p["code"] == "FRA"
                     else p for p in raw["powers"]]
    for entry in raw["deployment"]:
        if entry.get("unit") == "leader" and entry.get("area") == "Tours":
            entry["extraordinary"] = organizer
            entry["leader"] = leader
    if extra_troops:
        raw["deployment"].append({"power": "FRA", "counter": "2-3", "area": "Tours", "count": extra_troops})
    return [p for p in RULES.check_scenario(RULES.load_scenario(raw)) if "stacking" in p]


def test_an_extraordinary_organizer_lets_one_more_troop_deploy():
    assert _problems(extra_troops=2, organizer=True) == []


def test_the_organizer_gives_one_troop_only():
    assert _problems(extra_troops=3, organizer=True) == [
        "deployment: 6 troops of FRA in Tours exceed its stacking limit 5 (§15.1, §15.1.1)"]


def test_an_ordinary_organizer_gives_nothing():
    assert _problems(extra_troops=2, organizer=False) == [
        "deployment: 5 troops of FRA in Tours exceed its stacking limit 4 (§15.1, §15.1.1)"]


def test_at_the_limit_without_an_organizer_is_fine():
    assert _problems(extra_troops=1, organizer=False) == []


def test_an_extraordinary_leader_of_another_ability_gives_nothing():
    assert _problems(extra_troops=2, organizer=True, leader="L3") == [
        "deployment: 5 troops of FRA in Tours exceed its stacking limit 4 (§15.1, §15.1.1)"]
