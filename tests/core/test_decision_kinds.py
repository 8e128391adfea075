"""A second ruleset gets order reading, policies, conditional lines, order forms and
receipts from the core: the minigame declares its decision kinds (`LineKind`s, an
`OptionKind` and two `BlockKind`s) and has no code of its own for any of it (DESIGN §4)."""

import pytest

from pbem.core.decisions import DecisionKinds, LineVerdict, kinds_of
from pbem.core.engine import Policy, Request
from pbem.core.probe import NeedsInput, Probe
from tests.support.minigame import BID, KEEP, MiniGame


def new_game(service, players, rounds=1):
    service.create("g1", "minigame", {"rounds": rounds}, players, secret=bytes(32))


def sources(service):
    return [e.source for e in service.loader.campaign_events("g1") if type(e).__name__ == "DecisionAnswered"]


def test_the_minigame_writes_no_order_reading_of_its_own():
    game = MiniGame()
    assert not any(hasattr(game, name) for name in ("read_orders", "read_policy", "check_policy", "order_form"))
    assert list(kinds_of(game).kinds) == ["bid", "keep", "pace", "orders", "actions"]


def test_an_order_line_is_read_and_echoed(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "ann", "bid 3").receipt
    assert receipt.accepted
    assert receipt.verdicts == [LineVerdict(number=1, text="bid 3", accepted=True, understood="bid: BID 3")]
    assert receipt.answered == ["your sealed bid"]


def test_a_bad_line_is_refused_with_its_reason(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "ann", "KEEP\nBID lots").receipt
    assert not receipt.accepted
    assert [(v.accepted, v.understood, v.reason) for v in receipt.verdicts] == [
        (False, "KEEP", "you owe no keep decision now (you owe: bid)"),
        (False, "", "not an answer to anything you owe"),
    ]


def test_a_later_line_replaces_an_earlier_answer_to_the_same_request(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "ann", "BID 1\nBID 2").receipt
    assert [(v.accepted, v.reason) for v in receipt.verdicts] == [(False, "replaced by line 2"), (True, "")]


def test_a_standing_policy_answers_through_its_kind(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "bob", "POLICY keep WHEN value>=1 DO REROLL").receipt
    assert receipt.verdicts[0].understood == "standing policy P1"
    for player, bid in (("ann", 1), ("bob", 5), ("cy", 0)):
        service.submit("g1", player, f"BID {bid}")
    assert service.projection("g1").finished
    assert sources(service) == ["policy P1 of bob"]


def test_a_policy_its_kind_cannot_read_is_refused(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "bob", "POLICY keep DO BID 3\nPOLICY fold DO FOLD").receipt
    assert [v.reason for v in receipt.verdicts] == [
        "a keep policy answers with KEEP | REROLL", "unknown decision kind 'fold'"]


def test_a_conditional_line_answers_a_request_of_its_step(service, players):
    new_game(service, players)
    for player, bid in (("ann", 1), ("bob", 5), ("cy", 0)):
        service.submit("g1", player, f"BID {bid}")
    value = service.projection("g1").pending()[0].context["value"]
    receipt = service.submit("g1", "bob", f"IF keep WHEN value={value} THEN KEEP").receipt
    assert receipt.accepted
    assert receipt.verdicts[0].understood == "conditional line L1 for keep: KEEP"
    assert service.projection("g1").finished
    assert sources(service) == ["conditional line L1 of bob"]


def test_a_conditional_line_that_does_not_hold_answers_nothing(service, players):
    new_game(service, players)
    for player, bid in (("ann", 1), ("bob", 5), ("cy", 0)):
        service.submit("g1", player, f"BID {bid}")
    value = service.projection("g1").pending()[0].context["value"]
    service.submit("g1", "bob", f"IF keep WHEN value!={value} THEN KEEP")
    assert [r.kind for r in service.projection("g1").pending()] == ["keep"]


def test_a_conditional_line_its_kind_cannot_read_is_refused(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "ann", "IF bid THEN BID many\nIF fold THEN FOLD").receipt
    assert not receipt.accepted
    assert [v.reason for v in receipt.verdicts] == [
        "a bid policy answers with BID <n>", "unknown decision kind 'fold'"]


def test_the_order_form_and_the_receipt_offer_the_default_line(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "ann", "BID 2").receipt
    assert receipt.owed == []
    owed = service.submit("g1", "bob", "READY").receipt.owed
    assert [(o.kind, o.default_form) for o in owed] == [("bid", "BID 0")]
    keep = Request(key="k", kind="keep", player="bob", prompt="", default="no")
    assert kinds_of(MiniGame()).order_form(keep) == "REROLL"


def test_routing_is_by_kind_whatever_the_order_of_the_owed_requests():
    kinds = DecisionKinds([BID, KEEP])
    owed = [Request(key="keep#1", kind="keep", player="p", prompt="", default="yes"),
            Request(key="bid#1", kind="bid", player="p", prompt="", default=0)]
    reading = kinds.read_orders([(1, "BID 4"), (2, "REROLL")], owed, state=None, scenario=None, player="p")
    assert reading.answers == {"bid#1": 4, "keep#1": "no"}
    assert kinds.answer_policy(Policy("P1", "p", "bid", "BID 7"), owed[1]) == 7
    assert kinds.answer_policy(Policy("P1", "p", "bid", "KEEP"), owed[1]) is None


def test_the_probe_builds_requests_like_the_live_step_and_stops_at_the_first_decision_or_die():
    probe = Probe(scenario=None, step="s1")
    first = probe.request(kind="keep", player="p", prompt="", default="yes")
    assert (first.key, probe.request(kind="keep", player="p", prompt="", default="yes").key) == ("s1/keep#1",
                                                                                              "s1/keep#2")
    probe.say("nobody hears a dry run")
    for ask in (lambda: probe.decide(first), lambda: probe.decide_all([first]), lambda: probe.roll("round"),
                lambda: probe.draw_index("tie", 3), lambda: probe.shuffle("deck", [1, 2])):
        with pytest.raises(NeedsInput):
            ask()
