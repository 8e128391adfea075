"""Unit tests of RR-I80…RR-I86: rebellions and independent areas by event (§18.2–§18.3), what a
revolt forbids, the Determined leader's first move (§17.3.2), voluntary elimination and
degradation at turn end (§23.1.2)."""

from __future__ import annotations

import copy
import tomllib
from types import SimpleNamespace

import pytest

from conftest import ROOT
from pbem.core.ruleset import ScenarioError, Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.actions import ImpulseRun, ImpulseStart
from pbem.rules.ratio_regis.control import take_control
from pbem.rules.ratio_regis.disband import read_disband, units_of
from pbem.rules.ratio_regis.economy import account
from pbem.rules.ratio_regis.elimination import apply as apply_disband
from pbem.rules.ratio_regis.elimination import voluntary
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.events import apply_event
from pbem.rules.ratio_regis.fortresses import fortress
from pbem.rules.ratio_regis.impulse import Ledger
from pbem.rules.ratio_regis.movement import plan_route, resolve_area
from pbem.rules.ratio_regis.orders import Fort, Reaction, Regroup, parse_line
from pbem.rules.ratio_regis.rebellions import limit_faults, place_rebellions
from pbem.rules.ratio_regis.retreat import retreat_areas
from pbem.rules.ratio_regis.rulings import apply_ruling
from pbem.rules.ratio_regis.scenario import Rebellion
from pbem.rules.ratio_regis.state import Leader, War
from pbem.rules.ratio_regis.tactical import determined_immune
from pbem.rules.ratio_regis.troops import regroup
from tests.support.judge import Judge

RULES = RatioRegis()
RAW = tomllib.loads((ROOT / "examples/ratio-regis/revolts.toml").read_text())
SCENARIO = RULES.load_scenario(RAW)


def fresh():
    return RULES.initial_state(SCENARIO, {}, [Seat("p1", "p1"), Seat("p2", "p2")])


def run_for(state):
    return ImpulseRun(Judge(SCENARIO), ImpulseStart(state), Ledger(held_cards=True), "p1")


# -- scenario data ----------------------------------------------------------------------------
def test_the_example_scenario_is_clean():
    assert RULES.check_scenario(SCENARIO) == []


def test_scenario_checks_of_rebellions_and_activations():
    raw = copy.deepcopy(RAW)
    raw["cards"][0]["effects"] = [{"activate": {"areas": ["Madrid"]}}]
    raw["cards"][1]["effects"] = [{"rebellion": {"level": "R2", "provinces": ["Navarre"], "areas": ["Atlantis"]}}]
    raw["areas"][0]["active"] = False  # Madrid inactive, yet possessed
    problems = RULES.check_scenario(RULES.load_scenario(raw))
    assert any("an inactive area does not exist for play" in p for p in problems)
    assert any("rebellion in unknown province 'Navarre'" in p for p in problems)
    assert any("rebellion in unknown area 'Atlantis'" in p for p in problems)
    raw["areas"][0]["active"] = True
    problems = RULES.check_scenario(RULES.load_scenario(raw))
    assert any("Madrid is active from the start" in p for p in problems)


def test_an_effect_is_one_thing():
    raw = copy.deepcopy(RAW)
    raw["cards"][0]["effects"] = [{"set_nod": 2, "rebellion": {"level": "R2", "areas": ["Toledo"]}}]
    with pytest.raises(ScenarioError, match="exactly one of"):
        RULES.load_scenario(raw)


# -- §18.3: placing rebellions (RR-I80) ------------------------------------------------------
def test_limits_are_dropped_only_for_the_rebellion_nothing_fits():
    state = fresh()
    card = SCENARIO.cards[6]
    texts = place_rebellions(state, SCENARIO, Judge(SCENARIO), "p2", card,
                             Rebellion(level="R2", count=2, areas=["Toledo", "Madrid"]), [])
    assert state.areas["Toledo"].rebellion == "R2"  # the first within the limits
    assert state.areas["Madrid"].rebellion == "R2"  # the second in the key area: nothing else was left
    assert "ignored" not in texts[0] and "ignored" in texts[1]


def test_the_last_area_of_a_province_counts_the_rebellions_just_placed():
    state = fresh()
    assert limit_faults(state, SCENARIO, "Girona") == []
    state.areas["Girona"].rebellion = "R2"
    assert limit_faults(state, SCENARIO, "Barcelona") == ["is a commercial port",
                                                          "is the last area of the province Catalonia without revolt"]
    assert limit_faults(state, SCENARIO, "Edinburgh") == ["is a key area", "is a commercial port"]
    assert limit_faults(state, SCENARIO, "Highlands") == ["has military units (T8)"]
    assert limit_faults(state, SCENARIO, "Burgos") == ["has military units (F1)"]
    assert limit_faults(state, SCENARIO, "Malaga") == ["has military units (S1)"]


def test_an_event_that_waives_the_limits_asks_among_all_listed_areas():
    state, judge = fresh(), Judge(SCENARIO)
    place_rebellions(state, SCENARIO, judge, "p2", SCENARIO.cards[6],
                     Rebellion(level="R3", areas=["Madrid", "Toledo"], limits=False), [])
    assert state.areas["Madrid"].rebellion == "R3"  # the default: the first listed
    assert judge.asked[0].options == ["PLACE Madrid", "PLACE Toledo", "PLACE AUTO"]
    assert judge.asked[0].kind == "rebellion" and judge.asked[0].player == "p2"


def test_place_in_the_play_line_is_checked_per_rebellion():
    state = fresh()
    with pytest.raises(IllegalOrder, match="PLACE names 2 area\\(s\\), not 3"):
        apply_event(state, SCENARIO, Judge(SCENARIO), SCENARIO.cards[2], player="p2", chosen=["Granada", "Gibraltar", "Cordoba"])
    with pytest.raises(IllegalOrder, match="PLACE Huesca: Huesca is in revolt already"):
        apply_event(state, SCENARIO, Judge(SCENARIO), SCENARIO.cards[12], player="p2", chosen=["Huesca"])
    with pytest.raises(IllegalOrder, match="places none"):
        apply_event(state, SCENARIO, Judge(SCENARIO), SCENARIO.cards[3], player="p2", chosen=["Toledo"])


def test_the_rebellion_answer_reads_area_names_ignoring_case():
    request = SimpleNamespace(kind="rebellion", default="PLACE Cordoba",
                              context={"eligible": ("Cordoba", "Granada"), "count": 1, "noun": "area"})
    from pbem.rules.ratio_regis.reactions import read_reaction
    assert read_reaction(parse_line("PLACE granada"), request) == ("PLACE Granada", "")
    assert read_reaction(parse_line("PLACE auto"), request) == ("PLACE Cordoba", "")
    assert "choose exactly 1 different area(s)" in read_reaction(parse_line("PLACE Cordoba,Granada"), request)[1]


# -- §18.3: what a revolt forbids (RR-I83) ----------------------------------------------------
def test_no_regrouping_nor_finishing_a_fortress_in_revolt():
    state = fresh()
    state.troops[0].area, state.troops[0].box = None, "WM"  # T1 dispersed
    state.areas["Toledo"].rebellion = "R2"
    with pytest.raises(IllegalOrder, match="Toledo is in revolt \\(R2\\): no troop can regroup there"):
        regroup(state, SCENARIO, "SPA", Regroup("T1", "Toledo"), run_for(state))
    state.fortresses[0].built = False
    state.areas["Burgos"].rebellion = "R3"
    with pytest.raises(IllegalOrder, match="no fortress can be built there, nor finished"):
        fortress(state, SCENARIO, "SPA", Fort("FINISH", "Burgos"), run_for(state))


def test_no_strategic_tracing_through_a_revolt():
    state = fresh()
    state.areas["Toledo"].rebellion = "R2"
    with pytest.raises(IllegalOrder, match="in revolt, R2, it counts as uncontrolled"):
        plan_route(state, SCENARIO, "SPA", ["T3"], "Madrid", ["Toledo", "Cordoba"])


def test_a_key_area_in_revolt_costs_morale_only_when_an_enemy_takes_it():
    state = fresh()
    state.wars.append(War(sides=("SPA", "FRA")))
    state.areas["Madrid"].rebellion = "R2"
    assert state.powers["SPA"].morale == 5  # the revolt itself costs nothing (§18.3)
    take_control(state, SCENARIO, Judge(SCENARIO), "SPA", "Madrid", "its own revolt put down")
    assert state.powers["SPA"].morale == 5
    state.areas["Madrid"].rebellion = "R2"
    take_control(state, SCENARIO, Judge(SCENARIO), "FRA", "Madrid", "the revolt subjugated by the enemy")
    assert state.powers["SPA"].morale == 4 and state.wars[0].morale == {"FRA": 1}
    assert state.areas["Madrid"].rebellion is None and state.areas["Madrid"].possessor == "SPA"


def test_each_rebellion_in_own_territory_is_an_expense_of_the_economic_phase():
    state = fresh()
    state.areas["Toledo"].rebellion = "R2"
    state.areas["Glasgow"].rebellion = "R3"  # a minor's area: not Spain's, not England's territory
    assert ("rebellions in its territory (Toledo, Huesca)", 2) in account(state, SCENARIO, "SPA").expenses
    assert not [text for text, _ in account(state, SCENARIO, "ENG").expenses if text.startswith("rebellions")]


# -- §18.2: inactive and active independent areas (RR-I82) -----------------------------------
def test_an_inactive_area_does_not_exist_until_an_event_activates_it():
    state = fresh()
    with pytest.raises(IllegalOrder, match="Oran is an inactive area"):
        resolve_area(SCENARIO, "oran", state)
    assert retreat_areas(state, SCENARIO, "SPA", "Melilla", None) == []
    assert "Oran" not in RULES.view(state, SCENARIO, "gm")["control"]
    with pytest.raises(Exception, match="inactive area"):
        apply_ruling(state, SCENARIO, "control", {"area": "Oran", "power": "SPA"})
    texts = apply_event(state, SCENARIO, Judge(SCENARIO), SCENARIO.cards[1])
    assert texts == ["Oran becomes an active independent area (A2): major powers may enter and subjugate it "
                     "(§18.2.2)"]
    assert resolve_area(SCENARIO, "oran", state) == "Oran"
    assert RULES.view(state, SCENARIO, "gm")["independents"] == {"Oran": "A2"}
    assert apply_event(state, SCENARIO, Judge(SCENARIO), SCENARIO.cards[1]) == ["Oran is in play already (§18.2.2)"]


# -- §17.3.2: the Determined leader's first tactical move (RR-I81) ----------------------------
def test_the_determined_leader_is_immune_on_its_first_move_only():
    state = fresh()
    state.leaders.append(Leader(id="L3", power="FRA", unit="T10", extraordinary=True))
    run = run_for(state)
    troops = [state.troop("T10")]
    assert determined_immune(state, SCENARIO, troops, run)
    assert not determined_immune(state, SCENARIO, troops, run)
    state.leaders[-1].extraordinary = False
    assert not determined_immune(state, SCENARIO, troops, run_for(state))


def test_the_v2_1_option_has_no_immunity():
    state = RULES.initial_state(SCENARIO, {"determined": "v2.1"}, [Seat("p1", "p1"), Seat("p2", "p2")])
    state.leaders.append(Leader(id="L3", power="FRA", unit="T10", extraordinary=True))
    assert not determined_immune(state, SCENARIO, [state.troop("T10")], run_for(state))


# -- §23.1.2: voluntary elimination and degradation (RR-I85, RR-I86) -------------------------
def disband_request(state, power):
    """The request as `elimination.voluntary` asks it."""
    judge = Judge(SCENARIO)
    state.powers[power].player = "p1"
    for code in SCENARIO.power_order:
        if code != power:
            state.powers[code].player = None
    voluntary(judge, state, SCENARIO)
    return judge.asked[0]


def test_degrading_needs_a_lower_counter_unless_an_elimination_frees_one():
    state = fresh()
    state.powers["SPA"].pool["2-3"] = 0
    request = disband_request(state, "SPA")
    assert request.context["degradable"] == ("T3", "T4", "T5", "T6", "T7", "S1")
    answer, reason = read_disband(parse_line("DEGRADE T7"), request)
    assert answer is None and "SPA has 0 2-3 troop counter(s) in its pool for 1 degradation(s)" in reason
    assert read_disband(parse_line("ELIMINATE T1 DEGRADE T7"), request) == ("ELIMINATE T1 DEGRADE T7", "")
    assert read_disband(parse_line("DEGRADE s1,t3"), request) == ("DEGRADE T3,S1", "")
    assert "both eliminated and degraded" in read_disband(parse_line("ELIMINATE T3 DEGRADE T3"), request)[1]
    assert "does not answer this decision" in read_disband(Reaction("STAND"), request)[1]


def test_eliminations_and_degradations_are_carried_out():
    state = fresh()
    state.powers["SPA"].pool["2-3"] = 0
    text = apply_disband(state, SCENARIO, Judge(SCENARIO), "SPA", "ELIMINATE T1,S1 DEGRADE T3,T7")
    assert text == "SPA eliminates T1, S1 (back to its pool) and degrades T3 to Q2, T7 to Q2 (§23.1.2)"
    assert state.troop("T1") is None and state.squadron("S1") is None
    assert state.leader("L2") is None and "L2" in state.leader_pool  # the squadron's leader went with it
    assert state.troop("T3").quality == 2 and state.troop("T7").counter == "2-3"
    assert state.powers["SPA"].pool == {"2-3": 0, "3-4": 2}  # T1 back, then taken by T7; T7's 3-4 back
    assert state.powers["SPA"].squadron_pool == {"2": 2, "3": 2}
    assert "S1" not in units_of(state, "SPA")


def test_a_besieged_fortress_cannot_be_given_up():
    state = fresh()
    state.areas["Burgos"].besieger = "FRA"
    assert "F1" not in units_of(state, "SPA")


def test_no_opposition_from_an_area_in_revolt():
    from pbem.rules.ratio_regis.tactical import _opposition
    state = fresh()
    state.wars.append(War(sides=("SPA", "FRA")))
    state.powers["SPA"].player = "p1"
    judge = Judge(SCENARIO)
    run = ImpulseRun(judge, ImpulseStart(state), Ledger(held_cards=True), "p2")
    assert _opposition(state, SCENARIO, "FRA", "SPA", "Toledo", run) == ("Madrid", "TROOPS")
    state.areas["Madrid"].rebellion = "R2"
    state.areas["Valladolid"].rebellion = "R2"
    assert _opposition(state, SCENARIO, "FRA", "SPA", "Toledo", run) == ("Sevilla", "TROOPS")  # through Cordoba
    state.areas["Cordoba"].rebellion = "R2"
    assert _opposition(state, SCENARIO, "FRA", "SPA", "Toledo", run) is None  # §13.5.2: "controlled by rebels"


def test_nothing_is_deployed_in_an_inactive_area():
    raw = copy.deepcopy(RAW)
    raw["deployment"][1]["area"] = "Oran"
    problems = RULES.check_scenario(RULES.load_scenario(raw))
    assert "deployment of SPA: Oran is an inactive area, not in play (§18.2.1)" in problems
