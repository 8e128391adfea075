"""Unit tests of RR-I140…RR-I149: the bid limit and order of the auctions (§19.3.1, §20.3.1), the
minors' scenario checks, the `auction` and `reinforce` answers, and a minor turning neutral; of
RR-I260: the minors allied at the start deploying with their ally."""

from __future__ import annotations

import copy
import tomllib
from types import SimpleNamespace

import pytest

from conftest import ROOT
from pbem.core.decisions import Refusal
from pbem.core.ruleset import Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.bidding import AUCTION_KIND, Lot, bid_limit, bidding_order, limits
from pbem.rules.ratio_regis.dynasty import change
from pbem.rules.ratio_regis.economy import account
from pbem.rules.ratio_regis.minors import REINFORCE_KIND, ally, deploy_starting_allies, neutral
from tests.support.judge import Judge

RULES = RatioRegis()
RAW = tomllib.loads((ROOT / "examples/ratio-regis/minors.toml").read_text())
SCENARIO = RULES.load_scenario(RAW)


def _state():
    state = RULES.initial_state(SCENARIO, {}, [Seat("p1", "p1"), Seat("p2", "p2"), Seat("p3", "p3")])
    for number, (player, group) in enumerate((("p1", ["SPA"]), ("p2", ["FRA", "BAR"]), ("p3", ["HUG", "ENG"]))):
        state.player(player).game_order = number + 1
        for code in group:
            state.powers[code].player = player
    return state


@pytest.mark.parametrize(("vitality", "unrest", "limit"), [(4, 0, 4), (4, 4, 4), (3, 5, 1), (3, 6, 0), (3, 7, -1)])
def test_the_limit_is_the_vitality_less_each_unrest_point_above_it(vitality, unrest, limit):
    assert bid_limit(vitality, unrest) == limit


def test_minor_auctions_take_interest_and_the_cards_diplomatic_vitality():
    state = _state()
    state.powers["FRA"].unrest, state.powers["ENG"].unrest, state.powers["HUG"].unrest = 5, 3, 6
    scotland = Lot("Scotland", 3, "§20.3.1", "SCO")
    assert limits(state, SCENARIO, "p1", scotland) == {}  # Spain: interest in WM only
    assert limits(state, SCENARIO, "p2", scotland) == {"FRA": 5}  # vitality 5 in diplomacy (§29.2)
    assert limits(state, SCENARIO, "p3", scotland) == {"ENG": 5}  # the Huguenots are at 2V
    state.interests["SPA"] = ["WE"]  # an event's interest counts (§18.4.1)
    assert limits(state, SCENARIO, "p1", scotland) == {"SPA": 5}


def test_the_card_player_bids_first_then_game_order_round():
    state = _state()
    assert bidding_order(state, "p2") == ["p2", "p3", "p1"]
    assert bidding_order(state, "p1") == ["p1", "p2", "p3"]


def test_auction_answers_are_checked_against_the_request():
    request = SimpleNamespace(context={"limits": {"FRA": 4}, "above": 2})
    assert AUCTION_KIND.parse("auction fra 3") == "AUCTION FRA 3"
    assert AUCTION_KIND.parse("auction pass") == "AUCTION PASS"
    assert AUCTION_KIND.parse("BID 3") is None
    with pytest.raises(Refusal, match="write AUCTION"):
        AUCTION_KIND.parse("AUCTION FRA")
    with pytest.raises(Refusal, match="beat the last one, 2"):
        AUCTION_KIND.check(request, "AUCTION FRA 2")
    with pytest.raises(Refusal, match="BAR may not bid here"):
        AUCTION_KIND.check(request, "AUCTION BAR 3")
    assert AUCTION_KIND.check(request, "AUCTION FRA 4") == "AUCTION FRA 4"


def test_reinforcements_name_one_area_per_troop_within_room():
    request = SimpleNamespace(context={"room": {"Edinburgh": 1, "Dublin": 4}, "count": 2})
    assert REINFORCE_KIND.check(request, "REINFORCE dublin,edinburgh") == "REINFORCE Dublin,Edinburgh"
    with pytest.raises(Refusal, match="room for 1"):
        REINFORCE_KIND.check(request, "REINFORCE Edinburgh,Edinburgh")
    with pytest.raises(Refusal, match="name 2 area"):
        REINFORCE_KIND.check(request, "REINFORCE Dublin")
    with pytest.raises(Refusal, match="Paris cannot take"):
        REINFORCE_KIND.check(request, "REINFORCE Paris,Dublin")


def test_starting_allies_control_their_minors_areas():
    state = _state()
    assert state.minors["SCO"].ally == "ENG"
    assert state.areas["Glasgow"].controller == "ENG" and state.areas["Glasgow"].possessor is None
    assert state.minors["GER"].ally is None and state.minors["GER"].pool == {"2-3": 1, "3-4": 1}


def test_a_neutral_minor_leaves_the_map_and_its_revolts():
    state = _state()
    state.areas["Glasgow"].rebellion = "R2"
    neutral(Judge(SCENARIO), state, SCENARIO, "SCO", "peace")
    assert state.minors["SCO"].ally is None
    assert state.areas["Glasgow"].rebellion is None and state.areas["Glasgow"].controller is None


@pytest.mark.parametrize(("change", "problem"), [
    ({"theater": "XX"}, "unknown theater 'XX'"),
    ({"ally": "XXX"}, "allied to unknown power 'XXX'"),
    ({"fortresses": ["London"]}, "card fortress in London"),
    ({"mercenary": True}, "a mercenary minor has no areas"),
])
def test_the_scenario_check_reads_the_minors_cards(change, problem):
    raw = copy.deepcopy(RAW)
    raw["minors"][0].update(change)
    assert any(problem in p for p in RULES.check_scenario(RULES.load_scenario(raw)))


def test_a_minor_allied_at_the_start_to_two_powers_is_a_scenario_problem():
    """RR-I260: a minor starts allied to the power its card names or the power whose `allies`
    name it (by code or name), never to two."""
    raw = copy.deepcopy(RAW)
    next(p for p in raw["powers"] if p["code"] == "ENG")["allies"] = ["Savoy"]
    assert "minor SAV: allied at the start to more than one power (FRA, ENG) (§24)" \
        in RULES.check_scenario(RULES.load_scenario(raw))


def test_a_minor_allied_to_a_power_entering_later_deploys_when_it_enters():
    """RR-I260, §8.1.2: Tunis, allied to the Barbary Coast, which enters at turn 7, stays on its card
    at turn 6 and deploys at turn 7 — a fixed deployment, so at RR-I148's default place."""
    scenario = RULES.load_scenario(tomllib.loads((ROOT / "examples/ratio-regis/minors-setup.toml").read_text()))
    state = RULES.initial_state(scenario, {}, [Seat("p1", "p1"), Seat("p2", "p2")])
    state.powers["BAR"].player = "p2"
    judge = Judge(scenario)
    deploy_starting_allies(judge, state)
    assert state.minors["TUN"].pool == {"2-3": 1}
    state.turn = 7
    state.powers["BAR"].active = True
    deploy_starting_allies(judge, state)
    assert [(t.area, t.power) for t in state.troops if t.minor == "TUN"] == [("Tunis", "BAR")]
    assert not judge.asked


def test_an_alliance_card_must_name_a_known_minor():
    raw = copy.deepcopy(RAW)
    raw["cards"][2]["effects"] = [{"minor_alliance": "XYZ"}]
    assert any("unknown minor power 'XYZ'" in p for p in RULES.check_scenario(RULES.load_scenario(raw)))


def test_an_allied_minors_units_cost_its_ally_nothing_and_go_neutral_with_a_dynastic_change():
    """§23.1.1: the minor powers' units are not maintained; §23.3: after a dynastic change the
    power's minors turn neutral (§20.4.1), their troops leaving the map."""
    state = _state()
    judge = Judge(SCENARIO)
    before = account(state, SCENARIO, "ENG")
    ally(judge, state, SCENARIO, "SCO", "ENG", "a test alliance")
    placed = [t for t in state.troops if t.minor == "SCO"]
    assert placed and all(t.power == "ENG" for t in placed)
    assert account(state, SCENARIO, "ENG").expenses == before.expenses
    change(judge, state, SCENARIO, "ENG", collapse=False, why="a test", redeploys=False)
    assert state.minors["SCO"].ally is None
    assert not [t for t in state.troops if t.minor == "SCO"]
