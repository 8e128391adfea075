"""Unit tests of RR-I51…RR-I56: coastal support for either side and for revolts (§11.4.2),
besieged fortresses on strategic paths (§10.2), forced peace (§21.5.4), card events (§8.2.2)."""

from __future__ import annotations

import tomllib

import pytest

from conftest import ROOT
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.combat import model as cm
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.events import apply_event
from pbem.rules.ratio_regis.movement import plan_route
from pbem.rules.ratio_regis.naval_support import _sides_for
from pbem.rules.ratio_regis.rulings import apply_ruling
from pbem.rules.ratio_regis.state import War
from tests.support.judge import Judge

RULES = RatioRegis()
SCENARIO = RULES.load_scenario(tomllib.loads((ROOT / "examples/ratio-regis/world.toml").read_text()))


def fresh():
    return RULES.initial_state(SCENARIO, {}, [Seat("p1", "p1"), Seat("p2", "p2")])


def combat(attacker: str, defender: str, *, revolt: bool = False) -> cm.Combat:
    units = (cm.Unit("R2", cm.REBEL, 2),) if revolt else ()
    return cm.Combat(id="c", type=cm.FIELD, area="Zeeland", attacker=cm.Side(attacker, "p1", ()),
                     defender=cm.Side(defender, "p2", units))


def test_at_war_with_both_sides_may_support_either():
    state = fresh()
    state.wars += [War(sides=("ENG", "FRA")), War(sides=("NED", "FRA"))]
    assert _sides_for(state, combat("NED", "FRA"), "ENG") == [cm.DEFENDER, cm.ATTACKER]
    assert _sides_for(state, combat("NED", "FRA"), "NED") == [cm.ATTACKER]
    assert _sides_for(state, combat("NED", "FRA"), "SPA") == []


def test_revolt_supported_by_enemies_of_the_subjugator():
    state = fresh()
    revolt = combat("NED", "NED", revolt=True)
    assert _sides_for(state, revolt, "ENG") == [cm.DEFENDER]  # at war with NED
    assert _sides_for(state, revolt, "NED") == [cm.ATTACKER]  # the subjugator supports itself
    assert _sides_for(state, revolt, "SPA") == []


def test_strategic_move_cannot_cross_a_besieged_inland_fortress():
    state = fresh()
    state.areas["Utrecht"].rebellion = None
    state.areas["Utrecht"].besieger = "ENG"
    with pytest.raises(IllegalOrder, match="besieged fortress and is no port"):
        plan_route(state, SCENARIO, "NED", ["T3"], "Friesland", ["Utrecht", "Amsterdam"])
    state.areas["Utrecht"].besieger = None
    state.areas["Zeeland"].besieger = "ENG"  # a port: allowed (§10.2 "other than ports")
    assert plan_route(state, SCENARIO, "NED", ["T1"], "Amsterdam", ["Zeeland"]) == ["Amsterdam", "Zeeland"]


def test_forced_peace_by_ruling_and_scenario():
    state = fresh()
    assert state.in_forced_peace("NED", "SPA")
    apply_ruling(state, SCENARIO, "forced-peace", {"power": "FRA", "other": "SPA"})
    assert state.in_forced_peace("SPA", "FRA")


def test_events_apply_once_and_combat_cards_do_nothing():
    state, judge = fresh(), Judge(SCENARIO)
    apply_event(state, SCENARIO, judge, SCENARIO.cards[1])
    apply_event(state, SCENARIO, judge, SCENARIO.cards[7])  # a combat card played for its point
    assert state.nod == 2
    apply_event(state, SCENARIO, judge, SCENARIO.cards[4])
    apply_event(state, SCENARIO, judge, SCENARIO.cards[4])
    assert state.interests == {"ENG": ["NA"]}
    assert len(judge.said) == 3
