"""The core's order toolkit (DESIGN §6): an order is one class — pattern, fields, echo, help,
execution — listed in its game's table; one block runner checks a block by running the
same order code on a copy through the probe and carries it out live; a line or block is
bound to the owed request of the power it serves; kinds claim first words, and two kinds
claiming one word without one deferring is an error when the game's kinds are loaded.

The minigame (`tests/support/minigame.py`) declares a block kind, an action queue, a
power-addressed request and an "one of the options" kind, with no code of its own for
reading, checking or binding any of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest

from pbem.core.blocks import PowerBlock, run_block
from pbem.core.decisions import DecisionKinds, KeywordCollision, LineKind, check_keywords, kinds_of
from pbem.core.engine import Request
from pbem.core.probe import NeedsInput, Probe
from pbem.core.service import PlayerSpec
from pbem.core.toolkit import Order, OrderSyntaxError, OrderTable, grammar_keywords
from tests.support.minigame import BLOCK, ORDERS, MiniGame, State, _copy


# -- one order, one class ---------------------------------------------------------------
@dataclass(frozen=True)
class March(Order):
    patterns: ClassVar = ("MARCH <unit> TO <area> [FORCE] [VIA <seas:names>]",)
    unit: str
    area: str
    force: bool = False
    seas: tuple[str, ...] = ()


@dataclass(frozen=True)
class Disband(Order):
    patterns: ClassVar = ("DISBAND <unit>", "DISBAND <count:int> <kind:code> IN <area>")
    unit: str = ""
    count: int = 0
    kind: str = ""
    area: str = ""


TABLE = OrderTable("test", (March, Disband))


def test_an_order_reads_its_fields_off_its_pattern_and_echoes_itself():
    order = TABLE.read("march a1 to Paris force via North,Baltic")
    assert order == March("a1", "Paris", True, ("North", "Baltic"))
    assert order.text() == "MARCH a1 TO Paris FORCE VIA North,Baltic"
    assert TABLE.read("MARCH a1 TO Paris").text() == "MARCH a1 TO Paris"
    assert TABLE.read("disband 2 inf in Ulm") == Disband(count=2, kind="INF", area="Ulm")
    assert TABLE.read("DISBAND 2 INF IN Ulm").text() == "DISBAND 2 INF IN Ulm"
    assert TABLE.read("DISBAND x9").text() == "DISBAND x9"


def test_help_and_keywords_are_the_patterns():
    assert March.help() == "MARCH <unit> TO <area> [FORCE] [VIA <seas,…>]"
    assert Disband.help() == "DISBAND <unit> | DISBAND <count> <kind> IN <area>"
    assert TABLE.keywords == ("MARCH", "DISBAND")
    assert TABLE.help().splitlines() == [March.help(), Disband.help()]


def test_an_unknown_first_word_gets_the_nearest_order_word():
    with pytest.raises(OrderSyntaxError, match="unknown order 'MRACH'; did you mean MARCH"):
        TABLE.read("MRACH a1 TO Paris")
    with pytest.raises(OrderSyntaxError, match=r"write MARCH <unit> TO <area>"):
        TABLE.read("MARCH a1 Paris")


def test_a_pattern_that_disagrees_with_its_fields_is_refused_when_the_table_is_built():
    @dataclass(frozen=True)
    class Wrong(Order):
        patterns: ClassVar = ("WRONG <unit>",)
        area: str

    with pytest.raises(ValueError, match="its patterns name"):
        _ = OrderTable("bad", (Wrong,)).grammar


def test_grammar_keywords_pass_over_names_and_follow_rules():
    from lark import Lark
    parser = Lark('?start: act | bid\nact: NAME NAME (go | stay)\ngo: "GO"i NAME\nstay: "STAY"i\nbid: "BID"i INT\n'
                  'NAME: /[A-Z]+/\n%import common.INT\n%ignore " "', parser="lalr")
    assert grammar_keywords(parser, "start") == ("GO", "STAY", "BID")
    assert grammar_keywords(parser, "act") == ("GO", "STAY")


# -- the block runner --------------------------------------------------------------------
def _game(tallies: dict[str, int], port=None) -> PowerBlock:
    state = State(players=["ann"], tallies=dict(tallies))
    return PowerBlock(state, {}, "RED", port or Probe({}), _copy, rule="§3")


def test_the_dry_run_rolls_a_refused_line_back_and_goes_on():
    game = _game({})
    run = run_block(ORDERS, [(1, "DOUBLE"), (2, "ADD 9"), (3, "ADD 2"), (4, "DOUBLE"), (5, "ADDD 1")], game,
                    live=False)
    assert [(v.accepted, v.reason) for v in run.verdicts] == [
        (False, "RED has nothing to double (§3.2)"), (False, "a power adds 1 to 6 a line (§3.1)"), (True, ""),
        (True, ""), (False, "unknown order 'ADDD'; did you mean ADD? (orders: ADD, DOUBLE, STAND)")]
    assert game.state.tallies == {"RED": 4}
    assert run.first_fault() == "line 1 (DOUBLE): RED has nothing to double (§3.2)"


@dataclass(frozen=True)
class Roll(Order):
    patterns: ClassVar = ("ROLL",)

    def execute(self, game: PowerBlock) -> str:
        game.state.tallies[game.power] = game.state.tallies.get(game.power, 0) + 100
        return str(game.port.roll("roll"))


def test_a_line_that_needs_a_die_leaves_it_and_the_rest_to_be_checked_when_reached():
    table = OrderTable("t", (Roll, *ORDERS.orders))
    game = _game({"RED": 1})
    run = run_block(table, [(1, "ADD 1"), (2, "ROLL"), (3, "DOUBLE"), (4, "ADD 99")], game, live=False)
    assert [v.accepted for v in run.verdicts] == [True, True, True, True]
    assert run.later == {2, 3, 4}
    assert game.state.tallies == {"RED": 2}  # the roll's change is rolled back with it
    with pytest.raises(NeedsInput):
        run_block(table, [(1, "ROLL")], _game({}), live=True)


class _Port(Probe):
    def __init__(self):
        super().__init__({})
        self.said: list[tuple[str, str]] = []

    def say(self, text, *, to=("*",), rule="", with_rolls=True):
        self.said.append((text, rule))


def test_the_live_run_drops_a_line_illegal_by_then_and_tells_what_each_did():
    port = _Port()
    game = _game({}, port)
    run = run_block(ORDERS, [(1, "DOUBLE"), (2, "ADD 3"), (3, "STAND")], game, live=True)
    assert port.said == [("RED: DOUBLE is not carried out: RED has nothing to double (§3.2)", "§3"),
                         ("RED adds 3", "§3.1")]
    assert game.state.tallies == {"RED": 3}
    assert run.later == {1} and not run.refused  # dropped when reached, not refused


# -- keywords ----------------------------------------------------------------------------
def _kind(name, *keywords, defers=()):
    return LineKind(name, f"{name}: {' | '.join(keywords)}", parse=lambda text: None, form=str, keywords=keywords,
                    defers=defers)


def test_two_kinds_claiming_one_word_is_an_error_unless_one_defers():
    with pytest.raises(KeywordCollision, match="kinds a and b both read lines starting with GO"):
        DecisionKinds([_kind("a", "GO", "STOP"), _kind("b", "GO")])
    check_keywords([_kind("a", "GO"), _kind("b", "GO", defers=("GO",))])
    with pytest.raises(KeywordCollision, match="a word the core reads itself"):
        check_keywords([_kind("a", "FOR")])


def test_a_deferring_kind_reads_its_word_only_while_its_request_is_owed():
    seen = []
    greedy = LineKind("retire", "", parse=lambda text: seen.append(text) or text, form=str, keywords=("RETIRE",),
                      defers=("RETIRE",))
    kinds = DecisionKinds([greedy, _kind("land", "RETIRE")])
    kinds.read_orders([(1, "RETIRE X")], [], None, None, "p")
    assert seen == []
    owed = [Request(key="r", kind="retire", player="p", prompt="", default="")]
    reading = kinds.read_orders([(1, "RETIRE X")], owed, None, None, "p")
    assert reading.answers == {"r": "RETIRE X"}


def test_every_kind_of_the_minigame_declares_its_words():
    kinds = kinds_of(MiniGame())
    assert {name: kind.keywords for name, kind in kinds.kinds.items()} == {
        "bid": ("BID",), "keep": ("KEEP", "REROLL"), "pace": ("PACE",), "orders": ("ADD", "DOUBLE", "STAND"),
        "actions": ("ADD", "DOUBLE", "STAND")}
    assert BLOCK.description == "a power's orders, one per line: ADD <amount>; DOUBLE; STAND"


# -- the minigame: options, power-addressed blocks, an action queue ---------------------
def _powers_game(service):
    players = [PlayerSpec(id=p, address=f"{p}@example.org", token=f"tok-{p}") for p in ("ann", "bob")]
    service.create("g1", "minigame", {"rounds": 0, "powers": {"RED": "ann", "BLUE": "ann", "GREEN": "bob"}},
                   players, secret=bytes(32))
    service.submit("g1", "ann", "BID 2")
    service.submit("g1", "bob", "BID 1")


def test_an_option_kind_takes_one_of_the_requests_options(service):
    _powers_game(service)
    refused = service.submit("g1", "ann", "PACE SLOWLY").receipt
    assert refused.verdicts[0].reason == ("not one of the answers you may give: PACE SLOW, PACE FAST; did you "
                                          "mean PACE SLOW?")
    receipt = service.submit("g1", "ann", "pace fast").receipt
    assert receipt.verdicts[0].understood == "pace: PACE FAST"
    assert service.projection("g1").state().pace == "PACE FAST"


def test_one_player_orders_two_powers_in_one_mail(service):
    _powers_game(service)
    service.submit("g1", "ann", "PACE SLOW")
    assert sorted((r.player, r.power) for r in service.projection("g1").pending()) == [
        ("ann", "BLUE"), ("ann", "RED"), ("bob", "GREEN")]
    receipt = service.submit("g1", "ann", "FOR RED\nADD 3\nDOUBLE\nFOR BLUE\nADD 5").receipt
    assert receipt.accepted
    assert [v.understood for v in receipt.verdicts] == [
        "the lines after this serve RED", "orders: ADD 3", "orders: DOUBLE", "the lines after this serve BLUE",
        "orders: ADD 5"]
    service.submit("g1", "bob", "STAND")
    assert service.projection("g1").state().tallies == {"RED": 6, "BLUE": 5}


def test_a_block_with_a_line_the_rules_refuse_now_is_refused_whole(service):
    _powers_game(service)
    service.submit("g1", "ann", "PACE SLOW")
    receipt = service.submit("g1", "bob", "ADD 2\nADD 7").receipt
    assert not receipt.accepted
    assert receipt.verdicts[1].reason == "a power adds 1 to 6 a line (§3.1)"
    assert "your orders orders were refused and nothing was carried out: line 2 (ADD 7)" in receipt.reason


def test_an_action_queue_keeps_a_line_not_possible_now_and_tries_it_when_its_turn_comes(service):
    _powers_game(service)
    service.submit("g1", "ann", "PACE SLOW")
    service.submit("g1", "ann", "FOR RED\nADD 1\nFOR BLUE\nSTAND")
    service.submit("g1", "bob", "STAND")
    receipt = service.submit("g1", "bob", "DOUBLE\nADD 2\nDOUBLE\nADD 9").receipt
    assert receipt.accepted
    assert [(v.accepted, v.understood) for v in receipt.verdicts] == [
        (True, "actions: DOUBLE (not possible now: GREEN has nothing to double (§3.2); tried again when its turn "
               "comes)"),
        (True, "actions: ADD 2"), (True, "actions: DOUBLE"),
        (True, "actions: ADD 9 (not possible now: a power adds 1 to 6 a line (§3.1); tried again when its turn "
               "comes)")]
    service.submit("g1", "ann", "FOR RED\nDOUBLE\nFOR BLUE\nSTAND")
    projection = service.projection("g1")
    assert projection.finished
    assert projection.state().tallies == {"RED": 2, "GREEN": 4}


def test_lines_for_a_power_that_owes_nothing_yet_wait_for_its_next_decision(service):
    _powers_game(service)
    receipt = service.submit("g1", "ann", "PACE FAST\nFOR RED\nADD 2\nDOUBLE\nFOR BLUE\nADD 1").receipt
    assert receipt.accepted
    assert [(v.number, v.accepted, v.understood) for v in receipt.verdicts] == [
        (1, True, "pace: PACE FAST"), (2, True, "queued as Q1"),
        (3, True, "queued in Q1, alternative 1: read when its step opens"),
        (4, True, "queued in Q1, alternative 1: read when its step opens"), (5, True, "queued as Q2"),
        (6, True, "queued in Q2, alternative 1: read when its step opens")]
    assert receipt.queued == ["Q1 (queued): your next orders decision for RED, alternative 1 when always",
                              "Q2 (queued): your next orders decision for BLUE, alternative 1 when always"]
    service.submit("g1", "bob", "STAND")
    assert service.projection("g1").state().tallies == {"RED": 4, "BLUE": 1}


def test_lines_for_a_power_that_no_order_reads_are_refused_with_it(service):
    _powers_game(service)
    receipt = service.submit("g1", "ann", "FOR RED\nFLY 2").receipt
    assert not receipt.accepted
    assert [(v.accepted, v.reason) for v in receipt.verdicts] == [
        (False, "RED owes nothing now, and FLY opens no order of this game, so the lines after this one up to the "
                "next FOR cannot wait for its next decision"),
        (False, "not used: line 1 (FOR RED) was refused")]
