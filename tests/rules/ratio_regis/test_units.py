"""Unit tests: order lines, scenario checks, options, policies."""

from __future__ import annotations

import copy
import tomllib

import pytest

from conftest import SCENARIO
from pbem.core.canonical import canonical_json, fields_sorted
from pbem.core.decisions import kinds_of
from pbem.core.engine import Policy, Request
from pbem.core.ruleset import ScenarioError, Seat
from pbem.rules.ratio_regis import RatioRegis
from pbem.rules.ratio_regis.orders import OrderSyntaxError, parse_line
from pbem.rules.ratio_regis.state import GameState

RULES = RatioRegis()
KINDS = kinds_of(RULES)
RAW = tomllib.loads(SCENARIO.read_text())


@pytest.mark.parametrize("line, canonical", [
    ("bid 6", "BID 6"),
    ("start P2 ccw", "START P2 CCW"),
    ("PLAY 12 POINTS fra=2, hug=1", "PLAY 12 POINTS FRA=2,HUG=1"),
    ("fra c12 strat troop t3 path Paris>Orleans>Tours", "FRA C12 STRAT TROOP T3 PATH Paris>Orleans>Tours"),
    ("FRA I BUILD TROOP Q2 AT Paris PATH Paris>Rouen", "FRA I BUILD TROOP Q2 AT Paris PATH Paris>Rouen"),
    ("FRA E HOME T9", "FRA E HOME T9"),
])
def test_lines_read_to_their_canonical_form(line, canonical):
    assert parse_line(line).text() == canonical


@pytest.mark.parametrize("line, message", [
    ("BIDD 3", "did you mean BID"),
    ("FRA I BIULD TROOP Q2 AT Paris", "did you mean BUILD"),
    ("FRA I BUILD TROOP Q5 AT Paris", "Q2 or Q3"),
    ("PLAY", "ends too early"),
])
def test_bad_lines_say_why(line, message):
    with pytest.raises(OrderSyntaxError, match=message):
        parse_line(line)


def test_scenario_checks_find_what_the_schema_cannot():
    raw = copy.deepcopy(RAW)
    paris = next(a for a in raw["areas"] if a["id"] == "Paris")
    paris["adjacent"].append("Lyon")
    raw["areas"].append({"id": "Atlantis", "name": "Atlantis", "theater": "WE", "x": 0, "y": 0})
    raw["deck"]["sizes"] = {}
    raw["deployment"].append({"power": "XXX", "counter": "2-3", "area": "Paris"})
    problems = RULES.check_scenario(RULES.load_scenario(raw))
    text = "\n".join(problems)
    assert "Paris lists Lyon but Lyon does not list Paris" in text
    assert "Atlantis cannot be reached" in text
    assert "no deck size for 2 players" in text
    assert "unknown power 'XXX'" in text


def test_schema_problems_are_all_listed():
    raw = copy.deepcopy(RAW)
    del raw["areas"][0]["x"]
    raw["powers"][0]["vitality"] = -1
    with pytest.raises(ScenarioError) as error:
        RULES.load_scenario(raw)
    assert len(error.value.problems) == 2


def test_unknown_option_is_refused_with_the_choices():
    scenario = RULES.load_scenario(RAW)
    with pytest.raises(ScenarioError, match="intrinsic_action must be one of impulse, turn"):
        RULES.initial_state(scenario, {"intrinsic_action": "decade"}, [Seat("a", "A"), Seat("b", "B")])
    with pytest.raises(ScenarioError, match="no power groups for 5 players"):
        RULES.initial_state(scenario, {}, [Seat(str(i), str(i)) for i in range(5)])


def test_state_round_trips_canonically():
    scenario = RULES.load_scenario(RAW)
    state = RULES.initial_state(scenario, {}, [Seat("a", "A"), Seat("b", "B")])
    encoded = RULES.encode_state(state)
    assert RULES.encode_state(RULES.decode_state(encoded)) == encoded
    assert [t.id for t in state.troops][:3] == ["T1", "T2", "T3"]


def test_state_fields_are_declared_sorted_so_the_cheaper_encoder_writes_canonical_json():
    assert fields_sorted(GameState), "declare every state struct's fields in alphabetical order"
    scenario = RULES.load_scenario(RAW)
    state = RULES.initial_state(scenario, {}, [Seat("a", "A"), Seat("b", "B")])
    assert RULES.encode_state(state) == canonical_json(state)


def _request(kind, default, options=()):
    return Request(key=f"k/{kind}#1", kind=kind, player="p1", prompt="", default=default, options=tuple(options))


def test_policies():
    start = _request("start", {"player": "p1", "direction": "CW"}, ["START p1 CW", "START p2 CCW"])
    assert KINDS.answer_policy(Policy("P1", "p1", "start", "START p2 ccw"), start) == {"player": "p2",
                                                                                      "direction": "CCW"}
    impulse = _request("impulse", ["PLAY 3", "DONE"])
    assert KINDS.answer_policy(Policy("P2", "p1", "impulse", "default"), impulse) == ["PLAY 3", "DONE"]
    assert "DO DEFAULT" in KINDS.check_policy(Policy("P3", "p1", "impulse", "PLAY 3"))
    assert KINDS.check_policy(Policy("P4", "p1", "bid", "BID 0")) == ""
    assert KINDS.check_policy(Policy("P5", "p1", "bid", "GROUP 1")) != ""
    group = _request("group", 2, ["GROUP 2", "GROUP 3"])
    assert KINDS.answer_policy(Policy("P6", "p1", "group", "GROUP 1"), group) is None
    assert KINDS.order_form(group) == "GROUP 2"
