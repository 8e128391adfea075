"""The scenario schema and its checks: every problem of a bad scenario is named, and the
bench plays the example scenario month after month."""

from __future__ import annotations

import tomllib

import pytest

from pbem import resources
from pbem.core.ruleset import ScenarioError, load
from pbem.tools.replay_bench import run_replay_bench

EXAMPLE = resources.examples_dir() / "empires-in-arms" / "scenario.toml"


def example() -> dict:
    return tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))


def problems_of(data: dict) -> list[str]:
    with pytest.raises(ScenarioError) as error:
        load("empires-in-arms").load_scenario(data)
    return error.value.problems


def test_the_example_scenario_is_valid_and_lasts_four_months():
    scenario = load("empires-in-arms").load_scenario(example())
    assert scenario.months == 4
    assert scenario.power_order == ["FR", "AU"]


def test_unknown_names_are_each_named():
    data = example()
    data["links"].append({"a": "Ulm", "b": "Atlantis"})
    data["corps"][0]["area"] = "Paris"
    data["areas"][0]["terrain"] = "swamp"
    problems = problems_of(data)
    assert "link Ulm–Atlantis: unknown area 'Atlantis'" in problems
    assert "corps FR-I: unknown area 'Paris'" in problems
    assert "area Mainz: terrain 'swamp' is not on the movement chart" in problems


def test_the_fixed_orders_must_name_every_power_once():
    data = example()
    data["land_order"] = ["FR"]
    assert problems_of(data) == ["land_order must name every power once (FR, AU), not FR"]


def test_a_corps_over_its_capacity_is_refused():
    data = example()
    data["corps"][0]["factors"]["INF"] = 30
    assert "corps FR-I: more INF than its capacity" in problems_of(data)


def test_a_schema_error_names_the_field():
    data = example()
    del data["start"]
    assert problems_of(data) == ["start: Field required"]


def test_the_replay_bench_plays_the_example_month_after_month():
    figures = run_replay_bench("empires-in-arms", 400)
    assert figures["events"] >= 400 and figures["steps"] > 20


def test_campaign_options_are_checked_by_name_and_value():
    ruleset = load("empires-in-arms")
    assert ruleset.check_options({"army_orders": "yes"}) == []
    assert ruleset.check_options({"army_orders": True}) == []
    assert ruleset.check_options({"army_orders": "maybe"}) == ["option army_orders must be one of no, yes, not 'maybe'"]
    [unknown] = ruleset.check_options({"fog": "yes"})
    assert unknown.startswith("unknown option 'fog' (known: army_orders, artillery, british_training, "
                              "cavalry_superiority,")


def test_irregulars_feudal_corps_and_provinces_are_checked():
    """§2.4.1: a cossack or freikorps counter is one factor; ids are unique among corps and
    irregulars; a feudal corps names its home (EIA-I186); provinces name known areas."""
    data = example()
    data["irregulars"] = [
        {"id": "AU-Cos", "power": "AU", "kind": "cossack", "factors": 2, "area": "Munich"},
        {"id": "FR-I", "power": "FR", "kind": "guerrilla", "factors": 3, "area": "Ulm"},
        {"id": "AU-Frk", "power": "AU", "kind": "freikorps"},
    ]
    data["corps"][0]["kind"] = "feudal"
    data["provinces"] = [{"name": "Swabia", "power": "FR", "areas": ["Ulm", "Atlantis"], "guerrilla": 3}]
    problems = problems_of(data)
    assert "irregular AU-Cos: a cossack counter is exactly one factor (§2.4.1)" in problems
    assert "irregular FR-I has the id of a corps or another irregular" in problems
    assert "irregular AU-Frk: give either its area or when it enters" in problems
    assert any(p.endswith("a feudal corps names its home areas (§10.1.3.3.1, §10.1.4.1.3)") for p in problems)
    assert "province Swabia: unknown area 'Atlantis'" in problems


def test_the_tyrol_corps_starts_off_the_map_with_its_tyrol():
    """§10.1.5: the Tyrol corps is placed by its player, in the Tyrol's areas (EIA-I242)."""
    data = example()
    data["corps"][0].update(kind="tyrol")
    problems = problems_of(data)
    assert f"corps {data['corps'][0]['id']}: the Tyrol corps starts off the map; its player places it (§10.1.5)" \
        in problems
    assert any(p.endswith("a tyrol corps names its home areas (§10.1.3.3.1, §10.1.4.1.3)") for p in problems)
    data["corps"][0].pop("area")
    data["corps"][0]["home"] = ["Ulm"]
    scenario = load("empires-in-arms").load_scenario(data)
    assert scenario.corps_kind(data["corps"][0]["id"]) == "tyrol"


def test_a_corps_may_start_inside_a_city_that_holds_it():
    data = example()
    austria_cav = next(c for c in data["corps"] if c["id"] == "AU-Cav")
    austria_cav["inside"] = True  # Linz: 2 spires, room for 10
    state = load("empires-in-arms").initial_state(load("empires-in-arms").load_scenario(data), {}, [])
    assert next(c for c in state.corps if c.id == "AU-Cav").inside


def test_corps_inside_a_city_must_fit_need_a_city_and_hold_it_alone():
    data = example()
    for corps in data["corps"]:
        if corps["id"] in ("AU-I", "FR-I"):
            corps["inside"] = True  # Munich holds 15, AU-I has 16; Strasbourg is France's, with room for 12
        if corps["id"] == "AU-Cav":
            corps["inside"], corps["area"] = True, "Tyrol"
        if corps["id"] == "FR-II":
            corps["inside"], corps["area"] = True, "Vienna"  # Austria's garrison holds it
    problems = problems_of(data)
    assert "city of Munich: 16 factors inside, more than its 15" in problems
    assert "city of Strasbourg: 17 factors inside, more than its 15" in problems
    assert "corps AU-Cav: Tyrol has no city to be inside" in problems
    assert "city of Vienna: held by AU and FR at once" in problems


def test_only_a_minor_free_state_is_trained():
    """Option 12.3.2 trains a British-controlled minor free state's corps (EIA-I243)."""
    data = example()
    data["powers"][0]["trained_since"] = {"year": 1800, "month": 1}
    assert f"power {data['powers'][0]['code']}: only a minor free state is trained by its controller (12.3.2)" \
        in problems_of(data)
