"""Queued orders (issue 16) through the core alone, on the minigame: a player's blocks for
their own later decisions are used as each step opens, guarded by conditions on what
they see, checked then, and visible and revocable until used."""

from pbem.core.campaign import Campaign
from pbem.reports.models import build_report


def new_game(service, players, rounds=2):
    service.create("g1", "minigame", {"rounds": rounds}, players, secret=bytes(32))


def facts(service, kind):
    return [e for e in service.loader.campaign_events("g1") if isinstance(e, kind)]


def bid_all(service, bob_text=""):
    service.submit("g1", "ann", "BID 1")
    service.submit("g1", "cy", "BID 0")
    return service.submit("g1", "bob", "BID 5\n" + bob_text)  # bob leads every round


def test_queued_blocks_answer_the_next_decisions_of_their_kind_in_order(service, players):
    new_game(service, players)
    outcome = bid_all(service, "QUEUE keep\nKEEP\nENDQUEUE\nQUEUE keep\nREROLL\nENDQUEUE")
    assert outcome.receipt.accepted
    assert [v.understood for v in outcome.receipt.verdicts[1:]] == [
        "queued as Q1", "queued in Q1, alternative 1: read when its step opens",
        "queued as Q2", "queued in Q2, alternative 1: read when its step opens"]
    projection = service.projection("g1")
    assert projection.finished  # both rounds resolved from one mail: nobody was waited for
    used = facts(service, Campaign.QueuedOrdersUsed)
    assert [(u.queue_id, u.step, u.answers) for u in used] == [
        ("Q1", "round-1", {"round-1/keep#1": "yes"}), ("Q2", "round-2", {"round-2/keep#1": "no"})]
    assert not facts(service, Campaign.StepOpened)[1:]  # only the bidding waited
    assert projection.data.queued == []


def test_the_first_alternative_whose_conditions_hold_is_used(service, players):
    new_game(service, players, rounds=1)
    bid_all(service, "QUEUE keep\nWHEN leader=ann\nREROLL\nELSE WHEN leader=bob AND score>=0\nKEEP\nELSE\nREROLL\n"
                     "ENDQUEUE")
    (used,) = facts(service, Campaign.QueuedOrdersUsed)
    assert (used.alternative, used.answers) == (1, {"round-1/keep#1": "yes"})


def test_a_block_whose_conditions_all_fail_is_dropped_and_the_step_waits(service, players):
    new_game(service, players, rounds=1)
    bid_all(service, "QUEUE keep\nWHEN score>99\nKEEP\nENDQUEUE")
    (dropped,) = facts(service, Campaign.QueuedOrdersDropped)
    assert dropped.reason == "no alternative's conditions held when the step opened (score>99)"
    projection = service.projection("g1")
    assert [r.key for r in projection.pending()] == ["round-1/keep#1"]
    report = build_report(projection, "bob")
    assert report.queue_notes == ["queued orders Q1 dropped at round-1: no alternative's conditions held when the "
                                  "step opened (score>99)"]


def test_a_block_that_cannot_be_used_when_its_step_opens_is_dropped_with_its_reason(service, players):
    new_game(service, players, rounds=1)
    bid_all(service, "QUEUE keep\nBID 9\nENDQUEUE")
    (dropped,) = facts(service, Campaign.QueuedOrdersDropped)
    assert dropped.reason == ("its orders could not be used now (line 3 'BID 9': you owe no bid decision now "
                              "(you owe: keep))")
    assert [(v["accepted"], v["reason"]) for v in dropped.verdicts] == [
        (False, "you owe no bid decision now (you owe: keep)")]
    assert [r.key for r in service.projection("g1").pending()] == ["round-1/keep#1"]


def test_a_block_is_never_used_for_the_step_in_progress_when_it_was_queued(service, players):
    new_game(service, players)
    bid_all(service)
    service.submit("g1", "bob", "QUEUE keep\nREROLL\nENDQUEUE")
    projection = service.projection("g1")
    assert [r.key for r in projection.pending()] == ["round-1/keep#1"]  # round 1 is answered directly
    service.submit("g1", "bob", "KEEP")
    (used,) = facts(service, Campaign.QueuedOrdersUsed)
    assert (used.step, used.answers) == ("round-2", {"round-2/keep#1": "no"})
    assert service.projection("g1").finished


def test_blocks_are_replaced_and_cleared_before_their_step(service, players):
    new_game(service, players, rounds=1)
    service.submit("g1", "bob", "QUEUE keep\nKEEP\nENDQUEUE\nQUEUE keep TURN 1\nKEEP\nENDQUEUE")
    receipt = service.submit("g1", "bob", "QUEUE keep REPLACE Q1\nREROLL\nENDQUEUE").receipt
    assert receipt.queued == ["Q1 (replaced): your next keep decision, alternative 1 when always"]
    assert [b.id for b in service.projection("g1").data.queued] == ["Q1", "Q2"]  # Q1 keeps its place
    receipt = service.submit("g1", "bob", "QUEUE CLEAR Q2\nQUEUE CLEAR Q7").receipt
    assert [(v.accepted, v.reason) for v in receipt.verdicts] == [
        (True, ""), (False, "you have no queued block Q7 (yours: Q1)")]
    bid_all(service)
    (used,) = facts(service, Campaign.QueuedOrdersUsed)
    assert (used.queue_id, used.answers) == ("Q1", {"round-1/keep#1": "no"})
    receipt = service.submit("g1", "ann", "QUEUE CLEAR ALL").receipt  # clearing an empty queue is harmless
    assert receipt.accepted and receipt.queued == ["queued ALL cleared"]


def test_blocks_that_cannot_be_queued_are_refused_at_once(service, players):
    new_game(service, players)
    receipt = service.submit("g1", "bob", "QUEUE FOR FRA keep\nKEEP\nENDQUEUE\nQUEUE kepp\nKEEP\nENDQUEUE\n"
                                          "QUEUE keep\nWHEN\nKEEP\nENDQUEUE\nQUEUE keep\nKEEP\nELSE\nENDQUEUE\n"
                                          "QUEUE keep\nKEEP").receipt
    assert [(v.number, v.accepted, v.reason) for v in receipt.verdicts] == [
        (1, False, "unknown power 'FRA'"),
        (4, False, "unknown decision kind 'kepp'; did you mean keep?"),
        (7, False, "line 8: WHEN comes once, first in its alternative, with at least one condition"),
        (11, False, "alternative 2 has no order lines"),
        (15, False, "QUEUE without ENDQUEUE: the block was not queued"),
    ]
    assert service.projection("g1").data.queued == []


def test_the_report_lists_a_players_queue_and_the_gm_sees_everyones(service, players):
    new_game(service, players)
    service.submit("g1", "bob", "QUEUE keep TURN 2\nWHEN score>=4\nKEEP\nELSE\nREROLL\nENDQUEUE")
    projection = service.projection("g1")
    (mine,) = build_report(projection, "bob").queued
    assert (mine.id, mine.target, mine.alternatives) == ("Q1", "your next keep decision from turn 2 on",
                                                         ["score>=4", "always"])
    assert build_report(projection, "ann").queued == []


def test_a_dropped_block_does_not_let_the_next_one_answer_its_step(service, players):
    """Issue 25.5: "nothing queued is used for a step it was not written for" — when Q1 is
    dropped at round 1, Q2 (bob's next keep, written for round 2) waits for round 2."""
    new_game(service, players)
    bid_all(service, "QUEUE keep\nWHEN score>99\nKEEP\nENDQUEUE\nQUEUE keep\nREROLL\nENDQUEUE")
    (dropped,) = facts(service, Campaign.QueuedOrdersDropped)
    assert (dropped.queue_id, dropped.step) == ("Q1", "round-1")
    assert not facts(service, Campaign.QueuedOrdersUsed)
    projection = service.projection("g1")
    assert [r.key for r in projection.pending()] == ["round-1/keep#1"]  # round 1 waits for bob
    assert [b.id for b in projection.data.queued] == ["Q2"]
    service.submit("g1", "bob", "KEEP")
    (used,) = facts(service, Campaign.QueuedOrdersUsed)
    assert (used.queue_id, used.step, used.answers) == ("Q2", "round-2", {"round-2/keep#1": "no"})


def test_when_paths_are_checked_when_queued(service, players, monkeypatch):
    """Issue 25.5: a condition on a path the player's view does not have would only ever be
    silently false; a misspelt one is refused with a suggestion, one only the GM sees as such."""
    from tests.support.minigame import MiniGame

    shown = MiniGame.view

    def view(self, state, scenario, viewer):
        return {**shown(self, state, scenario, viewer), **({"secret": {"pile": 3}} if viewer == "gm" else {})}

    monkeypatch.setattr(MiniGame, "view", view)
    new_game(service, players)
    receipt = service.submit("g1", "bob", "QUEUE keep\nWHEN leadr=bob\nKEEP\nENDQUEUE\n"
                                          "QUEUE keep\nWHEN secret.pile>2 AND players.ann.bidd=1\nKEEP\nENDQUEUE\n"
                                          "QUEUE keep\nWHEN players.ann.bid=1 AND leader=bob\nKEEP\nENDQUEUE").receipt
    assert [(v.number, v.accepted, v.reason) for v in receipt.verdicts if v.number in (1, 5, 9)] == [
        (1, False, "WHEN leadr: your view has no 'leadr'; did you mean leader?"),
        (5, False, "WHEN secret.pile is not yours to see; players.ann.bidd: your view has no 'bidd' in "
                   "players.ann; did you mean bid?"),
        (9, True, ""),
    ]
    assert [b.id for b in service.projection("g1").data.queued] == ["Q1"]
