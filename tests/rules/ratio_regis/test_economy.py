"""Unit tests of RR-I100…RR-I108: unrest moved and floored (§19.1), the economic phase's account
(§23.1.1), the `agitation` decision's answers (§23.2) and the dynastic change (§23.3)."""

from __future__ import annotations

from types import SimpleNamespace

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.agitation import dispersible, excess, read_agitation
from pbem.rules.ratio_regis.dynasty import change, in_revolt_everywhere
from pbem.rules.ratio_regis.economy import account, accounts, economic_phase
from pbem.rules.ratio_regis.orders import parse_line
from pbem.rules.ratio_regis.unrest import adjust, allied
from tests.support.judge import Judge

RULES = RatioRegis()
SCENARIO = RULES.load_scenario(load_data_file(ROOT / "examples/ratio-regis/war.toml"))


def fresh():
    state = RULES.initial_state(SCENARIO, {}, [Seat("p1", "p1"), Seat("p2", "p2"), Seat("p3", "p3")])
    for code, player in (("SPA", "p1"), ("FRA", "p2"), ("BAR", "p2"), ("HUG", "p3"), ("ENG", "p3"), ("NED", "p3")):
        state.powers[code].player = player
    return state


def test_unrest_never_falls_below_zero():
    state = fresh()
    assert adjust(state, "BAR", -5) == "unrest 2 → 0"
    assert state.powers["BAR"].unrest == 0


def test_an_ally_is_another_power_of_the_same_player():
    state = fresh()
    assert allied(state, "FRA", "BAR")
    assert not allied(state, "FRA", "FRA") and not allied(state, "FRA", "SPA") and not allied(state, "FRA", "XYZ")


def test_the_account_counts_what_the_state_holds_and_the_balance_moves_unrest():
    state = fresh()
    books = account(state, SCENARIO, "FRA")
    assert sum(n for _, n in books.income) == 14 and sum(n for _, n in books.expenses) == 11
    assert books.balance == 3
    judge = Judge(SCENARIO)
    economic_phase(judge, state, SCENARIO)
    assert state.powers["FRA"].unrest == 1
    assert "FRA: income exceeds expenses by 3: unrest 4 → 1" in judge.said


def test_the_books_kept_together_are_each_powers_own():
    state = fresh()
    revolt = next(a.id for a in SCENARIO.data.areas if state.areas[a.id].possessor == "FRA")
    state.areas[revolt].rebellion = "R2"
    state.troops[0].box, state.troops[0].area = SCENARIO.box_of(state.troops[0].area), None
    powers = ["SPA", "FRA", "HUG", "ENG"]
    together = accounts(state, SCENARIO, powers)
    assert [books.power for books in together] == powers
    assert [(b.income, b.expenses, b.revolts) for b in together] == \
        [(b.income, b.expenses, b.revolts) for b in (account(state, SCENARIO, power) for power in powers)]
    assert together[1].revolts == [revolt] and not any(b.revolts for b in together if b.power != "FRA")


def test_more_than_two_merchants_pay_as_two():
    state = fresh()
    state.merchants["TC-NS"]["SPA"] = 3
    assert ("2 merchant(s) in TC-NS", 3) in account(state, SCENARIO, "SPA").income


def test_a_power_without_a_player_keeps_no_account():
    state = fresh()
    state.powers["NED"].player = None
    economic_phase(Judge(SCENARIO), state, SCENARIO)
    assert state.powers["NED"].unrest == 3


def _request(state, code):
    troops = dispersible(state, code)
    return SimpleNamespace(kind="agitation", power=code,
                           context={"excess": excess(state, SCENARIO, code), "eligible": tuple(troops),
                                    "quality": troops})


def test_an_agitation_answer_is_read_in_the_request_order():
    state = fresh()
    state.powers["SPA"].unrest = 15
    request = _request(state, "SPA")
    assert read_agitation(parse_line("DISPERSE t3,T1"), request) == ("DISPERSE T1,T3", "")
    assert read_agitation(parse_line("KEEP"), request) == ("KEEP", "")
    assert read_agitation(parse_line("DYNASTY"), request) == ("DYNASTY", "")
    answer, why = read_agitation(parse_line("DISPERSE T1,T1"), request)
    assert answer is None and why == "name each troop once"


def test_a_besieged_troop_cannot_disperse_against_revolts():
    state = fresh()
    state.troop("T4").besieged = True
    assert "T4" not in dispersible(state, "SPA") and "T5" in dispersible(state, "SPA")


def test_a_dynastic_change_clears_the_power_and_records_its_redeployment():
    state, judge = fresh(), Judge(SCENARIO)
    state.powers["HUG"].unrest = 9
    state.areas["Poitiers"].rebellion = "R2"
    change(judge, state, SCENARIO, "HUG", collapse=False, why="a voluntary dynastic change")
    assert not [t for t in state.troops if t.power == "HUG"] and not [x for x in state.leaders if x.power == "HUG"]
    assert state.powers["HUG"].unrest == 3 and state.powers["HUG"].redeployment == 5
    assert state.player("p3").vp == -3
    assert [a for a in ("Clermont", "Poitiers", "Bordeaux", "Toulouse") if state.areas[a].rebellion] == ["Clermont"]
    assert state.areas["Clermont"].rebellion == "R3"  # one R3 for vitality 3, where the default puts it
    assert not in_revolt_everywhere(state, SCENARIO, "HUG")
