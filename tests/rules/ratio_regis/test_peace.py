"""Unit tests of the peace rules' parts that no example card reaches: the casus-belli and collapse
effects of events (§21.3.2, §21.6), the removal of a collapsed power, the `terms` and
`negotiate` lines (§21.4.2, §21.5.3), and counters owed after the last one (RR-I161)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import ROOT
from pbem.core.datafile import load_data_file
from pbem.core.decisions import Refusal
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.events import apply_event
from pbem.rules.ratio_regis.negotiation import NEGOTIATE_KIND, forced_negotiations, may_ask, pay_owed
from pbem.rules.ratio_regis.peace_terms import TERMS_KIND, parse_terms
from pbem.rules.ratio_regis.scenario import Card, Effect
from pbem.rules.ratio_regis.state import War
from pbem.rules.ratio_regis.war import give_morale
from tests.support.judge import Judge

RULES = RatioRegis()
SCENARIO = RULES.load_scenario(load_data_file(ROOT / "examples/ratio-regis/peace.toml"))
SEATS = [Seat("p1", "P1"), Seat("p2", "P2"), Seat("p3", "P3")]


def _state(**options):
    state = RULES.initial_state(SCENARIO, options, SEATS)
    for power, player in (("SPA", "p1"), ("FRA", "p2"), ("BAR", "p2"), ("HUG", "p3"), ("ENG", "p3"), ("NED", "p3")):
        state.powers[power].player = player
    return state


def _card(**effect) -> Card:
    return Card(number=99, title="Test Event", kind="generic", points=0, effects=[Effect(**effect)])


def test_a_casus_belli_event_gives_one_and_ignores_a_second():
    state = _state()
    judge = Judge(SCENARIO)
    apply_event(state, SCENARIO, judge, _card(casus_belli=("SPA", "FRA")))
    apply_event(state, SCENARIO, judge, _card(casus_belli=("SPA", "FRA")))
    assert state.casus_belli.count(("SPA", "FRA")) == 1
    assert "SPA holds a casus belli against FRA already: the second is ignored (§21.3.2)" in judge.said[-1]


def test_a_casus_belli_event_during_the_war_adds_a_vp_for_its_winner():
    state = _state()
    state.wars.append(War(sides=("SPA", "FRA")))
    apply_event(state, SCENARIO, Judge(SCENARIO), _card(casus_belli=("FRA", "SPA")))
    assert state.wars[-1].card_vp == 1 and ("FRA", "SPA") not in state.casus_belli


def test_a_power_at_peace_that_collapses_leaves_the_game_at_once():
    state = _state()
    judge = Judge(SCENARIO)
    apply_event(state, SCENARIO, judge, _card(collapse="BAR"))
    assert not state.powers["BAR"].active and state.collapsing == []
    assert state.areas["Tunis"].independent == "A3" and state.areas["Algiers"].independent == "A3"
    assert not [t for t in state.troops if t.power == "BAR"]


def test_a_power_at_war_that_collapses_waits_for_peace():
    state = _state()
    state.wars.append(War(sides=("SPA", "BAR")))
    apply_event(state, SCENARIO, Judge(SCENARIO), _card(collapse="BAR"))
    assert state.powers["BAR"].active and state.collapsing == ["BAR"]


@pytest.mark.parametrize("option, lost, allowed", [("up", 2, False), ("up", 3, True), ("down", 2, True)])
def test_half_the_morale_of_an_odd_vitality(option, lost, allowed):
    state = _state(peace_half=option)
    state.wars.append(War(sides=("SPA", "NED"), morale={"NED": lost}))
    assert may_ask(state, SCENARIO, "SPA") is allowed


def _terms_request(**context):
    base = {"winner": "FRA", "loser": "SPA", "conditions": 4, "vp_cost": 2, "domains": {"Genoa": 2},
            "home": ("Navarre",), "ports": ("Barcelona",), "eliminate": (), "replace": ()}
    return SimpleNamespace(kind="terms", default="TERMS VP 2", context={**base, **context})


def test_terms_read_and_checked():
    request = _terms_request()
    assert TERMS_KIND.check(request, parse_terms("terms vp 1, domain GENOA")) == "TERMS VP 1, DOMAIN Genoa"
    assert TERMS_KIND.check(request, parse_terms("TERMS AUTO")) == "TERMS VP 2"
    assert TERMS_KIND.check(request, parse_terms("TERMS NONE")) == "TERMS NONE"
    with pytest.raises(Refusal, match="named twice"):
        TERMS_KIND.check(request, parse_terms("TERMS LOOT Barcelona, LOOT Barcelona"))
    with pytest.raises(Refusal, match="takes a number"):
        parse_terms("TERMS VP two")
    assert parse_terms("START p1 CW") is None


def test_the_negotiate_line_names_an_enemy():
    request = SimpleNamespace(kind="negotiate", default="NEGOTIATE WITH NED",
                              context={"power": "SPA", "enemies": ("NED", "ENG")})
    assert NEGOTIATE_KIND.check(request, NEGOTIATE_KIND.parse("negotiate with eng")) == "NEGOTIATE WITH ENG"
    assert NEGOTIATE_KIND.check(request, NEGOTIATE_KIND.parse("NEGOTIATE AUTO")) == "NEGOTIATE WITH NED"
    with pytest.raises(Refusal, match="write NEGOTIATE WITH"):
        NEGOTIATE_KIND.parse("NEGOTIATE ENG")


def test_counters_lost_after_the_last_are_owed_and_given_in_order_while_any_are_left():
    state = _state()
    judge = Judge(SCENARIO)
    war = War(sides=("SPA", "ENG"), morale={"ENG": 5})
    state.wars.append(war)
    state.powers["SPA"].morale = 0
    give_morale(state, judge, "SPA", "ENG", "field combat lost in Madrid", "§21.3.5")
    give_morale(state, judge, "SPA", "ENG", "key area Madrid lost", "§21.3.5")
    assert war.morale == {"ENG": 5} and len(war.owed) == 2
    state.powers["SPA"].morale = 1  # one counter given back by a negotiation elsewhere
    pay_owed(state, judge, "SPA")
    assert war.morale == {"ENG": 6} and state.powers["SPA"].morale == 0
    assert war.owed == [("ENG", "key area Madrid lost")]
    assert judge.said[-1].startswith("SPA gives a morale counter to ENG (field combat lost in Madrid, owed")


def test_a_power_that_regains_counters_in_another_powers_negotiation_pays_what_it_owes():
    """The Dutch lost their last counter to England and then Amsterdam; Spain, with none either,
    negotiates first (the scenario's order) and at peace the Dutch recover the two counters Spain
    held: they give England the one owed and, with one left, do not negotiate."""
    state = RULES.initial_state(SCENARIO, {}, SEATS)  # nobody plays: the defaults answer
    state.powers["SPA"].morale = 0
    state.powers["NED"].morale = 0
    state.wars.append(War(sides=("SPA", "NED"), morale={"SPA": 2, "NED": 5}))
    dutch_english = War(sides=("NED", "ENG"), morale={"ENG": 1}, owed=[("ENG", "key area Amsterdam lost")])
    state.wars.append(dutch_english)
    texts = forced_negotiations(state, SCENARIO, Judge(SCENARIO))
    assert len(texts) == 1 and state.wars == [dutch_english]
    assert dutch_english.morale == {"ENG": 2} and dutch_english.owed == []
    assert state.powers["NED"].morale == 1
