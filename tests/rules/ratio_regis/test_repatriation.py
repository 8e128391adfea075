"""Unit tests of repatriation (§14; RR-I68…RR-I76) and the diplomatic card events of §31.1
(RR-I69), on the synthetic Revolt of Flanders (`examples/ratio-regis/flanders.toml`)."""

from __future__ import annotations

import copy
import tomllib
from types import SimpleNamespace

from conftest import ROOT
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.control import place_control
from pbem.rules.ratio_regis.events import apply_event, start_war
from pbem.rules.ratio_regis.orders import parse_line
from pbem.rules.ratio_regis.reactions import narrow, read_reaction
from pbem.rules.ratio_regis.repatriation import repatriate, troop_choices
from tests.support.judge import Judge

RULES = RatioRegis()
RAW = tomllib.loads((ROOT / "examples/ratio-regis/flanders.toml").read_text())
SCENARIO = RULES.load_scenario(RAW)


def fresh():
    state = RULES.initial_state(SCENARIO, {}, [Seat("p1", "p1"), Seat("p2", "p2")])
    state.powers["NED"].player = state.powers["ENG"].player = "p1"
    state.powers["SPA"].player = "p2"
    return state


def rebellion(state):
    """REBELLION IN FLANDERS without its repatriation: war, and Flanders to the Netherlands."""
    start_war(state, "NED", "SPA")
    for area in ("Brugge", "Antwerp", "Luxembourg"):
        state.areas[area].controller = "NED"


def test_default_is_the_nearest_strategic_move_else_dispersal():
    state = fresh()
    rebellion(state)
    choices = troop_choices(state, SCENARIO, state.troop("T1"), ["Brugge"])
    assert choices.default == "REPATRIATE T1 TO Lorraine"  # no sea before two seas (RR-I73)
    assert choices.routes["Lorraine"].places == ("Brugge", "Antwerp", "Luxembourg", "Lorraine")
    assert choices.paths == {}  # no Spanish area within two steps through Spain's own areas
    for area in ("Lorraine", "Santander", "Madrid"):
        state.areas[area].controller = "NED"
    choices = troop_choices(state, SCENARIO, state.troop("T1"), ["Brugge"])
    assert choices.options == ["REPATRIATE T1 DISPERSE"] and choices.default == "REPATRIATE T1 DISPERSE"


def test_only_the_host_powers_areas_count_as_allied():
    state = fresh()
    rebellion(state)
    state.areas["Luxembourg"].controller = "ENG"  # a third power's area: not crossable (§14.1.1)
    choices = troop_choices(state, SCENARIO, state.troop("T1"), ["Brugge"])
    assert "Lorraine" not in choices.routes
    assert "no strategic route through SPA's areas or NED's reaches Lorraine" in choices.why_not["TO Lorraine"]


def test_a_besieged_troop_can_only_disperse():
    state = fresh()
    state.troop("T2").besieged = True
    choices = troop_choices(state, SCENARIO, state.troop("T2"), ["Brugge"])
    assert choices.options == ["REPATRIATE T2 DISPERSE"]


def test_a_full_area_is_not_offered_and_the_refusal_says_why():
    state = fresh()
    rebellion(state)
    for _ in range(3):
        state.new_troop("SPA", "2-3", 2, area="Lorraine")
    choices = troop_choices(state, SCENARIO, state.troop("T1"), ["Brugge"])
    assert "REPATRIATE T1 TO Lorraine" not in choices.options
    request = SimpleNamespace(kind="repatriate", options=choices.options, default=choices.default,
                              context={"subject": "T1", "why_not": choices.why_not, "eligible": ()})
    answer, why = read_reaction(parse_line("REPATRIATE T1 TO Lorraine"), request)
    assert answer is None and "Lorraine is full: 4 of SPA's troops, the limit is 4 (§15.1.1)" in why


def test_answers_made_impossible_by_an_earlier_troop_take_the_default():
    state = fresh()
    rebellion(state)
    for _ in range(2):
        state.new_troop("SPA", "2-3", 2, area="Lorraine")  # room for one more
    judge = Judge(T1="REPATRIATE T1 TO Lorraine", T2="REPATRIATE T2 TO Lorraine")
    repatriate(state, SCENARIO, judge, "SPA", ["Brugge"], why="test")
    assert [r.kind for r in judge.asked] == ["repatriate", "repatriate", "intercept"]  # asked together, then the sea
    assert state.troop("T1").area == "Lorraine"
    assert state.troop("T2").area == "Santander"  # the default then: by sea, NED passing
    assert any("REPATRIATE T2 TO Lorraine is no longer possible, so REPATRIATE T2 TO Santander (RR-I74)" in t
               for t in judge.said)


def test_a_power_without_player_takes_the_defaults():
    state = fresh()
    rebellion(state)
    state.powers["SPA"].player = None
    judge = Judge()
    repatriate(state, SCENARIO, judge, "SPA", ["Brugge"], why="test")
    assert judge.asked == [] and state.troop("T1").area == state.troop("T2").area == "Lorraine"


def test_leader_without_a_host_goes_back_to_the_pool():
    state = fresh()
    for troop in [t for t in state.troops if t.power == "SPA"]:
        state.troops.remove(troop)
    state.leaders = [lead for lead in state.leaders if lead.id != "L1"]
    state.squadrons = [s for s in state.squadrons if s.power != "SPA"]
    state.fortresses = [f for f in state.fortresses if f.area != "Madrid"]
    judge = Judge()
    repatriate(state, SCENARIO, judge, "SPA", ["Antwerp"], why="test")
    assert state.leader("L2") is None and "L2" in state.leader_pool
    assert state.fortress_in("Antwerp") is None


def test_reassign_asks_the_owner_with_a_default():
    state = fresh()
    judge = Judge(L2="ATTACH L2 TO F2")
    repatriate(state, SCENARIO, judge, "SPA", ["Antwerp"], why="test")
    request = judge.asked[0]
    assert request.kind == "reassign" and request.default == "ATTACH L2 TO T2"  # T1 carries the Duke of Alba
    assert "ATTACH L2 TO T1" not in request.options
    assert state.leader("L2").unit == "F2"


def test_squadrons_leave_a_sea_and_a_port_left():
    state = fresh()
    judge = Judge()
    repatriate(state, SCENARIO, judge, "SPA", ["NS"], why="test")
    assert state.squadron("S1").where() == "Brugge (port)"  # its home port, still a base (§11.6, RR-I51)
    repatriate(state, SCENARIO, judge, "SPA", ["Brugge"], why="test")  # the port itself must be left too
    assert state.squadron("S1").port == "Antwerp"


def test_start_war_ends_forced_peace_and_casus_belli():
    state = fresh()
    state.forced_peace = [("SPA", "NED")]
    state.casus_belli = [("NED", "SPA"), ("ENG", "SPA")]
    assert "their forced peace ends (§21.5.4)" in start_war(state, "NED", "SPA")
    assert state.forced_peace == [] and state.casus_belli == [("ENG", "SPA")]
    assert state.wars[-1].cause == "event"
    assert start_war(state, "SPA", "NED") == "SPA and NED are already at war"


def test_event_control_razes_no_port_and_moves_no_morale():
    state = fresh()
    start_war(state, "NED", "SPA")
    place_control(state, SCENARIO, Judge(), "NED", "Antwerp", "test")  # a key area
    assert state.areas["Antwerp"].controller == "NED" and not state.areas["Antwerp"].razed
    assert state.powers["SPA"].morale == 5 and state.wars[0].morale == {}


def test_rebellion_in_flanders_applies_in_the_cards_order():
    state = fresh()
    judge = Judge()
    texts = apply_event(state, SCENARIO, judge, SCENARIO.cards[1])
    assert len(texts) == 4
    assert state.wars[0].morale == {"NED": 1}
    assert state.squadron("S1").port == "Santander"  # no base on the North Sea any more (§14.2)
    assert state.troop("T1").area == "Lorraine" and state.troop("T2").area == "Lorraine"


def test_answers_read_for_the_troop_they_name():
    requests = [SimpleNamespace(kind="repatriate", key=f"r#{n}", context={"subject": troop}) for n, troop in
                ((1, "T1"), (2, "T2"))]
    assert narrow(parse_line("REPATRIATE T2 DISPERSE"), requests)[0] == [requests[1]]
    assert narrow(parse_line("REPATRIATE T9 DISPERSE"), requests) == ([], "T9 is not asked about now (you are asked "
                                                                        "about T1, T2)")
    assert narrow(parse_line("REPATRIATE AUTO"), requests, {"r#1"})[0] == [requests[1]]
    reassign = SimpleNamespace(kind="reassign", key="a#1", options=["ATTACH L2 TO T2", "ATTACH L2 TO T3"],
                               default="ATTACH L2 TO T2", context={"subject": "L2"})
    assert read_reaction(parse_line("ATTACH AUTO"), reassign) == ("ATTACH L2 TO T2", "")
    assert read_reaction(parse_line("attach l2 to t3"), reassign) == ("ATTACH L2 TO T3", "")
    for line in ("REPATRIATE T1 TO Lorraine", "REPATRIATE T1 MOVE TO Antwerp", "REPATRIATE T1 DISPERSE",
                 "REPATRIATE AUTO", "ATTACH L2 TO T3", "ATTACH AUTO"):
        assert parse_line(line).text() == line


def test_check_scenario_names_what_effects_get_wrong():
    raw = copy.deepcopy(RAW)
    raw["cards"][0]["effects"] = [{"start_war": ["NED", "NED"]},
                                  {"give_control": {"power": "XXX", "areas": ["Atlantis"]}},
                                  {"repatriate": {"power": "SPA", "places": ["Nowhere"]}}]
    problems = RULES.check_scenario(RULES.load_scenario(raw))
    assert problems == ["card 1 (Rebellion in Flanders): start_war names NED twice: it is between two powers",
                        "card 1 (Rebellion in Flanders): effect names unknown power 'XXX'",
                        "card 1 (Rebellion in Flanders): give_control: unknown area 'Atlantis'",
                        "card 1 (Rebellion in Flanders): repatriate: unknown area or sea 'Nowhere'"]
